#define _DEFAULT_SOURCE	/* MADV_HUGEPAGE */
#include "wingen/base/arena.h"

#include <stdarg.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "wingen/base/alloc.h"

/*
 * Blocks grow geometrically from 16 KiB to 1 MiB so a small document costs
 * little and a large stream makes few calls to malloc.  A request larger
 * than a block gets a block of its own.  Once an arena holds WG_LARGE_MIN
 * bytes (a large stream's tree), its blocks for small requests are 4 MiB:
 * fewer blocks to allocate and free for a tree of hundreds of megabytes.
 */
#define BLOCK_MIN (16u * 1024)
#define BLOCK_MAX (1024u * 1024)
#define BLOCK_LARGE ((size_t)4 << 20)
#define ALIGN 8u

void wg_arena_init(struct wg_arena *arena)
{
	arena->head = NULL;
	arena->used = 0;
}

/*
 * A 4 MiB block of a large tree, on 2 MiB boundaries and marked for
 * transparent huge pages: the kernel then backs it with two pages, not
 * 1,024, and a tree of 500 MB costs a few hundred page faults, not
 * 120,000.  On a virtual machine a fault costs several microseconds; over
 * 50,000 files this cut build -j1's CPU by a fifth and migrate's by more
 * (bench/README.md, "System calls and page faults").  Where the kernel has huge pages only
 * on request (Debian's default, "madvise") this is the request; where it
 * has none, or the advice is refused, the block is the same memory in
 * small pages.
 */
#define HUGE_PAGE ((size_t)2 << 20)

static struct wg_arena_block *large_block(void)
{
	void *p;

	if (posix_memalign(&p, HUGE_PAGE, BLOCK_LARGE) != 0)
		return wg_xmalloc(BLOCK_LARGE);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, BLOCK_LARGE, MADV_HUGEPAGE);
#endif
	return p;
}

static struct wg_arena_block *new_block(struct wg_arena *arena, size_t need)
{
	size_t size = arena->head ? arena->head->size * 2 : BLOCK_MIN;
	struct wg_arena_block *b;

	if (size > BLOCK_MAX)
		size = BLOCK_MAX;
	if (arena->used >= WG_LARGE_MIN && need <= BLOCK_MAX / 4) {
		size = BLOCK_LARGE - sizeof(*b);
		b = large_block();
	} else {
		if (size < need)
			size = need;
		b = wg_xmalloc(sizeof(*b) + size);
	}
	b->size = size;
	b->used = 0;
	if (need > BLOCK_MAX / 4 && arena->head) {
		/* Keep the current block for the small requests to come. */
		b->next = arena->head->next;
		arena->head->next = b;
	} else {
		b->next = arena->head;
		arena->head = b;
	}
	return b;
}

/* align is 1 (strings) or ALIGN (everything else). */
static void *take(struct wg_arena *arena, size_t size, size_t align)
{
	struct wg_arena_block *b = arena->head;
	size_t at;

	if (b) {
		at = (b->used + align - 1) & ~(align - 1);
		if (at <= b->size && b->size - at >= size) {
			b->used = at + size;
			arena->used += size;
			return b->data + at;
		}
	}
	b = new_block(arena, size);
	at = b->used;
	b->used += size;
	arena->used += size;
	return b->data + at;
}

void *wg_arena_alloc_slow(struct wg_arena *arena, size_t size)
{
	return take(arena, size, ALIGN);
}

void *wg_arena_zalloc(struct wg_arena *arena, size_t size)
{
	void *p = wg_arena_alloc(arena, size);

	memset(p, 0, size);
	return p;
}

char *wg_arena_alloc_str(struct wg_arena *arena, size_t n)
{
	return take(arena, n, 1);
}

char *wg_arena_strndup(struct wg_arena *arena, const char *s, size_t n)
{
	char *p = take(arena, n + 1, 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *wg_arena_strdup(struct wg_arena *arena, const char *s)
{
	return s ? wg_arena_strndup(arena, s, strlen(s)) : NULL;
}

char *wg_arena_printf(struct wg_arena *arena, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	p = wg_arena_alloc(arena, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void wg_arena_take(struct wg_arena *dst, struct wg_arena *src)
{
	struct wg_arena_block *tail = src->head;

	if (!tail)
		return;
	if (!dst->head) {
		dst->head = src->head;
	} else {
		while (tail->next)
			tail = tail->next;
		tail->next = dst->head->next;
		dst->head->next = src->head;
	}
	dst->used += src->used;
	src->head = NULL;
	src->used = 0;
}

void wg_arena_clear(struct wg_arena *arena)
{
	struct wg_arena_block *keep = arena->head;

	if (!keep)
		return;
	arena->head = keep->next;
	wg_arena_release(arena);
	keep->next = NULL;
	keep->used = 0;
	arena->head = keep;
}

void wg_arena_release(struct wg_arena *arena)
{
	struct wg_arena_block *b = arena->head;

	while (b) {
		struct wg_arena_block *next = b->next;

		free(b);
		b = next;
	}
	arena->head = NULL;
	arena->used = 0;
}
