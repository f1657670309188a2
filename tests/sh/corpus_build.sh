#!/usr/bin/env bash
# The default chain over every real-world manifest, one file at a time,
# with two profiles:
#   default     the embedded default profile (what `helm template | wingen
#               build` does): Windows workloads picked by Windows images;
#   everything  every workload made a Windows workload (two builds, one of
#               them arm64), so real charts' Linux selectors, affinities
#               and runtime classes meet the conflict rules.
# Checks, per file and profile:
#   - exit 0, or exit 1 with exactly the genuine conflicts listed below
#     (file:line, object, field, start of the message) and nothing on
#     stdout;
#   - a successful output built again comes out byte-identical, with no
#     change recorded (--explain prints none);
#   - a successful output reads back (fmt) unchanged.
# That the objects touched still pass Kubernetes' validation rules, and
# that nothing changed without a change record, is checked in C by
# tests/unit/check_k8svalid.c over the same corpus and profiles.
#   corpus_build.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1 corpus=$3
if [ ! -d "$corpus" ]; then
	echo "SKIP: corpus folder $corpus is absent"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/everything.yaml" <<'PROFILE'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: everything}
windows:
  builds:
  - release: ltsc2022
  - release: ltsc2025
    arch: arm64
  default: ltsc2022
  taint: {key: node.kubernetes.io/os, value: windows, effect: NoExecute}
  select:
  - name: '.*'
PROFILE

# profile|file:line|object|field|message start
cat >"$tmp/expected" <<'EXPECTED'
default|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__simpleweb.yml:32|Deployment/win-webserver|spec.template.spec.containers[0].image|'mcr.microsoft.com/windows/servercore:1809' is built for ltsc2019, which ltsc2022 hosts cannot run with process isolation
everything|argoproj__argo-cd__manifests__base__application-controller__argocd-application-controller-statefulset.yaml:484|StatefulSet/argocd-application-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:2033|Deployment/argocd-applicationset-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:2188|Deployment/argocd-dex-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:2311|Deployment/argocd-notifications-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:2864|Deployment/argocd-repo-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:3391|Deployment/argocd-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__ha__namespace-install.yaml:3889|StatefulSet/argocd-application-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:32399|Deployment/argocd-applicationset-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:32554|Deployment/argocd-dex-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:32677|Deployment/argocd-notifications-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:32784|Deployment/argocd-redis|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:33182|Deployment/argocd-repo-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:33707|Deployment/argocd-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|argoproj__argo-cd__manifests__install.yaml:34205|StatefulSet/argocd-application-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kata-containers__kata-containers__tools__packaging__kata-deploy__examples__test-deploy-kata-qemu.yaml:17|Deployment/prometheus-kata-qemu|spec.template.spec.runtimeClassName|is 'kata-qemu'
everything|kubernetes-sigs__cluster-api-provider-azure__templates__addons__calico.yaml:6087|Deployment/kube-system/calico-kube-controllers|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes-sigs__cluster-api-provider-azure__templates__addons__calico.yaml:6321|DaemonSet/kube-system/calico-node|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes-sigs__cluster-api-provider-azure__templates__addons__metrics-server__metrics-server.yaml:176|Deployment/kube-system/metrics-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes-sigs__metrics-server__manifests__base__deployment.yaml:66|Deployment/kube-system/metrics-server|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__aws__nlb-with-tls-termination__deploy.yaml:523|Deployment/ingress-nginx/ingress-nginx-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__aws__nlb-with-tls-termination__deploy.yaml:580|Job/ingress-nginx/ingress-nginx-admission-create|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__aws__nlb-with-tls-termination__deploy.yaml:636|Job/ingress-nginx/ingress-nginx-admission-patch|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__baremetal__deploy.yaml:505|Deployment/ingress-nginx/ingress-nginx-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__baremetal__deploy.yaml:562|Job/ingress-nginx/ingress-nginx-admission-create|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__baremetal__deploy.yaml:618|Job/ingress-nginx/ingress-nginx-admission-patch|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__cloud__deploy.yaml:507|Deployment/ingress-nginx/ingress-nginx-controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__cloud__deploy.yaml:564|Job/ingress-nginx/ingress-nginx-admission-create|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__ingress-nginx__deploy__static__provider__cloud__deploy.yaml:620|Job/ingress-nginx/ingress-nginx-admission-patch|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|kubernetes__node-problem-detector__deployment__node-problem-detector.yaml:22|DaemonSet/kube-system/node-problem-detector|spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution|rules out the Windows nodes of build ltsc2022 (kubernetes.io/os=windows, kubernetes.io/arch=amd64, node.kubernetes.io/windows-build=10.0.20348) in every term
everything|metallb__metallb__config__controllers__speaker.yaml:102|DaemonSet/speaker|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|metallb__metallb__config__manifests__metallb-native.yaml:2251|Deployment/metallb-system/controller|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|metallb__metallb__config__manifests__metallb-native.yaml:2361|DaemonSet/metallb-system/speaker|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|microsoft__SDN__Kubernetes__linux__addons__kube-dns-deployment.yaml:103|ReplicationController/kube-system/kube-dns-v20|spec.template.spec.nodeSelector.[beta.kubernetes.io/os]|is 'linux'
everything|prometheus-operator__kube-prometheus__manifests__grafana-deployment.yaml:173|Deployment/monitoring/grafana|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|prometheus-operator__kube-prometheus__manifests__kubeStateMetrics-deployment.yaml:110|Deployment/monitoring/kube-state-metrics|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|prometheus-operator__kube-prometheus__manifests__nodeExporter-daemonset.yaml:103|DaemonSet/monitoring/node-exporter|spec.template.spec.nodeSelector.[kubernetes.io/os]|is 'linux'
everything|flannel-io__flannel__Documentation__kube-flannel.yml:124|DaemonSet/kube-flannel/kube-flannel-ds|spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution|rules out the Windows nodes of build ltsc2022 (kubernetes.io/os=windows, kubernetes.io/arch=amd64, node.kubernetes.io/windows-build=10.0.20348) in every term
everything|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__kube-flannel-example.yml:151|DaemonSet/kube-system/kube-flannel-ds-amd64|spec.template.spec.nodeSelector.[beta.kubernetes.io/os]|is 'linux'
everything|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__kube-flannel-example.yml:311|DaemonSet/kube-system/kube-flannel-ds-arm|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 'arm'
everything|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__kube-flannel-example.yml:391|DaemonSet/kube-system/kube-flannel-ds-ppc64le|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 'ppc64le'
everything|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__kube-flannel-example.yml:471|DaemonSet/kube-system/kube-flannel-ds-s390x|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 's390x'
everything|microsoft__SDN__Kubernetes__flannel__l2bridge__manifests__simpleweb.yml:32|Deployment/win-webserver|spec.template.spec.containers[0].image|'mcr.microsoft.com/windows/servercore:1809' is built for ltsc2019, which ltsc2022 hosts cannot run with process isolation
everything|microsoft__SDN__Kubernetes__flannel__overlay__manifests__kube-flannel-example.yml:153|DaemonSet/kube-system/kube-flannel-ds-amd64|spec.template.spec.nodeSelector.[beta.kubernetes.io/os]|is 'linux'
everything|microsoft__SDN__Kubernetes__flannel__overlay__manifests__kube-flannel-example.yml:313|DaemonSet/kube-system/kube-flannel-ds-arm|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 'arm'
everything|microsoft__SDN__Kubernetes__flannel__overlay__manifests__kube-flannel-example.yml:393|DaemonSet/kube-system/kube-flannel-ds-ppc64le|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 'ppc64le'
everything|microsoft__SDN__Kubernetes__flannel__overlay__manifests__kube-flannel-example.yml:473|DaemonSet/kube-system/kube-flannel-ds-s390x|spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]|is 's390x'
EXPECTED

fail=0 n=0 failing=0
# Turns "FILE:LINE:COL: error: OBJECT: FIELD: MESSAGE" into
# "FILE:LINE|OBJECT|FIELD|MESSAGE" (FILE without its folder).
normalize() {
	sed -nE 's#^([^:]*/)?([^/:]*):([0-9]+):[0-9]+: error: ([^:]*): ([^:]*): (.*)$#\2:\3|\4|\5|\6#p'
}

for profile in default everything; do
	args=()
	[ "$profile" = everything ] && args=("$tmp/everything.yaml")
	for f in "$corpus"/*.yaml "$corpus"/*.yml; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		n=$((n + 1))
		"$wingen" build "${args[@]}" -f "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		normalize <"$tmp/err" | sort >"$tmp/got"
		grep -F "$profile|$name:" "$tmp/expected" | cut -d'|' -f2- \
			| sort >"$tmp/want"
		# same file:line, object and field; the message starts as listed
		if [ "$(wc -l <"$tmp/got")" != "$(wc -l <"$tmp/want")" ] \
			|| ! paste -d'\n' "$tmp/want" "$tmp/got" | awk -F'|' '
				NR % 2 == 1 { w1 = $1; w2 = $2; w3 = $3; w4 = $4; next }
				{ if ($1 != w1 || $2 != w2 || $3 != w3 ||
				      index($4, w4) != 1) bad = 1 }
				END { exit bad }'; then
			echo "FAIL $profile $name: errors differ from the expected conflicts"
			diff "$tmp/want" "$tmp/got" | head -10
			fail=1
			continue
		fi
		if [ -s "$tmp/want" ]; then
			failing=$((failing + 1))
			if [ "$rc" != 1 ] || [ -s "$tmp/out" ]; then
				echo "FAIL $profile $name: a conflict must exit 1 with nothing on stdout (rc $rc)"
				fail=1
			fi
			continue
		fi
		if [ "$rc" != 0 ]; then
			echo "FAIL $profile $name: exit $rc: $(head -3 "$tmp/err")"
			fail=1
			continue
		fi
		# idempotence: the output, built again, changes nothing
		"$wingen" build "${args[@]}" -f "$tmp/out" --explain \
			>"$tmp/out2" 2>"$tmp/err2"
		if ! cmp -s "$tmp/out" "$tmp/out2"; then
			echo "FAIL $profile $name: a second build changed the output"
			diff "$tmp/out" "$tmp/out2" | head -10
			fail=1
		fi
		if grep -q ' -> ' "$tmp/err2"; then
			echo "FAIL $profile $name: a second build recorded changes"
			grep ' -> ' "$tmp/err2" | head -5
			fail=1
		fi
		"$wingen" fmt -f "$tmp/out" >"$tmp/fmt" 2>/dev/null
		if ! cmp -s "$tmp/out" "$tmp/fmt"; then
			echo "FAIL $profile $name: the output does not read back unchanged"
			fail=1
		fi
	done
done
# every listed conflict belongs to a corpus file
while IFS='|' read -r profile at _; do
	[ -f "$corpus/${at%:*}" ] || {
		echo "FAIL: listed conflict for missing file ${at%:*}"; fail=1; }
done <"$tmp/expected"
echo "$n runs checked, $failing with genuine conflicts"
[ "$n" -gt 0 ] || { echo "FAIL: no corpus files found"; exit 1; }
exit $fail
