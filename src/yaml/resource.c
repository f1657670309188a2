#include "wingen/yaml/resource.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

void wg_resources_init(struct wg_resources *list)
{
	memset(list, 0, sizeof(*list));
	wg_arena_init(&list->arena);
}

void wg_resources_release(struct wg_resources *list)
{
	free(list->keys);
	free(list->items);
	wg_node_journal_free(list->journal);
	wg_arena_release(&list->arena);
	wg_resources_init(list);
}

struct wg_resource *wg_resource_new(struct wg_resources *list,
				    struct wg_node *root, const char *file,
				    unsigned index)
{
	struct wg_resource *res = wg_arena_zalloc(&list->arena, sizeof(*res));

	res->root = root;
	res->file = file;
	res->index = index;
	return res;
}

void wg_resources_insert(struct wg_resources *list, size_t pos,
			 struct wg_resource *res)
{
	WG_GROW(list->items, list->cap, list->len + 1);
	memmove(&list->items[pos + 1], &list->items[pos],
		(list->len - pos) * sizeof(*list->items));
	list->items[pos] = res;
	list->len++;
}

void wg_resources_append(struct wg_resources *list, struct wg_resource *res)
{
	WG_GROW(list->items, list->cap, list->len + 1);
	list->items[list->len++] = res;
}

/* A List wrapper: kind ends in "List" and items is a list (or null with
 * nothing but the fields a List has). */
static bool is_list(const struct wg_node *root)
{
	const struct wg_node *kind = wg_map_get(root, "kind");
	const struct wg_node *items;
	long at = wg_map_find(root, "items");

	if (!wg_is_scalar(kind) || kind->len < 4 || at < 0
	    || memcmp(kind->u.str + kind->len - 4, "List", 4) != 0)
		return false;
	items = wg_map_value(root, (size_t)at);
	if (wg_is_seq(items))
		return true;
	if (!wg_node_is_null(items))
		return false;
	for (size_t i = 0; i < root->len; i++) {
		const struct wg_node *k = wg_map_key(root, i);

		if (!wg_scalar_is(k, "apiVersion") && !wg_scalar_is(k, "kind")
		    && !wg_scalar_is(k, "metadata")
		    && !wg_scalar_is(k, "items"))
			return false;
	}
	return true;
}

/* Appends the items of a List, and the items of Lists among them. */
static size_t add_items(struct wg_resources *list, const struct wg_node *root,
			const char *file, unsigned index)
{
	const struct wg_node *items = wg_map_get(root, "items");
	size_t added = 0;

	for (size_t i = 0; wg_is_seq(items) && i < items->len; i++) {
		struct wg_node *item = wg_seq_item(items, i);
		struct wg_resource *res;

		if (wg_node_is_null(item))
			continue;
		/* A List in a List holds objects too (kubectl flattens
		 * them all); the reader's depth limit bounds the recursion. */
		if (wg_is_map(item) && is_list(item)) {
			added += add_items(list, item, file, index);
			continue;
		}
		res = wg_resource_new(list, item, file, index);
		res->flags |= WG_RES_LIST_ITEM;
		wg_resources_append(list, res);
		added++;
	}
	return added;
}

void wg_resources_take(struct wg_resources *dst, struct wg_resources *src)
{
	for (size_t i = 0; i < src->len; i++)
		wg_resources_append(dst, src->items[i]);
	wg_arena_take(&dst->arena, &src->arena);
	src->len = 0;
	wg_resources_release(src);
}

size_t wg_resources_add_document(struct wg_resources *list,
				 struct wg_node *root, const char *file,
				 unsigned index)
{
	if (wg_node_is_null(root))
		return 0;
	if (wg_is_map(root) && is_list(root))
		return add_items(list, root, file, index);
	wg_resources_append(list, wg_resource_new(list, root, file, index));
	return 1;
}

/* Keys are short: hash eight bytes at a time. */
static size_t key_hash(const struct wg_node *k)
{
	const char *p = k->u.str;
	size_t n = k->len;
	uint64_t h = 0x9e3779b97f4a7c15u ^ (n << 3) ^ k->style;

	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 29;
	}
	for (; n; p++, n--)
		h = (h ^ (unsigned char)*p) * 0x100000001b3u;
	h ^= h >> 32;
	return (size_t)h;
}

static bool same_key(const struct wg_node *a, const struct wg_node *b)
{
	return a->len == b->len && a->style == b->style
	       && memcmp(a->u.str, b->u.str, a->len) == 0;
}

static void keys_grow(struct wg_resources *list)
{
	size_t cap = list->keys_cap ? 2 * list->keys_cap : 256;
	struct wg_node **keys = wg_xcalloc(cap, sizeof(*keys));

	for (size_t i = 0; i < list->keys_cap; i++) {
		struct wg_node *k = list->keys[i];
		size_t j;

		if (!k)
			continue;
		for (j = key_hash(k) & (cap - 1); keys[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = k;
	}
	free(list->keys);
	list->keys = keys;
	list->keys_cap = cap;
}

struct wg_node *wg_resources_shared_key(struct wg_resources *list,
					const char *s, size_t len,
					unsigned style)
{
	struct wg_node probe = { .kind = WG_NODE_SCALAR, .style = style & 7u,
				 .len = (uint32_t)len, .u.str = s };

	if (!list->keys_cap || len > WG_NODE_MAX_LEN)
		return NULL;
	for (size_t j = key_hash(&probe) & (list->keys_cap - 1); list->keys[j];
	     j = (j + 1) & (list->keys_cap - 1))
		if (same_key(list->keys[j], &probe))
			return list->keys[j];
	return NULL;
}

void wg_resources_add_shared_key(struct wg_resources *list,
				 struct wg_node *key)
{
	size_t j;

	if (2 * (list->nkeys + 1) > list->keys_cap)
		keys_grow(list);
	for (j = key_hash(key) & (list->keys_cap - 1); list->keys[j];
	     j = (j + 1) & (list->keys_cap - 1))
		;
	list->keys[j] = key;
	list->nkeys++;
	wg_node_forget_pos(key);
}

static const char *str_at(struct wg_arena *arena, const struct wg_node *root,
			  const char *path)
{
	return wg_scalar_dup(arena, wg_path_get(root, path));
}

const char *wg_resource_kind(struct wg_arena *arena,
			     const struct wg_resource *res)
{
	return str_at(arena, res->root, "kind");
}

bool wg_resource_kind_is(const struct wg_resource *res, const char *kind)
{
	return wg_scalar_is(wg_map_get(res->root, "kind"), kind);
}

struct wg_node *wg_resource_name_node(const struct wg_resource *res)
{
	return wg_path_get(res->root, "metadata.name");
}

struct wg_node *wg_resource_namespace_node(const struct wg_resource *res)
{
	return wg_path_get(res->root, "metadata.namespace");
}

void wg_resource_ref(struct wg_arena *arena, const struct wg_resource *res,
		     struct wg_ref *ref)
{
	memset(ref, 0, sizeof(*ref));
	if (wg_is_map(res->root)) {
		ref->api_version = str_at(arena, res->root, "apiVersion");
		ref->kind = str_at(arena, res->root, "kind");
		ref->name = str_at(arena, res->root, "metadata.name");
		ref->namespace_ = str_at(arena, res->root,
					 "metadata.namespace");
	}
	ref->file = res->file;
	ref->index = res->index;
}

const char *wg_resource_label(struct wg_arena *arena,
			      const struct wg_resource *res)
{
	struct wg_ref ref;

	wg_resource_ref(arena, res, &ref);
	if (ref.namespace_)
		return wg_arena_printf(arena, "%s/%s/%s",
				       ref.kind ? ref.kind : "?",
				       ref.namespace_,
				       ref.name ? ref.name : "?");
	return wg_arena_printf(arena, "%s/%s", ref.kind ? ref.kind : "?",
			       ref.name ? ref.name : "?");
}
