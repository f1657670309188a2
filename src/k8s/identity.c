/*
 * Duplicate objects in a run (identity.h): one index from identity to
 * the first object that had it, so a stream costs one pass.
 */
#include "wingen/k8s/identity.h"

#include "wingen/base/buf.h"
#include "wingen/base/index.h"
#include "wingen/k8s/kinds.h"
#include "wingen/yaml/node.h"

/* The scalar's text appended, then a NUL: the parts of a key cannot run
 * into each other. */
static void part(struct wg_buf *key, const char *s, size_t len)
{
	wg_buf_add(key, s, len);
	wg_buf_add(key, "", 1);
}

/* Fills key with res's identity; false when it has none to compare. */
static bool identity(const struct wg_resource *res, struct wg_buf *key)
{
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	const struct wg_node *name = wg_resource_name_node(res);
	const struct wg_node *ns = wg_resource_namespace_node(res);
	const char *group = "";
	size_t glen = 0;

	if ((res->flags & (WG_RES_GENERATED | WG_RES_DELETED))
	    || !wg_is_scalar(kind) || !wg_is_scalar(name) || !name->len)
		return false;
	/* No apiVersion: the group is unknown, and compares as its own. */
	if (!wg_api_group(wg_map_get(res->root, "apiVersion"), &group, &glen))
		group = "\x01", glen = 1;
	wg_buf_reset(key);
	part(key, group, glen);
	part(key, kind->u.str, kind->len);
	if (wg_is_scalar(ns))
		part(key, ns->u.str, ns->len);
	else
		part(key, "", 0);
	part(key, name->u.str, name->len);
	return true;
}

size_t wg_report_duplicates(struct wg_ctx *ctx,
			    const struct wg_resources *list)
{
	struct wg_index *ix = wg_index_new_sized(list->len);
	struct wg_buf key = WG_BUF_INIT;
	size_t found = 0;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		const struct wg_resource *first;
		const struct wg_node *at;
		void *const *seen;
		size_t n;

		if (!identity(res, &key))
			continue;
		seen = wg_index_get(ix, key.buf, key.len, &n);
		if (!n) {
			wg_index_add(ix, key.buf, key.len, res);
			continue;
		}
		first = seen[0];
		at = wg_resource_name_node(first);
		found++;
		wg_error(ctx, res, wg_resource_name_node(res), "metadata.name",
			 "the same object as at %s:%u:%u (API group, kind, "
			 "namespace and name are equal): applying both keeps "
			 "only one, and kustomize refuses them",
			 first->file ? first->file : "(generated)",
			 (unsigned)wg_node_line(at) + 1,
			 (unsigned)wg_node_col(at) + 1);
	}
	wg_buf_release(&key);
	wg_index_free(ix);
	return found;
}
