#include <string.h>

#include "testutil.h"
#include "wingen/k8s/quantity.h"
#include "wingen/yaml/reader.h"

/* Pairs ParseQuantity reads as the same value (Quantity.Cmp == 0). */
static const char *const equal[][2] = {
	{ "0.1", "100m" },
	{ "100m", ".1" },
	{ "1", "1000m" },
	{ "1", "1.0" },
	{ "1", "+1" },
	{ "1", "001" },
	{ "128Mi", "134217728" },
	{ "1Ki", "1024" },
	{ "1.5Gi", "1536Mi" },
	{ "1Ei", "1152921504606846976" },
	{ "1k", "1e3" },
	{ "1k", "1E3" },
	{ "1M", "1e+6" },
	{ "1m", "1e-3" },
	{ "1n", "0.000000001" },
	{ "0", "0m" },
	{ "0", "-0" },
	{ "0", "0Ki" },
	{ "0.5", "500m" },
	{ "1u", "1000n" },
	{ "1E", "1e18" },
	{ "2.", "2" },
	/* ParseQuantity keeps nine decimal places, rounding up */
	{ "0.1n", "1n" },
	{ "1.0000000001", "1.000000001" },
	{ "-0.1n", "-1n" },
	{ "12345678901234567890123456789", "12345678901234567890123456.789k" },
};

/* Pairs that differ; the first is the smaller. */
static const char *const less[][2] = {
	{ "99m", "0.1" },
	{ "1000", "1Ki" },
	{ "1G", "1Gi" },
	{ "-1", "0" },
	{ "-2", "-1" },
	{ "0", "1n" },
	{ "1.000000001", "1.000000002" },
	{ "9", "10" },
	{ "1e3", "1e4" },
};

static const char *const invalid[] = {
	"", "+", "-", ".", "m", "1.2.3", "1 ", " 1", "1x", "1KI", "1ki",
	"1e", "1e+", "1e1.5", "1mi", "0x10", "1,5", "1e5000",
	"1Kib", "--1", "1e3m",
};

static void parse_ok(const char *s, struct wg_quantity *q)
{
	ck_assert_msg(wg_quantity_parse(s, strlen(s), q) == 0,
		      "'%s' is a quantity", s);
}

START_TEST(test_equal)
{
	struct wg_quantity a, b;

	parse_ok(equal[_i][0], &a);
	parse_ok(equal[_i][1], &b);
	ck_assert_msg(wg_quantity_cmp(&a, &b) == 0, "%s == %s", equal[_i][0],
		      equal[_i][1]);
	ck_assert_int_eq(wg_quantity_cmp(&b, &a), 0);
}
END_TEST

START_TEST(test_less)
{
	struct wg_quantity a, b;

	parse_ok(less[_i][0], &a);
	parse_ok(less[_i][1], &b);
	ck_assert_msg(wg_quantity_cmp(&a, &b) < 0, "%s < %s", less[_i][0],
		      less[_i][1]);
	ck_assert_msg(wg_quantity_cmp(&b, &a) > 0, "%s > %s", less[_i][1],
		      less[_i][0]);
}
END_TEST

START_TEST(test_invalid)
{
	struct wg_quantity q;

	ck_assert_msg(wg_quantity_parse(invalid[_i], strlen(invalid[_i]), &q)
		      == -1, "'%s' is not a quantity", invalid[_i]);
	ck_assert_uint_eq(q.ndigits, 0);
}
END_TEST

START_TEST(test_too_long)
{
	char text[WG_QUANTITY_MAX_TEXT + 2];
	struct wg_quantity q;

	memset(text, '9', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	ck_assert_int_eq(wg_quantity_parse(text, strlen(text), &q), -1);
	/* the longest accepted, times the largest binary suffix, plus a
	 * carry from rounding, fits */
	memset(text, '9', WG_QUANTITY_MAX_TEXT - 2);
	memcpy(text + WG_QUANTITY_MAX_TEXT - 2, "Ei", 3);
	ck_assert_int_eq(wg_quantity_parse(text, strlen(text), &q), 0);
	memcpy(text, "0.", 2);	/* 126 decimal places: rounded up */
	memcpy(text + WG_QUANTITY_MAX_TEXT - 2, "99", 3);
	ck_assert_int_eq(wg_quantity_parse(text, strlen(text), &q), 0);
	ck_assert_int_eq(q.exp, 0);	/* 0.999...9 rounds up to 1 */
	ck_assert_uint_eq(q.ndigits, 1);
	ck_assert_uint_le(q.ndigits, WG_QUANTITY_DIGITS);
}
END_TEST

/* Resource lists as spec.overhead and overhead.podFixed hold them. */
START_TEST(test_resource_list)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *a, *b, *c, *d, *e;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in,
		"{cpu: \"0.1\", memory: 128Mi}\n---\n"
		"{memory: \"134217728\", cpu: 100m}\n---\n"
		"{cpu: 100m}\n---\n"
		"{cpu: 100m, memory: 128M}\n---\n"
		"{}\n", &list), 0);
	a = list.items[0]->root;
	b = list.items[1]->root;
	c = list.items[2]->root;
	d = list.items[3]->root;
	e = list.items[4]->root;
	ck_assert(wg_resource_list_equal(a, b));	/* by value, any order */
	ck_assert(!wg_node_equal(a, b));		/* not as text */
	ck_assert(!wg_resource_list_equal(a, c));	/* a name missing */
	ck_assert(!wg_resource_list_equal(c, a));
	ck_assert(!wg_resource_list_equal(a, d));	/* 128M is not 128Mi */
	ck_assert(wg_resource_list_equal(e, NULL));	/* empty is unset */
	ck_assert(!wg_resource_list_equal(c, NULL));
	ck_assert(wg_quantity_node_equal(wg_map_get(a, "cpu"),
					 wg_map_get(b, "cpu")));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *quantity_suite(void)
{
	Suite *s = suite_create("quantity");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_equal, 0,
			    sizeof(equal) / sizeof(equal[0]));
	tcase_add_loop_test(tc, test_less, 0, sizeof(less) / sizeof(less[0]));
	tcase_add_loop_test(tc, test_invalid, 0,
			    sizeof(invalid) / sizeof(invalid[0]));
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_resource_list);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(quantity_suite)
