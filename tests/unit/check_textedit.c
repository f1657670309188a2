/* migrate's text edits and the rendering of new values. */
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/migrate.h"

static struct wg_edits edits;
static struct wg_buf out;

static void setup(void)
{
	memset(&edits, 0, sizeof(edits));
	wg_buf_init(&out);
}

static void teardown(void)
{
	wg_edits_release(&edits);
	wg_buf_release(&out);
}

static void add(size_t start, size_t end, const char *text)
{
	wg_edits_add(&edits, start, end, text, text ? strlen(text) : 0);
}

static const char *apply(const char *data)
{
	wg_buf_reset(&out);
	if (wg_edits_apply(&edits, data, strlen(data), &out))
		return NULL;
	return out.buf;
}

START_TEST(insert_replace_delete)
{
	add(6, 6, "X");
	add(0, 1, "A");
	add(3, 5, NULL);
	ck_assert_str_eq(apply("abcdefgh"), "AbcfXgh");
}
END_TEST

START_TEST(insertions_at_one_offset_keep_their_order)
{
	add(2, 2, "1");
	add(2, 4, NULL);	/* a deletion starting there comes after */
	add(2, 2, "2");
	add(4, 4, "3");
	ck_assert_str_eq(apply("abcdef"), "ab123ef");
}
END_TEST

START_TEST(deletions_may_overlap)
{
	add(1, 5, NULL);
	add(3, 7, NULL);
	add(4, 6, NULL);
	add(8, 8, "!");
	ck_assert_str_eq(apply("0123456789"), "07!89");
}
END_TEST

START_TEST(other_overlaps_fail)
{
	wg_buf_addstr(&out, "keep");
	add(1, 5, NULL);
	add(3, 3, "x");	/* inside a deletion */
	ck_assert_int_eq(wg_edits_apply(&edits, "0123456789", 10, &out), -1);
	ck_assert_str_eq(out.buf, "keep");
	teardown();
	setup();
	add(1, 5, "r");
	add(3, 7, NULL);	/* into a replacement */
	ck_assert_ptr_null(apply("0123456789"));
	teardown();
	setup();
	add(8, 12, "r");	/* past the end */
	ck_assert_ptr_null(apply("0123456789"));
}
END_TEST

START_TEST(empty_edits_are_dropped)
{
	add(3, 3, NULL);
	ck_assert_uint_eq(edits.len, 0);
	ck_assert_str_eq(apply("abc"), "abc");
}
END_TEST

/* ---- rendering ---------------------------------------------------------- */

static struct wg_arena arena;

static struct wg_node *parse(const char *text, struct wg_resources *list,
			     struct wg_input *in, struct wg_ctx *ctx)
{
	wg_ctx_init(ctx);
	wg_resources_init(list);
	ck_assert_int_eq(t_read(ctx, in, text, list), 0);
	return list->items[0]->root;
}

static const char *scalar(const struct wg_node *n, bool flow)
{
	wg_buf_reset(&out);
	wg_render_scalar(&out, n, flow);
	return out.buf;
}

START_TEST(scalars_quoted_as_the_writer_would)
{
	wg_arena_init(&arena);
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "windows"), false),
			 "windows");
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "10.0.20348"), false),
			 "\"10.0.20348\"");
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "yes"), false),
			 "\"yes\"");
	ck_assert_str_eq(scalar(wg_node_new_plain(&arena, "true"), false),
			 "true");
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "a,b"), false), "a,b");
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "a,b"), true),
			 "\"a,b\"");
	ck_assert_str_eq(scalar(wg_node_new_str(&arena, "two\nlines"), false),
			 "\"two\\nlines\"");
	ck_assert_str_eq(scalar(wg_node_new_scalar(&arena, "it's", 4,
						   WG_STYLE_SINGLE), false),
			 "'it''s'");
	ck_assert_str_eq(scalar(wg_node_new_scalar(&arena, "x\n", 2,
						   WG_STYLE_LITERAL), false),
			 "\"x\\n\"");
	ck_assert_str_eq(scalar(wg_node_new_plain(&arena, ""), false), "");
	ck_assert_str_eq(scalar(wg_node_new_plain(&arena, ""), true), "~");
	ck_assert_str_eq(scalar(wg_node_new_at(&arena, WG_NODE_SCALAR,
					"tag:yaml.org,2002:str", 0, 0), false),
			 "!!str ");
	wg_arena_release(&arena);
}
END_TEST

START_TEST(replacements_keep_the_old_quoting)
{
	struct wg_node *n;

	wg_arena_init(&arena);
	n = wg_node_new_str(&arena, "windows");
	wg_render_scalar_as(&out, n, WG_STYLE_SINGLE);
	wg_buf_addch(&out, ' ');
	wg_render_scalar_as(&out, n, WG_STYLE_DOUBLE);
	wg_buf_addch(&out, ' ');
	wg_render_scalar_as(&out, n, WG_STYLE_PLAIN);
	wg_buf_addch(&out, ' ');
	wg_render_scalar_as(&out, n, WG_STYLE_LITERAL);
	wg_buf_addch(&out, ' ');
	/* a typed value stays typed, a string that needs quotes gets them */
	wg_render_scalar_as(&out, wg_node_new_plain(&arena, "3"),
			    WG_STYLE_DOUBLE);
	wg_buf_addch(&out, ' ');
	wg_render_scalar_as(&out, wg_node_new_str(&arena, "3"),
			    WG_STYLE_PLAIN);
	wg_buf_addch(&out, ' ');
	wg_render_scalar_as(&out, wg_node_new_str(&arena, "a\tb"),
			    WG_STYLE_SINGLE);
	ck_assert_str_eq(out.buf, "'windows' \"windows\" windows windows 3 "
			 "\"3\" \"a\\tb\"");
	wg_arena_release(&arena);
}
END_TEST

START_TEST(blocks_in_the_file_layout)
{
	struct wg_render_style st = { 4, false, "\r\n", false, 4 };
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;
	struct wg_node *root = parse("k:\n  a: 1\n  l:\n  - x\n  - {y: z}\n"
				     "  e: []\n  n:\n", &list, &in, &ctx);

	wg_render_pair(&out, &st, wg_map_key(root, 0), wg_map_value(root, 0),
		       2);
	ck_assert_str_eq(out.buf, "k:\r\n      a: 1\r\n      l:\r\n"
			 "          - x\r\n          - {y: z}\r\n"
			 "      e: []\r\n      n:\r\n");
	/* a mapping item: its keys 4 past the dash, as "-   key" */
	wg_buf_reset(&out);
	wg_render_item(&out, &st, wg_map_value(root, 0), 2);
	ck_assert_str_eq(out.buf, "   a: 1\r\n      l:\r\n"
			 "          - x\r\n          - {y: z}\r\n"
			 "      e: []\r\n      n:\r\n");
	wg_buf_reset(&out);
	st.compact_seqs = true;
	st.indent = 2;
	st.eol = "\n";
	st.flow_pad = true;
	st.item_indent = 2;
	wg_render_item(&out, &st, wg_map_value(root, 0), 0);
	ck_assert_str_eq(out.buf, " a: 1\n  l:\n  - x\n  - { y: z }\n"
			 "  e: []\n  n:\n");
	ck_assert(!wg_render_is_inline(wg_map_value(root, 0)));
	ck_assert(wg_render_is_inline(wg_path_get(root, "k.e")));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(sequences_of_sequences)
{
	struct wg_render_style st = { 2, true, "\n", false, 2 };
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;
	struct wg_node *root = parse("k:\n- - a\n  - b\n- c\n", &list, &in,
				     &ctx);

	wg_render_value(&out, &st, wg_map_value(root, 0), 4);
	ck_assert_str_eq(out.buf, "\n    - - a\n      - b\n    - c\n");
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *textedit_suite(void)
{
	Suite *s = suite_create("textedit");
	TCase *tc = tcase_create("edits");
	TCase *tr = tcase_create("render");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, insert_replace_delete);
	tcase_add_test(tc, insertions_at_one_offset_keep_their_order);
	tcase_add_test(tc, deletions_may_overlap);
	tcase_add_test(tc, other_overlaps_fail);
	tcase_add_test(tc, empty_edits_are_dropped);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tr, setup, teardown);
	tcase_add_test(tr, scalars_quoted_as_the_writer_would);
	tcase_add_test(tr, replacements_keep_the_old_quoting);
	tcase_add_test(tr, blocks_in_the_file_layout);
	tcase_add_test(tr, sequences_of_sequences);
	suite_add_tcase(s, tr);
	return s;
}

WG_TEST_MAIN(textedit_suite)
