/*
 * JSON Patch from the change journal (patch.h).
 */
#include "wingen/serve/patch.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

#include "wingen/yaml/scalar.h"
#include "wingen/yaml/writer.h"

/* One step of the path to the node at hand: a mapping key, or (key
 * NULL) a sequence index.  The pointer is written only for an operation:
 * most of the walk finds nothing to say. */
struct step {
	const struct wg_node *key;
	size_t index;
};

struct patcher {
	struct wg_ctx *ctx;
	struct wg_buf *out;
	const struct wg_node_journal *j;
	const struct wg_resource *res;
	struct step *steps;
	size_t nsteps, cap;
	struct wg_buf path;	/* the JSON Pointer of an operation */
	struct wg_buf a, b;	/* scratch for comparing scalars */
	long n;			/* operations written */
	int rc;
};

static void push(struct patcher *p, const struct wg_node *key, size_t index)
{
	if (p->nsteps == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 32;
		p->steps = wg_xrealloc(p->steps, p->cap * sizeof(*p->steps));
	}
	p->steps[p->nsteps++] = (struct step){ key, index };
}

void wg_json_pointer_add(struct wg_buf *out, const char *key, size_t len)
{
	const char *s = key, *end = key + len;

	wg_buf_addch(out, '/');
	while (s < end) {
		const char *c = s;

		while (c < end && *c != '~' && *c != '/')
			c++;
		wg_buf_add(out, s, (size_t)(c - s));
		if (c == end)
			break;
		wg_buf_addstr(out, *c == '~' ? "~0" : "~1");
		s = c + 1;
	}
}

static void op(struct patcher *p, const char *verb,
	       const struct wg_node *value)
{
	struct wg_buf *o = p->out;

	wg_buf_reset(&p->path);
	for (size_t i = 0; i < p->nsteps; i++)
		if (p->steps[i].key)
			wg_json_pointer_add(&p->path, p->steps[i].key->u.str,
					    p->steps[i].key->len);
		else
			wg_buf_addf(&p->path, "/%zu", p->steps[i].index);
	if (p->n++)
		wg_buf_addch(o, ',');
	wg_buf_addstr(o, "{\"op\":\"");
	wg_buf_addstr(o, verb);
	wg_buf_addstr(o, "\",\"path\":");
	wg_json_quote(o, p->path.buf, p->path.len);
	if (value) {
		wg_buf_addstr(o, ",\"value\":");
		if (wg_json_write_node(p->ctx, o, p->res, value))
			p->rc = -1;
	}
	wg_buf_addch(o, '}');
}

/* Whether two scalars are one JSON value (a transform may set a field
 * to the value it had, with a node of its own). */
static bool same_scalar(struct patcher *p, const struct wg_node *x,
			const struct wg_node *y)
{
	if (!wg_is_scalar(x) || !wg_is_scalar(y))
		return false;
	wg_buf_reset(&p->a);
	wg_buf_reset(&p->b);
	if (wg_json_write_node(p->ctx, &p->a, p->res, x)
	    || wg_json_write_node(p->ctx, &p->b, p->res, y))
		return false;
	return p->a.len == p->b.len && !memcmp(p->a.buf, p->b.buf, p->a.len);
}

static void diff(struct patcher *p, const struct wg_node *n);

/* The value at the current path was old and is now new. */
static void changed(struct patcher *p, const struct wg_node *old,
		    const struct wg_node *now)
{
	if (old == now)
		diff(p, now);
	else if (!same_scalar(p, old, now))
		op(p, "replace", now);
}

static long find_key(struct wg_node *const *items, size_t npairs,
		     const struct wg_node *key)
{
	for (size_t i = 0; i < npairs; i++) {
		const struct wg_node *k = items[2 * i];

		if (k->len == key->len
		    && !memcmp(k->u.str, key->u.str, key->len))
			return (long)i;
	}
	return -1;
}

static void diff_map(struct patcher *p, const struct wg_node *m,
		     struct wg_node *const *old, size_t nold)
{
	bool same = old == (struct wg_node *const *)m->u.items
		    && nold == m->len;

	for (size_t i = 0; i < nold; i++) {
		const struct wg_node *k = old[2 * i];
		long at;

		if (same) {	/* not saved: the pairs are those of then */
			if (old[2 * i + 1]->kind == WG_NODE_SCALAR)
				continue;
			at = (long)i;
		} else {
			at = wg_map_findn(m, k->u.str, k->len);
		}
		push(p, k, 0);
		if (at < 0)
			op(p, "remove", NULL);
		else
			changed(p, old[2 * i + 1], wg_map_value(m, (size_t)at));
		p->nsteps--;
	}
	for (size_t i = 0; !same && i < m->len; i++) {
		const struct wg_node *k = wg_map_key(m, i);

		if (find_key(old, nold, k) >= 0)
			continue;
		push(p, k, 0);
		op(p, "add", wg_map_value(m, i));
		p->nsteps--;
	}
}

static void diff_seq(struct patcher *p, const struct wg_node *s,
		     struct wg_node *const *old, size_t nold)
{
	size_t kept = 0;

	while (kept < nold && kept < s->len && old[kept] == s->u.items[kept])
		kept++;
	if (kept < nold && s->len != nold) {
		/* items taken out or put between: the list whole */
		op(p, "replace", s);
		return;
	}
	for (size_t i = 0; i < s->len; i++) {
		if (i < nold && old[i] == s->u.items[i]
		    && old[i]->kind == WG_NODE_SCALAR)
			continue;
		push(p, NULL, i);
		if (i < nold)
			changed(p, old[i], s->u.items[i]);
		else
			op(p, "add", s->u.items[i]);
		p->nsteps--;
	}
}

static void diff(struct patcher *p, const struct wg_node *n)
{
	struct wg_node *const *old;
	uint32_t nold;

	if (n->kind == WG_NODE_SCALAR)
		return;
	if (!wg_node_journal_saved(p->j, n, &old, &nold)) {
		old = n->u.items;
		nold = n->len;
	}
	if (n->kind == WG_NODE_MAP)
		diff_map(p, n, old, nold);
	else
		diff_seq(p, n, old, nold);
}

long wg_json_patch(struct wg_ctx *ctx, struct wg_buf *out,
		   const struct wg_node_journal *journal,
		   const struct wg_resource *res, const struct wg_node *root)
{
	struct patcher p = { ctx, out, journal, res, NULL, 0, 0, WG_BUF_INIT,
			     WG_BUF_INIT, WG_BUF_INIT, 0, 0 };

	wg_buf_addch(out, '[');
	diff(&p, root);
	wg_buf_addch(out, ']');
	free(p.steps);
	wg_buf_release(&p.path);
	wg_buf_release(&p.a);
	wg_buf_release(&p.b);
	return p.rc ? -1 : p.n;
}
