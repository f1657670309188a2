#ifndef WINGEN_ALLOC_H
#define WINGEN_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Allocation helpers that never return NULL.
 *
 * wingen is a command-line filter: running out of memory is not a condition
 * it can recover from, and every output is buffered or written to a temporary
 * file until the run has succeeded.  So instead of threading ENOMEM through
 * every call, these print "wingen: out of memory" to stderr and exit(1);
 * stdout is never written and temporary files are removed by the exit
 * handlers of src/base/output.c.
 */

void *wg_xmalloc(size_t size);
void *wg_xcalloc(size_t n, size_t size);
void *wg_xrealloc(void *ptr, size_t size);
char *wg_xstrdup(const char *s);
char *wg_xstrndup(const char *s, size_t n);

/*
 * Where a region counts as large: an input file of this size or more is
 * mapped instead of copied (input.c), and an arena that holds this much
 * takes its blocks 4 MiB at a time, on 2 MiB boundaries and advised for
 * transparent huge pages (arena.c).  Nothing else is advised: a mapped
 * input is read once, and session 8 measured the advice on every large
 * region as a loss on this kind of virtual machine (bench/README.md,
 * "First touches"); session 12 measured it on arena blocks as a gain on
 * every command (bench/README.md, "System calls and page faults").
 */
#define WG_LARGE_MIN ((size_t)32 << 20)

/* Grows *items (of *cap elements of size elem) to hold at least need. */
void wg_xgrow(void **items, size_t *cap, size_t need, size_t elem);

/* The check is inline: hot loops push one item at a time. */
#define WG_GROW(items, cap, need)					\
	do {								\
		if ((need) > (cap))					\
			wg_xgrow((void **)&(items), &(cap), (need),	\
				 sizeof(*(items)));			\
	} while (0)

/*
 * qsort that takes an empty array: one grown by WG_GROW is NULL until its
 * first item, and qsort(NULL, 0, ...) is undefined behaviour.
 */
static inline void wg_sort(void *items, size_t n, size_t elem,
			   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(items, n, elem, cmp);
}

#endif
