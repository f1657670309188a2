#!/usr/bin/env bash
# Helm bounded (SECURITY.md "Chart migration runs helm"):
#   - a packed subchart that unpacks to 110 MiB (a gzip bomb of 110 KiB)
#     is refused before helm runs (the default chart-bytes is 100 MiB),
#     with wingen's own memory small; one hidden in the second gzip member,
#     and one packed inside a packed chart, too;
#   - a helm that runs past helm-seconds is stopped, with what it started;
#   - helm runs with RLIMIT_DATA at helm-memory, and GOMEMLIMIT below it;
#   - the real Helm 3 on a 640 MiB bomb, let through (chart-bytes
#     raised), dies within helm-memory=256M instead of taking gigabytes
#     (RSS measured).
#   helm_limits.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
helm_clients || exit 77
suite_scratch || exit 1
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG WINGEN_LIMITS GOMEMLIMIT
helm_env 3 "$tmp"
alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat"; }

# chart DIR: a chart with one Deployment to pin
chart() {
	mkdir -p "$1/templates" "$1/charts"
	printf 'apiVersion: v2\nname: c\nversion: 0.1.0\n' >"$1/Chart.yaml"
	printf 'nodeSelector: {}\n' >"$1/values.yaml"
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
}
# bomb OUT MIB: a packed chart whose values.yaml is MIB MiB of zeros,
# gzip'd as one member for the tar headers and one per MiB of zeros
# (gzip members one after another read as one stream: nothing to
# compress at test time but one MiB)
head -c 1048576 /dev/zero | gzip -1 >z1.gz
for k in 1 2 4 8 16 32; do cat "z$k.gz" "z$k.gz" >"z$((2 * k)).gz"; done
bomb() {
	rm -rf b; mkdir -p b/bomb
	printf 'apiVersion: v2\nname: bomb\nversion: 0.1.0\n' >b/bomb/Chart.yaml
	truncate -s "$2M" b/bomb/values.yaml
	# the tar up to the values' data: Chart.yaml's header and block,
	# values.yaml's header; all that follows is zeros
	tar -C b -cf - bomb/Chart.yaml bomb/values.yaml 2>/dev/null \
		| head -c 1536 | gzip >"$1"
	{
		for _ in $(seq 1 $(($2 / 64))); do cat z64.gz; done
		for _ in $(seq 0 $(($2 % 64))); do cat z1.gz; done
	} >>"$1"
}

# a helm that says it ran
cat >fakehelm <<S
#!/bin/sh
touch "$tmp/helm-ran"
exec "$helm3" "\$@"
S
chmod +x fakehelm

chart c1
bomb c1/charts/bomb-0.1.0.tgz 110
ls -la c1/charts/bomb-0.1.0.tgz | awk '{ print "bomb: " $5 " bytes packed" }'
# refused BOMB: the run exits 2 (migrate --diff answers as kubectl diff:
# 2 is no answer) naming the archive, helm never runs,
# wingen stays small (its max RSS from GNU time, or bash's times)
refused() {
	rm -f helm-ran
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o rss "$wingen" migrate c1 --diff \
			--helm "$tmp/fakehelm" >out 2>err
	else
		"$wingen" migrate c1 --diff --helm "$tmp/fakehelm" >out 2>err
	fi
	rc=$?
	[ $rc = 2 ] || no "$1: exit $rc, want 2"
	grep -q "$2: error: the packed chart is refused before helm reads it: it unpacks to more than" err \
		|| { no "$1: no error naming $2"; cat err; }
	[ -e helm-ran ] && no "$1: helm ran"
	if [ -s rss ] && [ "$(tail -1 rss)" -gt 65536 ]; then
		no "$1: wingen took $(tail -1 rss) KB checking the bomb"
	fi
}
refused "a 110 MiB bomb" c1/charts/bomb-0.1.0.tgz
# the same, hidden after a small first gzip member
printf 'x' | gzip >c1/charts/bomb-0.1.0.tgz.new
cat c1/charts/bomb-0.1.0.tgz >>c1/charts/bomb-0.1.0.tgz.new
mv c1/charts/bomb-0.1.0.tgz.new c1/charts/bomb-0.1.0.tgz
refused "a bomb in the second gzip member" c1/charts/bomb-0.1.0.tgz
# the same, packed inside a packed chart
rm -rf c1/charts/* o; mkdir -p o/outer/charts
printf 'apiVersion: v2\nname: outer\nversion: 0.1.0\n' >o/outer/Chart.yaml
bomb o/outer/charts/bomb-0.1.0.tgz 110
tar -C o -czf c1/charts/outer-0.1.0.tgz outer
refused "a bomb inside a packed chart" c1/charts/outer-0.1.0.tgz
rm -rf c1/charts/* b o

# a small packed chart is fine, and helm runs
rm -rf b; mkdir -p b/bomb
printf 'apiVersion: v2\nname: bomb\nversion: 0.1.0\n' >b/bomb/Chart.yaml
printf '# small\nkey: value\n' >b/bomb/values.yaml
tar -C b -czf c1/charts/bomb-0.1.0.tgz bomb
rm -f helm-ran
"$wingen" migrate c1 --diff --helm "$tmp/fakehelm" >out 2>err
rc=$?
[ $rc -le 1 ] || { no "a 1 MiB packed chart: exit $rc"; cat err; }
[ -e helm-ran ] || no "a 1 MiB packed chart: helm did not run"
rm -rf c1/charts/*

# the time limit: a helm that hangs, with a child of its own
cat >hanghelm <<S
#!/bin/sh
sleep 60 &
echo \$! >"$tmp/child.pid"
echo \$\$ >"$tmp/helm.pid"
wait
S
chmod +x hanghelm
start=$(date +%s)
WINGEN_LIMITS=helm-seconds=1 "$wingen" migrate c1 --diff \
	--helm "$tmp/hanghelm" >out 2>err
rc=$?
took=$(($(date +%s) - start))
[ $rc = 2 ] && grep -q "did not finish within 1 s, and was stopped (WINGEN_LIMITS helm-seconds)" err \
	|| { no "a hanging helm: exit $rc"; cat err; }
[ $took -le 10 ] || no "a hanging helm: the run took $took s"
sleep 0.2
for p in helm child; do
	if [ -s $p.pid ] && alive "$(cat $p.pid)"; then
		no "a hanging helm: its $p still runs"
		kill "$(cat $p.pid)"
	fi
done

# the memory limit, as helm sees it
cat >limhelm <<'S'
#!/bin/sh
echo "data=$(ulimit -d) gomemlimit=$GOMEMLIMIT" >&2
exit 3
S
chmod +x limhelm
WINGEN_LIMITS=helm-memory=256M "$wingen" migrate c1 --diff \
	--helm "$tmp/limhelm" >out 2>err
grep -q "data=262144 gomemlimit=201326592" err \
	|| { no "helm-memory=256M: helm did not run with RLIMIT_DATA 256M and GOMEMLIMIT 192M"; cat err; }
GOMEMLIMIT=100MiB "$wingen" migrate c1 --diff --helm "$tmp/limhelm" \
	>out 2>err
grep -q "data=2097152 gomemlimit=100MiB" err \
	|| { no "the user's GOMEMLIMIT was not kept"; cat err; }

# the real Helm 3 on a bomb let through: bounded by helm-memory
bomb c1/charts/bomb-0.1.0.tgz 640
if [ -x /usr/bin/time ]; then
	WINGEN_LIMITS=chart-bytes=1G,helm-memory=256M /usr/bin/time -f '%M' \
		-o rss "$wingen" migrate c1 --diff --helm "$helm3" >out 2>err
	rc=$?
	[ $rc = 2 ] && grep -q "helm runs within WINGEN_LIMITS helm-memory" err \
		|| { no "Helm 3 on a 640 MiB bomb: exit $rc"; head -3 err; }
	# GNU time's %M is the largest of wingen and the children it reaped
	[ "$(tail -1 rss)" -lt 393216 ] \
		|| no "Helm 3 on a 640 MiB bomb took $(tail -1 rss) KB (helm-memory 256M)"
	echo "Helm 3 on a 640 MiB bomb, helm-memory=256M: at most $(tail -1 rss) KB"
else
	echo "note: no /usr/bin/time: helm's memory is not measured"
fi

[ $fail = 0 ] && echo "ok helm bounded"
exit $fail
