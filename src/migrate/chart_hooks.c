/*
 * Values hooks: which values key a template reads for a pod-spec field.
 * Read statically from the template text and the named templates it
 * includes, not by evaluating Go templates: the read only proposes a key,
 * and the second render (chart_migrate.c) proves it or the run fails.
 * The forms met in published charts all spell the key out:
 *   {{- with .Values.nodeSelector }}            scaffold
 *   {{- toYaml .Values.agents.tolerations | nindent 8 }}
 *   .Values.server.nodeSelector | default .Values.global.nodeSelector
 *   merge $nodeSelector (.Values.webhook.nodeSelector | default dict)
 *   {{- include "grafana.pod" . }} -> a define using .Values.nodeSelector
 */
#include <string.h>

#include "wingen/migrate/chart.h"

#define MAX_VISITED 64

struct scan {
	const struct wg_chart *c;
	const char *field;
	const char *prefix;
	struct wg_arena *arena;
	const char **out;
	size_t n, cap;
	const char *visited[MAX_VISITED];
	size_t nvisited;
};

static bool ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
	       || (ch >= '0' && ch <= '9') || ch == '_';
}

static void add_key(struct scan *s, const char *key, size_t len)
{
	const char *k;
	bool global = len > 7 && memcmp(key, "global.", 7) == 0;

	k = wg_arena_printf(s->arena, "%s%.*s", global ? "" : s->prefix,
			    (int)len, key);
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->out[i], k) == 0)
			return;
	if (s->n < s->cap)
		s->out[s->n++] = k;
}

static void scan_text(struct scan *s, const char *text, size_t len,
		      unsigned depth);

/* The define whose quoted name follows q (after include/template and
 * blanks), or NULL. */
static const struct wg_chart_define *define_named(const struct wg_chart *c,
						  const char *q,
						  const char *end)
{
	const char *name, *name_end;
	size_t n;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= end || *q != '"')
		return NULL;
	name = q + 1;
	name_end = memchr(name, '"', (size_t)(end - name));
	if (!name_end)
		return NULL;
	n = (size_t)(name_end - name);
	for (size_t i = 0; i < c->ndefines; i++)
		if (strlen(c->defines[i].name) == n
		    && memcmp(c->defines[i].name, name, n) == 0)
			return &c->defines[i];
	return NULL;
}

/* Whether p starts an "include " or "template " call (not the tail of a
 * longer word); *args is where its arguments begin. */
static bool call_at(const char *text, const char *p, const char *end,
		    const char **args)
{
	if (p > text && ident(p[-1]))
		return false;
	if (*p == 'i' && (size_t)(end - p) > 8 && memcmp(p, "include ", 8) == 0)
		*args = p + 8;
	else if (*p == 't' && (size_t)(end - p) > 9
		 && memcmp(p, "template ", 9) == 0)
		*args = p + 9;
	else
		return false;
	return true;
}

/* The define named after q, scanned (once per run). */
static void follow(struct scan *s, const char *q, const char *end,
		   unsigned depth)
{
	const struct wg_chart_define *d = define_named(s->c, q, end);

	if (!d)
		return;
	for (size_t i = 0; i < s->nvisited; i++)
		if (s->visited[i] == d->name)
			return;
	if (s->nvisited == MAX_VISITED)
		return;
	s->visited[s->nvisited++] = d->name;
	scan_text(s, d->body, d->len, depth + 1);
}

size_t wg_chart_spans(const struct wg_chart *c, const struct wg_chart_tpl *t,
		      const char *b, const char *e,
		      struct wg_chart_span *out, size_t cap)
{
	size_t n = 0;

	if (!cap)
		return 0;
	out[n++] = (struct wg_chart_span){ t, b, e };
	for (size_t i = 0; i < n; i++)
		for (const char *p = out[i].b, *args; p < out[i].e; p++) {
			const struct wg_chart_define *d;
			bool seen = false;

			if (!call_at(out[i].b, p, out[i].e, &args)
			    || !(d = define_named(c, args, out[i].e))
			    || d->tpl >= c->ntpls)
				continue;
			for (size_t j = 1; j < n && !seen; j++)
				seen = out[j].b == d->body;
			if (!seen && n < cap)
				out[n++] = (struct wg_chart_span){
					&c->tpls[d->tpl], d->body,
					d->body + d->len };
		}
	return n;
}

static void scan_text(struct scan *s, const char *text, size_t len,
		      unsigned depth)
{
	static const char values[] = ".Values.";
	const char *end = text + len, *args;
	size_t flen = strlen(s->field);

	if (depth > 16)
		return;
	for (const char *p = text; p < end; p++) {
		if (*p == '.' && (size_t)(end - p) > sizeof(values) - 1
		    && memcmp(p, values, sizeof(values) - 1) == 0) {
			const char *k = p + sizeof(values) - 1, *q = k;
			const char *last = k;

			while (q < end && (ident(*q) || *q == '-'
					   || (*q == '.' && q + 1 < end
					       && ident(q[1])))) {
				if (*q == '.')
					last = q + 1;
				q++;
			}
			if ((size_t)(q - last) == flen
			    && memcmp(last, s->field, flen) == 0)
				add_key(s, k, (size_t)(q - k));
			p = q - 1;
		} else if (call_at(text, p, end, &args)) {
			follow(s, args, end, depth);
		}
	}
}

/* Whether a line starting at p (to end) is a "---" separator. */
static bool separator(const char *p, const char *end)
{
	return end - p >= 3 && memcmp(p, "---", 3) == 0
	       && (end - p == 3 || p[3] == '\n' || p[3] == '\r'
		   || p[3] == ' ');
}

/* Whether [p, end) holds a line "kind: KIND" (an object of that kind). */
static bool has_kind(const char *p, const char *end, const char *kind)
{
	size_t kl = strlen(kind);

	for (const char *l = p; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *q = l, *e = nl ? nl : end;

		while (q < e && *q == ' ')
			q++;
		if (e - q > 5 && memcmp(q, "kind:", 5) == 0) {
			q += 5;
			while (q < e && *q == ' ')
				q++;
			while (e > q && (e[-1] == '\r' || e[-1] == ' '))
				e--;
			if ((size_t)(e - q) == kl && memcmp(q, kind, kl) == 0)
				return true;
		}
		l = nl ? nl + 1 : end;
	}
	return false;
}

/* Segment want of t among those holding a kind: [*b, *e); returns how
 * many there are. */
static size_t segments(const struct wg_chart_tpl *t, const char *kind,
		       size_t want, const char **b, const char **e)
{
	const char *end = t->text + t->len, *start = t->text;
	size_t n = 0;

	for (const char *l = t->text;; ) {
		const char *nl = l < end ? memchr(l, '\n', (size_t)(end - l))
					 : NULL;

		if (l >= end || separator(l, end)) {
			if (has_kind(start, l, kind)) {
				if (n == want && b) {
					*b = start;
					*e = l;
				}
				n++;
			}
			if (l >= end)
				break;
			start = nl ? nl + 1 : end;
		}
		l = nl ? nl + 1 : end;
	}
	return n;
}

size_t wg_chart_tpl_segments(const struct wg_chart_tpl *t, const char *kind)
{
	return segments(t, kind, SIZE_MAX, NULL, NULL);
}

void wg_chart_tpl_part(const struct wg_chart_tpl *t, const char *kind,
		       size_t nth, size_t count, const char **b,
		       const char **e)
{
	*b = t->text;
	*e = t->text + t->len;
	if (kind && segments(t, kind, SIZE_MAX, NULL, NULL) == count)
		segments(t, kind, nth, b, e);
}

size_t wg_chart_hook_keys(const struct wg_chart *c,
			  const struct wg_chart_tpl *t, const char *kind,
			  size_t nth, size_t count, const char *field,
			  struct wg_arena *arena, const char **out,
			  size_t cap)
{
	struct scan s;
	const char *b = t->text, *e = t->text + t->len;

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.field = field;
	s.prefix = t->values_prefix;
	s.arena = arena;
	s.out = out;
	s.cap = cap;
	/* a file of several objects: the part that wrote this one, when
	 * its parts and the render agree on how many of the kind there are
	 * (a range loop makes more objects than parts: the whole file) */
	if (kind && segments(t, kind, SIZE_MAX, NULL, NULL) == count)
		segments(t, kind, nth, &b, &e);
	scan_text(&s, b, (size_t)(e - b), 0);
	return s.n;
}

const struct wg_node *wg_chart_value(const struct wg_chart *c,
				     const char *key)
{
	const struct wg_node *n = c->values;

	while (n && *key) {
		const char *dot = strchr(key, '.');
		size_t len = dot ? (size_t)(dot - key) : strlen(key);
		long i = wg_map_findn(n, key, len);

		n = i < 0 ? NULL : wg_map_value(n, (size_t)i);
		key += len + (dot != NULL);
	}
	return n;
}

static bool set(const struct wg_node *v)
{
	return v && !wg_node_is_null(v)
	       && (wg_is_scalar(v) ? v->len > 0 : v->len > 0);
}

const char *wg_chart_hook_pick(const struct wg_chart *c, const char **keys,
			       size_t nkeys, const struct wg_node *rendered)
{
	const char *first_comp = NULL;

	for (size_t i = 0; i < nkeys; i++) {
		bool global = strncmp(keys[i], "global.", 7) == 0;

		if (!global && set(wg_chart_value(c, keys[i])))
			return keys[i];
		if (!global && !first_comp)
			first_comp = keys[i];
	}
	for (size_t i = 0; rendered && i < nkeys; i++) {
		const struct wg_node *v = wg_chart_value(c, keys[i]);

		if (strncmp(keys[i], "global.", 7) == 0 && set(v)
		    && wg_node_equal(v, rendered))
			return keys[i];
	}
	return first_comp ? first_comp : nkeys ? keys[0] : NULL;
}
