/*
 * Building a document's position nodes again from the scan's records
 * and the reader's tree, without parsing its text again.
 */
#include "posindex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

/*
 * A replay walks the reader's tree of a recorded document and makes its
 * position nodes directly: starts from the tree's marks, ends from the
 * records, in the order the scan kept them.  What a parse would make of
 * the same events (wg_posb_on_pev()), without the events: the tree tells each
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
	p->end_line = (uint32_t)wg_posb_end_line_of(ix, p->start, p->end, p->line,
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
			p->dashes[i] = wg_posb_find_dash(ix, p->items[i - 1]->end);
	}
	/* no WG_POS_MERGE: a document with a plain "<<" anywhere is not
	 * recorded (wg_posb_record()), so it is parsed, never replayed */
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
		wg_posb_drop_doc(ix);
	}
	if (root && ix->docs[d].recorded) {
		wg_posb_drop_doc(ix);
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
