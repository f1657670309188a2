#!/usr/bin/env bash
# wingen serve, talked to as the API server talks to a webhook: HTTPS
# verified against a CA made here by openssl (the certificate names
# localhost and wingen.wingen-system.svc, the Service's name that the
# client checks), AdmissionReviews shaped on the Kubernetes
# documentation's example.  Each patch is applied by an independent JSON
# Patch implementation (Debian's python3-jsonpatch) and must give what
# `wingen build --no-runtimeclasses` makes of the same object; bad
# requests are never admitted; reload of the profile and of the
# certificate through a kubelet-style "..data" swap and SIGHUP, with a
# good and a broken file; SIGTERM with a request in flight.
#   serve.sh WINGEN YAMLCMP CORPUS
set -u
[ -n "${WG_TRACE:-}" ] && set -x
wingen=$(realpath "$1")
yamlcmp=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
data=$src/tests/data/serve
client=$src/tests/tools/admission.py
. "$src/tests/sh/lib/suite.sh"

for tool in openssl python3 curl; do
	command -v $tool >/dev/null 2>&1 \
		|| { echo "SKIP: $tool is not installed"; exit 77; }
done
python3 -c 'import jsonpatch' 2>/dev/null \
	|| { echo "SKIP: python3-jsonpatch is not installed"; exit 77; }
suite_scratch || exit 1
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2>/dev/null; rm -rf "$tmp"' EXIT

# ---- a CA, and certificates for the Service ------------------------------
cert() {	# cert NAME: NAME.crt and NAME.key signed by the CA
	openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" \
		-subj "/CN=wingen.wingen-system.svc" 2>/dev/null &&
	printf 'subjectAltName=DNS:localhost,DNS:wingen.wingen-system.svc,DNS:wingen.wingen-system.svc.cluster.local\nextendedKeyUsage=serverAuth\n' >"$1.ext" &&
	openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key \
		-CAcreateserial -out "$1.crt" -days 2 -extfile "$1.ext" 2>/dev/null
}
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt \
	-days 2 -subj "/CN=wingen test CA" 2>/dev/null \
	|| { no "openssl could not make a CA"; exit 1; }
cert one && cert two || { no "openssl could not make certificates"; exit 1; }

# Mounted as a kubelet mounts a Secret or a ConfigMap: the files are
# links into ..data, itself a link to a folder swapped whole.
mount_dir() {	# mount_dir DIR VERSION FILE...: DIR/..VERSION, swapped in
	local dir=$1 v=$2 f
	shift 2
	mkdir -p "$dir/..$v"
	for f in "$@"; do
		cp "$f" "$dir/..$v/$(basename "$f")"
		[ -e "$dir/$(basename "$f")" ] \
			|| ln -s "..data/$(basename "$f")" "$dir/$(basename "$f")"
	done
	ln -sfn "..$v" "$dir/..data_tmp" && mv -T "$dir/..data_tmp" "$dir/..data"
}
cp one.crt tls.crt && cp one.key tls.key && mount_dir secret 1 tls.crt tls.key
cat >profile.yaml <<'YAML'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: cluster}
windows:
  builds: [{release: ltsc2022}]
  taint: {key: os, value: windows, effect: NoSchedule}
  select:
  - image: '^mcr\.microsoft\.com/windows/'
  - image: '^mcr\.microsoft\.com/dotnet/framework/'
  - namespace: '^win-.*'
YAML
mount_dir config 1 profile.yaml

get() {	# get PATH: GET over HTTPS as the API server's name, verified
	curl -sS --fail --cacert ca.crt --resolve \
		"wingen.wingen-system.svc:$port:127.0.0.1" \
		"https://wingen.wingen-system.svc:$port$1"
}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$wingen" serve config/profile.yaml --tls-cert-file secret/tls.crt \
	--tls-private-key-file secret/tls.key --port "$port" \
	--address 127.0.0.1 --log-format json 2>serve.log &
pid=$!
ready=
for _ in $(seq 100); do
	python3 "$client" "$port" ca.crt get /readyz >/dev/null 2>&1 \
		&& { ready=1; break; }
	sleep 0.1
done
[ -n "$ready" ] || { no "serve never became ready: $(cat serve.log)"; exit 1; }
python3 "$client" "$port" ca.crt get /healthz | grep -q '^ok' \
	|| no "/healthz is not ok"
# the name the API server checks, and localhost, are both in the SAN
python3 "$client" "$port" ca.crt get /healthz --host localhost >/dev/null \
	|| no "the certificate is not verified for localhost"
python3 "$client" "$port" ca.crt get /healthz --host other.example \
	>/dev/null 2>&1 && no "a name not in the certificate was accepted"

# ---- reviews ----------------------------------------------------------
# review NAME OBJECT NAMESPACE [OP] [DRYRUN]: NAME.review.json around the
# object, as the documentation's example request.
review() {
	python3 - "$@" <<'PY'
import json, sys
name, obj, ns = sys.argv[1:4]
op = sys.argv[4] if len(sys.argv) > 4 else "CREATE"
dry = len(sys.argv) > 5 and sys.argv[5] == "true"
o = json.load(open(obj))
r = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
     "request": {"uid": "705ab4f5-6393-11e8-b7cc-%012d" % abs(hash(name) % 10**12),
                 "kind": {"group": "", "version": "v1", "kind": o["kind"]},
                 "resource": {"group": "", "version": "v1", "resource": "pods"},
                 "requestKind": {"group": "", "version": "v1", "kind": o["kind"]},
                 "requestResource": {"group": "", "version": "v1", "resource": "pods"},
                 "name": o["metadata"].get("name", ""), "namespace": ns,
                 "operation": op,
                 "userInfo": {"username": "system:serviceaccount:kube-system:replicaset-controller",
                              "uid": "014fbff9a07c", "groups": ["system:authenticated"]},
                 "object": o, "oldObject": None,
                 "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"},
                 "dryRun": dry}}
json.dump(r, open(name + ".review.json", "w"))
PY
}

# built NAME OBJECT NAMESPACE: what wingen build makes of the object in
# that namespace, as NAME.built.yaml
built() {
	python3 - "$2" "$3" >"$1.in.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
o["metadata"].setdefault("namespace", sys.argv[2])
print(json.dumps(o))
PY
	"$wingen" build --no-runtimeclasses config/profile.yaml \
		-f "$1.in.json" >"$1.built.yaml" 2>"$1.build.err"
}

# check NAME OBJECT NAMESPACE [DRYRUN]: admitted, and the patched object
# equals the build.
check() {
	local name=$1 obj=$2 ns=$3
	review "$name" "$obj" "$ns" CREATE "${4:-false}"
	if ! python3 "$client" "$port" ca.crt review "$name.review.json" \
		>"$name.resp.json"; then
		no "$name: no answer"; return
	fi
	python3 - "$name" <<'PY' || no "$name: the answer is not an admitting review of this uid"
import json, sys
rq = json.load(open(sys.argv[1] + ".review.json"))["request"]
r = json.load(open(sys.argv[1] + ".resp.json"))
assert r["apiVersion"] == "admission.k8s.io/v1" and r["kind"] == "AdmissionReview", r
assert r["response"]["uid"] == rq["uid"], r
assert r["response"]["allowed"] is True, r
PY
	python3 "$client" "$port" ca.crt apply "$name.review.json" \
		"$name.resp.json" "$name.patched.json" \
		|| { no "$name: python3-jsonpatch could not apply the patch"; return; }
	python3 - "$name.patched.json" "$ns" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
o["metadata"].setdefault("namespace", sys.argv[2])
json.dump(o, open(sys.argv[1], "w"))
PY
	built "$name" "$obj" "$ns" || { no "$name: wingen build failed: $(cat "$name.build.err")"; return; }
	"$yamlcmp" "$name.built.yaml" "$name.patched.json" 2>"$name.cmp" \
		|| no "$name: patched object differs from wingen build: $(cat "$name.cmp")"
}

patch_of() {	# patch_of NAME: the decoded patch of NAME's answer
	python3 -c 'import json,sys,base64; r=json.load(open(sys.argv[1]))["response"]; print(base64.b64decode(r["patch"]).decode() if r.get("patch") else "")' "$1.resp.json"
}

check windows "$data/windows-pod.json" shop
grep -q '"/spec/nodeSelector"' <(patch_of windows) \
	|| no "windows: no nodeSelector in the patch"
grep -q '"op":"remove","path":"/spec/containers/0/securityContext/runAsUser"' \
	<(patch_of windows) || no "windows: runAsUser not removed"
check linux "$data/linux-pod.json" shop
[ "$(patch_of linux)" = '[{"op":"add","path":"/spec/nodeSelector","value":{"kubernetes.io/os":"linux"}}]' ] \
	|| no "linux: patch is $(patch_of linux)"
check hostprocess "$data/hostprocess-pod.json" monitoring
grep -q '"kubernetes.io/os":"windows"' <(patch_of hostprocess) \
	|| no "hostprocess: not sent to Windows: $(patch_of hostprocess)"
# no image names Windows: the namespace from the request selects it
python3 -c 'import json; o=json.load(open("'"$data"'/linux-pod.json")); o["metadata"]["name"]="tool"; json.dump(o, open("nspod.json","w"))'
check namespace nspod.json win-tools
grep -q '"kubernetes.io/os":"windows"' <(patch_of namespace) \
	|| no "namespace: request.namespace did not select the pod"
grep -q namespace <(patch_of namespace) \
	&& no "namespace: the patch writes the namespace"
check dryrun "$data/windows-pod.json" shop true
[ "$(patch_of dryrun)" = "$(patch_of windows)" ] \
	|| no "dryRun: answered otherwise than the same request"

# A pod of an operator's ReplicaSet whose template the render step made:
# unchanged (no patch), whatever the API server added to it.
"$wingen" build --no-runtimeclasses config/profile.yaml -o json \
	-f "$data/replicaset.yaml" >rs.json 2>/dev/null \
	|| no "build of the ReplicaSet failed"
python3 - <<'PY'
import json
rs = json.load(open("rs.json"))
t = rs["spec"]["template"]
pod = {"apiVersion": "v1", "kind": "Pod",
       "metadata": dict(t["metadata"], generateName=rs["metadata"]["name"] + "-",
                        ownerReferences=[{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                          "name": rs["metadata"]["name"],
                                          "uid": "3f1c8a4e-4f0b-4a3b-9d0e-2b1f0c9e7a11",
                                          "controller": True, "blockOwnerDeletion": True}]),
       "spec": dict(t["spec"]), "status": {}}
# what the API server adds before webhooks: defaults and the default
# tolerations of DefaultTolerationSeconds
s = pod["spec"]
s.update(restartPolicy="Always", dnsPolicy="ClusterFirst", schedulerName="default-scheduler",
         terminationGracePeriodSeconds=30, securityContext={}, enableServiceLinks=True)
s["tolerations"] = s.get("tolerations", []) + [
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]
for c in s["containers"]:
    c.update(terminationMessagePath="/dev/termination-log", imagePullPolicy="IfNotPresent", resources={})
json.dump(pod, open("rspod.json", "w"))
PY
check replicaset rspod.json billing
[ -z "$(patch_of replicaset)" ] \
	|| no "replicaset: a rendered pod got a patch: $(patch_of replicaset)"

# A conflict build calls an error: denied, naming the field.
review conflict "$data/conflict-pod.json" shop
python3 "$client" "$port" ca.crt review conflict.review.json >conflict.resp.json \
	|| no "conflict: no answer"
python3 - <<'PY' || no "conflict: not denied with the field: $(cat conflict.resp.json)"
import json
r = json.load(open("conflict.resp.json"))["response"]
assert r["allowed"] is False and "patch" not in r, r
assert r["status"]["code"] == 403 and "spec.nodeSelector" in r["status"]["message"], r
PY
"$wingen" build --no-runtimeclasses config/profile.yaml -f "$data/conflict-pod.json" \
	>/dev/null 2>&1 && no "conflict: build does not call it an error"
# /validate: a Windows pod as sent is denied (it would change); the
# patched one passes.
python3 "$client" "$port" ca.crt review windows.review.json --path /validate \
	>validate.resp.json || no "validate: no answer"
grep -q '"allowed":false' validate.resp.json \
	|| no "validate: an unpatched Windows pod was admitted"
python3 - <<'PY'
import json
r = json.load(open("windows.review.json"))
r["request"]["object"] = json.load(open("windows.patched.json"))
json.dump(r, open("patched.review.json", "w"))
PY
python3 "$client" "$port" ca.crt review patched.review.json --path /validate \
	>validate2.resp.json || no "validate: no answer"
grep -q '"allowed":true' validate2.resp.json \
	|| no "validate: the patched pod was denied: $(cat validate2.resp.json)"

# ---- bad requests: an HTTP error, or a review that says no --------------
status() {	# status FILE: the HTTP status of POSTing FILE to /mutate
	python3 "$client" "$port" ca.crt raw /mutate "$1" | cut -d' ' -f1
}
printf '{"apiVersion": "admission.k8s.io/v1", "kind": ' >malformed.json
[ "$(status malformed.json)" = 400 ] || no "malformed JSON is not a 400"
python3 -c 'import json; r=json.load(open("windows.review.json")); del r["request"]["uid"]; json.dump(r, open("nouid.json","w"))'
[ "$(status nouid.json)" = 400 ] || no "a review without request.uid is not a 400"
head -c $((8 << 20)) /dev/zero | tr '\0' ' ' >huge.json
[ "$(status huge.json)" = 413 ] || no "an 8 MiB body is not a 413"
# headers past libmicrohttpd's 16 KiB a connection: 431; 12 KB pass
for n in 12000:200 20000:431; do
	code=$(curl -sS -o /dev/null -w '%{http_code}' --cacert ca.crt \
		--resolve "wingen.wingen-system.svc:$port:127.0.0.1" \
		-H "X-Pad: $(head -c "${n%%:*}" /dev/zero | tr '\0' a)" \
		-H 'Content-Type: application/json' \
		--data-binary @windows.review.json \
		"https://wingen.wingen-system.svc:$port/mutate")
	[ "$code" = "${n#*:}" ] || no "a ${n%%:*}-byte header: $code, not ${n#*:}"
done
python3 - <<'PY'
import json
r = json.load(open("windows.review.json"))
r["request"]["object"]["metadata"]["annotations"]["big"] = "x" * (3 << 20)
json.dump(r, open("bigobj.json", "w"))
r = json.load(open("windows.review.json"))
r["request"]["object"] = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {}}
r["request"]["kind"]["kind"] = "Service"
json.dump(r, open("service.json", "w"))
PY
for f in bigobj service; do
	python3 "$client" "$port" ca.crt review $f.json >$f.resp.json \
		|| no "$f: no answer"
	grep -q '"allowed":false' $f.resp.json || no "$f: admitted: $(head -c 300 $f.resp.json)"
done
grep -q '"code":413' bigobj.resp.json || no "an object over 3 MiB is not refused as too large"

# ---- metrics and logs ----------------------------------------------------
python3 "$client" "$port" ca.crt get /metrics >metrics.txt || no "/metrics failed"
get /readyz | grep -q '^ok' || no "curl: /readyz is not ok"
grep -q '^wingen_serve_requests_total{endpoint="mutate",outcome="patched"} [1-9]' metrics.txt \
	|| no "metrics: no patched request counted"
grep -q '^wingen_serve_requests_total{endpoint="mutate",outcome="denied"} 1$' metrics.txt \
	|| no "metrics: the conflict is not counted as denied"
grep -q '^wingen_serve_request_duration_seconds_bucket{endpoint="mutate",le="+Inf"} ' metrics.txt \
	|| no "metrics: no latency histogram"
python3 - <<'PY' || no "logs: not one JSON line per review, or an object in them"
import json
lines = [json.loads(l) for l in open("serve.log")]
reviews = [l for l in lines if l["msg"] == "review"]
assert len(reviews) >= 12, len(reviews)
text = open("serve.log").read()
assert "servercore" not in text and "replicaset-controller" not in text
assert any(l.get("outcome") == "denied" and "spec.nodeSelector" in l.get("reason", "") for l in reviews)
PY

# ---- reload ----------------------------------------------------------------
metric() {	# metric NAME VALUE: wait until the metric line reads VALUE
	for _ in $(seq 100); do
		get /metrics 2>/dev/null | grep -qx "$1 $2" && return 0
		sleep 0.1
	done
	return 1
}
mkdir -p v2 && sed 's/value: windows, effect/value: win2022, effect/' \
	profile.yaml >v2/profile.yaml
mount_dir config 2 v2/profile.yaml
metric 'wingen_serve_reloads_total{what="profile"}' 2 \
	|| no "reload: a new profile swapped in by ..data was not loaded"
check windows2 "$data/windows-pod.json" shop
grep -q '"value":"win2022"' <(patch_of windows2) \
	|| no "reload: the new profile is not in use"
mkdir -p v3 && printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nwindows: {builds: [{release: ltsc1999}]}\n' >v3/profile.yaml
mount_dir config 3 v3/profile.yaml
metric 'wingen_serve_reload_failures_total{what="profile"}' 1 \
	|| no "reload: a broken profile was not counted as a failure"
grep -q '"msg":"profile not reloaded: the old one serves"' serve.log \
	|| no "reload: the failure is not logged"
review windows3 "$data/windows-pod.json" shop
python3 "$client" "$port" ca.crt review windows3.review.json >windows3.resp.json \
	|| no "reload: no answer after a broken profile"
grep -q '"value":"win2022"' <(patch_of windows3) \
	|| no "reload: the old profile does not serve after a broken one"
# SIGHUP loads the file as it is (the good one again)
mount_dir config 4 profile.yaml
sleep 0.5
kill -HUP $pid
metric 'wingen_serve_reloads_total{what="profile"}' 4 \
	|| no "SIGHUP: the profile was not reloaded"
# the certificate: rotated, then broken
before=$(python3 "$client" "$port" ca.crt serial)
cp two.crt tls.crt && cp two.key tls.key && mount_dir secret 2 tls.crt tls.key
metric 'wingen_serve_reloads_total{what="certificate"}' 2 \
	|| no "reload: a rotated certificate was not loaded"
after=$(python3 "$client" "$port" ca.crt serial)
[ -n "$before" ] && [ "$before" != "$after" ] \
	|| no "reload: the new certificate is not served"
cp two.crt tls.crt && cp one.key tls.key && mount_dir secret 3 tls.crt tls.key
metric 'wingen_serve_reload_failures_total{what="certificate"}' 1 \
	|| no "reload: a key that is not the certificate's was not refused"
[ "$(python3 "$client" "$port" ca.crt serial)" = "$after" ] \
	|| no "reload: the old certificate does not serve after a broken one"

# ---- SIGTERM with a request in flight ------------------------------------
got=$(python3 "$client" "$port" ca.crt slow windows.review.json "$pid")
case $got in
"200 705ab4f5-"*) ;;
*) no "SIGTERM: the request in flight got '$got'" ;;
esac
wait $pid
rc=$?
pid=
[ $rc = 0 ] || no "SIGTERM: exit status $rc, not 0"
grep -q '"msg":"stopped"' serve.log || no "SIGTERM: no 'stopped' line"

# ---- usage -----------------------------------------------------------------
"$wingen" serve >/dev/null 2>err; [ $? = 2 ] || no "serve without certificates is not a usage error"
grep -q 'tls-cert-file' err || no "the usage error does not name --tls-cert-file"
"$wingen" serve --tls-cert-file one.crt --tls-private-key-file two.key \
	--port "$port" >/dev/null 2>err; [ $? = 1 ] || no "a key that is not the certificate's starts"
grep -q 'not the key of the certificate' err || no "mismatched key: $(cat err)"
"$wingen" serve nope.yaml --tls-cert-file one.crt --tls-private-key-file one.key \
	--port "$port" >/dev/null 2>err; [ $? = 1 ] || no "a missing profile starts"
"$wingen" serve --kinds ConfigMap --tls-cert-file one.crt --tls-private-key-file one.key \
	>/dev/null 2>err; [ $? = 2 ] || no "--kinds ConfigMap is not a usage error"

[ $fail = 0 ] && echo "ok serve: reviews, patches equal to build, bad requests, reload, SIGTERM"
exit $fail
