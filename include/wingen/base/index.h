#ifndef WINGEN_INDEX_H
#define WINGEN_INDEX_H

#include <stddef.h>

/*
 * A multimap from byte-string keys to pointers: index a stream once
 * instead of scanning it once per object (a Service per workload, a
 * workload per HPA), which is quadratic on large streams.
 *
 * Keys are copied (into the index, freed with it); values are borrowed.
 * Values under one key come back in the order they were added.
 * Allocation never fails (alloc.h).
 */

struct wg_index;

struct wg_index *wg_index_new(void);
/* An index with room for expect keys before it grows (its table is not
 * rehashed on the way there). */
struct wg_index *wg_index_new_sized(size_t expect);
void wg_index_free(struct wg_index *ix);

void wg_index_add(struct wg_index *ix, const char *key, size_t len,
		  void *value);

/* The values added under key, *n of them (NULL and 0 when none).  Valid
 * until the next wg_index_add(). */
void *const *wg_index_get(const struct wg_index *ix, const char *key,
			  size_t len, size_t *n);

#endif
