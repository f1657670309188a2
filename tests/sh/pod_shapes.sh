#!/usr/bin/env bash
# Pods that are not PodTemplateSpecs (the kinds table's shapes: Argo
# Workflows, Tekton runs, a profile's workloads: pods): migrate --in-place
# writes what build writes, with the comments kept, and nothing is left
# to do after it; check --strict is not silent on a Windows workflow;
# a declared shape prints back (--print-profile) as it loads; the KRM
# function gives the same objects.
#   pod_shapes.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 yamlcmp=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
g=$src/tests/golden

ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fail=1; }

# ---- migrate keeps comments and agrees with build -----------------------
for c in cr-argo-hybrid cr-tekton-pipelinerun cr-tekton-taskrun; do
	rm -rf "$c" && mkdir "$c" && cd "$c" || exit 1
	cp "$g/$c/profile.yaml" . && cp "$g/$c/input.yaml" manifest.yaml
	if "$wingen" migrate profile.yaml manifest.yaml --in-place \
		>out 2>err; then
		ok "$c: migrate --in-place"
	else
		bad "$c: migrate --in-place:"; cat err
	fi
	# the first comment line of the case's input stays
	first=$(grep -m1 '^#' "$g/$c/input.yaml")
	if grep -qF -- "$first" manifest.yaml; then
		ok "$c: comments kept"
	else
		bad "$c: the comment '$first' is gone"
	fi
	"$wingen" build profile.yaml -f "$g/$c/input.yaml" >built.yaml \
		2>/dev/null
	if [ -f 00-runtimeclasses.yaml ]; then
		{ cat 00-runtimeclasses.yaml; echo ---; cat manifest.yaml; } \
			>migrated.yaml
	else
		# no pod names a RuntimeClass (an Argo template cannot):
		# migrate writes none, build prints the profile's
		cp manifest.yaml migrated.yaml
		awk 'BEGIN { RS = "\n---\n"; ORS = "\n---\n" }
		     !/\nkind: RuntimeClass\n/' built.yaml | sed '$d' >b
		mv b built.yaml
	fi
	if "$yamlcmp" built.yaml migrated.yaml >/dev/null 2>&1; then
		ok "$c: migrate and build agree"
	else
		bad "$c: migrate and build differ:"
		"$yamlcmp" built.yaml migrated.yaml | head
	fi
	files=(-f manifest.yaml)
	[ -f 00-runtimeclasses.yaml ] && files+=(-f 00-runtimeclasses.yaml)
	if "$wingen" migrate profile.yaml manifest.yaml --diff \
		>/dev/null 2>err; then
		ok "$c: migrate --diff after migrate: nothing pending"
	else
		bad "$c: migrate --diff after migrate:"; cat err
	fi
	cd "$tmp" || exit 1
done

# ---- a Windows Argo workflow without a toleration is not silent ----------
if "$wingen" check --strict -f "$g/cr-argo-workflow/input.yaml" >out 2>&1; then
	bad "check --strict passed a Windows workflow in silence"
elif grep -q "spec.templates\[0\]" out; then
	ok "check --strict: the Windows workflow is named"
else
	bad "check --strict failed without naming the template:"; cat out
fi
"$wingen" build -f "$g/cr-argo-workflow/input.yaml" >out.yaml 2>/dev/null
if grep -q "effect: NoSchedule" out.yaml \
	&& grep -q "kubernetes.io/os: windows" out.yaml; then
	ok "build: the template tolerates the taint and names Windows"
else
	bad "build did not place the Windows template:"; cat out.yaml
fi

# ---- a mutant check: without the Task, the run is neither Windows nor
# ---- Linux, and says so ----------------------------------------------------
sed -n '/^kind: TaskRun/,$p' "$g/cr-tekton-taskrun/input.yaml" \
	| sed -n '1,/^---/p' | sed '/^---/d' >run.yaml
{ echo "apiVersion: tekton.dev/v1"; cat run.yaml; } >alone.yaml
"$wingen" build "$g/cr-tekton-taskrun/profile.yaml" -f alone.yaml \
	>alone.out 2>alone.err
if grep -q "names Task 'win-build', which is not in the stream" alone.err \
	&& ! sed -n '/^kind: TaskRun/,$p' alone.out | grep -q nodeSelector; then
	ok "the run without its Task: said, not pinned"
else
	bad "the run without its Task:"; cat alone.err alone.out
fi
if "$wingen" build "$g/cr-tekton-taskrun/profile.yaml" -f alone.yaml \
	--strict >/dev/null 2>&1; then
	bad "--strict passed a run whose Task is missing"
else
	ok "--strict: a missing Task is an error"
fi

# ---- a declared shape prints back as it loads ----------------------------
c=$g/cr-declared-shape
if "$wingen" build "$c/profile.yaml" --print-profile >printed.yaml 2>err \
	&& "$wingen" build printed.yaml -f "$c/input.yaml" >again.yaml \
		2>/dev/null \
	&& cmp -s again.yaml "$c/expected.yaml"; then
	ok "--print-profile of a declared shape loads back the same"
else
	bad "--print-profile of a declared shape:"; cat err printed.yaml
fi

# ---- the KRM function gives the same objects -----------------------------
c=$g/cr-tekton-pipelinerun
{
	echo "apiVersion: config.kubernetes.io/v1"
	echo "kind: ResourceList"
	echo "functionConfig:"
	sed 's/^/  /' "$c/profile.yaml"
	echo "items:"
	awk 'BEGIN { doc = "" }
	     /^---/ { if (doc != "") print doc; doc = ""; next }
	     /^#/ { next }
	     { doc = doc (doc == "" ? "- " : "\n  ") $0 }
	     END { if (doc != "") print doc }' "$c/input.yaml"
} >rl.yaml
if "$wingen" fn <rl.yaml >rl.out 2>rl.err \
	&& grep -q "pipelineTaskName: report" rl.out; then
	ok "fn: the PipelineRun's tasks get their entries"
else
	bad "fn:"; cat rl.err; head -40 rl.out
fi
exit $fail
