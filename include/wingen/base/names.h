#ifndef WINGEN_NAMES_H
#define WINGEN_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"

/*
 * A list inside a message: "a, b, c and 7 more".  A message never grows
 * with the stream (a line per problem, each of bounded length): it names the
 * first WG_NAMES_SHOWN items and counts the rest, so a Service selecting
 * 20,000 workloads gets a line as long as one selecting four.  Items past
 * the shown ones cost a count, not a format.
 *
 *	struct wg_names l = WG_NAMES_INIT;
 *	for (...)
 *		if (wg_names_next(&l))
 *			wg_buf_addf(&l.text, "%s %ld", label, pods);
 *	msg = wg_names_end(&l, arena);
 */

#define WG_NAMES_SHOWN 3

struct wg_names {
	struct wg_buf text;	/* the shown items, ", " between them */
	size_t total;		/* items counted, shown or not */
};

#define WG_NAMES_INIT { WG_BUF_INIT, 0 }

/* Counts one item.  True when it is to be named: the caller then appends
 * its text to l->text (the separator is already there). */
bool wg_names_next(struct wg_names *l);

/* Counts n more items that are not named (known only by number). */
void wg_names_skip(struct wg_names *l, size_t n);

/* The list with " and N more" for the items not shown, copied into
 * arena; releases l's buffer.  "" when no item was counted. */
const char *wg_names_end(struct wg_names *l, struct wg_arena *arena);

/*
 * The other way round: one item of a comma-separated list the user wrote
 * ("ltsc2019, ltsc2022"), read in place.  *cursor points into writable
 * text; the item is cut at its comma, blanks trimmed on both sides, and
 * *cursor moves past it (NULL after the last item).  Returns the item, ""
 * for an empty one, its length in *len; NULL once *cursor is NULL.
 *
 *	for (char *rest = text, *item; (item = wg_list_next(&rest, &len));)
 */
char *wg_list_next(char **cursor, size_t *len);

#endif
