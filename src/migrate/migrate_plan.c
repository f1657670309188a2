/*
 * Planning for migrate: each change of the tree diff becomes text edits at
 * byte positions of the original text (docs/migrate.md has the rules).
 *
 * Comment rule: a comment line is never deleted.  Deleting a key or an
 * item removes its lines, except full comment lines among them, which
 * stay where they are; a comment at the end of a deleted line goes with
 * it.  A new key goes right after the last line of the kept key before it,
 * so comments above the next key stay with that key.
 */
#include "wingen/migrate/migrate.h"

#include <string.h>

struct planner {
	const struct wg_pos_index *ix;
	const struct wg_pos_map *map;
	const struct wg_tdiff_list *changes;
	size_t first, count;
	struct wg_edits *edits;
	struct wg_render_style st;
	struct wg_migrate_refusal why;
};

static int refuse(struct planner *p, const struct wg_pos_node *n,
		  const char *why)
{
	p->why.reason = why;
	p->why.line = n ? n->line : 0;
	p->why.col = n ? n->col : 0;
	return -1;
}

void wg_migrate_style(const struct wg_pos_index *ix,
		      struct wg_render_style *st)
{
	st->indent = ix->indent ? ix->indent : 2;
	st->compact_seqs = ix->compact_seqs;
	st->eol = ix->eol ? ix->eol : "\n";
	st->flow_pad = false;
	st->item_indent = ix->item_indent ? ix->item_indent : 2;
}

/* ---- text helpers ------------------------------------------------------- */

static size_t line_start(const struct wg_pos_index *ix, size_t off)
{
	return ix->lines[wg_pos_line_of(ix, off)];
}

/* Where the line after content ending at end starts (content that ends
 * with its line break, like a block scalar, ends there already). */
static size_t after_line(const struct wg_pos_index *ix, size_t end)
{
	if (end > 0 && end < ix->len && line_start(ix, end) == end)
		return end;
	if (end > 0 && end == ix->len && ix->final_newline)
		return end;
	return wg_pos_next_line(ix, end);
}

static bool blank_before(const struct wg_pos_index *ix, size_t off)
{
	for (size_t i = line_start(ix, off); i < off; i++)
		if (ix->data[i] != ' ')
			return false;
	return true;
}

/* Column in characters of byte offset off. */
static unsigned col_of(const struct wg_pos_index *ix, size_t off)
{
	unsigned col = 0;

	for (size_t i = line_start(ix, off); i < off; i++)
		if (((unsigned char)ix->data[i] & 0xc0) != 0x80)
			col++;
	return col;
}

/* The ':' after a key, or SIZE_MAX. */
static size_t colon_after(const struct wg_pos_index *ix,
			  const struct wg_pos_node *key)
{
	size_t i = key->end;

	while (i < ix->len && (ix->data[i] == ' ' || ix->data[i] == '\t'))
		i++;
	return i < ix->len && ix->data[i] == ':' ? i : SIZE_MAX;
}

static void add(struct planner *p, size_t start, size_t end,
		const struct wg_buf *text)
{
	wg_edits_add(p->edits, start, end, text ? text->buf : NULL,
		     text ? text->len : 0);
}

static void add_str(struct planner *p, size_t start, size_t end,
		    const char *s, size_t len)
{
	wg_edits_add(p->edits, start, end, s, len);
}

/*
 * Inserts whole lines (text ends with a line break) at pos, a line start.
 * At the end of a text without a final break, the break moves to the
 * front so the file still ends without one.
 */
static void insert_lines(struct planner *p, size_t pos, struct wg_buf *text)
{
	const struct wg_pos_index *ix = p->ix;
	size_t eol = strlen(p->st.eol);

	if (pos == ix->len && ix->len && !ix->final_newline
	    && text->len >= eol) {
		add_str(p, pos, pos, p->st.eol, eol);
		add_str(p, pos, pos, text->buf, text->len - eol);
		return;
	}
	add(p, pos, pos, text);
}

/*
 * Deletes [from, to) except the full comment lines inside it.  Returns
 * true when a comment line was kept.
 */
static bool delete_keep_comments(struct planner *p, size_t from, size_t to)
{
	const struct wg_pos_index *ix = p->ix;
	size_t l = wg_pos_line_of(ix, from), seg = from;
	bool kept = false;

	if (ix->lines[l] < from)
		l++;
	for (; l < ix->nlines && ix->lines[l] < to; l++) {
		size_t next = l + 1 < ix->nlines ? ix->lines[l + 1] : ix->len;

		if (next > to)
			break;
		if (wg_pos_is_comment_line(ix, l)) {
			add(p, seg, ix->lines[l], NULL);
			seg = next;
			kept = true;
		}
	}
	if (seg < to)
		add(p, seg, to, NULL);
	return kept;
}

/* ---- checks ------------------------------------------------------------- */

static int check_path(struct planner *p, const struct wg_pos_node *n)
{
	for (const struct wg_pos_node *a = n; a; a = a->parent) {
		if (a->kind == WG_POS_ALIAS)
			return refuse(p, a, "the value is an alias ('*name')");
		if (a->flags & WG_POS_ANCHOR)
			return refuse(p, a, "an anchor ('&name') holds the "
				      "value; editing it would change every "
				      "alias of it");
	}
	return 0;
}

static bool has_anchor(const struct wg_pos_node *n)
{
	size_t k;

	if (n->flags & WG_POS_ANCHOR)
		return true;
	if (n->kind != WG_NODE_MAP && n->kind != WG_NODE_SEQ)
		return false;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	for (size_t i = 0; i < k; i++)
		if (has_anchor(n->items[i]))
			return true;
	return false;
}

/* The old value may be removed as text: whole lines go, whatever they
 * hold, but not an anchor that aliases elsewhere may use. */
static int check_removable(struct planner *p, const struct wg_pos_node *v)
{
	if (check_path(p, v))
		return -1;
	if (has_anchor(v))
		return refuse(p, v, "the value holds an anchor ('&name') that "
			      "aliases may use");
	return 0;
}

/* The old value may be replaced as text. */
static int check_old(struct planner *p, const struct wg_pos_node *v)
{
	if (check_removable(p, v))
		return -1;
	if (v->kind == WG_NODE_SCALAR && v->style == WG_STYLE_PLAIN
	    && v->end_line != v->line)
		return refuse(p, v, "a multi-line plain scalar cannot be "
			      "replaced safely");
	if (v->kind == WG_NODE_SCALAR && (v->style == WG_STYLE_LITERAL
					  || v->style == WG_STYLE_FOLDED))
		return refuse(p, v, "a block scalar cannot be replaced "
			      "safely");
	if ((v->flags & WG_POS_FLOW) && v->end_line != v->line)
		return refuse(p, v, "the value is a flow collection written "
			      "over several lines");
	return 0;
}

static struct wg_pos_node *locate(struct planner *p,
				  const struct wg_node *n, int kind)
{
	struct wg_pos_node *pn = wg_pos_map_get(p->map, n);

	/* an alias stands for any kind: check_path() reports it */
	if (pn && kind && pn->kind != kind && pn->kind != WG_POS_ALIAS)
		return NULL;
	return pn;
}

/* Key i of tree mapping parent, as locate() finds a scalar. */
static struct wg_pos_node *locate_key(struct planner *p,
				      const struct wg_node *parent, size_t i)
{
	struct wg_pos_node *pk = wg_pos_map_key(p->map, parent, i);

	if (pk && pk->kind != WG_NODE_SCALAR && pk->kind != WG_POS_ALIAS)
		return NULL;
	return pk;
}

/* A key of a mapping that has no text of its own. */
static int not_found(struct planner *p, const struct wg_pos_node *m)
{
	if (m->flags & WG_POS_MERGE)
		return refuse(p, m, "the mapping takes keys from a '<<' merge, "
			      "and this one has no text of its own");
	return refuse(p, m, "cannot find the key in the text");
}

static bool is_empty_null(const struct wg_pos_node *v)
{
	return v->kind == WG_NODE_SCALAR && v->style == WG_STYLE_PLAIN
	       && v->text_len == 0
	       && !(v->flags & (WG_POS_TAG | WG_POS_ANCHOR));
}

static bool is_inline(const struct wg_pos_node *v)
{
	return v->kind == WG_NODE_SCALAR || (v->flags & WG_POS_FLOW);
}

/* Renders an inline replacement for old value ov. */
static void inline_text(struct planner *p, struct wg_buf *out,
			const struct wg_node *nv, const struct wg_pos_node *ov)
{
	bool pad = (ov->flags & WG_POS_FLOW) && ov->start + 1 < p->ix->len
		   && p->ix->data[ov->start + 1] == ' ';

	if (nv->kind != WG_NODE_SCALAR)
		wg_render_flow(out, nv, pad);
	else if (ov->kind == WG_NODE_SCALAR && !is_empty_null(ov))
		wg_render_scalar_as(out, nv, (enum wg_scalar_style)ov->style);
	else
		wg_render_scalar(out, nv, false);
}

/*
 * The sibling layout of a block mapping: how its own block values are
 * indented, and whether its sequences are compact.
 */
static void local_style(struct planner *p, const struct wg_pos_node *m,
			struct wg_render_style *st)
{
	*st = p->st;
	for (size_t i = 0; i < m->len; i++) {
		const struct wg_pos_node *k = wg_pos_key(m, i);
		const struct wg_pos_node *v = wg_pos_value(m, i);

		if ((v->flags & WG_POS_FLOW) || v->line == k->line
		    || v->col < k->col)
			continue;
		if (v->kind == WG_NODE_MAP && v->col > k->col)
			st->indent = v->col - k->col;
		if (v->kind == WG_NODE_SEQ) {
			st->compact_seqs = v->col == k->col;
			if (v->col > k->col)
				st->indent = v->col - k->col;
		}
	}
}

/* ---- the changes -------------------------------------------------------- */

static int replace_in_map(struct planner *p, const struct wg_tdiff *c,
			  const struct wg_pos_node *pm)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_pos_node *pk = locate_key(p, c->parent, c->index);
	struct wg_pos_node *pv = locate(p, c->old_value, 0);
	struct wg_render_style st;
	struct wg_buf text = WG_BUF_INIT;
	size_t colon, eol;

	if (!pk || !pv || pk->kind != WG_NODE_SCALAR)
		return not_found(p, pm);
	if (check_old(p, pv))
		return -1;
	colon = colon_after(ix, pk);
	if (colon == SIZE_MAX)
		return refuse(p, pk, "the key is not followed by ':'");
	local_style(p, pm, &st);
	if (wg_render_is_inline(c->new_value)) {
		inline_text(p, &text, c->new_value, pv);
		if (is_empty_null(pv)) {
			add_str(p, colon + 1, colon + 1, " ", 1);
			add(p, colon + 1, colon + 1, &text);
		} else if (is_inline(pv)) {
			add(p, text.len ? pv->start : colon + 1, pv->end,
			    &text);
		} else {
			if (pv->line == pk->line) {
				wg_buf_release(&text);
				return refuse(p, pv, "unexpected layout");
			}
			delete_keep_comments(p, line_start(ix, pv->start),
					     after_line(ix, pv->end));
			add_str(p, colon + 1, colon + 1, " ", text.len ? 1 : 0);
			add(p, colon + 1, colon + 1, &text);
		}
		wg_buf_release(&text);
		return 0;
	}
	/* A block value: "key:" [tag] then lines below. */
	wg_render_value(&text, &st, c->new_value, pk->col);
	eol = strstr(text.buf, st.eol) - text.buf;
	{
		struct wg_buf lines = WG_BUF_INIT;

		wg_buf_add(&lines, text.buf + eol + strlen(st.eol),
			   text.len - eol - strlen(st.eol));
		if (is_empty_null(pv)) {
			add_str(p, colon + 1, colon + 1, text.buf, eol);
			insert_lines(p, after_line(ix, colon + 1), &lines);
		} else if (is_inline(pv)) {
			add_str(p, colon + 1, pv->end, text.buf, eol);
			insert_lines(p, after_line(ix, pv->end), &lines);
		} else {
			size_t at = line_start(ix, pv->start);

			add_str(p, colon + 1, colon + 1, text.buf, eol);
			insert_lines(p, at, &lines);
			delete_keep_comments(p, at, after_line(ix, pv->end));
		}
		wg_buf_release(&lines);
	}
	wg_buf_release(&text);
	return 0;
}

static int replace_in_seq(struct planner *p, const struct wg_tdiff *c,
			  const struct wg_pos_node *ps)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_pos_node *pv = locate(p, c->old_value, 0);
	struct wg_buf text = WG_BUF_INIT;
	size_t dash;
	unsigned dcol;
	int rc = 0;

	if (!pv || c->index >= ps->len || ps->items[c->index] != pv
	    || !ps->dashes || ps->dashes[c->index] == SIZE_MAX)
		return refuse(p, ps, "cannot find the item in the text");
	if (check_old(p, pv))
		return -1;
	dash = ps->dashes[c->index];
	if (wg_render_is_inline(c->new_value)) {
		inline_text(p, &text, c->new_value, pv);
		if (is_empty_null(pv)) {
			add_str(p, dash + 1, dash + 1, " ", 1);
			add(p, dash + 1, dash + 1, &text);
		} else if (is_inline(pv)) {
			add(p, text.len ? pv->start : dash + 1, pv->end, &text);
		} else {
			wg_buf_addstr(&text, p->st.eol);
			add(p, pv->start, pv->start, &text);
			delete_keep_comments(p, pv->start,
					     after_line(ix, pv->end));
		}
		wg_buf_release(&text);
		return 0;
	}
	/* Block content: its first line goes where the old content began. */
	dcol = is_empty_null(pv) ? col_of(ix, dash) : pv->col - 2;
	if (!is_empty_null(pv) && pv->col < 2) {
		rc = refuse(p, pv, "unexpected layout");
	} else {
		struct wg_render_style st = p->st;

		/* where old content stood, new content continues below it */
		if (!is_empty_null(pv))
			st.item_indent = 2;
		wg_render_item(&text, &st, c->new_value, dcol);
		if (is_empty_null(pv)) {
			add_str(p, dash + 1, dash + 1, text.buf,
				text.len - strlen(p->st.eol));
		} else if (is_inline(pv)) {
			add_str(p, pv->start, pv->end, text.buf + 1,
				text.len - 1 - strlen(p->st.eol));
		} else {
			add_str(p, pv->start, pv->start, text.buf + 1,
				text.len - 1);
			delete_keep_comments(p, pv->start,
					     after_line(ix, pv->end));
		}
	}
	wg_buf_release(&text);
	return rc;
}

static bool removed(const struct planner *p, const struct wg_node *parent,
		    size_t index)
{
	for (size_t i = p->first; i < p->first + p->count; i++) {
		const struct wg_tdiff *c = &p->changes->items[i];

		if (c->kind == WG_TDIFF_REMOVE && c->parent == parent
		    && c->index == index)
			return true;
	}
	return false;
}

static int remove_from_map(struct planner *p, const struct wg_tdiff *c,
			   const struct wg_pos_node *pm)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_pos_node *pk = locate_key(p, c->parent, c->index);
	struct wg_pos_node *pv = locate(p, c->old_value, 0);
	struct wg_pos_node *next = NULL;

	if (!pk || !pv || pk->kind != WG_NODE_SCALAR)
		return not_found(p, pm);
	if (check_removable(p, pv))
		return -1;
	if (blank_before(ix, pk->start)) {
		delete_keep_comments(p, line_start(ix, pk->start),
				     after_line(ix, pv->end));
		return 0;
	}
	/* The first key of "- key: v": the next kept key moves up. */
	for (size_t i = c->index + 1; i < c->parent->len && !next; i++)
		if (!removed(p, c->parent, i))
			next = locate_key(p, c->parent, i);
	if (!next || !blank_before(ix, next->start))
		return refuse(p, pk, "cannot remove the key safely");
	if (!delete_keep_comments(p, pk->start, line_start(ix, next->start)))
		add(p, line_start(ix, next->start), next->start, NULL);
	return 0;
}

static int remove_from_seq(struct planner *p, const struct wg_tdiff *c,
			   const struct wg_pos_node *ps)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_pos_node *pv = locate(p, c->old_value, 0);
	size_t dash;

	if (!pv || c->index >= ps->len || ps->items[c->index] != pv
	    || !ps->dashes || ps->dashes[c->index] == SIZE_MAX)
		return refuse(p, ps, "cannot find the item in the text");
	if (check_removable(p, pv))
		return -1;
	dash = ps->dashes[c->index];
	if (!blank_before(ix, dash))
		return refuse(p, pv, "cannot remove an item that shares its "
			      "line with another");
	delete_keep_comments(p, line_start(ix, dash), after_line(ix, pv->end));
	return 0;
}

/*
 * Where new lines go after a sibling ending at end: past the comment lines
 * that follow it indented deeper than col (they belong to the sibling's
 * value), not past the ones at col or less (they belong to what comes
 * next).
 */
static size_t after_sibling(const struct wg_pos_index *ix, size_t end,
			    unsigned col)
{
	size_t pos = after_line(ix, end);

	while (pos < ix->len) {
		size_t line = wg_pos_line_of(ix, pos), i = pos;

		if (!wg_pos_is_comment_line(ix, line))
			break;
		while (ix->data[i] == ' ')
			i++;
		if (i - pos <= col)
			break;
		pos = wg_pos_next_line(ix, pos);
	}
	return pos;
}

static void spaces(struct wg_buf *b, unsigned n)
{
	while (n--)
		wg_buf_addch(b, ' ');
}

static int add_to_map(struct planner *p, const struct wg_tdiff *c,
		      const struct wg_pos_node *pm)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_render_style st;
	struct wg_buf text = WG_BUF_INIT;
	unsigned kc;

	if (!pm->len)
		return refuse(p, pm, "cannot find the mapping in the text");
	kc = wg_pos_key(pm, 0)->col;
	local_style(p, pm, &st);
	if (c->prev_kept >= 0) {
		const struct wg_pos_node *pv = locate(p,
			wg_map_value(c->parent, (size_t)c->prev_kept), 0);

		if (!pv)
			return not_found(p, pm);
		spaces(&text, kc);
		wg_render_pair(&text, &st, c->new_key, c->new_value, kc);
		insert_lines(p, after_sibling(ix, pv->end, kc), &text);
	} else {
		const struct wg_pos_node *pk = locate_key(p, c->parent,
			(size_t)c->next_kept);

		if (!pk)
			return not_found(p, pm);
		wg_render_pair(&text, &st, c->new_key, c->new_value, kc);
		spaces(&text, kc);
		add(p, pk->start, pk->start, &text);
	}
	wg_buf_release(&text);
	return 0;
}

static int add_to_seq(struct planner *p, const struct wg_tdiff *c,
		      const struct wg_pos_node *ps)
{
	const struct wg_pos_index *ix = p->ix;
	struct wg_buf text = WG_BUF_INIT;
	unsigned dcol;

	if (!ps->len || !ps->dashes || ps->dashes[0] == SIZE_MAX)
		return refuse(p, ps, "cannot find the sequence in the text");
	dcol = col_of(ix, ps->dashes[0]);
	if (c->prev_kept >= 0) {
		const struct wg_pos_node *pv = ps->items[c->prev_kept];

		spaces(&text, dcol);
		wg_buf_addch(&text, '-');
		wg_render_item(&text, &p->st, c->new_value, dcol);
		insert_lines(p, after_sibling(ix, pv->end, dcol), &text);
	} else {
		size_t dash = ps->dashes[c->next_kept];

		if (dash == SIZE_MAX)
			return refuse(p, ps, "cannot find the item in the "
				      "text");
		wg_buf_addch(&text, '-');
		wg_render_item(&text, &p->st, c->new_value, dcol);
		spaces(&text, col_of(ix, dash));
		add(p, dash, dash, &text);
	}
	wg_buf_release(&text);
	return 0;
}

/* A whole object written as one line of flow ({...}) is rewritten so. */
static int replace_root(struct planner *p, const struct wg_tdiff *c)
{
	struct wg_pos_node *pv = locate(p, c->old_value, 0);
	struct wg_buf text = WG_BUF_INIT;

	if (!pv || !(pv->flags & WG_POS_FLOW)
	    || c->new_value->kind == WG_NODE_SCALAR)
		return refuse(p, pv, "the whole object would be replaced");
	if (pv->end_line != pv->line)
		return refuse(p, pv, "the object is a flow collection written "
			      "over several lines");
	if (check_old(p, pv))
		return -1;
	inline_text(p, &text, c->new_value, pv);
	add(p, pv->start, pv->end, &text);
	wg_buf_release(&text);
	return 0;
}

static int plan_one(struct planner *p, const struct wg_tdiff *c)
{
	const struct wg_pos_node *pp;

	if (!c->parent)
		return replace_root(p, c);
	pp = locate(p, c->parent, c->parent->kind);
	if (!pp)
		return refuse(p, NULL, "cannot find the changed field in "
			      "the text");
	if (check_path(p, pp))
		return -1;
	if (pp->flags & WG_POS_FLOW)
		return refuse(p, pp, "the change is inside a flow collection");
	switch (c->kind) {
	case WG_TDIFF_REPLACE:
		return pp->kind == WG_NODE_MAP ? replace_in_map(p, c, pp)
					       : replace_in_seq(p, c, pp);
	case WG_TDIFF_REMOVE:
		return pp->kind == WG_NODE_MAP ? remove_from_map(p, c, pp)
					       : remove_from_seq(p, c, pp);
	default:
		if (c->prev_kept < 0 && c->next_kept < 0)
			return refuse(p, pp, "nothing to insert next to");
		return pp->kind == WG_NODE_MAP ? add_to_map(p, c, pp)
					       : add_to_seq(p, c, pp);
	}
}

int wg_migrate_plan(const struct wg_pos_index *ix, const struct wg_pos_map *map,
		    const struct wg_tdiff_list *changes, size_t first,
		    size_t count, struct wg_edits *edits,
		    struct wg_migrate_refusal *why)
{
	struct planner p;

	memset(&p, 0, sizeof(p));
	p.ix = ix;
	p.map = map;
	p.changes = changes;
	p.first = first;
	p.count = count;
	p.edits = edits;
	wg_migrate_style(ix, &p.st);
	for (size_t i = first; i < first + count; i++) {
		if (plan_one(&p, &changes->items[i])) {
			*why = p.why;
			why->change = i;
			return -1;
		}
	}
	return 0;
}
