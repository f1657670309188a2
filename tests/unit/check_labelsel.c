/* Label selectors and the Kubernetes name syntax checks. */
#include <string.h>

#include "testutil.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/labelsel.h"

static struct wg_arena arena;

static void setup(void)
{
	wg_arena_init(&arena);
}

static void teardown(void)
{
	wg_arena_release(&arena);
}

/* Parses text, writes it back canonically. */
static const char *canon(const char *text)
{
	struct wg_label_selector sel;
	struct wg_buf b = WG_BUF_INIT;
	const char *err = NULL, *out;
	size_t off = 0;

	ck_assert_msg(wg_label_selector_parse(&arena, text, &sel, &err,
					      &off) == 0,
		      "'%s': %s at %zu", text, err ? err : "", off);
	wg_label_selector_write(&sel, &b);
	out = wg_arena_strdup(&arena, b.buf);
	wg_buf_release(&b);
	return out;
}

START_TEST(parse_every_operator)
{
	struct wg_label_selector sel;
	const char *err;
	size_t off;

	ck_assert_int_eq(wg_label_selector_parse(
				 &arena, "a=1, b==2,c!=3, d in (x, y),"
				 "e notin (z),f,!g", &sel, &err, &off), 0);
	ck_assert_uint_eq(sel.len, 7);
	ck_assert_int_eq(sel.reqs[0].op, WG_LABEL_EQ);
	ck_assert_str_eq(sel.reqs[0].key, "a");
	ck_assert_str_eq(sel.reqs[0].values[0], "1");
	ck_assert_int_eq(sel.reqs[1].op, WG_LABEL_EQ);
	ck_assert_int_eq(sel.reqs[2].op, WG_LABEL_NEQ);
	ck_assert_int_eq(sel.reqs[3].op, WG_LABEL_IN);
	ck_assert_uint_eq(sel.reqs[3].nvalues, 2);
	ck_assert_str_eq(sel.reqs[3].values[1], "y");
	ck_assert_int_eq(sel.reqs[4].op, WG_LABEL_NOTIN);
	ck_assert_int_eq(sel.reqs[5].op, WG_LABEL_EXISTS);
	ck_assert_int_eq(sel.reqs[6].op, WG_LABEL_NOT_EXISTS);
	ck_assert_str_eq(sel.reqs[6].key, "g");
	/* The canonical form parses back to itself. */
	ck_assert_str_eq(canon("a=1, b==2,c!=3, d in (x, y),e notin (z),"
			       "f,!g"),
			 "a=1,b=2,c!=3,d in (x,y),e notin (z),f,!g");
	ck_assert_str_eq(canon("a=1,b=2,c!=3,d in (x,y),e notin (z),f,!g"),
			 "a=1,b=2,c!=3,d in (x,y),e notin (z),f,!g");
	ck_assert_str_eq(canon("app.kubernetes.io/os=windows"),
			 "app.kubernetes.io/os=windows");
	ck_assert_str_eq(canon("tier="), "tier=");	/* empty value */
	ck_assert_str_eq(canon(""), "");
	ck_assert_str_eq(canon("  "), "");
	/* "in" and "notin" are words: a key may start with them. */
	ck_assert_str_eq(canon("inx=1,notinx"), "inx=1,notinx");
}
END_TEST

START_TEST(errors_have_offsets)
{
	static const struct {
		const char *text;
		size_t offset;
		const char *msg;
	} bad[] = {
		{ "a in ()", 6, "may not be empty" },
		{ "a in (x", 7, "expected ',' or ')'" },
		{ "a in x", 5, "expected '('" },
		{ "a b", 2, "expected an operator" },
		{ "a=b c", 4, "expected ',' between" },
		{ "a=b,", 4, "after ','" },
		{ "Bad Key!=1", 4, "expected an operator" },
		{ "-a=1", 0, "not a valid label key" },
		{ "a=-x", 2, "not a valid label value" },
		{ "example.com/=1", 0, "not a valid label key" },
		{ "a>1", 1, "expected an operator" },
		{ "!", 1, "expected a label key" },
		{ ",a", 0, "expected a label key" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct wg_label_selector sel;
		const char *err = NULL;
		size_t off = 999;

		ck_assert_msg(wg_label_selector_parse(&arena, bad[i].text,
						      &sel, &err, &off) == -1,
			      "'%s' parsed", bad[i].text);
		ck_assert_msg(strstr(err, bad[i].msg), "'%s': %s",
			      bad[i].text, err);
		ck_assert_msg(off == bad[i].offset, "'%s': offset %zu",
			      bad[i].text, off);
	}
}
END_TEST

START_TEST(matching_follows_kubernetes)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *labels;
	static const struct {
		const char *sel;
		bool want;
	} cases[] = {
		{ "", true },
		{ "app=iis", true },
		{ "app=web", false },
		{ "app!=web", true },
		{ "app!=iis", false },
		{ "missing!=x", true },		/* absent satisfies != */
		{ "missing notin (x)", true },	/* and notin */
		{ "app in (web,iis)", true },
		{ "app in (web)", false },
		{ "app notin (iis)", false },
		{ "tier", true },
		{ "!tier", false },
		{ "!missing", true },
		{ "missing", false },
		{ "missing=x", false },
		{ "app=iis,tier=front", true },
		{ "app=iis,tier=back", false },
		{ "empty=", true },
		{ "app.kubernetes.io/os=windows", true },
	};

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "app: iis\ntier: front\nempty: ''\n"
				"app.kubernetes.io/os: windows\n", &list), 0);
	labels = list.items[0]->root;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct wg_label_selector sel;
		const char *err;
		size_t off;

		ck_assert_int_eq(wg_label_selector_parse(&arena, cases[i].sel,
							 &sel, &err, &off), 0);
		ck_assert_msg(wg_label_selector_matches(&sel, labels)
			      == cases[i].want, "'%s'", cases[i].sel);
	}
	/* No labels at all: only negative requirements hold. */
	{
		struct wg_label_selector sel;
		const char *err;
		size_t off;

		wg_label_selector_parse(&arena, "!a,b notin (c)", &sel, &err,
					&off);
		ck_assert(wg_label_selector_matches(&sel, NULL));
		wg_label_selector_parse(&arena, "a", &sel, &err, &off);
		ck_assert(!wg_label_selector_matches(&sel, NULL));
		ck_assert(wg_label_selector_matches(NULL, labels));
	}
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* Selectors written as objects: a Service's map, a LabelSelector. */
START_TEST(selectors_from_objects)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *labels;
	static const struct {
		const char *yaml;
		bool set_based;
		int rc;
		bool want;
		const char *canon;
	} cases[] = {
		{ "{app: iis, tier: front}", false, 0, true,
		  "app=iis,tier=front" },
		{ "{app: iis, tier: back}", false, 0, false, NULL },
		{ "{}", false, 0, true, "" },
		{ "~", false, 0, true, "" },
		{ "[app]", false, -1, true, "" },
		{ "{app: [iis]}", false, -1, true, "" },
		{ "{matchLabels: {app: iis}}", true, 0, true, "app=iis" },
		{ "{matchLabels: {app: iis}, matchExpressions: [{key: tier, "
		  "operator: In, values: [front, back]}, {key: os, operator: "
		  "DoesNotExist}]}", true, 0, true,
		  "app=iis,tier in (front,back),!os" },
		{ "{matchExpressions: [{key: tier, operator: NotIn, values: "
		  "[front]}]}", true, 0, false, NULL },
		{ "{matchExpressions: [{key: tier, operator: Exists}]}", true,
		  0, true, "tier" },
		{ "{matchExpressions: [{key: tier, operator: Gt, values: "
		  "['1']}]}", true, -1, true, "" },
		{ "{matchExpressions: [{key: tier, operator: In}]}", true, -1,
		  true, "" },
		{ "{matchExpressions: [{key: tier, operator: Exists, values: "
		  "[x]}]}", true, -1, true, "" },
		{ "{matchLabels: ~, matchExpressions: ~}", true, 0, true, "" },
		/* a map selector is not read as a LabelSelector */
		{ "{app: iis}", true, 0, true, "" },
	};

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "app: iis\ntier: front\n", &list),
			 0);
	labels = list.items[0]->root;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct wg_input sin;
		struct wg_resources sl;
		struct wg_label_selector sel;
		struct wg_buf b = WG_BUF_INIT;
		const struct wg_node *node;

		wg_resources_init(&sl);
		ck_assert_int_eq(t_read(&ctx, &sin, cases[i].yaml, &sl), 0);
		node = sl.len ? sl.items[0]->root : NULL;
		ck_assert_msg(wg_label_selector_from_node(&arena, node,
							  cases[i].set_based,
							  &sel) == cases[i].rc,
			      "%s", cases[i].yaml);
		ck_assert_msg(wg_label_selector_matches(&sel, labels)
			      == cases[i].want, "%s", cases[i].yaml);
		if (cases[i].canon) {
			wg_label_selector_write(&sel, &b);
			ck_assert_str_eq(b.buf, cases[i].canon);
		}
		wg_buf_release(&b);
		wg_resources_release(&sl);
		wg_input_release(&sin);
	}
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(name_syntax)
{
	char long_label[70], long_sub[260];

	memset(long_label, 'a', 63);
	long_label[63] = '\0';
	ck_assert(wg_is_dns_label(long_label));
	long_label[63] = 'a';
	long_label[64] = '\0';
	ck_assert(!wg_is_dns_label(long_label));
	ck_assert(wg_is_dns_label("runhcs-wcow-process"));
	ck_assert(wg_is_dns_label("a"));
	ck_assert(wg_is_dns_label("0abc9"));
	ck_assert(!wg_is_dns_label("Runhcs"));
	ck_assert(!wg_is_dns_label("-a"));
	ck_assert(!wg_is_dns_label("a-"));
	ck_assert(!wg_is_dns_label("a.b"));
	ck_assert(!wg_is_dns_label("a_b"));
	ck_assert(!wg_is_dns_label(""));
	ck_assert(!wg_is_dns_label(NULL));

	ck_assert(wg_is_dns_subdomain("windows-ltsc2022"));
	ck_assert(wg_is_dns_subdomain("a.b-c.d"));
	ck_assert(!wg_is_dns_subdomain("a..b"));
	ck_assert(!wg_is_dns_subdomain(".a"));
	ck_assert(!wg_is_dns_subdomain("a."));
	ck_assert(!wg_is_dns_subdomain("a.-b"));
	ck_assert(!wg_is_dns_subdomain("Windows"));
	ck_assert(!wg_is_dns_subdomain("bad_name"));
	memset(long_sub, 'a', 253);
	long_sub[253] = '\0';
	ck_assert(wg_is_dns_subdomain(long_sub));
	long_sub[253] = 'a';
	long_sub[254] = '\0';
	ck_assert(!wg_is_dns_subdomain(long_sub));

	ck_assert(wg_is_label_key("kubernetes.io/os"));
	ck_assert(wg_is_label_key("node.kubernetes.io/windows-build"));
	ck_assert(wg_is_label_key("os"));
	ck_assert(wg_is_label_key("My_Key.v1"));
	ck_assert(!wg_is_label_key("Kubernetes.io/os"));	/* prefix */
	ck_assert(!wg_is_label_key("a/b/c"));
	ck_assert(!wg_is_label_key("/os"));
	ck_assert(!wg_is_label_key("kubernetes.io/"));
	ck_assert(!wg_is_label_key("_os"));
	ck_assert(!wg_is_label_key(""));

	ck_assert(wg_is_label_value(""));
	ck_assert(wg_is_label_value("10.0.20348"));
	ck_assert(wg_is_label_value("Windows_Server-2022"));
	ck_assert(!wg_is_label_value("-x"));
	ck_assert(!wg_is_label_value("a b"));
	ck_assert(!wg_is_label_value("a/b"));
	ck_assert(!wg_is_label_value(long_label));	/* 64 */
}
END_TEST

static Suite *labelsel_suite(void)
{
	Suite *s = suite_create("labelsel");
	TCase *tc = tcase_create("labelsel");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, parse_every_operator);
	tcase_add_test(tc, errors_have_offsets);
	tcase_add_test(tc, matching_follows_kubernetes);
	tcase_add_test(tc, selectors_from_objects);
	tcase_add_test(tc, name_syntax);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(labelsel_suite)
