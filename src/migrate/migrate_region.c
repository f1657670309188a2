/*
 * migrate's read-back of an edited document by its edited pairs alone
 * (wg_readback_regions): the runs of sibling pairs that hold the edits are
 * each read back on their own, and the rest of the document is shown the
 * same by the trees, so most of an edited document is not parsed again.
 *
 * Why a run can be read alone.  Take a run of pairs [a, b) of a block
 * mapping M whose keys stand first on their lines at column c.  Its text
 * starts at the line of key a and ends where the next line with content
 * (not blank, not a comment) starts: that line is at a column below c, or
 * is the next key of M at column c, or the document ends there.  libyaml
 * scans block context by indentation alone, and no simple key, flow
 * collection or scalar crosses a line that starts a key at column c or
 * less, so the pairs read the same in the document as in their text
 * alone, and what follows reads the same after them.  The edited text of
 * the run, read alone, is compared with the expected pairs as libyaml's
 * events come (wg_readback_same: no alias, anchor, tag or "<<"; the
 * document was recorded by the scan, so none of those is outside the run
 * either).  Every edit lies inside a run, and the trees outside the runs
 * are compared node by node: together that is the whole document.
 *
 * New pairs alone.  When every edit inserts whole lines that start with a
 * key at M's column c, right where the text of a pair i of M ends (the
 * next line with content, as above), the inserted lines are a run of
 * their own with no pair of before: they start at a key at column c and
 * end where pair i's text ended, at a line that closed pair i, so it
 * closes them.  Pair i's text is unchanged and is now closed by a key of
 * M at column c: it reads the same, and is compared in the trees.  Only
 * the inserted lines are read back (pinning a workload adds a
 * nodeSelector after the pod spec's last pair, which may be a long list
 * of containers).
 *
 * Anything this does not follow is "unsure" and the caller reads the
 * whole document back, as before.
 */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

/* Runs per document (an edited workload has a handful). */
#define MAX_RUNS 32

struct run {
	const struct wg_pos_node *pos;	/* the block mapping M */
	const struct wg_node *before;	/* M in the before-tree */
	const struct wg_node *after;	/* M in the after-tree */
	size_t a, b;		/* pairs [a, b) of before; a == b: none, the
				   new pairs after pair a - 1 (new_pairs) */
	size_t start, end;	/* text: from key a's line to the next
				   content line (absolute offsets) */
	size_t depth;		/* collections above M */
};

struct regions {
	const struct wg_pos_index *ix;
	size_t doc_end;		/* absolute offset: the document's end */
	struct run runs[MAX_RUNS];
	size_t nruns;
};

static bool is_blank_line(const struct wg_pos_index *ix, size_t line)
{
	size_t off = ix->lines[line];

	while (off < ix->len && (ix->data[off] == ' ' || ix->data[off] == '\t'
				 || ix->data[off] == '\r'))
		off++;
	return off >= ix->len || ix->data[off] == '\n';
}

/* Columns of leading spaces of the line at off (a line start). */
static size_t indent_at(const struct wg_pos_index *ix, size_t off)
{
	size_t i = off;

	while (i < ix->len && ix->data[i] == ' ')
		i++;
	return i - off;
}

/*
 * Where pair i's run text would end: the start of the first line after
 * its value's content that has content, or the document's end; SIZE_MAX
 * when that line does not close the pair as the reasoning above needs.
 */
static size_t pair_end(const struct regions *rg, const struct wg_pos_node *m,
		       size_t i, size_t col)
{
	const struct wg_pos_index *ix = rg->ix;
	const struct wg_pos_node *k = wg_pos_key(m, i);
	const struct wg_pos_node *v = wg_pos_value(m, i);
	/* the last byte of the pair: its value's, or its key's when the
	 * value is empty */
	const struct wg_pos_node *last = v->end > k->end ? v : k;
	size_t stop = last->end, off, line, ind;

	/* the line after the one holding that byte (its end_line) */
	line = wg_pos_line_near(ix, stop ? stop - 1 : 0, last->end_line) + 1;
	off = line < ix->nlines ? ix->lines[line] : ix->len;
	while (off < rg->doc_end && line < ix->nlines
	       && (is_blank_line(ix, line) || wg_pos_is_comment_line(ix, line))) {
		line++;
		off = line < ix->nlines ? ix->lines[line] : ix->len;
	}
	if (off >= rg->doc_end)
		return rg->doc_end;
	ind = indent_at(ix, off);
	if (ind > col)
		return SIZE_MAX;
	/* a "- " at column c could go on a sequence of the run's last
	 * value (an indentless one): not followed */
	if (ind == col && ix->data[off + ind] == '-'
	    && (off + ind + 1 >= ix->len || ix->data[off + ind + 1] == ' '
		|| ix->data[off + ind + 1] == '\n'
		|| ix->data[off + ind + 1] == '\r'))
		return SIZE_MAX;
	return off;
}

/* The start of key i's line when the key stands first on it at column
 * col (only spaces before it), else SIZE_MAX. */
static size_t pair_line_start(const struct wg_pos_index *ix,
			      const struct wg_pos_node *m, size_t i, size_t col)
{
	const struct wg_pos_node *k = wg_pos_key(m, i);
	size_t ls = ix->lines[wg_pos_line_near(ix, k->start, k->line)];

	if (k->kind != WG_NODE_SCALAR || k->style > WG_STYLE_DOUBLE
	    || k->start - ls != col || indent_at(ix, ls) != col)
		return SIZE_MAX;
	return ls;
}

/* Column of a line's first byte that is not a space, for text starting
 * at a line start in the original (a deletion) or of inserted text. */
static size_t edit_column(const struct wg_pos_index *ix,
			  const struct wg_edit *e, size_t doc_start)
{
	size_t at = doc_start + e->start;

	if (at && ix->data[at - 1] != '\n')
		return SIZE_MAX;	/* inside a line: no column of its own */
	if (e->len) {
		size_t i = 0;

		while (i < e->len && e->text[i] == ' ')
			i++;
		return i;
	}
	return indent_at(ix, at);
}

static bool pos_is_block_map(const struct wg_pos_node *p)
{
	return p && p->kind == WG_NODE_MAP && !(p->flags & WG_POS_FLOW);
}

/* Does M's tree agree with its position node pair for pair (keys)? */
static bool pairs_match(const struct wg_pos_node *p, const struct wg_node *t)
{
	if (!wg_is_map(t) || p->len != t->len)
		return false;
	for (size_t i = 0; i < t->len; i++) {
		const struct wg_pos_node *k = wg_pos_key(p, i);
		const struct wg_node *tk = wg_map_key(t, i);

		if (!wg_is_scalar(tk) || k->text_len != tk->len
		    || memcmp(k->text, tk->u.str, tk->len) != 0)
			return false;
	}
	return true;
}

/*
 * Finds the innermost run of pairs that holds edit e ([s, t) absolute)
 * within block mapping m (before-tree bm, after-tree am) into *out.
 * false when no run of m can hold it (the caller's run then does).
 */
static bool place(const struct regions *rg, const struct wg_pos_node *m,
		  const struct wg_node *bm, const struct wg_node *am,
		  size_t s, size_t t, size_t ecol, size_t depth,
		  struct run *out)
{
	const struct wg_pos_index *ix = rg->ix;
	size_t col = m->col, i, j, ls, end = 0;

	if (!pos_is_block_map(m) || !pairs_match(m, bm) || !wg_is_map(am)
	    || !m->len)
		return false;
	/* the edit's own text sits at this level or deeper */
	if (ecol != SIZE_MAX && ecol < col)
		return false;
	/* pair i: the last whose key starts before the edit */
	for (i = m->len; i > 0 && wg_pos_key(m, i - 1)->start >= s; i--)
		;
	if (!i)
		return false;
	i--;
	/* pair j: the first whose run text reaches the edit's end */
	for (j = i; j < m->len; j++) {
		end = pair_end(rg, m, j, col);
		if (end == SIZE_MAX)
			return false;
		if (t <= end)
			break;
	}
	if (j == m->len || s > end)
		return false;
	ls = pair_line_start(ix, m, i, col);
	if (ls == SIZE_MAX)
		return false;
	/* one pair: maybe a run deeper holds the edit */
	if (i == j) {
		const struct wg_pos_node *v = wg_pos_value(m, i);
		const struct wg_node *bv = wg_map_value(bm, i);
		long ai = wg_map_findn(am, wg_map_key(bm, i)->u.str,
				       wg_map_key(bm, i)->len);
		const struct wg_node *av = ai >= 0 ? wg_map_value(am, ai)
						   : NULL;

		if (av && pos_is_block_map(v)
		    && place(rg, v, bv, av, s, t, ecol, depth + 1, out))
			return true;
		/* a block sequence of as many items before as after:
		 * the item mapping that holds the edit */
		if (av && v->kind == WG_NODE_SEQ && !(v->flags & WG_POS_FLOW)
		    && wg_is_seq(bv) && wg_is_seq(av) && bv->len == av->len
		    && v->len == bv->len) {
			for (size_t k = 0; k < v->len; k++) {
				const struct wg_pos_node *it = v->items[k];

				if (it->start >= s || t > it->end)
					continue;
				if (pos_is_block_map(it)
				    && place(rg, it, wg_seq_item(bv, k),
					     wg_seq_item(av, k), s, t, ecol,
					     depth + 2, out))
					return true;
				break;	/* this pair's run holds it */
			}
		}
	}
	out->pos = m;
	out->before = bm;
	out->after = am;
	out->a = i;
	out->b = j + 1;
	out->start = ls;
	out->end = end;
	out->depth = depth;
	return true;
}

/* Adds run r, joining it with a run it overlaps: the same mapping's runs
 * merge, and a run inside another's text goes. */
static bool add_run(struct regions *rg, const struct run *r)
{
	for (size_t i = 0; i < rg->nruns; i++) {
		struct run *o = &rg->runs[i];

		if (r->end <= o->start || o->end <= r->start)
			continue;
		if (o->pos == r->pos) {
			if (r->a < o->a) {
				o->a = r->a;
				o->start = r->start;
			}
			if (r->b > o->b) {
				o->b = r->b;
				o->end = r->end;
			}
			return true;
		}
		if (o->start <= r->start && r->end <= o->end)
			return true;	/* inside o */
		if (r->start <= o->start && o->end <= r->end) {
			*o = *r;	/* o inside r; others may be too */
			for (size_t k = rg->nruns; k-- > 0;) {
				struct run *x = &rg->runs[k];

				if (k != i && r->start <= x->start
				    && x->end <= r->end)
					rg->runs[k] = rg->runs[--rg->nruns];
			}
			return true;
		}
		return false;	/* crossing texts: not followed */
	}
	if (rg->nruns == MAX_RUNS)
		return false;
	rg->runs[rg->nruns++] = *r;
	return true;
}

static int cmp_run(const void *x, const void *y)
{
	const struct run *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static bool same_outside(const struct regions *rg, const struct wg_node *b,
			 const struct wg_node *a);

/* Pairs [bi, bend) of b against [ai, ai + bend - bi) of a. */
static bool same_pairs(const struct regions *rg, const struct wg_node *b,
		       size_t bi, size_t bend, const struct wg_node *a,
		       size_t ai, size_t aend)
{
	if (bend - bi != aend - ai)
		return false;
	for (; bi < bend; bi++, ai++)
		if (!wg_tree_same(wg_map_key(b, bi), wg_map_key(a, ai))
		    || !same_outside(rg, wg_map_value(b, bi),
				     wg_map_value(a, ai)))
			return false;
	return true;
}

/* Where the after-tree's pairs of a run are: [*a2, *b2). */
static bool after_range(const struct run *r, size_t *a2, size_t *b2)
{
	/* new pairs: after pair a - 1 (new_pairs() makes a >= 1) */
	const struct wg_node *ka = wg_map_key(r->before,
					      r->a == r->b ? r->a - 1 : r->a);
	long x = wg_map_findn(r->after, ka->u.str, ka->len), y;

	if (x < 0)
		return false;
	if (r->a == r->b)
		x++;
	if (r->b < r->before->len) {
		const struct wg_node *kb = wg_map_key(r->before, r->b);

		y = wg_map_findn(r->after, kb->u.str, kb->len);
		if (y < x)
			return false;
	} else {
		y = r->after->len;
	}
	*a2 = (size_t)x;
	*b2 = (size_t)y;
	return true;
}

/*
 * The before- and after-trees are the same outside the runs: node by
 * node, a mapping that holds runs compared on the pairs around them (the
 * runs are in text order, so a mapping's runs come in pair order).
 */
static bool same_outside(const struct regions *rg, const struct wg_node *b,
			 const struct wg_node *a)
{
	size_t p = 0, q = 0;

	if (b == a)
		return true;
	if (!b || !a || b->kind != a->kind || b->kind == WG_NODE_SCALAR)
		return wg_tree_same(b, a);
	if (wg_node_tag(b) || wg_node_tag(a))
		return wg_tree_same(b, a);
	if (b->kind == WG_NODE_SEQ) {
		if (b->len != a->len)
			return false;
		for (size_t i = 0; i < b->len; i++)
			if (!same_outside(rg, wg_seq_item(b, i),
					  wg_seq_item(a, i)))
				return false;
		return true;
	}
	for (size_t i = 0; i < rg->nruns; i++) {
		const struct run *r = &rg->runs[i];
		size_t a2, b2;

		if (r->before != b)
			continue;
		if (!after_range(r, &a2, &b2) || r->a < p || a2 < q
		    || !same_pairs(rg, b, p, r->a, a, q, a2))
			return false;
		p = r->b;
		q = b2;
	}
	return same_pairs(rg, b, p, b->len, a, q, a->len);
}

/*
 * A line of the text that starts with "---", "..." or "%": a document
 * marker or directive ends the document in place, which a run read alone
 * would not show (the edits never write one; this is a check).
 */
static bool has_marker_line(const char *text, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl;

		if (text[i] == '%')
			return true;
		if (len - i >= 3 && (memcmp(text + i, "---", 3) == 0
				     || memcmp(text + i, "...", 3) == 0)
		    && (len - i == 3 || text[i + 3] == ' '
			|| text[i + 3] == '\t' || text[i + 3] == '\n'
			|| text[i + 3] == '\r'))
			return true;
		nl = memchr(text + i, '\n', len - i);
		if (!nl)
			break;
		i = (size_t)(nl - text) + 1;
	}
	return false;
}

/*
 * Whether the document's lines break with LF or CRLF only and hold
 * nothing but ASCII, in the text and in the edits: the line logic here
 * (blank lines, markers, indentation) counts on it.  A lone CR, NEL, LS
 * or PS also breaks a line for libyaml; such a document is read in full.
 */
static bool plain_lines(const struct wg_pos_index *ix, size_t doc_start,
			size_t doc_end, const struct wg_edits *edits)
{
	const char *p = ix->data + doc_start, *end = ix->data + doc_end;

	if (doc_end > doc_start)
		for (size_t l = wg_pos_line_of(ix, doc_start),
			    last = wg_pos_line_of(ix, doc_end - 1);
		     l <= last; l++)
			if (wg_pos_line_wide(ix, l))
				return false;
	while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL) {
		if (p + 1 >= end || p[1] != '\n')
			return false;
		p += 2;
	}
	for (size_t i = 0; i < edits->len; i++)
		for (size_t k = 0; k < edits->items[i].len; k++) {
			unsigned char c = (unsigned char)edits->items[i].text[k];

			if (c >= 0x80 || (c == '\r' && (k + 1 >= edits->items[i].len
						 || edits->items[i].text[k + 1]
							    != '\n')))
				return false;
		}
	return true;
}

/* Whether c may start a key written by an edit (plain or quoted): not
 * an indicator of a sequence item, a comment or a complex key. */
static bool key_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	       || (c >= '0' && c <= '9') || c == '_' || c == '"' || c == '\'';
}

/*
 * Turns r, place()'s run for edit ed, into the run of ed's new pairs
 * alone (see "New pairs alone" above): ed inserts whole lines at a line
 * start, the first a key at r's column, where r's text ends.
 */
static bool new_pairs(const struct regions *rg, const struct wg_edit *ed,
		      size_t doc_start, struct run *r)
{
	size_t at = doc_start + ed->start, k = 0;

	if (ed->end != ed->start || !ed->len || ed->text[ed->len - 1] != '\n'
	    || r->end != at || (at && rg->ix->data[at - 1] != '\n'))
		return false;
	while (k < ed->len && ed->text[k] == ' ')
		k++;
	if (k != r->pos->col || k >= ed->len || !key_start(ed->text[k]))
		return false;
	r->a = r->b;
	r->start = at;
	return true;
}

/*
 * Every edit as new pairs alone, into rg's runs: false (rg's runs then
 * undefined) when one is not, or when two are at one place in different
 * mappings (the read-back below gives a place's insertions to one run).
 */
static bool place_new_pairs(struct regions *rg, const struct wg_pos_node *root,
			    const struct wg_node *before,
			    const struct wg_node *after,
			    const struct wg_edits *edits, size_t doc_start)
{
	rg->nruns = 0;
	for (size_t i = 0; i < edits->len; i++) {
		const struct wg_edit *ed = &edits->items[i];
		bool known = false;
		struct run r;

		if (!place(rg, root, before, after, doc_start + ed->start,
			   doc_start + ed->end,
			   edit_column(rg->ix, ed, doc_start), 0, &r)
		    || !new_pairs(rg, ed, doc_start, &r))
			return false;
		for (size_t k = 0; k < rg->nruns && !known; k++) {
			if (rg->runs[k].start != r.start)
				continue;
			if (rg->runs[k].pos != r.pos)
				return false;
			known = true;	/* one run reads both */
		}
		if (known)
			continue;
		if (rg->nruns == MAX_RUNS)
			return false;
		rg->runs[rg->nruns++] = r;
	}
	return true;
}

bool wg_readback_regions(const struct wg_pos_index *ix,
			 const struct wg_pos_node *root, size_t doc_start,
			 size_t doc_end, const struct wg_node *before,
			 const struct wg_node *after,
			 const struct wg_edits *edits, const char *text,
			 size_t len, const struct wg_limits *limits,
			 size_t *read)
{
	struct regions *rg;
	size_t e = 0;
	ptrdiff_t shift = 0;
	bool ok = true;

	if (read)
		*read = 0;
	if (!edits->len || !root || !wg_is_map(before) || !wg_is_map(after)
	    || len > limits->max_doc_bytes
	    || !plain_lines(ix, doc_start, doc_end, edits))
		return false;
	rg = wg_xcalloc(1, sizeof(*rg));
	rg->ix = ix;
	rg->doc_end = doc_end;
	if (!place_new_pairs(rg, root, before, after, edits, doc_start)) {
		rg->nruns = 0;
		for (size_t i = 0; ok && i < edits->len; i++) {
			const struct wg_edit *ed = &edits->items[i];
			struct run r;

			ok = place(rg, root, before, after,
				   doc_start + ed->start, doc_start + ed->end,
				   edit_column(ix, ed, doc_start), 0, &r)
			     && add_run(rg, &r);
		}
	}
	wg_sort(rg->runs, rg->nruns, sizeof(rg->runs[0]), cmp_run);
	ok = ok && same_outside(rg, before, after);
	/* each run's edited text, read alone against its pairs */
	for (size_t i = 0; ok && i < rg->nruns; i++) {
		const struct run *r = &rg->runs[i];
		struct wg_limits lim = *limits;
		struct wg_node want;
		const struct wg_node *wants[1] = { &want };
		size_t a2, b2, from, to;

		/* edits before the run move its text */
		for (; e < edits->len
		       && doc_start + edits->items[e].start < r->start; e++)
			shift += (ptrdiff_t)edits->items[e].len
				 - (ptrdiff_t)(edits->items[e].end
					       - edits->items[e].start);
		from = (size_t)((ptrdiff_t)(r->start - doc_start) + shift);
		for (; e < edits->len
		       && doc_start + edits->items[e].start <= r->end; e++)
			shift += (ptrdiff_t)edits->items[e].len
				 - (ptrdiff_t)(edits->items[e].end
					       - edits->items[e].start);
		to = (size_t)((ptrdiff_t)(r->end - doc_start) + shift);
		if (!after_range(r, &a2, &b2) || from > to || to > len
		    || r->depth >= lim.max_depth) {
			ok = false;
			break;
		}
		lim.max_depth -= r->depth;
		memset(&want, 0, sizeof(want));
		want.kind = WG_NODE_MAP;
		want.len = (uint32_t)(b2 - a2);
		want.u.items = r->after->u.items + 2 * a2;
		ok = !has_marker_line(text + from, to - from)
		     && wg_readback_same(text + from, to - from, wants, 1,
					 &lim);
		if (read)
			*read += to - from;
	}
	free(rg);
	return ok;
}
