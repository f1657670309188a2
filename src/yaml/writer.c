#include "wingen/yaml/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/scalar.h"
#include "yaml/yaml_internal.h"

/* What a streaming writer stages before handing it on (a quarter of a
 * megabyte: large enough for few writes, small beside any stream large
 * enough to stream). */
#define SINK_CHUNK ((size_t)1 << 18)

/* Hands what out holds to the sink.  1, or 0 when the sink failed. */
static int flush_sink(struct wg_yaml_writer *w)
{
	if (w->out->len && w->sink(w->sink_data, w->out->buf, w->out->len)) {
		w->sink_failed = true;
		return 0;
	}
	wg_buf_reset(w->out);
	return 1;
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
	struct wg_yaml_writer *w = data;

	wg_buf_add(w->out, buffer, size);
	if (w->sink && w->out->len >= SINK_CHUNK)
		return flush_sink(w);
	return 1;
}

void wg_yaml_writer_set_sink(struct wg_yaml_writer *w, wg_yaml_sink sink,
			     void *data)
{
	w->sink = sink;
	w->sink_data = data;
}

/* The check libyaml's yaml_check_utf8 (api.c) makes of an event's
 * strings: well-formed sequences of one to four bytes, none longer than
 * its value needs. */
static bool utf8_ok(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		unsigned c = *p, width, value;

		width = !(c & 0x80) ? 1 : (c & 0xe0) == 0xc0 ? 2
			: (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		value = width == 1 ? c : width == 2 ? c & 0x1f
			: width == 3 ? c & 0x0f : c & 0x07;
		if (!width || (size_t)(end - p) < width)
			return false;
		for (unsigned k = 1; k < width; k++) {
			if ((p[k] & 0xc0) != 0x80)
				return false;
			value = (value << 6) + (p[k] & 0x3f);
		}
		if (!(width == 1 || (width == 2 && value >= 0x80)
		      || (width == 3 && value >= 0x800)
		      || (width == 4 && value >= 0x10000)))
			return false;
		p += width;
	}
	return true;
}

const struct wg_node *wg_yaml_unwritable(const struct wg_node *root)
{
	const char *tag;
	size_t k;

	if (!root)
		return NULL;
	/* emit_scalar hands libyaml generated scalars to check; tags of
	 * collections go through its initialisers, which check them */
	tag = wg_node_tag(root);
	if (tag && !utf8_ok(tag, strlen(tag)))
		return root;
	if (root->kind == WG_NODE_SCALAR)
		return (root->flags & WG_NODE_NEW)
		       && !utf8_ok(root->u.str, root->len) ? root : NULL;
	k = root->kind == WG_NODE_MAP ? 2 * (size_t)root->len : root->len;
	for (size_t i = 0; i < k; i++) {
		const struct wg_node *bad = wg_yaml_unwritable(
			root->u.items[i]);

		if (bad)
			return bad;
	}
	return NULL;
}

void wg_yaml_writer_init(struct wg_yaml_writer *w, struct wg_buf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	yaml_emitter_initialize(&w->emitter);
	yaml_emitter_set_output(&w->emitter, write_handler, w);
	yaml_emitter_set_width(&w->emitter, -1);
	yaml_emitter_set_unicode(&w->emitter, 1);
	yaml_emitter_set_indent(&w->emitter, 2);
	yaml_emitter_set_break(&w->emitter, YAML_LN_BREAK);
}

void wg_yaml_writer_release(struct wg_yaml_writer *w)
{
	yaml_emitter_delete(&w->emitter);
}

static int emit(struct wg_yaml_writer *w, yaml_event_t *e)
{
	if (yaml_emitter_emit(&w->emitter, e))
		return 0;
	w->error = w->sink_failed ? "cannot write the output"
		   : w->emitter.problem ? w->emitter.problem
		   : "cannot write YAML";
	return -1;
}

/*
 * libyaml writes an empty plain scalar as '' inside flow collections and in
 * key position, which turns a null into an empty string.  "~" keeps it null.
 */
static int emit_scalar(struct wg_yaml_writer *w, const struct wg_node *n,
		       bool flow_or_key)
{
	const char *tag = wg_node_tag(n);
	const char *text = n->u.str;
	size_t len = n->len;
	yaml_char_t *value;
	yaml_event_t e;

	if (!len && !tag && n->style == WG_STYLE_PLAIN && flow_or_key) {
		text = "~";
		len = 1;
	}
	if (n->flags & WG_NODE_NEW) {
		/* Generated text: let libyaml check it is UTF-8. */
		if (!yaml_scalar_event_initialize(&e, NULL, (yaml_char_t *)tag,
				(yaml_char_t *)text, (int)len, !tag, !tag,
				(yaml_scalar_style_t)(n->style + 1))) {
			w->error = "generated text is not valid UTF-8";
			return -1;
		}
		return emit(w, &e);
	}
	/*
	 * Text libyaml parsed is valid UTF-8: build the event by hand and
	 * skip the check.  The emitter frees value and tag, so an adopted
	 * string (reader.h) is handed over as it is when taking.
	 */
	if (w->take && (n->flags & WG_NODE_OWNED) && text == n->u.str) {
		struct wg_node *owner = (struct wg_node *)n;

		value = (yaml_char_t *)n->u.str;
		owner->flags &= (uint16_t)~WG_NODE_OWNED;
		owner->u.str = "";
		owner->len = 0;
	} else {
		value = wg_xmalloc(len + 1);
		memcpy(value, text, len);
		value[len] = '\0';
	}
	memset(&e, 0, sizeof(e));
	e.type = YAML_SCALAR_EVENT;
	e.data.scalar.tag = tag ? (yaml_char_t *)wg_xstrdup(tag) : NULL;
	e.data.scalar.value = value;
	e.data.scalar.length = len;
	e.data.scalar.plain_implicit = !tag;
	e.data.scalar.quoted_implicit = !tag;
	e.data.scalar.style = (yaml_scalar_style_t)(n->style + 1);
	return emit(w, &e);
}

static int emit_node(struct wg_yaml_writer *w, const struct wg_node *n,
		     bool in_flow, bool is_key)
{
	yaml_char_t *tag = (yaml_char_t *)wg_node_tag(n);
	yaml_event_t e;
	size_t k;

	switch (n->kind) {
	case WG_NODE_SCALAR:
		return emit_scalar(w, n, in_flow || is_key);
	case WG_NODE_SEQ:
		yaml_sequence_start_event_initialize(&e, NULL, tag, !tag,
			n->flags & WG_NODE_FLOW ? YAML_FLOW_SEQUENCE_STYLE
						: YAML_BLOCK_SEQUENCE_STYLE);
		k = n->len;
		break;
	default:
		yaml_mapping_start_event_initialize(&e, NULL, tag, !tag,
			n->flags & WG_NODE_FLOW ? YAML_FLOW_MAPPING_STYLE
						: YAML_BLOCK_MAPPING_STYLE);
		k = 2 * (size_t)n->len;
		break;
	}
	if (emit(w, &e))
		return -1;
	in_flow = in_flow || (n->flags & WG_NODE_FLOW);
	for (size_t i = 0; i < k; i++)
		if (emit_node(w, n->u.items[i], in_flow,
			      n->kind == WG_NODE_MAP && i % 2 == 0))
			return -1;
	if (n->kind == WG_NODE_SEQ)
		yaml_sequence_end_event_initialize(&e);
	else
		yaml_mapping_end_event_initialize(&e);
	return emit(w, &e);
}

int wg_yaml_writer_doc_take(struct wg_yaml_writer *w, struct wg_node *root)
{
	int rc;

	w->take = true;
	rc = wg_yaml_writer_doc(w, root);
	w->take = false;
	return rc;
}

/*
 * After documents written directly, the emitter has seen none and would
 * take its next one for the stream's first (no "---").  One document
 * written and dropped makes the next a second one; the emitter flushes at
 * each document's end, so all of its text is in out (no sink: the direct
 * writer is off with one).
 */
static int skip_first_doc(struct wg_yaml_writer *w)
{
	size_t mark = w->out->len;
	yaml_event_t e;

	yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1);
	if (emit(w, &e))
		return -1;
	yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)"~", 1,
				     1, 1, YAML_PLAIN_SCALAR_STYLE);
	if (emit(w, &e))
		return -1;
	yaml_document_end_event_initialize(&e, 1);
	if (emit(w, &e))
		return -1;
	w->out->len = mark;
	if (w->out->cap)
		w->out->buf[mark] = '\0';
	return 0;
}

int wg_yaml_writer_begin_doc(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	if (!w->open) {
		yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING);
		if (emit(w, &e))
			return -1;
		w->open = true;
	}
	if (w->ndocs && !w->emitter_docs && skip_first_doc(w))
		return -1;
	w->emitter_docs = true;
	yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1);
	return emit(w, &e);
}

int wg_yaml_writer_end_doc(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	yaml_document_end_event_initialize(&e, 1);
	if (emit(w, &e))
		return -1;
	w->ndocs++;
	w->last_direct = false;
	return 0;
}

int wg_yaml_writer_begin_map(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	yaml_mapping_start_event_initialize(&e, NULL, NULL, 1,
					    YAML_BLOCK_MAPPING_STYLE);
	return emit(w, &e);
}

int wg_yaml_writer_begin_seq(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	yaml_sequence_start_event_initialize(&e, NULL, NULL, 1,
					     YAML_BLOCK_SEQUENCE_STYLE);
	return emit(w, &e);
}

int wg_yaml_writer_key(struct wg_yaml_writer *w, const char *key)
{
	yaml_event_t e;

	if (!yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)key,
					  (int)strlen(key), 1, 1,
					  YAML_PLAIN_SCALAR_STYLE)) {
		w->error = "generated text is not valid UTF-8";
		return -1;
	}
	return emit(w, &e);
}

int wg_yaml_writer_node(struct wg_yaml_writer *w, const struct wg_node *n)
{
	return emit_node(w, n, false, false);
}

int wg_yaml_writer_end_map(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	yaml_mapping_end_event_initialize(&e);
	return emit(w, &e);
}

int wg_yaml_writer_end_seq(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	yaml_sequence_end_event_initialize(&e);
	return emit(w, &e);
}

int wg_yaml_writer_doc(struct wg_yaml_writer *w, const struct wg_node *root)
{
	if (!w->libyaml_only && !w->sink
	    && wg_write_direct_doc(w->out, root, w->ndocs == 0,
				   &w->open_ended)) {
		w->ndocs++;
		w->ndirect++;
		w->last_direct = true;
		return 0;
	}
	if (wg_yaml_writer_begin_doc(w) || emit_node(w, root, false, false))
		return -1;
	return wg_yaml_writer_end_doc(w);
}

/* Inserts len bytes of s into b at pos. */
static void buf_insert(struct wg_buf *b, size_t pos, const char *s,
		       size_t len)
{
	wg_buf_grow(b, len);
	memmove(b->buf + pos + len, b->buf + pos, b->len - pos + 1);
	memcpy(b->buf + pos, s, len);
	b->len += len;
}

int wg_yaml_writer_doc_headed(struct wg_yaml_writer *w,
			      const struct wg_node *root, const char *comment)
{
	size_t mark, at;
	char *line;

	if (!comment || w->sink)
		return wg_yaml_writer_doc(w, root);
	/* all text so far in out: the document's starts at mark (its
	 * "---", after a "..." that ends an open scalar before it) */
	if (wg_yaml_writer_flush(w))
		return -1;
	mark = w->out->len;
	if (wg_yaml_writer_doc(w, root) || wg_yaml_writer_flush(w))
		return -1;
	at = mark;
	if (w->out->len - at >= 4 && memcmp(w->out->buf + at, "...\n", 4) == 0)
		at += 4;
	line = wg_xmalloc(strlen(comment) + 2);
	sprintf(line, "%s\n", comment);
	if (w->out->len - at >= 4
	    && memcmp(w->out->buf + at, "---", 3) == 0
	    && (w->out->buf[at + 3] == '\n' || w->out->buf[at + 3] == ' ')) {
		/* "---\n" or "--- VALUE": the comment goes on a line of its
		 * own after the marker, the value (if any) after it */
		w->out->buf[at + 3] = '\n';
		at += 4;
	}
	buf_insert(w->out, at, line, strlen(line));
	free(line);
	return 0;
}

int wg_yaml_writer_doc_take_headed(struct wg_yaml_writer *w,
				   struct wg_node *root, const char *comment)
{
	int rc;

	w->take = true;
	rc = wg_yaml_writer_doc_headed(w, root, comment);
	w->take = false;
	return rc;
}

int wg_yaml_writer_flush(struct wg_yaml_writer *w)
{
	/* an emitter that has not begun the stream holds nothing (all
	 * documents so far went the direct way) */
	if (w->open && !yaml_emitter_flush(&w->emitter)) {
		w->error = w->sink_failed ? "cannot write the output"
					  : "cannot write YAML";
		return -1;
	}
	return 0;
}

int wg_yaml_writer_finish(struct wg_yaml_writer *w)
{
	yaml_event_t e;

	if (w->last_direct) {
		/* the emitter's stream end after that document (the
		 * emitter itself has flushed all it was given) */
		if (w->open_ended == 2)
			wg_buf_addstr(w->out, "...\n");
		w->last_direct = false;
		w->open = false;
		return 0;
	}
	if (!w->open)
		return 0;
	yaml_stream_end_event_initialize(&e);
	if (emit(w, &e))
		return -1;
	w->open = false;
	if (!yaml_emitter_flush(&w->emitter)
	    || (w->sink && !flush_sink(w))) {
		w->error = w->sink_failed ? "cannot write the output"
					  : "cannot write YAML";
		return -1;
	}
	return 0;
}

int wg_write_resources(struct wg_ctx *ctx, struct wg_buf *out,
		       const struct wg_resources *list, enum wg_format format)
{
	struct wg_yaml_writer w;
	int rc = 0;

	if (format == WG_FORMAT_JSON) {
		for (size_t i = 0; i < list->len; i++)
			if (!(list->items[i]->flags & WG_RES_DELETED)
			    && wg_json_write(ctx, out, list->items[i]))
				rc = -1;
		return rc;
	}
	wg_yaml_writer_init(&w, out);
	for (size_t i = 0; i < list->len && rc == 0; i++) {
		const struct wg_resource *res = list->items[i];

		if (res->flags & WG_RES_DELETED)
			continue;
		rc = wg_yaml_writer_doc_headed(&w, res->root,
					       res->source_comment);
		if (rc)
			wg_error(ctx, res, NULL, NULL, "cannot write YAML: %s",
				 w.error);
	}
	if (rc == 0 && wg_yaml_writer_finish(&w))
		rc = wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
				  "cannot write YAML: %s", w.error);
	wg_yaml_writer_release(&w);
	return rc;
}
