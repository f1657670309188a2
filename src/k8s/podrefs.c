/*
 * The references of a shape (kinds.h: a TaskRun's taskRef, a
 * PipelineRun's pipelineRef, a step's ref, Argo's templateRef) followed
 * into the stream: the objects they may name, indexed once per list, and
 * the objects that other objects run.
 */
#include "podview.h"

#include "wingen/base/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- the kinds references name ------------------------------------------- */

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

void wg_podview_follow(struct wg_arena *arena, struct wg_resources *list,
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
