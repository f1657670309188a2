# Shared by the suites that work in a scratch folder (build_jobs.sh,
# migrate_jobs.sh, bench_cputime.sh, bench_fold.sh).  Source it; it runs
# nothing.

# suite_scratch: a new folder $tmp, removed when the suite exits, made
# the working folder; fail=0 until no() says otherwise.
suite_scratch() {
	tmp=$(mktemp -d) || return 1
	trap 'rm -rf "$tmp"' EXIT
	cd "$tmp" || return 1
	fail=0
}

# no WHAT: one failed check, said; the suite exits with $fail.
no() { echo "FAIL $*"; fail=1; }
