#!/usr/bin/env bash
# Bad input that golden cases cannot express: unreadable files.  Each case
# must exit 1, write nothing on stdout, and name the file in one message.
set -u
wingen=$1
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
fail=0

check() {	# check NAME WANT_IN_STDERR ARGS...
	local name=$1 want=$2
	shift 2
	"$wingen" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" != 1 ]; then echo "FAIL $name: exit $rc, expected 1"; fail=1; fi
	if [ -s "$tmp/out" ]; then echo "FAIL $name: wrote to stdout"; fail=1; fi
	if ! grep -qF -- "$want" "$tmp/err"; then
		echo "FAIL $name: stderr lacks '$want':"; cat "$tmp/err"; fail=1
	fi
	if [ "$(wc -l <"$tmp/err")" -gt 3 ]; then
		echo "FAIL $name: too many messages:"; cat "$tmp/err"; fail=1
	fi
}

printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n' >"$tmp/good.yaml"

# A read error in the middle of reading (EIO from /proc/self/mem at 0).
check read-error "/proc/self/mem: error: cannot read" fmt -f "$tmp/good.yaml" -f /proc/self/mem

# A file without read permission (root reads anything: only as a user).
if [ "$(id -u)" != 0 ]; then
	cp "$tmp/good.yaml" "$tmp/secret.yaml"
	chmod 000 "$tmp/secret.yaml"
	check unreadable "secret.yaml: error: cannot open: Permission denied" fmt -f "$tmp/secret.yaml"
fi

# A folder that cannot be listed, as a user; a missing file inside -f lists.
check missing "nope.yaml: error: cannot open" build -f "$tmp/good.yaml" -f "$tmp/nope.yaml"

# --output-file into a folder that does not exist: nothing written, one message.
check bad-output "cannot create a temporary file" fmt -f "$tmp/good.yaml" --output-file "$tmp/no/such/out.yaml"

exit $fail
