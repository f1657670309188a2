#!/usr/bin/env bash
# kubectl's habits, taken as a kubectl user types them:
#  - -o=json and --output=json (the value attached with "=");
#  - -f a.yaml,b.yaml (kubectl splits -f at commas), on build, check, fmt;
#  - -R/--recursive is accepted (folders are read recursively anyway);
#  - -k DIR is a usage error that says how: kubectl kustomize DIR | wingen
#    build PROFILE -f - (and for migrate: give the folder);
#  - build --check and --diff answer as kubectl diff: 0 nothing would
#    change, 1 something would, 2 or more the run could not answer (it
#    was 1 for both "would change" and "broken input"); migrate --diff
#    and migrate --check alike (migrate --diff exited 0 with a diff and 1
#    on broken input; there was no migrate --check).
#   kubectl_habits.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

cat >win.yaml <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}]
EOF2
cat >cm.yaml <<'EOF2'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
EOF2
mkdir -p tree/deep && cp win.yaml tree/deep/ && cp cm.yaml tree/

# --- -o=json, --output=json -----------------------------------------------
"$wingen" build -f win.yaml -o json >want 2>/dev/null || no "build -o json failed"
for o in -o=json --output=json -ojson; do
	"$wingen" build -f win.yaml "$o" >got 2>err || no "build $o: exit $?: $(cat err)"
	cmp -s want got || no "build $o differs from -o json"
done
"$wingen" fmt -f cm.yaml -o=yaml >got 2>err && grep -q '^kind: ConfigMap' got \
	|| no "fmt -o=yaml: $(cat got err)"
"$wingen" check -f win.yaml -o=json >got 2>err && head -c1 got | grep -q '{' \
	|| no "check -o=json: $(cat err)"
# a value that is no format is still refused, "=" or not
"$wingen" build -f win.yaml -o=out.yaml >got 2>err
[ $? = 2 ] && [ ! -s got ] && grep -q "use --output-file out.yaml" err \
	|| no "-o=out.yaml: $(cat err)"

# --- -f a,b ---------------------------------------------------------------
for cmd in "build" "check" "fmt"; do
	# shellcheck disable=SC2086
	"$wingen" $cmd -f win.yaml -f cm.yaml >want 2>/dev/null
	# shellcheck disable=SC2086
	"$wingen" $cmd -f win.yaml,cm.yaml >got 2>err || no "$cmd -f a,b: exit $?: $(cat err)"
	cmp -s want got || no "$cmd -f win.yaml,cm.yaml differs from two -f"
done
"$wingen" build -f win.yaml,,cm.yaml >got 2>err
[ $? = 2 ] && [ ! -s got ] && grep -q "names an empty path" err || no "-f a,,b: $(cat err)"

# --- -R --------------------------------------------------------------------
"$wingen" build -f tree >want 2>/dev/null
for cmd in "build -R -f tree" "build --recursive -f tree" "build -Rf tree"; do
	# shellcheck disable=SC2086
	"$wingen" $cmd >got 2>err || no "$cmd: exit $?: $(cat err)"
	cmp -s want got || no "$cmd differs from -f tree"
done
grep -q 'name: web' got || no "-R: the file in a subfolder was not read"
"$wingen" check -R -f tree >/dev/null 2>&1 || no "check -R"
"$wingen" fmt -R -f tree >/dev/null 2>&1 || no "fmt -R"
cp -r tree tree2
"$wingen" migrate -R tree2 --diff >/dev/null 2>err; [ $? = 1 ] || no "migrate -R: $(cat err)"

# --- -k DIR ----------------------------------------------------------------
printf 'resources:\n- win.yaml\n' >kustomization.yaml
for cmd in build check fmt; do
	"$wingen" $cmd -k . >got 2>err
	rc=$?
	[ $rc = 2 ] || no "$cmd -k .: exit $rc (want 2)"
	[ -s got ] && no "$cmd -k wrote to stdout"
	want="kubectl kustomize . | wingen $cmd PROFILE -f -"
	[ $cmd = fmt ] && want="kubectl kustomize . | wingen fmt -f -"
	grep -qF "$want" err || no "$cmd -k: does not say '$want': $(cat err)"
done
"$wingen" build --kustomize=. >/dev/null 2>&1
[ $? = 2 ] || no "build --kustomize=.: not a usage error"
"$wingen" migrate -k . --diff >/dev/null 2>err
[ $? = 2 ] && grep -qF "wingen migrate PROFILE . --in-place" err || no "migrate -k: $(cat err)"
rm kustomization.yaml

# --- --check and --diff: kubectl diff's exit statuses ----------------------
"$wingen" build -f win.yaml >built.yaml 2>/dev/null
printf 'kind: [\n' >broken.yaml
# check_rc WANT ARGS...: the exit status, and nothing on stdout but a diff
check_rc() {
	want=$1; shift
	"$wingen" build "$@" >got 2>err
	rc=$?
	[ $rc = "$want" ] || no "build $*: exit $rc (want $want): $(cat err)"
}
check_rc 0 -f built.yaml --check
check_rc 1 -f win.yaml --check
grep -q "would change" err || no "--check does not list what would change"
check_rc 2 -f broken.yaml --check
[ -s got ] && no "--check on broken input wrote to stdout"
check_rc 0 -f built.yaml --diff
[ -s got ] && no "--diff with nothing to change printed a diff"
check_rc 1 -f win.yaml --diff
grep -q '^+++ b/win.yaml (Deployment/web)' got || no "--diff printed no diff"
check_rc 2 -f broken.yaml --diff
[ -s got ] && no "--diff on broken input wrote to stdout"
check_rc 2 -f missing.yaml --check
check_rc 2 -f win.yaml --check --no-such-option
check_rc 1 -f win.yaml --diff --check
# without --check/--diff a failure is still 1
check_rc 1 -f broken.yaml

# migrate_rc WANT ARGS...: the same for migrate, over a folder
migrate_rc() {
	want=$1; shift
	"$wingen" migrate "$@" >got 2>err
	rc=$?
	[ $rc = "$want" ] || no "migrate $*: exit $rc (want $want): $(cat err)"
}
mkdir m && cp win.yaml m/
cp -r m m.before
migrate_rc 1 m --check
[ -s got ] && no "migrate --check printed on stdout: $(head -3 got)"
grep -qx '  m/win.yaml' err || no "migrate --check does not list the file: $(cat err)"
diff -r m m.before >/dev/null || no "migrate --check changed a file"
migrate_rc 1 m --diff
grep -q '^+++ b/m/win.yaml' got || no "migrate --diff printed no diff"
migrate_rc 0 m --in-place
migrate_rc 0 m --check
migrate_rc 0 m --diff
[ -s got ] && no "migrate --diff with nothing to change printed a diff"
cp broken.yaml m/
migrate_rc 2 m --check
migrate_rc 2 m --diff
[ -s got ] && no "migrate --diff on broken input wrote to stdout"
migrate_rc 1 m --in-place
migrate_rc 2 m --check --diff
migrate_rc 2 no-such-folder --check

echo "kubectl_habits: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
