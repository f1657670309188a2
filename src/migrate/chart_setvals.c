/*
 * Helm's --set and --set-string values, read the way Helm reads them
 * (helm pkg/strvals): "a.b=c,d[0].e=f,g={x,y}", a backslash taking the
 * next character as is ("nodeSelector.kubernetes\.io/os=windows").  For
 * --set a value is typed as Helm types it: true/false (any case) a
 * bool, null (any case) a null, an integer not starting with "0" (or "0")
 * an integer, anything else a string; --set-string keeps every value a
 * string.  Chart migration needs them only to know what a values key
 * holds now; the second render (chart_migrate.c) proves what it made of
 * them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wingen/migrate/chart.h"

/* Helm refuses list indexes above this (strvals' MaxIndex). */
#define MAX_INDEX 65536

struct sp {
	struct wg_arena *a;
	const char *p, *end;
	bool strings;
	const char *why;
};

/* Text up to one of stops (not escaped), unescaped, in arena; *stop is
 * the character found ('\0' at the end). */
static char *until(struct sp *s, const char *stops, char *stop)
{
	char *out = wg_arena_alloc(s->a, (size_t)(s->end - s->p) + 1);
	size_t n = 0;

	*stop = '\0';
	while (s->p < s->end) {
		char ch = *s->p++;

		if (ch == '\\' && s->p < s->end) {
			out[n++] = *s->p++;
			continue;
		}
		if (strchr(stops, ch)) {
			*stop = ch;
			break;
		}
		out[n++] = ch;
	}
	out[n] = '\0';
	return out;
}

/* A scalar as Helm's --set types it (or a string, for --set-string). */
static struct wg_node *typed(struct sp *s, const char *v)
{
	bool integer = *v && (v[0] != '0' || !v[1]);
	const char *q = v;

	if (s->strings)
		return wg_node_new_scalar(s->a, v, strlen(v), WG_STYLE_DOUBLE);
	if (strcasecmp(v, "true") == 0)
		return wg_node_new_plain(s->a, "true");
	if (strcasecmp(v, "false") == 0)
		return wg_node_new_plain(s->a, "false");
	if (strcasecmp(v, "null") == 0)
		return wg_node_new_plain(s->a, "null");
	if (*q == '-' || *q == '+')
		q++;
	integer = integer && *q;
	for (; integer && *q; q++)
		integer = *q >= '0' && *q <= '9';
	if (integer)
		return wg_node_new_plain(s->a, v);
	return wg_node_new_scalar(s->a, v, strlen(v), WG_STYLE_DOUBLE);
}

/* After "=": a "{a,b}" list or one value, up to the next ",". */
static struct wg_node *value(struct sp *s)
{
	char stop;

	if (s->p < s->end && *s->p == '{') {
		struct wg_node *l = wg_node_new_seq(s->a);

		s->p++;
		do {
			char *v = until(s, ",}", &stop);

			if (*v || stop == ',')
				wg_seq_append(s->a, l, typed(s, v));
		} while (stop == ',');
		if (stop != '}') {
			s->why = "a list value '{...' has no closing '}'";
			return NULL;
		}
		if (s->p < s->end && *s->p != ',') {
			s->why = "text after a list value's '}'";
			return NULL;
		}
		if (s->p < s->end)
			s->p++;
		return l;
	}
	return typed(s, until(s, ",", &stop));
}

static int set_in_map(struct sp *s, struct wg_node *m);

/* "[N]" read (after "name["): the index. */
static long index_of(struct sp *s)
{
	char stop, *v = until(s, "]", &stop), *e;
	long i = strtol(v, &e, 10);

	if (stop != ']' || !*v || *e || i < 0 || i > MAX_INDEX) {
		s->why = "a list index is not a number in 0..65536 followed by "
			 "']'";
		return -1;
	}
	return i;
}

/* Item i of list l, made (nulls before it) as needed. */
static struct wg_node **slot(struct sp *s, struct wg_node *l, long i)
{
	while ((long)l->len <= i)
		wg_seq_append(s->a, l, wg_node_new_plain(s->a, "null"));
	return &l->u.items[i];
}

/* After "name[N": what follows the index, into item N of list l. */
static int set_in_list(struct sp *s, struct wg_node *l)
{
	long i = index_of(s);
	struct wg_node **it;
	char next;

	if (i < 0)
		return -1;
	it = slot(s, l, i);
	next = s->p < s->end ? *s->p++ : '\0';
	switch (next) {
	case '=':
		*it = value(s);
		return *it ? 0 : -1;
	case '[':
		if (!wg_is_seq(*it))
			*it = wg_node_new_seq(s->a);
		return set_in_list(s, *it);
	case '.':
		if (!wg_is_map(*it))
			*it = wg_node_new_map(s->a);
		return set_in_map(s, *it);
	default:
		s->why = "a list index is followed by neither '=', '.' nor '['";
		return -1;
	}
}

/* One "key...=value" into mapping m. */
static int set_in_map(struct sp *s, struct wg_node *m)
{
	char stop, *key = until(s, "=.[,", &stop);
	struct wg_node *have, *v;

	if (!*key) {
		s->why = "an empty key";
		return -1;
	}
	have = wg_map_get(m, key);
	switch (stop) {
	case '=':
		v = value(s);
		if (!v)
			return -1;
		wg_map_set(s->a, m, key, v);
		return 0;
	case '.':
		if (!wg_is_map(have))
			have = wg_map_set(s->a, m, key, wg_node_new_map(s->a));
		return set_in_map(s, have);
	case '[':
		if (!wg_is_seq(have))
			have = wg_map_set(s->a, m, key, wg_node_new_seq(s->a));
		return set_in_list(s, have);
	default:
		s->why = "a key has no value ('=' missing)";
		return -1;
	}
}

int wg_chart_set_values(struct wg_arena *arena, struct wg_node *values,
			const char *arg, bool strings, const char **why)
{
	struct sp s = { arena, arg, arg + strlen(arg), strings, NULL };

	*why = NULL;
	while (s.p < s.end)
		if (set_in_map(&s, values)) {
			*why = s.why;
			return -1;
		}
	return 0;
}
