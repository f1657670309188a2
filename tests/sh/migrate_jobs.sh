#!/usr/bin/env bash
# migrate --jobs: the files are read on threads and then taken in order,
# so every thread count gives what -j1 gives: the same files written (or
# none), the same diff on stdout, the same messages and exit status.  On
# a folder of 300 files (Windows and Linux workloads, Services, a List, a
# Helm template and a JSON stream that are skipped), and with a broken
# file among them, the document limit passed part way through, --strict
# (a skipped file is then an error), and the corpus's folder.  A bad
# count is a usage error.
#   migrate_jobs.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 corpus=${3:-}
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

mkdir src
awk 'BEGIN {
	for (i = 0; i < 300; i++) {
		f = sprintf("src/%04d.yaml", i)
		if (i % 3 == 0)
			image = "mcr.microsoft.com/windows/servercore:ltsc2022"
		else
			image = "nginx:1.27"
		printf "# app %d\napiVersion: apps/v1\nkind: Deployment\n", i > f
		printf "metadata:\n  name: app-%d\n  labels: {tier: t%d}\n", i, i % 5 > f
		printf "spec:\n  selector:\n    matchLabels: {app: app-%d}\n", i > f
		printf "  template:\n    metadata:\n      labels: {app: app-%d, tier: t%d}\n", i, i % 5 > f
		printf "    spec:\n      containers:\n      - name: c\n" > f
		printf "        image: %s\n", image > f
		if (i % 10 == 0) {
			printf "---\napiVersion: v1\nkind: Service\n" > f
			printf "metadata:\n  name: svc-%d\nspec:\n", i > f
			printf "  selector: {tier: t%d}\n", i % 5 > f
			printf "  ports:\n  - port: 80\n" > f
		}
		close(f)
	}
}'
cat >src/0031-list.yaml <<'EOF'
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: agent
  spec:
    template:
      spec:
        containers:
        - name: a
          image: mcr.microsoft.com/windows/nanoserver:ltsc2022
EOF
cat >src/0032-template.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.name }}
{{- if .Values.extra }}
  labels: {{ toYaml .Values.extra | nindent 4 }}
{{- end }}
EOF
printf '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}}\n' \
	>src/0033-stream.json.yaml
printf '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "k"}}\n' \
	>>src/0033-stream.json.yaml

# The same run with -j1 and with more threads, each in a folder of its
# own under the same relative name (m), so paths in messages match.
same() {
	local what=$1 r1 rj j
	shift
	rm -rf one && mkdir one && cp -r src one/m
	(cd one && "$wingen" migrate m "$@" -j1 >../out1 2>../err1)
	r1=$?
	for j in 2 4 16; do
		rm -rf many && mkdir many && cp -r src many/m
		(cd many && "$wingen" migrate m "$@" --jobs "$j" >../outj 2>../errj)
		rj=$?
		[ "$r1" = "$rj" ] || no "$what: exit $r1 with -j1, $rj with -j$j"
		cmp -s out1 outj || no "$what: stdout differs with -j$j"
		cmp -s err1 errj || no "$what: messages differ with -j$j: $(diff err1 errj | head -5)"
		diff -r one/m many/m >/dev/null || no "$what: files differ with -j$j"
	done
	return "$r1"
}

same "a folder, --in-place" --in-place || no "a folder: exit $?: $(head -3 err1)"
grep -q 'kubernetes.io/os: windows' one/m/0000.yaml || no "a folder: 0000.yaml not pinned to Windows"
grep -q 'kubernetes.io/os: linux' one/m/0001.yaml || no "a folder: 0001.yaml not pinned to Linux"
grep -q '^# app 7$' one/m/0007.yaml || no "a folder: a comment was lost"
grep -q 'skipped m/0032-template.yaml' err1 || no "a folder: the template was not skipped: $(cat err1)"
grep -q 'skipped m/0033-stream.json.yaml' err1 || no "a folder: the JSON stream was not skipped"
[ $fail -eq 0 ] && echo "ok 300 files: the same files and messages on 1, 2, 4 and 16 threads"

same "a folder, --diff" --diff; r=$?
[ $r = 1 ] || no "--diff: exit $r (a change: 1)"
grep -q '^+++ b/m/0000.yaml$' out1 || no "--diff: no diff of 0000.yaml"
[ $fail -eq 0 ] && echo "ok --diff: the same diff"

# a file that does not parse, among the others: one error, no file
# written, whatever thread read it
printf 'apiVersion: v1\nkind: ConfigMap\ndata: [a,\n' >src/0150-broken.yaml
same "a broken file" --in-place && no "a broken file: exit 0"
grep -q '^m/0150-broken.yaml:[0-9]*:[0-9]*: error: ' err1 || no "a broken file: not reported: $(cat err1)"
diff -r src one/m >/dev/null || no "a broken file: files were written"
rm src/0150-broken.yaml
[ $fail -eq 0 ] && echo "ok a broken file: the same error, nothing written"

# the document limit, passed in the middle of the files
export WINGEN_LIMITS=documents=200
same "the document limit" --in-place && no "the document limit: exit 0"
grep -q 'error: .*documents than the limit' err1 || no "the document limit: not reported: $(cat err1)"
unset WINGEN_LIMITS
[ $fail -eq 0 ] && echo "ok the document limit: the same error where -j1 stops"

same "--strict" --in-place --strict && no "--strict: exit 0 with a skipped file"
[ $fail -eq 0 ] && echo "ok --strict: the same"

# the corpus's folder: its files and its refusal (two files define one
# object) are the same on every thread count
if [ -d "$corpus" ]; then
	rm -rf src && mkdir src && cp "$corpus"/*.yaml src/ 2>/dev/null
	same "the corpus" --diff
	[ $fail -eq 0 ] && echo "ok the corpus: the same"
fi

"$wingen" migrate one/m --in-place -j 0 >/dev/null 2>err; r=$?
[ $r = 2 ] || no "-j 0: exit $r, not a usage error"
grep -q 'jobs' err || no "-j 0: the message does not name the option: $(cat err)"

exit $fail
