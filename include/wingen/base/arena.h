#ifndef WINGEN_ARENA_H
#define WINGEN_ARENA_H

#include <stdalign.h>
#include <stddef.h>

/*
 * A bump allocator: many small allocations, one release.
 *
 * The node tree of a stream lives in one arena; nodes and strings are never
 * freed one by one.  Transforms detach nodes rather than free them, and the
 * arena reclaims everything at wg_arena_release().  Allocation never fails
 * (see alloc.h).
 */

/* A block: visible only so that wg_arena_alloc() can be inline. */
struct wg_arena_block {
	struct wg_arena_block *next;
	size_t size;	/* usable bytes in data */
	size_t used;
	alignas(max_align_t) unsigned char data[];
};

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
void *wg_arena_alloc_slow(struct wg_arena *arena, size_t size);
static inline void *wg_arena_alloc(struct wg_arena *arena, size_t size)
{
	/* inline: the reader asks for every node (the slow path is
	 * wg_arena_alloc_slow, which opens a new block) */
	struct wg_arena_block *b = arena->head;
	size_t at = b ? (b->used + 7u) & ~(size_t)7u : 0;

	if (b && at <= b->size && b->size - at >= size) {
		b->used = at + size;
		arena->used += size;
		return b->data + at;
	}
	return wg_arena_alloc_slow(arena, size);
}

/* As wg_arena_alloc(), zero-filled. */
void *wg_arena_zalloc(struct wg_arena *arena, size_t size);

/* n bytes, unaligned and uninitialised (text to be read into). */
char *wg_arena_alloc_str(struct wg_arena *arena, size_t n);

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

/* Moves every block of src into dst (what src handed out now lives as
 * long as dst); src is left empty.  dst keeps its current block. */
void wg_arena_take(struct wg_arena *dst, struct wg_arena *src);

/* Frees every block; the arena is empty and reusable afterwards. */
void wg_arena_release(struct wg_arena *arena);

#endif
