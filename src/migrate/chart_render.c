#define _GNU_SOURCE	/* memmem */
/*
 * A chart's render: helm template run with the user's arguments, read as
 * a stream, each object given its origin (the template Helm's "# Source:"
 * comment names, and which of that template's objects of its kind it
 * is).  The render is text nobody sees: a message about it is moved to
 * the template line that writes what it points at.
 */
#include <stdlib.h>
#include <string.h>

#include "chart_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/yaml/reader.h"

static const char *kind_of(struct wg_arena *a, const struct wg_resource *res)
{
	return wg_resource_kind(a, res);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Every object read gets its origin; count and nth by (src, kind). */
static void give_origins(struct chart_render *out)
{
	struct wg_arena *a = &out->list.arena;

	out->nread = out->list.len;
	for (size_t i = 0; i < out->list.len; i++) {
		struct wg_resource *res = out->list.items[i];
		struct chart_origin *o = wg_arena_zalloc(a, sizeof(*o));

		o->before = wg_node_clone(a, res->root);
		o->src = wg_source_map_get(&out->sources,
					   wg_node_line(res->root));
		o->kind = kind_of(a, res);
		o->seq = i;
		for (size_t j = 0; j < i; j++) {
			struct chart_origin *p = out->list.items[j]->payload;

			if (same_str(p->src, o->src)
			    && same_str(p->kind, o->kind)) {
				o->nth++;
				p->count++;
			}
		}
		o->count = o->nth + 1;
		res->payload = o;
	}
	/* the counts of the earlier ones were raised as later ones came;
	 * every one of a group must hold the group's size */
	for (size_t i = out->list.len; i-- > 0;) {
		struct chart_origin *o = out->list.items[i]->payload;

		for (size_t j = 0; j < i; j++) {
			struct chart_origin *p = out->list.items[j]->payload;

			if (same_str(p->src, o->src)
			    && same_str(p->kind, o->kind))
				p->count = o->count;
		}
	}
}

int chart_render(struct chart_run *r, const char *first_values,
		 const char *last_values, struct chart_render *out)
{
	struct wg_buf text = WG_BUF_INIT;
	int rc;

	rc = wg_helm_template(r->ctx, r->o->helm,
			      r->render_dir ? r->render_dir : r->dir,
			      first_values, r->o->helm_args, r->o->nhelm_args,
			      last_values, &text);
	if (rc) {
		memset(out, 0, sizeof(*out));
		wg_resources_init(&out->list);
		wg_buf_release(&text);
		return -1;
	}
	rc = chart_read(r, text.buf, text.len, out);
	wg_buf_release(&text);
	return rc;
}

int chart_read(struct chart_run *r, const char *text, size_t len,
	       struct chart_render *out)
{
	size_t before;

	memset(out, 0, sizeof(*out));
	wg_resources_init(&out->list);
	out->in.name = wg_xstrdup(r->dir);
	out->in.data = wg_xstrndup(text, len);
	out->in.len = len;
	wg_source_map_build(&out->sources, out->in.data, out->in.len);
	before = r->ctx->log.ndiags;
	if (wg_read_stream(r->ctx, &out->in, &out->list)) {
		chart_reposition(r, out, before);
		return -1;
	}
	give_origins(out);
	return 0;
}

void chart_render_release(struct chart_render *rd)
{
	wg_source_map_release(&rd->sources);
	wg_resources_release(&rd->list);
	wg_input_release(&rd->in);
}

const struct wg_resource *chart_copied_from(const struct chart_render *rd,
					    const struct wg_resource *res)
{
	if (res->payload || (res->flags & WG_RES_GENERATED) || !res->file)
		return NULL;
	for (size_t i = 0; i < rd->list.len; i++) {
		const struct wg_resource *o = rd->list.items[i];

		if (o->payload && o->index == res->index
		    && same_str(o->file, res->file))
			return o;
	}
	return NULL;
}

struct wg_resource *chart_same_object(const struct chart_render *rd,
				      const struct chart_origin *o)
{
	for (size_t i = 0; i < rd->list.len; i++) {
		const struct chart_origin *p = rd->list.items[i]->payload;

		if (p && same_str(p->src, o->src) && same_str(p->kind, o->kind)
		    && p->nth == o->nth)
			return rd->list.items[i];
	}
	return NULL;
}

int chart_load(struct chart_run *r)
{
	struct wg_values_arg vals[64];
	size_t nv;

	if (r->loaded)
		return 0;
	nv = wg_chart_values_args(r->o->helm_args, r->o->nhelm_args, vals,
				  64);
	if (wg_chart_load(r->ctx, &r->c, r->dir, vals, nv)) {
		wg_chart_release(&r->c);
		return -1;
	}
	r->loaded = true;
	return 0;
}

const char *chart_where(struct chart_run *r, const struct wg_chart_tpl *t,
			const char *src)
{
	const char *rel = t ? (t->path ? t->path : t->rel) : src;

	return rel ? wg_arena_printf(&r->arena, "%s/%s", r->dir, rel)
		   : r->dir;
}

const struct wg_chart_tpl *chart_tpl_part(struct chart_run *r,
					  const struct chart_origin *o,
					  const char **b, const char **e)
{
	const struct wg_chart_tpl *t = o && r->loaded
				       ? wg_chart_tpl_find(&r->c, o->src)
				       : NULL;

	*b = *e = NULL;
	if (t)
		wg_chart_tpl_part(t, o->kind, o->nth, o->count, b, e);
	return t;
}

/* ---- template lines ----------------------------------------------------- */

/* [*s, *z) of a line's text: indentation, a "- " and trailing blanks
 * (and a CR) left out. */
static void trim(const char *l, const char *le, const char **s,
		 const char **z)
{
	while (l < le && (*l == ' ' || *l == '\t'))
		l++;
	while (le > l && (le[-1] == ' ' || le[-1] == '\t' || le[-1] == '\r'))
		le--;
	*s = l;
	*z = le;
}

/* The key a line writes ("key:" or "- key:"), as [*k, k + *kl); false
 * when it writes none. */
static bool line_key(const char *s, const char *z, const char **k,
		     size_t *kl)
{
	const char *p;

	if (z - s >= 2 && s[0] == '-' && s[1] == ' ')
		for (s += 2; s < z && *s == ' '; s++)
			;
	for (p = s; p < z && *p != ':' && *p != ' ' && *p != '{'; p++)
		;
	if (p == s || p >= z || *p != ':' || (p + 1 < z && p[1] != ' '))
		return false;
	*k = s;
	*kl = (size_t)(p - s);
	return true;
}

/* The 1-based line of text at p. */
static uint32_t line_at(const char *text, const char *p)
{
	uint32_t n = 1;

	for (const char *q = text; q < p; q++)
		n += *q == '\n';
	return n;
}

#define MAX_SPANS 32

struct found {
	const struct wg_chart_tpl *t;
	const char *at;		/* the line's start */
	const char *text;	/* its text's first byte */
};

/*
 * Among the object's spans, the want-th line (0-based) for which match
 * holds, else the first such; false when none.
 */
static bool find_line(struct chart_run *r, const struct chart_origin *o,
		      bool (*match)(const char *s, const char *z,
				    const void *arg),
		      const void *arg, size_t want, struct found *f)
{
	struct wg_chart_span spans[MAX_SPANS];
	const char *b, *e;
	const struct wg_chart_tpl *t = chart_tpl_part(r, o, &b, &e);
	size_t n, seen = 0;
	bool any = false;

	if (!t)
		return false;
	n = wg_chart_spans(&r->c, t, b, e, spans, MAX_SPANS);
	for (size_t i = 0; i < n; i++) {
		for (const char *l = spans[i].b; l < spans[i].e;) {
			const char *nl = memchr(l, '\n',
						(size_t)(spans[i].e - l));
			const char *le = nl ? nl : spans[i].e, *s, *z;

			trim(l, le, &s, &z);
			if (s < z && match(s, z, arg)) {
				if (!any || seen == want) {
					f->t = spans[i].t;
					f->at = l;
					f->text = s;
					any = true;
				}
				if (seen++ == want)
					return true;
			}
			l = nl ? nl + 1 : spans[i].e;
		}
	}
	return any;
}

struct text_arg {
	const char *s;
	size_t len;
};

static bool same_text(const char *s, const char *z, const void *arg)
{
	const struct text_arg *a = arg;

	return (size_t)(z - s) == a->len && memcmp(s, a->s, a->len) == 0;
}

static bool same_key(const char *s, const char *z, const void *arg)
{
	const struct text_arg *a = arg;
	const char *k;
	size_t kl;

	return line_key(s, z, &k, &kl) && kl == a->len
	       && memcmp(k, a->s, kl) == 0;
}

static void set_found(const struct found *f, const struct wg_chart_tpl **t,
		      uint32_t *line, uint32_t *col)
{
	const char *ls = f->at;

	*t = f->t;
	*line = line_at(f->t->text, f->at);
	if (col)
		*col = (uint32_t)(f->text - ls) + 1;
}

void chart_locate(struct chart_run *r, const struct chart_origin *o,
		  const char *text, size_t len, size_t occurrence,
		  const struct wg_chart_tpl **t, uint32_t *line,
		  uint32_t *col)
{
	struct text_arg a;
	struct found f;
	const char *s, *z, *b, *e;

	*t = NULL;
	*line = 0;
	if (col)
		*col = 0;
	trim(text, text + len, &s, &z);
	a = (struct text_arg){ s, (size_t)(z - s) };
	if (a.len && find_line(r, o, same_text, &a, occurrence, &f)) {
		set_found(&f, t, line, col);
		return;
	}
	if (line_key(s, z, &a.s, &a.len)
	    && find_line(r, o, same_key, &a, 0, &f)) {
		set_found(&f, t, line, col);
		return;
	}
	*t = chart_tpl_part(r, o, &b, &e);
	if (*t) {
		*line = line_at((*t)->text, b);
		if (col)
			*col = 1;
	}
}

uint32_t chart_key_line(struct chart_run *r, const struct chart_origin *o,
			const char *key, const struct wg_chart_tpl **t)
{
	struct text_arg a = { key, strlen(key) };
	struct found f;
	uint32_t line;

	*t = NULL;
	if (!find_line(r, o, same_key, &a, 0, &f))
		return 0;
	set_found(&f, t, &line, NULL);
	return line;
}

uint32_t chart_path_line(struct chart_run *r, const struct chart_origin *o,
			 const char *path, const struct wg_chart_tpl **t)
{
	const char *end = path + strlen(path);

	*t = NULL;
	/* from the last segment up: "a.b[0].[k/x]" tries k/x, b, a */
	while (end > path) {
		const char *s = end, *k, *ke;
		uint32_t line;

		if (end[-1] == ']') {
			while (s > path && s[-1] != '[')
				s--;
			k = s;
			ke = end - 1;
			s = s > path ? s - 1 : s;
			if (s > path && s[-1] == '.')
				s--;
			if (ke > k && (*k < '0' || *k > '9')
			    && (line = chart_key_line(r, o, wg_arena_strndup(
				&r->arena, k, (size_t)(ke - k)), t)))
				return line;
			end = s;
			continue;
		}
		while (s > path && s[-1] != '.' && s[-1] != ']')
			s--;
		if (end > s && (line = chart_key_line(r, o, wg_arena_strndup(
				&r->arena, s, (size_t)(end - s)), t)))
			return line;
		end = s > path && s[-1] == '.' ? s - 1 : s;
	}
	return 0;
}

static bool holds(const char *s, const char *z, const void *arg)
{
	const struct text_arg *a = arg;

	return memmem(s, (size_t)(z - s), a->s, a->len) != NULL;
}

uint32_t chart_text_line(struct chart_run *r, const struct chart_origin *o,
			 const char *needle, const struct wg_chart_tpl **t)
{
	struct text_arg a = { needle, strlen(needle) };
	struct found f;
	uint32_t line;

	*t = NULL;
	if (!find_line(r, o, holds, &a, 0, &f))
		return 0;
	set_found(&f, t, &line, NULL);
	return line;
}

/* ---- messages about the render ------------------------------------------ */

/* The object of rd whose document holds 1-based line, or NULL. */
static const struct wg_resource *object_at(const struct chart_render *rd,
					   uint32_t line)
{
	const struct wg_resource *best = NULL;

	for (size_t i = 0; i < rd->list.len; i++) {
		const struct wg_resource *res = rd->list.items[i];

		if (res->payload && wg_node_line(res->root) + 1 <= line
		    && (!best || wg_node_line(res->root)
				 > wg_node_line(best->root)))
			best = res;
	}
	return best;
}

/* The object read as document index of rd, or NULL. */
static const struct wg_resource *object_by_index(const struct chart_render *rd,
						 unsigned index)
{
	for (size_t i = 0; i < rd->list.len; i++)
		if (rd->list.items[i]->payload
		    && rd->list.items[i]->index == index)
			return rd->list.items[i];
	return NULL;
}

/* The start of every line of a text, and where the text ends. */
struct lines {
	size_t *at;
	size_t n;
	const char *text;
	size_t len;
};

static void lines_index(struct lines *ls, const char *text, size_t len)
{
	size_t cap = 0;

	memset(ls, 0, sizeof(*ls));
	ls->text = text;
	ls->len = len;
	for (size_t i = 0; i <= len;) {
		const char *nl = i < len ? memchr(text + i, '\n', len - i)
					 : NULL;

		WG_GROW(ls->at, cap, ls->n + 1);
		ls->at[ls->n++] = i;
		if (!nl)
			break;
		i = (size_t)(nl - text) + 1;
	}
}

/* [*l, *le) of 1-based line n; false past the end. */
static bool nth_line(const struct lines *ls, uint32_t n, const char **l,
		     const char **le)
{
	const char *nl;

	if (n < 1 || n > ls->n)
		return false;
	*l = ls->text + ls->at[n - 1];
	nl = memchr(*l, '\n', (size_t)(ls->text + ls->len - *l));
	*le = nl ? nl : ls->text + ls->len;
	return true;
}

/* How often the text of line n occurred in [from, n) of the render. */
static size_t occurrences(const struct lines *ls, uint32_t from, uint32_t n)
{
	const char *l, *le, *s, *z, *ol, *ole, *os, *oz;
	size_t k = 0;

	if (!nth_line(ls, n, &l, &le))
		return 0;
	trim(l, le, &s, &z);
	for (uint32_t i = from; i < n; i++) {
		if (!nth_line(ls, i, &ol, &ole))
			break;
		trim(ol, ole, &os, &oz);
		k += oz - os == z - s && memcmp(os, s, (size_t)(z - s)) == 0;
	}
	return k;
}

void chart_reposition(struct chart_run *r, const struct chart_render *rd,
		      size_t from)
{
	struct wg_log *log = &r->ctx->log;
	struct lines ls;
	bool any = false;

	for (size_t i = from; i < log->ndiags; i++)
		any |= log->diags[i].file
		       && strcmp(log->diags[i].file, rd->in.name) == 0;
	if (!any || chart_load(r))
		return;
	lines_index(&ls, rd->in.data, rd->in.len);
	for (size_t i = from; i < log->ndiags; i++) {
		struct wg_diag *d = &log->diags[i];
		const struct wg_resource *res;
		struct chart_origin none = { 0 };
		const struct chart_origin *o;
		const struct wg_chart_tpl *t;
		const char *l, *le;
		uint32_t line = 0, col = 0, start;

		if (!d->file || strcmp(d->file, rd->in.name) != 0)
			continue;
		res = d->ref.kind ? object_by_index(rd, d->ref.index) : NULL;
		if (!res)
			res = object_at(rd, d->line);
		o = res ? chart_origin_of(res) : NULL;
		if (!o) {
			/* not an object read (a parse error): the template
			 * its Source comment names */
			none.src = wg_source_map_get(&rd->sources,
						     d->line ? d->line - 1 : 0);
			o = &none;
		}
		start = res ? wg_node_line(res->root) + 1 : 1;
		if (d->line && nth_line(&ls, d->line, &l, &le))
			chart_locate(r, o, l, (size_t)(le - l),
				     occurrences(&ls, start, d->line),
				     &t, &line, &col);
		else
			chart_locate(r, o, "", 0, 0, &t, &line, &col);
		d->file = wg_arena_strdup(&log->arena,
					  chart_where(r, t, o->src));
		d->line = line;
		d->col = col;
		if (d->ref.file && strcmp(d->ref.file, rd->in.name) == 0)
			d->ref.file = d->file;
	}
	free(ls.at);
}
