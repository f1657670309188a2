/*
 * Selection's per-list state: the windows.select match counters and the
 * index of the list's RuntimeClasses.
 */
#include "select_internal.h"

#include <string.h>

struct wg_select_state *wg_sel_state(struct wg_resources *list)
{
	if (!list->select) {
		list->select = wg_arena_zalloc(&list->arena,
					       sizeof(*list->select));
		list->select->indexed_len = (size_t)-1;
		list->select->selected_len = (size_t)-1;
	}
	return list->select;
}

/* The per-entry match counters, made when the profile is first seen. */
size_t *wg_sel_counters(const struct wg_profile *p, struct wg_resources *list)
{
	struct wg_select_state *st = wg_sel_state(list);

	if (!st->matches) {
		st->nentries = p->nselect;
		st->matches = wg_arena_zalloc(&list->arena, (p->nselect + 1)
					      * sizeof(*st->matches));
	}
	return st->matches;
}

/* A RuntimeClass must say its group: a pod's runtimeClassName names
 * node.k8s.io's. */
static bool is_runtime_class(const struct wg_resource *res)
{
	return wg_map_get(res->root, "apiVersion")
	       && wg_is_kind(res, WG_KIND_RUNTIME_CLASS);
}

/* (Re)indexes the RuntimeClasses when the list changed length. */
static void index_rcs(struct wg_resources *list, struct wg_select_state *st)
{
	size_t n = 0;

	if (st->indexed_len == list->len)
		return;
	for (size_t i = 0; i < list->len; i++)
		n += is_runtime_class(list->items[i]);
	st->rcs = wg_arena_alloc(&list->arena, (n ? n : 1) * sizeof(*st->rcs));
	st->nrcs = 0;
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct wg_node *name = wg_resource_name_node(res);

		if (!is_runtime_class(res) || !wg_is_scalar(name)
		    || (res->flags & WG_RES_DELETED))
			continue;
		st->rcs[st->nrcs].name = wg_scalar_dup(&list->arena, name);
		st->rcs[st->nrcs].res = res;
		st->nrcs++;
	}
	st->indexed_len = list->len;
}

const struct wg_resource *wg_select_runtime_class(struct wg_resources *list,
						  const char *name)
{
	struct wg_select_state *st = wg_sel_state(list);

	index_rcs(list, st);
	for (size_t i = 0; i < st->nrcs; i++)
		if (strcmp(st->rcs[i].name, name) == 0)
			return st->rcs[i].res;
	return NULL;
}
