/*
 * One input read in pieces on threads (read_split.h) gives what one reader
 * gives: the same resources, trees, positions, files, indices, document
 * count; and, for what it does not cut (errors, limits, JSON,
 * directives), the same diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/yaml/read_split.h"
#include "wingen/yaml/reader.h"

/* Same tree, and every node at the same position. */
static void assert_same_tree(const struct wg_node *a, const struct wg_node *b,
			     const char *what)
{
	ck_assert_msg(a->kind == b->kind, "%s: kind", what);
	ck_assert_msg(wg_node_has_pos(a) == wg_node_has_pos(b),
		      "%s: position kept", what);
	if (wg_node_has_pos(a))
		ck_assert_msg(wg_node_line(a) == wg_node_line(b)
			      && wg_node_col(a) == wg_node_col(b),
			      "%s: at %u:%u, not %u:%u", what,
			      wg_node_line(b) + 1, wg_node_col(b) + 1,
			      wg_node_line(a) + 1, wg_node_col(a) + 1);
	if (a->kind == WG_NODE_SCALAR) {
		ck_assert_msg(a->len == b->len && a->style == b->style
			      && memcmp(a->u.str, b->u.str, a->len) == 0,
			      "%s: scalar '%.*s' is '%.*s'", what, (int)a->len,
			      a->u.str, (int)b->len, b->u.str);
		return;
	}
	ck_assert_msg(a->len == b->len, "%s: length", what);
	for (size_t i = 0; i < (a->kind == WG_NODE_MAP ? 2u : 1u) * a->len; i++)
		assert_same_tree(a->u.items[i], b->u.items[i], what);
}

/* A whole read: the list, the context and the status. */
struct read {
	struct wg_ctx ctx;
	struct wg_resources list;
	int rc;
};

static void read_with(struct read *r, const struct wg_input *in,
		      unsigned jobs, size_t min_piece, size_t max_documents)
{
	wg_ctx_init(&r->ctx);
	if (max_documents)
		r->ctx.limits.max_documents = max_documents;
	wg_resources_init(&r->list);
	r->list.share_keys = true;
	r->rc = jobs ? wg_read_stream_split(&r->ctx, in, &r->list, jobs,
					    min_piece)
		     : wg_read_stream(&r->ctx, in, &r->list);
}

static void read_release(struct read *r)
{
	wg_resources_release(&r->list);
	wg_ctx_release(&r->ctx);
}

static void assert_same_read(const struct read *one, const struct read *cut,
			     const char *name)
{
	ck_assert_msg(one->rc == cut->rc, "%s: status %d, not %d", name,
		      cut->rc, one->rc);
	ck_assert_msg(one->ctx.documents == cut->ctx.documents,
		      "%s: %zu documents, not %zu", name, cut->ctx.documents,
		      one->ctx.documents);
	ck_assert_msg(one->ctx.log.ndiags == cut->ctx.log.ndiags,
		      "%s: %zu diagnostics, not %zu", name,
		      cut->ctx.log.ndiags, one->ctx.log.ndiags);
	for (size_t i = 0; i < one->ctx.log.ndiags; i++) {
		const struct wg_diag *a = &one->ctx.log.diags[i];
		const struct wg_diag *b = &cut->ctx.log.diags[i];

		ck_assert_msg(a->line == b->line && a->col == b->col
			      && !strcmp(a->message, b->message),
			      "%s: '%u:%u: %s', not '%u:%u: %s'", name,
			      b->line, b->col, b->message, a->line, a->col,
			      a->message);
	}
	ck_assert_msg(one->list.len == cut->list.len, "%s: %zu resources, not "
		      "%zu", name, cut->list.len, one->list.len);
	for (size_t i = 0; i < one->list.len; i++) {
		const struct wg_resource *a = one->list.items[i];
		const struct wg_resource *b = cut->list.items[i];

		ck_assert_msg(a->index == b->index, "%s: resource %zu has "
			      "index %u, not %u", name, i, b->index, a->index);
		ck_assert_str_eq(a->file, b->file);
		ck_assert_uint_eq(a->flags, b->flags);
		assert_same_tree(a->root, b->root, name);
	}
}

/* text read by one reader (status rc), then cut in every way: the same. */
static void assert_cuts_agree(const char *name, const char *text, int rc)
{
	struct wg_input in;
	struct read one;

	t_input(&in, name, text);
	read_with(&one, &in, 0, 0, 0);
	ck_assert_msg(one.rc == rc, "%s: read with status %d", name, one.rc);
	for (unsigned jobs = 2; jobs <= 17; jobs += 5) {
		struct read cut;

		read_with(&cut, &in, jobs, 1, 0);
		assert_same_read(&one, &cut, name);
		read_release(&cut);
	}
	read_release(&one);
	wg_input_release(&in);
}

START_TEST(cut_points)
{
	static const char s[] =
		"a: 1\n"		/* 0 */
		"----\n"		/* 5: not a marker */
		"b: '---'\n"		/* 10 */
		"--- # c\n"		/* 19: a cut */
		"c: 1\n"		/* 27 */
		"%YAML 1.1\n"		/* 32 */
		"# between\n"		/* 42 */
		"---\n"			/* 52: after a directive */
		"d: 1\n"		/* 56 */
		"---\r\n"		/* 61: CRLF */
		"e: |\n  ---\n"		/* 66 */
		"---";			/* 77: at the end */
	size_t len = sizeof(s) - 1;

	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 0), 19);
	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 1), 19);
	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 19), 19);
	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 20), 61);
	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 62), 77);
	ck_assert_uint_eq(wg_read_split_next_cut(s, len, 78), 0);
	ck_assert_uint_eq(wg_read_split_next_cut("a: 1\n", 5, 0), 0);
}
END_TEST

START_TEST(streams_agree)
{
	char *rt;

	assert_cuts_agree("plain.yaml",
		"a: 1\n---\nb: 2\n---\n---\nc: [1, 2]\n...\n---\nd: {e: f}\n", 0);
	assert_cuts_agree("lists.yaml",
		"apiVersion: v1\nkind: List\nitems:\n- kind: A\n- kind: B\n"
		"---\n---\nkind: C\n---\napiVersion: v1\nkind: ConfigMapList\n"
		"items: [{kind: D}, {kind: E}]\n---\nkind: F\n", 0);
	assert_cuts_agree("blocks.yaml",
		"a: |\n  text\n  ---\n  more\n---\nb: >-\n  folded\n---\n"
		"--- |\n  root literal\n---\nc: &x {k: v}\nd: *x\n---\n"
		"e: !!str 0755\nf: \"multi\n  line\"\n---\n<<: {m: 1}\nn: 2\n", 0);
	assert_cuts_agree("crlf.yaml",
		"a: 1\r\n---\r\nb: 2\r\n---\r\nc: 3\r\n", 0);
	assert_cuts_agree("bom.yaml", "\xef\xbb\xbf" "a: 1\n---\nb: \xc3\xa9\n"
		"---\nc: 'caf\xc3\xa9'\n", 0);
	assert_cuts_agree("directive.yaml",
		"a: 1\n---\nb: 2\n%YAML 1.1\n---\nc: !!str 3\n---\nd: 4\n", 0);
	assert_cuts_agree("json.yaml", "{\"a\": 1}\n{\"b\": [2]}\n", 0);
	/* found by fuzz_roundtrip: a tagged empty root, "---~" (no marker) */
	assert_cuts_agree("fuzz1.yaml",
		"#---\n a\n---\n~rsio4ly\n---\name: a\n---\n!\na-c\r e:-y\n"
		"---~\n--- \nn1_000-\n z#", 0);
	/* libyaml counts a lone CR, NEL, LS and PS as line breaks */
	rt = t_roundtrip("a: \"x\xc2\x85y\"\n---\nb: 1\r---\n"
			 "c: 2\r\r\n---\nd: \"p\xe2\x80\xa8q\"\n");
	ck_assert_ptr_nonnull(rt);	/* valid: the cuts are compared */
	free(rt);
	assert_cuts_agree("breaks.yaml",
		"a: \"x\xc2\x85y\"\n---\nb: 1\r---\nc: 2\r\r\n---\n"
		"d: \"p\xe2\x80\xa8q\xe2\x80\xa9r\"\n---\ne: 3\n---\nf: 4\n", 0);
	assert_cuts_agree("comments.yaml",
		"# head\n---\n# only a comment\n---\na: 1 # x\n---\n\n\n---\n", 0);
}
END_TEST

/* Broken input: the one reader's diagnostics, wherever the error is. */
START_TEST(errors_agree)
{
	assert_cuts_agree("broken-late.yaml",
		"a: 1\n---\nb: 2\n---\nc: [1,\n---\nd: 4\n", -1);
	assert_cuts_agree("broken-early.yaml",
		"a: [\n---\nb: 2\n---\nc: 3\n", -1);
	assert_cuts_agree("quoted.yaml",
		"a: 1\n---\nb: \"one\n---\ntwo\"\n---\nc: 3\n", -1);
	assert_cuts_agree("duplicate.yaml",
		"a: 1\n---\nb: 2\nb: 3\n---\nc: 4\n", -1);
	assert_cuts_agree("tabs.yaml", "a: 1\n---\nb:\n\tc: 2\n---\nd: 3\n", -1);
}
END_TEST

/* The document limit counts every piece's documents. */
START_TEST(document_limit)
{
	struct wg_buf text = WG_BUF_INIT;
	struct wg_input in;
	struct read one, cut;

	for (int i = 0; i < 30; i++)
		wg_buf_addf(&text, "---\nn: %d\n", i);
	t_input(&in, "many.yaml", text.buf);
	read_with(&one, &in, 0, 0, 25);
	ck_assert_int_eq(one.rc, -1);
	read_with(&cut, &in, 4, 1, 25);
	assert_same_read(&one, &cut, "many.yaml");
	read_release(&cut);
	read_release(&one);
	read_with(&one, &in, 0, 0, 30);
	ck_assert_int_eq(one.rc, 0);
	read_with(&cut, &in, 4, 1, 30);
	assert_same_read(&one, &cut, "many.yaml");
	read_release(&cut);
	read_release(&one);
	wg_input_release(&in);
	wg_buf_release(&text);
}
END_TEST

/* One corpus file: one reader against pieces cut wherever they can be. */
static void split_file(const char *path, const struct wg_input *in,
		       void *data)
{
	struct read one, cut;

	(void)data;
	read_with(&one, in, 0, 0, 0);
	read_with(&cut, in, 3, 1, 0);
	assert_same_read(&one, &cut, path);
	read_release(&cut);
	read_release(&one);
}

/* Every real manifest, cut wherever a document starts. */
START_TEST(corpus_agrees)
{
	size_t files = t_each_corpus_file(split_file, NULL);

	ck_assert(files == 0 || files > 100);
}
END_TEST


/* Many inputs on threads (wg_read_streams_jobs) against one reader after
 * another: the same list, messages and limit, broken ones included. */
static void assert_many_agree(const char *const *texts, size_t n,
			      size_t max_documents)
{
	struct wg_input *ins = wg_xcalloc(n, sizeof(*ins));
	struct read one, many;
	char name[32];

	for (size_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "f%zu.yaml", k);
		t_input(&ins[k], name, texts[k]);
	}
	for (unsigned jobs = 2; jobs <= 9; jobs += 7) {
		wg_ctx_init(&one.ctx);
		wg_resources_init(&one.list);
		one.list.share_keys = true;
		one.rc = 0;
		if (max_documents)
			one.ctx.limits.max_documents = max_documents;
		for (size_t k = 0; k < n; k++)
			if (wg_read_stream(&one.ctx, &ins[k], &one.list))
				one.rc = -1;
		wg_ctx_init(&many.ctx);
		wg_resources_init(&many.list);
		many.list.share_keys = true;
		if (max_documents)
			many.ctx.limits.max_documents = max_documents;
		many.rc = wg_read_streams_jobs(&many.ctx, ins, n, &many.list,
					       jobs);
		assert_same_read(&one, &many, "inputs");
		read_release(&many);
		read_release(&one);
	}
	for (size_t k = 0; k < n; k++)
		wg_input_release(&ins[k]);
	free(ins);
}

START_TEST(many_inputs_agree)
{
	const char *good[] = { "a: 1\n", "---\nb: 2\n---\nc: 3\n", "",
			       "kind: List\napiVersion: v1\nitems:\n- x: 1\n",
			       "d: 4\n", "e: 5\n", "f: [6]\n" };
	const char *bad[] = { "a: 1\n", "b: [\n", "c: 3\n", "d: 1\nd: 2\n",
			      "e: 5\n" };

	assert_many_agree(good, sizeof(good) / sizeof(good[0]), 0);
	assert_many_agree(bad, sizeof(bad) / sizeof(bad[0]), 0);
	assert_many_agree(good, sizeof(good) / sizeof(good[0]), 4);
}
END_TEST

/* Many small inputs on threads end up in a few arena blocks, one arena a
 * thread, not one an input (a block of 16 KiB each at least: 50,000
 * files of 4 KB held twice the memory of one thread's read). */
START_TEST(many_small_inputs_few_blocks)
{
	enum { N = 400 };
	struct wg_input *ins = wg_xcalloc(N, sizeof(*ins));
	struct wg_resources list;
	struct wg_ctx ctx;
	size_t blocks = 0;
	char name[32];

	for (size_t k = 0; k < N; k++) {
		snprintf(name, sizeof(name), "f%zu.yaml", k);
		t_input(&ins[k], name, "apiVersion: v1\nkind: ConfigMap\n"
			"metadata:\n  name: c\ndata:\n  k: v\n");
	}
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	list.share_keys = true;
	ck_assert_int_eq(wg_read_streams_jobs(&ctx, ins, N, &list, 4), 0);
	ck_assert_uint_eq(list.len, N);
	for (size_t k = 0; k < N; k++)
		ck_assert_str_eq(list.items[k]->file, ins[k].name);
	for (const struct wg_arena_block *b = list.arena.head; b; b = b->next)
		blocks++;
	ck_assert_msg(blocks <= 4 * 8, "%zu blocks for %d inputs", blocks, N);
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
	for (size_t k = 0; k < N; k++)
		wg_input_release(&ins[k]);
	free(ins);
}
END_TEST

static Suite *read_split_suite(void)
{
	Suite *s = suite_create("read_split");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, cut_points);
	tcase_add_test(tc, streams_agree);
	tcase_add_test(tc, errors_agree);
	tcase_add_test(tc, document_limit);
	tcase_add_test(tc, corpus_agrees);
	tcase_add_test(tc, many_inputs_agree);
	tcase_add_test(tc, many_small_inputs_few_blocks);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(read_split_suite)
