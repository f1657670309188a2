#!/usr/bin/env bash
# migrate never exits 0 with a wrong result because of what it left out:
#  - a PROFILE that fails to load (kind: profile) is an error: nothing is
#    written, no 00-runtimeclasses.yaml appears next to it, the embedded
#    default never replaces it;
#  - valid YAML with "{{" in a plain scalar (a PrometheusRule description)
#    is migrated, the Windows Deployment beside it too, under --strict;
#  - a template that does not read as YAML is skipped: a warning when it
#    names a workload kind, an error naming the file under --strict (not
#    "select matches no workload");
#  - a run where every file was skipped (no object read) fails and
#    writes nothing, a workload among them or not; so does a folder with
#    no YAML file at all;
#  - 00-runtimeclasses.yaml goes into the first PATH that is a folder.
#   migrate_skips.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '%s\n' "$@"; fail=1; }
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha1sum); }

cd "$tmp" || exit 1
mkdir repo
cat >repo/rules.yaml <<'EOF'
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: pods
spec:
  groups:
  - name: pods
    rules:
    - alert: PodDown
      annotations:
        description: Pod {{ $labels.pod }} is down
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: win
spec:
  template:
    spec:
      containers:
      - name: win
        image: mcr.microsoft.com/windows/nanoserver:ltsc2022
EOF
cat >profile.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: profile
metadata:
  name: fleet
windows:
  builds:
  - release: ltsc2025
  default: ltsc2025
EOF

# --- a PROFILE that fails to load ----------------------------------------
before=$(snapshot repo)
"$wingen" migrate profile.yaml repo --in-place >out 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q "profile.yaml:2:7: error: kind" err \
	&& [ "$(snapshot repo)" = "$before" ] && [ ! -s out ] \
	&& [ ! -e 00-runtimeclasses.yaml ] && [ ! -e repo/00-runtimeclasses.yaml ]; then
	ok "a PROFILE that fails to load is an error, nothing written"
else bad "kind: profile: exit $rc" "$(cat err)" "$(ls -R)"; fi
grep -q "ltsc2022" repo/rules.yaml && grep -q "windows-ltsc2022" repo/rules.yaml \
	&& bad "kind: profile: the default profile was used"

# --- {{ in a plain scalar of valid YAML ---------------------------------
sed -i 's/^kind: profile/kind: Profile/; s/ltsc2025/ltsc2022/' profile.yaml
for strict in "" --strict; do
	rm -rf work && cp -r repo work
	# shellcheck disable=SC2086
	"$wingen" migrate profile.yaml work --in-place $strict >out 2>err
	rc=$?
	if [ $rc -eq 0 ] && grep -q "runtimeClassName: windows-ltsc2022" work/rules.yaml \
		&& grep -q 'description: Pod {{ $labels.pod }} is down' work/rules.yaml \
		&& ! grep -q skipped err && [ -f work/00-runtimeclasses.yaml ]; then
		ok "'{{' in a plain scalar is migrated ${strict:-(default)}"
	else bad "'{{' in a plain scalar ${strict}: exit $rc" "$(cat err)"; fi
done

# --- a real template beside it ------------------------------------------
cat >repo/tpl.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.name }}
EOF
rm -rf work && cp -r repo work
"$wingen" migrate profile.yaml work --in-place >out 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "work/tpl.yaml:2:.*warning: skipped: a Helm template.*Deployment" err \
	&& grep -q "runtimeClassName" work/rules.yaml; then
	ok "a skipped template holding a workload is a warning"
else bad "template warning: exit $rc" "$(cat err)"; fi
rm -rf work && cp -r repo work
before=$(snapshot work)
"$wingen" migrate profile.yaml work --in-place --strict >out 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q "work/tpl.yaml:2:.*error: skipped: a Helm template" err \
	&& ! grep -q "matches no workload" err && [ "$(snapshot work)" = "$before" ]; then
	ok "--strict: a skipped file is an error naming it"
else bad "--strict skip: exit $rc" "$(cat err)"; fi

# --- every file skipped ---------------------------------------------------
mkdir only && cp repo/tpl.yaml only/
before=$(snapshot only)
"$wingen" migrate profile.yaml only --in-place >out 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q "error: nothing migrated" err && ! grep -q "changed\|wrote" err \
	&& [ ! -e only/00-runtimeclasses.yaml ] && [ "$(snapshot only)" = "$before" ]; then
	ok "every file skipped, a workload among them: exit 1, no 00-runtimeclasses.yaml"
else bad "every file skipped: exit $rc" "$(cat err)" "$(ls only)"; fi
mkdir patches && printf 'spec:\n  replicas: 2\n' >patches/p.yaml
"$wingen" migrate profile.yaml patches --in-place >out 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q "error: nothing migrated" err && ! grep -q "changed\|wrote" err \
	&& [ ! -e patches/00-runtimeclasses.yaml ]; then
	ok "every file skipped, no workload: an error (no object read), no 00-runtimeclasses.yaml"
else bad "every file skipped, no workload: exit $rc" "$(cat err)" "$(ls patches)"; fi

mkdir none && echo '# notes' >none/README.md
"$wingen" migrate profile.yaml none --in-place >out 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q "error: nothing migrated: no \*.yaml or \*.yml file" err; then
	ok "a folder with no YAML file: an error"
else bad "a folder with no YAML file: exit $rc" "$(cat err)"; fi

# --- the RuntimeClass file stays inside the paths given -------------------
mkdir -p two/a two/b && cp repo/rules.yaml two/a/x.yaml && rm repo/tpl.yaml
"$wingen" migrate profile.yaml two/a/x.yaml two/b --in-place >out 2>err
rc=$?
if [ $rc -eq 0 ] && [ -f two/b/00-runtimeclasses.yaml ] && [ ! -e two/a/00-runtimeclasses.yaml ]
then ok "runtimeclasses.yaml in the first folder PATH"
else bad "rc file placement: exit $rc" "$(cat err)" "$(find two)"; fi
exit $fail
