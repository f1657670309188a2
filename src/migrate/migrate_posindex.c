/*
 * Position index for migrate: byte spans of every node of a YAML text,
 * from libyaml events (the tree keeps only start marks): a parse of its
 * own over the whole text (wg_pos_index_build), or one document's text
 * parsed again when it is edited (wg_pos_index_doc).  The builder here
 * takes events from the scan and the replay too (posindex_internal.h).
 */
#include "posindex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

size_t wg_posb_mark_offset(const struct builder *b, const yaml_mark_t *m)
{
	return wg_pos_offset(b->ix, b->line0 + m->line, m->column);
}

void wg_posb_pev_of(const struct builder *b, const yaml_event_t *e,
		    struct pev *v)
{
	memset(v, 0, sizeof(*v));
	v->type = e->type;
	v->line = (uint32_t)(b->line0 + e->start_mark.line);
	v->col = (uint32_t)e->start_mark.column;
	v->start = wg_posb_mark_offset(b, &e->start_mark);
	v->end = wg_posb_mark_offset(b, &e->end_mark);
	v->end_line = b->line0 + e->end_mark.line;
	switch (e->type) {
	case YAML_DOCUMENT_START_EVENT:
		v->implicit = e->data.document_start.implicit;
		break;
	case YAML_SCALAR_EVENT:
		v->style = e->data.scalar.style;
		v->anchor = e->data.scalar.anchor != NULL;
		v->tag = e->data.scalar.tag != NULL;
		v->value = (const char *)e->data.scalar.value;
		v->length = e->data.scalar.length;
		break;
	case YAML_SEQUENCE_START_EVENT:
		v->style = e->data.sequence_start.style
			   == YAML_FLOW_SEQUENCE_STYLE;
		v->anchor = e->data.sequence_start.anchor != NULL;
		v->tag = e->data.sequence_start.tag != NULL;
		break;
	case YAML_MAPPING_START_EVENT:
		v->style = e->data.mapping_start.style
			   == YAML_FLOW_MAPPING_STYLE;
		v->anchor = e->data.mapping_start.anchor != NULL;
		v->tag = e->data.mapping_start.tag != NULL;
		break;
	default:
		break;
	}
}

static struct wg_pos_node *new_node(struct builder *b, int kind,
				    const struct pev *e)
{
	struct wg_pos_node *n = wg_arena_alloc(&b->ix->arena, sizeof(*n));

	/* one store of the whole node, not a zalloc's memset call and the
	 * fields after it (a node for every event of every document) */
	*n = (struct wg_pos_node){ .kind = (uint8_t)kind, .line = e->line,
				   .col = e->col, .start = e->start,
				   .end = e->end };
	return n;
}

static void push(struct builder *b, struct wg_pos_node *n)
{
	WG_GROW(b->stack, b->stack_cap, b->stack_len + 1);
	b->stack[b->stack_len++] = n;
}

/* Where the item after one ending at off has its '-': past blanks, line
 * breaks and comments. */
size_t wg_posb_find_dash(const struct wg_pos_index *ix, size_t off)
{
	const char *d = ix->data, *end = ix->data + ix->len;

	while (off < ix->len) {
		size_t b = wg_pos_break_len(d + off, end);

		if (b) {
			off += b;
		} else if (d[off] == ' ' || d[off] == '\t') {
			off++;
		} else if (d[off] == '#') {
			while (off < ix->len && !wg_pos_break_len(d + off, end))
				off++;
		} else {
			return d[off] == '-' ? off : SIZE_MAX;
		}
	}
	return SIZE_MAX;
}

/* The line of the node's last byte.  It is almost always the line of the
 * mark or child it ends at, or the one before (a mark at column 0 after a
 * break): those are tried before a search of every line. */
size_t wg_posb_end_line_of(const struct wg_pos_index *ix, size_t start,
			   size_t end, size_t line, size_t hint)
{
	size_t last = end - 1;

	if (end <= start)
		return line;
	if (wg_pos_on_line(ix, last, hint))
		return hint;
	if (hint > 0 && wg_pos_on_line(ix, last, hint - 1))
		return hint - 1;
	return wg_pos_line_of(ix, last);
}

static void set_end_line(const struct wg_pos_index *ix, struct wg_pos_node *n,
			 size_t hint)
{
	n->end_line = (uint32_t)wg_posb_end_line_of(ix, n->start, n->end, n->line,
						    hint);
}

/* Lines (line, end_line] are inside a scalar's text. */
void wg_posb_mark_in_scalar(struct wg_pos_index *ix, size_t line,
			    size_t end_line)
{
	for (size_t l = line + 1; l <= end_line && l < ix->nlines; l++)
		ix->in_scalar[l] = 1;
}

static void finish_collection(struct builder *b, const struct pev *e)
{
	struct frame *f;
	struct wg_pos_node *n;
	size_t count;

	if (!b->nframes) {	/* an end without a start: not one stream */
		b->failed = true;
		return;
	}
	f = &b->frames[--b->nframes];
	n = f->node;
	count = b->stack_len - f->base;
	n->len = (uint32_t)(n->kind == WG_NODE_MAP ? count / 2 : count);
	if (count) {
		n->items = wg_arena_alloc(&b->ix->arena,
					  count * sizeof(*n->items));
		memcpy(n->items, b->stack + f->base,
		       count * sizeof(*n->items));
	}
	b->stack_len = f->base;
	for (size_t i = 0; i < count; i++)
		n->items[i]->parent = n;
	if (n->flags & WG_POS_FLOW)
		n->end = e->end;
	else if (count)
		n->end = n->items[count - 1]->end;
	if (n->kind == WG_NODE_SEQ && !(n->flags & WG_POS_FLOW) && count) {
		n->dashes = wg_arena_alloc(&b->ix->arena,
					   count * sizeof(*n->dashes));
		n->dashes[0] = b->ix->data[n->start] == '-' ? n->start
							    : SIZE_MAX;
		for (size_t i = 1; i < count; i++)
			n->dashes[i] = wg_posb_find_dash(b->ix, n->items[i - 1]->end);
	}
	for (size_t i = 0; n->kind == WG_NODE_MAP && i < n->len; i++) {
		const struct wg_pos_node *k = wg_pos_key(n, i);

		if (k->kind == WG_NODE_SCALAR && k->style == WG_STYLE_PLAIN
		    && k->text_len == 2 && memcmp(k->text, "<<", 2) == 0)
			n->flags |= WG_POS_MERGE;
	}
	set_end_line(b->ix, n, n->flags & WG_POS_FLOW || !count
			       ? e->end_line : n->items[count - 1]->end_line);
	push(b, n);
}

static void on_scalar(struct builder *b, const struct pev *e)
{
	struct wg_pos_node *n = new_node(b, WG_NODE_SCALAR, e);
	struct wg_pos_index *ix = b->ix;

	n->style = (uint8_t)(e->style > 0 ? e->style - 1 : 0);
	if (e->anchor)
		n->flags |= WG_POS_ANCHOR;
	if (e->tag)
		n->flags |= WG_POS_TAG;
	n->text = wg_arena_strndup(&ix->arena, e->value, e->length);
	n->text_len = e->length;
	set_end_line(ix, n, e->end_line);
	wg_posb_mark_in_scalar(ix, n->line, n->end_line);
	push(b, n);
}

/* e->style is 1 for a flow collection (wg_posb_pev_of()). */
static void on_start(struct builder *b, const struct pev *e, int kind)
{
	struct wg_pos_node *n = new_node(b, kind, e);

	if (e->anchor)
		n->flags |= WG_POS_ANCHOR;
	if (e->tag)
		n->flags |= WG_POS_TAG;
	if (e->style)
		n->flags |= WG_POS_FLOW;
	WG_GROW(b->frames, b->frames_cap, b->nframes + 1);
	b->frames[b->nframes].node = n;
	b->frames[b->nframes].base = b->stack_len;
	b->nframes++;
}

void wg_posb_add_doc(struct builder *b, const struct pev *e)
{
	struct wg_pos_index *ix = b->ix;
	struct wg_pos_doc *d;

	WG_GROW(ix->docs, b->docs_cap, ix->ndocs + 1);
	d = &ix->docs[ix->ndocs++];
	memset(d, 0, sizeof(*d));
	d->start = e->start;
	d->explicit_start = !e->implicit;
}

static bool spaces_between(const char *d, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (d[i] != ' ')
			return false;
	return true;
}

/* A block collection kind at column col, the value of a pair of a block
 * mapping at column map_col, on a line after its key's. */
void wg_posb_vote_value(struct votes *v, int kind, uint32_t map_col,
			uint32_t col)
{
	if (kind == WG_NODE_MAP && col > map_col && col - map_col <= 8)
		v->step[col - map_col]++;
	if (kind == WG_NODE_SEQ) {
		if (col == map_col) {
			v->compact++;
		} else if (col > map_col && col - map_col <= 8) {
			v->indented++;
			v->step[col - map_col]++;
		}
	}
}

/* A mapping item of a block sequence starting at byte start, its '-' at
 * dash: on the dash's line, "- key" or "-   key". */
void wg_posb_vote_item(struct votes *v, size_t dash, size_t start)
{
	if (dash != SIZE_MAX && start > dash && start - dash <= 8
	    && spaces_between(v->data, dash + 1, start))
		v->item[start - dash]++;
}

void wg_posb_vote(const struct wg_pos_node *n, struct votes *v)
{
	size_t k;

	if (n->kind != WG_NODE_MAP && n->kind != WG_NODE_SEQ)
		return;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	for (size_t i = 0; n->kind == WG_NODE_MAP && !(n->flags & WG_POS_FLOW)
			   && i < n->len; i++) {
		const struct wg_pos_node *key = wg_pos_key(n, i);
		const struct wg_pos_node *val = wg_pos_value(n, i);

		if (!(val->flags & WG_POS_FLOW) && val->line != key->line)
			wg_posb_vote_value(v, val->kind, n->col, val->col);
	}
	for (size_t i = 0; n->kind == WG_NODE_SEQ && n->dashes && i < n->len;
	     i++)
		if (n->items[i]->kind == WG_NODE_MAP)
			wg_posb_vote_item(v, n->dashes[i], n->items[i]->start);
	for (size_t i = 0; i < k; i++)
		wg_posb_vote(n->items[i], v);
}

/* The layout most of the file's collections use. */
void wg_posb_pick_style(struct wg_pos_index *ix, const struct votes *v)
{
	size_t best = 0;

	ix->indent = 2;
	for (size_t s = 1; s <= 8; s++) {
		if (v->step[s] > best) {
			best = v->step[s];
			ix->indent = (unsigned)s;
		}
	}
	ix->compact_seqs = v->compact >= v->indented;
	ix->item_indent = 2;
	for (size_t s = 2, most = 0; s <= 8; s++) {
		if (v->item[s] > most) {
			most = v->item[s];
			ix->item_indent = (unsigned)s;
		}
	}
}

static void on_doc_end(struct builder *b)
{
	struct wg_pos_index *ix = b->ix;
	struct wg_pos_node *root = b->stack_len ? b->stack[0] : NULL;

	if (b->nframes)		/* a collection left open */
		b->failed = true;
	if (b->mode == ONE_DOC) {
		if (b->docs_seen == 1) {
			ix->docs[b->doc].root = root;
			ix->docs[b->doc].indexed = true;
		}
		return;
	}
	if (!ix->ndocs)
		return;
	if (root)
		wg_posb_vote(root, &b->votes);
	ix->docs[ix->ndocs - 1].root = root;
	ix->docs[ix->ndocs - 1].indexed = true;
}

/* The document the scan is in, when it is still being recorded. */
struct wg_pos_doc *wg_posb_recording(struct builder *b)
{
	struct wg_pos_index *ix = b->ix;

	if (b->mode != SCAN || !ix->ndocs || !ix->docs[ix->ndocs - 1].recorded
	    || ix->docs[ix->ndocs - 1].rec_end != SIZE_MAX)
		return NULL;
	return &ix->docs[ix->ndocs - 1];
}

/* Stops recording the current document: its events and tree may not
 * match one for one. */
void wg_posb_stop_recording(struct builder *b)
{
	struct wg_pos_doc *d = wg_posb_recording(b);

	if (d) {
		b->ix->nends = d->rec_first;
		b->ix->nfar = d->far_first;
		d->recorded = false;
	}
}

/*
 * Keeps of event e of the document being scanned what its tree does not
 * have: the end offset of a scalar or of a flow collection.  Everything
 * else comes from the tree's nodes (start marks, styles, lengths), which
 * the reader makes one per event, except where it copies (an alias) or
 * merges ("<<"), and where the node holds less than the event (an anchor,
 * a tag): such a document is not recorded.
 */
void wg_posb_record(struct builder *b, const yaml_event_t *e,
		    const struct pev *v, bool closes_flow)
{
	struct wg_pos_index *ix = b->ix;
	bool end = false;
	size_t delta;

	if (!wg_posb_recording(b))
		return;
	switch (e->type) {
	case YAML_ALIAS_EVENT:
		wg_posb_stop_recording(b);
		return;
	case YAML_SCALAR_EVENT:
		if (v->anchor || v->tag
		    || (v->style == YAML_PLAIN_SCALAR_STYLE && v->length == 2
			&& memcmp(v->value, "<<", 2) == 0)) {
			wg_posb_stop_recording(b);
			return;
		}
		end = true;
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (v->anchor || v->tag)
			wg_posb_stop_recording(b);
		return;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		end = closes_flow;
		break;
	default:
		return;
	}
	if (!end)
		return;
	/* ends come in order; one that does not is left to a parse */
	if (v->end > UINT32_MAX || v->end < b->last_end) {
		wg_posb_stop_recording(b);
		return;
	}
	delta = v->end - b->last_end;
	if (delta >= WG_POS_END_FAR) {
		WG_GROW(ix->far, ix->far_cap, ix->nfar + 1);
		ix->far[ix->nfar++] = (uint32_t)v->end;
		delta = WG_POS_END_FAR;
	}
	WG_GROW(ix->ends, ix->ends_cap, ix->nends + 1);
	ix->ends[ix->nends++] = (uint16_t)delta;
	b->last_end = v->end;
}

/* One event into the index. */
void wg_posb_on_pev(struct builder *b, const struct pev *e)
{
	switch (e->type) {
	case YAML_STREAM_START_EVENT:
		if (b->streams++)	/* a parser per JSON value */
			b->failed = true;
		break;
	case YAML_DOCUMENT_START_EVENT:
		if (b->mode == ONE_DOC) {
			/* the document the scan saw, where it saw it */
			const struct wg_pos_doc *d = &b->ix->docs[b->doc];

			if (b->docs_seen++ || d->start != e->start
			    || d->explicit_start != !e->implicit)
				b->failed = true;
		} else {
			wg_posb_add_doc(b, e);
		}
		b->stack_len = 0;
		b->nframes = 0;
		break;
	case YAML_DOCUMENT_END_EVENT:
		if (wg_posb_recording(b))
			b->ix->docs[b->ix->ndocs - 1].rec_end = b->ix->nends;
		on_doc_end(b);
		break;
	case YAML_SCALAR_EVENT:
		on_scalar(b, e);
		break;
	case YAML_ALIAS_EVENT:
		push(b, new_node(b, WG_POS_ALIAS, e));
		set_end_line(b->ix, b->stack[b->stack_len - 1], e->end_line);
		break;
	case YAML_SEQUENCE_START_EVENT:
		on_start(b, e, WG_NODE_SEQ);
		break;
	case YAML_MAPPING_START_EVENT:
		on_start(b, e, WG_NODE_MAP);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		finish_collection(b, e);
		break;
	default:
		break;
	}
}

static void on_event(struct builder *b, const yaml_event_t *e)
{
	struct pev v;

	wg_posb_pev_of(b, e, &v);
	wg_posb_on_pev(b, &v);
}

void wg_posb_init(struct builder *b, struct wg_pos_index *ix,
		  enum mode mode)
{
	memset(b, 0, sizeof(*b));
	b->ix = ix;
	b->mode = mode;
	b->votes.data = ix->data;
}

void wg_posb_release(struct builder *b)
{
	free(b->stack);
	free(b->frames);
}

/* Parses text [from, to) of ix, whose first byte starts line line0, into
 * b.  Returns 0, or -1 with *error and *error_line set. */
static int parse_into(struct builder *b, size_t from, size_t to,
		      const char **error, size_t *error_line)
{
	yaml_parser_t parser;
	int rc = 0;

	yaml_parser_initialize(&parser);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&parser,
				     (const unsigned char *)b->ix->data + from,
				     to - from);
	for (bool done = false; !done;) {
		yaml_event_t e;

		if (!yaml_parser_parse(&parser, &e)) {
			*error = parser.problem ? parser.problem
						: "invalid YAML";
			*error_line = b->line0 + parser.problem_mark.line;
			rc = -1;
			break;
		}
		done = e.type == YAML_STREAM_END_EVENT;
		on_event(b, &e);
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&parser);
	return rc;
}

int wg_pos_index_build(struct wg_pos_index *ix, const char *data, size_t len,
		       const char **error, size_t *error_line)
{
	struct builder b;
	int rc;

	if (!wg_pos_index_start(ix, data, len)) {
		*error = "the text is 4 GiB or longer (migrate edits files "
			 "under 4 GiB)";
		*error_line = 0;
		return -1;
	}
	wg_posb_init(&b, ix, FULL);
	/* Without the BOM: with the encoding forced libyaml would read it
	 * as content.  Marks then count from lines[0], past it. */
	rc = parse_into(&b, ix->lines[0], len, error, error_line);
	if (rc == 0)
		wg_posb_pick_style(ix, &b.votes);
	wg_posb_release(&b);
	return rc;
}

/* Forgets the nodes of the document built last. */
void wg_posb_drop_doc(struct wg_pos_index *ix)
{
	if (ix->doc_built == SIZE_MAX)
		return;
	ix->docs[ix->doc_built].root = NULL;
	ix->docs[ix->doc_built].indexed = false;
	ix->docs[ix->doc_built].stubs = false;
	ix->doc_built = SIZE_MAX;
	wg_arena_clear(&ix->arena);
}

int wg_pos_index_doc(struct wg_pos_index *ix, size_t d)
{
	struct builder b;
	const char *err;
	size_t err_line, line, to;
	int rc;

	if (d >= ix->ndocs)
		return -1;
	if (ix->docs[d].indexed)
		return 0;
	wg_posb_drop_doc(ix);
	/* From the start of the line the document starts on (what comes
	 * before it there is blank, and columns then count alike) to the
	 * next document's start: a stream of this one document. */
	line = wg_pos_line_of(ix, ix->docs[d].start);
	to = d + 1 < ix->ndocs ? ix->docs[d + 1].start : ix->len;
	for (size_t i = ix->lines[line]; i < ix->docs[d].start; i++)
		if (ix->data[i] != ' ' && ix->data[i] != '\t')
			return -1;
	wg_posb_init(&b, ix, ONE_DOC);
	b.line0 = line;
	b.doc = d;
	rc = parse_into(&b, ix->lines[line], to, &err, &err_line);
	if (rc == 0 && (b.failed || b.docs_seen != 1
			|| !ix->docs[d].indexed))
		rc = -1;
	wg_posb_release(&b);
	if (rc == 0) {
		ix->doc_built = d;
	} else {
		ix->docs[d].root = NULL;
		ix->docs[d].indexed = false;
		wg_arena_clear(&ix->arena);
	}
	return rc;
}

void wg_pos_index_drop_nodes(struct wg_pos_index *ix)
{
	wg_posb_drop_doc(ix);
	wg_arena_release(&ix->arena);
}

void wg_pos_index_release(struct wg_pos_index *ix)
{
	if (ix->on_heap & WG_POS_HEAP_LINES)
		free(ix->lines);
	if (ix->on_heap & WG_POS_HEAP_WIDE)
		free(ix->wide);
	if (ix->on_heap & WG_POS_HEAP_ENDS)
		free(ix->ends);
	if (ix->on_heap & WG_POS_HEAP_FAR)
		free(ix->far);
	if (ix->on_heap & WG_POS_HEAP_IN_SCALAR)
		free(ix->in_scalar);
	if (ix->on_heap & WG_POS_HEAP_DOCS)
		free(ix->docs);
	wg_arena_release(&ix->arena);
	memset(ix, 0, sizeof(*ix));
}
