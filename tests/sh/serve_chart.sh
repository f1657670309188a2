#!/usr/bin/env bash
# deploy/helm/wingen, the webhook's own chart, with the real Helm 3 and
# Helm 4: helm lint, and helm template in each certificate mode.  The
# rendered objects are checked for what the webhook must be (2 replicas
# on Linux, non-root, read-only root filesystem, PodDisruptionBudget,
# anti-affinity, admissionReviewVersions [v1], sideEffects None, a
# namespaceSelector without kube-system and the release's namespace, a
# caBundle or cert-manager's injection) and validated against the
# Kubernetes API's JSON Schemas (npm kubernetes-models and
# @kubernetes-models/cert-manager, from tests/ci/get-validators.sh: the
# offline equivalent of kubectl apply --dry-run=client with the server's
# validation, which needs an API server to fetch the schemas from).
#   serve_chart.sh WINGEN YAMLCMP CORPUS   (WG_HELM3, WG_HELM4 from ctest)
set -u
wingen=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
chart=$src/deploy/helm/wingen
npm_dir=${WG_NPM_DIR:-$src/build/npm}/node_modules
. "$src/tests/sh/lib/suite.sh"
suite_scratch || exit 1

helms=()
for h in "${WG_HELM3:-}" "${WG_HELM4:-}"; do
	[ -n "$h" ] && [ -x "$h" ] && helms+=("$h")
done
[ ${#helms[@]} -gt 0 ] || { echo "SKIP: no Helm client (tests/ci/get-helm.sh)"; exit 77; }
validate=
if command -v node >/dev/null 2>&1 && [ -d "$npm_dir/kubernetes-models" ] \
	&& [ -d "$npm_dir/@kubernetes-models/cert-manager" ]; then
	validate=1
else
	echo "SKIP (schemas): kubernetes-models not in $npm_dir (tests/ci/get-validators.sh)"
fi

cat >profile.yaml <<'YAML'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: fleet}
windows:
  builds: [{release: ltsc2022}, {release: ltsc2019}]
  default: ltsc2022
YAML

# render NAME HELM ARGS...: NAME.yaml, and NAME.jsonl one object a line
render() {
	local name=$1 helm=$2
	shift 2
	"$helm" template wg "$chart" -n wingen-system "$@" >"$name.yaml" \
		2>"$name.err" || { no "$name: helm template: $(cat "$name.err")"; return 1; }
	"$wingen" fmt -o json -f "$name.yaml" >"$name.jsonl" 2>"$name.err" \
		|| { no "$name: the render is not YAML wingen reads: $(cat "$name.err")"; return 1; }
	if [ -n "$validate" ]; then
		node "$src/tests/tools/k8s-validate.js" "$npm_dir" <"$name.jsonl" \
			>"$name.valid" || no "$name: schema: $(grep FAIL "$name.valid")"
	fi
}

# facts NAME: what the webhook must be, in the render (python3: json)
facts() {
	python3 - "$@" <<'PY'
import json, sys
name, mode = sys.argv[1], sys.argv[2]
objs = [json.loads(l) for l in open(name + ".jsonl") if l.strip()]
by = {}
for o in objs:
    by.setdefault(o["kind"], []).append(o)
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
d = by["Deployment"][0]
ps = d["spec"]["template"]["spec"]
c = ps["containers"][0]
need(d["spec"]["replicas"] == 2, "2 replicas")
need(ps["nodeSelector"] == {"kubernetes.io/os": "linux"}, "pinned to Linux")
need(ps["securityContext"]["runAsNonRoot"] is True, "runAsNonRoot")
need(c["securityContext"]["readOnlyRootFilesystem"] is True, "read-only root")
need(c["securityContext"]["allowPrivilegeEscalation"] is False, "no privilege escalation")
need("podAntiAffinity" in ps["affinity"], "anti-affinity")
need(c["resources"]["requests"] and c["resources"]["limits"], "resources")
need(c["args"][0] == "serve" and "--tls-cert-file=/etc/wingen/tls/tls.crt" in c["args"], "serve with the certificate")
need(c["readinessProbe"]["httpGet"]["path"] == "/readyz", "readiness on /readyz")
need(by.get("PodDisruptionBudget") and by["PodDisruptionBudget"][0]["spec"]["minAvailable"] == 1, "PDB")
need(by.get("Service") and by.get("ServiceAccount"), "Service and ServiceAccount")
svc = by["Service"][0]["metadata"]["name"]
for kind, path in (("MutatingWebhookConfiguration", "/mutate"), ("ValidatingWebhookConfiguration", "/validate")):
    if kind not in by:
        need(False, kind)
        continue
    cfg = by[kind][0]
    for w in cfg["webhooks"]:
        need(w["admissionReviewVersions"] == ["v1"], kind + " admissionReviewVersions [v1]")
        need(w["sideEffects"] == "None", kind + " sideEffects None")
        need(1 <= w["timeoutSeconds"] <= 30, kind + " timeoutSeconds")
        need(w["failurePolicy"] in ("Fail", "Ignore"), kind + " failurePolicy")
        cc = w["clientConfig"]["service"]
        need(cc == {"name": svc, "namespace": "wingen-system", "path": path, "port": 443}, kind + " service " + str(cc))
        ex = w["namespaceSelector"]["matchExpressions"][0]
        need(ex["key"] == "kubernetes.io/metadata.name" and ex["operator"] == "NotIn"
             and "kube-system" in ex["values"] and "wingen-system" in ex["values"], kind + " namespaceSelector")
        r = w["rules"][0]
        need(r["resources"] == ["pods"] and r["operations"] == ["CREATE"], kind + " rules")
        known = {"name", "clientConfig", "rules", "failurePolicy", "matchPolicy", "namespaceSelector",
                 "objectSelector", "sideEffects", "timeoutSeconds", "admissionReviewVersions",
                 "reinvocationPolicy", "matchConditions"}
        need(set(w) <= known, kind + " unknown fields " + str(set(w) - known))
        if mode == "selfSigned":
            need(len(w["clientConfig"].get("caBundle", "")) > 100, kind + " caBundle")
        else:
            need("caBundle" not in w["clientConfig"], kind + " no caBundle with cert-manager")
            need(cfg["metadata"]["annotations"]["cert-manager.io/inject-ca-from"] == "wingen-system/" + svc,
                 kind + " cainjector annotation")
if mode == "selfSigned":
    s = [o for o in by.get("Secret", []) if o["type"] == "kubernetes.io/tls"]
    need(s and s[0]["metadata"]["name"] == svc + "-tls", "the TLS Secret")
else:
    certs = {o["metadata"]["name"]: o for o in by.get("Certificate", [])}
    need(svc in certs and svc + ".wingen-system.svc" in certs[svc]["spec"]["dnsNames"], "the serving Certificate")
    need(any(o["spec"].get("ca") for o in by.get("Issuer", [])), "a CA Issuer")
for w in bad:
    print("missing:", w)
sys.exit(1 if bad else 0)
PY
}

for helm in "${helms[@]}"; do
	v=$("$helm" version --short | cut -c1-2)
	"$helm" lint "$chart" >lint.out 2>&1 || no "helm $v lint: $(cat lint.out)"
	"$helm" lint "$chart" --set-file profile=profile.yaml --set webhook.validate=true \
		>lint.out 2>&1 || no "helm $v lint with a profile: $(cat lint.out)"
	if render self-$v "$helm" --set webhook.validate=true --set-file profile=profile.yaml; then
		facts self-$v selfSigned >facts.out || no "helm $v self-signed: $(cat facts.out)"
		# the certificate Helm made is for the Service's name
		python3 -c 'import json,sys,base64; [print(base64.b64decode(o["data"]["tls.crt"]).decode()) for o in map(json.loads, open(sys.argv[1])) if o["kind"]=="Secret"]' \
			self-$v.jsonl >tls.crt
		openssl x509 -in tls.crt -noout -ext subjectAltName 2>/dev/null \
			| grep -q 'DNS:wg-wingen.wingen-system.svc' \
			|| no "helm $v self-signed: the certificate does not name the Service"
		grep -q '^ *profile.yaml: |' self-$v.yaml || no "helm $v: no profile ConfigMap"
		grep -q -- '- /etc/wingen/profile/profile.yaml' self-$v.yaml \
			|| no "helm $v: the profile is not passed to serve"
	fi
	if render cm-$v "$helm" --set webhook.validate=true --api-versions cert-manager.io/v1; then
		facts cm-$v certManager >facts.out || no "helm $v cert-manager: $(cat facts.out)"
		grep -q '^kind: Secret' cm-$v.yaml && no "helm $v cert-manager: the chart makes a Secret too"
		grep -q -- '/etc/wingen/profile' cm-$v.yaml \
			&& no "helm $v: the default profile mounts a ConfigMap"
	fi
	# workload kinds: their rules and --kinds
	render kinds-$v "$helm" --set 'webhook.kinds={Pod,Deployment,Job}' || true
	grep -q -- '--kinds=Pod,Deployment,Job' kinds-$v.yaml || no "helm $v: --kinds not passed"
	grep -q 'resources: \["deployments"\]' kinds-$v.yaml || no "helm $v: no rule for deployments"
	"$helm" template wg "$chart" --set 'webhook.kinds={Service}' >/dev/null 2>err \
		&& no "helm $v: a kind wingen does not review renders"
	"$helm" template wg "$chart" --set certificates.mode=bogus >/dev/null 2>err \
		&& no "helm $v: certificates.mode bogus renders"
done
# What the chart runs is what wingen serve takes.
"$wingen" serve --help >help.txt
for opt in tls-cert-file tls-private-key-file port kinds log-format log-level shutdown-delay shutdown-timeout audit; do
	grep -q -- "--$opt" help.txt || no "serve has no --$opt, which the chart passes"
done

[ $fail = 0 ] && echo "ok serve_chart: lint, template (self-signed, cert-manager, kinds) with ${#helms[@]} Helm clients${validate:+, schemas}"
exit $fail
