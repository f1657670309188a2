/* Bounded lists for messages (names.h). */
#include "wingen/base/names.h"

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
