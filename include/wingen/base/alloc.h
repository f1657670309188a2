#ifndef WINGEN_ALLOC_H
#define WINGEN_ALLOC_H

#include <stddef.h>

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
 * Transparent huge pages for large regions.  Each first touch of a 4 KiB
 * page is a fault, and on a virtual machine a fault costs more than the
 * work that fills the page: a 114 MB migrate spent 2.0 of its 6.9 s in
 * the kernel zeroing pages one fault at a time.  With 2 MiB pages there
 * are 512 times fewer.  The cost is resident memory: a huge page counts
 * whole once touched, so at most 2 MiB more per region; hence only
 * regions of WG_HUGE_MIN bytes or more.  On a kernel with THP "never" or
 * without madvise(MADV_HUGEPAGE) nothing changes.
 */
#define WG_HUGE_MIN ((size_t)32 << 20)
#define WG_HUGE_PAGE ((size_t)2 << 20)

/* Advises huge pages for the whole 2 MiB pages inside [p, p + len) when
 * len >= WG_HUGE_MIN; a hint only (errors are ignored). */
void wg_advise_huge(void *p, size_t len);

/* size bytes (a multiple of WG_HUGE_PAGE) aligned to WG_HUGE_PAGE and
 * advised as huge pages; release with free(). */
void *wg_xmalloc_huge(size_t size);

/* Grows *items (of *cap elements of size elem) to hold at least need. */
void wg_xgrow(void **items, size_t *cap, size_t need, size_t elem);

/* The check is inline: hot loops push one item at a time. */
#define WG_GROW(items, cap, need)					\
	do {								\
		if ((need) > (cap))					\
			wg_xgrow((void **)&(items), &(cap), (need),	\
				 sizeof(*(items)));			\
	} while (0)

#endif
