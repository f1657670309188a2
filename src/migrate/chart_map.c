#define _GNU_SOURCE	/* memmem */
/*
 * Carrying the chain's changes back to a chart (docs/helm.md, "Map
 * back"): each changed pod-spec field to the values key that feeds it
 * (chart_hooks.c, chart_values.c), else, under --in-place and --diff, to
 * the literal YAML of the template (or of the named template it
 * includes) that writes it (chart_tpledit.c).  One template's lines may
 * render several objects (a range, a named template included twice):
 * their edits are made once, and objects that need different edits of
 * the same lines are an error naming them.  What cannot be carried is
 * an error at the template line concerned, saying why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/k8s/podspec.h"
#include "wingen/profile/profile.h"

#define MAX_KEYS 16
#define MAX_SPANS 32

/* Pod-spec fields whose values hooks take additions: the keys or items
 * the chain adds go next to what the chart's values already hold (a
 * template may write some inline and append the values). */
static const char *const additive[] = {
	"nodeSelector", "tolerations", "runtimeClassName", NULL,
};

/* Never carried through values as a whole: containers are lists of
 * objects that templates build item by item. */
static const char *const not_whole[] = {
	"containers", "initContainers", "ephemeralContainers", NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (strcmp(*l, s) == 0)
			return true;
	return false;
}

static const struct wg_kind_set *kinds(const struct chart_run *r)
{
	return r->ctx->profile ? &r->ctx->profile->kinds : NULL;
}

static const char *label(struct chart_run *r, const struct wg_resource *res)
{
	return wg_resource_label(&r->arena, res);
}

static const char *label_of(struct chart_run *r, const struct chart_render *rd,
			    size_t seq)
{
	for (size_t i = 0; i < rd->list.len; i++) {
		const struct chart_origin *o = rd->list.items[i]->payload;

		if (o && o->seq == seq)
			return label(r, rd->list.items[i]);
	}
	return "?";
}

/* What the chain added to an additive field (NULL: it also took
 * something away, which values cannot say). */
static struct wg_node *added(struct wg_arena *a, const struct wg_node *b,
			     const struct wg_node *v)
{
	struct wg_node *out;

	if (!v)
		return NULL;
	if (wg_is_scalar(v))
		return (struct wg_node *)v;
	if (wg_is_map(v)) {
		out = wg_node_new_map(a);
		for (size_t i = 0; wg_is_map(b) && i < b->len; i++)
			if (!wg_map_get(v, wg_scalar_dup(a, wg_map_key(b, i))))
				return NULL;	/* a key removed */
		for (size_t i = 0; i < v->len; i++) {
			char *k = wg_scalar_dup(a, wg_map_key(v, i));
			const struct wg_node *was = wg_map_get(b, k);

			if (!was || !wg_node_equal(was, wg_map_value(v, i)))
				wg_map_set(a, out, k, wg_map_value(v, i));
		}
		return out;
	}
	out = wg_node_new_seq(a);
	for (size_t i = 0; wg_is_seq(b) && i < b->len; i++) {
		bool kept = false;

		for (size_t j = 0; !kept && j < v->len; j++)
			kept = wg_node_equal(wg_seq_item(b, i),
					     wg_seq_item(v, j));
		if (!kept)
			return NULL;
	}
	for (size_t i = 0; i < v->len; i++) {
		bool had = false;

		for (size_t j = 0; wg_is_seq(b) && !had && j < b->len; j++)
			had = wg_node_equal(wg_seq_item(b, j),
					    wg_seq_item(v, i));
		if (!had)
			wg_seq_append(a, out, wg_seq_item(v, i));
	}
	return out;
}

/* Whether a change at path lies under one of the carried field paths. */
static bool carried(const struct wg_pathlist *done, const char *path)
{
	for (size_t i = 0; i < done->len; i++) {
		size_t n = strlen(done->items[i]);

		if (strncmp(path, done->items[i], n) == 0
		    && (path[n] == '\0' || path[n] == '.' || path[n] == '['))
			return true;
	}
	return false;
}

static bool in_keys(const char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static size_t hook_keys(struct chart_run *r, const struct chart_origin *o,
			const char *f, const char **keys)
{
	const struct wg_chart_tpl *t = wg_chart_tpl_find(&r->c, o->src);

	return t ? wg_chart_hook_keys(&r->c, t, o->kind, o->nth, o->count,
				      f, &r->arena, keys, MAX_KEYS)
		 : 0;
}

/*
 * Another object of the render that takes field f from the values key
 * key (its template reads it and, by the pick rule, uses it) while the
 * chain leaves its f as it is: setting the key would change that object
 * too (a Linux DaemonSet sharing node.nodeSelector with a Windows one).
 * That object, or NULL.  Objects without a pod spec do not count: a
 * file's parts are told apart by kind only, and a ClusterRoleBinding's
 * roleRef says "kind: ClusterRole" too.
 */
static const struct wg_resource *shared_reader(struct chart_run *r,
					       const struct chart_render *rd,
					       const struct wg_resource *self,
					       const char *f, const char *key)
{
	for (size_t j = 0; j < rd->list.len; j++) {
		const struct wg_resource *res = rd->list.items[j];
		const struct chart_origin *o = chart_origin_of(res);
		struct wg_resource tb;
		const char *keys[MAX_KEYS];
		struct wg_podspec *psb, *psa;
		size_t nkeys, nb, na;
		bool reads = false, changed = false;

		if (res == self || !o)
			continue;
		nkeys = hook_keys(r, o, f, keys);
		if (!in_keys(keys, nkeys, key))
			continue;
		tb = *res;
		tb.root = o->before;
		nb = wg_podspec_find_all(&r->arena, kinds(r), &tb, &psb);
		na = wg_podspec_find_all(&r->arena, kinds(r), res, &psa);
		for (size_t p = 0; p < nb && p < na; p++) {
			const struct wg_node *bv = wg_map_get(psb[p].spec, f);
			const struct wg_node *av = wg_map_get(psa[p].spec, f);
			const char *pk = wg_chart_hook_pick(&r->c, keys, nkeys,
							    bv);

			if (!pk || strcmp(pk, key) != 0)
				continue;
			reads = true;
			changed |= (bv || av)
				   && !(bv && av && wg_node_equal(bv, av));
		}
		if (reads && !changed)
			return res;
	}
	return NULL;
}

/* One pod-spec field that changed: carried by a values key, or left in
 * the residual (reported later).  Returns true when carried. */
static bool carry(struct chart_run *r, const struct chart_render *rd,
		  const struct wg_resource *res, const char *f,
		  const struct wg_node *b, const struct wg_node *v,
		  const char *path, bool quiet)
{
	const struct chart_origin *o = chart_origin_of(res);
	const char *keys[MAX_KEYS], *key, *conflict, *why;
	const struct wg_resource *other;
	const struct wg_node *cur;
	struct wg_node *add;
	size_t nkeys;

	for (size_t i = 0; i < r->nbanned; i++)
		if (r->banned[i].seq == o->seq
		    && strcmp(r->banned[i].field, f) == 0)
			return false;	/* the proof saw the key not reach */
	nkeys = hook_keys(r, o, f, keys);
	key = wg_chart_hook_pick(&r->c, keys, nkeys, b);
	if (!key)
		return false;
	other = shared_reader(r, rd, res, f, key);
	if (other) {
		/* not through the key: the template's literal YAML for this
		 * object alone (--in-place), or an error naming both */
		WG_GROW(r->shared, r->shared_cap, r->nshared + 1);
		r->shared[r->nshared++] = (struct chart_shared){
			wg_arena_strdup(&r->arena, path), o->seq, key, other,
			false };
		return false;
	}
	why = wg_arena_printf(&r->arena, "%s: %s", label(r, res), path);
	cur = wg_chart_value(&r->c, key);
	if (in_list(additive, f)) {
		add = added(&r->arena, b, v);
		if (!add)
			return false;
	} else {
		/* a whole field: only when values feed all of it, i.e. it
		 * renders as the values hold it, or it is absent and the
		 * values are empty */
		bool unset = wg_node_is_null(cur) || (cur && !wg_is_scalar(cur)
						      && cur->len == 0);

		if (b ? !cur || !wg_node_equal(cur, b) : cur && !unset)
			return false;
		/* a removed flag becomes false (the API's default: the
		 * proof counts "false" as absent), anything else null */
		add = v ? (struct wg_node *)v
		      : wg_node_new_plain(&r->arena,
					  wg_node_bool(cur) == WG_BOOL_TRUE
					  ? "false" : "null");
		cur = NULL;
	}
	WG_GROW(r->carried, r->carried_cap, r->ncarried + 1);
	r->carried[r->ncarried++] = (struct chart_carried){ o->seq,
		wg_arena_strdup(&r->arena, f), key };
	if (wg_values_edits_merge(&r->edits, key, cur, add, why,
				  &conflict)) {
		const struct wg_chart_tpl *t;
		uint32_t line = chart_key_line(r, o, f, &t);

		if (!quiet)
			wg_report_at(r->ctx, WG_SEV_ERROR,
				     chart_where(r, t, o->src), line, 0,
				     "%s: the values key %s feeds %s and %s, "
				     "which need different values",
				     label(r, res), key, path, conflict);
		r->problems++;
	}
	return true;
}

/* ---- template literal edits --------------------------------------------- */

static struct chart_tpl_edit *tpl_edit(struct chart_run *r,
				       const struct wg_chart_tpl *t)
{
	struct chart_tpl_edit *te;

	for (size_t i = 0; i < r->ntedits; i++)
		if (r->tedits[i].t == t)
			return &r->tedits[i];
	WG_GROW(r->tedits, r->tedits_cap, r->ntedits + 1);
	te = &r->tedits[r->ntedits++];
	memset(te, 0, sizeof(*te));
	te->t = t;
	wg_buf_init(&te->text);
	return te;
}

void chart_tpl_edits_release(struct chart_run *r)
{
	for (size_t i = 0; i < r->ntedits; i++) {
		wg_edits_release(&r->tedits[i].edits);
		wg_buf_release(&r->tedits[i].text);
		free(r->tedits[i].owner);
	}
	free(r->tedits);
	r->tedits = NULL;
	r->ntedits = r->tedits_cap = 0;
}

static bool same_edit(const struct wg_edit *a, const struct wg_edit *b)
{
	return a->start == b->start && a->end == b->end && a->len == b->len
	       && (!a->len || memcmp(a->text, b->text, a->len) == 0);
}

static bool overlap(const struct wg_edit *a, const struct wg_edit *b)
{
	if (a->start == a->end || b->start == b->end)
		return a->start == b->start
		       || (a->start > b->start && a->start < b->end)
		       || (b->start > a->start && b->start < a->end);
	return a->start < b->end && b->start < a->end;
}

enum planned { PLAN_NONE = 0, PLAN_DONE, PLAN_CONFLICT };

/* Two objects rendered from the same lines that need different edits. */
struct conflict {
	size_t other;		/* the other object's origin seq */
	const char *mine;	/* the first line of each edit, as text */
	const char *theirs;
};

/* An edit's text: what it inserts, or the template text it removes. */
static void edit_text(const struct wg_edit *e, const struct wg_chart_tpl *t,
		      const char **s, const char **z)
{
	*s = e->len ? e->text : t->text + e->start;
	*z = e->len ? e->text + e->len : t->text + e->end;
}

/* The first line where two edits' texts differ, each trimmed, as
 * "'text'" (or "removing 'text'"): *mine and *theirs, in a. */
static void differing_lines(struct wg_arena *a, const struct wg_edit *x,
			    const struct wg_edit *y,
			    const struct wg_chart_tpl *t, const char **mine,
			    const char **theirs)
{
	const char *xs, *xz, *ys, *yz;

	edit_text(x, t, &xs, &xz);
	edit_text(y, t, &ys, &yz);
	for (;;) {
		const char *xn = memchr(xs, '\n', (size_t)(xz - xs));
		const char *yn = memchr(ys, '\n', (size_t)(yz - ys));
		const char *xe = xn ? xn : xz, *ye = yn ? yn : yz;

		if (!xn || !yn || xe - xs != ye - ys
		    || memcmp(xs, ys, (size_t)(xe - xs)) != 0) {
			while (xs < xe && *xs == ' ')
				xs++;
			while (ys < ye && *ys == ' ')
				ys++;
			*mine = xs < xe ? wg_arena_printf(a, "%s'%.*s'",
				x->len ? "" : "removing ", (int)(xe - xs), xs)
				: "nothing more";
			*theirs = ys < ye ? wg_arena_printf(a, "%s'%.*s'",
				y->len ? "" : "removing ", (int)(ye - ys), ys)
				: "nothing more";
			return;
		}
		xs = xn + 1;
		ys = yn + 1;
	}
}

/* Whether two edits' texts begin with the same key ("key:"). */
static bool same_first_key(const struct wg_edit *x, const struct wg_edit *y,
			   const struct wg_chart_tpl *t)
{
	const char *xs, *xz, *ys, *yz, *xc, *yc;

	edit_text(x, t, &xs, &xz);
	edit_text(y, t, &ys, &yz);
	while (xs < xz && (*xs == ' ' || *xs == '-'))
		xs++;
	while (ys < yz && (*ys == ' ' || *ys == '-'))
		ys++;
	xc = memchr(xs, ':', (size_t)(xz - xs));
	yc = memchr(ys, ':', (size_t)(yz - ys));
	return xc && yc && xc - xs == yc - ys
	       && memcmp(xs, ys, (size_t)(xc - xs)) == 0;
}

/*
 * The edits of plan (offsets into t's text) made for object seq: one the
 * template has already for another object rendered from the same lines
 * is not made again; one that differs where another object's edit is
 * (the same lines render both, which need different text there) is a
 * conflict (*other: that object's seq), and nothing is made.
 */
static enum planned commit(struct chart_run *r, const struct wg_chart_tpl *t,
			   struct wg_edits *plan, size_t seq,
			   struct conflict *c)
{
	struct chart_tpl_edit *te = tpl_edit(r, t);
	bool *dup = wg_xcalloc(plan->len + 1, sizeof(*dup));

	for (size_t i = 0; i < plan->len; i++)
		for (size_t j = 0; j < te->edits.len && !dup[i]; j++)
			dup[i] = te->owner[j] != seq
				 && same_edit(&plan->items[i],
					      &te->edits.items[j]);
	for (size_t i = 0; i < plan->len; i++) {
		const struct wg_edit *x = NULL;

		/* the other object's edit here: one of the same key, when
		 * there is one, says best what differs */
		for (size_t j = 0; j < te->edits.len && !dup[i]; j++) {
			const struct wg_edit *y = &te->edits.items[j];

			if (te->owner[j] == seq || !overlap(&plan->items[i], y))
				continue;
			if (!x || (same_first_key(&plan->items[i], y, t)
				   && !same_first_key(&plan->items[i], x, t))) {
				x = y;
				c->other = te->owner[j];
			}
		}
		if (!x)
			continue;
		differing_lines(&r->arena, &plan->items[i], x, t, &c->mine,
				&c->theirs);
		free(dup);
		wg_edits_release(plan);
		return PLAN_CONFLICT;
	}
	for (size_t i = 0; i < plan->len; i++) {
		const struct wg_edit *ed = &plan->items[i];

		if (dup[i])
			continue;
		wg_edits_add(&te->edits, ed->start, ed->end, ed->text,
			     ed->len);
		WG_GROW(te->owner, te->owner_cap, te->edits.len);
		te->owner[te->edits.len - 1] = seq;
	}
	free(dup);
	wg_edits_release(plan);
	return PLAN_DONE;
}

/* How many literal lines "key:" (nothing after) a span holds. */
static size_t key_lines(const struct wg_chart_span *s, const char *key)
{
	size_t kl = strlen(key), n = 0;

	for (const char *l = s->b; l < s->e;) {
		const char *nl = memchr(l, '\n', (size_t)(s->e - l));
		const char *le = nl ? nl : s->e, *q = l;

		while (q < le && *q == ' ')
			q++;
		while (le > q && (le[-1] == ' ' || le[-1] == '\r'
				  || le[-1] == '\t'))
			le--;
		n += (size_t)(le - q) == kl + 1 && memcmp(q, key, kl) == 0
		     && q[kl] == ':';
		l = nl ? nl + 1 : s->e;
	}
	return n;
}

/*
 * The one span of spans[0..n) that holds the one literal "key:" line of
 * the object: the object's own part when it has one, else the one named
 * template that does; NULL when there is not exactly one.
 */
static const struct wg_chart_span *one_span(const struct wg_chart_span *spans,
					    size_t n, const char *key)
{
	const struct wg_chart_span *found = NULL;
	size_t total = 0, k;

	if (n && (k = key_lines(&spans[0], key)))
		return k == 1 ? &spans[0] : NULL;
	for (size_t i = 1; i < n; i++)
		if ((k = key_lines(&spans[i], key))) {
			total += k;
			found = &spans[i];
		}
	return total == 1 ? found : NULL;
}

/* The rendered lines of a removed pair: from its key's line to the end
 * of its value's last line; NULL when they cannot be found. */
static const char *removed_block(struct chart_run *r,
				 const struct chart_render *rd,
				 const struct wg_pos_map *map,
				 const struct wg_tdiff *d, size_t *len)
{
	const struct wg_pos_node *kp, *vp;
	size_t a, z;

	if (!map || !wg_is_map(d->parent))
		return NULL;
	kp = wg_pos_map_key(map, d->parent, d->index);
	vp = wg_pos_map_get(map, d->old_value);
	if (!kp || !vp || vp->end <= kp->start)
		return NULL;
	a = wg_pos_offset(&r->ix, kp->line, 0);
	z = wg_pos_next_line(&r->ix, vp->end - 1);
	*len = z - a;
	return rd->in.data + a;
}

/* The additions of left from k on into the collection d->parent, as one
 * mapping or sequence; NULL when an earlier one planned them all. */
static struct wg_node *additions(struct chart_run *r,
				 const struct wg_tdiff_list *left, size_t k)
{
	const struct wg_tdiff *d = &left->items[k];
	struct wg_node *add;

	for (size_t j = 0; j < k; j++)
		if (left->items[j].kind == WG_TDIFF_ADD
		    && left->items[j].parent == d->parent)
			return NULL;	/* planned with the first */
	add = wg_is_map(d->parent) ? wg_node_new_map(&r->arena)
				   : wg_node_new_seq(&r->arena);
	for (size_t j = k; j < left->len; j++) {
		const struct wg_tdiff *o = &left->items[j];

		if (o->kind != WG_TDIFF_ADD || o->parent != d->parent)
			continue;
		if (wg_is_map(add) && o->new_key)
			wg_map_set(&r->arena, add,
				   wg_scalar_dup(&r->arena, o->new_key),
				   (struct wg_node *)o->new_value);
		else if (wg_is_seq(add))
			wg_seq_append(&r->arena, add,
				      (struct wg_node *)o->new_value);
	}
	return add;
}

/* The pod-spec key whose value is node, and whether node is a pod spec;
 * NULL when neither. */
static const char *podspec_field(struct chart_run *r, const struct wg_node *n,
				 const struct wg_podspec *psb, size_t nb,
				 bool *podspec)
{
	*podspec = false;
	for (size_t p = 0; p < nb; p++) {
		if (n == psb[p].spec) {
			*podspec = true;
			return NULL;
		}
		for (size_t f = 0; f < psb[p].spec->len; f++)
			if (wg_map_value(psb[p].spec, f) == n)
				return wg_scalar_dup(&r->arena,
						     wg_map_key(psb[p].spec, f));
	}
	return NULL;
}

/*
 * --in-place, --diff: a change no values key carries, made in the literal
 * text of the template (or of a named template it includes) that writes
 * it.  PLAN_DONE when planned (or planned already), PLAN_CONFLICT when
 * another object rendered from the same lines needs other text there.
 */
static enum planned edit_template(struct chart_run *r,
				  const struct chart_render *rd,
				  const struct wg_resource *res,
				  const struct wg_tdiff_list *left, size_t k,
				  const struct wg_pos_map *map,
				  const struct wg_podspec *psb, size_t nb,
				  struct conflict *other)
{
	const struct chart_origin *o = chart_origin_of(res);
	const struct wg_tdiff *d = &left->items[k];
	struct wg_chart_span spans[MAX_SPANS];
	const struct wg_chart_span *s;
	const struct wg_chart_tpl *t;
	struct wg_edits plan = { NULL, 0, 0 };
	const char *b, *e, *block;
	size_t n, blen, same = 0, total = 0, start = 0, stop = 0, found = 0;

	t = chart_tpl_part(r, o, &b, &e);
	if (!t || r->o->mode == WG_CHART_VALUES_OUT)
		return PLAN_NONE;
	n = wg_chart_spans(&r->c, t, b, e, spans, MAX_SPANS);
	if (d->kind == WG_TDIFF_ADD) {
		bool podspec;
		const char *field = podspec_field(r, d->parent, psb, nb,
						  &podspec);
		struct wg_node *add;
		size_t line;

		if (podspec) {
			s = one_span(spans, n, "containers");
			if (!s || !s->t->path || !d->new_key
			    || wg_tpl_insert_podspec_key(s->t->text, s->b,
							 s->e, d->new_key,
							 d->new_value, &plan))
				return PLAN_NONE;
			return commit(r, s->t, &plan, o->seq, other);
		}
		if (!field)
			return PLAN_NONE;
		if (!(add = additions(r, left, k)))
			return PLAN_DONE;
		s = one_span(spans, n, field);
		if (!s || !s->t->path
		    || wg_tpl_insert_into_block(s->t->text, s->b, s->e, field,
						add, &plan, &line))
			return PLAN_NONE;
		return commit(r, s->t, &plan, o->seq, other);
	}
	if (d->kind != WG_TDIFF_REMOVE)
		return PLAN_NONE;
	block = removed_block(r, rd, map, d, &blen);
	if (!block)
		return PLAN_NONE;
	/* the k-th of the object's removals of this same block takes the
	 * k-th place its spans write it, when the counts agree */
	for (size_t j = 0; j < left->len; j++) {
		const char *ob;
		size_t olen;

		if (left->items[j].kind != WG_TDIFF_REMOVE
		    || !(ob = removed_block(r, rd, map, &left->items[j],
					    &olen))
		    || olen != blen || memcmp(ob, block, blen) != 0)
			continue;
		same += j < k;
		total++;
	}
	s = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t a = 0, z = 0;
		size_t c = wg_tpl_find_block(spans[i].b, spans[i].e, block,
					     blen, same >= found
					     ? same - found : SIZE_MAX,
					     &a, &z, spans[i].t->text);

		if (!s && same >= found && same - found < c) {
			s = &spans[i];
			start = a;
			stop = z;
		}
		found += c;
	}
	if (found != total || !s || !s->t->path)
		return PLAN_NONE;
	wg_edits_add(&plan, start, stop, NULL, 0);
	return commit(r, s->t, &plan, o->seq, other);
}

/* ---- what cannot be carried --------------------------------------------- */

/* The last mapping key of a path ("a.b[0].c" -> "c"; "a.b[0]" -> "b"),
 * in arena. */
static const char *last_key(struct wg_arena *a, const char *path)
{
	const char *end = path + strlen(path), *s;

	while (end > path && end[-1] == ']') {
		while (end > path && end[-1] != '[')
			end--;
		if (end > path)
			end--;
	}
	for (s = end; s > path && s[-1] != '.'; s--)
		;
	if (s < end && *s == '[')
		s++;
	return wg_arena_strndup(a, s, (size_t)(end - s));
}

/* The template line a change concerns: its field's (or the nearest
 * field above it the template writes); a new pod-spec key, the pod
 * spec's "containers:"; else the object's first line. */
static uint32_t change_line(struct chart_run *r, const struct chart_origin *o,
			    const char *path, bool add,
			    const struct wg_chart_tpl **t)
{
	const char *key = last_key(&r->arena, path);
	size_t n = strlen(path), kl = strlen(key);
	uint32_t line = chart_key_line(r, o, key, t);

	/* a new key of the pod spec itself ("...spec.runtimeClassName"):
	 * it goes in front of "containers:" */
	if (!line && add && n > kl + 6
	    && memcmp(path + n - kl - 5, "spec.", 5) == 0
	    && (n == kl + 5 || path[n - kl - 6] == '.'))
		line = chart_key_line(r, o, "containers", t);
	if (!line)
		line = chart_path_line(r, o, path, t);
	if (!line)
		chart_locate(r, o, "", 0, 0, t, &line, NULL);
	return line;
}

static void report_shared(struct chart_run *r, const struct wg_resource *res,
			  struct chart_shared *sh)
{
	const struct chart_origin *o = chart_origin_of(res);
	const struct chart_origin *oo = chart_origin_of(sh->other);
	const struct wg_chart_tpl *t, *ot = NULL;
	const struct wg_chart_tpl *own = wg_chart_tpl_find(&r->c, oo->src);
	const char *okey = sh->key;
	bool vo = r->o->mode == WG_CHART_VALUES_OUT;
	uint32_t line, oline;

	/* where the other template reads the key (a subchart's own name
	 * for it, without the prefix) */
	if (own && strncmp(okey, own->values_prefix,
			   strlen(own->values_prefix)) == 0)
		okey += strlen(own->values_prefix);
	oline = chart_text_line(r, oo, wg_arena_printf(&r->arena,
				".Values.%s", okey), &ot);
	if (!oline)
		chart_locate(r, oo, "", 0, 0, &ot, &oline, NULL);
	line = change_line(r, o, sh->path, false, &t);
	wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src), line, 0,
		     "%s: %s: the values key %s feeds it and also %s "
		     "(%s%s%.0u), which must not get this change (the "
		     "chain leaves that field as it is); %s",
		     label(r, res), sh->path, sh->key, label(r, sh->other),
		     ot ? (ot->path ? ot->path : ot->rel)
			: oo->src ? oo->src : "?",
		     oline ? ":" : "", oline,
		     vo ? "--values-out cannot set it for this object "
			  "alone (--in-place edits this template's "
			  "literal YAML where it can)"
			: "and this template's literal YAML cannot take "
			  "the change here (it goes into the object's "
			  "one literal block of that field)");
}

/* A change of res that neither a values key nor a template literal edit
 * carries: one error, at the template line concerned, saying why. */
static void report_left(struct chart_run *r, const struct chart_render *rd,
			const struct wg_resource *res,
			const struct wg_tdiff *d, enum planned plan,
			const struct conflict *c)
{
	const struct chart_origin *o = chart_origin_of(res);
	bool vo = r->o->mode == WG_CHART_VALUES_OUT;
	const struct wg_chart_tpl *t, *own = wg_chart_tpl_find(&r->c, o->src);
	uint32_t line;

	for (size_t s = 0; s < r->nshared; s++) {
		struct chart_shared *sh = &r->shared[s];
		size_t n = strlen(sh->path);

		if (sh->object != o->seq || strncmp(d->path, sh->path, n) != 0
		    || (d->path[n] && d->path[n] != '.' && d->path[n] != '['))
			continue;
		if (!sh->reported)	/* once per field */
			report_shared(r, res, sh);
		sh->reported = true;
		return;
	}
	line = change_line(r, o, d->path, d->kind == WG_TDIFF_ADD, &t);
	if (plan == PLAN_CONFLICT) {
		wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src),
			     line, 0, "%s: %s: these template lines also "
			     "render %s (a range, or a named template "
			     "included more than once), which needs another "
			     "change here (%s for it, %s for this one); one "
			     "literal edit cannot serve both (a values key "
			     "per object, or a template that writes the "
			     "difference, can)", label(r, res), d->path,
			     label_of(r, rd, c->other), c->theirs, c->mine);
		return;
	}
	if (own && own->pack && !vo) {
		wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src),
			     line, 0, "%s: %s: no values hook carries this "
			     "change (%s reads no .Values key that feeds "
			     "it, nor do the named templates it includes), "
			     "and the template is in the packed subchart "
			     "%s, which migrate does not rewrite (helm "
			     "dependency build would overwrite it): unpack "
			     "it (tar -xzf %s/%s -C %s/charts, then remove "
			     "the .tgz) and migrate again to edit its "
			     "literal YAML", label(r, res), d->path, o->src,
			     own->pack, r->dir, own->pack, r->dir);
		return;
	}
	wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src), line, 0,
		     "%s: %s: no values hook carries this change (%s reads "
		     "no .Values key that feeds it, nor do the named "
		     "templates it includes)%s", label(r, res), d->path,
		     o->src ? o->src : "the template",
		     vo ? "; --values-out cannot express it (--in-place "
			  "edits the template's literal YAML where it can)"
			: "; and the template's literal YAML cannot be edited "
			  "here (a new pod-spec key needs one literal "
			  "'containers:' line; a removed key, its lines "
			  "written literally as often as rendered; an added "
			  "entry, one literal block of its field)");
}

void chart_report_copy(struct chart_run *r, const struct chart_render *rd,
		       const struct wg_resource *copy)
{
	const struct wg_resource *from = chart_copied_from(rd, copy);
	const struct chart_origin *o = from ? chart_origin_of(from) : NULL;
	const struct wg_chart_tpl *t = NULL;
	struct wg_resource as_read;
	uint32_t line = 0;

	/* named as rendered: the chain renamed it too */
	if (o) {
		as_read = *from;
		as_read.root = o->before;
		from = &as_read;
	}

	if (o)
		chart_locate(r, o, "", 0, 0, &t, &line, NULL);
	wg_report_at(r->ctx, WG_SEV_ERROR,
		     chart_where(r, t, o ? o->src : NULL), line, 0,
		     "%s: the chain makes a copy of it per Windows build "
		     "(fan-out: its builds need different images or "
		     "RuntimeClasses; %s is one), and a chart's template "
		     "renders one object, under its own name: name one "
		     "build for it (annotation wingen.dev/windows-build, or "
		     "a profile select entry with one build) or migrate the "
		     "rendered manifests (helm template ... > app.yaml; "
		     "wingen migrate PROFILE app.yaml)",
		     from ? label(r, from) : "an object", label(r, copy));
	r->problems++;
}

/* ---- one object --------------------------------------------------------- */

size_t chart_map_object(struct chart_run *r, const struct chart_render *rd,
			const struct wg_resource *res,
			const struct wg_node *after, struct wg_pathlist *quiet)
{
	const struct chart_origin *o = chart_origin_of(res);
	struct wg_resource tb = *res, ta = *res;
	struct wg_podspec *psb, *psa;
	struct wg_pathlist done = { 0 };
	size_t nb, na, nleft = 0;
	struct wg_tdiff_list left = { .items = NULL };
	struct wg_pos_map map = { NULL, NULL, 0, 0, NULL };
	struct wg_buf path = WG_BUF_INIT;
	bool have_tpl = wg_chart_tpl_find(&r->c, o->src) != NULL;

	tb.root = o->before;
	ta.root = (struct wg_node *)after;
	nb = wg_podspec_find_all(&r->arena, kinds(r), &tb, &psb);
	na = wg_podspec_find_all(&r->arena, kinds(r), &ta, &psa);
	for (size_t p = 0; have_tpl && nb == na && p < na; p++) {
		const struct wg_node *sa = psa[p].spec, *sb = psb[p].spec;

		/* every key of after, then the ones the chain removed */
		for (size_t k = 0; k < sa->len + sb->len; k++) {
			const struct wg_node *key = k < sa->len
				? wg_map_key(sa, k) : wg_map_key(sb, k - sa->len);
			const char *f = wg_scalar_dup(&r->arena, key);
			const struct wg_node *bv = wg_map_get(sb, f);
			const struct wg_node *av = wg_map_get(sa, f);

			if ((k >= sa->len && av) || in_list(not_whole, f)
			    || (bv && av && wg_node_equal(bv, av)))
				continue;
			wg_podspec_path(&path, &psa[p], f, NULL);
			if (carry(r, rd, res, f, bv, av, path.buf, quiet != NULL))
				wg_pathlist_add(&done, path.buf);
		}
	}
	wg_buf_release(&path);
	wg_tree_diff(&r->arena, o->before, after, &left);
	if (r->o->mode != WG_CHART_VALUES_OUT && !r->have_ix) {
		const char *err;
		size_t err_line;

		r->have_ix = wg_pos_index_build(&r->ix, rd->in.data,
						rd->in.len, &err,
						&err_line) == 0;
		if (!r->have_ix)
			wg_pos_index_release(&r->ix);
	}
	if (r->have_ix && res->index < r->ix.ndocs
	    && r->ix.docs[res->index].root)
		wg_pos_map_add_tree(&map, o->before,
				    r->ix.docs[res->index].root);
	for (size_t k = 0; k < left.len; k++) {
		enum planned plan = PLAN_NONE;
		struct conflict other = { 0, NULL, NULL };

		if (carried(&done, left.items[k].path))
			continue;
		plan = edit_template(r, rd, res, &left, k,
				     r->have_ix ? &map : NULL, psb, nb,
				     &other);
		if (plan == PLAN_DONE)
			continue;
		if (quiet)
			wg_pathlist_add(quiet, left.items[k].path);
		else
			report_left(r, rd, res, &left.items[k], plan, &other);
		r->problems++;
		nleft++;
	}
	wg_pos_map_release(&map);
	wg_tdiff_list_release(&left);
	wg_pathlist_release(&done);
	return nleft;
}
