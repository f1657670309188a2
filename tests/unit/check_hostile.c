/*
 * Hostile and odd input: regressions for what the fuzz targets found
 * (tests/fuzz) and the limits of struct wg_limits.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/scalar.h"
#include "wingen/yaml/writer.h"

/* Reads text; returns the number of resources, or -1 on error. */
static long read_count(struct wg_ctx *ctx, const char *text)
{
	struct wg_input in;
	struct wg_resources list;
	long n;

	wg_resources_init(&list);
	n = t_read(ctx, &in, text, &list) ? -1 : (long)list.len;
	wg_resources_release(&list);
	wg_input_release(&in);
	return n;
}

/* fuzz_roundtrip: U+2028 in a string made JSON output unreadable. */
START_TEST(json_escapes_yaml_line_breaks)
{
	static const char text[] = "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\xc2\x85"
				   "d\xc2\x80" "e\xef\xbf\xbe" "f\xef\xbf\xbf"
				   "g\xc3\xa9";
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;

	wg_json_quote(&out, text, strlen(text));
	ck_assert_str_eq(out.buf, "\"a\\u2028b\\u2029c\\u0085d\\u0080e\\ufffe"
			 "f\\uffffg\xc3\xa9\"");
	/* and wingen reads its own JSON back to the same text */
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, out.buf, &list), 0);
	ck_assert_uint_eq(list.len, 1);
	ck_assert_uint_eq(list.items[0]->root->len, strlen(text));
	ck_assert(memcmp(list.items[0]->root->u.str, text, strlen(text)) == 0);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	wg_buf_release(&out);
}
END_TEST

/* A truncated sequence at the end of the string is copied as it is. */
START_TEST(json_quote_truncated_utf8)
{
	struct wg_buf out = WG_BUF_INIT;

	wg_json_quote(&out, "x\xe2\x80", 3);
	ck_assert_str_eq(out.buf, "\"x\xe2\x80\"");
	wg_buf_reset(&out);
	wg_json_quote(&out, "x\xc2", 2);
	ck_assert_str_eq(out.buf, "\"x\xc2\"");
	wg_buf_release(&out);
}
END_TEST

/* Text made of n copies of a, then mid, then n copies of b. */
static char *repeat3(const char *a, size_t n, const char *mid, const char *b)
{
	struct wg_buf t = WG_BUF_INIT;

	for (size_t i = 0; i < n; i++)
		wg_buf_addstr(&t, a);
	wg_buf_addstr(&t, mid);
	for (size_t i = 0; i < n; i++)
		wg_buf_addstr(&t, b);
	return wg_buf_detach(&t, NULL);
}

static void expect_depth_error(const char *text, const char *what)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ck_assert_msg(read_count(&ctx, text) == -1, "%s was accepted", what);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx),
				     "nesting deeper than 512 levels"));
	ck_assert_uint_gt(ctx.log.diags[0].line, 0);
	wg_ctx_release(&ctx);
}

START_TEST(depth_10000_flow_and_block)
{
	struct wg_buf block = WG_BUF_INIT;
	char *t;

	t = repeat3("[", 10000, "x", "]");
	expect_depth_error(t, "10,000 levels of [");
	free(t);
	t = repeat3("{a: ", 10000, "x", "}");
	expect_depth_error(t, "10,000 levels of {");
	free(t);
	for (size_t i = 0; i < 10000; i++) {
		for (size_t j = 0; j < i; j++)
			wg_buf_addch(&block, ' ');
		wg_buf_addstr(&block, "k:\n");
	}
	expect_depth_error(block.buf, "10,000 levels of block mappings");
	wg_buf_release(&block);
}
END_TEST

/* A limit lowered in wg_limits takes effect. */
START_TEST(depth_limit_configurable)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ctx.limits.max_depth = 3;
	ck_assert_int_eq(read_count(&ctx, "a: [[x]]\n"), 1);
	ck_assert_int_eq(read_count(&ctx, "a: [[[x]]]\n"), -1);
	ck_assert_str_eq(t_first_message(&ctx), "nesting deeper than 3 levels");
	wg_ctx_release(&ctx);
}
END_TEST

/*
 * Aliases used to dodge max_depth: a copy of a deep anchor placed deep
 * again made a tree twice as deep as the parser ever saw, so the
 * recursive writer and clone could be driven to any depth.
 */
START_TEST(alias_cannot_exceed_depth)
{
	struct wg_ctx ctx;
	char *anchor = repeat3("[", 300, "x", "]");
	char *inner = repeat3("[", 300, "*a", "]");
	struct wg_buf t = WG_BUF_INIT;

	wg_buf_addf(&t, "a: &a %s\nb: %s\n", anchor, inner);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(read_count(&ctx, t.buf), -1);
	ck_assert_str_eq(t_first_message(&ctx),
			 "alias '*a' nests deeper than 512 levels");
	ck_assert_uint_eq(ctx.log.diags[0].line, 2);
	wg_ctx_release(&ctx);
	/* within the limit it is fine */
	wg_ctx_init(&ctx);
	ctx.limits.max_depth = 1000;
	ck_assert_int_eq(read_count(&ctx, t.buf), 1);
	wg_ctx_release(&ctx);
	wg_buf_release(&t);
	free(anchor);
	free(inner);
}
END_TEST

START_TEST(billion_laughs)
{
	static const char bomb[] =
		"a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
		"h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
		"i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(read_count(&ctx, bomb), -1);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx),
				     "(the alias budget)"));
	ck_assert_uint_eq(ctx.log.diags[0].line, 6);
	wg_ctx_release(&ctx);
}
END_TEST

/*
 * fuzz: "<<" merges compared every merged key with every other one, so a
 * 1 MB mapping of 100,000 keys took half a minute.  Now n log n; the
 * semantics stay: own keys win, then earlier sources.
 */
START_TEST(merge_many_keys_is_fast)
{
	struct wg_buf t = WG_BUF_INIT;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *a;

	wg_buf_addstr(&t, "a:\n  k7: own\n  <<: [{");
	for (unsigned i = 0; i < 100000; i++)
		wg_buf_addf(&t, "%sk%u: %u", i ? ", " : "", i, i);
	wg_buf_addstr(&t, "}, {k1: second, z: 2}]\n  y: 1\n");
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, t.buf, &list), 0);
	a = wg_map_get(list.items[0]->root, "a");
	ck_assert_uint_eq(a->len, 100002);
	ck_assert(wg_scalar_is(wg_map_get(a, "k7"), "own"));
	ck_assert(wg_scalar_is(wg_map_get(a, "k1"), "1"));
	ck_assert(wg_scalar_is(wg_map_get(a, "z"), "2"));
	/* order: own key, merged keys in source order, then the rest */
	ck_assert(wg_scalar_is(wg_map_key(a, 0), "k7"));
	ck_assert(wg_scalar_is(wg_map_key(a, 1), "k0"));
	ck_assert(wg_scalar_is(wg_map_key(a, 100000), "z"));
	ck_assert(wg_scalar_is(wg_map_key(a, 100001), "y"));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	wg_buf_release(&t);
}
END_TEST

START_TEST(document_and_scalar_caps)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ctx.limits.max_scalar_bytes = 8;
	ck_assert_int_eq(read_count(&ctx, "a: 12345678\n"), 1);
	ck_assert_int_eq(read_count(&ctx, "a: 1\nb: \"123456789\"\n"), -1);
	ck_assert_uint_eq(ctx.log.diags[0].line, 2);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "scalar"));
	wg_ctx_release(&ctx);

	wg_ctx_init(&ctx);
	ctx.limits.max_doc_bytes = 20;
	ck_assert_int_eq(read_count(&ctx, "a: 1\n---\nb: 2\n"), 2);
	ck_assert_int_eq(read_count(&ctx, "a: 1\n---\nb: [1, 2, 3, 4, 5, 6, "
				    "7, 8, 9]\n"), -1);
	ck_assert_uint_eq(ctx.log.diags[0].line, 2);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "document"));
	wg_ctx_release(&ctx);

	wg_ctx_init(&ctx);
	ctx.limits.max_documents = 3;
	ck_assert_int_eq(read_count(&ctx, "a: 1\n---\nb: 2\n"), 2);
	/* the count runs across inputs: 2 read, 2 more is 4 */
	ck_assert_int_eq(read_count(&ctx, "a: 1\n---\nb: 2\n"), -1);
	ck_assert_uint_eq(ctx.log.diags[0].line, 2);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "documents"));
	wg_ctx_release(&ctx);
}
END_TEST

/* fuzz_roundtrip: "-0." became JSON -0, which reads back as the int 0. */
START_TEST(json_negative_zero_float)
{
	static const char *const in[] = { "-0.", "-00.", "-0", "-0.0", "1." };
	static const char *const want[] = { "-0.0", "-0.0", "0", "-0.0", "1" };
	struct wg_buf out = WG_BUF_INIT;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		wg_buf_reset(&out);
		ck_assert_int_eq(wg_scalar_to_json(&out, in[i], strlen(in[i])),
				 0);
		ck_assert_str_eq(out.buf, want[i]);
	}
	wg_buf_release(&out);
}
END_TEST

START_TEST(limits_from_spec)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_limits_apply(&ctx, "depth=64,doc-bytes=2M,"
					 "regex-match=1k,,alias-nodes=10"), 0);
	ck_assert_uint_eq(ctx.limits.max_depth, 64);
	ck_assert_uint_eq(ctx.limits.max_doc_bytes, 2u << 20);
	ck_assert_uint_eq(ctx.limits.regex_match_limit, 1024);
	ck_assert_uint_eq(ctx.limits.max_alias_nodes, 10);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	/* bad items are errors; good ones around them still apply */
	ck_assert_int_eq(wg_limits_apply(&ctx, "depth=20000,documents=7,"
					 "size=1,scalar-bytes=0,input-bytes=-1,"
					 "regex-depth=5x,alias-nodes"), -1);
	ck_assert_uint_eq(ctx.limits.max_depth, 64);
	ck_assert_uint_eq(ctx.limits.max_documents, 7);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 6);
	ck_assert_str_eq(ctx.log.diags[0].message, "WINGEN_LIMITS: 'depth' "
			 "needs a number from 1 to 10000 (k, M, G suffixes "
			 "allowed)");
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[1].message,
				     "unknown limit 'size'"));
	wg_ctx_release(&ctx);
}
END_TEST

/*
 * fuzz_profile: "{}" as the first collection read made the reader compute
 * NULL + 0 (undefined; clang's UBSan stops there).  Run under the
 * sanitizer build to see it; here the result is checked too.
 */
START_TEST(empty_flow_mapping_first)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(read_count(&ctx, "{}\n"), 1);
	ck_assert_int_eq(read_count(&ctx, "[{}, {a: {}}]\n"), 1);
	wg_ctx_release(&ctx);
}
END_TEST

/*
 * fuzz_roundtrip: a core or local tag with a flow indicator after its
 * prefix was accepted, then written as "!!a,b", which libyaml cannot read.
 */
START_TEST(tag_with_flow_indicator)
{
	struct wg_ctx ctx;
	char *out;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(read_count(&ctx, "a: 1\nb: !<tag:yaml.org,2002:x,y> "
				    "c\n"), -1);
	ck_assert_uint_eq(ctx.log.diags[0].line, 2);
	ck_assert_uint_eq(ctx.log.diags[0].col, 4);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx),
				     "tag 'tag:yaml.org,2002:x,y' holds ','"));
	ck_assert_int_eq(read_count(&ctx, "!<!l{x> [1]\n"), -1);
	wg_ctx_release(&ctx);
	/* a verbatim tag keeps its commas and round-trips */
	out = t_roundtrip("a: !<tag:example.com,2000:x,y> b\n");
	ck_assert_str_eq(out, "a: !<tag:example.com,2000:x,y> b\n");
	free(out);
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("fuzz");

	tcase_add_test(tc, json_escapes_yaml_line_breaks);
	tcase_add_test(tc, json_quote_truncated_utf8);
	tcase_add_test(tc, json_negative_zero_float);
	tcase_add_test(tc, empty_flow_mapping_first);
	tcase_add_test(tc, tag_with_flow_indicator);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, depth_10000_flow_and_block);
	tcase_add_test(tc, depth_limit_configurable);
	tcase_add_test(tc, alias_cannot_exceed_depth);
	tcase_add_test(tc, billion_laughs);
	tcase_add_test(tc, merge_many_keys_is_fast);
	tcase_add_test(tc, document_and_scalar_caps);
	tcase_add_test(tc, limits_from_spec);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(hostile_suite)
