/*
 * What a loaded profile answers about itself: whether it is the embedded
 * default, which build a name means, the toleration of the Windows nodes'
 * taint.
 */
#include <string.h>

#include "wingen/k8s/catalog.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/node.h"

bool wg_profile_is_embedded(const struct wg_profile *p)
{
	return p->path && strcmp(p->path, WG_PROFILE_EMBEDDED_PATH) == 0;
}

const struct wg_build *wg_profile_find_build(const struct wg_profile *p,
					     const char *name)
{
	const struct wg_release *r = wg_release_find(name);

	for (size_t i = 0; r && i < p->nbuilds; i++)
		if (p->builds[i].release == r)
			return &p->builds[i];
	for (size_t i = 0; i < p->nbuilds; i++)
		if (p->builds[i].runtime_class
		    && strcmp(p->builds[i].runtime_class, name) == 0)
			return &p->builds[i];
	/* A build the catalogue does not know is named by its number. */
	for (size_t i = 0; !r && i < p->nbuilds; i++)
		if (p->builds[i].release
		    && strcmp(p->builds[i].release->build, name) == 0)
			return &p->builds[i];
	return NULL;
}

struct wg_node *wg_taint_toleration(struct wg_arena *arena,
				    const struct wg_taint *taint)
{
	struct wg_node *t = wg_node_new_map(arena);

	wg_map_set(arena, t, "key", wg_node_new_str(arena, taint->key));
	wg_map_set(arena, t, "operator",
		   wg_node_new_str(arena, taint->value ? "Equal" : "Exists"));
	if (taint->value)
		wg_map_set(arena, t, "value",
			   wg_node_new_str(arena, taint->value));
	wg_map_set(arena, t, "effect", wg_node_new_str(arena, taint->effect));
	return t;
}
