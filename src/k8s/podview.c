/*
 * Pods that are not PodTemplateSpecs: a kind's shape (kinds.h) walked
 * into one view per pod (podspec.h).  The view is a mapping made here
 * whose values are nodes of the tree: each setting where the pod reads it
 * (its own holder, else the first shared holder that sets it), and its
 * containers, maybe from another object its workload names (a Task).
 * Every edit goes to the tree through the functions below, which keep
 * the view in step.
 */
#include "podview.h"

#include "wingen/base/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- objects named by references ---------------------------------------- */

/* One object a reference may name: kind, name, namespace ("" unset). */
struct named {
	const char *kind;
	const char *name;
	const char *ns;
	const struct wg_resource *res;
};

struct wg_pod_refs {
	struct named *items;
	size_t n;
	size_t indexed_len;	/* list->len when built */
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	return c ? c : strcmp(x->name, y->name);
}

static bool ref_names(const struct wg_pod_ref *r,
		      const struct wg_resource *res);

/* Whether res is of a kind some built-in shape's references name (only
 * those are indexed: the stream may be large). */
static bool referable(const struct wg_resource *res)
{
	for (const struct wg_kind *k = wg_kinds; k->kind; k++) {
		const struct wg_pod_shape *sh = k->shape;

		if (!sh)
			continue;
		if (ref_names(&sh->root_ref, res) || ref_names(&sh->body_ref, res)
		    || ref_names(&sh->container_ref, res))
			return true;
		for (unsigned i = 0; i < WG_SHAPE_MAX_CHECKS
				     && sh->checks[i].at; i++)
			if (ref_names(&sh->checks[i], res))
				return true;
	}
	return false;
}

static struct wg_pod_refs *refs_of(struct wg_resources *list)
{
	struct wg_pod_refs *r = list->pod_refs;
	size_t n = 0;

	if (r && r->indexed_len == list->len)
		return r;
	if (!r)
		r = list->pod_refs = wg_arena_zalloc(&list->arena, sizeof(*r));
	for (size_t i = 0; i < list->len; i++)
		n += wg_is_map(list->items[i]->root)
		     && referable(list->items[i]);
	r->items = wg_arena_zalloc(&list->arena, (n ? n : 1)
				   * sizeof(*r->items));
	r->n = 0;
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct wg_node *name = wg_resource_name_node(res);
		const struct wg_node *ns = wg_resource_namespace_node(res);
		struct named *e;

		if (!wg_is_map(res->root) || !referable(res)
		    || !wg_is_scalar(name) || (res->flags & WG_RES_DELETED))
			continue;
		e = &r->items[r->n++];
		e->kind = wg_scalar_dup(&list->arena,
					wg_map_get(res->root, "kind"));
		e->name = wg_scalar_dup(&list->arena, name);
		e->ns = wg_is_scalar(ns) ? wg_scalar_dup(&list->arena, ns) : "";
		e->res = res;
	}
	wg_sort(r->items, r->n, sizeof(*r->items), named_cmp);
	r->indexed_len = list->len;
	return r;
}

/*
 * The object of list of this kind (in groups) and name: in namespace ns,
 * or (a stream applied with kubectl -n) one that names no namespace when
 * the other does not either, or either one unset.  ns NULL: cluster-
 * scoped, any namespace.
 */
static const struct wg_resource *lookup(struct wg_resources *list,
					const char *kind, const char *groups,
					const char *name, const char *ns)
{
	struct wg_pod_refs *r = refs_of(list);
	struct named key = { kind, name, NULL, NULL };
	const struct named *hit = bsearch(&key, r->items, r->n,
					  sizeof(*r->items), named_cmp);
	const struct wg_resource *loose = NULL;

	if (!hit)
		return NULL;
	while (hit > r->items && named_cmp(hit - 1, &key) == 0)
		hit--;
	for (; hit < r->items + r->n && named_cmp(hit, &key) == 0; hit++) {
		if (!wg_api_group_in(wg_map_get(hit->res->root, "apiVersion"),
				     groups))
			continue;
		if (!ns || strcmp(hit->ns, ns) == 0)
			return hit->res;
		if (!*hit->ns || !*ns)
			loose = loose ? loose : hit->res;
	}
	return loose;
}

/* ---- following a reference ---------------------------------------------- */

enum follow {
	FOLLOW_NONE = 0,	/* no reference there */
	FOLLOW_FOUND,		/* *body is the named object's */
	FOLLOW_MISSING,		/* not in the stream (or no list) */
	FOLLOW_REMOTE,		/* fetched from elsewhere */
	FOLLOW_OTHER,		/* names a kind the shape does not run
				   (a Tekton custom task) */
};

struct followed {
	enum follow how;
	struct wg_node *body;
	const struct wg_resource *owner;
	const char *what;	/* "Task 'build'" */
	const struct wg_node *at;
	const char *path;	/* of the reference */
};

/* Follows ref at node from (whose path is from_path) within res. */
static void follow(struct wg_arena *arena, struct wg_resources *list,
		   const struct wg_resource *res, const struct wg_pod_ref *ref,
		   struct wg_node *from, const char *from_path,
		   struct followed *out)
{
	const struct wg_node *r = ref->at ? wg_path_get(from, ref->at) : NULL;
	const struct wg_node *kind, *name, *cluster, *ns;
	const struct wg_resource *hit;
	const char *k;
	char *nm;

	memset(out, 0, sizeof(*out));
	if (!wg_is_map(r))
		return;
	out->at = r;
	out->path = *from_path ? wg_arena_printf(arena, "%s.%s", from_path,
						 ref->at)
			       : wg_arena_strdup(arena, ref->at);
	kind = wg_map_get(r, "kind");
	name = wg_map_get(r, "name");
	cluster = ref->cluster ? wg_map_get(r, ref->cluster) : NULL;
	k = ref->kind;
	if (wg_is_scalar(kind) && kind->len) {
		if (ref->cluster_kind && wg_scalar_is(kind, ref->cluster_kind))
			k = ref->cluster_kind;
		else if (!wg_scalar_is(kind, ref->kind)) {
			out->how = FOLLOW_OTHER;
			return;
		}
	} else if (ref->cluster_kind && wg_node_true(cluster)) {
		k = ref->cluster_kind;
	}
	for (const char *rk = ref->remote; rk && *rk;) {
		size_t n = strcspn(rk, "|");
		char *key = wg_arena_strndup(arena, rk, n);

		if (!wg_node_is_null(wg_map_get(r, key))) {
			out->how = FOLLOW_REMOTE;
			out->what = wg_arena_printf(arena, "a %s its %s "
						    "fetches", k, key);
			return;
		}
		rk += n + (rk[n] == '|');
	}
	nm = wg_is_scalar(name) ? wg_scalar_dup(arena, name) : "";
	out->what = wg_arena_printf(arena, "%s '%s'", k, nm);
	ns = wg_resource_namespace_node(res);
	hit = list && *nm ? lookup(list, k, ref->groups, nm,
				   k == ref->cluster_kind ? NULL
				   : wg_is_scalar(ns)
				   ? wg_scalar_dup(arena, ns) : "")
			  : NULL;
	if (!hit) {
		out->how = FOLLOW_MISSING;
		return;
	}
	out->body = *ref->body ? wg_path_get(hit->root, ref->body) : hit->root;
	out->owner = hit;
	out->how = wg_is_map(out->body) ? FOLLOW_FOUND : FOLLOW_MISSING;
}

/* ---- building views ----------------------------------------------------- */

struct build {
	struct wg_arena *arena;
	struct wg_resources *list;
	const struct wg_kind *kind;
	const struct wg_resource *res;
	const struct wg_pod_shape *sh;
	struct wg_node *root;		/* the pod root */
	const char *root_path;		/* its path, from its object's root */
	const struct wg_resource *root_owner;	/* NULL: res */
	unsigned tpl;
	size_t idx[WG_KIND_MAX_ITEMS];
	struct wg_podspec *out;		/* NULL: count only */
	size_t n;
	wg_podspec_ref_fn fn;		/* told every reference followed */
	void *payload;
	/* a node of res to place what is told at, when the reference is
	 * in another object (a Pipeline's taskRef, a Task's step ref): the
	 * reference of res that leads there; NULL: the reference itself */
	const struct wg_node *here;
	/* told each setting a caller sets (wg_podspec_caller_settings) */
	void (*caller_fn)(const struct wg_node *v, const char *path,
			  void *payload);
};

static void tell(wg_podspec_ref_fn fn, void *payload,
		 const struct followed *f, bool pods)
{
	struct wg_podspec_ref r = {
		f->what, f->at, f->path,
		f->how == FOLLOW_FOUND ? f->owner : NULL,
		f->how == FOLLOW_REMOTE, pods,
	};

	if (fn && f->how != FOLLOW_NONE && f->how != FOLLOW_OTHER)
		fn(&r, payload);
}

static void told(struct build *b, const struct followed *f)
{
	struct followed g = *f;

	if (b->here)
		g.at = b->here;
	if (b->out)
		tell(b->fn, b->payload, &g, true);
}

static const char *join(struct wg_arena *a, const char *base, const char *p)
{
	if (!*base)
		return wg_arena_strdup(a, p);
	if (!*p)
		return wg_arena_strdup(a, base);
	return wg_arena_printf(a, "%s%s%s", base, *p == '[' ? "" : ".", p);
}

/* p with each "[]" step replaced by the index of idx, in order. */
static const char *expand(struct wg_arena *a, const char *p,
			  const size_t *idx, unsigned nidx)
{
	struct wg_buf b = WG_BUF_INIT;
	unsigned i = 0;
	const char *out;

	for (const char *step; (step = strstr(p, "[]")); p = step + 2) {
		wg_buf_add(&b, p, (size_t)(step - p));
		wg_buf_addf(&b, "[%zu]", i < nidx ? idx[i] : 0);
		i++;
	}
	wg_buf_addstr(&b, p);
	out = wg_arena_strdup(a, b.buf ? b.buf : "");
	wg_buf_release(&b);
	return out;
}

static bool holds_one_of(const struct wg_node *m, const char *keys)
{
	for (const char *k = keys; *k;) {
		size_t n = strcspn(k, "|");
		long at = wg_map_findn(m, k, n);

		if (at >= 0 && !wg_node_is_null(wg_map_value(m, (size_t)at)))
			return true;
		k += n + (k[n] == '|');
	}
	return false;
}

/* Whether v sets a field (non-null; non-empty when empty inherits). */
static bool sets(const struct wg_pod_shape *sh, const struct wg_node *v)
{
	if (wg_node_is_null(v))
		return false;
	return !(sh->empty_inherits && (wg_is_map(v) || wg_is_seq(v))
		 && v->len == 0);
}

static void add_ctr(struct build *b, struct wg_pod_view *v, unsigned list,
		    struct wg_node *c, const char *path,
		    const struct wg_resource *owner)
{
	struct view_ctr *e;

	if (v->nctrs[list] == v->cap[list]) {
		size_t cap = v->cap[list] ? 2 * v->cap[list] : 4;
		struct view_ctr *n = wg_arena_zalloc(b->arena,
						     cap * sizeof(*n));

		if (v->nctrs[list])
			memcpy(n, v->ctrs[list],
			       v->nctrs[list] * sizeof(*n));
		v->ctrs[list] = n;
		v->cap[list] = cap;
	}
	e = &v->ctrs[list][v->nctrs[list]++];
	e->node = c;
	e->path = path;
	e->owner = owner;
}

static void unresolved(struct wg_pod_view *v, const struct followed *f)
{
	if (v->missing)
		return;	/* the first says it */
	v->missing = f->what;
	v->missing_at = f->at;
	v->missing_path = f->path;
}

/* A container of the pod: itself, or the object its reference names. */
static void one_ctr(struct build *b, struct wg_pod_view *v, unsigned list,
		    struct wg_node *c, const char *path,
		    const struct wg_resource *owner)
{
	struct followed f;

	if (!wg_is_map(c))
		return;
	follow(b->arena, b->list, owner ? owner : b->res,
	       &b->sh->container_ref, c, path, &f);
	told(b, &f);
	if (f.how == FOLLOW_FOUND) {
		add_ctr(b, v, list, f.body, join(b->arena, wg_resource_label(
			b->arena, f.owner), *b->sh->container_ref.body
			? b->sh->container_ref.body : ""), f.owner);
		return;
	}
	if (f.how == FOLLOW_MISSING || f.how == FOLLOW_REMOTE)
		unresolved(v, &f);
	add_ctr(b, v, list, c, path, owner);
}

/* The containers of the pod, from its body. */
static void containers(struct build *b, struct wg_pod_view *v,
		       struct wg_node *body, const char *body_path,
		       const struct wg_resource *owner)
{
	const struct wg_pod_shape *sh = b->sh;
	const char *label = owner ? wg_resource_label(b->arena, owner) : NULL;
	bool imageless = false;

	for (unsigned i = 0; i < WG_SHAPE_MAX_CONTAINERS && sh->containers[i];
	     i++) {
		const char *p = sh->containers[i];
		size_t plen = strlen(p);
		unsigned list = sh->init_containers
				&& strcmp(p, sh->init_containers) == 0 ? 0 : 1;
		const char *base = join(b->arena, body_path, "");
		struct wg_node *n;

		if (label)
			base = *body_path ? wg_arena_printf(b->arena, "%s %s",
							    label, body_path)
					  : label;
		if (plen > 2 && strcmp(p + plen - 2, "[]") == 0) {
			char *key = wg_arena_strndup(b->arena, p, plen - 2);

			n = wg_path_get(body, key);
			for (size_t k = 0; wg_is_seq(n) && k < n->len; k++) {
				struct wg_node *c = wg_seq_item(n, k);

				imageless = imageless || (wg_is_map(c)
					&& wg_node_is_null(wg_map_get(c,
								"image"))
					&& !(sh->container_ref.at
					     && wg_map_get(c,
						sh->container_ref.at)));
				one_ctr(b, v, list, c, wg_arena_printf(
					b->arena, "%s[%zu]", join(b->arena,
					base, key), k), owner);
			}
			continue;
		}
		n = wg_path_get(body, p);
		imageless = imageless || (wg_is_map(n)
			&& wg_node_is_null(wg_map_get(n, "image")));
		one_ctr(b, v, list, n, join(b->arena, base, p), owner);
	}
	if (imageless && sh->container_defaults) {
		struct wg_node *d = wg_path_get(body, sh->container_defaults);

		if (wg_is_map(d))
			add_ctr(b, v, 1, d, join(b->arena, label
				? (*body_path ? wg_arena_printf(b->arena,
				   "%s %s", label, body_path) : label)
				: body_path, sh->container_defaults), owner);
	}
}

/* The pod's own holder: from its item, or its entry of own_list. */
static void own_holder(struct build *b, struct wg_pod_view *v)
{
	const struct wg_pod_shape *sh = b->sh;
	struct wg_node *list;

	if (!sh->own_list) {
		v->own_parent = v->item;
		v->own_parent_path = v->item_path;
		v->own_path = join(b->arena, v->item_path, sh->own);
		v->own = *sh->own ? wg_path_get(v->item, sh->own) : v->item;
		return;
	}
	list = wg_path_get(b->res->root, sh->own_list);
	v->own_parent = NULL;
	v->own_parent_path = wg_arena_printf(b->arena, "%s[%zu]",
					     sh->own_list, wg_is_seq(list)
					     ? (size_t)list->len : 0);
	for (size_t i = 0; v->name && wg_is_seq(list) && i < list->len; i++) {
		struct wg_node *e = wg_seq_item(list, i);

		if (!wg_scalar_is(wg_map_get(e, sh->own_key), v->name))
			continue;
		v->own_parent = e;
		v->own_parent_path = wg_arena_printf(b->arena, "%s[%zu]",
						     sh->own_list, i);
		break;
	}
	v->own_path = join(b->arena, v->own_parent_path, sh->own);
	v->own = v->own_parent && *sh->own ? wg_path_get(v->own_parent,
							 sh->own)
					   : v->own_parent;
}

/* Fills the view mapping from the holders (again, after an edit). */
static void fill(struct wg_arena *a, struct wg_pod_view *v)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *m = v->map;

	while (m->len)
		wg_map_delete_at(m, m->len - 1);
	for (int f = 0; f < WG_POD_NFIELDS; f++) {
		struct wg_node *val = NULL;

		v->from[f] = -1;
		if (!sh->fields[f])
			continue;
		if (wg_is_map(v->own)
		    && sets(sh, val = wg_path_get(v->own, sh->fields[f]))) {
			v->from[f] = 0;
		} else {
			val = NULL;
			for (unsigned s = 0; s < v->nshared && !val; s++) {
				struct wg_node *x = wg_path_get(v->shared[s],
								sh->fields[f]);

				if (sets(sh, x)) {
					val = x;
					v->from[f] = (signed char)(s + 1);
				}
			}
		}
		if (val)
			wg_map_insert(a, m, m->len, wg_pod_field_keys[f], val);
	}
	for (unsigned l = 0; l < 2; l++) {
		struct wg_node *seq;

		if (!v->nctrs[l])
			continue;
		seq = wg_node_new_seq(a);
		for (size_t i = 0; i < v->nctrs[l]; i++)
			wg_seq_append(a, seq, v->ctrs[l][i].node);
		wg_map_insert(a, m, m->len, l ? "containers" : "initContainers",
			      seq);
	}
}

/* A caller (Argo's steps or DAG template): told of each setting it sets. */
static void caller(struct build *b, struct wg_node *item, unsigned depth)
{
	const struct wg_pod_shape *sh = b->sh;
	const char *path;

	if (!b->caller_fn || !sh->callers || !holds_one_of(item, sh->callers))
		return;
	path = join(b->arena, b->root_path,
		    expand(b->arena, sh->pods[b->tpl], b->idx, depth));
	for (int f = 0; f < WG_POD_NFIELDS; f++) {
		struct wg_node *v;

		if (!sh->fields[f] || f == WG_POD_HOST_NETWORK
		    || !sets(sh, v = wg_path_get(item, sh->fields[f])))
			continue;
		b->caller_fn(v, join(b->arena, path, sh->fields[f]),
			     b->payload);
	}
}

static void one_pod(struct build *b, struct wg_node *item, unsigned depth)
{
	const struct wg_pod_shape *sh = b->sh;
	struct wg_pod_view *v;
	struct wg_podspec *ps;
	struct wg_node *body;
	const char *body_path;
	const struct wg_resource *body_owner = b->root_owner;
	struct followed f;

	if (!wg_is_map(item))
		return;
	if (sh->runs && !holds_one_of(item, sh->runs)) {
		caller(b, item, depth);
		return;
	}
	body = *sh->body ? wg_map_get(item, sh->body) : item;
	memset(&f, 0, sizeof(f));
	if (!wg_is_map(body) && sh->body_ref.at) {
		follow(b->arena, b->list, b->root_owner ? b->root_owner
		       : b->res, &sh->body_ref, item, "", &f);
		if (f.how == FOLLOW_OTHER)
			return;	/* not a pod of this kind's */
	}
	if (!b->out) {
		b->n++;
		return;
	}
	ps = &b->out[b->n++];
	v = wg_arena_zalloc(b->arena, sizeof(*v));
	ps->kind = b->kind;
	ps->tpl = b->tpl;
	ps->nitems = depth;
	memcpy(ps->items, b->idx, sizeof(ps->items));
	ps->view = v;
	v->shape = sh;
	v->res = b->res;
	v->item = item;
	v->item_path = join(b->arena, b->root_path,
			    expand(b->arena, sh->pods[b->tpl], b->idx, depth));
	v->item_owner = b->root_owner;
	if (wg_is_scalar(wg_map_get(item, "name")))
		v->name = wg_scalar_dup(b->arena, wg_map_get(item, "name"));
	body_path = *sh->body ? join(b->arena, v->item_path, sh->body)
			      : v->item_path;
	if (f.how == FOLLOW_FOUND) {
		body = f.body;
		body_owner = f.owner;
		body_path = sh->body_ref.body;
		v->body_owner = f.owner;
	}
	if (f.how != FOLLOW_NONE) {
		/* a pod item of the object the root reference names (a
		 * Pipeline's task): its path says whose */
		f.path = join(b->arena, v->item_path, sh->body_ref.at);
		if (b->root_owner)
			f.path = wg_arena_printf(b->arena, "%s %s",
				wg_resource_label(b->arena, b->root_owner),
				f.path);
	}
	if (f.how == FOLLOW_MISSING || f.how == FOLLOW_REMOTE)
		unresolved(v, &f);
	told(b, &f);
	if (wg_is_map(body)) {
		const struct wg_node *here = b->here;

		/* a step ref of a Task of the stream: placed at the
		 * taskRef that leads there */
		if (f.how == FOLLOW_FOUND && !b->here)
			b->here = f.at;
		containers(b, v, body, body_path, body_owner);
		b->here = here;
	}
	if (!b->root_owner) {
		own_holder(b, v);
	} else {
		/* the pod item is in another object: only a keyed own
		 * holder (in this object) can be written */
		own_holder(b, v);
		if (!sh->own_list) {
			v->own = NULL;
			v->own_parent = NULL;
		}
	}
	for (unsigned s = 0; s < WG_SHAPE_MAX_SHARED && sh->shared[s]; s++) {
		struct wg_node *h = wg_path_get(b->res->root, sh->shared[s]);

		v->shared[v->nshared] = wg_is_map(h) ? h : NULL;
		v->shared_path[v->nshared++] = sh->shared[s];
	}
	v->map = wg_node_new_map(b->arena);
	fill(b->arena, v);
	ps->spec = v->map;
	ps->tmpl = sh->own_list ? v->own_parent
		   : (!b->root_owner ? item : NULL);
}

/* Walks path from at: each item of a "[]" step, then the rest. */
static void walk(struct build *b, struct wg_node *at, const char *path,
		 unsigned depth)
{
	const char *step = strstr(path, "[]");
	struct wg_node *seq;
	char *head;

	if (!step) {
		struct wg_node *n = *path ? wg_path_get(at, path) : at;

		one_pod(b, n, depth);
		return;
	}
	if (depth == WG_KIND_MAX_ITEMS)
		return;
	head = wg_arena_strndup(b->arena, path, (size_t)(step - path));
	seq = *head ? wg_path_get(at, head) : at;
	step += 2;
	if (*step == '.')
		step++;
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++) {
		b->idx[depth] = i;
		walk(b, wg_seq_item(seq, i), step, depth + 1);
	}
}

/* The pod root of res, inline or named by root_ref; false when there is
 * none to walk. */
static bool pod_root(struct build *b)
{
	const struct wg_pod_shape *sh = b->sh;
	struct followed f;

	b->root = *sh->root ? wg_path_get(b->res->root, sh->root)
			    : b->res->root;
	b->root_path = sh->root;
	b->root_owner = NULL;
	if (wg_is_map(b->root))
		return true;
	if (!sh->root_ref.at)
		return false;
	follow(b->arena, b->list, b->res, &sh->root_ref, b->res->root, "", &f);
	told(b, &f);
	if (f.how != FOLLOW_FOUND)
		return false;
	b->here = f.at;
	b->root = f.body;
	b->root_path = sh->root_ref.body;
	b->root_owner = f.owner;
	return true;
}

size_t wg_podview_find(struct wg_arena *arena, const struct wg_kind *k,
		       struct wg_resources *list,
		       const struct wg_resource *res, struct wg_podspec *out,
		       wg_podspec_ref_fn fn, void *payload)
{
	struct build b = {
		.arena = arena, .list = list, .kind = k, .res = res,
		.sh = k->shape, .out = out, .fn = fn, .payload = payload,
	};

	if (!pod_root(&b))
		return 0;
	for (unsigned t = 0; t < WG_SHAPE_MAX_PODS && b.sh->pods[t]; t++) {
		b.tpl = t;
		walk(&b, b.root, b.sh->pods[t], 0);
	}
	return b.n;
}

/* ---- references --------------------------------------------------------- */

struct refwalk {
	struct wg_arena *arena;
	struct wg_resources *list;
	const struct wg_resource *res;
	const struct wg_pod_ref *ref;
	wg_podspec_ref_fn fn;
	void *payload;
};

/* The references a shape checks (they bring no pod: Argo's templateRef). */
static void ref_walk(struct refwalk *w, struct wg_node *at, const char *path,
		     const char *exact)
{
	const char *step = strstr(path, "[]");
	struct wg_node *seq;
	char *head;

	if (!step) {
		struct wg_pod_ref r = *w->ref;
		struct followed f;

		r.at = path;
		follow(w->arena, w->list, w->res, &r, at, exact, &f);
		tell(w->fn, w->payload, &f, false);
		return;
	}
	head = wg_arena_strndup(w->arena, path, (size_t)(step - path));
	seq = *head ? wg_path_get(at, head) : at;
	step += 2;
	if (*step == '.')
		step++;
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++)
		ref_walk(w, wg_seq_item(seq, i), step,
			 wg_arena_printf(w->arena, "%s[%zu]",
					 join(w->arena, exact, head), i));
}

void wg_podview_refs(struct wg_arena *arena, const struct wg_kind *k,
		     struct wg_resources *list, const struct wg_resource *res,
		     wg_podspec_ref_fn fn, void *payload)
{
	const struct wg_pod_shape *sh = k->shape;
	struct refwalk w = { arena, list, res, NULL, fn, payload };
	size_t n = wg_podview_find(arena, k, list, res, NULL, NULL, NULL);
	struct wg_podspec *out = wg_arena_zalloc(arena, (n ? n : 1)
						 * sizeof(*out));
	struct wg_node *root;

	(void)wg_podview_find(arena, k, list, res, out, fn, payload);
	root = *sh->root ? wg_path_get(res->root, sh->root) : res->root;
	if (!wg_is_map(root))
		return;
	for (unsigned i = 0; i < WG_SHAPE_MAX_CHECKS && sh->checks[i].at;
	     i++) {
		w.ref = &sh->checks[i];
		ref_walk(&w, root, sh->checks[i].at, sh->root);
	}
}

/* ---- editing through a view --------------------------------------------- */

/* The map at path below m, made (maps) along the way; NULL when something
 * on the way is not a mapping (*bad then). */
static struct wg_node *ensure_path(struct wg_arena *a, struct wg_node *m,
				   const char *path, struct wg_node **bad)
{
	char *p = wg_arena_strdup(a, path);

	for (char *key = p, *dot; m && *key; key = dot ? dot + 1 : "") {
		struct wg_node *next;

		dot = strchr(key, '.');
		if (dot)
			*dot = '\0';
		next = wg_map_ensure_map(a, m, key);
		if (!next)
			*bad = wg_map_get(m, key);
		m = next;
		if (!dot)
			break;
	}
	return m;
}

/* The own holder, made when missing; NULL (and *bad) when it cannot be. */
static struct wg_node *make_own(struct wg_arena *a, struct wg_pod_view *v,
				struct wg_node **bad)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *list, *e;

	*bad = NULL;
	if (wg_is_map(v->own))
		return v->own;
	if (v->own && !wg_node_is_null(v->own)) {
		*bad = v->own;
		return NULL;
	}
	if (sh->own_list && !v->own_parent) {
		char *dot, *head, *last;

		if (!v->name)
			return NULL;	/* an entry names its pod */
		head = wg_arena_strdup(a, sh->own_list);
		dot = strrchr(head, '.');
		last = dot ? dot + 1 : head;
		if (dot)
			*dot = '\0';
		list = dot ? ensure_path(a, v->res->root, head, bad)
			   : v->res->root;
		if (!list)
			return NULL;
		list = wg_map_ensure_seq(a, list, last);
		if (!list) {
			*bad = wg_path_get(v->res->root, sh->own_list);
			return NULL;
		}
		e = wg_node_new_map(a);
		wg_map_insert(a, e, 0, sh->own_key, wg_node_new_str(a,
								   v->name));
		wg_seq_append(a, list, e);
		v->own_parent = e;
		v->own_parent_path = wg_arena_printf(a, "%s[%zu]",
						     sh->own_list,
						     (size_t)list->len - 1);
		v->own_path = join(a, v->own_parent_path, sh->own);
	}
	if (!v->own_parent)
		return NULL;
	v->own = *sh->own ? ensure_path(a, v->own_parent, sh->own, bad)
			  : v->own_parent;
	return v->own;
}

/* The field's holder and its last key: "a.b.c" -> holder a.b, "c". */
static struct wg_node *field_holder(struct wg_arena *a, struct wg_node *own,
				    const char *fpath, const char **last,
				    struct wg_node **bad)
{
	const char *dot = strrchr(fpath, '.');

	*last = dot ? dot + 1 : fpath;
	if (!dot)
		return own;
	return ensure_path(a, own, wg_arena_strndup(a, fpath,
						    (size_t)(dot - fpath)),
			   bad);
}

/* A copy of the collection c made by wingen (new: changes are placed at
 * the pod, not where c came from), its items copies of c's. */
static struct wg_node *copy_new(struct wg_arena *a, const struct wg_node *c)
{
	struct wg_node *out;

	if (wg_is_seq(c)) {
		out = wg_node_new_seq(a);
		for (size_t i = 0; i < c->len; i++)
			wg_seq_append(a, out, wg_node_clone(a,
							    wg_seq_item(c, i)));
		return out;
	}
	out = wg_node_new_map(a);
	for (size_t i = 0; i < c->len; i++) {
		char *key = wg_scalar_dup(a, wg_map_key(c, i));

		wg_map_insert(a, out, out->len, key,
			      wg_node_clone(a, wg_map_value(c, i)));
	}
	return out;
}

struct wg_node *wg_podview_ensure(struct wg_ctx *ctx, struct wg_arena *a,
				  const struct wg_resource *res,
				  struct wg_pod_view *v, int f, int want,
				  const char *reason,
				  const struct wg_node **bad,
				  const char **bad_path)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *own, *holder, *cur, *inherited = NULL, *out, *b = NULL;
	const char *last;
	const char *from = NULL;

	*bad = NULL;
	*bad_path = NULL;
	if (!sh->fields[f])
		return NULL;
	if (v->from[f] > 0) {
		inherited = wg_path_get(v->shared[v->from[f] - 1],
					sh->fields[f]);
		from = join(a, v->shared_path[v->from[f] - 1], sh->fields[f]);
	}
	own = make_own(a, v, &b);
	holder = own ? field_holder(a, own, sh->fields[f], &last, &b) : NULL;
	if (!holder) {
		*bad = b;
		*bad_path = v->own_path;
		fill(a, v);
		return NULL;
	}
	cur = wg_map_get(holder, last);
	if (!wg_node_is_null(cur) && (int)cur->kind != want
	    && !(sh->empty_inherits && (wg_is_map(cur) || wg_is_seq(cur))
		 && cur->len == 0)) {
		*bad = cur;
		*bad_path = join(a, v->own_path, sh->fields[f]);
		fill(a, v);
		return NULL;
	}
	if (inherited && (int)inherited->kind == want
	    && (wg_node_is_null(cur) || cur->len == 0)) {
		out = copy_new(a, inherited);
		wg_map_set(a, holder, last, out);
		wg_record_change(ctx, WG_CHANGE_SET, res,
				 wg_node_has_pos(holder) ? holder : NULL,
				 join(a, v->own_path, sh->fields[f]), NULL, out,
				 wg_arena_printf(a, "%s; copied from %s, which "
						 "it inherited: its own %s "
						 "replaces that one whole",
						 reason, from,
						 wg_pod_field_keys[f]));
	} else {
		out = want == WG_NODE_SEQ ? wg_map_ensure_seq(a, holder, last)
					  : wg_map_ensure_map(a, holder, last);
	}
	fill(a, v);
	return out;
}

bool wg_podview_set(struct wg_arena *a, struct wg_pod_view *v, int f,
		    struct wg_node *value)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *own, *holder, *b = NULL;
	const char *last;

	if (!sh->fields[f])
		return false;
	own = make_own(a, v, &b);
	holder = own ? field_holder(a, own, sh->fields[f], &last, &b) : NULL;
	if (holder)
		wg_map_set(a, holder, last, value);
	fill(a, v);
	return holder != NULL;
}

struct wg_node *wg_podview_delete(struct wg_arena *a, struct wg_pod_view *v,
				  int f)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *holder, *out;
	const char *dot;

	if (!sh->fields[f] || !wg_is_map(v->own))
		return NULL;
	dot = strrchr(sh->fields[f], '.');
	holder = dot ? wg_path_get(v->own, wg_arena_strndup(a, sh->fields[f],
				   (size_t)(dot - sh->fields[f])))
		     : v->own;
	out = wg_map_delete(holder, dot ? dot + 1 : sh->fields[f]);
	fill(a, v);
	return out;
}

const char *wg_podview_field_path(struct wg_arena *a,
				  const struct wg_pod_view *v, int f, bool own)
{
	const char *fp = v->shape->fields[f] ? v->shape->fields[f]
					     : wg_pod_field_keys[f];

	if (!own && v->from[f] > 0)
		return join(a, v->shared_path[v->from[f] - 1], fp);
	return join(a, v->own_path, fp);
}

/* ---- objects that other objects run -------------------------------------- */

static bool ref_names(const struct wg_pod_ref *r, const struct wg_resource *res)
{
	const struct wg_node *kind = wg_map_get(res->root, "kind");

	if (!r->at || !(wg_scalar_is(kind, r->kind)
			|| (r->cluster_kind
			    && wg_scalar_is(kind, r->cluster_kind))))
		return false;
	return wg_map_get(res->root, "apiVersion")
	       && wg_api_group_in(wg_map_get(res->root, "apiVersion"),
				  r->groups);
}

bool wg_podspec_named_kind(struct wg_arena *arena,
			   const struct wg_resource *res, const char **runners)
{
	struct wg_buf b = WG_BUF_INIT;
	bool hit = false;

	for (const struct wg_kind *k = wg_kinds; k->kind; k++) {
		const struct wg_pod_shape *sh = k->shape;
		bool named;

		if (!sh || k->no_pods)
			continue;
		named = ref_names(&sh->root_ref, res)
			|| ref_names(&sh->body_ref, res)
			|| ref_names(&sh->container_ref, res);
		if (!named)
			continue;
		/* one name per kind (PipelineRun has a row per version) */
		if (!b.len || !strstr(b.buf, k->kind))
			wg_buf_addf(&b, "%s%s", b.len ? " or " : "", k->kind);
		hit = true;
	}
	*runners = hit ? wg_arena_strdup(arena, b.buf) : NULL;
	wg_buf_release(&b);
	return hit;
}

/* ---- shared holders ------------------------------------------------------- */

int wg_podview_source(const struct wg_pod_view *v, int f)
{
	return v->shape->fields[f] ? v->from[f] : -1;
}

struct wg_node *wg_podview_ensure_shared(struct wg_arena *a,
					 struct wg_pod_view *v, int f,
					 int want, const char **path)
{
	const struct wg_pod_shape *sh = v->shape;
	unsigned s = v->from[f] > 0 ? (unsigned)v->from[f] - 1
				    : v->nshared - 1;
	struct wg_node *holder, *bad = NULL, *out;
	const char *last;

	*path = NULL;
	if (!v->nshared || !sh->fields[f] || v->from[f] == 0)
		return NULL;
	holder = ensure_path(a, v->res->root, v->shared_path[s], &bad);
	if (holder)
		holder = field_holder(a, holder, sh->fields[f], &last, &bad);
	if (!holder)
		return NULL;
	out = want == WG_NODE_SEQ ? wg_map_ensure_seq(a, holder, last)
				  : wg_map_ensure_map(a, holder, last);
	*path = join(a, v->shared_path[s], sh->fields[f]);
	return out;
}

void wg_podview_refresh(struct wg_arena *a, struct wg_pod_view *v)
{
	for (unsigned s = 0; s < v->nshared; s++) {
		struct wg_node *h = wg_path_get(v->res->root,
						v->shape->shared[s]);

		v->shared[s] = wg_is_map(h) ? h : NULL;
	}
	fill(a, v);
}

void wg_podview_callers(struct wg_arena *arena, const struct wg_kind *k,
			const struct wg_resource *res,
			void (*fn)(const struct wg_node *v, const char *path,
				   void *payload),
			void *payload)
{
	struct build b = {
		.arena = arena, .kind = k, .res = res, .sh = k->shape,
		.caller_fn = fn, .payload = payload,
	};

	if (!b.sh || !b.sh->callers || !pod_root(&b))
		return;
	for (unsigned t = 0; t < WG_SHAPE_MAX_PODS && b.sh->pods[t]; t++) {
		b.tpl = t;
		walk(&b, b.root, b.sh->pods[t], 0);
	}
}
