#!/usr/bin/env bash
# The profile's JSON Schema (docs/profile.schema.json, wingen schema):
#  - the committed file is what wingen schema writes now (a key added to
#    the loader's table without regenerating it fails here);
#  - every example profile names it (# yaml-language-server: $schema=);
#  - with ajv (npm ajv-cli, JSON Schema 2020-12) on the profiles read as
#    an editor reads them (npm yaml, YAML 1.2): every example profile and
#    the embedded default are valid; a profile wingen refuses for a reason
#    a schema states (unknown key, wrong type, a value outside a closed
#    set, a missing required key) is invalid; a profile wingen accepts, or
#    refuses only for what a schema cannot know (files, PCRE2 syntax, one
#    key naming another), is valid.  The profiles: tests/data/profile-
#    schema/ (named for what wingen must say of them: valid-, bad-,
#    pattern-, other-) and every tests/golden/profile-bad-*/profile.yaml.
# ajv and yaml come from tests/ci/get-validators.sh (WG_NPM: its
# node_modules); without them the ajv part says SKIP and the test fails
# only on the first two points.
#   profile_schema.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
schema=$root/docs/profile.schema.json
npm=${WG_NPM:-$root/build/npm/node_modules}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# ---- the committed schema is the generated one ---------------------------
"$wingen" schema >"$tmp/schema.json" || no "wingen schema: exit status $?"
if ! cmp -s "$tmp/schema.json" "$schema"; then
	no "docs/profile.schema.json is not what 'wingen schema' writes now;" \
	   "regenerate it: cmake --build build --target generated-docs" \
	   "(or: build/wingen schema --output-file docs/profile.schema.json)"
	diff -u "$schema" "$tmp/schema.json" | head -20
fi
"$wingen" schema -o yaml >/dev/null 2>&1
[ $? = 2 ] || no "wingen schema -o yaml is not a usage error"

# ---- the examples name it -------------------------------------------------
examples=$(grep -rlx 'kind: Profile' "$root/examples" | sort)
[ -n "$examples" ] || no "found no example profile (the grep is wrong)"
for f in $examples; do
	line=$(head -1 "$f")
	want="# yaml-language-server: \$schema=$(realpath --relative-to="$(dirname "$f")" "$schema")"
	[ "$line" = "$want" ] \
		|| no "${f#"$root"/}: first line is not '$want'"
done

# ---- ajv ------------------------------------------------------------------
if [ ! -x "$npm/.bin/ajv" ] || [ ! -d "$npm/yaml" ] \
	|| ! command -v node >/dev/null; then
	echo "SKIP (the ajv part): no ajv-cli and yaml under $npm, or no node" \
	     "(tests/ci/get-validators.sh puts them there)"
	[ "$fail" = 0 ] && echo "profile_schema: the checks without ajv pass"
	exit $fail
fi

# What wingen says of a profile: ok, or refused for a reason a schema
# states (hard), for a name's syntax a pattern may state (pattern), or
# for anything else (other).
hard="unknown key '|expected (a |an |true or false)|is not a boolean"
hard+="|missing required key|: is missing:|missing: overhead needs"
hard+="|unknown (release|arch|effect|network mode|plugin) '"
hard+="|is not supported: use|is not a profile: use"
hard+="|at least one build is required|takes no config"
hard+="|expected a (plugin name|sequence of plugin names|build of the)"
pattern="is not a DNS (label|subdomain)|is not a valid taint (key|value)"
pattern+="|is not a build number"
verdict() {	# verdict FILE: what wingen says of it, on stdout
	local dir=${1%/*} rc
	(cd "$dir" && "$wingen" build "${1##*/}" --print-profile) </dev/null \
		>/dev/null 2>"$tmp/err"
	rc=$?
	grep ': error: ' "$tmp/err" >"$tmp/errors"
	if grep -qE "$hard" "$tmp/errors"; then echo hard
	elif grep -qE "$pattern" "$tmp/errors"; then echo pattern
	elif [ "$rc" != 0 ]; then echo other
	else echo ok
	fi
}

# Mutants of valid-spellings.yaml (every key of the schema): at every
# mapping an unknown key, every scalar a mapping, every sequence and
# mapping a scalar, every boolean "yes"; each a JSON file (JSON is YAML)
# in a folder of its own (templates: . stays its folder).
base=$root/tests/data/profile-schema/valid-spellings.yaml
NODE_PATH=$npm node -e '
	const fs = require("fs"), YAML = require("yaml");
	const [src, dir] = process.argv.slice(1);
	const base = YAML.parse(fs.readFileSync(src, "utf8"), { version: "1.2" });
	let n = 0;
	function emit(what, edit) {
		const copy = structuredClone(base);
		edit(copy);
		fs.mkdirSync(`${dir}/m${++n}`);
		fs.writeFileSync(`${dir}/m${n}/profile.json`, JSON.stringify(copy));
		fs.writeFileSync(`${dir}/m${n}/what`, what);
	}
	function at(root, path) { return path.reduce((o, k) => o[k], root); }
	function walk(v, path) {
		const where = path.join(".") || "(top)";
		const set = (x) => [`${where} = ${JSON.stringify(x)}`,
			(o) => { at(o, path.slice(0, -1))[path.at(-1)] = x; }];
		const open = path.some((k) => ["labels", "annotations",
			"podFixed", "retarget"].includes(k));
		if (Array.isArray(v)) {
			if (path.length) emit(...set("x"));
			v.forEach((x, i) => walk(x, [...path, i]));
		} else if (v !== null && typeof v === "object") {
			if (!open)
				emit(`${where}.zzUnknown = 1`,
				     (o) => { at(o, path).zzUnknown = 1; });
			if (path.length) emit(...set("x"));
			for (const k of Object.keys(v)) walk(v[k], [...path, k]);
		} else if (path.length) {
			emit(...set({ a: 1 }));
			if (typeof v === "boolean") emit(...set("yes"));
		}
	}
	walk(base, []);' "$base" "$tmp" || no "could not make the mutants"
mutants=$(ls "$tmp"/m*/profile.json 2>/dev/null)
[ "$(wc -w <<<"$mutants")" -gt 50 ] || no "fewer than 50 mutants: $(wc -w <<<"$mutants")"

cases=$(ls "$root"/tests/data/profile-schema/*.yaml \
	"$root"/tests/golden/profile-bad-*/profile.yaml 2>/dev/null)
all="$examples $root/templates/profile-default.yaml $cases $mutants"
# YAML 1.2 to JSON, as yaml-language-server reads it, one file each.
i=0
: >"$tmp/list"
for f in $all; do
	i=$((i + 1))
	printf '%s\t%s\n' "$f" "$tmp/p$i.json" >>"$tmp/list"
done
NODE_PATH=$npm node -e '
	const fs = require("fs"), YAML = require("yaml");
	for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n")) {
		if (!line) continue;
		const [src, out] = line.split("\t");
		fs.writeFileSync(out, JSON.stringify(YAML.parse(
			fs.readFileSync(src, "utf8"), { version: "1.2" })));
	}' "$tmp/list" || no "yaml could not read the profiles"
# One ajv run over all of them: "FILE valid" or "FILE invalid" each.
(cd "$tmp" && "$npm/.bin/ajv" validate --spec=draft2020 --strict=true \
	--allow-union-types -s "$schema" -d "p*.json" >"$tmp/ajv" 2>&1)
grep -q ' valid$' "$tmp/ajv" || { no "ajv validated nothing:"; head "$tmp/ajv"; }
ajv_says() {	# ajv_says JSON: valid or invalid
	awk -v f="${1##*/}" '$1 == f && NF == 2 { print $2 }' "$tmp/ajv"
}

counts=""
while IFS=$'\t' read -r -u 3 f json; do
	name=${f#"$root"/}
	case $f in "$tmp"/m*) name="mutant of valid-spellings.yaml: $(cat "${f%/*}/what")" ;; esac
	said=$(ajv_says "$json")
	[ -n "$said" ] || { no "$name: ajv said nothing of it"; continue; }
	case $f in
	"$root"/examples/*|*/profile-default.yaml) want=ok ;;
	*/profile-schema/valid-*) want=ok ;;
	*/profile-schema/bad-*) want=hard ;;
	*/profile-schema/pattern-*) want=pattern ;;
	*/profile-schema/other-*) want=other ;;
	*) want= ;;
	esac
	got=$(verdict "$f")
	[ -z "$want" ] || [ "$got" = "$want" ] \
		|| no "$name: wingen's verdict is '$got', the case is named" \
		      "'$want': $(head -2 "$tmp/errors")"
	case $got in
	hard) [ "$said" = invalid ] \
		|| no "$name: wingen refuses it for a reason a schema states," \
		      "ajv says valid: $(head -1 "$tmp/errors")" ;;
	ok | other) [ "$said" = valid ] \
		|| { no "$name: wingen says '$got', ajv says invalid:"
		     grep -A8 "^${json##*/} invalid" "$tmp/ajv" | head -12; } ;;
	esac
	counts+="$got "
done 3<"$tmp/list"
for c in ok hard pattern other; do
	n=$(tr ' ' '\n' <<<"$counts" | grep -cx "$c")
	[ "$n" -gt 0 ] || no "no profile of the verdict '$c' (the cases are gone?)"
	echo "profiles wingen says '$c' of: $n"
done

[ "$fail" = 0 ] && echo "profile_schema: all checks pass"
exit $fail
