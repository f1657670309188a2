#!/usr/bin/env bash
# The admission webhook's benchmark (issue 46): wingen serve over TLS with
# keep-alive on loopback, a typical 4 KB pod review (a Deployment's pod
# as the API server sends it: defaults, managedFields, the projected
# service-account volume), load from wrk on the same machine.
#   bench/serve.sh [--build DIR] [--seconds N] [--rss-requests N] [--out FILE]
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
build=$here/../build seconds=20 rss_requests=1000000 out=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--rss-requests) rss_requests=$2; shift 2 ;;
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
python3 - "$here/../tests/data/serve/windows-pod.json" <<'PY'
import json, sys
pod = json.load(open(sys.argv[1]))
m = pod["metadata"]
m["generateName"] = "iis-7d9f8c6b5-"
m["annotations"].update({"kubectl.kubernetes.io/restartedAt": "2024-05-01T09:58:12Z",
                         "prometheus.io/scrape": "true", "prometheus.io/port": "9182",
                         "checksum/config": "9f2c1e7d4b8a6f3e0d5c2b1a9e8f7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e"})
m["labels"].update({"pod-template-hash": "7d9f8c6b5", "app.kubernetes.io/name": "iis",
                    "app.kubernetes.io/part-of": "shop"})
m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "iis-7d9f8c6b5",
                         "uid": "0d9f4c1e-8a7b-4c2d-9e3f-1a2b3c4d5e6f", "controller": True,
                         "blockOwnerDeletion": True}]
m["managedFields"] = [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                       "time": "2024-05-01T10:00:00Z", "fieldsType": "FieldsV1",
                       "fieldsV1": {"f:metadata": {"f:generateName": {}, "f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}}},
                                    "f:spec": {"f:containers": {"k:{\"name\":\"iis\"}": {".": {}, "f:image": {}, "f:name": {},
                                               "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}}}}}}]
c = pod["spec"]["containers"][0]
c["env"] = [{"name": "ASPNETCORE_URLS", "value": "http://+:80"},
            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
            {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
            {"name": "ConnectionStrings__Default", "valueFrom": {"secretKeyRef": {"name": "shop-db", "key": "connection"}}}]
c["resources"] = {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "512Mi"}}
c["volumeMounts"] = [{"name": "kube-api-access-abcde", "readOnly": True,
                      "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]
c["livenessProbe"] = {"httpGet": {"path": "/healthz", "port": 80, "scheme": "HTTP"}, "initialDelaySeconds": 30,
                      "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}
pod["spec"]["volumes"] = [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}]
r = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
     "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                 "kind": {"group": "", "version": "v1", "kind": "Pod"},
                 "resource": {"group": "", "version": "v1", "resource": "pods"},
                 "requestKind": {"group": "", "version": "v1", "kind": "Pod"},
                 "requestResource": {"group": "", "version": "v1", "resource": "pods"},
                 "name": "", "namespace": "shop", "operation": "CREATE",
                 "userInfo": {"username": "system:serviceaccount:kube-system:replicaset-controller",
                              "uid": "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
                              "groups": ["system:serviceaccounts", "system:serviceaccounts:kube-system",
                                         "system:authenticated"]},
                 "object": pod, "oldObject": None, "dryRun": False,
                 "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1"}}}
open("review.json", "w").write(json.dumps(r, separators=(",", ":")))
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$wingen" serve --tls-cert-file tls.crt --tls-private-key-file tls.key \
	--port "$port" --address 127.0.0.1 --log-level warn 2>serve.log &
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
	echo "/mutate by wrk on the same 2-CPU machine (1 wrk thread; 2 server threads);"
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
	echo "Command: \`bench/serve.sh --seconds $seconds --rss-requests $rss_requests\`"
}
report | tee ${out:+"$out"}
