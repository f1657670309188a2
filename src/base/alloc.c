#include "wingen/base/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
	fputs("wingen: error: out of memory\n", stderr);
	exit(1);
}

void *wg_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *wg_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *wg_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

char *wg_xstrndup(const char *s, size_t n)
{
	char *p = wg_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *wg_xstrdup(const char *s)
{
	return wg_xstrndup(s, strlen(s));
}

void wg_xgrow(void **items, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap;

	if (need <= n)
		return;
	if (n < 8)
		n = 8;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			out_of_memory();
		n *= 2;
	}
	*items = wg_xrealloc(*items, n * elem);
	*cap = n;
}
