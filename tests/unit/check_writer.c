/* Writer: YAML round trip rules, JSON output, flow rendering. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/flow.h"
#include "wingen/yaml/writer.h"

static void same(const char *text)
{
	char *out = t_roundtrip(text);

	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, text);
	free(out);
}

static void becomes(const char *text, const char *want)
{
	char *out = t_roundtrip(text);

	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want);
	free(out);
}

/* text read, its "# Source:" comments found, written back. */
static void headed(const char *text, const char *want)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char *out;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	wg_resources_source_comments(&list, 0, list.len, &in, NULL);
	out = t_write(&ctx, &list);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want);
	free(out);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}

/* Helm's "# Source:" line heads its object's document again (Helm 3's
 * --show-only splits a post-rendered stream on it); no other comment is
 * kept, and a line of a scalar is never taken for one. */
START_TEST(source_comments_kept_on_their_objects)
{
	headed("---\n# Source: c/templates/a.yaml\na: 1\n---\n"
	       "# Source: c/templates/b.yaml\nb: 2\n",
	       "# Source: c/templates/a.yaml\na: 1\n---\n"
	       "# Source: c/templates/b.yaml\nb: 2\n");
	/* a template that rendered nothing; another comment; blank lines */
	headed("---\n# Source: c/e.yaml\n---\n# Source: c/b.yaml\n\n"
	       "# about b\nb: 2\n",
	       "# Source: c/b.yaml\nb: 2\n");
	/* a line of a block scalar, and a document with none */
	headed("a: |\n  x\n---\n# Source: c/b.yaml\nb: |\n  # Source: no\n"
	       "---\nc: 3\n",
	       "a: |\n  x\n---\n# Source: c/b.yaml\nb: |\n  # Source: no\n"
	       "---\nc: 3\n");
	/* after a block scalar that keeps its last line breaks, and a flow
	 * root */
	headed("a: |+\n  x\n\n---\n# Source: c/b.yaml\nb: 1\n---\n"
	       "# Source: c/f.yaml\n{f: 1}\n",
	       "a: |+\n  x\n\n---\n# Source: c/b.yaml\nb: 1\n---\n"
	       "# Source: c/f.yaml\n{f: 1}\n");
	/* a List's items each carry its document's; CRLF */
	headed("---\r\n# Source: c/l.yaml\r\napiVersion: v1\r\nkind: List\r\n"
	       "items:\r\n- {apiVersion: v1, kind: A}\r\n"
	       "- {apiVersion: v1, kind: B}\r\n",
	       "# Source: c/l.yaml\n{apiVersion: v1, kind: A}\n---\n"
	       "# Source: c/l.yaml\n{apiVersion: v1, kind: B}\n");
}
END_TEST

START_TEST(scalars_never_retyped)
{
	same("a: on\nb: yes\nc: \"0755\"\nd: 0755\ne: 1.10\n"
	     "f: 12345678901234567890\ng: ~\nh: 'single'\ni: \"on\"\nj: Off\n"
	     "k: 1e3\nl: .inf\nm: 2024-01-01\nn: 1:20\no: 0x1F\np: null\n"
	     "q: ''\nr: \"\"\ns: !!str 12\nt: !custom x\n");
}
END_TEST

START_TEST(block_scalars_and_flow_kept)
{
	same("script: |\n  echo one\n  echo two\nkeep: |+\n  x\n\n"
	     "strip: |-\n  y\nflow: {a: 1, b: [x, y]}\nseq: [1, 2]\n"
	     "empty_map: {}\nempty_seq: []\n");
}
END_TEST

START_TEST(documents_separated_not_led)
{
	becomes("---\na: 1\n---\nb: 2\n...\n---\nc: 3\n",
		"a: 1\n---\nb: 2\n---\nc: 3\n");
	becomes("", "");
	becomes("---\n# nothing\n", "");
}
END_TEST

START_TEST(block_sequences_compact)
{
	becomes("spec:\n  containers:\n    - name: a\n      image: b\n",
		"spec:\n  containers:\n  - name: a\n    image: b\n");
}
END_TEST

START_TEST(long_lines_not_folded_unicode_kept)
{
	struct wg_buf text = WG_BUF_INIT;

	wg_buf_addstr(&text, "a: ");
	for (int i = 0; i < 300; i++)
		wg_buf_addstr(&text, "word ");
	wg_buf_addstr(&text, "end\nb: \"h\xc3\xa9llo \xe2\x9c\x93\"\n");
	same(text.buf);
	wg_buf_release(&text);
}
END_TEST

START_TEST(empty_plain_in_flow_stays_null)
{
	becomes("a: {b: , c: 1}\n", "a: {b: ~, c: 1}\n");
	same("a:\nb: 1\n");
}
END_TEST

START_TEST(crlf_and_bom_normalised)
{
	becomes("\xef\xbb\xbf" "a: 1\r\nb:\r\n- x\r\n", "a: 1\nb:\n- x\n");
}
END_TEST

static char *to_json(const char *text, int *rc)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_buf out = WG_BUF_INIT;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	*rc = wg_write_resources(&ctx, &out, &list, WG_FORMAT_JSON);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return wg_buf_detach(&out, NULL);
}

START_TEST(json_uses_yaml11_types)
{
	int rc;
	char *out = to_json(
		"a: yes\nb: 'yes'\nc: 0755\nd: 1_000\ne: 0x1F\nf: .5\n"
		"g: 12345678901234567890\nh: ~\ni: \"tab\\there\"\nj: [on, off]\n"
		"k: |\n  x\nl: +1\nm: -0.50e+3\nn: 08\no: 0o17\np: !!int '7'\n"
		"q: 1.\nr: 2024-01-01\ns: \"\\u00e9\"\nt:\n---\nx: 1\n", &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out,
		"{\"a\":true,\"b\":\"yes\",\"c\":493,\"d\":1000,\"e\":31,"
		"\"f\":0.5,\"g\":12345678901234567890,\"h\":null,"
		"\"i\":\"tab\\there\",\"j\":[true,false],\"k\":\"x\\n\","
		"\"l\":1,\"m\":-0.50e+3,\"n\":8,\"o\":15,\"p\":7,\"q\":1,"
		"\"r\":\"2024-01-01\",\"s\":\"\xc3\xa9\",\"t\":null}\n"
		"{\"x\":1}\n");
	free(out);
}
END_TEST

START_TEST(json_rejects_infinity)
{
	int rc;
	char *out = to_json("a: .inf\n", &rc);

	ck_assert_int_eq(rc, -1);
	free(out);
}
END_TEST

START_TEST(flow_rendering)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_buf b = WG_BUF_INIT;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "a: {k: v, n: [1, 'x y', \"on\"]}\n"
				"b: |\n  two\n  lines\n", &list), 0);
	wg_node_to_flow(&b, list.items[0]->root);
	ck_assert_str_eq(b.buf, "{a: {k: v, n: [1, x y, \"on\"]}, "
			 "b: \"two\\nlines\\n\"}");
	wg_buf_release(&b);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(edited_tree_writes_new_nodes_block_style)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *spec, *sel;
	char *out;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "spec:\n  replicas: 1\n", &list), 0);
	spec = wg_map_get(list.items[0]->root, "spec");
	sel = wg_map_ensure_map(&list.arena, spec, "nodeSelector");
	wg_map_set(&list.arena, sel, "kubernetes.io/os",
		   wg_node_new_str(&list.arena, "windows"));
	wg_map_set(&list.arena, sel, "node.kubernetes.io/windows-build",
		   wg_node_new_str(&list.arena, "10.0.20348"));
	out = t_write(&ctx, &list);
	ck_assert_str_eq(out, "spec:\n  replicas: 1\n  nodeSelector:\n"
			 "    kubernetes.io/os: windows\n"
			 "    node.kubernetes.io/windows-build: \"10.0.20348\"\n");
	free(out);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* A document written piece by piece is the same text as its tree written
 * whole, and the sink gets all of it, in order. */
static int sink_into(void *data, const char *bytes, size_t len)
{
	wg_buf_add(data, bytes, len);
	return 0;
}

START_TEST(pieces_write_what_the_whole_tree_writes)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_buf whole = WG_BUF_INIT, stage = WG_BUF_INIT,
		      sunk = WG_BUF_INIT;
	struct wg_yaml_writer w;
	const struct wg_node *root;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in,
		"apiVersion: v1\nkind: Thing\nitems:\n- a: 1\n  b: [x, y]\n"
		"- \"q\": |\n    text\nresults:\n- message: 'it: is'\n"
		"  field: {path: spec}\n- message: two\n", &list), 0);
	root = list.items[0]->root;
	wg_yaml_writer_init(&w, &whole);
	ck_assert_int_eq(wg_yaml_writer_doc(&w, root), 0);
	ck_assert_int_eq(wg_yaml_writer_finish(&w), 0);
	wg_yaml_writer_release(&w);

	wg_yaml_writer_init(&w, &stage);
	wg_yaml_writer_set_sink(&w, sink_into, &sunk);
	ck_assert_int_eq(wg_yaml_writer_begin_doc(&w), 0);
	ck_assert_int_eq(wg_yaml_writer_begin_map(&w), 0);
	ck_assert_int_eq(wg_yaml_writer_key(&w, "apiVersion"), 0);
	ck_assert_int_eq(wg_yaml_writer_node(&w, root->u.items[1]), 0);
	ck_assert_int_eq(wg_yaml_writer_key(&w, "kind"), 0);
	ck_assert_int_eq(wg_yaml_writer_node(&w, root->u.items[3]), 0);
	ck_assert_int_eq(wg_yaml_writer_key(&w, "items"), 0);
	ck_assert_int_eq(wg_yaml_writer_node(&w, root->u.items[5]), 0);
	ck_assert_int_eq(wg_yaml_writer_key(&w, "results"), 0);
	ck_assert_int_eq(wg_yaml_writer_begin_seq(&w), 0);
	for (unsigned i = 0; i < root->u.items[7]->len; i++)
		ck_assert_int_eq(wg_yaml_writer_node(&w,
				 root->u.items[7]->u.items[i]), 0);
	ck_assert_int_eq(wg_yaml_writer_end_seq(&w), 0);
	ck_assert_int_eq(wg_yaml_writer_end_map(&w), 0);
	ck_assert_int_eq(wg_yaml_writer_end_doc(&w), 0);
	ck_assert_int_eq(wg_yaml_writer_finish(&w), 0);
	wg_yaml_writer_release(&w);

	ck_assert_uint_gt(whole.len, 0);
	ck_assert_uint_eq(sunk.len, whole.len);
	ck_assert_int_eq(memcmp(sunk.buf, whole.buf, whole.len), 0);
	wg_buf_release(&whole);
	wg_buf_release(&stage);
	wg_buf_release(&sunk);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* A built tree as JSON: one line, or indented with a sequence of
 * scalars kept on one; typed by style; .inf refused. */
START_TEST(json_tree_compact_and_indented)
{
	struct wg_arena a;
	struct wg_buf out = WG_BUF_INIT;
	struct wg_node *m, *list, *items, *one;

	wg_arena_init(&a);
	m = wg_node_new_map(&a);
	wg_map_set(&a, m, "name", wg_node_new_str(&a, "true"));
	wg_map_set(&a, m, "count", wg_node_new_plain(&a, "3"));
	list = wg_map_set(&a, m, "tags", wg_node_new_seq(&a));
	wg_seq_append(&a, list, wg_node_new_str(&a, "a\"b"));
	wg_seq_append(&a, list, wg_node_new_plain(&a, "false"));
	items = wg_map_set(&a, m, "items", wg_node_new_seq(&a));
	one = wg_node_new_map(&a);
	wg_map_set(&a, one, "k", wg_node_new_str(&a, "v"));
	wg_seq_append(&a, items, one);
	wg_map_set(&a, m, "none", wg_node_new_map(&a));

	ck_assert_int_eq(wg_json_write_tree(&out, m, 0), 0);
	ck_assert_str_eq(out.buf, "{\"name\":\"true\",\"count\":3,"
			 "\"tags\":[\"a\\\"b\",false],"
			 "\"items\":[{\"k\":\"v\"}],\"none\":{}}\n");
	wg_buf_reset(&out);
	ck_assert_int_eq(wg_json_write_tree(&out, m, 2), 0);
	ck_assert_str_eq(out.buf, "{\n"
			 "  \"name\": \"true\",\n"
			 "  \"count\": 3,\n"
			 "  \"tags\": [\"a\\\"b\", false],\n"
			 "  \"items\": [\n"
			 "    {\n"
			 "      \"k\": \"v\"\n"
			 "    }\n"
			 "  ],\n"
			 "  \"none\": {}\n"
			 "}\n");
	wg_buf_reset(&out);
	wg_map_set(&a, m, "bad", wg_node_new_plain(&a, ".inf"));
	ck_assert_int_eq(wg_json_write_tree(&out, m, 2), -1);
	wg_buf_release(&out);
	wg_arena_release(&a);
}
END_TEST

/* A text written a piece at a time: the same layout as a whole tree;
 * a close without an open, or an open left open, fails the end. */
START_TEST(json_pieces_as_the_whole_tree)
{
	struct wg_arena a;
	struct wg_buf whole = WG_BUF_INIT, pieces = WG_BUF_INIT;
	struct wg_node *m, *list, *item;
	struct wg_json_out j;

	wg_arena_init(&a);
	m = wg_node_new_map(&a);
	wg_map_set(&a, m, "kind", wg_node_new_str(&a, "Report"));
	list = wg_map_set(&a, m, "items", wg_node_new_seq(&a));
	item = wg_node_new_map(&a);
	wg_map_set(&a, item, "n", wg_node_new_plain(&a, "1"));
	wg_seq_append(&a, list, item);
	wg_seq_append(&a, list, item);
	wg_map_set(&a, m, "none", wg_node_new_seq(&a));
	ck_assert_int_eq(wg_json_write_tree(&whole, m, 2), 0);

	wg_json_begin(&j, &pieces, 2);
	wg_json_open(&j, '{');
	wg_json_key(&j, "kind");
	wg_json_value(&j, wg_node_new_str(&a, "Report"));
	wg_json_key(&j, "items");
	wg_json_open(&j, '[');
	wg_json_value(&j, item);
	wg_json_value(&j, item);
	wg_json_close(&j);
	wg_json_key(&j, "none");
	wg_json_open(&j, '[');
	wg_json_close(&j);
	wg_json_close(&j);
	ck_assert_int_eq(wg_json_end(&j), 0);
	ck_assert_str_eq(pieces.buf, whole.buf);

	wg_buf_reset(&pieces);
	wg_json_begin(&j, &pieces, 0);
	wg_json_open(&j, '[');
	ck_assert_int_eq(wg_json_end(&j), -1);
	wg_json_begin(&j, &pieces, 0);
	wg_json_close(&j);
	ck_assert_int_eq(wg_json_end(&j), -1);
	wg_json_begin(&j, &pieces, 0);
	wg_json_value(&j, wg_node_new_plain(&a, ".nan"));
	ck_assert_int_eq(wg_json_end(&j), -1);
	wg_buf_release(&whole);
	wg_buf_release(&pieces);
	wg_arena_release(&a);
}
END_TEST

static Suite *writer_suite(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, source_comments_kept_on_their_objects);
	tcase_add_test(tc, scalars_never_retyped);
	tcase_add_test(tc, block_scalars_and_flow_kept);
	tcase_add_test(tc, documents_separated_not_led);
	tcase_add_test(tc, block_sequences_compact);
	tcase_add_test(tc, long_lines_not_folded_unicode_kept);
	tcase_add_test(tc, empty_plain_in_flow_stays_null);
	tcase_add_test(tc, crlf_and_bom_normalised);
	tcase_add_test(tc, json_uses_yaml11_types);
	tcase_add_test(tc, json_rejects_infinity);
	tcase_add_test(tc, flow_rendering);
	tcase_add_test(tc, edited_tree_writes_new_nodes_block_style);
	tcase_add_test(tc, pieces_write_what_the_whole_tree_writes);
	tcase_add_test(tc, json_tree_compact_and_indented);
	tcase_add_test(tc, json_pieces_as_the_whole_tree);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(writer_suite)
