#!/usr/bin/env bash
# wingen never runs a program (SECURITY.md "Trust boundaries"): no call
# that starts one appears in src/, gen/ or transforms/, and the binary
# imports none.  One exception, SECURITY.md "Chart migration runs helm":
# src/migrate/chart_helm.c may fork and execve (an argv, no shell: not
# execvp, which hands a file it cannot execute to /bin/sh), and the
# binary may import those two and nothing else of the list.
#   noexec.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
calls='system|popen|fork|vfork|clone|execl|execlp|execle|execv|execvp|execvpe|execve|fexecve|posix_spawn|posix_spawnp|dlopen'
hits=$(grep -EnH "(^|[^A-Za-z0-9_.>])($calls)[[:space:]]*\(" \
	"$src"/src/*/*.c "$src"/src/*/*.h \
	"$src"/gen/*.c "$src"/transforms/*.c "$src"/transforms/*.h \
	"$src"/include/wingen/*/*.h 2>/dev/null \
	| grep -Ev "^$src/src/migrate/chart_helm\.c:[0-9]+:.*(^|[^A-Za-z0-9_])(fork|execve)[[:space:]]*\(")
allowed=$(grep -EnH "(^|[^A-Za-z0-9_.>])(fork|execve)[[:space:]]*\(" \
	"$src"/src/migrate/chart_helm.c | grep -c .)
if [ "$allowed" -ne 2 ]; then
	echo "FAIL chart_helm.c should call fork and execve once each" \
	     "(found $allowed calls): update SECURITY.md and this test together"
	fail=1
fi
if [ -n "$hits" ]; then
	echo "FAIL a call that runs a program:"; echo "$hits"; fail=1
else
	echo "ok no exec-like call in the sources"
fi
if command -v nm >/dev/null 2>&1; then
	imports=$(nm -D --undefined-only "$wingen" 2>/dev/null \
		| awk '{ print $NF }' | sed 's/@.*//' \
		| grep -Ex "($calls|_Fork|__libc_system)" \
		| grep -Evx 'fork|execve')
	if [ -n "$imports" ]; then
		echo "FAIL the binary imports: $imports"; fail=1
	else
		echo "ok the binary imports no exec-like function"
	fi
fi
exit $fail
