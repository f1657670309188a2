#!/usr/bin/env bash
# -o/--output is a format on every command, as in kubectl, and a file is
# --output-file: each command's formats, the usage error (exit 2, naming
# --output-file, nothing written) for a file given to -o, --output-file
# written atomically with nothing on stdout, and the wrappers in examples/
# that pass options through to wingen.
#   output_opt.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1") yamlcmp=$(realpath "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL $*"; fail=1; }

cat >in.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}
YAML

cp "$root/tests/data/nodes/ws2022-containerd.json" nodes.json

# Each command with each of its formats: stdout in that format.
# format_ok FORMAT FILE: FILE holds that format.
format_ok() {
	case $1 in
	# (wingen reads a JSON stream, one object a line, as kubectl writes it)
	json) head -c1 "$2" | grep -q '[[{]' && "$wingen" fmt -f "$2" >/dev/null 2>&1 ;;
	yaml) grep -q '^kind: ' "$2" ;;
	text) grep -q '^wingen check: ' "$2" ;;
	table) grep -q '^RELEASE ' "$2" ;;
	esac
}
while read -r fmts cmd; do
	for f in ${fmts//,/ }; do
		for opt in -o --output --output-format; do
			# shellcheck disable=SC2086
			"$wingen" $cmd "$opt" "$f" >out 2>err </dev/null \
				|| no "$cmd $opt $f: exit $?: $(cat err)"
			format_ok "$f" out || no "$cmd $opt $f: not $f: $(head -3 out)"
		done
		# -oFORMAT and --output=FORMAT, as getopt allows.
		# shellcheck disable=SC2086
		"$wingen" $cmd "-o$f" >out2 2>/dev/null </dev/null && cmp -s out out2 \
			|| no "$cmd -o$f differs from -o $f"
		# --output-file FILE: the same bytes in FILE, nothing on stdout.
		rm -f file.out
		# shellcheck disable=SC2086
		"$wingen" $cmd -o "$f" --output-file file.out >out2 2>err </dev/null \
			|| no "$cmd --output-file: exit $?: $(cat err)"
		[ -s out2 ] && no "$cmd --output-file also wrote stdout"
		cmp -s out file.out || no "$cmd -o $f --output-file: not the stdout bytes"
	done
	# -o with a file name: a usage error naming --output-file; no file.
	# shellcheck disable=SC2086
	"$wingen" $cmd -o result.yaml >out 2>err </dev/null
	rc=$?
	[ "$rc" = 2 ] || no "$cmd -o result.yaml: exit $rc, expected 2"
	[ -s out ] && no "$cmd -o result.yaml wrote stdout"
	[ -e result.yaml ] && no "$cmd -o result.yaml created the file"
	grep -q -- "to write a file, use --output-file result.yaml" err \
		|| no "$cmd -o result.yaml: message does not name --output-file: $(cat err)"
done <<'CMDS'
yaml,json build -f in.yaml
yaml,json fmt -f in.yaml
text,json check -f in.yaml
table,json builds
yaml,json runtimeclasses
yaml init -f nodes.json
CMDS

# build's JSON is the same objects as its YAML.
"$wingen" build -f in.yaml >a.yaml && "$wingen" build -f in.yaml -o json >a.json \
	&& "$wingen" fmt -f a.json >b.yaml && "$yamlcmp" a.yaml b.yaml >/dev/null 2>&1 || no "build -o json is not build's YAML as JSON"
# The commands without an output format say so instead of taking -o.
for cmd in "migrate in.yaml --diff" fn version; do
	# shellcheck disable=SC2086
	"$wingen" $cmd -o yaml >out 2>err </dev/null
	rc=$?
	[ "$rc" = 2 ] && [ ! -s out ] || no "$cmd -o yaml: exit $rc, not a usage error"
done
# init's only format is yaml: json is a usage error, not a file.
"$wingen" init -f nodes.json -o json >out 2>err
[ $? = 2 ] && [ ! -e json ] && grep -q -- --output-file err \
	|| no "init -o json: $(cat err)"

# --output-file with a failing run: the file is left alone.
echo keep >kept.yaml
printf 'a: [\n' >bad.yaml
"$wingen" build -f bad.yaml --output-file kept.yaml 2>/dev/null
[ $? = 1 ] && [ "$(cat kept.yaml)" = keep ] || no "failed build touched --output-file"
# check --output-file: the report goes to the file even when check fails.
"$wingen" check -f bad.yaml --output-file report.txt >out 2>/dev/null
[ $? = 1 ] && [ ! -s out ] && grep -q '1 error' report.txt \
	|| no "check --output-file on failure: $(cat report.txt 2>&1)"

# The wrappers pass -o through: Helm's post-renderer, kustomize's plugin.
post=$root/examples/helm/wingen/wingen-post-render
WINGEN=$wingen sh "$post" -o json <in.yaml >out 2>err || no "post-render -o json: $(cat err)"
format_ok json out || no "post-render -o json: not JSON"
WINGEN=$wingen sh "$post" -o out.yaml <in.yaml >out 2>err
[ $? = 2 ] && grep -q -- --output-file err && [ ! -s out ] \
	|| no "post-render -o out.yaml: not a usage error: $(cat err)"
# Argo CD's generate command writes through --output-file (all or nothing).
grep -q -- '--output-file "$tmp/out.yaml"' "$root/examples/argocd/wingen-argocd-generate" \
	|| no "argocd wrapper does not use --output-file"
mkdir app && cp in.yaml app/ && (cd app && WINGEN=$wingen ARGOCD_APP_NAME=a \
	bash "$root/examples/argocd/wingen-argocd-generate" >../argo.out 2>../err) \
	|| no "argocd wrapper: $(cat err)"
grep -q '^kind: Deployment' argo.out || no "argocd wrapper: no Deployment"
# Nothing in examples/ or the docs gives -o a file.
if grep -rnE -- "wingen[^|]* -o +[^ |]*\.(ya?ml|json)\b" "$root/examples" \
	"$root/README.md" "$root/docs" "$root/SECURITY.md" >bad 2>/dev/null; then
	no "docs give -o a file: $(cat bad)"
fi

[ "$fail" = 0 ] && echo "output_opt: all checks pass"
exit $fail
