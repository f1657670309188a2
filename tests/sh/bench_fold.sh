#!/usr/bin/env bash
# bench/fold-broad.sh puts the monorepo pass's verdicts into RESULTS.md
# (bench/README.md, "Running it"): the broad file's notes and its Ratios,
# Growth, Diagnostics and Targets sections, as RESULTS.md's last section,
# the rest of RESULTS.md kept byte for byte; a second fold replaces the
# section, never adds one; bad input changes nothing and exits 1.  Once on
# small files made here, once on the repository's own two results files
# (read, not written), so a change in run.sh's layout that the fold no
# longer reads shows here.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
fold=$src/bench/fold-broad.sh
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

cat >gen.md <<'EOF'
# wingen benchmark results

**Note:** gen pass

## Ratios

| objects | build / floor |
|---:|---:|
| 50k | 0.63 |

## Targets of issues 8 and 20

- build ≤ 1.3 × floor at 50k: 0.63 × — met

## Machine

- wingen: wingen 0.1.0 (aaaaaaa)
EOF
broad() {	# broad.md with $1 as build -j1's growth
	cat >broad.md <<EOF
# wingen benchmark results

**Note:** broad pass

## Wall time, throughput and memory

| objects | tool | median s |
|---:|---|---:|
| 50k | build | 9.99 |

## Ratios

| objects | build / floor |
|---:|---:|
| 50k | 0.69 |

## Growth from 10k to 50k objects

| tool | least CPU 50k / 10k |
|---|---:|
| build -j1 | $1 |

## Diagnostics (stderr of the last run)

| objects | tool | / input |
|---:|---|---:|
| 50k | build | 0.96% |

## Targets of issues 8 and 20

- migrate over a folder at 50k: 1.59 × — NOT met

## Commands

    bench/gen --broad N

## Machine

- date: 2026-12-05 17:57 UTC; took 2401 s
- wingen: wingen 0.1.0 (bbbbbbb)
EOF
}
broad 4.77
cp gen.md before.md
"$fold" gen.md broad.md 2>err || no "the fold failed: $(cat err)"
[ "$(grep -c '^## The monorepo stream (bench/gen --broad)$' gen.md)" = 1 ] \
	|| no "no single monorepo section"
# RESULTS.md's own text comes first, unchanged
n=$(wc -l <before.md)
head -n "$n" gen.md | cmp -s - before.md || no "RESULTS.md's own lines changed"
section=$(sed -n '/^## The monorepo stream/,$p' gen.md)
for want in '**Note:** broad pass' '- wingen: wingen 0.1.0 (bbbbbbb)' \
	'- date: 2026-12-05 17:57 UTC; took 2401 s' '### Ratios' \
	'| 50k | 0.69 |' '### Growth from 10k to 50k objects' \
	'| build -j1 | 4.77 |' '### Diagnostics (stderr of the last run)' \
	'### Targets of issues 8 and 20' \
	'- migrate over a folder at 50k: 1.59 × — NOT met'; do
	grep -qxF -- "$want" <<<"$section" || no "the section lacks: $want"
done
for unwanted in '9.99' 'bench/gen --broad N' '^## Ratios' '^## Machine'; do
	grep -q -- "$unwanted" <<<"$section" && no "the section holds: $unwanted"
done
grep -q '^$' <(tail -n1 gen.md) && no "a blank line at the end"
grep -qzP '\n\n\n' gen.md && no "two blank lines in a row"

# Folding again gives the same file; a new broad pass replaces the old.
cp gen.md once.md
"$fold" gen.md broad.md || no "the second fold failed"
cmp -s gen.md once.md || no "a second fold changed the file"
broad 5.12
"$fold" gen.md broad.md || no "the fold of a new pass failed"
grep -qxF '| build -j1 | 5.12 |' gen.md || no "the new pass is not in"
grep -qF '| build -j1 | 4.77 |' gen.md && no "the old pass is still in"
[ "$(grep -c '^## The monorepo stream' gen.md)" = 1 ] || no "a second section"

# Bad input: exit 1, one line naming the file, RESULTS.md untouched.
cp gen.md kept.md
printf '# wingen benchmark results\n\nno targets\n' >bad.md
"$fold" gen.md bad.md 2>err; rc=$?
[ $rc = 1 ] || no "a file with no targets exited $rc"
grep -q 'bad.md: not a bench/run.sh result' err || no "unclear: $(cat err)"
[ "$(wc -l <err)" = 1 ] || no "more than one line: $(cat err)"
"$fold" gen.md missing.md 2>err; rc=$?
[ $rc = 1 ] && grep -q 'missing.md: no such file' err \
	|| no "a missing broad file: exit $rc, $(cat err)"
# Another file given as RESULTS.md (a mistake): refused, untouched.
printf 'file\trepo\n' >other.tsv
cp other.tsv other.kept
"$fold" other.tsv broad.md 2>err; rc=$?
[ $rc = 1 ] && grep -q 'other.tsv: not a bench/run.sh result' err \
	|| no "another file as RESULTS.md: exit $rc, $(cat err)"
cmp -s other.tsv other.kept || no "another file given as RESULTS.md was changed"
cmp -s gen.md kept.md || no "RESULTS.md changed on bad input"
ls gen.md.* >/dev/null 2>&1 && no "a temporary left behind"

# The repository's own results: the fold reads run.sh's real layout.
cp "$src/bench/RESULTS.md" real.md
"$fold" real.md "$src/bench/RESULTS-broad.md" 2>err \
	|| no "the fold of the repository's results failed: $(cat err)"
for want in '### Ratios' '### Growth from 10k to 50k objects' \
	'### Diagnostics (stderr of the last run)'; do
	sed -n '/^## The monorepo stream/,$p' real.md | grep -qxF "$want" \
		|| no "the repository's broad pass lacks: $want"
done
sed -n '/^## The monorepo stream/,$p' real.md | grep -q '^### Targets of' \
	|| no "the repository's broad pass has no targets"
exit $fail
