#!/usr/bin/env bash
# Lost edits and mixed trees (SECURITY.md "Output"):
#   - a file edited while migrate --in-place runs (an LD_PRELOAD shim
#     edits it when wingen syncs its temporaries, after the read and
#     before the renames) is not replaced: exit 1, an error naming it,
#     the edit kept and no other file changed; with several files
#     (syncfs), one file (fsync), an edit of the same size with its
#     modification time put back, and a chart's values.yaml (real Helm 3,
#     when $WG_HELM3 is set: its bytes are compared, no stamp is known);
#   - a tree locked by another process (flock, as a running migrate
#     holds it): --in-place fails at once with a message naming it and
#     writes nothing, also when the lock is on a folder around the tree
#     (a run writing it); --diff passes a shared lock and fails on an
#     exclusive one; a run over a folder beside the tree (a shared lock
#     on their parent) does not stop it;
#   - two runs started together over one folder of 300 files, with
#     profiles that write different results, 6 times: the tree ends as
#     one of the runs (or both, one after the other) made it, never a
#     mix, and each run exits 0 or is refused by the lock.
#   migrate_concurrent.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
# in memory where there is a tmpfs: the runs' syncfs and the copies of
# the tree then wait for no disk (flock is the same there)
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
suite_scratch || exit 1
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG
# ASan wants to come first among preloaded libraries; the shim is fine.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
locked="another process holds a lock on it"

dep() {	# dep NAME: a Deployment the default profile pins to Linux
	printf '# %s\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n' "$1" "$1"
}
print() {	# print TREE: each file's path and checksum
	(cd "$1" && find . -type f ! -name '.*' -exec md5sum {} + | sort -k2)
}
temps() { find "$tmp" -name '.*.wingen-*' | head -3; }

# --- an edit during the run ------------------------------------------------
shim=
if command -v cc >/dev/null 2>&1; then
	cat >shim.c <<'C'
/* At wingen's first syncfs() or fsync() (its temporaries are written, no
 * file is renamed yet), edits $WG_EDIT: appends a comment line, or with
 * WG_EDIT_SAME set, changes one byte in place and puts its modification
 * time back. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void edit(void)
{
	static int done;
	const char *path = getenv("WG_EDIT");
	struct stat st;
	int fd;

	if (done || !path)
		return;
	done = 1;
	if (getenv("WG_EDIT_SAME")) {
		struct timespec t[2];

		if (stat(path, &st) != 0)
			return;
		t[0] = st.st_atim;
		t[1] = st.st_mtim;
		fd = open(path, O_WRONLY);
		if (fd < 0 || pwrite(fd, "#", 1, 0) != 1)
			return;
		futimens(fd, t);
		close(fd);
		return;
	}
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd >= 0 && write(fd, "# the user's edit\n", 18) == 18)
		close(fd);
}

int syncfs(int fd)
{
	static int (*real)(int);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "syncfs");
	edit();
	return real(fd);
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fsync");
	edit();
	return real(fd);
}
C
	if cc -shared -fPIC -o shim.so shim.c -ldl 2>shim.err; then
		shim=$tmp/shim.so
	else
		echo "note: cannot build the shim: $(head -3 shim.err)"
	fi
fi

# edited NAME FILE ARGS...: migrate ARGS --in-place with FILE edited
# mid-run: refused, naming FILE, the edit kept, nothing else changed
edited() {
	local name=$1 file=$2 before
	shift 2
	before=$(print t)
	WG_EDIT=$file LD_PRELOAD=$shim "$wingen" migrate "$@" --in-place \
		>out 2>err
	rc=$?
	[ $rc = 1 ] || no "$name: exit $rc, want 1"
	grep -qF "$file: error: changed since wingen read it" err \
		|| { no "$name: no error naming $file"; cat err; }
	if [ -z "${WG_EDIT_SAME:-}" ]; then
		tail -1 "$file" | grep -q "the user's edit" \
			|| no "$name: the user's edit is lost"
	else
		head -c1 "$file" | grep -q '#' || no "$name: the edit is lost"
	fi
	# every other file as it was
	diff <(grep -v "^[^ ]*  ./${file#t/}\$" <<<"$before") \
		<(print t | grep -v "  ./${file#t/}\$") >/dev/null \
		|| no "$name: another file changed"
	[ -z "$(temps)" ] || no "$name: a temporary is left: $(temps)"
}
if [ -n "$shim" ]; then
	rm -rf t; mkdir t
	for i in 1 2 3; do dep "d$i" >"t/d$i.yaml"; done
	edited "an edit of one of three files" t/d2.yaml t
	rm -rf t; mkdir t; dep d1 >t/d1.yaml
	edited "an edit of the one file" t/d1.yaml t
	rm -rf t; mkdir t
	for i in 1 2; do dep "d$i" >"t/d$i.yaml"; done
	touch -d '2001-01-01' t/d1.yaml t/d2.yaml
	WG_EDIT_SAME=1 edited "a same-size edit, time put back" t/d1.yaml t
	if [ -x "${WG_HELM3:-}" ]; then
		export HELM_CONFIG_HOME=$tmp/hc HELM_DATA_HOME=$tmp/hd \
			HELM_CACHE_HOME=$tmp/hk
		rm -rf t; mkdir -p t/templates
		printf 'apiVersion: v2\nname: c\nversion: 0.1.0\n' >t/Chart.yaml
		printf '# values\nnodeSelector: {}\n' >t/values.yaml
		cat >t/templates/d.yaml <<'Y'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {{- toYaml .Values.nodeSelector | nindent 8 }}
      containers: [{name: web, image: nginx}]
Y
		edited "an edit of a chart's values.yaml" t/values.yaml t \
			--helm "$WG_HELM3"
	else
		echo "note: no \$WG_HELM3: the chart's edit is not tried"
	fi
else
	echo "note: no C compiler: the edits during a run are not tried"
fi

# --- a tree locked by another process -------------------------------------
rm -rf t; mkdir -p t/sub
for i in 1 2; do dep "d$i" >"t/d$i.yaml"; done
dep s1 >t/sub/s1.yaml
# lockedby MODE DIR WANT ARGS...: with DIR locked (flock MODE) by
# another process, migrate ARGS succeeds (WANT ok) or fails at once,
# saying so
lockedby() {
	local mode=$1 dir=$2 want=$3 start end before
	shift 3
	before=$(print t)
	# -F: the holder is sleep itself (no child left holding the lock)
	flock -F "$mode" "$dir" sleep 30 &
	local holder=$!
	sleep 0.3
	start=$(date +%s%N)
	"$wingen" migrate "$@" >out 2>err
	rc=$?
	end=$(date +%s%N)
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	# --diff exits as kubectl diff: 1 a change, 2 no answer
	local done=0 failed=1
	case " $* " in *" --diff "*) done=1 failed=2 ;; esac
	if [ "$want" = ok ]; then
		[ $rc = $done ] || { no "$* with $dir locked $mode: exit $rc"; cat err; }
		return
	fi
	[ $rc = $failed ] && grep -qF "$locked" err \
		|| { no "$* with $dir locked $mode: exit $rc, no lock message"; cat err; }
	[ $(((end - start) / 1000000)) -lt 5000 ] \
		|| no "$* with $dir locked $mode: took $(((end - start) / 1000000)) ms"
	[ "$(print t)" = "$before" ] || no "$* with $dir locked $mode: wrote"
}
lockedby -x t refused t --in-place	# a run writing the tree
lockedby -s t refused t --in-place	# one reading it, or inside it
lockedby -x . refused t --in-place	# one writing a folder around it
lockedby -x t refused t --diff
lockedby -s t ok t --diff		# another --diff
lockedby -s . ok t --in-place		# a run over a folder beside it
[ -z "$(temps)" ] || no "locked: a temporary is left: $(temps)"

# --- two runs at once -----------------------------------------------------
cat >pb.yaml <<'Y'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: b}
windows:
  builds: [{release: ltsc2022}]
  select:
    - kinds: [Deployment]
Y
rm -rf orig; mkdir orig
for i in $(seq 1 300); do dep "d$i" >"orig/d$i.yaml"; done
# the trees a run, or two one after the other, can leave
run_a() { "$wingen" migrate "$1" --in-place; }
run_b() { "$wingen" migrate pb.yaml "$1" --in-place; }
want=()
for seq in "" a b ab ba; do
	rm -rf s; cp -R orig s
	for step in $(grep -o . <<<"$seq"); do run_$step s >/dev/null 2>&1; done
	want+=("$(print s | md5sum)")
done
refusals=0
for trial in 1 2 3 4 5 6; do
	rm -rf c; cp -R orig c
	run_a c >a.out 2>a.err &
	pa=$!
	run_b c >b.out 2>b.err &
	pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	got=$(print c | md5sum)
	found=
	for w in "${want[@]}"; do [ "$got" = "$w" ] && found=1; done
	[ -n "$found" ] || no "trial $trial: a mixed tree (exits $ra, $rb)"
	for x in a b; do
		eval "r=\$r$x"
		if [ "$r" != 0 ] && grep -qF "$locked" "$x.err"; then
			refusals=$((refusals + 1))
		fi
	done
	[ -z "$(temps)" ] || no "trial $trial: a temporary is left: $(temps)"
done
[ $refusals -gt 0 ] || no "6 trials of two runs at once: no run was refused"
echo "two runs at once: $refusals of 6 trials refused one run by the lock"

[ $fail = 0 ] && echo "ok no lost edit, no mixed tree"
exit $fail
