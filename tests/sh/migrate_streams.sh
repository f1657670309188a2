#!/usr/bin/env bash
# migrate over a repository is many streams: each kustomize root (a folder
# with a kustomization and what it builds) and each file no root builds is
# judged on its own, as build judges it when run on that stream alone.
#  - argo-cd's manifests of the corpus, copied into the layout argo-cd
#    ships (install.yaml beside ha/ and base/, two kustomize roots): the
#    variants hold the same objects rendered differently; migrate used to
#    refuse the whole run ("the same object twice"); now each file is what
#    build makes of it alone and each root renders (the real kubectl
#    kustomize) to what build makes of its render; the same under a
#    profile that makes redis-ha's haproxy a Windows workload,
#    where the files alone share the run's RuntimeClass file and the top
#    root lists its own (the base the top root builds gets none:
#    kustomize would render it twice);
#  - the shared corpus's kustomize trees, under two profiles: every root
#    that renders renders as build makes it (RuntimeClasses aside for a
#    root another root builds), and a second run changes nothing;
#  - Service-to-workload matching and duplicates are judged within a
#    stream: a Service beside its Windows Deployment in a root is checked,
#    the same two as files alone are not; an identical duplicate in one
#    file is a note, a differing one an error saying what differs;
#  - a kustomization that renames (namePrefix) gets no RuntimeClass, with
#    a warning; one that changes images (images:) a warning.
#   migrate_streams.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 corpus=${3:-}
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1
more=$corpus/../more/manifests
have_kubectl=
command -v kubectl >/dev/null 2>&1 && have_kubectl=1

# norm FILE: its objects as sorted JSON lines, a RuntimeClass without the
# labels kustomize's transformers give it
norm() {
	"$wingen" fmt -f "$1" -o json 2>/dev/null \
		| jq -cS 'if .kind == "RuntimeClass" then del(.metadata.labels, .metadata.annotations) else . end' \
		| sort
}
# same A B [noRC]: the two streams hold the same objects
same() {
	if [ -n "${3:-}" ]; then
		cmp -s <(norm "$1" | grep -v '"kind":"RuntimeClass"') \
			<(norm "$2" | grep -v '"kind":"RuntimeClass"')
	else
		cmp -s <(norm "$1") <(norm "$2")
	fi
}

# check_roots PROFILE ORIG MIG: each root of MIG renders as build makes
# the render of the same root in ORIG
check_roots() {
	local p=$1 orig=$2 mig=$3 k d top
	[ -n "$have_kubectl" ] || return 0
	while read -r k; do
		d=${k%/*}
		kubectl kustomize "$orig/$d" >o.yaml 2>/dev/null || continue
		"$wingen" build $p -f o.yaml >b.yaml 2>/dev/null || continue
		if ! kubectl kustomize "$mig/$d" >m.yaml 2>kerr; then
			no "$mig/$d does not render after migrate: $(head -3 kerr)"
			continue
		fi
		# a root another root builds gets no RuntimeClass of its own
		top=1
		grep -rqsE -- "^ *- *(\.\./)+$(basename "$d")/?$|^ *- *\./?$(basename "$d")/?$" \
			--include=kustomization.yaml "$orig" && top=
		if ! same m.yaml b.yaml ${top:-noRC}; then
			no "$mig/$d renders otherwise than build of its render$( [ -z "$top" ] && echo ' (RuntimeClasses aside)'): $(diff <(norm m.yaml) <(norm b.yaml) | head -4 | cut -c1-300)"
		fi
	done < <(cd "$orig" && find . -name kustomization.yaml | sort)
}

# --- argo-cd's variants --------------------------------------------------
R=$corpus/argoproj__argo-cd__manifests
if [ -f "${R}__install.yaml" ]; then
	m=argo/manifests
	mkdir -p $m/base/application-controller $m/base/config \
		$m/ha/base/redis-ha/chart
	cat "${R}__install.yaml" >$m/install.yaml
	cat "${R}__ha__namespace-install.yaml" >$m/ha/namespace-install.yaml
	cat "${R}__ha__base__redis-ha__chart__upstream.yaml" \
		>$m/ha/base/redis-ha/chart/upstream.yaml
	cat "${R}__base__application-controller__argocd-application-controller-statefulset.yaml" \
		>$m/base/application-controller/argocd-application-controller-statefulset.yaml
	cat "${R}__base__config__argocd-ssh-known-hosts-cm.yaml" \
		>$m/base/config/argocd-ssh-known-hosts-cm.yaml
	cat >$m/base/kustomization.yaml <<'EOF'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ./application-controller/argocd-application-controller-statefulset.yaml
- ./config/argocd-ssh-known-hosts-cm.yaml
EOF
	cat >$m/ha/base/kustomization.yaml <<'EOF'
# HA: the base, and redis-ha
resources:
- ../../base
- ./redis-ha/chart/upstream.yaml
EOF
	cat >win.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: argo}
windows:
  builds: [{release: ltsc2022}]
  select: [{name: '^argocd-redis-ha-haproxy$', kinds: [Deployment]}]
EOF
	for p in "" win.yaml; do
		tag=${p:-default}
		rm -rf "a.$tag" "o.$tag"
		cp -r argo "a.$tag"
		cp -r argo "o.$tag"
		"$wingen" migrate $p "a.$tag/manifests" --in-place >out 2>err
		rc=$?
		[ $rc = 0 ] || no "$tag: migrate over argo-cd's variants exited $rc: $(head -5 err)"
		[ -s out ] && no "$tag: migrate wrote to stdout"
		for f in install.yaml ha/namespace-install.yaml; do
			"$wingen" build $p -f "o.$tag/manifests/$f" >b.yaml 2>/dev/null
			same "a.$tag/manifests/$f" b.yaml noRC \
				|| no "$tag: $f is not what build makes of it alone: $(diff <(norm "a.$tag/manifests/$f") <(norm b.yaml) | head -4 | cut -c1-300)"
			# each variant passes the CI gate on its own
			"$wingen" build $p -f "a.$tag/manifests/$f" \
				-f "a.$tag/manifests/00-runtimeclasses.yaml" \
				--check >/dev/null 2>err.gate
			rc=$?
			[ ! -e "a.$tag/manifests/00-runtimeclasses.yaml" ] \
				&& { "$wingen" build $p -f "a.$tag/manifests/$f" --check >/dev/null 2>err.gate; rc=$?; }
			[ $rc = 0 ] || no "$tag: build --check of $f after migrate exited $rc: $(head -3 err.gate)"
		done
		check_roots "$p" "o.$tag/manifests" "a.$tag/manifests"
		"$wingen" migrate $p "a.$tag/manifests" --diff >again 2>/dev/null
		[ -s again ] && no "$tag: a second migrate would change: $(head -5 again)"
	done
	# the Windows profile: the files alone share the run's RuntimeClass
	# file; ha/base (built by no root) lists its own; base gets none
	grep -q 'name: windows-ltsc2022' a.win.yaml/manifests/00-runtimeclasses.yaml 2>/dev/null \
		|| no "win: no RuntimeClass file for the files alone"
	grep -qx -- '- 00-runtimeclasses.yaml' a.win.yaml/manifests/ha/base/kustomization.yaml \
		|| no "win: ha/base's kustomization does not list its RuntimeClasses: $(cat a.win.yaml/manifests/ha/base/kustomization.yaml)"
	head -1 a.win.yaml/manifests/ha/base/kustomization.yaml | grep -q '^# HA' \
		|| no "win: ha/base's comment lost"
	[ -e a.win.yaml/manifests/base/00-runtimeclasses.yaml ] \
		&& no "win: the base ha/base builds got a RuntimeClass file"
	grep -q 'runtimeClassName: windows-ltsc2022' a.win.yaml/manifests/ha/namespace-install.yaml \
		|| no "win: ha/namespace-install.yaml's haproxy is not a Windows workload"
	[ -e a.default/manifests/00-runtimeclasses.yaml ] \
		&& no "default: a RuntimeClass file for a Linux-only repository"
else
	echo "note: argo-cd's manifests are not in the corpus"
fi

# --- the shared corpus's kustomize trees --------------------------------
# The default profile, and one that makes a workload of a tree a Windows
# one where no patch of an overlay touches it (a patch is merged after
# migrate, which leaves it as it is and says how to check the render).
cat >any.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: any}
windows:
  builds: [{release: ltsc2022}]
  select: [{kinds: [Deployment, DaemonSet], name: '^(ui|aks-periscope-win)$'}]
EOF
n=0
for t in "$more"/*/; do
	[ -d "$t" ] || continue
	n=$((n + 1))
	profiles=""
	# the Windows profile where it selects a workload of the tree
	grep -rqsE 'name: (ui|aks-periscope-win)$' "$t" && profiles=any.yaml
	for p in "" $profiles; do
		tag=${p:-default}
		rm -rf "t$n.$tag" "t$n.o"
		cp -r "$t" "t$n.$tag" && chmod -R u+w "t$n.$tag"
		cp -r "$t" "t$n.o" && chmod -R u+w "t$n.o"
		"$wingen" migrate $p "t$n.$tag" --in-place >/dev/null 2>err
		rc=$?
		[ $rc = 0 ] || { no "$(basename "$t") ($tag): migrate exited $rc: $(head -5 err)"; continue; }
		"$wingen" migrate $p "t$n.$tag" --diff >again 2>/dev/null
		[ -s again ] && no "$(basename "$t") ($tag): a second migrate would change: $(head -5 again)"
		check_roots "$p" "t$n.o" "t$n.$tag"
	done
done
[ $n -ge 6 ] || no "only $n kustomize trees in $more"

# --- files alone: one run is each file's run ------------------------------
# (the chains of files whose objects no other object's edit reads run
# together: it must give what each file gives alone)
if [ -d "$corpus" ]; then
	mkdir one each
	for f in "$corpus"/*.yaml "$corpus"/*.yml; do
		[ -f "$f" ] || continue
		cat "$f" >"one/${f##*/}"
		cat "$f" >"each/${f##*/}"
	done
	"$wingen" migrate one --in-place >/dev/null 2>err.one
	rc_one=$?
	for f in each/*; do
		case $f in */00-runtimeclasses.yaml) continue ;; esac
		"$wingen" migrate "$f" --in-place --runtimeclass-file each.rc.yaml \
			>/dev/null 2>/dev/null
	done
	for f in one/*; do
		case $f in */00-runtimeclasses.yaml) continue ;; esac
		cmp -s "$f" "each/${f#one/}" \
			|| no "files alone: ${f#one/} differs from its run alone: $(diff "$f" "each/${f#one/}" | head -4)"
	done
	[ $rc_one = 0 ] || grep -q 'error' err.one \
		|| no "files alone: the run failed without an error: $(cat err.one)"
fi

# --- what a stream decides ------------------------------------------------
cat >dsr.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: dsr}
windows:
  builds: [{release: ltsc2022}]
  network: {dsr: false}
EOF
mkdir -p svc/root svc/files
cat >svc/root/web.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}]
EOF
cat >svc/root/svc.yaml <<'EOF'
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  selector: {app: web}
  ports: [{port: 80}]
EOF
printf 'resources:\n- web.yaml\n- svc.yaml\n' >svc/root/kustomization.yaml
cp svc/root/web.yaml svc/root/svc.yaml svc/files/
"$wingen" migrate dsr.yaml svc/root --diff >/dev/null 2>err.root
"$wingen" migrate dsr.yaml svc/files --diff >/dev/null 2>err.files
grep -q 'svc.yaml.*Service/web' err.root \
	|| no "a Service beside its Windows Deployment in a root was not checked: $(cat err.root)"
grep -q 'Service/web' err.files \
	&& no "a Service was matched with a Deployment of another file alone: $(cat err.files)"

mkdir dup
two() {	# two A B: the same ConfigMap twice in one file, data.a A then B
	printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: "%s"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: "%s"}\n' "$1" "$2" >dup/two.yaml
}
two 1 1
"$wingen" migrate dup --diff >/dev/null 2>err || no "an identical duplicate in one file failed migrate: $(cat err)"
two 1 2
"$wingen" migrate dup --diff >out 2>err
[ $? = 2 ] && [ ! -s out ] || no "a differing duplicate in one file: not an error: $(cat err)"
grep -q 'and it differs: data.a is "1" there, "2" here' err \
	|| no "the duplicate error does not say what differs: $(cat err)"

# --- roots that rename or change images -----------------------------------
mkdir -p ren/base ren/prod
cp svc/root/web.yaml ren/base/
printf 'resources: [web.yaml]\n' >ren/base/kustomization.yaml
printf 'namePrefix: prod-\nresources: [../base]\n' >ren/prod/kustomization.yaml
"$wingen" migrate ren --in-place >/dev/null 2>err || no "rename: $(cat err)"
grep -q 'ren/prod/kustomization.yaml: warning: its namePrefix or nameSuffix would rename a RuntimeClass' err \
	|| no "namePrefix: no warning: $(cat err)"
[ -e ren/prod/00-runtimeclasses.yaml ] && no "namePrefix: a RuntimeClass file written"
grep -q 00-runtimeclasses ren/prod/kustomization.yaml && no "namePrefix: listed"
printf 'images:\n- {name: nginx, newTag: "2"}\n' >>ren/base/kustomization.yaml
"$wingen" migrate ren --diff >/dev/null 2>err
grep -q 'ren/base/kustomization.yaml: warning: images: changes the images' err \
	|| no "images: no warning: $(cat err)"

echo "migrate_streams: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
