/* PCRE2 patterns: anchoring, errors with offsets, limits, replacement. */
#include <string.h>

#include "testutil.h"
#include "wingen/base/regex.h"

static struct wg_arena arena;

static void setup(void)
{
	wg_arena_init(&arena);
}

static void teardown(void)
{
	wg_arena_release(&arena);
}

static int match(const char *pattern, bool anchored, const char *s)
{
	struct wg_regex re;
	const char *err;
	size_t off;
	int rc;

	ck_assert_int_eq(wg_regex_compile(&re, pattern, anchored, 1000000,
					  10000, &arena, &err, &off), 0);
	rc = wg_regex_match(&re, s, strlen(s));
	wg_regex_release(&re);
	return rc;
}

START_TEST(anchored_matches_whole_subject)
{
	ck_assert_int_eq(match("web", true, "web"), 1);
	ck_assert_int_eq(match("web", true, "web-1"), 0);
	ck_assert_int_eq(match("web", true, "my-web"), 0);
	/* Alternatives are anchored as a group, not just the first one. */
	ck_assert_int_eq(match("a|b", true, "xb"), 0);
	ck_assert_int_eq(match("a|b", true, "b"), 1);
	ck_assert_int_eq(match(".*-win", true, "app-win"), 1);
	ck_assert_int_eq(match("web", false, "my-web-1"), 1);
	ck_assert_int_eq(match("^mcr\\.microsoft\\.com/windows/", false,
			       "mcr.microsoft.com/windows/servercore:ltsc2022"),
			 1);
	ck_assert_int_eq(match("^mcr\\.microsoft\\.com/windows/", false,
			       "docker.io/mcr.microsoft.com/windows/x"), 0);
	/* UTF-8 subjects are characters, not bytes. */
	ck_assert_int_eq(match("^.$", false, "\xc3\xa9"), 1);
}
END_TEST

START_TEST(compile_error_reports_pcre2_message_and_offset)
{
	struct wg_regex re;
	const char *err = NULL;
	size_t off = 99;

	ck_assert_int_eq(wg_regex_compile(&re, "ab(cd", false, 1000, 100,
					  &arena, &err, &off), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing closing parenthesis"));
	ck_assert_uint_eq(off, 5);
	/* Offsets are in the pattern as written, not in the anchoring
	 * wrapper around it. */
	off = 99;
	ck_assert_int_eq(wg_regex_compile(&re, "a[b", true, 1000, 100,
					  &arena, &err, &off), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing terminating ]"));
	ck_assert_uint_le(off, 3);
	ck_assert_int_eq(wg_regex_compile(&re, "x{2,1}", false, 1000, 100,
					  &arena, &err, &off), -1);
	ck_assert_uint_eq(off, 5);
	ck_assert_ptr_nonnull(strstr(err, "out of order"));
}
END_TEST

START_TEST(limits_stop_catastrophic_patterns)
{
	struct wg_regex re;
	const char *err;
	size_t off;
	char subject[64];

	memset(subject, 'a', 40);
	strcpy(subject + 40, "b");
	ck_assert_int_eq(wg_regex_compile(&re, "^(a+)+$", false, 10000, 1000,
					  &arena, &err, &off), 0);
	/* Exponential backtracking: the match limit ends it with -1. */
	ck_assert_int_eq(wg_regex_match(&re, subject, strlen(subject)), -1);
	/* A harmless subject still matches under the same limits. */
	ck_assert_int_eq(wg_regex_match(&re, "aaaa", 4), 1);
	wg_regex_release(&re);
	/* With a generous limit the same pattern answers "no match". */
	ck_assert_int_eq(wg_regex_compile(&re, "^(a+)+$", false, 100000000,
					  100000, &arena, &err, &off), 0);
	ck_assert_int_eq(wg_regex_match(&re, "aaaaaaaaaaaab", 13), 0);
	wg_regex_release(&re);
}
END_TEST

START_TEST(replace_with_groups)
{
	struct wg_regex re;
	const char *err = NULL;
	size_t off;
	char *out;
	const char *s = "mcr.microsoft.com/windows/servercore:ltsc2019";

	ck_assert_int_eq(wg_regex_compile(&re, ":ltsc2019$", false, 100000,
					  1000, &arena, &err, &off), 0);
	out = wg_regex_replace(&re, s, strlen(s), ":ltsc2022", &arena, &err);
	ck_assert_str_eq(out, "mcr.microsoft.com/windows/servercore:ltsc2022");
	wg_regex_release(&re);
	ck_assert_int_eq(wg_regex_compile(&re, "(?<repo>[^:]+):(\\w+)", false,
					  100000, 1000, &arena, &err, &off), 0);
	out = wg_regex_replace(&re, "a:b c:d", 7, "${repo}=$2", &arena, &err);
	ck_assert_str_eq(out, "a=b c=d");
	/* A long result grows past the first guess of the output size. */
	out = wg_regex_replace(&re, "a:b", 3,
			       "$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1"
			       "$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1"
			       "$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1"
			       "$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1",
			       &arena, &err);
	ck_assert_uint_eq(strlen(out), 88);
	/* An unknown group is an error, with PCRE2's message. */
	err = NULL;
	ck_assert_ptr_null(wg_regex_replace(&re, "a:b", 3, "${nope}", &arena,
					    &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err, "unknown substring"), "%s", err);
	wg_regex_release(&re);
}
END_TEST

/* Subjects are byte ranges (scalars point into the input): nothing past
 * len counts, short or long (matched from a padded copy, since the JIT
 * reads a little past the end). */
START_TEST(subject_is_a_byte_range)
{
	static char big[1000];
	struct wg_regex re;
	const char *err;
	size_t off;

	ck_assert_int_eq(wg_regex_compile(&re, "abc", true, 1000000, 10000,
					  &arena, &err, &off), 0);
	ck_assert_int_eq(wg_regex_match(&re, "abcdef", 3), 1);
	ck_assert_int_eq(wg_regex_match(&re, "abcdef", 4), 0);
	wg_regex_release(&re);
	memset(big, 'x', sizeof(big));
	memcpy(big + 500, "tail", 4);
	ck_assert_int_eq(wg_regex_compile(&re, "x+tail", true, 1000000, 10000,
					  &arena, &err, &off), 0);
	ck_assert_int_eq(wg_regex_match(&re, big, 504), 1);
	ck_assert_int_eq(wg_regex_match(&re, big, 505), 0);
	ck_assert_int_eq(wg_regex_match(&re, big, 503), 0);
	wg_regex_release(&re);
}
END_TEST

static Suite *regex_suite(void)
{
	Suite *s = suite_create("regex");
	TCase *tc = tcase_create("regex");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, anchored_matches_whole_subject);
	tcase_add_test(tc, compile_error_reports_pcre2_message_and_offset);
	tcase_add_test(tc, limits_stop_catastrophic_patterns);
	tcase_add_test(tc, replace_with_groups);
	tcase_add_test(tc, subject_is_a_byte_range);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(regex_suite)
