#ifndef WINGEN_BUF_H
#define WINGEN_BUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable byte string (git's strbuf).
 *
 * Invariants: buf is never NULL and is always NUL-terminated at buf[len], so
 * it can be passed to C string functions when the content has no NUL.  A
 * buffer initialised with WG_BUF_INIT owns no memory until the first append.
 * Appends never fail (see alloc.h).
 */
struct wg_buf {
	char *buf;
	size_t len;
	size_t cap;	/* 0 while buf points at the shared empty string */
};

extern char wg_buf_empty[];
#define WG_BUF_INIT { wg_buf_empty, 0, 0 }

void wg_buf_init(struct wg_buf *b);
void wg_buf_grow(struct wg_buf *b, size_t extra);
void wg_buf_add(struct wg_buf *b, const void *data, size_t len);
void wg_buf_addstr(struct wg_buf *b, const char *s);
void wg_buf_addch(struct wg_buf *b, int c);
void wg_buf_addf(struct wg_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wg_buf_vaddf(struct wg_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void wg_buf_reset(struct wg_buf *b);		/* len = 0, memory kept */

/* Gives back the capacity past the text (and its NUL): for a buffer kept
 * long after it was filled.  A failed shrink keeps the buffer as it was. */
void wg_buf_shrink(struct wg_buf *b);

/* Hands the string to the caller (free() it) and resets b to empty. */
char *wg_buf_detach(struct wg_buf *b, size_t *len);

void wg_buf_release(struct wg_buf *b);		/* frees; b is WG_BUF_INIT */

#endif
