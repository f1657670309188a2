/*
 * Position index for migrate: byte spans of every node of a YAML text,
 * from libyaml events (the tree keeps only start marks): a parse of its
 * own over the whole text, or the reader's events scanned for the
 * layout and one document's text parsed again when it is edited.
 */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "wingen/base/alloc.h"

/* A collection being built. */
struct frame {
	struct wg_pos_node *node;
	size_t base;	/* its children are stack[base..] */
};

/* What a pass over events builds. */
enum mode {
	FULL,		/* every document's nodes (wg_pos_index_build) */
	SCAN,		/* no nodes: documents, records and votes from the
			   reader's events (scan_event(), wg_pos_scan_*) */
	ONE_DOC,	/* the nodes of one document parsed alone */
};

/* Votes for the indentation step and sequence style the file uses. */
struct votes {
	size_t step[9];
	size_t compact, indented;
	size_t item[9];		/* item content column - dash column */
	const char *data;
};

struct builder {
	struct wg_pos_index *ix;
	enum mode mode;
	size_t line0;	/* line of the parsed text's first byte */
	size_t doc;	/* ONE_DOC: the document's index in ix->docs */
	size_t docs_seen, streams, docs_cap;
	bool failed;	/* SCAN, ONE_DOC: the events were not what the
			   text's index expects */
	size_t last_end;	/* SCAN: the end recorded last, or the
				   document's start (ends are deltas) */
	struct votes votes;
	struct wg_pos_node **stack;
	size_t stack_len, stack_cap;
	struct frame *frames;
	size_t nframes, frames_cap;
};

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

/* Length of the line break at p (0 when none): CRLF, CR, LF, NEL, LS, PS. */
static size_t break_len(const char *p, const char *end)
{
	if (*p == '\n')
		return 1;
	if (*p == '\r')
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	if ((unsigned char)*p == 0xc2 && p + 1 < end
	    && (unsigned char)p[1] == 0x85)
		return 2;
	if ((unsigned char)*p == 0xe2 && p + 2 < end
	    && (unsigned char)p[1] == 0x80
	    && ((unsigned char)p[2] == 0xa8 || (unsigned char)p[2] == 0xa9))
		return 3;
	return 0;
}

/* Records that the line starting at lines[nlines - 1] ended (wide: it
 * held a multi-byte character).  The array is made at the first wide
 * line, sized for the lines counted so far (cap), which most files, all
 * ASCII, never reach. */
static void end_line(struct wg_pos_index *ix, size_t *cap, bool wide)
{
	if (!wide && !ix->wide)
		return;
	if (!ix->wide)
		ix->wide = wg_xcalloc(*cap, sizeof(*ix->wide));
	WG_GROW(ix->wide, *cap, ix->nlines);
	ix->wide[ix->nlines - 1] = wide;
}

bool wg_pos_line_wide(const struct wg_pos_index *ix, size_t line)
{
	return ix->wide && line < ix->nlines && ix->wide[line];
}

/*
 * Whether the 8 bytes at p may hold one below 0x20 or from 0x80 up (a
 * break, a control or a multi-byte character): a word at a time, as the
 * byte loop below was most of indexing a large file.  No false "no": a
 * byte b < 0x20 makes b - 0x20 borrow into its top bit, one >= 0x80 has
 * it set; borrows may flag a byte above such a one, which only sends
 * those 8 bytes to the byte loop.
 */
static inline bool maybe_special8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return ((w - 0x2020202020202020u) | w) & 0x8080808080808080u;
}

/*
 * Whether text [d, d + len) is ASCII with LF breaks alone: no CR, and no
 * byte from 0x80 up (a NEL, LS or PS, or any multi-byte character).  Its
 * lines then start after each LF and no line is wide, which memchr finds
 * at a fraction of the byte loop's cost (most files are such text).
 */
static bool ascii_lf_only(const char *d, size_t len)
{
	uint64_t seen = 0;
	size_t i = 0;

	for (; len - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		seen |= w;
	}
	for (; i < len; i++)
		seen |= (unsigned char)d[i];
	return !(seen & 0x8080808080808080u) && !memchr(d, '\r', len);
}

static void index_lines(struct wg_pos_index *ix)
{
	const char *d = ix->data, *end = ix->data + ix->len;
	size_t cap = 1, wide_cap, i = 0;
	bool first_break = true, wide = false;

	/* Sized by the LFs first (memchr is fast): a large file's array then
	 * is not copied as it grows; CR, NEL, LS and PS grow it further. */
	for (const char *p = d; p < end && (p = memchr(p, '\n',
						      (size_t)(end - p)));
	     p++)
		cap++;
	wide_cap = cap;
	ix->lines = wg_xcalloc(cap, sizeof(*ix->lines));
	if (ix->len >= 3 && memcmp(d, "\xef\xbb\xbf", 3) == 0)
		i = 3;	/* libyaml's marks do not count the BOM */
	WG_GROW(ix->lines, cap, 1);
	ix->lines[ix->nlines++] = (uint32_t)i;
	ix->eol = "\n";
	if (ascii_lf_only(d + i, ix->len - i)) {
		for (const char *p = d + i;
		     p < end && (p = memchr(p, '\n', (size_t)(end - p)));) {
			p++;
			WG_GROW(ix->lines, cap, ix->nlines + 1);
			ix->lines[ix->nlines++] = (uint32_t)(p - d);
		}
		i = ix->len;
	}
	while (i < ix->len) {
		unsigned char c;
		size_t b;

		/* most bytes: no break */
		while (ix->len - i >= 8 && !maybe_special8(d + i))
			i += 8;
		if (i >= ix->len)
			break;
		c = (unsigned char)d[i];
		if (c >= 0x20 && c < 0x80) {
			i++;
			continue;
		}
		b = break_len(d + i, end);
		if (!b) {
			wide = wide || c >= 0x80;
			i++;
			continue;
		}
		if (first_break && b == 2 && d[i] == '\r')
			ix->eol = "\r\n";
		first_break = false;
		i += b;
		end_line(ix, &wide_cap, wide);
		wide = false;
		WG_GROW(ix->lines, cap, ix->nlines + 1);
		ix->lines[ix->nlines++] = (uint32_t)i;	/* i <= len */
	}
	end_line(ix, &wide_cap, wide);
	/* A text ending in a break has an empty last "line" after it. */
	ix->final_newline = ix->len > 0 && ix->nlines > 1
			    && ix->lines[ix->nlines - 1] == ix->len;
}

size_t wg_pos_offset(const struct wg_pos_index *ix, size_t line, size_t col)
{
	size_t off;

	if (line >= ix->nlines)
		return ix->len;
	off = ix->lines[line];
	if (!wg_pos_line_wide(ix, line)) {	/* a byte a character */
		off += col;
		return off < ix->len ? off : ix->len;
	}
	while (col-- > 0 && off < ix->len) {
		unsigned char c = (unsigned char)ix->data[off];

		off += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	}
	return off < ix->len ? off : ix->len;
}

size_t wg_pos_line_of(const struct wg_pos_index *ix, size_t off)
{
	size_t lo = 0, hi = ix->nlines;

	/* last line whose start is <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Whether byte off is on line l (what wg_pos_line_of() gives). */
static bool on_line(const struct wg_pos_index *ix, size_t off, size_t l)
{
	return l < ix->nlines && ix->lines[l] <= off
	       && (l + 1 >= ix->nlines || off < ix->lines[l + 1]);
}

size_t wg_pos_line_near(const struct wg_pos_index *ix, size_t off,
			size_t hint)
{
	if (on_line(ix, off, hint))
		return hint;
	if (on_line(ix, off, hint + 1))
		return hint + 1;
	return wg_pos_line_of(ix, off);
}

size_t wg_pos_next_line(const struct wg_pos_index *ix, size_t off)
{
	size_t line = wg_pos_line_of(ix, off);

	return line + 1 < ix->nlines ? ix->lines[line + 1] : ix->len;
}

bool wg_pos_is_comment_line(const struct wg_pos_index *ix, size_t line)
{
	size_t off;

	if (line >= ix->nlines || ix->in_scalar[line])
		return false;
	off = ix->lines[line];
	while (off < ix->len && (ix->data[off] == ' ' || ix->data[off] == '\t'))
		off++;
	return off < ix->len && ix->data[off] == '#';
}

/* Marks count from the parsed text's first byte, the start of line
 * b->line0 (columns need no shift). */
static size_t mark_offset(const struct builder *b, const yaml_mark_t *m)
{
	return wg_pos_offset(b->ix, b->line0 + m->line, m->column);
}

/*
 * What the builder takes of an event: from libyaml's (pev_of()), or made
 * again from a scan's record and the reader's tree (replay below).
 */
struct pev {
	yaml_event_type_t type;
	uint32_t line, col;	/* start mark: the text's line, column */
	size_t start, end;	/* byte offsets of the start and end marks */
	size_t end_line;	/* the end mark's line (a hint) */
	int style;		/* libyaml's scalar or collection style */
	bool anchor, tag, implicit;
	const char *value;	/* scalar */
	size_t length;
};

static void pev_of(const struct builder *b, const yaml_event_t *e,
		   struct pev *v)
{
	memset(v, 0, sizeof(*v));
	v->type = e->type;
	v->line = (uint32_t)(b->line0 + e->start_mark.line);
	v->col = (uint32_t)e->start_mark.column;
	v->start = mark_offset(b, &e->start_mark);
	v->end = mark_offset(b, &e->end_mark);
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
static size_t find_dash(const struct wg_pos_index *ix, size_t off)
{
	const char *d = ix->data, *end = ix->data + ix->len;

	while (off < ix->len) {
		size_t b = break_len(d + off, end);

		if (b) {
			off += b;
		} else if (d[off] == ' ' || d[off] == '\t') {
			off++;
		} else if (d[off] == '#') {
			while (off < ix->len && !break_len(d + off, end))
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
static size_t end_line_of(const struct wg_pos_index *ix, size_t start,
			  size_t end, size_t line, size_t hint)
{
	size_t last = end - 1;

	if (end <= start)
		return line;
	if (on_line(ix, last, hint))
		return hint;
	if (hint > 0 && on_line(ix, last, hint - 1))
		return hint - 1;
	return wg_pos_line_of(ix, last);
}

static void set_end_line(const struct wg_pos_index *ix, struct wg_pos_node *n,
			 size_t hint)
{
	n->end_line = (uint32_t)end_line_of(ix, n->start, n->end, n->line,
					    hint);
}

/* Lines (line, end_line] are inside a scalar's text. */
static void mark_in_scalar(struct wg_pos_index *ix, size_t line,
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
			n->dashes[i] = find_dash(b->ix, n->items[i - 1]->end);
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
	mark_in_scalar(ix, n->line, n->end_line);
	push(b, n);
}

/* e->style is 1 for a flow collection (pev_of()). */
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

static void add_doc(struct builder *b, const struct pev *e)
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
static void vote_value(struct votes *v, int kind, uint32_t map_col,
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
static void vote_item(struct votes *v, size_t dash, size_t start)
{
	if (dash != SIZE_MAX && start > dash && start - dash <= 8
	    && spaces_between(v->data, dash + 1, start))
		v->item[start - dash]++;
}

static void vote(const struct wg_pos_node *n, struct votes *v)
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
			vote_value(v, val->kind, n->col, val->col);
	}
	for (size_t i = 0; n->kind == WG_NODE_SEQ && n->dashes && i < n->len;
	     i++)
		if (n->items[i]->kind == WG_NODE_MAP)
			vote_item(v, n->dashes[i], n->items[i]->start);
	for (size_t i = 0; i < k; i++)
		vote(n->items[i], v);
}

/* The layout most of the file's collections use. */
static void pick_style(struct wg_pos_index *ix, const struct votes *v)
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
		vote(root, &b->votes);
	ix->docs[ix->ndocs - 1].root = root;
	ix->docs[ix->ndocs - 1].indexed = true;
}

/* The document the scan is in, when it is still being recorded. */
static struct wg_pos_doc *recording(struct builder *b)
{
	struct wg_pos_index *ix = b->ix;

	if (b->mode != SCAN || !ix->ndocs || !ix->docs[ix->ndocs - 1].recorded
	    || ix->docs[ix->ndocs - 1].rec_end != SIZE_MAX)
		return NULL;
	return &ix->docs[ix->ndocs - 1];
}

/* Stops recording the current document: its events and tree may not
 * match one for one. */
static void stop_recording(struct builder *b)
{
	struct wg_pos_doc *d = recording(b);

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
static void record(struct builder *b, const yaml_event_t *e,
		   const struct pev *v, bool closes_flow)
{
	struct wg_pos_index *ix = b->ix;
	bool end = false;
	size_t delta;

	if (!recording(b))
		return;
	switch (e->type) {
	case YAML_ALIAS_EVENT:
		stop_recording(b);
		return;
	case YAML_SCALAR_EVENT:
		if (v->anchor || v->tag
		    || (v->style == YAML_PLAIN_SCALAR_STYLE && v->length == 2
			&& memcmp(v->value, "<<", 2) == 0)) {
			stop_recording(b);
			return;
		}
		end = true;
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (v->anchor || v->tag)
			stop_recording(b);
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
		stop_recording(b);
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
static void on_pev(struct builder *b, const struct pev *e)
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
			add_doc(b, e);
		}
		b->stack_len = 0;
		b->nframes = 0;
		break;
	case YAML_DOCUMENT_END_EVENT:
		if (recording(b))
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

	pev_of(b, e, &v);
	on_pev(b, &v);
}

/* ---- the scan: the reader's events, voted on as they come ------------- */

static struct scan_frame *scan_top(struct wg_pos_scan *s)
{
	return s->nframes ? &s->frames[s->nframes - 1] : NULL;
}

/* A node starts: it may be its mapping's key, or a value or an item the
 * layout votes on (what vote() counts on a document's nodes). */
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
			vote_value(&b->votes, kind, p->col, v->col);
	} else if (kind == WG_NODE_MAP) {
		size_t dash = p->count ? find_dash(b->ix, p->end)
			      : b->ix->data[p->start] == '-' ? p->start
							      : SIZE_MAX;

		vote_item(&b->votes, dash, v->start);
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

	add_doc(&s->b, v);
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
 * lines inside it).  What scan_event() does with pev_of()'s whole event.
 */
static void scan_scalar(struct wg_pos_scan *s, const yaml_event_t *e)
{
	struct builder *b = &s->b;
	struct scan_frame *p = scan_top(s);
	struct pev v;

	v.type = YAML_SCALAR_EVENT;
	v.line = (uint32_t)(b->line0 + e->start_mark.line);
	v.end = mark_offset(b, &e->end_mark);
	v.style = e->data.scalar.style;
	v.anchor = e->data.scalar.anchor != NULL;
	v.tag = e->data.scalar.tag != NULL;
	v.value = (const char *)e->data.scalar.value;
	v.length = e->data.scalar.length;
	record(b, e, &v, p && p->flow);
	/* scan_node_start(): a scalar only ever notes its key's line */
	if (p && !p->flow && p->map && p->count % 2 == 0)
		p->key_line = v.line;
	if (e->end_mark.line != e->start_mark.line) {
		v.start = mark_offset(b, &e->start_mark);
		mark_in_scalar(b->ix, v.line,
			       end_line_of(b->ix, v.start, v.end, v.line,
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
	 * leaves no record (record(), scan_end()) */
	if ((e->type == YAML_MAPPING_END_EVENT
	     || e->type == YAML_SEQUENCE_END_EVENT)
	    && s->nframes && !s->frames[s->nframes - 1].flow) {
		size_t end = s->frames[--s->nframes].end;

		scan_node_done(s, end);
		return;
	}
	pev_of(b, e, &v);
	/* before the end pops its frame */
	record(b, e, &v, s->nframes && s->frames[s->nframes - 1].flow);
	switch (v.type) {
	case YAML_STREAM_START_EVENT:
		if (b->streams++)	/* a parser per JSON value */
			b->failed = true;
		break;
	case YAML_DOCUMENT_START_EVENT:
		scan_doc_start(s, &v);
		break;
	case YAML_DOCUMENT_END_EVENT:
		if (recording(b))
			b->ix->docs[b->ix->ndocs - 1].rec_end = b->ix->nends;
		if (s->nframes)		/* a collection left open */
			b->failed = true;
		break;
	case YAML_SCALAR_EVENT:
		scan_node_start(s, &v, WG_NODE_SCALAR);
		mark_in_scalar(b->ix, v.line,
			       end_line_of(b->ix, v.start, v.end, v.line,
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

/* The index's lines, before any event; none for a text too long to
 * index (returns false). */
static bool index_start(struct wg_pos_index *ix, const char *data,
			size_t len)
{
	memset(ix, 0, sizeof(*ix));
	ix->data = data;
	ix->len = len;
	ix->on_heap = WG_POS_HEAP_ALL;
	wg_arena_init(&ix->arena);
	ix->doc_built = SIZE_MAX;
	if (len > WG_POS_MAX_TEXT)
		return false;
	index_lines(ix);
	ix->in_scalar = wg_xcalloc(ix->nlines, 1);
	return true;
}

static void builder_init(struct builder *b, struct wg_pos_index *ix,
			 enum mode mode)
{
	memset(b, 0, sizeof(*b));
	b->ix = ix;
	b->mode = mode;
	b->votes.data = ix->data;
}

static void builder_release(struct builder *b)
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

	if (!index_start(ix, data, len)) {
		*error = "the text is 4 GiB or longer (migrate edits files "
			 "under 4 GiB)";
		*error_line = 0;
		return -1;
	}
	builder_init(&b, ix, FULL);
	/* Without the BOM: with the encoding forced libyaml would read it
	 * as content.  Marks then count from lines[0], past it. */
	rc = parse_into(&b, ix->lines[0], len, error, error_line);
	if (rc == 0)
		pick_style(ix, &b.votes);
	builder_release(&b);
	return rc;
}

struct wg_pos_scan *wg_pos_scan_start(struct wg_pos_index *ix,
				      const char *data, size_t len)
{
	struct wg_pos_scan *s = wg_xcalloc(1, sizeof(*s));

	s->too_long = !index_start(ix, data, len);
	ix->partial = true;
	/* Sized once for two scalars a line ("key: value") and cut to size
	 * at the end, not grown by doubling: a file's array was six
	 * reallocations, whose freed chunks, over 50,000 files, left the
	 * heap in pieces (glibc's unlink_chunk). */
	ix->ends_cap = 2 * ix->nlines + 8;
	ix->ends = wg_xmalloc(ix->ends_cap * sizeof(*ix->ends));
	builder_init(&s->b, ix, SCAN);
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
		pick_style(ix, &b->votes);
	stop_recording(b);	/* a document never ended */
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
	builder_release(b);
	free(scan->frames);
	free(scan);
	return rc;
}

/* Forgets the nodes of the document built last. */
static void drop_doc(struct wg_pos_index *ix)
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
	drop_doc(ix);
	/* From the start of the line the document starts on (what comes
	 * before it there is blank, and columns then count alike) to the
	 * next document's start: a stream of this one document. */
	line = wg_pos_line_of(ix, ix->docs[d].start);
	to = d + 1 < ix->ndocs ? ix->docs[d + 1].start : ix->len;
	for (size_t i = ix->lines[line]; i < ix->docs[d].start; i++)
		if (ix->data[i] != ' ' && ix->data[i] != '\t')
			return -1;
	builder_init(&b, ix, ONE_DOC);
	b.line0 = line;
	b.doc = d;
	rc = parse_into(&b, ix->lines[line], to, &err, &err_line);
	if (rc == 0 && (b.failed || b.docs_seen != 1
			|| !ix->docs[d].indexed))
		rc = -1;
	builder_release(&b);
	if (rc == 0) {
		ix->doc_built = d;
	} else {
		ix->docs[d].root = NULL;
		ix->docs[d].indexed = false;
		wg_arena_clear(&ix->arena);
	}
	return rc;
}

/* ---- building a document again from the scan's records ---------------- */

/*
 * A replay walks the reader's tree of a recorded document and makes its
 * position nodes directly: starts from the tree's marks, ends from the
 * records, in the order the scan kept them.  What a parse would make of
 * the same events (on_pev()), without the events: the tree tells each
 * collection's size ahead, so its items go straight into place.  The
 * scan already marked the lines inside scalars.
 */
struct replay {
	struct wg_pos_index *ix;
	const uint16_t *end, *stop;	/* the next recorded end */
	const uint32_t *far;		/* the next far one */
	size_t last_end;	/* the end read last (ends are deltas) */
	size_t line;	/* the line of the last start mark, a search hint */
	const struct wg_node *root;	/* always built in full */
	const struct wg_node *const *expand;	/* sorted; NULL: all */
	size_t nexpand;
	bool bad;
};

/* The line holding byte off, searched from r->line onwards (marks come in
 * order, and most nodes end on the line they start on). */
static size_t line_from(const struct wg_pos_index *ix, size_t from, size_t off)
{
	size_t l = from < ix->nlines ? from : ix->nlines - 1;

	if (ix->lines[l] > off)
		return wg_pos_line_of(ix, off);
	for (int step = 0; l + 1 < ix->nlines && ix->lines[l + 1] <= off;
	     step++, l++)
		if (step == 8)
			return wg_pos_line_of(ix, off);
	return l;
}

/* The next recorded end offset, not taken (r->end < r->stop). */
static size_t peek_end(const struct replay *r)
{
	return *r->end == WG_POS_END_FAR ? *r->far : r->last_end + *r->end;
}

/* Takes the next recorded end into *end, for a node starting at start:
 * false when none is left or it lies before start (tree and records
 * differ). */
static bool take_end(struct replay *r, size_t start, size_t *end)
{
	if (r->end >= r->stop)
		return false;
	*end = peek_end(r);
	if (*r->end++ == WG_POS_END_FAR)
		r->far++;
	r->last_end = *end;
	return *end >= start;
}

/* A node of kind starting at byte start, on line at column col; it ends
 * where it starts until its end is known. */
static struct wg_pos_node *replay_new(struct replay *r, int kind, size_t line,
				      size_t col, size_t start)
{
	struct wg_pos_node *p = wg_arena_alloc(&r->ix->arena, sizeof(*p));

	*p = (struct wg_pos_node){ .kind = (uint8_t)kind,
				   .line = (uint32_t)line,
				   .col = (uint32_t)col, .start = start,
				   .end = start, .end_line = (uint32_t)line };
	r->line = line;
	return p;
}

/* Scalar n, starting at byte start (line, col): its end is the next
 * record, its end line that of its last byte. */
static struct wg_pos_node *replay_scalar(struct replay *r,
					 const struct wg_node *n, size_t line,
					 size_t col, size_t start)
{
	struct wg_pos_node *p;
	size_t end;

	if (!take_end(r, start, &end)) {
		r->bad = true;
		return NULL;
	}
	p = replay_new(r, WG_NODE_SCALAR, line, col, start);
	p->end = end;
	if (end > start)
		p->end_line = (uint32_t)line_from(r->ix, line, end - 1);
	p->style = n->style;
	p->text = n->u.str;	/* the tree outlives the nodes (migrate.h) */
	p->text_len = n->len;
	return p;
}

/* The column, in characters, of byte off of line l. */
static size_t column_of(const struct wg_pos_index *ix, size_t l, size_t off)
{
	size_t col = 0;

	if (!wg_pos_line_wide(ix, l))
		return off - ix->lines[l];
	for (size_t i = ix->lines[l]; i < off; col++) {
		unsigned char c = (unsigned char)ix->data[i];

		i += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	}
	return col;
}

/* Whether a key's text, printable ASCII without its quote (or a
 * backslash, in double quotes), is its source between the quotes. */
static bool key_text_is_source(const struct wg_node *n, char quote)
{
	size_t i = 0;

	/* a plain key 8 bytes at a time (every key of a document replayed):
	 * no byte below 0x20 (a borrow into its top bit) and none from 0x7f
	 * up (0x7f + 1, or its own top bit); a carry may flag a byte past a
	 * flagged one, which the loop below then looks at */
	if (!quote)
		for (uint64_t w; n->len - i >= 8; i += 8) {
			memcpy(&w, n->u.str + i, 8);
			if (((w - 0x2020202020202020u) | (w + 0x0101010101010101u)
			     | w) & 0x8080808080808080u)
				break;
		}
	for (; i < n->len; i++) {
		unsigned char c = (unsigned char)n->u.str[i];

		if (c < 0x20 || c > 0x7e || (quote && c == quote)
		    || (quote == '"' && c == '\\'))
			return false;
	}
	return true;
}

/*
 * A shared mapping key (resource.h, share_keys) has no position of its
 * own; its end is in the records.  Its start is that end less its source,
 * which is its text (plain) or its text in quotes, when its text is
 * printable ASCII with no quote or escape to write: then the source can
 * be nothing else, on one line.  Any other key is not replayed (the
 * document is parsed instead).
 */
static struct wg_pos_node *replay_shared_key(struct replay *r,
					     const struct wg_node *n)
{
	const struct wg_pos_index *ix = r->ix;
	char quote = n->style == WG_STYLE_SINGLE ? '\''
		     : n->style == WG_STYLE_DOUBLE ? '"' : 0;
	size_t q = quote ? 1 : 0, end, start, line;

	if (r->end >= r->stop || wg_node_tag(n)
	    || (n->style != WG_STYLE_PLAIN && !quote)
	    || !key_text_is_source(n, quote)) {
		r->bad = true;
		return NULL;
	}
	end = peek_end(r);
	if (end > ix->len || end < n->len + 2 * q) {
		r->bad = true;
		return NULL;
	}
	start = end - n->len - 2 * q;
	if ((q && (ix->data[start] != quote || ix->data[end - 1] != quote))
	    || memcmp(ix->data + start + q, n->u.str, n->len) != 0) {
		r->bad = true;
		return NULL;
	}
	line = line_from(ix, r->line, start);
	return replay_scalar(r, n, line, column_of(ix, line, start), start);
}

/* Where collection p, its k items made, ends: a flow one at the next
 * record, a block one with its last item; and its end line. */
static void replay_end(struct replay *r, struct wg_pos_node *p, size_t k)
{
	const struct wg_pos_index *ix = r->ix;
	size_t hint;

	if (p->flags & WG_POS_FLOW) {
		if (!take_end(r, p->start, &p->end)) {
			r->bad = true;
			return;
		}
		hint = line_from(ix, r->line, p->end);
	} else if (k) {
		p->end = p->items[k - 1]->end;
		hint = p->items[k - 1]->end_line;
	} else {
		hint = p->line;
	}
	p->end_line = (uint32_t)end_line_of(ix, p->start, p->end, p->line,
					    hint);
}

/* Whether collection n is to be built with its items. */
static bool expanded(const struct replay *r, const struct wg_node *n)
{
	size_t lo = 0, hi = r->nexpand;

	if (!r->expand)
		return true;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->expand[mid] == n)
			return true;
		if ((uintptr_t)r->expand[mid] < (uintptr_t)n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * The records below collection n (its own included): one for each scalar,
 * shared keys too, and one for each flow collection, after its items'.
 * A node a replay would refuse (replay_node()) makes the replay bad here
 * too, so a stub falls back to the parse exactly where a full replay
 * would.
 */
static size_t records_below(struct replay *r, const struct wg_node *n,
			    bool key)
{
	size_t k, count;

	if (!n || (n->flags & WG_NODE_NEW) || wg_node_tag(n)
	    || (!wg_node_has_pos(n) && !(key && n->kind == WG_NODE_SCALAR))) {
		r->bad = true;
		return 0;
	}
	if (n->kind == WG_NODE_SCALAR)
		return 1;
	count = n->flags & WG_NODE_FLOW ? 1 : 0;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	for (size_t i = 0; i < k && !r->bad; i++) {
		const struct wg_node *c = n->u.items[i];

		/* most children are scalars: no call for them */
		if (c && c->kind == WG_NODE_SCALAR
		    && !(c->flags & (WG_NODE_NEW | WG_NODE_EXT))
		    && (wg_node_has_pos(c) || (n->kind == WG_NODE_MAP
					       && i % 2 == 0)))
			count++;
		else
			count += records_below(r, c, n->kind == WG_NODE_MAP
						      && i % 2 == 0);
	}
	return count;
}

/*
 * Collection n (its start mark read) as a stub: its records are skipped,
 * the last of them being its end (a block collection ends with its last
 * item, a flow one at its own record, which comes after its items').
 */
static struct wg_pos_node *replay_stub(struct replay *r,
				       const struct wg_node *n, size_t line,
				       size_t col, size_t start)
{
	struct wg_pos_node *p;
	size_t count = records_below(r, n, false), end = start;

	if (r->bad || !count) {
		r->bad = true;
		return NULL;
	}
	for (size_t i = 0; i < count; i++)
		if (!take_end(r, start, &end)) {
			r->bad = true;
			return NULL;
		}
	p = replay_new(r, n->kind, line, col, start);
	p->flags = WG_POS_STUB | (n->flags & WG_NODE_FLOW ? WG_POS_FLOW : 0);
	p->end = end;
	if (end > start)
		p->end_line = (uint32_t)line_from(r->ix, line, end - 1);
	r->line = p->end_line;
	return p;
}

static struct wg_pos_node *replay_node(struct replay *r,
				       const struct wg_node *n)
{
	struct wg_pos_index *ix = r->ix;
	struct wg_pos_node *p;
	size_t line, col, start, k;

	/* a node the reader did not make from the event has no marks */
	if (r->bad || !n || (n->flags & WG_NODE_NEW) || !wg_node_has_pos(n)
	    || wg_node_tag(n)) {
		r->bad = true;
		return NULL;
	}
	line = wg_node_line(n);
	col = wg_node_col(n);
	start = wg_pos_offset(ix, line, col);
	if (n->kind == WG_NODE_SCALAR)
		return replay_scalar(r, n, line, col, start);
	if (n != r->root && !expanded(r, n))
		return replay_stub(r, n, line, col, start);
	p = replay_new(r, n->kind, line, col, start);
	if (n->flags & WG_NODE_FLOW)
		p->flags |= WG_POS_FLOW;
	p->len = n->len;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	if (k)
		p->items = wg_arena_alloc(&ix->arena, k * sizeof(*p->items));
	for (size_t i = 0; i < k; i++) {
		const struct wg_node *c = n->u.items[i];
		struct wg_pos_node *item;

		if (n->kind == WG_NODE_MAP && i % 2 == 0 && c
		    && c->kind == WG_NODE_SCALAR && !(c->flags & WG_NODE_NEW)
		    && !wg_node_has_pos(c))
			item = replay_shared_key(r, c);
		else
			item = replay_node(r, c);
		if (r->bad)
			return NULL;
		item->parent = p;
		p->items[i] = item;
	}
	replay_end(r, p, k);
	if (r->bad)
		return NULL;
	if (n->kind == WG_NODE_SEQ && !(p->flags & WG_POS_FLOW) && k) {
		p->dashes = wg_arena_alloc(&ix->arena, k * sizeof(*p->dashes));
		p->dashes[0] = ix->data[start] == '-' ? start : SIZE_MAX;
		for (size_t i = 1; i < k; i++)
			p->dashes[i] = find_dash(ix, p->items[i - 1]->end);
	}
	/* no WG_POS_MERGE: a document with a plain "<<" anywhere is not
	 * recorded (record()), so it is parsed, never replayed */
	return p;
}

/* Builds document d's nodes from the scan's records and tree root:
 * every node, or stubs beside expand (wg_pos_index_doc_tree_for()). */
static int replay_doc(struct wg_pos_index *ix, size_t d,
		      const struct wg_node *root,
		      const struct wg_node *const *expand, size_t nexpand)
{
	const struct wg_pos_doc *doc = &ix->docs[d];
	struct replay r = {
		.ix = ix,
		.end = ix->ends + doc->rec_first,
		.stop = ix->ends + doc->rec_end,
		.far = ix->far ? ix->far + doc->far_first : NULL,
		.last_end = doc->start,
		.root = root,
		.expand = expand,
		.nexpand = nexpand,
	};
	struct wg_pos_node *p = replay_node(&r, root);

	if (r.bad || r.end != r.stop)
		return -1;
	ix->docs[d].root = p;
	ix->docs[d].indexed = true;
	return 0;
}

int wg_pos_index_doc_tree(struct wg_pos_index *ix, size_t d,
			  const struct wg_node *root)
{
	return wg_pos_index_doc_tree_for(ix, d, root, NULL, 0);
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct wg_node *const *)a;
	uintptr_t y = (uintptr_t)*(const struct wg_node *const *)b;

	return x < y ? -1 : x > y;
}

void wg_pos_sort_nodes(const struct wg_node **nodes, size_t n)
{
	if (n > 1)
		wg_sort(nodes, n, sizeof(*nodes), by_address);
}

int wg_pos_index_doc_tree_for(struct wg_pos_index *ix, size_t d,
			      const struct wg_node *root,
			      const struct wg_node *const *expand, size_t n)
{
	if (d >= ix->ndocs)
		return -1;
	if (ix->docs[d].indexed) {
		if (!ix->docs[d].stubs)
			return 0;
		/* its stubs are another call's: what this one needs may
		 * be a stub there (the plan asks once a document) */
		drop_doc(ix);
	}
	if (root && ix->docs[d].recorded) {
		drop_doc(ix);
		if (replay_doc(ix, d, root, expand, n) == 0) {
			ix->docs[d].stubs = expand != NULL;
			ix->doc_built = d;
			ix->replayed++;
			return 0;
		}
		ix->docs[d].root = NULL;
		ix->docs[d].indexed = false;
		wg_arena_clear(&ix->arena);
	}
	return wg_pos_index_doc(ix, d);
}

void wg_pos_index_drop_nodes(struct wg_pos_index *ix)
{
	drop_doc(ix);
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

/* ---- tree node -> position node ---------------------------------------- */

static size_t hash_ptr(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static void map_put(struct wg_pos_map *m, const struct wg_node *key,
		    struct wg_pos_node *value)
{
	size_t i;

	if (2 * (m->len + 1) > m->cap) {
		struct wg_pos_map bigger = { NULL, NULL, m->cap ? 2 * m->cap
							       : 64, 0, NULL };

		bigger.keys = wg_xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.values = wg_xcalloc(bigger.cap, sizeof(*bigger.values));
		bigger.used = wg_xmalloc((bigger.cap / 2) * sizeof(*bigger.used));
		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j])
				map_put(&bigger, m->keys[j], m->values[j]);
		wg_pos_map_release(m);
		*m = bigger;
	}
	for (i = hash_ptr(key, m->cap); m->keys[i] && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->keys[i])
		m->used[m->len++] = i;
	m->keys[i] = key;
	m->values[i] = value;
}

struct wg_pos_node *wg_pos_map_get(const struct wg_pos_map *m,
				   const struct wg_node *node)
{
	if (!m->cap || !node)
		return NULL;
	for (size_t i = hash_ptr(node, m->cap); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == node)
			return m->values[i];
	return NULL;
}

void wg_pos_map_clear(struct wg_pos_map *m)
{
	/* values of empty slots are never read: only the keys need zeros */
	for (size_t k = 0; k < m->len; k++)
		m->keys[m->used[k]] = NULL;
	m->len = 0;
}

void wg_pos_map_release(struct wg_pos_map *m)
{
	free(m->keys);
	free(m->values);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static bool key_is(const struct wg_pos_node *k, const struct wg_node *key)
{
	return k->kind == WG_NODE_SCALAR && k->text_len == key->len
	       && memcmp(k->text, key->u.str, key->len) == 0;
}

/* Pair j of position mapping pos that holds tree key k: j == i first (the
 * usual case), else the first pair with k's text; pos->len when none (a
 * pair merged in by "<<"). */
static size_t pair_of(const struct wg_pos_node *pos, const struct wg_node *k,
		      size_t i)
{
	size_t j = i;

	if (j >= pos->len || !key_is(wg_pos_key(pos, j), k))
		for (j = 0; j < pos->len; j++)
			if (key_is(wg_pos_key(pos, j), k))
				break;
	return j;
}

struct wg_pos_node *wg_pos_map_key(const struct wg_pos_map *m,
				   const struct wg_node *parent, size_t i)
{
	struct wg_pos_node *pos = wg_pos_map_get(m, parent);
	size_t j;

	if (!pos || pos->kind != WG_NODE_MAP || !wg_is_map(parent)
	    || i >= parent->len)
		return NULL;
	j = pair_of(pos, wg_map_key(parent, i), i);
	return j < pos->len ? wg_pos_key(pos, j) : NULL;
}

void wg_pos_map_add_tree(struct wg_pos_map *m, const struct wg_node *tree,
			 struct wg_pos_node *pos)
{
	map_put(m, tree, pos);
	if (pos->kind == WG_POS_ALIAS || pos->kind != tree->kind
	    || (pos->flags & WG_POS_STUB))
		return;
	if (tree->kind == WG_NODE_SEQ) {
		for (size_t i = 0; i < tree->len && i < pos->len; i++)
			wg_pos_map_add_tree(m, wg_seq_item(tree, i),
					    pos->items[i]);
		return;
	}
	if (tree->kind != WG_NODE_MAP)
		return;
	/* keys are found through their mapping (wg_pos_map_key()): a
	 * shared key node stands in many places */
	for (size_t i = 0; i < tree->len; i++) {
		size_t j = pair_of(pos, wg_map_key(tree, i), i);

		if (j >= pos->len)
			continue;	/* merged in by "<<" */
		wg_pos_map_add_tree(m, wg_map_value(tree, i),
				    wg_pos_value(pos, j));
	}
}
