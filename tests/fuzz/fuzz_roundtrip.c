/*
 * fuzz_roundtrip: the reader and writer.
 *
 *  - an input the reader rejects leaves an error with a position on the
 *    context (so no command writes anything for it);
 *  - an input it accepts is written as YAML, and the output reads back to
 *    the same trees (fz_tree_diff: text, tags, key order, types kept);
 *  - writing the re-read trees gives the same bytes again, and reading
 *    those gives trees wg_node_equal() to the second ones;
 *  - the JSON output (of a stream of objects and arrays), read back and
 *    written again, is byte-identical;
 *  - the stream written in batches (emit_stream.h: one document a batch,
 *    or two, on one thread or two) is the one emitter's bytes;
 *  - the writer's direct documents (src/yaml/write_direct.c) are the
 *    bytes libyaml's emitter writes for them: the stream written with
 *    every document through the emitter is the same;
 *  - the input read in pieces on threads (read_split.h, cut wherever a
 *    document starts), and read with the parser on a thread of its own
 *    (event_pipe.h, as fmt -j does), gives the one reader's resources,
 *    positions and indices, or its very diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/emit_stream.h"
#include "wingen/yaml/read_split.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

/* Reads text as a stream; 0 or -1, as wg_read_stream(). */
static int read_text(struct wg_ctx *ctx, struct wg_input *in,
		     const char *name, const char *text, size_t len,
		     struct wg_resources *list)
{
	fz_input(in, name, (const uint8_t *)text, len);
	wg_resources_init(list);
	return wg_read_stream(ctx, in, list);
}

static void must_read(struct wg_ctx *ctx, struct wg_input *in,
		      const char *what, const struct wg_buf *text,
		      struct wg_resources *list)
{
	if (read_text(ctx, in, what, text->buf, text->len, list) == 0
	    && !wg_ctx_failed(ctx))
		return;
	fz_dump_log(ctx);
	fz_fail("wingen's own %s output does not read back:\n%s", what,
		text->buf);
}

static void check_trees(const struct wg_resources *a,
			const struct wg_resources *b, const char *out)
{
	unsigned line;

	FZ_CHECK(a->len == b->len, "%zu resources read, %zu read back from:"
		 "\n%s", a->len, b->len, out);
	for (size_t i = 0; i < a->len; i++) {
		const char *why = fz_tree_diff(a->items[i]->root,
					       b->items[i]->root, &line);

		FZ_CHECK(!why, "resource %zu, input line %u: %s; output:\n%s",
			 i, line, why, out);
	}
}

static void check_json(const struct wg_resources *list)
{
	struct wg_ctx c1, c2;
	struct wg_buf j1 = WG_BUF_INIT, j2 = WG_BUF_INIT;
	struct wg_resources back;
	struct wg_input in;

	wg_ctx_init(&c1);
	if (wg_write_resources(&c1, &j1, list, WG_FORMAT_JSON) != 0) {
		/* Only a value JSON cannot hold (.inf, .nan) may fail. */
		FZ_CHECK(fz_has_positioned_error(&c1) || c1.log.ndiags,
			 "JSON writing failed without a diagnostic");
		goto out;
	}
	wg_ctx_init(&c2);
	must_read(&c2, &in, "json", &j1, &back);
	FZ_CHECK(back.len == list->len, "JSON output holds %zu resources, "
		 "not %zu:\n%s", back.len, list->len, j1.buf);
	FZ_CHECK(wg_write_resources(&c2, &j2, &back, WG_FORMAT_JSON) == 0,
		 "re-read JSON cannot be written");
	FZ_CHECK(j1.len == j2.len && memcmp(j1.buf, j2.buf, j1.len) == 0,
		 "JSON output changes when read and written again:\n%s\n"
		 "---- became ----\n%s", j1.buf, j2.buf);
	wg_resources_release(&back);
	wg_input_release(&in);
	wg_ctx_release(&c2);
out:
	wg_buf_release(&j1);
	wg_buf_release(&j2);
	wg_ctx_release(&c1);
}

static int to_buf(void *data, const char *bytes, size_t len)
{
	wg_buf_add(data, bytes, len);
	return 0;
}

static void check_batches(const struct wg_resources *list,
			  const struct wg_buf *whole)
{
	static const struct { unsigned jobs; size_t batch; } cuts[] = {
		{ 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 },
	};

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct wg_buf out = WG_BUF_INIT;
		struct wg_emit_failure fail;

		FZ_CHECK(wg_emit_yaml_batches(list, cuts[i].jobs, cuts[i].batch,
					      to_buf, &out, &fail) == 0,
			 "batches of %zu on %u threads: document %zu refused: "
			 "%s", cuts[i].batch, cuts[i].jobs, fail.item,
			 fail.problem);
		FZ_CHECK(out.len == whole->len
			 && memcmp(out.buf, whole->buf, out.len) == 0,
			 "batches of %zu on %u threads:\n%s\n---- not ----\n%s",
			 cuts[i].batch, cuts[i].jobs, out.buf, whole->buf);
		wg_buf_release(&out);
	}
}

static void check_direct(const struct wg_resources *list,
			 const struct wg_buf *whole)
{
	struct wg_buf out = WG_BUF_INIT;
	struct wg_yaml_writer w;
	int rc = 0;

	wg_yaml_writer_init(&w, &out);
	w.libyaml_only = true;
	for (size_t i = 0; i < list->len && rc == 0; i++)
		if (!(list->items[i]->flags & WG_RES_DELETED))
			rc = wg_yaml_writer_doc(&w, list->items[i]->root);
	FZ_CHECK(rc == 0 && wg_yaml_writer_finish(&w) == 0,
		 "libyaml's emitter refuses what the writer wrote: %s",
		 w.error ? w.error : "");
	FZ_CHECK(out.len == whole->len
		 && memcmp(out.buf, whole->buf, out.len) == 0,
		 "libyaml's emitter alone writes\n%s\n---- not ----\n%s",
		 out.buf, whole->buf);
	wg_yaml_writer_release(&w);
	wg_buf_release(&out);
}

/* As wg_read_stream(), with the parser on a thread of its own. */
static int read_threaded(struct wg_ctx *ctx, const struct wg_input *in,
			 struct wg_resources *list)
{
	const char *file = wg_arena_strdup(&list->arena, in->name);
	struct wg_reader r;
	struct wg_node *root;
	unsigned index;
	int rc;

	wg_reader_init(&r, ctx, in);
	r.threaded = true;
	while ((rc = wg_reader_next(&r, &list->arena, &root, &index)) > 0)
		wg_resources_add_document(list, root, file, index);
	wg_reader_release(&r);
	return rc;
}

/* threaded: read with read_threaded(), else in pieces. */
static void check_split(const struct wg_ctx *c1, int rc1,
			const struct wg_resources *l1, const uint8_t *data,
			size_t size, bool threaded)
{
	struct wg_ctx c;
	struct wg_input in;
	struct wg_resources l;
	int rc;

	wg_ctx_init(&c);
	fz_input(&in, "fuzz.yaml", data, size);
	wg_resources_init(&l);
	rc = threaded ? read_threaded(&c, &in, &l)
		      : wg_read_stream_split(&c, &in, &l, 3, 1);
	FZ_CHECK(rc == rc1, "read in pieces or threaded: status %d, not %d", rc, rc1);
	FZ_CHECK(c.log.ndiags == c1->log.ndiags && c.documents == c1->documents,
		 "read in pieces or threaded: %zu diagnostics and %zu documents, not %zu "
		 "and %zu", c.log.ndiags, c.documents, c1->log.ndiags,
		 c1->documents);
	for (size_t i = 0; i < c.log.ndiags; i++)
		FZ_CHECK(c.log.diags[i].line == c1->log.diags[i].line
			 && c.log.diags[i].col == c1->log.diags[i].col
			 && !strcmp(c.log.diags[i].message,
				    c1->log.diags[i].message),
			 "read in pieces or threaded: %u:%u: %s, not %u:%u: %s",
			 c.log.diags[i].line, c.log.diags[i].col,
			 c.log.diags[i].message, c1->log.diags[i].line,
			 c1->log.diags[i].col, c1->log.diags[i].message);
	FZ_CHECK(l.len == l1->len, "read in pieces or threaded: %zu resources, not %zu",
		 l.len, l1->len);
	for (size_t i = 0; i < l.len; i++) {
		unsigned line;
		const char *why = fz_tree_diff(l1->items[i]->root,
					       l.items[i]->root, &line);

		FZ_CHECK(!why, "read in pieces or threaded: resource %zu, line %u: %s", i,
			 line, why);
		FZ_CHECK(wg_node_line(l.items[i]->root)
			 == wg_node_line(l1->items[i]->root)
			 && l.items[i]->index == l1->items[i]->index,
			 "read in pieces or threaded: resource %zu moved", i);
	}
	wg_resources_release(&l);
	wg_input_release(&in);
	wg_ctx_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_ctx c1, c2, c3;
	struct wg_input i1, i2, i3;
	struct wg_resources l1, l2, l3;
	struct wg_buf o1 = WG_BUF_INIT, o2 = WG_BUF_INIT;

	wg_ctx_init(&c1);
	fz_input(&i1, "fuzz.yaml", data, size);
	wg_resources_init(&l1);
	if (wg_read_stream(&c1, &i1, &l1) != 0) {
		FZ_CHECK(wg_ctx_failed(&c1) && fz_has_positioned_error(&c1),
			 "the reader failed without an error at a position");
		check_split(&c1, -1, &l1, data, size, false);
		check_split(&c1, -1, &l1, data, size, true);
		goto out1;
	}
	check_split(&c1, 0, &l1, data, size, false);
	check_split(&c1, 0, &l1, data, size, true);
	FZ_CHECK(!wg_ctx_failed(&c1), "the reader logged an error but "
		 "returned success");
	if (wg_write_resources(&c1, &o1, &l1, WG_FORMAT_YAML) != 0) {
		fz_dump_log(&c1);
		fz_fail("a stream that was read cannot be written");
	}
	check_batches(&l1, &o1);
	check_direct(&l1, &o1);

	wg_ctx_init(&c2);
	must_read(&c2, &i2, "yaml", &o1, &l2);
	check_trees(&l1, &l2, o1.buf);
	FZ_CHECK(wg_write_resources(&c2, &o2, &l2, WG_FORMAT_YAML) == 0,
		 "re-read stream cannot be written");
	FZ_CHECK(o1.len == o2.len && memcmp(o1.buf, o2.buf, o1.len) == 0,
		 "writing is not idempotent:\n%s\n---- became ----\n%s",
		 o1.buf, o2.buf);

	wg_ctx_init(&c3);
	must_read(&c3, &i3, "yaml", &o2, &l3);
	FZ_CHECK(l2.len == l3.len, "resource count changed on a third read");
	for (size_t i = 0; i < l2.len; i++)
		FZ_CHECK(wg_node_equal(l2.items[i]->root, l3.items[i]->root),
			 "resource %zu differs after a third read", i);

	/* A JSON stream of scalars is not something wingen reads back: only
	 * objects and arrays start a new value of a stream. */
	for (size_t i = 0; i < l1.len; i++)
		if (wg_is_scalar(l1.items[i]->root))
			goto skip_json;
	check_json(&l1);
skip_json:

	wg_resources_release(&l3);
	wg_input_release(&i3);
	wg_ctx_release(&c3);
	wg_resources_release(&l2);
	wg_input_release(&i2);
	wg_ctx_release(&c2);
out1:
	wg_buf_release(&o1);
	wg_buf_release(&o2);
	wg_resources_release(&l1);
	wg_input_release(&i1);
	wg_ctx_release(&c1);
	return 0;
}
