#!/usr/bin/env bash
# migrate (and build, check) over a kustomize repository: a file that a kustomization names as
# a patch or as kustomize's own configuration is not an object to edit.
#  - patches (path), patchesStrategicMerge, patchesJson6902, a patch in a
#    sibling folder (../), and a transformer config with apiVersion and
#    kind are skipped and left byte for byte; the summary names each with
#    the kustomization that names it, and says how to check the overlays;
#  - the base is migrated, and the overlay kubectl kustomize renders from
#    it is still a Windows workload (edited as an object, a patch with no
#    image was pinned to Linux, and kustomize merged that over the base);
#  - the same file with no kustomization naming it is an object again
#    (here: the same Deployment twice, an error), so the skip comes from
#    the kustomization and not from the file's name or text;
#  - a kustomization named Kustomization (no extension) counts too;
#  - --strict: a skipped patch is an error and nothing is written;
#  - build and check -f an overlay: its patch is an error that says to
#    render the overlay first, not a Linux Deployment of its own;
#  - a bare path as an item of patches: (kustomize wants path:) is a
#    patch too.
#   migrate_kustomize.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

cat >profile.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata:
  name: fleet
windows:
  builds:
  - release: ltsc2022
  default: ltsc2022
  select:
  - image: '^mcr\.microsoft\.com/windows/'
EOF

mkdir -p repo/base repo/overlays/prod repo/overlays/stage repo/common
cat >repo/base/web.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
EOF
printf 'resources:\n- web.yaml\n' >repo/base/kustomization.yaml
# limits_patch FILE LIMITS: a strategic-merge patch with no image; alone
# it reads as a Linux workload
limits_patch() {
	cat >"$1" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        resources:
          limits: {$2}
EOF
}
limits_patch repo/overlays/prod/memory.yaml 'memory: 1Gi'
cat >repo/overlays/prod/replicas.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
EOF
cat >repo/overlays/prod/json6902.yaml <<'EOF'
- op: add
  path: /metadata/labels
  value: {tier: web}
EOF
cat >repo/overlays/prod/labels.yaml <<'EOF'
apiVersion: builtin
kind: LabelTransformer
metadata:
  name: env
labels:
  env: prod
fieldSpecs:
- path: metadata/labels
  create: true
EOF
cat >repo/common/probe.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      terminationGracePeriodSeconds: 60
EOF
cat >repo/overlays/prod/kustomization.yaml <<'EOF'
resources:
- ../../base
patches:
- path: memory.yaml
- path: ../../common/probe.yaml
- patch: |-
    - op: replace
      path: /spec/replicas
      value: 2
  target: {kind: Deployment, name: web}
patchesStrategicMerge:
- replicas.yaml
patchesJson6902:
- target: {group: apps, version: v1, kind: Deployment, name: web}
  path: json6902.yaml
transformers:
- labels.yaml
EOF
limits_patch repo/overlays/stage/cpu.yaml 'cpu: 500m'
printf 'resources:\n- ../../base\npatches:\n- path: cpu.yaml\n' \
	>repo/overlays/stage/Kustomization
cp -r repo pristine

# --- the repository, migrated in place ------------------------------------
"$wingen" migrate profile.yaml repo --in-place >out 2>err
rc=$?
[ $rc = 0 ] || no "migrate over the repository exited $rc: $(cat err)"
[ -s out ] && no "migrate wrote to stdout"
grep -q 'node.kubernetes.io/windows-build: "10.0.20348"' repo/base/web.yaml \
	|| no "the base was not migrated: $(cat repo/base/web.yaml)"
for f in overlays/prod/memory.yaml overlays/prod/replicas.yaml \
	 overlays/prod/json6902.yaml overlays/prod/labels.yaml \
	 common/probe.yaml overlays/stage/cpu.yaml; do
	cmp -s "pristine/$f" "repo/$f" || no "$f was edited: $(cat "repo/$f")"
done
for want in \
	"skipped repo/overlays/prod/memory.yaml: a kustomize patch (patches of repo/overlays/prod/kustomization.yaml)" \
	"skipped repo/common/probe.yaml: a kustomize patch (patches of repo/overlays/prod/kustomization.yaml)" \
	"skipped repo/overlays/prod/replicas.yaml: a kustomize patch (patchesStrategicMerge of repo/overlays/prod/kustomization.yaml)" \
	"skipped repo/overlays/prod/labels.yaml: kustomize configuration (transformers of repo/overlays/prod/kustomization.yaml)" \
	"skipped repo/overlays/stage/cpu.yaml: a kustomize patch (patches of repo/overlays/stage/Kustomization)" \
	"migrate: 6 kustomize patch or configuration files left as they are; check each overlay's result: kubectl kustomize DIR | wingen build PROFILE -f - --check"; do
	grep -qF "$want" err || no "stderr lacks '$want': $(cat err)"
done
# the JSON 6902 patch holds no object: skipped as a kustomize patch all
# the same (the reason a reader looks for)
grep -qF "skipped repo/overlays/prod/json6902.yaml: a kustomize patch (patchesJson6902 of" err \
	|| no "json6902.yaml not named as a patch: $(cat err)"

# --- what kustomize renders from it ---------------------------------------
if command -v kubectl >/dev/null 2>&1; then
	for o in prod stage; do
		if ! kubectl kustomize --load-restrictor LoadRestrictionsNone \
			"repo/overlays/$o" >"render.$o" 2>kerr
		then
			no "kubectl kustomize overlays/$o failed: $(cat kerr)"
			continue
		fi
		grep -q 'kubernetes.io/os: windows' "render.$o" \
			|| no "overlays/$o renders no Windows selector"
		grep -q 'kubernetes.io/os: linux' "render.$o" \
			&& no "overlays/$o renders a Linux selector"
		"$wingen" check profile.yaml -f "render.$o" >/dev/null 2>cerr \
			|| no "wingen check on overlays/$o failed: $(cat cerr)"
		# the overlay's RuntimeClass is in its render, listed by its
		# kustomization (the base two overlays build gets none: the
		# overlays would render it twice, which kustomize refuses)
		grep -q '^kind: RuntimeClass' "render.$o" \
			|| no "overlays/$o renders no RuntimeClass"
		# the render as migrated is what build makes of the render as
		# it was
		kubectl kustomize --load-restrictor LoadRestrictionsNone \
			"pristine/overlays/$o" 2>/dev/null \
			| "$wingen" build profile.yaml -f - >"built.$o" 2>/dev/null
		# (kustomize's label transformers label the RuntimeClass
		# listed in the overlay too: its metadata aside)
		for f in "render.$o" "built.$o"; do
			"$wingen" fmt -f "$f" -o json | jq -cS 'if .kind == "RuntimeClass" then del(.metadata.labels, .metadata.annotations) else . end' \
				| sort >"$f.json"
		done
		cmp -s "render.$o.json" "built.$o.json" \
			|| no "overlays/$o: the migrated render differs from build of the render: $(diff "render.$o.json" "built.$o.json" | head -5)"
	done
	[ -e repo/base/00-runtimeclasses.yaml ] \
		&& no "the base two overlays build got a RuntimeClass file"
	grep -qx -- '- 00-runtimeclasses.yaml' repo/overlays/prod/kustomization.yaml \
		|| no "overlays/prod/kustomization.yaml does not list it: $(cat repo/overlays/prod/kustomization.yaml)"
	diff pristine/overlays/stage/Kustomization repo/overlays/stage/Kustomization \
		| grep '^[<>]' | grep -qvx '> - 00-runtimeclasses.yaml' \
		&& no "Kustomization edited beyond the entry: $(diff pristine/overlays/stage/Kustomization repo/overlays/stage/Kustomization)"
else
	echo "note: kubectl is not installed: the overlays are not rendered"
fi

# --- the same patch, named by no kustomization ----------------------------
# A file no kustomization names is a file on its own (a stream alone):
# migrated as the object it reads as, so the skip above came from the
# kustomization, not from the file's name or text.
rm -rf repo2 && cp -r pristine repo2
rm repo2/overlays/prod/kustomization.yaml repo2/overlays/stage/Kustomization
"$wingen" migrate profile.yaml repo2 --in-place >/dev/null 2>err2
rc=$?
[ $rc = 0 ] || no "with no kustomization, migrate exited $rc (want 0): $(cat err2)"
grep -q 'kubernetes.io/os: linux' repo2/overlays/prod/memory.yaml \
	|| no "with no kustomization, memory.yaml was not migrated as an object"
grep -q 'kustomize patch' err2 && no "a patch named with no kustomization"

# --- build and check read files, not kustomizations ------------------------
# An overlay given to -f: its patch is no object of its own (read as one,
# it came out as a Deployment pinned to Linux, exit 0).
for cmd in build check; do
	# check writes its findings on stdout
	"$wingen" $cmd profile.yaml -f pristine/overlays/stage >out 2>err4
	rc=$?
	[ $cmd = check ] && cat out >>err4
	[ $rc = 1 ] || no "$cmd -f overlays/stage exited $rc (want 1)"
	[ -s out ] && [ $cmd = build ] && no "build wrote to stdout: $(cat out)"
	grep -qF "pristine/overlays/stage/cpu.yaml: error: a kustomize patch (patches of pristine/overlays/stage/Kustomization), not an object: render the folder first: kubectl kustomize pristine/overlays/stage | wingen build PROFILE -f -" err4 \
		|| no "$cmd: no error naming the patch: $(cat err4)"
done
# a bare file name: the kustomization of the working folder
(cd pristine/overlays/stage && "$wingen" build ../../../profile.yaml \
	-f cpu.yaml) >out 2>err4
rc=$?
[ $rc = 1 ] || no "build -f cpu.yaml (a bare name) exited $rc (want 1)"
grep -qF "cpu.yaml: error: a kustomize patch (patches of ./Kustomization)" err4 \
	|| no "build -f cpu.yaml: no error naming the patch: $(cat err4)"
# a base read with -f: its kustomization is no object either (it came out
# of build as one, its namespace: lost); its files alone build
"$wingen" build profile.yaml -f pristine/base >out 2>err5
[ $? = 1 ] && [ ! -s out ] || no "build -f base: not an error: $(cat out err5)"
grep -qF "pristine/base/kustomization.yaml: error: a kustomization, not an object: render the folder first: kubectl kustomize pristine/base | wingen build PROFILE -f -" err5 \
	|| no "build -f base: $(cat err5)"
"$wingen" build profile.yaml -f pristine/base/web.yaml >out 2>err5 \
	|| no "build -f base/web.yaml failed: $(cat err5)"
grep -q 'runtimeClassName: windows-ltsc2022' out || no "build -f base/web.yaml: $(cat out)"
# a Kustomization on stdin (or under another name) likewise
printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: shop\nresources: [web.yaml]\n' \
	| "$wingen" build profile.yaml -f - >out 2>err5
[ $? = 1 ] && [ ! -s out ] \
	&& grep -qF "<stdin>:2:7: error: a kustomization (kind Kustomization), not an object: render the folder first: kubectl kustomize DIR | wingen build PROFILE -f -" err5 \
	|| no "a Kustomization on stdin: $(cat out err5)"

# --- a bare path under patches: ---------------------------------------------
# argocd-example-apps' plugins/kustomized-helm lists "patches: -
# overlays/x.yaml" (kustomize wants a mapping with path:, and refuses it):
# the file is a patch all the same, never edited as an object (it was
# pinned to Linux, exit 0).
mkdir -p bare/overlays
cp pristine/base/web.yaml bare/web.yaml
limits_patch bare/overlays/limits.yaml 'cpu: 500m'
printf 'resources:\n- web.yaml\npatches:\n- overlays/limits.yaml\n' >bare/kustomization.yaml
cp -r bare bare.orig
"$wingen" migrate profile.yaml bare --in-place >/dev/null 2>err6
rc=$?
[ $rc = 0 ] || no "a bare patch path: migrate exited $rc: $(cat err6)"
cmp -s bare/overlays/limits.yaml bare.orig/overlays/limits.yaml \
	|| no "a bare patch path: the patch was edited: $(diff bare.orig/overlays/limits.yaml bare/overlays/limits.yaml)"
grep -qF "skipped bare/overlays/limits.yaml: a kustomize patch (patches of bare/kustomization.yaml)" err6 \
	|| no "a bare patch path: not skipped as a patch: $(cat err6)"

# --- --strict ---------------------------------------------------------------
rm -rf repo3 && cp -r pristine repo3
"$wingen" migrate profile.yaml repo3 --in-place --strict >/dev/null 2>err3
rc=$?
[ $rc = 1 ] || no "--strict with patches exited $rc (want 1)"
grep -qF "repo3/overlays/prod/memory.yaml: error: skipped: a kustomize patch (patches of repo3/overlays/prod/kustomization.yaml) (--strict: every skipped file is an error)" err3 \
	|| no "--strict: no error naming the patch: $(cat err3)"
diff -r pristine repo3 >/dev/null || no "--strict wrote files"

echo "migrate_kustomize: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
