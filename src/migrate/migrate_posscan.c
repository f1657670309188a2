/*
 * The position index's scan: the reader's own events, voted on as they
 * come for the file's layout, and recorded (each node's end) for the
 * documents migrate may edit, without building nodes.
 */
#include "posindex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

/* What the scan keeps of an open collection: what the layout's votes and
 * the records need, and no node (scan_event()). */
struct scan_frame {
	uint32_t line, col;	/* start mark */
	uint32_t key_line;	/* mapping: the line of its current key */
	bool map, flow;
	size_t start;		/* byte offset of the start mark */
	size_t end;		/* of its last child so far (block), or of
				   its start event */
	size_t count;		/* children so far (keys and values) */
};

/* The scan is a builder fed by someone else's parser; its documents are
 * voted on as their events come, without nodes. */
struct wg_pos_scan {
	struct builder b;
	bool too_long;		/* over WG_POS_MAX_TEXT: events ignored */
	struct scan_frame *frames;
	size_t nframes, frames_cap;
};

static struct scan_frame *scan_top(struct wg_pos_scan *s)
{
	return s->nframes ? &s->frames[s->nframes - 1] : NULL;
}

/* A node starts: it may be its mapping's key, or a value or an item the
 * layout votes on (what wg_posb_vote() counts on a document's nodes). */
static void scan_node_start(struct wg_pos_scan *s, const struct pev *v,
			    int kind)
{
	struct scan_frame *p = scan_top(s);
	struct builder *b = &s->b;

	if (!p || p->flow)
		return;
	if (p->map && p->count % 2 == 0) {
		p->key_line = v->line;
	} else if (p->map) {
		if ((kind == WG_NODE_MAP || kind == WG_NODE_SEQ) && !v->style
		    && v->line != p->key_line)
			wg_posb_vote_value(&b->votes, kind, p->col, v->col);
	} else if (kind == WG_NODE_MAP) {
		size_t dash = p->count ? wg_posb_find_dash(b->ix, p->end)
			      : b->ix->data[p->start] == '-' ? p->start
							      : SIZE_MAX;

		wg_posb_vote_item(&b->votes, dash, v->start);
	}
}

/* A node ended at byte end: its parent has one more child. */
static void scan_node_done(struct wg_pos_scan *s, size_t end)
{
	struct scan_frame *p = scan_top(s);

	if (p) {
		p->count++;
		p->end = end;
	}
}

static void scan_start(struct wg_pos_scan *s, const struct pev *v, bool map)
{
	struct scan_frame *f;

	scan_node_start(s, v, map ? WG_NODE_MAP : WG_NODE_SEQ);
	WG_GROW(s->frames, s->frames_cap, s->nframes + 1);
	f = &s->frames[s->nframes++];
	*f = (struct scan_frame){ .line = v->line, .col = v->col,
				  .map = map, .flow = v->style != 0,
				  .start = v->start, .end = v->end };
}

static void scan_end(struct wg_pos_scan *s, const struct pev *v)
{
	struct scan_frame f;

	if (!s->nframes) {	/* an end without a start: not one stream */
		s->b.failed = true;
		return;
	}
	f = s->frames[--s->nframes];
	scan_node_done(s, f.flow ? v->end : f.end);
}

static void scan_doc_start(struct wg_pos_scan *s, const struct pev *v)
{
	struct wg_pos_index *ix = s->b.ix;
	struct wg_pos_doc *d;

	wg_posb_add_doc(&s->b, v);
	d = &ix->docs[ix->ndocs - 1];
	d->recorded = true;
	d->rec_first = ix->nends;
	d->rec_end = SIZE_MAX;
	d->far_first = ix->nfar;
	s->b.last_end = d->start;
	s->nframes = 0;
}

/*
 * A scalar, the most common event, with what the scan needs of it and no
 * more: its end (the record), its start line (a key's line) and, only
 * when it spans lines, its start and the line of its last byte (the
 * lines inside it).  What scan_event() does with wg_posb_pev_of()'s whole event.
 */
static void scan_scalar(struct wg_pos_scan *s, const yaml_event_t *e)
{
	struct builder *b = &s->b;
	struct scan_frame *p = scan_top(s);
	struct pev v;

	v.type = YAML_SCALAR_EVENT;
	v.line = (uint32_t)(b->line0 + e->start_mark.line);
	v.end = wg_posb_mark_offset(b, &e->end_mark);
	v.style = e->data.scalar.style;
	v.anchor = e->data.scalar.anchor != NULL;
	v.tag = e->data.scalar.tag != NULL;
	v.value = (const char *)e->data.scalar.value;
	v.length = e->data.scalar.length;
	wg_posb_record(b, e, &v, p && p->flow);
	/* scan_node_start(): a scalar only ever notes its key's line */
	if (p && !p->flow && p->map && p->count % 2 == 0)
		p->key_line = v.line;
	if (e->end_mark.line != e->start_mark.line) {
		v.start = wg_posb_mark_offset(b, &e->start_mark);
		wg_posb_mark_in_scalar(b->ix, v.line,
				       wg_posb_end_line_of(b->ix, v.start, v.end, v.line,
				       b->line0 + e->end_mark.line));
	}
	scan_node_done(s, v.end);
}

static void scan_event(struct wg_pos_scan *s, const yaml_event_t *e)
{
	struct builder *b = &s->b;
	struct pev v;

	if (e->type == YAML_SCALAR_EVENT) {
		scan_scalar(s, e);
		return;
	}
	/* the end of a block collection: it ends with its last child, and
	 * leaves no record (wg_posb_record(), scan_end()) */
	if ((e->type == YAML_MAPPING_END_EVENT
	     || e->type == YAML_SEQUENCE_END_EVENT)
	    && s->nframes && !s->frames[s->nframes - 1].flow) {
		size_t end = s->frames[--s->nframes].end;

		scan_node_done(s, end);
		return;
	}
	wg_posb_pev_of(b, e, &v);
	/* before the end pops its frame */
	wg_posb_record(b, e, &v, s->nframes && s->frames[s->nframes - 1].flow);
	switch (v.type) {
	case YAML_STREAM_START_EVENT:
		if (b->streams++)	/* a parser per JSON value */
			b->failed = true;
		break;
	case YAML_DOCUMENT_START_EVENT:
		scan_doc_start(s, &v);
		break;
	case YAML_DOCUMENT_END_EVENT:
		if (wg_posb_recording(b))
			b->ix->docs[b->ix->ndocs - 1].rec_end = b->ix->nends;
		if (s->nframes)		/* a collection left open */
			b->failed = true;
		break;
	case YAML_SCALAR_EVENT:
		scan_node_start(s, &v, WG_NODE_SCALAR);
		wg_posb_mark_in_scalar(b->ix, v.line,
				       wg_posb_end_line_of(b->ix, v.start, v.end, v.line,
				       v.end_line));
		scan_node_done(s, v.end);
		break;
	case YAML_ALIAS_EVENT:
		scan_node_start(s, &v, WG_POS_ALIAS);
		scan_node_done(s, v.end);
		break;
	case YAML_SEQUENCE_START_EVENT:
		scan_start(s, &v, false);
		break;
	case YAML_MAPPING_START_EVENT:
		scan_start(s, &v, true);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		scan_end(s, &v);
		break;
	default:
		break;
	}
}

struct wg_pos_scan *wg_pos_scan_start(struct wg_pos_index *ix,
				      const char *data, size_t len)
{
	struct wg_pos_scan *s = wg_xcalloc(1, sizeof(*s));

	s->too_long = !wg_pos_index_start(ix, data, len);
	ix->partial = true;
	/* Sized once for two scalars a line ("key: value") and cut to size
	 * at the end, not grown by doubling: a file's array was six
	 * reallocations, whose freed chunks, over 50,000 files, left the
	 * heap in pieces (glibc's unlink_chunk). */
	ix->ends_cap = 2 * ix->nlines + 8;
	ix->ends = wg_xmalloc(ix->ends_cap * sizeof(*ix->ends));
	wg_posb_init(&s->b, ix, SCAN);
	return s;
}

void wg_pos_scan_event(void *scan, const yaml_event_t *e)
{
	if (!((struct wg_pos_scan *)scan)->too_long)
		scan_event(scan, e);
}

/* The heap's array p of n bytes used, bit of ix->on_heap: copied into
 * keep and freed when small, cut to n bytes when not (WG_POS_KEEP_MAX). */
static void *move_to(struct wg_pos_index *ix, unsigned bit,
		     struct wg_arena *keep, void *p, size_t n)
{
	void *copy = NULL;

	if (p && n >= WG_POS_KEEP_MAX)
		return wg_xrealloc(p, n);	/* stays the index's own */
	if (p && n) {
		copy = wg_arena_alloc(keep, n);
		memcpy(copy, p, n);
	}
	free(p);
	ix->on_heap &= ~bit;
	return copy;
}

int wg_pos_scan_finish(struct wg_pos_scan *scan, struct wg_arena *keep)
{
	struct builder *b = &scan->b;
	struct wg_pos_index *ix = b->ix;
	int rc = scan->too_long || b->failed || b->streams != 1 ? -1 : 0;

	if (rc == 0)
		wg_posb_pick_style(ix, &b->votes);
	wg_posb_stop_recording(b);	/* a document never ended */
	if (rc == 0 && keep) {
		/* held to the end of a run over thousands of files: each
		 * array at its size, with no heap chunk of its own (a file
		 * of one document had room for eight, its ends for two a
		 * line), and the heap's arrays go back to the next scan */
		ix->lines = move_to(ix, WG_POS_HEAP_LINES, keep, ix->lines,
				    ix->nlines * sizeof(*ix->lines));
		ix->wide = move_to(ix, WG_POS_HEAP_WIDE, keep, ix->wide,
				   ix->wide ? ix->nlines : 0);
		ix->in_scalar = move_to(ix, WG_POS_HEAP_IN_SCALAR, keep,
					ix->in_scalar, ix->nlines);
		ix->ends = move_to(ix, WG_POS_HEAP_ENDS, keep, ix->ends,
				   ix->nends * sizeof(*ix->ends));
		ix->ends_cap = ix->nends;
		ix->far = move_to(ix, WG_POS_HEAP_FAR, keep, ix->far,
				  ix->nfar * sizeof(*ix->far));
		ix->far_cap = ix->nfar;
		ix->docs = move_to(ix, WG_POS_HEAP_DOCS, keep, ix->docs,
				   ix->ndocs * sizeof(*ix->docs));
	}
	/* the scan builds no nodes: the index's arena is still empty, and
	 * stays so until an edited document is built (wg_pos_index_doc) */
	wg_arena_release(&ix->arena);
	wg_posb_release(b);
	free(scan->frames);
	free(scan);
	return rc;
}
