/*
 * From tree nodes to position nodes: a hash map of a document's nodes,
 * filled by walking the tree beside its position nodes.
 */
#include "posindex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

static size_t hash_ptr(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static void map_put(struct wg_pos_map *m, const struct wg_node *key,
		    struct wg_pos_node *value)
{
	size_t i;

	if (2 * (m->len + 1) > m->cap) {
		struct wg_pos_map bigger = { NULL, NULL, m->cap ? 2 * m->cap
							       : 64, 0, NULL };

		bigger.keys = wg_xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.values = wg_xcalloc(bigger.cap, sizeof(*bigger.values));
		bigger.used = wg_xmalloc((bigger.cap / 2) * sizeof(*bigger.used));
		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j])
				map_put(&bigger, m->keys[j], m->values[j]);
		wg_pos_map_release(m);
		*m = bigger;
	}
	for (i = hash_ptr(key, m->cap); m->keys[i] && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->keys[i])
		m->used[m->len++] = i;
	m->keys[i] = key;
	m->values[i] = value;
}

struct wg_pos_node *wg_pos_map_get(const struct wg_pos_map *m,
				   const struct wg_node *node)
{
	if (!m->cap || !node)
		return NULL;
	for (size_t i = hash_ptr(node, m->cap); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == node)
			return m->values[i];
	return NULL;
}

void wg_pos_map_clear(struct wg_pos_map *m)
{
	/* values of empty slots are never read: only the keys need zeros */
	for (size_t k = 0; k < m->len; k++)
		m->keys[m->used[k]] = NULL;
	m->len = 0;
}

void wg_pos_map_release(struct wg_pos_map *m)
{
	free(m->keys);
	free(m->values);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static bool key_is(const struct wg_pos_node *k, const struct wg_node *key)
{
	return k->kind == WG_NODE_SCALAR && k->text_len == key->len
	       && memcmp(k->text, key->u.str, key->len) == 0;
}

/* Pair j of position mapping pos that holds tree key k: j == i first (the
 * usual case), else the first pair with k's text; pos->len when none (a
 * pair merged in by "<<"). */
static size_t pair_of(const struct wg_pos_node *pos, const struct wg_node *k,
		      size_t i)
{
	size_t j = i;

	if (j >= pos->len || !key_is(wg_pos_key(pos, j), k))
		for (j = 0; j < pos->len; j++)
			if (key_is(wg_pos_key(pos, j), k))
				break;
	return j;
}

struct wg_pos_node *wg_pos_map_key(const struct wg_pos_map *m,
				   const struct wg_node *parent, size_t i)
{
	struct wg_pos_node *pos = wg_pos_map_get(m, parent);
	size_t j;

	if (!pos || pos->kind != WG_NODE_MAP || !wg_is_map(parent)
	    || i >= parent->len)
		return NULL;
	j = pair_of(pos, wg_map_key(parent, i), i);
	return j < pos->len ? wg_pos_key(pos, j) : NULL;
}

void wg_pos_map_add_tree(struct wg_pos_map *m, const struct wg_node *tree,
			 struct wg_pos_node *pos)
{
	map_put(m, tree, pos);
	if (pos->kind == WG_POS_ALIAS || pos->kind != tree->kind
	    || (pos->flags & WG_POS_STUB))
		return;
	if (tree->kind == WG_NODE_SEQ) {
		for (size_t i = 0; i < tree->len && i < pos->len; i++)
			wg_pos_map_add_tree(m, wg_seq_item(tree, i),
					    pos->items[i]);
		return;
	}
	if (tree->kind != WG_NODE_MAP)
		return;
	/* keys are found through their mapping (wg_pos_map_key()): a
	 * shared key node stands in many places */
	for (size_t i = 0; i < tree->len; i++) {
		size_t j = pair_of(pos, wg_map_key(tree, i), i);

		if (j >= pos->len)
			continue;	/* merged in by "<<" */
		wg_pos_map_add_tree(m, wg_map_value(tree, i),
				    wg_pos_value(pos, j));
	}
}
