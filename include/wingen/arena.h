#ifndef WINGEN_ARENA_H
#define WINGEN_ARENA_H

#include <stddef.h>

/*
 * A bump allocator: many small allocations, one release.
 *
 * The node tree of a stream lives in one arena; nodes and strings are never
 * freed one by one.  Transforms detach nodes rather than free them, and the
 * arena reclaims everything at wg_arena_release().  Allocation never fails
 * (see alloc.h).
 */

struct wg_arena_block;

struct wg_arena {
	struct wg_arena_block *head;	/* newest block, NULL when empty */
	size_t used;			/* bytes handed out, for statistics */
};

#define WG_ARENA_INIT { NULL, 0 }

void wg_arena_init(struct wg_arena *arena);

/*
 * Returns size bytes aligned to 8 (pointers, 64-bit integers); contents are
 * uninitialised.  Strings are packed without alignment.
 */
void *wg_arena_alloc(struct wg_arena *arena, size_t size);

/* As wg_arena_alloc(), zero-filled. */
void *wg_arena_zalloc(struct wg_arena *arena, size_t size);

/* Copies n bytes of s and appends a NUL. */
char *wg_arena_strndup(struct wg_arena *arena, const char *s, size_t n);
char *wg_arena_strdup(struct wg_arena *arena, const char *s);

/* printf into the arena. */
char *wg_arena_printf(struct wg_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Empties the arena but keeps its newest block for what comes next: for a
 * loop that fills and drops an arena many times (one document at a time).
 */
void wg_arena_clear(struct wg_arena *arena);

/* Frees every block; the arena is empty and reusable afterwards. */
void wg_arena_release(struct wg_arena *arena);

#endif
