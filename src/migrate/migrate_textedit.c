/*
 * Text edits for migrate: replacements of byte ranges of the original
 * text, applied in one pass.
 */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

void wg_edits_add(struct wg_edits *e, size_t start, size_t end,
		  const char *text, size_t len)
{
	struct wg_edit *x;

	if (start == end && len == 0)
		return;
	WG_GROW(e->items, e->cap, e->len + 1);
	x = &e->items[e->len];
	x->start = start;
	x->end = end;
	x->text = len ? wg_xstrndup(text, len) : NULL;
	x->len = len;
	x->seq = e->len;
	e->len++;
}

/* By start; at one offset insertions (in order added) before the rest. */
static int cmp_edit(const void *pa, const void *pb)
{
	const struct wg_edit *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int wg_edits_apply(struct wg_edits *e, const char *data, size_t len,
		   struct wg_buf *out)
{
	size_t mark = out->len, pos = 0;
	bool deleting = false;	/* what ends at pos is a pure deletion */

	wg_sort(e->items, e->len, sizeof(*e->items), cmp_edit);
	for (size_t i = 0; i < e->len; i++) {
		const struct wg_edit *x = &e->items[i];

		if (x->end > len || x->start > x->end)
			goto overlap;
		if (x->start < pos) {
			/* Only a deletion may reach into another one. */
			if (x->len || !deleting)
				goto overlap;
			if (x->end > pos)
				pos = x->end;
			continue;
		}
		wg_buf_add(out, data + pos, x->start - pos);
		if (x->len)
			wg_buf_add(out, x->text, x->len);
		if (x->end > x->start)
			deleting = x->len == 0;
		pos = x->end;
	}
	wg_buf_add(out, data + pos, len - pos);
	return 0;
overlap:
	out->len = mark;
	out->buf[mark] = '\0';
	return -1;
}

void wg_edits_release(struct wg_edits *e)
{
	for (size_t i = 0; i < e->len; i++)
		free(e->items[i].text);
	free(e->items);
	memset(e, 0, sizeof(*e));
}
