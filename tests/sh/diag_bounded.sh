#!/usr/bin/env bash
# Diagnostics are bounded: a message never grows with the stream, and
# each line is written whole (at the end).  The same Services select 40
# workloads, then 4,000: every list in a message (the workloads a
# Service fronts, its Linux and Windows backends, its backend pods, the
# pods on an older build) names a few and counts the rest, so the
# longest line of build's stderr and of check's report grows by the
# digits of the counts only.  The counts must be right, so a list that
# was cut short (or not counted) fails too.
#   diag_bounded.sh WINGEN YAMLCMP
set -u
wingen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL $*"; fail=1; }

cat >"$tmp/profile.yaml" <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: bounded}
windows:
  builds:
    - release: ltsc2019
    - release: ltsc2022
  default: ltsc2022
  select:
    - image: '^mcr\.microsoft\.com/windows/'
EOF

# N Windows Deployments on ltsc2019 (ClientIP needs ltsc2022), N Linux
# ones, a DaemonSet (pods unknown), all labelled tier: web, and Services
# selecting tier: web with every finding that names workloads.
stream() {
	awk -v n="$1" 'BEGIN {
	for (i = 1; i <= 2 * n; i++) {
		win = i <= n
		printf "---\napiVersion: apps/v1\nkind: Deployment\n"
		printf "metadata: {name: %s-%d, namespace: shop}\n", \
			win ? "win" : "lin", i
		printf "spec:\n  replicas: 2\n"
		printf "  selector: {matchLabels: {app: a%d}}\n", i
		printf "  template:\n    metadata: {labels: {app: a%d, tier: web}}\n", i
		printf "    spec:\n      containers:\n      - name: c\n"
		printf "        image: %s\n", win \
			? "mcr.microsoft.com/windows/servercore:ltsc2019" \
			: "nginx:1.27"
	}
	printf "---\napiVersion: apps/v1\nkind: DaemonSet\n"
	printf "metadata: {name: agent, namespace: shop}\n"
	printf "spec:\n  selector: {matchLabels: {app: agent}}\n"
	printf "  template:\n    metadata: {labels: {app: agent, tier: web}}\n"
	printf "    spec:\n      containers:\n      - name: c\n"
	printf "        image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n"
	for (s = 1; s <= 3; s++) {
		printf "---\napiVersion: v1\nkind: Service\n"
		printf "metadata: {name: web-%d, namespace: shop}\n", s
		printf "spec:\n  type: LoadBalancer\n"
		printf "  externalTrafficPolicy: Local\n"
		printf "  sessionAffinity: ClientIP\n"
		printf "  sessionAffinityConfig: {clientIP: {timeoutSeconds: 60}}\n"
		printf "  loadBalancerSourceRanges: [10.0.0.0/8]\n"
		printf "  ipFamilyPolicy: RequireDualStack\n"
		printf "  selector: {tier: web}\n"
		printf "  ports: [{port: 80}]\n"
	}
	}' >"$2"
}

longest() { awk '{ if (length > m) m = length } END { print m + 0 }' "$1"; }

for n in 40 4000; do
	stream "$n" "$tmp/s$n.yaml"
	"$wingen" build "$tmp/profile.yaml" -f "$tmp/s$n.yaml" \
		>/dev/null 2>"$tmp/build$n.err"
	[ $? = 0 ] || no "build of $n workloads failed: $(head -3 "$tmp/build$n.err")"
	"$wingen" check "$tmp/profile.yaml" -f "$tmp/s$n.yaml" \
		>"$tmp/check$n.out" 2>&1
	[ $? = 0 ] || no "check of $n workloads failed: $(head -3 "$tmp/check$n.out")"
done

# Every finding that lists workloads is there, and its counts are right:
# 2n + 1 backends, n + 1 Windows ones, n Linux ones, n on ltsc2019.
for n in 40 4000; do
	e=$tmp/build$n.err
	grep -q "selects at least $((4 * n)) backend pods (Deployment/shop/win-1 2, Deployment/shop/win-2 2, Deployment/shop/win-3 2 and $((2 * n - 2)) more)" "$e" \
		|| no "$n: backend pods not counted and cut: $(grep -m1 'backend pods' "$e")"
	grep -q "selects Linux pods (Deployment/shop/lin-$((n + 1)), Deployment/shop/lin-$((n + 2)), Deployment/shop/lin-$((n + 3)) and $((n - 3)) more) and Windows pods (Deployment/shop/win-1, Deployment/shop/win-2, Deployment/shop/win-3 and $((n - 2)) more)" "$e" \
		|| no "$n: mixed backends not counted and cut: $(grep -m1 'Linux pods' "$e")"
	grep -q "older build: Deployment/shop/win-1 (ltsc2019), Deployment/shop/win-2 (ltsc2019), Deployment/shop/win-3 (ltsc2019) and $((n - 3)) more;" "$e" \
		|| no "$n: older builds not counted and cut: $(grep -m1 'older build' "$e")"
	grep -q "(fronts Deployment/shop/win-1, Deployment/shop/win-2, Deployment/shop/win-3 and $((n - 2)) more)" "$e" \
		|| no "$n: fronted workloads not counted and cut: $(grep -m1 'fronts' "$e")"
done

# The longest line grows by the digits of the counts only (a few per
# list), not by the thousands of workloads.
for what in build check; do
	case $what in build) f=err ;; check) f=out ;; esac
	small=$(longest "$tmp/${what}40.$f") large=$(longest "$tmp/${what}4000.$f")
	[ "$small" -gt 100 ] || no "$what: no long message to compare ($small)"
	[ "$large" -le $((small + 24)) ] \
		|| no "$what: the longest message grew from $small to $large bytes with the stream"
done

# So stderr grows with the objects that have findings, per object: 3
# Services here, whatever the number of workloads.
small=$(grep -c 'Service/shop' "$tmp/build40.err")
large=$(grep -c 'Service/shop' "$tmp/build4000.err")
[ "$small" = "$large" ] || no "the Services' findings went from $small to $large lines"

# And each line of stderr, a diagnostic or an --explain record, is one
# write(): written in pieces (file, position, severity, object, message)
# a line cost nine system calls, and two runs sharing a log cut into each
# other's lines.  Under strace, build and migrate on the small stream: the
# writes to fd 2 are exactly stderr's lines.  (check writes its report to
# stdout, whole.)
lines_are_writes() {
	local name=$1 lines writes
	shift
	strace -f -qq -e trace=write -e signal=none -o "$tmp/$name.trace" \
		"$@" >/dev/null 2>"$tmp/$name.err"
	lines=$(wc -l <"$tmp/$name.err")
	writes=$(grep -c 'write(2, ' "$tmp/$name.trace")
	[ "$lines" -ge 10 ] \
		|| no "$name: expected warnings, stderr has $lines lines"
	[ "$writes" = "$lines" ] \
		|| no "$name: $lines lines of stderr took $writes writes"
}
if command -v strace >/dev/null 2>&1; then
	lines_are_writes build "$wingen" build "$tmp/profile.yaml" \
		-f "$tmp/s40.yaml" --explain
	grep -q 'nodeSelector.*(node-selector: windows.select\[0\]' \
		"$tmp/build.err" || no "build: no --explain record"
	cp "$tmp/s40.yaml" "$tmp/edit.yaml"
	lines_are_writes migrate "$wingen" migrate "$tmp/profile.yaml" \
		"$tmp/edit.yaml" --in-place
else
	no "strace is not installed (.ci/run and the README's quick start install it)"
fi

[ $fail = 0 ] && echo "diagnostics bounded, a line a write: ok"
exit $fail
