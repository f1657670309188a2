#include "wingen/base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

char wg_buf_empty[1];

void wg_buf_init(struct wg_buf *b)
{
	b->buf = wg_buf_empty;
	b->len = 0;
	b->cap = 0;
}

void wg_buf_grow(struct wg_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	size_t cap = b->cap;

	if (need <= cap)
		return;
	if (!cap) {
		b->buf = NULL;
		cap = 64;
	}
	while (cap < need)
		cap *= 2;
	b->buf = wg_xrealloc(b->buf, cap);
	if (!b->cap)
		b->buf[0] = '\0';
	b->cap = cap;
}

void wg_buf_add(struct wg_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	wg_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void wg_buf_addstr(struct wg_buf *b, const char *s)
{
	wg_buf_add(b, s, strlen(s));
}

void wg_buf_addch(struct wg_buf *b, int c)
{
	wg_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

void wg_buf_vaddf(struct wg_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->buf + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if (!b->cap || (size_t)n >= b->cap - b->len) {
		wg_buf_grow(b, (size_t)n);
		n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void wg_buf_addf(struct wg_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wg_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void wg_buf_reset(struct wg_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->buf[0] = '\0';
}

void wg_buf_shrink(struct wg_buf *b)
{
	char *p;

	if (!b->cap || b->cap <= b->len + 1)
		return;
	p = realloc(b->buf, b->len + 1);
	if (p) {
		b->buf = p;
		b->cap = b->len + 1;
	}
}

char *wg_buf_detach(struct wg_buf *b, size_t *len)
{
	char *s = b->cap ? b->buf : wg_xstrdup("");

	if (len)
		*len = b->len;
	wg_buf_init(b);
	return s;
}

void wg_buf_release(struct wg_buf *b)
{
	if (b->cap)
		free(b->buf);
	wg_buf_init(b);
}
