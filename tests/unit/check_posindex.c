/* migrate's position index: byte spans, lines, comments, layout, mapping
 * tree nodes to positions. */
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/migrate.h"
#include "wingen/yaml/reader.h"

static struct wg_pos_index ix;

static void build(const char *text)
{
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&ix, text, strlen(text), &err,
					    &line), 0);
}

static void teardown(void)
{
	wg_pos_index_release(&ix);
}

/* The text of a node's span. */
static char span[256];
static const char *text_of(const struct wg_pos_node *n)
{
	size_t len = n->end - n->start;

	ck_assert_uint_lt(len, sizeof(span));
	memcpy(span, ix.data + n->start, len);
	span[len] = '\0';
	return span;
}

static struct wg_pos_node *value(const struct wg_pos_node *m, const char *key)
{
	for (size_t i = 0; i < m->len; i++)
		if (strcmp(wg_pos_key(m, i)->text, key) == 0)
			return wg_pos_value(m, i);
	ck_abort_msg("no key '%s'", key);
	return NULL;
}

START_TEST(spans_are_bytes_not_characters)
{
	struct wg_pos_node *root, *m;

	build("a: \"qé\"  # ü\nb:\n  c: ü-ß\n  d: [1, {e: é}]\nf: x\n");
	root = ix.docs[0].root;
	ck_assert_str_eq(text_of(value(root, "a")), "\"qé\"");
	m = value(root, "b");
	ck_assert_str_eq(text_of(value(m, "c")), "ü-ß");
	ck_assert_str_eq(text_of(value(m, "d")), "[1, {e: é}]");
	/* a block collection ends with its last child, not at "f" */
	ck_assert_str_eq(text_of(m), "c: ü-ß\n  d: [1, {e: é}]");
	ck_assert_uint_eq(m->line, 2);
	ck_assert_uint_eq(m->end_line, 3);
	ck_assert_str_eq(text_of(value(root, "f")), "x");
	ck_assert_ptr_eq(value(m, "c")->parent, m);
}
END_TEST

START_TEST(crlf_bom_and_final_newline)
{
	struct wg_pos_node *root;

	build("\xef\xbb\xbf" "a: 1\r\nb: [x]\r\n");
	root = ix.docs[0].root;
	ck_assert_str_eq(ix.eol, "\r\n");
	ck_assert(ix.final_newline);
	ck_assert_uint_eq(ix.lines[0], 3);
	ck_assert_uint_eq(ix.lines[1], 9);
	ck_assert_str_eq(text_of(value(root, "a")), "1");
	ck_assert_str_eq(text_of(value(root, "b")), "[x]");
	ck_assert_uint_eq(wg_pos_next_line(&ix, 4), 9);
	teardown();

	build("a: 1\nb: 2");
	ck_assert_str_eq(ix.eol, "\n");
	ck_assert(!ix.final_newline);
	ck_assert_uint_eq(wg_pos_next_line(&ix, 6), 9);
	ck_assert_uint_eq(wg_pos_line_of(&ix, 8), 1);
}
END_TEST

START_TEST(empty_values_sit_after_their_indicator)
{
	struct wg_pos_node *root, *seq;

	build("a:   # c\nl:\n-\n- b\n-   # x\n  k: 1\n");
	root = ix.docs[0].root;
	ck_assert_uint_eq(value(root, "a")->start, 2);
	ck_assert_uint_eq(value(root, "a")->text_len, 0);
	seq = value(root, "l");
	ck_assert_uint_eq(seq->len, 3);
	ck_assert_ptr_nonnull(seq->dashes);
	/* the dashes of every item, past comments and empty items */
	ck_assert_uint_eq(seq->dashes[0], 12);
	ck_assert_uint_eq(seq->dashes[1], 14);
	ck_assert_uint_eq(seq->dashes[2], 18);
	ck_assert_uint_eq(seq->items[0]->start, 13);
	ck_assert_str_eq(text_of(seq->items[2]), "k: 1");
}
END_TEST

START_TEST(comment_lines_exclude_scalar_content)
{
	build("# top\na: |\n  # not a comment\n  text\n"
	      "b: \"x\n  # in quotes\"\n  # real\nc: 1\n");
	ck_assert(wg_pos_is_comment_line(&ix, 0));
	ck_assert(!wg_pos_is_comment_line(&ix, 1));
	ck_assert(!wg_pos_is_comment_line(&ix, 2));
	ck_assert(!wg_pos_is_comment_line(&ix, 5));
	ck_assert(wg_pos_is_comment_line(&ix, 6));
	ck_assert(!wg_pos_is_comment_line(&ix, 7));
	/* a block scalar's span ends after its last line */
	ck_assert_str_eq(text_of(value(ix.docs[0].root, "a")),
			 "|\n  # not a comment\n  text\n");
}
END_TEST

START_TEST(layout_is_detected)
{
	build("a:\n    b:\n        c: 1\n    l:\n        - x\n");
	ck_assert_uint_eq(ix.indent, 4);
	ck_assert(!ix.compact_seqs);
	teardown();
	build("a:\n  b: 1\n  l:\n  - x\n  m:\n  - y\n  n:\n    - z\n");
	ck_assert_uint_eq(ix.indent, 2);
	ck_assert(ix.compact_seqs);
	teardown();
	build("a: 1\n");
	ck_assert_uint_eq(ix.indent, 2);
	ck_assert(ix.compact_seqs);
}
END_TEST

START_TEST(documents_and_flags)
{
	struct wg_pos_node *root;

	build("# c\na: &x {b: 1}\n--- # two\nc: *x\nm:\n  <<: {d: 1}\n"
	      "t: !!str 5\n...\n---\n");
	ck_assert_uint_eq(ix.ndocs, 3);
	ck_assert(!ix.docs[0].explicit_start);
	ck_assert(ix.docs[1].explicit_start);
	ck_assert_uint_eq(ix.docs[1].start, 17);
	/* an empty document holds a null */
	ck_assert_uint_eq(ix.docs[2].root->text_len, 0);
	root = ix.docs[0].root;
	ck_assert_uint_eq(value(root, "a")->flags,
			  WG_POS_ANCHOR | WG_POS_FLOW);
	ck_assert_str_eq(text_of(value(root, "a")), "&x {b: 1}");
	root = ix.docs[1].root;
	ck_assert_int_eq(value(root, "c")->kind, WG_POS_ALIAS);
	ck_assert(value(root, "m")->flags & WG_POS_MERGE);
	ck_assert(value(root, "t")->flags & WG_POS_TAG);
	ck_assert_str_eq(text_of(value(root, "t")), "!!str 5");
}
END_TEST

START_TEST(tree_nodes_map_to_positions)
{
	static const char text[] =
		"base: &b {x: 1}\nm:\n  <<: *b\n  own: [a, b]\nref: *b\n";
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_pos_map map = { NULL, NULL, 0, 0 };
	struct wg_node *root;
	struct wg_pos_node *p;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	build(text);
	root = list.items[0]->root;
	wg_pos_map_add_tree(&map, root, ix.docs[0].root);
	p = wg_pos_map_get(&map, wg_path_get(root, "m.own.[1]"));
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(text_of(p), "b");
	p = wg_pos_map_get(&map, wg_map_key(wg_path_get(root, "m"), 1));
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(text_of(p), "own");
	/* x came in through "<<": it has no place of its own */
	ck_assert_ptr_null(wg_pos_map_get(&map, wg_path_get(root, "m.x")));
	/* an alias's copy maps to the alias, its inside to nothing */
	p = wg_pos_map_get(&map, wg_path_get(root, "ref"));
	ck_assert_int_eq(p->kind, WG_POS_ALIAS);
	ck_assert_ptr_null(wg_pos_map_get(&map, wg_path_get(root, "ref.x")));
	ck_assert_ptr_null(wg_pos_map_get(&map, NULL));
	wg_pos_map_release(&map);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(parse_errors_are_reported)
{
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&ix, "a: [1\nb: 2\n", 11, &err,
					    &line), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_ge(line, 1);
}
END_TEST

START_TEST(offsets_from_marks)
{
	build("ab: é\nçd: f\n");
	ck_assert_uint_eq(wg_pos_offset(&ix, 0, 4), 4);
	ck_assert_uint_eq(wg_pos_offset(&ix, 1, 0), 7);
	ck_assert_uint_eq(wg_pos_offset(&ix, 1, 1), 9);
	ck_assert_uint_eq(wg_pos_offset(&ix, 9, 0), ix.len);
}
END_TEST

static Suite *posindex_suite(void)
{
	Suite *s = suite_create("posindex");
	TCase *tc = tcase_create("index");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, spans_are_bytes_not_characters);
	tcase_add_test(tc, crlf_bom_and_final_newline);
	tcase_add_test(tc, empty_values_sit_after_their_indicator);
	tcase_add_test(tc, comment_lines_exclude_scalar_content);
	tcase_add_test(tc, layout_is_detected);
	tcase_add_test(tc, documents_and_flags);
	tcase_add_test(tc, tree_nodes_map_to_positions);
	tcase_add_test(tc, parse_errors_are_reported);
	tcase_add_test(tc, offsets_from_marks);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(posindex_suite)
