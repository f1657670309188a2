#!/usr/bin/env bash
# The admission webhook's benchmark (issue 46): wingen serve over TLS with
# keep-alive on loopback, a typical 4 KB pod review (a Deployment's pod
# as the API server sends it: defaults, managedFields, the projected
# service-account volume), load from wrk on the same machine.
#   bench/serve.sh [--build DIR] [--seconds N] [--rss-requests N] [--threads N]
#                  [--out FILE]
# Three runs:
#   paced       1,000 requests/s (wrk's delay() over 8 connections):
#               p50/p90/p99/p99.9 latency (target: p99 <= 1 ms)
#   saturation  16 connections, no pause: requests/s (target: >= 10,000)
#   rss         --rss-requests requests (1,000,000) at saturation, the
#               server's RSS sampled each second (target: flat)
# with the server's CPU time per request (from /proc), which the host's
# other load disturbs less than wall-clock figures; the load average is
# printed before each run.  Results go to stdout and, with --out, to FILE
# as a Markdown section.  Needs wrk, openssl, python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build seconds=20 rss_requests=1000000 out= threads=2
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--rss-requests) rss_requests=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "bench/serve.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
wingen=$(realpath "$build/wingen")
for t in wrk openssl python3; do
	command -v $t >/dev/null || { echo "bench/serve.sh: needs $t" >&2; exit 2; }
done
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout tls.key -out tls.crt -days 1 -subj /CN=localhost \
	-addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
python3 "$here/serve-review.py" "$here/../tests/data/serve/windows-pod.json" review.json
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$wingen" serve --tls-cert-file tls.crt --tls-private-key-file tls.key \
	--port "$port" --address 127.0.0.1 --threads "$threads" \
	--log-level warn 2>serve.log &
pid=$!
for _ in $(seq 100); do
	curl -sk "https://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
	sleep 0.1
done
url=https://127.0.0.1:$port/mutate
ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$pid/stat"; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# run NAME CONNS RATE WRK-ARGS...: one wrk run, its WG line and the
# server's CPU time per request
run() {
	local name=$1 conns=$2 rate=$3 c0 c1 line
	shift 3
	echo "== $name (load average $(load))" >&2
	c0=$(cpu)
	line=$(WG_BODY=review.json WG_RATE=$rate WG_CONNS=$conns \
		wrk -t1 -c"$conns" "$@" -s "$here/serve.lua" "$url" | grep '^WG ')
	c1=$(cpu)
	echo "$name $line $(awk -v a="$c0" -v b="$c1" -v l="$line" \
		'BEGIN { split(l, f, " "); printf "%.1f", (b - a) * 1e6 / f[7] }')"
}

bytes=$(wc -c <review.json)
paced=$(run paced 8 1000 -d"${seconds}s")
sat=$(run saturation 16 0 -d"${seconds}s")
# RSS over rss_requests: wrk stops at the time it takes at the rate just
# measured (and a margin); RSS sampled each second meanwhile.
reqs_s=$(echo "$sat" | awk '{ printf "%d", $8 / ($10 / 1e6) }')
secs=$(( rss_requests / (reqs_s > 0 ? reqs_s : 1) + 2 ))
rss0=$(rss)
( while kill -0 $pid 2>/dev/null; do rss; sleep 1; done ) >rss.txt &
sampler=$!
long=$(run rss 16 0 -d"${secs}s")
kill $sampler 2>/dev/null || true
rss1=$(rss)
rssmax=$(sort -n rss.txt | tail -1)
rssmid=$(awk 'NR == int(n / 2) { print }' n="$(wc -l <rss.txt)" rss.txt)

report() {
	echo "## The admission webhook (bench/serve.sh)"
	echo
	echo "wingen serve at $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'),"
	echo "$(date -u +%Y-%m-%d), TLS 1.3 (GnuTLS, ECDSA P-256) with keep-alive over loopback,"
	echo "one $bytes-byte review of a Windows pod (5 patch operations) POSTed to"
	echo "/mutate by wrk on the same 2-CPU machine (1 wrk thread; $threads server threads);"
	echo "load average before the runs: see each row.  Latency in ms, as wrk"
	echo "times a request; server CPU per request from /proc/PID/stat."
	echo
	echo "| run | connections | requests/s | p50 | p90 | p99 | p99.9 | max | requests | errors | server CPU µs/request |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for r in "$paced" "$sat" "$long"; do
		echo "$r" | awk '{ printf "| %s | %s | %d | %s | %s | %s | %s | %s | %d | %d | %s |\n",
			$1, ($1 == "paced" ? 8 : 16), $8 / ($10 / 1e6), $3, $4, $5, $6, $7, $8, $9, $11 }'
	done
	echo
	echo "RSS over the rss run's requests: ${rss0} KiB before, ${rssmid} KiB half-way,"
	echo "${rss1} KiB after, ${rssmax} KiB at most."
	echo
	echo "Command: \`bench/serve.sh --seconds $seconds --rss-requests $rss_requests --threads $threads\`"
}
report | tee ${out:+"$out"}
