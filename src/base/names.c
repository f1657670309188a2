/* Bounded lists for messages (names.h). */
#include "wingen/base/names.h"

#include <string.h>

bool wg_names_next(struct wg_names *l)
{
	if (l->total++ >= WG_NAMES_SHOWN)
		return false;
	if (l->total > 1)
		wg_buf_add(&l->text, ", ", 2);
	return true;
}

void wg_names_skip(struct wg_names *l, size_t n)
{
	l->total += n;
}

const char *wg_names_end(struct wg_names *l, struct wg_arena *arena)
{
	const char *out;

	if (l->total > WG_NAMES_SHOWN)
		wg_buf_addf(&l->text, " and %zu more",
			    l->total - WG_NAMES_SHOWN);
	out = wg_arena_strdup(arena, l->text.buf);
	wg_buf_release(&l->text);
	l->total = 0;
	return out;
}

char *wg_list_next(char **cursor, size_t *len)
{
	char *item = *cursor, *next;
	size_t n;

	if (!item)
		return NULL;
	next = strchr(item, ',');
	if (next)
		*next++ = '\0';
	*cursor = next;
	item += strspn(item, " ");
	n = strlen(item);
	while (n && item[n - 1] == ' ')
		item[--n] = '\0';
	*len = n;
	return item;
}
