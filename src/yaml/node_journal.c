/*
 * The undo journal (node.h): what each collection held before the first
 * edit while a journal was active, and the before-trees rebuilt from it.
 */
#include "wingen/yaml/node.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"

#include "yaml_internal.h"

/* A collection as it was: len pairs or items at items.  copied: items is
 * the journal's own copy; else it is the collection's array of then,
 * which appends leave alone (a later rewrite copies it first). */
struct saved {
	const struct wg_node *node;	/* NULL: a free slot */
	struct wg_node **items;
	uint32_t len;
	bool copied;
};

struct wg_node_journal {
	struct saved *slots;
	size_t cap, used;	/* cap a power of two, at most 3/4 used */
	struct wg_arena arena;	/* the copies of items */
};

_Thread_local struct wg_node_journal *wg_node_journal_active;

struct wg_node_journal *wg_node_journal_new_sized(size_t expect)
{
	struct wg_node_journal *j = wg_xcalloc(1, sizeof(*j));

	j->cap = 16;
	while (j->cap < 2 * expect && j->cap < SIZE_MAX / 4)
		j->cap *= 2;
	j->slots = wg_xcalloc(j->cap, sizeof(*j->slots));
	wg_arena_init(&j->arena);
	return j;
}

struct wg_node_journal *wg_node_journal_new(void)
{
	return wg_node_journal_new_sized(512);
}

void wg_node_journal_free(struct wg_node_journal *j)
{
	if (!j)
		return;
	if (wg_node_journal_active == j)
		wg_node_journal_active = NULL;
	free(j->slots);
	wg_arena_release(&j->arena);
	free(j);
}

void wg_node_journal_start(struct wg_node_journal *j)
{
	wg_node_journal_active = j;
}

void wg_node_journal_stop(void)
{
	wg_node_journal_active = NULL;
}

size_t wg_node_journal_size(const struct wg_node_journal *j)
{
	return j ? j->used : 0;
}

/* Nodes are 8-aligned arena memory: the low bits carry nothing. */
static size_t hash_ptr(const struct wg_node *n)
{
	uint64_t h = (uint64_t)(uintptr_t)n;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 32;
	return (size_t)h;
}

static struct saved *slot_of(const struct wg_node_journal *j,
			     const struct wg_node *n)
{
	size_t mask = j->cap - 1;

	for (size_t i = hash_ptr(n) & mask;; i = (i + 1) & mask)
		if (!j->slots[i].node || j->slots[i].node == n)
			return &j->slots[i];
}

static void grow(struct wg_node_journal *j)
{
	struct wg_node_journal bigger = *j;

	bigger.cap = 2 * j->cap;
	bigger.slots = wg_xcalloc(bigger.cap, sizeof(*bigger.slots));
	for (size_t i = 0; i < j->cap; i++)
		if (j->slots[i].node)
			*slot_of(&bigger, j->slots[i].node) = j->slots[i];
	free(j->slots);
	j->slots = bigger.slots;
	j->cap = bigger.cap;
}

static size_t slot_count(const struct wg_node *n, uint32_t len)
{
	return n->kind == WG_NODE_MAP ? 2 * (size_t)len : len;
}

void wg_node_journal_save(struct wg_node *n, bool append)
{
	struct wg_node_journal *j = wg_node_journal_active;
	struct saved *s = slot_of(j, n);
	size_t k;

	if (!s->node) {
		if (4 * (j->used + 1) > 3 * j->cap) {
			grow(j);
			s = slot_of(j, n);
		}
		*s = (struct saved){ .node = n, .items = n->u.items,
				     .len = n->len };
		j->used++;
		n->flags |= WG_NODE_SAVED;
	}
	/* A rewrite of the array the saved slots are in: keep them first.
	 * After a move to a bigger array (an append past its capacity) the
	 * old one is no longer written, and needs no copy. */
	if (append || s->copied || s->items != n->u.items)
		return;
	k = slot_count(n, s->len);
	if (k) {
		struct wg_node **copy = wg_arena_alloc(&j->arena,
						       k * sizeof(*copy));

		memcpy(copy, s->items, k * sizeof(*copy));
		s->items = copy;
	}
	s->copied = true;
}

static const struct saved *find(const struct wg_node_journal *j,
				const struct wg_node *n)
{
	const struct saved *s = slot_of(j, n);

	return s->node ? s : NULL;
}

bool wg_node_journal_saved(const struct wg_node_journal *j,
			   const struct wg_node *node,
			   struct wg_node *const **items, uint32_t *len)
{
	const struct saved *s;

	if (!j || !j->used || node->kind == WG_NODE_SCALAR
	    || (node->flags & (WG_NODE_NEW | WG_NODE_SAVED)) != WG_NODE_SAVED)
		return false;
	s = find(j, node);
	if (!s)
		return false;
	*items = s->items;
	*len = s->len;
	return true;
}

const struct wg_node *wg_node_journal_before(const struct wg_node_journal *j,
					     struct wg_arena *arena,
					     const struct wg_node *node)
{
	const struct saved *s;
	struct wg_node *const *items;
	struct wg_node **out = NULL;
	struct wg_node *copy;
	uint32_t len;
	size_t k;

	if (node->kind == WG_NODE_SCALAR || !j->used)
		return node;
	/* the flag spares a probe of the table, a cache miss, for each of
	 * the collections no edit touched */
	s = (node->flags & (WG_NODE_NEW | WG_NODE_SAVED)) == WG_NODE_SAVED
		    ? find(j, node) : NULL;
	items = s ? s->items : node->u.items;
	len = s ? s->len : node->len;
	k = slot_count(node, len);
	for (size_t i = 0; i < k; i++) {
		/* most children are scalars, which stand for themselves:
		 * no call for them */
		const struct wg_node *b = items[i]->kind == WG_NODE_SCALAR
					  ? items[i]
					  : wg_node_journal_before(j, arena,
								   items[i]);

		if (b != items[i] && !out) {
			/* the first child that changed: from here on the
			 * node is a copy */
			out = wg_arena_alloc(arena, k * sizeof(*out));
			memcpy(out, items, i * sizeof(*out));
		}
		if (out)
			out[i] = (struct wg_node *)b;
	}
	if (!s && !out)
		return node;
	copy = wg_node_copy_head(arena, node);
	copy->len = len;
	/* without a changed child, the saved slots serve as they are: the
	 * journal's copy, or an array no edit writes below len */
	copy->u.items = out ? out : (struct wg_node **)items;
	return copy;
}
