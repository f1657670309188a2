/* Scalar typing under YAML 1.1 and 1.2, quoting, JSON numbers. */
#include <string.h>

#include "testutil.h"
#include "wingen/yaml/scalar.h"

#define T11(s) wg_resolve_yaml11((s), strlen(s))
#define T12(s) wg_resolve_yaml12((s), strlen(s))

START_TEST(yaml11_types)
{
	static const char *const bools[] = { "y", "Y", "yes", "Yes", "YES",
		"n", "N", "no", "NO", "on", "ON", "off", "Off", "true",
		"FALSE", NULL };
	static const char *const ints[] = { "0", "-1", "+1", "0755", "0x1F",
		"0o17", "0b101", "1_000", "1_", "12345678901234567890", NULL };
	static const char *const floats[] = { "1.10", ".5", "-.5", "1e3",
		"1.", "08", ".inf", "-.Inf", ".NaN", "1.5E+3", NULL };
	static const char *const strs[] = { "abc", "1.2.3", "10.0.20348",
		"0x", "0xZZ", "1:20", "yesno", "On1", "-", ".", "1e", "e3",
		"+", NULL };

	for (const char *const *s = bools; *s; s++)
		ck_assert_msg(T11(*s) == WG_TYPE_BOOL, "%s", *s);
	for (const char *const *s = ints; *s; s++)
		ck_assert_msg(T11(*s) == WG_TYPE_INT, "%s", *s);
	for (const char *const *s = floats; *s; s++)
		ck_assert_msg(T11(*s) == WG_TYPE_FLOAT, "%s", *s);
	for (const char *const *s = strs; *s; s++)
		ck_assert_msg(T11(*s) == WG_TYPE_STR, "%s -> %d", *s, T11(*s));
	ck_assert_int_eq(T11(""), WG_TYPE_NULL);
	ck_assert_int_eq(T11("~"), WG_TYPE_NULL);
	ck_assert_int_eq(T11("2024-01-31"), WG_TYPE_TIMESTAMP);
	ck_assert_int_eq(T11("<<"), WG_TYPE_MERGE);
}
END_TEST

START_TEST(yaml12_types)
{
	ck_assert_int_eq(T12("yes"), WG_TYPE_STR);
	ck_assert_int_eq(T12("on"), WG_TYPE_STR);
	ck_assert_int_eq(T12("true"), WG_TYPE_BOOL);
	ck_assert_int_eq(T12("0755"), WG_TYPE_INT);
	ck_assert_int_eq(T12("0o17"), WG_TYPE_INT);
	ck_assert_int_eq(T12("1_000"), WG_TYPE_STR);
	ck_assert_int_eq(T12(".5"), WG_TYPE_FLOAT);
	ck_assert_int_eq(T12("null"), WG_TYPE_NULL);
	ck_assert_int_eq(T12("1:20"), WG_TYPE_STR);
}
END_TEST

static const char *json(const char *s, struct wg_buf *b)
{
	wg_buf_reset(b);
	if (wg_scalar_to_json(b, s, strlen(s)))
		return "<none>";
	return b->buf;
}

START_TEST(json_numbers)
{
	struct wg_buf b = WG_BUF_INIT;

	ck_assert_str_eq(json("0755", &b), "493");
	ck_assert_str_eq(json("-0x10", &b), "-16");
	ck_assert_str_eq(json("0b11", &b), "3");
	ck_assert_str_eq(json("+12", &b), "12");
	ck_assert_str_eq(json("-0", &b), "0");
	ck_assert_str_eq(json("99999999999999999999999", &b),
			 "99999999999999999999999");
	ck_assert_str_eq(json(".5", &b), "0.5");
	ck_assert_str_eq(json("-.5e2", &b), "-0.5e2");
	ck_assert_str_eq(json("007.50", &b), "7.50");
	ck_assert_str_eq(json("08", &b), "8");
	ck_assert_str_eq(json("1_0.5", &b), "10.5");
	ck_assert_str_eq(json("Yes", &b), "true");
	ck_assert_str_eq(json("OFF", &b), "false");
	ck_assert_str_eq(json("n", &b), "false");
	ck_assert_str_eq(json("NULL", &b), "null");
	ck_assert_str_eq(json("a\"b", &b), "\"a\\\"b\"");
	ck_assert_str_eq(json(".inf", &b), "<none>");
	ck_assert_str_eq(json(".nan", &b), "<none>");
	wg_buf_release(&b);
}
END_TEST

START_TEST(json_quote_escapes_controls)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_json_quote(&b, "a\x01\n\\\x7f\xc3\xa9", 7);
	ck_assert_str_eq(b.buf, "\"a\\u0001\\n\\\\\\u007f\xc3\xa9\"");
	wg_buf_release(&b);
}
END_TEST

START_TEST(needs_quotes_is_conservative)
{
	ck_assert(wg_scalar_needs_quotes("10.0.17763", 10));
	ck_assert(wg_scalar_needs_quotes("1:20", 4));
	ck_assert(wg_scalar_needs_quotes("=", 1));
	ck_assert(wg_scalar_needs_quotes("\xef\xbb\xbfx", 4));
	ck_assert(!wg_scalar_needs_quotes("windows-ltsc2022", 16));
	ck_assert(!wg_scalar_needs_quotes("a b", 3));
}
END_TEST

static Suite *scalar_suite(void)
{
	Suite *s = suite_create("scalar");
	TCase *tc = tcase_create("scalar");

	tcase_add_test(tc, yaml11_types);
	tcase_add_test(tc, yaml12_types);
	tcase_add_test(tc, json_numbers);
	tcase_add_test(tc, json_quote_escapes_controls);
	tcase_add_test(tc, needs_quotes_is_conservative);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(scalar_suite)
