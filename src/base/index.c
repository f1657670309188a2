#include "wingen/base/index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

struct entry {
	char *key;		/* NULL: free slot */
	size_t len;
	size_t hash;
	void **values;
	size_t n, cap;
};

struct wg_index {
	struct entry *slots;
	size_t cap, used;	/* cap is a power of two, at most half used */
};

static size_t hash_of(const char *key, size_t len)
{
	size_t h = 14695981039346656037u;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211u;
	return h;
}

struct wg_index *wg_index_new(void)
{
	struct wg_index *ix = wg_xcalloc(1, sizeof(*ix));

	ix->cap = 64;
	ix->slots = wg_xcalloc(ix->cap, sizeof(*ix->slots));
	return ix;
}

void wg_index_free(struct wg_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->cap; i++) {
		free(ix->slots[i].key);
		free(ix->slots[i].values);
	}
	free(ix->slots);
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
	struct wg_index bigger = { wg_xcalloc(2 * ix->cap,
					      sizeof(*ix->slots)),
				   2 * ix->cap, ix->used };

	for (size_t i = 0; i < ix->cap; i++)
		if (ix->slots[i].key)
			*find(&bigger, ix->slots[i].key, ix->slots[i].len,
			      ix->slots[i].hash) = ix->slots[i];
	free(ix->slots);
	*ix = bigger;
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
		e->key = wg_xstrndup(key, len);
		e->len = len;
		e->hash = hash;
		ix->used++;
	}
	WG_GROW(e->values, e->cap, e->n + 1);
	e->values[e->n++] = value;
}

void *const *wg_index_get(const struct wg_index *ix, const char *key,
			  size_t len, size_t *n)
{
	const struct entry *e = find(ix, key, len, hash_of(key, len));

	*n = e->key ? e->n : 0;
	return e->key ? e->values : NULL;
}
