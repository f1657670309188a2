#!/usr/bin/env bash
# Signals (SECURITY.md "Output"): SIGTERM, SIGINT or SIGHUP at a random
# moment of migrate --in-place over a tree of 2,000 files, 12 times:
# no temporary (.NAME.wingen-XXXXXX) is left, and the tree is all as it
# was or all migrated (the renames run with the signals held), never a
# mix.  Chart migrate (a helm that sleeps through its second render, so
# the signal comes while it runs): its copy of the chart
# (wingen-chart-XXXXXX) and its values file (wingen-values-XXXXXX) are
# removed and the helm is killed.
#   signals.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
# in memory where there is a tmpfs: a trial waits for no disk
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
suite_scratch || exit 1
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG

print() { (cd "$1" && find . -type f ! -name '.*' -exec md5sum {} + | sort -k2 | md5sum); }
temps() { find "$tmp" -name '.*.wingen-*' | head -3; }
ms() { date +%s%3N; }
# alive PID: running (a killed child no one has reaped yet is a zombie)
alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat"; }

mkdir orig
for d in $(seq 1 20); do
	mkdir "orig/d$d"
	for f in $(seq 1 100); do
		printf '# %d/%d\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w%d-%d}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n' \
			"$d" "$f" "$d" "$f" >"orig/d$d/f$f.yaml"
	done
done
want_orig=$(print orig)
cp -R orig done
start=$(ms)
"$wingen" migrate done --in-place >/dev/null 2>err \
	|| { no "the run without a signal failed"; cat err; }
took=$(($(ms) - start))
want_done=$(print done)
[ "$want_done" != "$want_orig" ] || no "the run changed nothing"

sigs=(TERM INT HUP)
n_orig=0 n_done=0 n_killed=0
for trial in $(seq 1 12); do
	rm -rf t
	cp -R orig t
	sig=${sigs[$((trial % 3))]}
	wait_ms=$((RANDOM % (took + 20)))
	"$wingen" migrate t --in-place >/dev/null 2>"err$trial" &
	pid=$!
	sleep "$((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	got=$(print t)
	left=$(temps)
	[ -z "$left" ] || no "trial $trial (SIG$sig after ${wait_ms} ms): a temporary is left: $left"
	if [ "$got" = "$want_orig" ]; then
		n_orig=$((n_orig + 1))
		[ $rc = 0 ] && no "trial $trial: exit 0 and nothing migrated"
	elif [ "$got" = "$want_done" ]; then
		n_done=$((n_done + 1))
	else
		no "trial $trial (SIG$sig after ${wait_ms} ms, exit $rc): the tree is a mix of old and new files"
	fi
	[ $rc -gt 128 ] && n_killed=$((n_killed + 1))
	[ $rc = 0 ] || [ $rc -gt 128 ] \
		|| { no "trial $trial: exit $rc"; cat "err$trial"; }
done
echo "12 signals over ${took} ms runs: $n_killed killed, $n_orig left the tree as it was, $n_done finished"
[ $n_killed -gt 0 ] || no "no signal arrived while a run was going"

# chart migrate: a signal while helm renders the copy, or with the values
# file, must leave neither, nor the helm
if [ -x "${WG_HELM3:-}" ]; then
	export HELM_CONFIG_HOME=$tmp/hc HELM_DATA_HOME=$tmp/hd \
		HELM_CACHE_HOME=$tmp/hk
	mkdir -p scratch
	# a helm that sleeps when an argument names wingen's scratch
	cat >slowhelm <<S
#!/bin/sh
for a in "\$@"; do
	case \$a in *wingen-chart-*|*wingen-values-*)
		echo \$\$ >"$tmp/helm.pid"; exec sleep 60 ;;
	esac
done
exec "$WG_HELM3" "\$@"
S
	chmod +x slowhelm
	chart() {	# chart DIR [literal]: needs a values edit (and a template one)
		rm -rf "$1"; mkdir -p "$1/templates"
		printf 'apiVersion: v2\nname: c\nversion: 0.1.0\n' >"$1/Chart.yaml"
		printf '# values\nnodeSelector: {}\n' >"$1/values.yaml"
		cat >"$1/templates/d.yaml" <<'Y'
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
		[ -n "${2:-}" ] && cat >"$1/templates/t.yaml" <<'Y'
apiVersion: apps/v1
kind: Deployment
metadata: {name: lit}
spec:
  selector: {matchLabels: {app: lit}}
  template:
    metadata: {labels: {app: lit}}
    spec:
      containers:
        - name: web
          image: nginx
Y
		return 0
	}
	for kind in values literal; do
		for sig in TERM INT HUP; do
			chart ch "$([ $kind = literal ] && echo 1)"
			rm -f helm.pid
			TMPDIR=$tmp/scratch "$wingen" migrate ch --in-place \
				--helm "$tmp/slowhelm" >/dev/null 2>err &
			pid=$!
			for _ in $(seq 1 100); do
				[ -s helm.pid ] && break
				sleep 0.05
			done
			[ -s helm.pid ] || { no "chart $kind: helm never rendered the scratch"; cat err; }
			kill -"$sig" "$pid"
			wait "$pid"
			rc=$?
			[ $rc -gt 128 ] || no "chart $kind SIG$sig: exit $rc"
			[ -z "$(ls -A scratch)" ] \
				|| no "chart $kind SIG$sig: left in TMPDIR: $(ls scratch)"
			sleep 0.2
			if [ -s helm.pid ] && alive "$(cat helm.pid)"; then
				no "chart $kind SIG$sig: helm still runs"
				kill "$(cat helm.pid)"
			fi
			[ -z "$(temps)" ] || no "chart $kind SIG$sig: a temporary is left: $(temps)"
		done
	done
else
	echo "note: no \$WG_HELM3: the chart's scratch is not tried"
fi

[ $fail = 0 ] && echo "ok signals leave nothing behind and no mixed tree"
exit $fail
