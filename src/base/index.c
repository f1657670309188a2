#include "wingen/base/index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"

struct entry {
	const char *key;	/* in the index's arena; NULL: free slot */
	size_t len;
	size_t hash;
	union {
		void *one;	/* n == 1: most keys (an object's identity,
				   a file's) hold one value, stored here */
		void **many;	/* n > 1: cap of them, on the heap */
	} v;
	size_t n, cap;
};

struct wg_index {
	struct entry *slots;
	size_t cap, used;	/* cap is a power of two, at most half used */
	struct wg_arena keys;	/* one allocation for every key, not one a
				   key: a run indexes 50,000 objects */
};

static size_t hash_of(const char *key, size_t len)
{
	size_t h = 14695981039346656037u;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211u;
	return h;
}

struct wg_index *wg_index_new_sized(size_t expect)
{
	struct wg_index *ix = wg_xcalloc(1, sizeof(*ix));

	ix->cap = 64;
	while (ix->cap / 2 < expect && ix->cap < SIZE_MAX / 4)
		ix->cap *= 2;
	ix->slots = wg_xcalloc(ix->cap, sizeof(*ix->slots));
	wg_arena_init(&ix->keys);
	return ix;
}

struct wg_index *wg_index_new(void)
{
	return wg_index_new_sized(0);
}

void wg_index_free(struct wg_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->cap; i++)
		if (ix->slots[i].n > 1)
			free(ix->slots[i].v.many);
	free(ix->slots);
	wg_arena_release(&ix->keys);
	free(ix);
}

static struct entry *find(const struct wg_index *ix, const char *key,
			  size_t len, size_t hash)
{
	size_t mask = ix->cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct entry *e = &ix->slots[i];

		if (!e->key || (e->hash == hash && e->len == len
				&& memcmp(e->key, key, len) == 0))
			return e;
	}
}

static void grow(struct wg_index *ix)
{
	struct entry *old = ix->slots;
	size_t old_cap = ix->cap;

	ix->cap *= 2;
	ix->slots = wg_xcalloc(ix->cap, sizeof(*ix->slots));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*find(ix, old[i].key, old[i].len, old[i].hash) = old[i];
	free(old);
}

void wg_index_add(struct wg_index *ix, const char *key, size_t len,
		  void *value)
{
	size_t hash = hash_of(key, len);
	struct entry *e;

	if (2 * (ix->used + 1) > ix->cap)
		grow(ix);
	e = find(ix, key, len, hash);
	if (!e->key) {
		e->key = wg_arena_strndup(&ix->keys, key, len);
		e->len = len;
		e->hash = hash;
		e->v.one = value;
		e->n = 1;
		ix->used++;
		return;
	}
	if (e->n == 1) {
		void *first = e->v.one;

		e->v.many = NULL;
		e->cap = 0;
		WG_GROW(e->v.many, e->cap, 4);
		e->v.many[0] = first;
	}
	WG_GROW(e->v.many, e->cap, e->n + 1);
	e->v.many[e->n++] = value;
}

void *const *wg_index_get(const struct wg_index *ix, const char *key,
			  size_t len, size_t *n)
{
	const struct entry *e = find(ix, key, len, hash_of(key, len));

	*n = e->key ? e->n : 0;
	if (!e->key)
		return NULL;
	return e->n == 1 ? &e->v.one : e->v.many;
}
