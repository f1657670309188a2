/* Unified diff: exact hunk format, and on random texts a shortest edit
 * script that patches the old text into the new one. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/udiff.h"

static char *hunks(const char *a, const char *b, unsigned context,
		   size_t *n)
{
	struct wg_buf out = WG_BUF_INIT;

	*n = wg_udiff_hunks(&out, a, a ? strlen(a) : 0, b, b ? strlen(b) : 0,
			    context);
	return wg_buf_detach(&out, NULL);
}

START_TEST(equal_texts_give_nothing)
{
	size_t n;
	char *d = hunks("a\nb\n", "a\nb\n", 3, &n);

	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(d, "");
	free(d);
	d = hunks(NULL, "", 3, &n);
	ck_assert_uint_eq(n, 0);
	free(d);
}
END_TEST

START_TEST(one_change_with_context)
{
	size_t n;
	char *d = hunks("1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			"1\n2\n3\n4\nfive\n6\n7\n8\n9\n", 3, &n);

	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(d, "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n"
			 " 7\n 8\n");
	free(d);
}
END_TEST

START_TEST(close_changes_share_a_hunk_far_ones_do_not)
{
	size_t n;
	/* Changes at lines 2 and 8: 5 lines apart, <= 2*3, one hunk. */
	char *d = hunks("1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			"1\nB\n3\n4\n5\n6\n7\nH\n9\n", 3, &n);

	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(d, "@@ -1,9 +1,9 @@\n 1\n-2\n+B\n 3\n 4\n 5\n 6\n"
			 " 7\n-8\n+H\n 9\n");
	free(d);
	/* With one line of context they are two hunks. */
	d = hunks("1\n2\n3\n4\n5\n6\n7\n8\n9\n",
		  "1\nB\n3\n4\n5\n6\n7\nH\n9\n", 1, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(d, "@@ -1,3 +1,3 @@\n 1\n-2\n+B\n 3\n"
			 "@@ -7,3 +7,3 @@\n 7\n-8\n+H\n 9\n");
	free(d);
}
END_TEST

START_TEST(ranges_of_one_and_zero_lines)
{
	size_t n;
	char *d = hunks("", "x\n", 3, &n);

	ck_assert_str_eq(d, "@@ -0,0 +1 @@\n+x\n");
	free(d);
	d = hunks("a\nb\n", "a\n", 0, &n);
	ck_assert_str_eq(d, "@@ -2 +1,0 @@\n-b\n");
	free(d);
	d = hunks("a\n", "a\nb\nc\n", 0, &n);
	ck_assert_str_eq(d, "@@ -1,0 +2,2 @@\n+b\n+c\n");
	free(d);
}
END_TEST

START_TEST(missing_final_newline_is_marked)
{
	size_t n;
	char *d = hunks("a\nb", "a\nb\n", 3, &n);

	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(d, "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of "
			 "file\n+b\n");
	free(d);
	d = hunks("x\nb", "y\nb", 3, &n);
	ck_assert_str_eq(d, "@@ -1,2 +1,2 @@\n-x\n+y\n b\n\\ No newline at "
			 "end of file\n");
	free(d);
}
END_TEST

START_TEST(labels_and_git_headers)
{
	struct wg_buf out = WG_BUF_INIT;

	ck_assert_uint_eq(wg_udiff_labeled(&out, "a/d.yaml (Deployment/web)",
					   "b/d.yaml (Deployment/web)",
					   "x\n", 2, "y\n", 2, 3), 1);
	ck_assert_str_eq(out.buf, "--- a/d.yaml (Deployment/web)\n"
			 "+++ b/d.yaml (Deployment/web)\n@@ -1 +1 @@\n-x\n"
			 "+y\n");
	wg_buf_reset(&out);
	ck_assert_uint_eq(wg_udiff_labeled(&out, "a", "b", "x\n", 2, "x\n", 2,
					   3), 0);
	ck_assert_uint_eq(out.len, 0);
	wg_udiff(&out, "f.yaml", NULL, 0, "k: v\n", 5, 3);
	ck_assert_str_eq(out.buf, "diff --git a/f.yaml b/f.yaml\n"
			 "new file mode 100644\n--- /dev/null\n"
			 "+++ b/f.yaml\n@@ -0,0 +1 @@\n+k: v\n");
	wg_buf_reset(&out);
	wg_udiff(&out, "f.yaml", "k: v\n", 5, "k: w\n", 5, 3);
	ck_assert_str_eq(out.buf, "diff --git a/f.yaml b/f.yaml\n"
			 "--- a/f.yaml\n+++ b/f.yaml\n@@ -1 +1 @@\n-k: v\n"
			 "+k: w\n");
	wg_buf_reset(&out);
	wg_udiff(&out, "f.yaml", "k: v\n", 5, NULL, 0, 3);
	ck_assert_str_eq(out.buf, "diff --git a/f.yaml b/f.yaml\n"
			 "deleted file mode 100644\n--- a/f.yaml\n"
			 "+++ /dev/null\n@@ -1 +0,0 @@\n-k: v\n");
	wg_buf_reset(&out);
	wg_udiff(&out, "f.yaml", "same\n", 5, "same\n", 5, 3);
	ck_assert_uint_eq(out.len, 0);
	wg_buf_release(&out);
}
END_TEST

/* ---- random texts ------------------------------------------------------ */

static size_t lines_of(const char *s, const char **v)
{
	size_t n = 0;

	while (*s) {
		v[n++] = s;
		s = strchr(s, '\n') + 1;
	}
	return n;
}

static size_t lcs(const char **a, size_t n, const char **b, size_t m)
{
	static size_t t[64][64];

	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			if (!i || !j)
				t[i][j] = 0;
			else if (a[i - 1][0] == b[j - 1][0])
				t[i][j] = t[i - 1][j - 1] + 1;
			else
				t[i][j] = t[i - 1][j] > t[i][j - 1]
					  ? t[i - 1][j] : t[i][j - 1];
		}
	return t[n][m];
}

/* The 0-based first old line of the hunk whose header is at p. */
static size_t hunk_first(const char *p)
{
	char *end;
	long os, oc = 1;

	ck_assert(strncmp(p, "@@ -", 4) == 0);
	os = strtol(p + 4, &end, 10);
	if (*end == ',')
		oc = strtol(end + 1, NULL, 10);
	/* An empty range names the line before the insertion. */
	return oc ? (size_t)os - 1 : (size_t)os;
}

/* Applies the hunks of d to old (lines "x\n" of one letter); checks the
 * context and removed lines; returns the new text and the edit count. */
static char *patch(const char *old, const char *d, size_t *edits)
{
	const char *ov[64];
	size_t no = lines_of(old, ov), at = 0;
	struct wg_buf out = WG_BUF_INIT;
	const char *p = d;

	*edits = 0;
	while (*p) {
		size_t first = hunk_first(p);

		ck_assert_uint_ge(first, at);
		while (at < first)
			wg_buf_add(&out, ov[at++], 2);
		p = strchr(p, '\n') + 1;
		while (*p && *p != '@') {
			if (*p == ' ' || *p == '-') {
				ck_assert_uint_lt(at, no);
				ck_assert(ov[at][0] == p[1]);
				if (*p == ' ')
					wg_buf_add(&out, ov[at], 2);
				else
					(*edits)++;
				at++;
			} else {
				ck_assert(*p == '+');
				wg_buf_add(&out, p + 1, 2);
				(*edits)++;
			}
			p = strchr(p, '\n') + 1;
		}
	}
	while (at < no)
		wg_buf_add(&out, ov[at++], 2);
	return wg_buf_detach(&out, NULL);
}

static void random_text(char *s, size_t n, unsigned alphabet)
{
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = (char)('a' + rand() % (int)alphabet);
		s[2 * i + 1] = '\n';
	}
	s[2 * n] = '\0';
}

START_TEST(random_texts_patch_back_with_fewest_edits)
{
	srand(12345);
	for (int round = 0; round < 3000; round++) {
		char a[130], b[130];
		const char *av[64], *bv[64];
		size_t n = (size_t)rand() % 40, m = (size_t)rand() % 40;
		size_t hn, edits, best;
		unsigned ctx = (unsigned)(rand() % 4);
		char *d, *back;

		random_text(a, n, 2 + (unsigned)(round % 4));
		if (round % 5 == 0) {	/* b a small edit of a */
			memcpy(b, a, 2 * n + 1);
			m = n;
			if (n)
				b[2 * ((size_t)rand() % n)] = 'z';
		} else {
			random_text(b, m, 2 + (unsigned)(round % 4));
		}
		d = hunks(a, b, ctx, &hn);
		back = patch(a, d, &edits);
		ck_assert_msg(strcmp(back, b) == 0, "round %d:\n%s---\n%s---"
			      "\n%s", round, a, b, d);
		best = n + m - 2 * lcs(av, lines_of(a, av), bv,
				       lines_of(b, bv));
		ck_assert_uint_eq(edits, best);
		ck_assert_uint_eq(hn == 0, strcmp(a, b) == 0);
		free(d);
		free(back);
	}
}
END_TEST

START_TEST(large_texts_are_fast_enough)
{
	/* 20000 lines, every 100th changed: linear space, no blow-up. */
	struct wg_buf a = WG_BUF_INIT, b = WG_BUF_INIT, out = WG_BUF_INIT;

	for (int i = 0; i < 20000; i++) {
		wg_buf_addf(&a, "line %d\n", i);
		if (i % 100 == 50)
			wg_buf_addf(&b, "changed %d\n", i);
		else
			wg_buf_addf(&b, "line %d\n", i);
	}
	ck_assert_uint_eq(wg_udiff_hunks(&out, a.buf, a.len, b.buf, b.len, 3),
			  200);
	wg_buf_release(&a);
	wg_buf_release(&b);
	wg_buf_release(&out);
}
END_TEST



/* Applies the hunks of d to old (any lines, each ending in '\n');
 * checks context and removed lines against old; counts the edits. */
static char *patch_any(const char *old, const char *d, size_t *edits)
{
	struct wg_buf out = WG_BUF_INIT;
	const char *at = old, *p = d;
	size_t line = 0;

	*edits = 0;
	while (*p) {
		size_t first = hunk_first(p);

		for (; line < first; line++) {
			const char *nl = strchr(at, '\n');

			ck_assert_ptr_nonnull(nl);
			wg_buf_add(&out, at, (size_t)(nl + 1 - at));
			at = nl + 1;
		}
		p = strchr(p, '\n') + 1;
		while (*p && *p != '@') {
			const char *nl = strchr(p, '\n');
			size_t len = (size_t)(nl - p);	/* without the sign */

			if (*p == '+') {
				wg_buf_add(&out, p + 1, len);
				(*edits)++;
			} else {
				ck_assert(strncmp(at, p + 1, len) == 0);
				if (*p == ' ')
					wg_buf_add(&out, at, len);
				else
					(*edits)++;
				at += len;
				line++;
			}
			p = nl + 1;
		}
	}
	wg_buf_addstr(&out, at);
	return wg_buf_detach(&out, NULL);
}

/*
 * Documents of random lines between unique separators; some documents
 * changed and a region given for each changed one (byte ranges, some
 * starting or ending inside a line).  The diff limited to the regions
 * patches the old text into the new one, with no more edits than the
 * changed documents' lines; regions that miss a change fall back to the
 * whole diff.
 */
static void region_round(int round, bool miss_one)
{
	struct wg_buf a = WG_BUF_INIT, b = WG_BUF_INIT, out = WG_BUF_INIT;
	struct wg_buf whole = WG_BUF_INIT;
	struct wg_udiff_region r[8];
	size_t nr = 0, edits, whole_edits, ndocs = 1 + (size_t)rand() % 8;
	size_t naive = 0;	/* every line of every changed document */
	bool missed = false;	/* a change outside every region */
	char *back, *wback;

	for (size_t d = 0; d < ndocs; d++) {
		char x[40], y[40];
		size_t n = (size_t)rand() % 12, m;
		bool change = rand() % 2 || (miss_one && d == 0);
		size_t a0, b0;

		wg_buf_addf(&a, "sep %d %zu\n", round, d);
		wg_buf_addf(&b, "sep %d %zu\n", round, d);
		a0 = a.len;
		b0 = b.len;
		random_text(x, n, 3);
		if (change) {
			m = (size_t)rand() % 12;
			random_text(y, m, 3);
		} else {
			memcpy(y, x, 2 * n + 1);
		}
		wg_buf_addstr(&a, x);
		wg_buf_addstr(&b, y);
		if (change)
			naive += n + m;
		if (change && miss_one && d == 0)
			missed = strcmp(x, y) != 0;
		if (change && !(miss_one && d == 0)) {
			/* start one byte into the separator line's break, or
			 * at the document; end where it ends */
			size_t in = (size_t)(rand() % 2);

			r[nr].old_start = a0 - in;
			r[nr].new_start = b0 - in;
			r[nr].old_end = a.len;
			r[nr].new_end = b.len;
			nr++;
		}
	}
	ck_assert_uint_eq(wg_udiff_hunks_in(&out, a.buf, a.len, b.buf, b.len,
					    r, nr, 3) == 0,
			  strcmp(a.buf, b.buf) == 0);
	wg_udiff_hunks(&whole, a.buf, a.len, b.buf, b.len, 3);
	back = patch_any(a.buf, out.buf ? out.buf : "", &edits);
	wback = patch_any(a.buf, whole.buf ? whole.buf : "", &whole_edits);
	ck_assert_msg(strcmp(back, b.buf) == 0, "round %d:\n%s---\n%s---\n%s",
		      round, a.buf, b.buf, out.buf ? out.buf : "");
	/* a region's script is its shortest; across regions the whole diff
	 * may do better by giving up a separator; a miss falls back to it */
	if (missed)
		ck_assert_uint_eq(edits, whole_edits);
	ck_assert_uint_ge(edits, whole_edits);
	ck_assert_uint_le(edits, naive);
	free(back);
	free(wback);
	wg_buf_release(&a);
	wg_buf_release(&b);
	wg_buf_release(&out);
	wg_buf_release(&whole);
}

START_TEST(regions_patch_back_with_fewest_edits)
{
	srand(777);
	for (int round = 0; round < 2000; round++)
		region_round(round, round % 7 == 0);
}
END_TEST

START_TEST(regions_keep_large_texts_linear)
{
	/* 200,000 lines, every 10th changed: the whole diff is O(N*D) =
	 * 4e9 steps; per region it is a few steps a region. */
	struct wg_buf a = WG_BUF_INIT, b = WG_BUF_INIT, out = WG_BUF_INIT;
	struct wg_udiff_region *r = calloc(20000, sizeof(*r));
	size_t nr = 0;

	for (int i = 0; i < 200000; i++) {
		size_t a0 = a.len, b0 = b.len;

		wg_buf_addf(&a, "line %d\n", i);
		if (i % 10 == 5) {
			wg_buf_addf(&b, "changed %d\n", i);
			r[nr++] = (struct wg_udiff_region){ a0, a.len, b0,
							    b.len };
		} else {
			wg_buf_addf(&b, "line %d\n", i);
		}
	}
	ck_assert_uint_eq(wg_udiff_hunks_in(&out, a.buf, a.len, b.buf, b.len,
					    r, nr, 0), 20000);
	free(r);
	wg_buf_release(&a);
	wg_buf_release(&b);
	wg_buf_release(&out);
}
END_TEST

static Suite *udiff_suite(void)
{
	Suite *s = suite_create("udiff");
	TCase *tc = tcase_create("udiff");

	tcase_add_test(tc, equal_texts_give_nothing);
	tcase_add_test(tc, one_change_with_context);
	tcase_add_test(tc, close_changes_share_a_hunk_far_ones_do_not);
	tcase_add_test(tc, ranges_of_one_and_zero_lines);
	tcase_add_test(tc, missing_final_newline_is_marked);
	tcase_add_test(tc, labels_and_git_headers);
	tcase_add_test(tc, random_texts_patch_back_with_fewest_edits);
	tcase_add_test(tc, large_texts_are_fast_enough);
	tcase_add_test(tc, regions_patch_back_with_fewest_edits);
	tcase_add_test(tc, regions_keep_large_texts_linear);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(udiff_suite)
