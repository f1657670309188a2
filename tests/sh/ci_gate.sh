#!/usr/bin/env bash
# README's CI gate passes right after migrate: after "migrate PROFILE DIR
# --in-place", "build PROFILE -f DIR --check" exits 0 (kubectl diff's
# "nothing to do").  The RuntimeClasses build generates and those migrate
# writes agree: both come only with a Windows workload that needs one.
# It exited 1 on a Linux-only folder (build generated the profile's
# RuntimeClasses, migrate rightly wrote none).  Checked for a Linux-only
# folder, a mixed folder under a two-build profile, the default profile,
# and the corpus's real manifests one file each.
#   ci_gate.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 corpus=${3:-}
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

cat >profile.yaml <<'EOF2'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: fleet}
windows:
  builds:
  - release: ltsc2022
  - release: ltsc2025
  select:
  - image: '^mcr\.microsoft\.com/windows/'
EOF2
deploy() {	# deploy NAME IMAGE
	cat <<EOF2
apiVersion: apps/v1
kind: Deployment
metadata:
  name: $1  # the $1 app
spec:
  selector:
    matchLabels: {app: $1}
  template:
    metadata:
      labels: {app: $1}
    spec:
      containers:
      - name: $1
        image: $2
EOF2
}
mkdir linux mixed
deploy api nginx:1.27 >linux/api.yaml
deploy api nginx:1.27 >mixed/api.yaml
deploy web mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022 >mixed/web.yaml

# gate PROFILE DIR: migrate, then the gate; both must agree
gate() {
	local p=$1 d=$2
	"$wingen" migrate $p "$d" --in-place >/dev/null 2>err \
		|| { no "migrate $p $d: $(cat err)"; return; }
	"$wingen" build $p -f "$d" --check >out 2>err
	rc=$?
	[ $rc = 0 ] || no "build $p -f $d --check right after migrate: exit $rc: $(cat err)"
	# and a second migrate has nothing to do either
	"$wingen" migrate $p "$d" --diff >out 2>/dev/null
	[ -s out ] && no "migrate $p $d again would change: $(head -5 out)"
}
gate profile.yaml linux
[ -e linux/00-runtimeclasses.yaml ] && no "migrate wrote RuntimeClasses for a Linux-only folder"
"$wingen" build profile.yaml -f linux 2>/dev/null | grep -q '^kind: RuntimeClass' \
	&& no "build generated RuntimeClasses for a Linux-only folder"
gate profile.yaml mixed
grep -q 'name: windows-ltsc2022' mixed/00-runtimeclasses.yaml \
	|| no "mixed: no RuntimeClass written"
cp -r linux linux-default; cp -r mixed mixed-default
rm -f mixed-default/00-runtimeclasses.yaml
gate "" linux-default
gate "" mixed-default

# every real manifest of the corpus, one file a folder, default profile
if [ -d "$corpus" ]; then
	n=0
	for f in "$corpus"/*.yaml "$corpus"/*.yml; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		mkdir "c$n" && cat "$f" >"c$n/${f##*/}"
		# a file build refuses (a conflict, no object) is not gated
		"$wingen" build -f "c$n" >/dev/null 2>&1 || continue
		"$wingen" migrate "c$n" --in-place >/dev/null 2>&1 || continue
		"$wingen" build -f "c$n" --check >/dev/null 2>err
		rc=$?
		[ $rc = 0 ] || no "${f##*/}: build --check after migrate exited $rc: $(head -3 err)"
	done
	[ $n -gt 10 ] || no "only $n corpus files found"
fi

echo "ci_gate: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
