/*
 * Tree diff for migrate: what the chain changed, as additions, removals
 * and replacements against the collections of the before tree.
 */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/scalar.h"

/* The type a reader gives a scalar: plain ones are resolved (YAML 1.1, as
 * kubectl), everything else is a string. */
static enum wg_scalar_type scalar_type(const struct wg_node *n)
{
	if (n->style != WG_STYLE_PLAIN)
		return WG_TYPE_STR;
	return wg_resolve_yaml11(n->u.str, n->len);
}

static bool same_tag(const struct wg_node *a, const struct wg_node *b)
{
	const char *x = wg_node_tag(a), *y = wg_node_tag(b);

	if (!x || !y)
		return x == y;
	return strcmp(x, y) == 0;
}

static bool scalar_same(const struct wg_node *a, const struct wg_node *b)
{
	if (a->len != b->len || memcmp(a->u.str, b->u.str, a->len) != 0
	    || !same_tag(a, b))
		return false;
	/* The same text, both plain or both not, resolves alike: only a
	 * plain scalar against a quoted one needs resolving (most of the
	 * read-back check's time went there). */
	if (wg_node_tag(a)
	    || (a->style == WG_STYLE_PLAIN) == (b->style == WG_STYLE_PLAIN))
		return true;
	return scalar_type(a) == scalar_type(b);
}

bool wg_tree_same(const struct wg_node *a, const struct wg_node *b)
{
	size_t k;

	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->len != b->len)
		return false;
	if (a->kind == WG_NODE_SCALAR)
		return scalar_same(a, b);
	if (!same_tag(a, b))
		return false;
	k = a->kind == WG_NODE_MAP ? 2 * (size_t)a->len : a->len;
	for (size_t i = 0; i < k; i++)
		if (!wg_tree_same(a->u.items[i], b->u.items[i]))
			return false;
	return true;
}

/* One step from the root to the node being compared: a mapping key or a
 * sequence index. */
struct step {
	const struct wg_node *key;	/* NULL for an index */
	size_t index;
};

/*
 * The path to the node being compared is kept as steps and written out
 * only for a change: most nodes compared are unchanged, and writing every
 * key and "[i]" on the way down was a third of the diff's time.
 */
/* Collections up to this many entries keep their match arrays on the
 * stack (a malloc and free each was a tenth of the diff's time). */
#define SMALL 16

struct differ {
	struct wg_arena *arena;
	struct wg_tdiff_list *out;
	struct step *steps;
	size_t nsteps, steps_cap;
	struct wg_buf path;	/* emit()'s scratch */
};

static struct wg_tdiff *emit(struct differ *d, enum wg_tdiff_kind kind,
			     const struct wg_node *parent, size_t index)
{
	struct wg_tdiff *c;

	WG_GROW(d->out->items, d->out->cap, d->out->len + 1);
	c = &d->out->items[d->out->len++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->parent = parent;
	c->index = index;
	c->prev_kept = -1;
	c->next_kept = -1;
	wg_buf_reset(&d->path);
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct step *st = &d->steps[i];

		if (st->key)
			wg_path_append_key(&d->path, st->key->u.str,
					   st->key->len);
		else
			wg_buf_addf(&d->path, "[%zu]", st->index);
	}
	c->path = wg_arena_strndup(d->arena, d->path.buf, d->path.len);
	return c;
}

static void replace(struct differ *d, const struct wg_node *parent,
		    size_t index, const struct wg_node *before,
		    const struct wg_node *after)
{
	struct wg_tdiff *c = emit(d, WG_TDIFF_REPLACE, parent, index);

	c->old_value = before;
	c->new_value = after;
}

static void diff_node(struct differ *d, const struct wg_node *parent,
		      size_t index, const struct wg_node *before,
		      const struct wg_node *after);

/* Path helpers: push a key or an index, pop back to a saved depth. */
static size_t push_step(struct differ *d, const struct wg_node *key,
			size_t i)
{
	size_t mark = d->nsteps;

	WG_GROW(d->steps, d->steps_cap, d->nsteps + 1);
	d->steps[d->nsteps].key = key;
	d->steps[d->nsteps].index = i;
	d->nsteps++;
	return mark;
}

static size_t push_key(struct differ *d, const struct wg_node *key)
{
	return push_step(d, key, 0);
}

static size_t push_index(struct differ *d, size_t i)
{
	return push_step(d, NULL, i);
}

static void pop(struct differ *d, size_t mark)
{
	d->nsteps = mark;
}

/*
 * Fills prev/next kept neighbours of an ADD: the before index of the
 * nearest kept sibling before and after after-index j.  match[j] is the
 * before index matched to after item j, or -1.
 */
static void neighbours(struct wg_tdiff *c, const long *match, size_t n,
		       size_t j)
{
	for (size_t i = j; i-- > 0;)
		if (match[i] >= 0) {
			c->prev_kept = match[i];
			break;
		}
	for (size_t i = j + 1; i < n; i++)
		if (match[i] >= 0) {
			c->next_kept = match[i];
			break;
		}
}

static void diff_map(struct differ *d, const struct wg_node *parent,
		     size_t index, const struct wg_node *before,
		     const struct wg_node *after)
{
	long small[SMALL], *match = small;
	bool small_seen[SMALL], *seen = small_seen;
	long last = -1;
	size_t kept = 0;
	bool ordered = true;

	if (after->len > SMALL)
		match = wg_xcalloc(after->len, sizeof(*match));
	if (before->len > SMALL)
		seen = wg_xcalloc(before->len, sizeof(*seen));
	else
		memset(small_seen, 0, sizeof(small_seen));
	/* Keys are unique on both sides (the reader refuses duplicates), and
	 * a kept pair mostly stands at its old index with its old key node
	 * (the before tree shares the scalars): look there first. */
	for (size_t j = 0; j < after->len; j++) {
		const struct wg_node *k = wg_map_key(after, j);
		const struct wg_node *old = j < before->len
					    ? wg_map_key(before, j) : NULL;

		if (old && (old == k || (old->len == k->len
					 && memcmp(old->u.str, k->u.str,
						   k->len) == 0)))
			match[j] = (long)j;
		else
			match[j] = wg_map_findn(before, k->u.str, k->len);
		if (match[j] >= 0) {
			seen[match[j]] = true;
			kept++;
			ordered = ordered && match[j] > last;
			last = match[j];
		}
	}
	if (!ordered || (after->len == 0 && before->len > 0)
	    || (kept == 0 && after->len > 0)) {
		replace(d, parent, index, before, after);
		if (match != small)
			free(match);
		if (seen != small_seen)
			free(seen);
		return;
	}
	for (size_t i = 0; i < before->len; i++) {
		const struct wg_node *k = wg_map_key(before, i);

		if (!seen[i]) {
			size_t mark = push_key(d, k);
			struct wg_tdiff *c;

			c = emit(d, WG_TDIFF_REMOVE, before, i);

			c->old_value = wg_map_value(before, i);
			pop(d, mark);
		}
	}
	for (size_t j = 0; j < after->len; j++) {
		size_t mark = push_key(d, wg_map_key(after, j));

		if (match[j] < 0) {
			struct wg_tdiff *c = emit(d, WG_TDIFF_ADD, before, j);

			c->new_key = wg_map_key(after, j);
			c->new_value = wg_map_value(after, j);
			neighbours(c, match, after->len, j);
		} else {
			diff_node(d, before, (size_t)match[j],
				  wg_map_value(before, (size_t)match[j]),
				  wg_map_value(after, j));
		}
		pop(d, mark);
	}
	if (match != small)
		free(match);
	if (seen != small_seen)
		free(seen);
}

/* Same input node: read from the same place and not made by wingen. */
static bool same_origin(const struct wg_node *a, const struct wg_node *b)
{
	return !(a->flags & WG_NODE_NEW) && !(b->flags & WG_NODE_NEW)
	       && a->kind == b->kind && wg_node_line(a) == wg_node_line(b)
	       && wg_node_col(a) == wg_node_col(b) && (wg_node_line(a) || wg_node_col(a));
}

static bool item_match(const struct wg_node *a, const struct wg_node *b)
{
	return same_origin(a, b) || wg_tree_same(a, b);
}

/*
 * Longest common subsequence of items (after trimming the common head and
 * tail); match[j] gets the before index of after item j, or -1.  Beyond a
 * size bound the middle is left unmatched (a replacement of the span).
 */
static void lcs(const struct wg_node *b, const struct wg_node *a, long *match)
{
	size_t n = b->len, m = a->len, lo = 0, hb = n, ha = m;
	size_t rows, cols;
	uint32_t *t;

	for (size_t j = 0; j < m; j++)
		match[j] = -1;
	while (lo < n && lo < m
	       && item_match(wg_seq_item(b, lo), wg_seq_item(a, lo))) {
		match[lo] = (long)lo;
		lo++;
	}
	while (hb > lo && ha > lo
	       && item_match(wg_seq_item(b, hb - 1), wg_seq_item(a, ha - 1))) {
		match[ha - 1] = (long)(hb - 1);
		hb--;
		ha--;
	}
	rows = hb - lo;
	cols = ha - lo;
	if (!rows || !cols || rows * cols > 4u * 1024 * 1024)
		return;
	/* t[i][j]: LCS length of before[lo+i..hb) and after[lo+j..ha). */
	t = wg_xcalloc((rows + 1) * (cols + 1), sizeof(*t));
#define T(i, j) t[(i) * (cols + 1) + (j)]
	for (size_t i = rows; i-- > 0;)
		for (size_t j = cols; j-- > 0;)
			T(i, j) = item_match(wg_seq_item(b, lo + i),
					     wg_seq_item(a, lo + j))
				  ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) > T(i, j + 1) ? T(i + 1, j)
							       : T(i, j + 1);
	for (size_t i = 0, j = 0; i < rows && j < cols;) {
		if (item_match(wg_seq_item(b, lo + i), wg_seq_item(a, lo + j))
		    && T(i, j) == T(i + 1, j + 1) + 1) {
			match[lo + j] = (long)(lo + i);
			i++;
			j++;
		} else if (T(i + 1, j) >= T(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef T
	free(t);
}

static void diff_seq(struct differ *d, const struct wg_node *parent,
		     size_t index, const struct wg_node *before,
		     const struct wg_node *after)
{
	long small_match[SMALL], *match = small_match;
	bool small_kept[SMALL] = { false }, *kept = small_kept;
	size_t nkept = 0;

	if (after->len > SMALL)
		match = wg_xcalloc(after->len, sizeof(*match));
	if (before->len > SMALL)
		kept = wg_xcalloc(before->len, sizeof(*kept));

	lcs(before, after, match);
	for (size_t j = 0; j < after->len; j++)
		if (match[j] >= 0) {
			kept[match[j]] = true;
			nkept++;
		}
	if ((after->len == 0 && before->len > 0)
	    || (nkept == 0 && after->len > 0)) {
		replace(d, parent, index, before, after);
		goto out;
	}
	for (size_t i = 0; i < before->len; i++) {
		if (!kept[i]) {
			size_t mark = push_index(d, i);
			struct wg_tdiff *c;

			c = emit(d, WG_TDIFF_REMOVE, before, i);

			c->old_value = wg_seq_item(before, i);
			pop(d, mark);
		}
	}
	for (size_t j = 0; j < after->len; j++) {
		size_t mark = push_index(d, j);

		if (match[j] < 0) {
			struct wg_tdiff *c = emit(d, WG_TDIFF_ADD, before, j);

			c->new_value = wg_seq_item(after, j);
			neighbours(c, match, after->len, j);
		} else {
			diff_node(d, before, (size_t)match[j],
				  wg_seq_item(before, (size_t)match[j]),
				  wg_seq_item(after, j));
		}
		pop(d, mark);
	}
out:
	if (match != small_match)
		free(match);
	if (kept != small_kept)
		free(kept);
}

static void diff_node(struct differ *d, const struct wg_node *parent,
		      size_t index, const struct wg_node *before,
		      const struct wg_node *after)
{
	/* the journal's before-tree shares every subtree no edit touched
	 * (wg_node_journal_before()): one node on both sides is no change,
	 * and most of an object's tree (its containers, its volumes) is
	 * not walked at all */
	if (before == after)
		return;
	if (before->kind != after->kind || before->kind == WG_NODE_SCALAR
	    || !same_tag(before, after) || (before->flags & WG_NODE_FLOW)) {
		if (!wg_tree_same(before, after))
			replace(d, parent, index, before, after);
		return;
	}
	WG_GROW(d->out->walked, d->out->walked_cap, d->out->nwalked + 1);
	d->out->walked[d->out->nwalked++] = before;
	if (before->kind == WG_NODE_MAP)
		diff_map(d, parent, index, before, after);
	else
		diff_seq(d, parent, index, before, after);
}

size_t wg_tree_diff(struct wg_arena *arena, const struct wg_node *before,
		    const struct wg_node *after, struct wg_tdiff_list *out)
{
	struct differ d = { arena, out, NULL, 0, 0, WG_BUF_INIT };
	size_t first = out->len;

	diff_node(&d, NULL, 0, before, after);
	free(d.steps);
	wg_buf_release(&d.path);
	return out->len - first;
}

void wg_tdiff_list_release(struct wg_tdiff_list *list)
{
	free(list->items);
	free(list->walked);
	memset(list, 0, sizeof(*list));
}
