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
files=()
for f in "$corpus"/*.yaml "$corpus"/*.yml; do
	[ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no corpus files found"; exit 1; }

# Runs wingen over every file with one profile, into $tmp/PROFILE: out/
# and err/ of the build, rc (one "STATUS NAME" line a file), and for
# each build that succeeded, again/ and again.err/: the output built a
# second time, with --explain.  Only wingen runs per file: the checks
# below read all the results at once, so the suite costs a few processes
# a file, and the two profiles run side by side.
run_profile() {
	local profile=$1 d=$tmp/$1 f name args=()
	[ "$profile" = everything ] && args=("$tmp/everything.yaml")
	mkdir -p "$d/out" "$d/err" "$d/again" "$d/again.err"
	for f in "${files[@]}"; do
		name=${f##*/}
		"$wingen" build "${args[@]}" -f "$f" >"$d/out/$name" \
			2>"$d/err/$name"
		rc=$?
		echo "$rc $name" >>"$d/rc"
		[ "$rc" = 0 ] || continue
		"$wingen" build "${args[@]}" -f "$d/out/$name" --explain \
			>"$d/again/$name" 2>"$d/again.err/$name"
	done
}
run_profile default & run_profile everything & wait

# Turns "FILE:LINE:COL: error: OBJECT: FIELD: MESSAGE" into
# "FILE:LINE|OBJECT|FIELD|MESSAGE" (FILE without its folder).
normalize() {
	sed -nE 's#^([^:]*/)?([^/:]*):([0-9]+):[0-9]+: error: ([^:]*): ([^:]*): (.*)$#\2:\3|\4|\5|\6#p'
}

for profile in default everything; do
	d=$tmp/$profile
	n=$((n + ${#files[@]}))
	# The errors of every file against the expected conflicts: the same
	# file:line, object and field, and the message starts as listed.
	# One sort puts each file's wanted (W) and got (G) lines side by
	# side, in the order the old per-file comparison used.
	{
		grep -F "$profile|" "$tmp/expected" | cut -d'|' -f2- \
			| sed 's/^/W|/'
		cat "$d"/err/* | normalize | sed 's/^/G|/'
	} | awk -F'|' '{ split($2, at, ":"); print at[1] "\t" $0 }' \
	  | LC_ALL=C sort -t"$(printf '\t')" -k1,1 -k2 >"$tmp/pairs"
	awk -F'|' -v profile="$profile" '
		function flush(   i, bad) {
			if (file == "") return
			bad = nw != ng
			for (i = 1; !bad && i <= nw; i++)
				bad = w1[i] != g1[i] || w2[i] != g2[i] \
				      || w3[i] != g3[i] || index(g4[i], w4[i]) != 1
			if (bad) {
				print "FAIL " profile " " file \
				      ": errors differ from the expected conflicts"
				for (i = 1; i <= nw || i <= ng; i++) {
					if (i <= nw) print "< " w1[i] "|" w2[i] "|" w3[i] "|" w4[i]
					if (i <= ng) print "> " g1[i] "|" g2[i] "|" g3[i] "|" g4[i]
				}
			}
			if (nw) print file > wanted
			nw = ng = 0
		}
		{ split($0, t, "\t"); name = t[1]; sub(/^[^\t]*\t/, "") }
		name != file { flush(); file = name }
		$1 == "W" { nw++; w1[nw] = $2; w2[nw] = $3; w3[nw] = $4; w4[nw] = $5 }
		$1 == "G" { ng++; g1[ng] = $2; g2[ng] = $3; g3[ng] = $4; g4[ng] = $5 }
		END { flush() }' wanted="$tmp/$profile.wanted" "$tmp/pairs" \
		>"$tmp/report"
	if [ -s "$tmp/report" ]; then
		cat "$tmp/report"
		fail=1
	fi
	declare -A conflict=()
	if [ -f "$tmp/$profile.wanted" ]; then
		while read -r name; do conflict[$name]=1; done <"$tmp/$profile.wanted"
	fi
	ok=()
	while read -r rc name; do
		if [ -n "${conflict[$name]:-}" ]; then
			failing=$((failing + 1))
			if [ "$rc" != 1 ] || [ -s "$d/out/$name" ]; then
				echo "FAIL $profile $name: a conflict must exit 1 with nothing on stdout (rc $rc)"
				fail=1
			fi
		elif [ "$rc" != 0 ]; then
			echo "FAIL $profile $name: exit $rc: $(head -3 "$d/err/$name")"
			fail=1
		else
			ok+=("$d/out/$name")
		fi
	done <"$d/rc"
	unset conflict
	[ ${#ok[@]} -gt 0 ] || continue
	# idempotence: the output, built again, changes nothing
	for f in "${ok[@]}"; do
		cmp -s "$f" "$d/again/${f##*/}" && continue
		echo "FAIL $profile ${f##*/}: a second build changed the output"
		diff "$f" "$d/again/${f##*/}" | head -10
		fail=1
	done
	if grep -l ' -> ' "${ok[@]/\/out\//\/again.err\/}" >"$tmp/changed"; then
		while read -r f; do
			echo "FAIL $profile ${f##*/}: a second build recorded changes"
			grep ' -> ' "$f" | head -5
		done <"$tmp/changed"
		fail=1
	fi
	# Every output reads back (fmt) unchanged.  fmt of several files
	# writes their documents with "---" between files, so one run checks
	# them all; when that differs, each file is read back alone to name
	# the culprit (and a difference that is only the joining is no
	# failure).
	"$wingen" fmt "${ok[@]/#/-f}" >"$tmp/fmt" 2>/dev/null
	awk 'FNR == 1 && NR > 1 { print "---" } { print }' "${ok[@]}" \
		>"$tmp/joined"
	if ! cmp -s "$tmp/joined" "$tmp/fmt"; then
		for f in "${ok[@]}"; do
			"$wingen" fmt -f "$f" >"$tmp/fmt" 2>/dev/null
			if ! cmp -s "$f" "$tmp/fmt"; then
				echo "FAIL $profile ${f##*/}: the output does not read back unchanged"
				fail=1
			fi
		done
	fi
done
# every listed conflict belongs to a corpus file
while IFS='|' read -r profile at _; do
	[ -f "$corpus/${at%:*}" ] || {
		echo "FAIL: listed conflict for missing file ${at%:*}"; fail=1; }
done <"$tmp/expected"
echo "$n runs checked, $failing with genuine conflicts"
exit $fail
