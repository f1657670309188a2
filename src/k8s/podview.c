/*
 * Pods that are not PodTemplateSpecs: a kind's shape (kinds.h) walked
 * into one view per pod (podspec.h).  The view is a mapping made here
 * whose values are nodes of the tree: each setting where the pod reads it
 * (its own holder, else the first shared holder that sets it), and its
 * containers, maybe from another object its workload names (a Task,
 * podrefs.c).  Edits go to the tree through podedit.c, which keeps the
 * view in step.
 */
#include "podview.h"

#include <string.h>

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

const char *wg_podview_join(struct wg_arena *a, const char *base,
			    const char *p)
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
	wg_podview_follow(b->arena, b->list, owner ? owner : b->res,
	       &b->sh->container_ref, c, path, &f);
	told(b, &f);
	if (f.how == FOLLOW_FOUND) {
		add_ctr(b, v, list, f.body, wg_podview_join(b->arena, wg_resource_label(
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
		const char *base = wg_podview_join(b->arena, body_path, "");
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
					b->arena, "%s[%zu]", wg_podview_join(b->arena,
					base, key), k), owner);
			}
			continue;
		}
		n = wg_path_get(body, p);
		imageless = imageless || (wg_is_map(n)
			&& wg_node_is_null(wg_map_get(n, "image")));
		one_ctr(b, v, list, n, wg_podview_join(b->arena, base, p), owner);
	}
	if (imageless && sh->container_defaults) {
		struct wg_node *d = wg_path_get(body, sh->container_defaults);

		if (wg_is_map(d))
			add_ctr(b, v, 1, d, wg_podview_join(b->arena, label
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
		v->own_path = wg_podview_join(b->arena, v->item_path, sh->own);
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
	v->own_path = wg_podview_join(b->arena, v->own_parent_path, sh->own);
	v->own = v->own_parent && *sh->own ? wg_path_get(v->own_parent,
							 sh->own)
					   : v->own_parent;
}

void wg_podview_fill(struct wg_arena *a, struct wg_pod_view *v)
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
	path = wg_podview_join(b->arena, b->root_path,
		    expand(b->arena, sh->pods[b->tpl], b->idx, depth));
	for (int f = 0; f < WG_POD_NFIELDS; f++) {
		struct wg_node *v;

		if (!sh->fields[f] || f == WG_POD_HOST_NETWORK
		    || !sets(sh, v = wg_path_get(item, sh->fields[f])))
			continue;
		b->caller_fn(v, wg_podview_join(b->arena, path, sh->fields[f]),
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
		wg_podview_follow(b->arena, b->list, b->root_owner ? b->root_owner
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
	v->item_path = wg_podview_join(b->arena, b->root_path,
			    expand(b->arena, sh->pods[b->tpl], b->idx, depth));
	v->item_owner = b->root_owner;
	if (wg_is_scalar(wg_map_get(item, "name")))
		v->name = wg_scalar_dup(b->arena, wg_map_get(item, "name"));
	body_path = *sh->body ? wg_podview_join(b->arena, v->item_path, sh->body)
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
		f.path = wg_podview_join(b->arena, v->item_path, sh->body_ref.at);
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
	wg_podview_fill(b->arena, v);
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
	wg_podview_follow(b->arena, b->list, b->res, &sh->root_ref, b->res->root, "", &f);
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
		wg_podview_follow(w->arena, w->list, w->res, &r, at, exact, &f);
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
					 wg_podview_join(w->arena, exact, head), i));
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
