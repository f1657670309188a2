/*
 * A queue of indexes 0..n-1 that threads take one at a time, each index
 * once: the pools that read many files (src/yaml/read_split.c, build;
 * src/migrate/migrate_pool.c, migrate).
 */
#ifndef WINGEN_BASE_WORK_H
#define WINGEN_BASE_WORK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct wg_work {
	pthread_mutex_t lock;
	size_t next, n;		/* under lock */
};

/* A queue of n indexes; wg_work_destroy() when every taker is done. */
void wg_work_init(struct wg_work *w, size_t n);
void wg_work_destroy(struct wg_work *w);

/* The next index not yet taken into *k; false when none is left. */
bool wg_work_take(struct wg_work *w, size_t *k);

#endif
