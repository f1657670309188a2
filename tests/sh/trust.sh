#!/usr/bin/env bash
# Trust boundaries of a profile (SECURITY.md): resources: and templates:
# stay inside the profile's folder unless --load-restrictor none, with
# symbolic links followed; the -f paths of the command line are free.
#   trust.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0

mkdir -p prof/manifests prof/tpl outside/sub
cat >outside/secret.yaml <<'Y'
apiVersion: v1
kind: ConfigMap
metadata: {name: secret}
data: {k: stolen}
Y
# (another object: the same one twice is an error of its own)
sed 's/{name: secret}/{name: deep}/' outside/secret.yaml >outside/sub/deep.yaml
cat >prof/manifests/ok.yaml <<'Y'
apiVersion: v1
kind: ConfigMap
metadata: {name: ok}
Y
cp "$src/templates/runtimeclass.yaml" outside/runtimeclass.yaml

profile() {	# profile FILE RESOURCES [TEMPLATES]: writes a profile
	{
		echo "apiVersion: wingen.dev/v1alpha1"
		echo "kind: Profile"
		echo "metadata: {name: t}"
		echo "resources: $2"
		[ -n "${3:-}" ] && echo "templates: $3"
		echo "windows:"
		echo "  builds: [{release: ltsc2022}]"
	} >"$1"
}

# expect_refused NAME WANT ARGS...: exit 1, nothing on stdout, stderr
# says WANT, and no secret leaked; with --load-restrictor none it works
# (not checked when NO_NONE is set).
expect_refused() {
	local name=$1 want=$2
	shift 2
	"$wingen" build "$@" >out 2>err
	rc=$?
	if [ $rc -ne 1 ] || [ -s out ] || ! grep -q -- "$want" err \
		|| grep -q stolen out; then
		echo "FAIL $name: exit $rc, stdout $(wc -c <out) bytes, stderr:"
		cat err; fail=1
		return
	fi
	if [ -z "${NO_NONE:-}" ] \
		&& ! "$wingen" build "$@" --load-restrictor none >out 2>err; then
		echo "FAIL $name: --load-restrictor none still refuses:"
		cat err; fail=1
		return
	fi
	echo "ok $name"
}

profile prof/p1.yaml "[../outside/secret.yaml]"
expect_refused "dot-dot file" "outside the profile's folder" prof/p1.yaml
profile prof/p2.yaml "[$tmp/outside/secret.yaml]"
expect_refused "absolute path" "outside the profile's folder" prof/p2.yaml
profile prof/p3.yaml "[manifests/../../outside]"
expect_refused "dot-dot folder" "outside the profile's folder" prof/p3.yaml

ln -s ../../outside/secret.yaml prof/manifests/link.yaml
profile prof/p4.yaml "[manifests/]"
expect_refused "symlinked file in a folder" "symbolic link leads outside" prof/p4.yaml
rm prof/manifests/link.yaml
ln -s ../../outside/sub prof/manifests/dirlink
expect_refused "symlinked folder in a folder" "symbolic link leads outside" prof/p4.yaml
rm prof/manifests/dirlink
ln -s ../outside/secret.yaml prof/direct.yaml
profile prof/p5.yaml "[direct.yaml]"
expect_refused "symlink named in resources" "outside the profile's folder" prof/p5.yaml
rm prof/direct.yaml
ln -s ../.. prof/manifests/up
# (with --load-restrictor none this one is a symbolic link loop)
NO_NONE=1 expect_refused "link above the folder" "symbolic link leads outside" prof/p4.yaml
rm prof/manifests/up

# A link that stays inside is fine, and so is -f outside the folder.
mkdir -p prof/other
sed 's/{name: ok}/{name: ok2}/' prof/manifests/ok.yaml >prof/other/ok2.yaml
ln -s ../other/ok2.yaml prof/manifests/inner.yaml
if "$wingen" build prof/p4.yaml >out 2>err && grep -q "name: ok2" out; then
	echo "ok link inside the folder"
else
	echo "FAIL link inside the folder:"; cat err; fail=1
fi
rm prof/manifests/inner.yaml
if "$wingen" build prof/p4.yaml -f outside/secret.yaml >out 2>err \
	&& grep -q stolen out; then
	echo "ok -f is the user's choice"
else
	echo "FAIL -f outside the folder:"; cat err; fail=1
fi

# templates: the folder, and a link inside it, obey the same rule.
profile prof/t1.yaml "[manifests/]" "../outside"
expect_refused "templates folder outside" "outside the profile's folder" prof/t1.yaml
ln -s ../../outside/runtimeclass.yaml prof/tpl/runtimeclass.yaml
profile prof/t2.yaml "[manifests/]" "tpl"
expect_refused "template linked outside" "outside its folder" prof/t2.yaml
rm prof/tpl/runtimeclass.yaml

exit $fail
