/*
 * The stream written in batches on threads (emit_stream.h) is byte for
 * byte the stream one emitter writes, however it is cut; a document
 * libyaml refuses stops it there; a failing sink stops it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/yaml/emit_stream.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

/* Documents that leave libyaml's emitter in different states. */
static const char tricky[] =
	"a: 1\n"
	"---\nplain root scalar\n"
	"---\nkeep: |+\n  kept\n\n\n"
	"---\n{flow: map, list: [x, y]}\n"
	"---\n- item\n- {k: v}\n- [nested]\n"
	"---\n|\n  literal root\n"
	"---\n!custom tagged: !!str 0755\n"
	"---\nfolded: >-\n  some folded\n  text\n"
	"---\n'quoted root'\n"
	"---\nlast: |+\n  open at the end\n\n";

/* Collects what the sink is given. */
struct collect {
	struct wg_buf text;
	unsigned calls;
	unsigned fail_at;	/* return 5 on this call (1-based); 0: never */
};

static int collect_sink(void *data, const char *bytes, size_t len)
{
	struct collect *c = data;

	if (++c->calls == c->fail_at)
		return 5;
	wg_buf_add(&c->text, bytes, len);
	return 0;
}

/* Every batch size and thread count gives the one-emitter bytes. */
static void assert_every_cut(const struct wg_resources *list,
			     const char *expect, size_t max_batch)
{
	for (size_t batch = 1; batch <= max_batch; batch++)
		for (unsigned jobs = 1; jobs <= 3; jobs++) {
			struct collect c = { WG_BUF_INIT, 0, 0 };
			struct wg_emit_failure fail;

			ck_assert_int_eq(wg_emit_yaml_batches(list, jobs, batch,
						collect_sink, &c, &fail), 0);
			if (strcmp(c.text.buf, expect) != 0) {
				size_t at = 0;

				while (c.text.buf[at] == expect[at])
					at++;
				at = at > 40 ? at - 40 : 0;
				ck_abort_msg("batch %zu, %u threads: from byte "
					     "%zu got\n%.120s\nexpected\n%.120s",
					     batch, jobs, at, c.text.buf + at,
					     expect + at);
			}
			wg_buf_release(&c.text);
		}
}

START_TEST(tricky_documents_every_cut)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char *expect;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, tricky, &list), 0);
	ck_assert_uint_eq(list.len, 10);
	expect = t_write(&ctx, &list);
	ck_assert_ptr_nonnull(expect);
	/* the open block scalar at the end is closed by the stream's end */
	ck_assert_ptr_nonnull(strstr(expect, "kept\n\n\n--- {flow"));
	ck_assert_ptr_nonnull(strstr(expect, "open at the end\n\n...\n"));
	assert_every_cut(&list, expect, list.len + 1);
	free(expect);

	/* deleted documents are skipped, wherever the cuts fall */
	list.items[0]->flags |= WG_RES_DELETED;
	list.items[4]->flags |= WG_RES_DELETED;
	list.items[9]->flags |= WG_RES_DELETED;
	expect = t_write(&ctx, &list);
	ck_assert_ptr_null(strstr(expect, "open at the end"));
	assert_every_cut(&list, expect, list.len);
	free(expect);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(empty_and_single)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct collect c = { WG_BUF_INIT, 0, 0 };
	struct wg_emit_failure fail;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(wg_emit_yaml_stream(&list, 4, collect_sink, &c,
					     &fail), 0);
	ck_assert_uint_eq(c.text.len, 0);
	ck_assert_int_eq(t_read(&ctx, &in, "only: one\n", &list), 0);
	ck_assert_int_eq(wg_emit_yaml_stream(&list, 4, collect_sink, &c,
					     &fail), 0);
	ck_assert_str_eq(c.text.buf, "only: one\n");
	wg_buf_release(&c.text);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* Many documents: every thread has work; compared with one emitter. */
START_TEST(many_documents_many_threads)
{
	struct wg_buf text = WG_BUF_INIT;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char *expect;

	for (int i = 0; i < 3000; i++)
		wg_buf_addf(&text, "---\nkind: ConfigMap\nmetadata: {name: "
			    "cm-%d}\ndata:\n  k: |+\n    v%d\n\n", i, i);
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text.buf, &list), 0);
	expect = t_write(&ctx, &list);
	for (unsigned jobs = 1; jobs <= WG_EMIT_MAX_JOBS + 1; jobs += 3) {
		struct collect c = { WG_BUF_INIT, 0, 0 };
		struct wg_emit_failure fail;

		ck_assert_int_eq(wg_emit_yaml_stream(&list, jobs, collect_sink,
						     &c, &fail), 0);
		ck_assert_str_eq(c.text.buf, expect);
		wg_buf_release(&c.text);
	}
	free(expect);
	wg_buf_release(&text);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* One corpus file, cut in small batches (files it cannot read are the
 * reader's business). */
static void cut_file(const char *path, const struct wg_input *in, void *data)
{
	struct wg_ctx ctx;
	struct wg_resources list;
	size_t *read = data;

	(void)path;
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	if (wg_read_stream(&ctx, in, &list) == 0) {
		char *expect = t_write(&ctx, &list);

		ck_assert_ptr_nonnull(expect);
		assert_every_cut(&list, expect, 3);
		free(expect);
		(*read)++;
	}
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
}

/* Every file of the real-world corpus, cut in small batches. */
START_TEST(corpus_every_cut)
{
	size_t read = 0;

	if (t_each_corpus_file(cut_file, &read))
		ck_assert_uint_gt(read, 100);
}
END_TEST

/* Where document k ("n: doc-k") starts in one emitter's text of
 * documents 0..ndocs-1 (its end for k == ndocs). */
static size_t batch_start(const char *text, size_t k, size_t ndocs)
{
	char mark[64];
	const char *at;

	if (k == 0)
		return 0;
	if (k == ndocs)
		return strlen(text);
	snprintf(mark, sizeof(mark), "---\nn: doc-%zu\n", k);
	at = strstr(text, mark);
	ck_assert_ptr_nonnull(at);
	return (size_t)(at - text);
}

/*
 * A document libyaml refuses (generated text that is not UTF-8): the call
 * fails naming it, and the sink got only whole documents from before it.
 */
START_TEST(refused_document_stops_there)
{
	struct wg_buf text = WG_BUF_INIT;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *bad;
	char *before;
	size_t cut;

	for (int i = 0; i < 40; i++)
		wg_buf_addf(&text, "---\nn: doc-%d\n", i);
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text.buf, &list), 0);
	/* what one emitter writes of documents 0..24 */
	for (size_t i = 25; i < list.len; i++)
		list.items[i]->flags |= WG_RES_DELETED;
	before = t_write(&ctx, &list);
	for (size_t i = 25; i < list.len; i++)
		list.items[i]->flags &= ~WG_RES_DELETED;
	bad = wg_node_new_scalar(&list.arena, "\xff\xfe", 2, WG_STYLE_PLAIN);
	bad->flags |= WG_NODE_NEW;
	wg_map_set(&list.arena, list.items[25]->root, "n", bad);
	cut = strlen(before);
	for (size_t batch = 1; batch <= 41; batch += 4)
		for (unsigned jobs = 1; jobs <= 3; jobs++) {
			struct collect c = { WG_BUF_INIT, 0, 0 };
			struct wg_emit_failure fail = { 0, NULL };

			ck_assert_int_eq(wg_emit_yaml_batches(&list, jobs, batch,
						collect_sink, &c, &fail), -1);
			ck_assert_uint_eq(fail.item, 25);
			ck_assert_ptr_nonnull(fail.problem);
			ck_assert_uint_le(c.text.len, cut);
			ck_assert_int_eq(memcmp(c.text.buf, before,
						c.text.len), 0);
			/* whole batches: those before the bad one's */
			ck_assert_uint_ge(c.text.len + 1,
					  batch_start(before, 25 / batch * batch, 25));
			ck_assert_uint_le(c.text.len,
					  batch_start(before, 25 / batch * batch, 25));
			ck_assert_ptr_null(strstr(c.text.buf, "doc-25"));
			wg_buf_release(&c.text);
		}
	free(before);
	wg_buf_release(&text);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* A sink that fails ends the run with its value, threads and all. */
START_TEST(failing_sink_stops)
{
	struct wg_buf text = WG_BUF_INIT;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;

	for (int i = 0; i < 500; i++)
		wg_buf_addf(&text, "---\nn: doc-%d\n", i);
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text.buf, &list), 0);
	for (unsigned jobs = 1; jobs <= 4; jobs++) {
		struct collect c = { WG_BUF_INIT, 0, 2 };
		struct wg_emit_failure fail;

		ck_assert_int_eq(wg_emit_yaml_batches(&list, jobs, 7,
					collect_sink, &c, &fail), 5);
		ck_assert_uint_eq(c.calls, 2);
		wg_buf_release(&c.text);
	}
	wg_buf_release(&text);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(batch_sizes)
{
	ck_assert_uint_eq(wg_emit_batch_docs(50000, 1), 50000);
	ck_assert_uint_eq(wg_emit_batch_docs(0, 1), 1);
	ck_assert_uint_eq(wg_emit_batch_docs(50000, 2), 256);
	ck_assert_uint_eq(wg_emit_batch_docs(1000, 2), 62);
	ck_assert_uint_eq(wg_emit_batch_docs(10, 4), 16);
	ck_assert_uint_ge(wg_emit_cpus(), 1);
}
END_TEST

static Suite *emit_stream_suite(void)
{
	Suite *s = suite_create("emit_stream");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tricky_documents_every_cut);
	tcase_add_test(tc, empty_and_single);
	tcase_add_test(tc, many_documents_many_threads);
	tcase_add_test(tc, corpus_every_cut);
	tcase_add_test(tc, refused_document_stops_there);
	tcase_add_test(tc, failing_sink_stops);
	tcase_add_test(tc, batch_sizes);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(emit_stream_suite)
