/*
 * The chart on disk, as chart migration reads it: template files (text:
 * they are Go templates, not YAML), the named templates they define,
 * and the values a render starts from.  And the render's "# Source:"
 * comments, which say which template file each object came from.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wingen/base/alloc.h"
#include "wingen/base/input.h"
#include "wingen/migrate/chart.h"
#include "wingen/yaml/reader.h"

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a);
	char *s = wg_xmalloc(n + strlen(b) + 2);

	strcpy(s, a);
	if (n && a[n - 1] != '/')
		strcat(s, "/");
	strcat(s, b);
	return s;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool wg_chart_is_dir(const char *path)
{
	struct stat st;
	char *p;
	bool yes;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	p = join(path, "Chart.yaml");
	yes = is_file(p);
	free(p);
	return yes;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below dir (relative to base), sorted, hidden ones
 * left out. */
static void walk(const char *dir, struct wg_pathlist *out, unsigned depth)
{
	struct wg_pathlist names = { 0 };
	DIR *d = depth < 32 ? opendir(dir) : NULL;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			wg_pathlist_add(&names, e->d_name);
	closedir(d);
	wg_sort(names.items, names.len, sizeof(*names.items), cmp_str);
	for (size_t i = 0; i < names.len; i++) {
		char *p = join(dir, names.items[i]);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			walk(p, out, depth + 1);
		else if (S_ISREG(st.st_mode))
			wg_pathlist_add(out, p);
		free(p);
	}
	wg_pathlist_release(&names);
}


/* ---- named templates --------------------------------------------------- */

/* The action starting at p ("{{"): its words after "{{-" and spaces, and
 * where it ends (past "}}"). */
static const char *action(const char *p, const char *end, const char **words,
			  const char **close)
{
	const char *q = p + 2;

	if (q < end && *q == '-')
		q++;
	while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
		q++;
	*words = q;
	for (const char *r = q; r + 1 < end; r++)
		if (r[0] == '}' && r[1] == '}') {
			*close = r + 2;
			return *words;
		}
	*close = end;
	return *words;
}

static bool word_is(const char *w, const char *end, const char *kw)
{
	size_t n = strlen(kw);

	return (size_t)(end - w) > n && memcmp(w, kw, n) == 0
	       && (w[n] == ' ' || w[n] == '\t' || w[n] == '-'
		   || w[n] == '}' || w[n] == '\n');
}

/* Records every {{ define "name" }} ... {{ end }} of text. */
static void scan_defines(struct wg_chart *c, const char *text, size_t len,
			 size_t *cap)
{
	const char *end = text + len, *p = text;

	while ((p = strstr(p, "{{")) && p < end) {
		const char *w, *close, *q, *name, *name_end;
		int depth = 1;

		action(p, end, &w, &close);
		if (!word_is(w, end, "define")) {
			p = close;
			continue;
		}
		name = strchr(w, '"');
		if (!name || name >= close) {
			p = close;
			continue;
		}
		name++;
		name_end = strchr(name, '"');
		if (!name_end || name_end >= close) {
			p = close;
			continue;
		}
		/* the body runs to the matching end */
		for (q = close; depth && (q = strstr(q, "{{")) && q < end;) {
			const char *w2, *c2;

			action(q, end, &w2, &c2);
			if (word_is(w2, end, "if") || word_is(w2, end, "with")
			    || word_is(w2, end, "range")
			    || word_is(w2, end, "define")
			    || word_is(w2, end, "block"))
				depth++;
			else if (word_is(w2, end, "end"))
				depth--;
			if (depth)
				q = c2;
		}
		WG_GROW(c->defines, *cap, c->ndefines + 1);
		c->defines[c->ndefines].name =
			wg_xstrndup(name, (size_t)(name_end - name));
		c->defines[c->ndefines].body = close;
		c->defines[c->ndefines].len =
			(size_t)((q && q < end ? q : end) - close);
		c->defines[c->ndefines].tpl = c->ntpls - 1;
		c->ndefines++;
		p = close;
	}
}

/* ---- values ------------------------------------------------------------ */

/* dst gets src's pairs: mappings merged deeper, anything else replaced
 * (Helm's coalescing of values files). */
static void merge_into(struct wg_arena *arena, struct wg_node *dst,
		       const struct wg_node *src)
{
	for (size_t i = 0; wg_is_map(src) && i < src->len; i++) {
		const struct wg_node *k = wg_map_key(src, i);
		struct wg_node *v = wg_map_value(src, i);
		char *key = wg_scalar_dup(arena, k);
		struct wg_node *have = wg_map_get(dst, key);

		if (!wg_is_scalar(k))
			continue;
		if (wg_is_map(have) && wg_is_map(v))
			merge_into(arena, have, v);
		else
			wg_map_set(arena, dst, key,
				   wg_is_map(v) ? wg_node_clone(arena, v) : v);
	}
}

/* The first document of text (kept in c->texts: the tree's scalars
 * point into it; name for messages) as a mapping, or NULL (empty). */
static struct wg_node *parse_values(struct wg_ctx *ctx, struct wg_chart *c,
				    const char *name, char *text, size_t len,
				    int *rc)
{
	struct wg_input in = { (char *)name, text, len, 0,
				WG_FILE_META_NONE, false };
	struct wg_reader r;
	struct wg_node *root = NULL;
	unsigned index;

	WG_GROW(c->texts, c->texts_cap, c->ntexts + 1);
	c->texts[c->ntexts++] = text;
	wg_reader_init(&r, ctx, &in);
	if (wg_reader_next(&r, &c->arena, &root, &index) < 0)
		*rc = -1;
	wg_reader_release(&r);
	if (root && !wg_is_map(root) && !wg_node_is_null(root)) {
		wg_report_at(ctx, WG_SEV_ERROR, name, 0, 0,
			     "values are not a mapping");
		*rc = -1;
	}
	return wg_is_map(root) ? root : NULL;
}

/* The first document of path as a mapping, or NULL (absent, empty). */
static struct wg_node *read_values(struct wg_ctx *ctx, struct wg_chart *c,
				   const char *path, int *rc)
{
	struct wg_input in;
	char *text;
	size_t len;

	if (wg_input_read(ctx, path, &in)) {
		*rc = -1;
		return NULL;
	}
	len = in.len;
	text = wg_input_take_data(&in);	/* parse_values keeps it */
	wg_input_release(&in);
	return parse_values(ctx, c, path, text, len, rc);
}

/*
 * A chart's files, wherever they are: a folder on disk, or a folder of
 * a packed chart held in memory.
 */
struct tree {
	const char *dir;		/* on disk, or NULL */
	const struct wg_tgz *pack;	/* else in here */
	const char *top;		/* in pack: "NAME/" or deeper */
	const char *disk_rel;		/* dir below the chart folder */
	const char *pack_rel;		/* pack's archive below it, or NULL */
};

/* The file name of t (below its root), as a copy, or NULL when absent;
 * *len its size. */
static char *tree_read(struct wg_ctx *ctx, const struct tree *t,
		       const char *name, size_t *len, int *rc)
{
	if (t->dir) {
		char *p = join(t->dir, name), *text = NULL;
		struct wg_input in;

		if (is_file(p)) {
			if (wg_input_read(ctx, p, &in) == 0) {
				*len = in.len;
				text = wg_input_take_data(&in);
				wg_input_release(&in);
			} else {
				*rc = -1;
			}
		}
		free(p);
		return text;
	}
	for (size_t i = 0; i < t->pack->len; i++) {
		const struct wg_tgz_file *f = &t->pack->files[i];
		size_t tl = strlen(t->top);

		if (strncmp(f->path, t->top, tl) == 0
		    && strcmp(f->path + tl, name) == 0) {
			*len = f->len;
			return wg_xstrndup(f->data, f->len);
		}
	}
	return NULL;
}

/* Whether a path below a chart has a hidden part (".helmignore"). */
static bool hidden(const char *p)
{
	for (; *p; p++)
		if (*p == '.' && (p[-1] == '/'))
			return true;
	return false;
}

/* Every file below "templates/" of t, as names below t's root, sorted. */
static void tree_templates(const struct tree *t, struct wg_pathlist *out)
{
	if (t->dir) {
		struct wg_pathlist files = { 0 };
		char *tdir = join(t->dir, "templates");

		walk(tdir, &files, 0);
		for (size_t i = 0; i < files.len; i++)
			wg_pathlist_add(out, files.items[i] + strlen(t->dir)
					+ (t->dir[strlen(t->dir) - 1] != '/'));
		wg_pathlist_release(&files);
		free(tdir);
		return;
	}
	for (size_t i = 0; i < t->pack->len; i++) {
		const char *p = t->pack->files[i].path;
		size_t tl = strlen(t->top);

		if (strncmp(p, t->top, tl) == 0
		    && strncmp(p + tl, "templates/", 10) == 0
		    && !hidden(p + tl + 10 - 1))
			wg_pathlist_add(out, p + tl);
	}
	if (out->len)
		wg_sort(out->items, out->len, sizeof(*out->items), cmp_str);
}

/* The name a subchart goes by: the alias its parent's dependencies give
 * it (Chart.yaml, or requirements.yaml of an apiVersion v1 chart), else
 * its own Chart.yaml name, else fallback.  In c->arena. */
static const char *sub_name(struct wg_chart *c, const struct wg_node *deps,
			    const struct wg_node *meta, const char *fallback)
{
	const struct wg_node *n = wg_map_get(meta, "name");
	const char *name = wg_is_scalar(n) && n->len
			   ? wg_scalar_dup(&c->arena, n) : fallback;

	for (size_t i = 0; wg_is_seq(deps) && i < deps->len; i++) {
		const struct wg_node *d = wg_seq_item(deps, i);
		const struct wg_node *dn = wg_map_get(d, "name");
		const struct wg_node *da = wg_map_get(d, "alias");

		if (wg_is_scalar(dn) && wg_scalar_is(dn, name)
		    && wg_is_scalar(da) && da->len)
			return wg_scalar_dup(&c->arena, da);
	}
	return name;
}

struct load {
	struct wg_ctx *ctx;
	struct wg_chart *c;
	size_t tcap, dcap;
	struct wg_tgz *packs;	/* read so far: freed at the end */
	size_t npacks, packs_cap;
};

static int load_tree(struct load *L, const struct tree *t, const char *rel,
		     const char *prefix, struct wg_node *vals, unsigned depth);

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/*
 * The subchart at sub (a folder of t, or a packed NAME.tgz of t; name
 * is its entry in charts/), loaded under its name or alias.
 */
static int load_sub(struct load *L, const struct tree *t,
		    const struct wg_node *deps, const char *entry,
		    const char *rel, const char *prefix, struct wg_node *vals,
		    unsigned depth)
{
	struct wg_chart *c = L->c;
	struct tree st = { 0 };
	char *meta_text, *sub = NULL, *pack_rel = NULL, *disk_rel = NULL;
	char *top = NULL;
	size_t len = 0;
	int rc = 0;
	const char *name;
	struct wg_node *meta = NULL, *svals;
	char *srel, *spre;

	if (ends_with(entry, ".tgz")) {
		/* a packed chart: read whole, unpacked in memory */
		char *data = tree_read(L->ctx, t, wg_arena_printf(&c->arena,
				       "charts/%s", entry), &len, &rc);
		const char *why;
		struct wg_tgz pk;

		if (!data)
			return rc;
		pack_rel = t->pack_rel ? wg_arena_printf(&c->arena, "%s:%s",
					 t->pack_rel, entry)
				: wg_arena_printf(&c->arena, "%scharts/%s",
						  t->disk_rel, entry);
		if (wg_tgz_read(data, len, L->ctx->limits.max_input_bytes,
				&pk, &why)) {
			free(data);
			return wg_report_at(L->ctx, WG_SEV_ERROR,
					    wg_arena_printf(&c->arena, "%s/%s",
							    c->dir, pack_rel),
					    0, 0, "cannot read the packed "
					    "subchart: %s (helm dependency "
					    "build writes it again)", why);
		}
		free(data);
		WG_GROW(L->packs, L->packs_cap, L->npacks + 1);
		L->packs[L->npacks++] = pk;
		/* its one top folder holds Chart.yaml */
		for (size_t i = 0; !top && i < pk.len; i++) {
			const char *p = pk.files[i].path, *sl = strchr(p, '/');

			if (sl && strcmp(sl + 1, "Chart.yaml") == 0)
				top = wg_arena_strndup(&c->arena, p,
						       (size_t)(sl - p) + 1);
		}
		if (!top)
			return wg_report_at(L->ctx, WG_SEV_ERROR,
					    wg_arena_printf(&c->arena, "%s/%s",
							    c->dir, pack_rel),
					    0, 0, "the packed subchart holds "
					    "no NAME/Chart.yaml");
		st.pack = &L->packs[L->npacks - 1];
		st.top = top;
		st.pack_rel = pack_rel;
	} else if (t->dir) {
		sub = join(t->dir, wg_arena_printf(&c->arena, "charts/%s",
						   entry));
		if (!wg_chart_is_dir(sub)) {
			free(sub);
			return 0;
		}
		disk_rel = wg_arena_printf(&c->arena, "%scharts/%s/",
					   t->disk_rel, entry);
		st.dir = wg_arena_strdup(&c->arena, sub);
		st.disk_rel = disk_rel;
		free(sub);
	} else {
		st.pack = t->pack;
		st.top = wg_arena_printf(&c->arena, "%scharts/%s/", t->top,
					 entry);
		st.pack_rel = t->pack_rel;
	}
	meta_text = tree_read(L->ctx, &st, "Chart.yaml", &len, &rc);
	if (!meta_text)
		return rc ? rc : 0;	/* not a chart */
	meta = parse_values(L->ctx, c, "Chart.yaml", meta_text, len, &rc);
	name = sub_name(c, deps, meta, entry);
	srel = wg_arena_printf(&c->arena, "%scharts/%s/", rel, name);
	spre = wg_arena_printf(&c->arena, "%s%s.", prefix, name);
	svals = wg_map_get(vals, name);
	if (!wg_is_map(svals))
		svals = wg_map_set(&c->arena, vals,
				   wg_arena_strdup(&c->arena, name),
				   wg_node_new_map(&c->arena));
	if (rc == 0)
		rc = load_tree(L, &st, srel, spre, svals, depth + 1);
	return rc;
}

/* The chart t (prefix "" or "sub.") and its subcharts: templates,
 * defines, and values under prefix in c->values. */
static int load_tree(struct load *L, const struct tree *t, const char *rel,
		     const char *prefix, struct wg_node *vals, unsigned depth)
{
	struct wg_chart *c = L->c;
	struct wg_pathlist files = { 0 }, subs = { 0 };
	struct wg_node *own = NULL, *meta = NULL, *deps = NULL;
	char *text;
	size_t len = 0;
	int rc = 0;

	if (depth > 8)
		return 0;
	if ((text = tree_read(L->ctx, t, "values.yaml", &len, &rc)))
		own = parse_values(L->ctx, c, "values.yaml", text, len, &rc);
	/* the subchart's own values under its key; the parent's win */
	if (own) {
		struct wg_node *merged = wg_node_new_map(&c->arena);

		merge_into(&c->arena, merged, own);
		merge_into(&c->arena, merged, vals);
		vals->len = 0;
		merge_into(&c->arena, vals, merged);
	}
	if ((text = tree_read(L->ctx, t, "Chart.yaml", &len, &rc))) {
		meta = parse_values(L->ctx, c, "Chart.yaml", text, len, &rc);
		deps = wg_map_get(meta, "dependencies");
	}
	if (!deps && (text = tree_read(L->ctx, t, "requirements.yaml", &len,
				       &rc)))
		deps = wg_map_get(parse_values(L->ctx, c, "requirements.yaml",
					       text, len, &rc),
				  "dependencies");
	tree_templates(t, &files);
	for (size_t i = 0; rc == 0 && i < files.len; i++) {
		struct wg_chart_tpl *tp;

		text = tree_read(L->ctx, t, files.items[i], &len, &rc);
		if (!text)
			continue;
		WG_GROW(c->tpls, L->tcap, c->ntpls + 1);
		tp = &c->tpls[c->ntpls++];
		memset(tp, 0, sizeof(*tp));
		WG_GROW(c->texts, c->texts_cap, c->ntexts + 1);
		c->texts[c->ntexts++] = text;
		tp->text = text;
		tp->len = len;
		tp->rel = wg_xmalloc(strlen(rel) + strlen(files.items[i]) + 1);
		sprintf(tp->rel, "%s%s", rel, files.items[i]);
		if (t->dir) {
			tp->path = wg_xmalloc(strlen(t->disk_rel)
					      + strlen(files.items[i]) + 1);
			sprintf(tp->path, "%s%s", t->disk_rel, files.items[i]);
		} else {
			tp->pack = wg_xstrdup(t->pack_rel);
		}
		tp->values_prefix = wg_xstrdup(prefix);
		scan_defines(c, tp->text, tp->len, &L->dcap);
	}
	wg_pathlist_release(&files);
	/* the subcharts: charts/NAME/ folders and charts/NAME.tgz packs */
	if (t->dir) {
		char *cdir = join(t->dir, "charts");
		DIR *d = opendir(cdir);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.')
				wg_pathlist_add(&subs, e->d_name);
		if (d)
			closedir(d);
		free(cdir);
	} else {
		size_t tl = strlen(t->top);

		for (size_t i = 0; i < t->pack->len; i++) {
			const char *p = t->pack->files[i].path, *q, *sl;

			if (strncmp(p, t->top, tl) != 0
			    || strncmp(p + tl, "charts/", 7) != 0)
				continue;
			q = p + tl + 7;
			sl = strchr(q, '/');
			if (sl ? strcmp(sl + 1, "Chart.yaml") == 0
			       : ends_with(q, ".tgz")) {
				char *n = wg_xstrndup(q, sl ? (size_t)(sl - q)
							    : strlen(q));

				if (*n != '.')
					wg_pathlist_add(&subs, n);
				free(n);
			}
		}
	}
	if (subs.len)
		wg_sort(subs.items, subs.len, sizeof(*subs.items), cmp_str);
	for (size_t i = 0; rc == 0 && i < subs.len; i++)
		rc = load_sub(L, t, deps, subs.items[i], rel, prefix, vals,
			      depth);
	wg_pathlist_release(&subs);
	return rc;
}

int wg_chart_load(struct wg_ctx *ctx, struct wg_chart *c, const char *dir,
		  const struct wg_values_arg *vals, size_t nvals)
{
	struct load L = { ctx, c, 0, 0, NULL, 0, 0 };
	struct wg_input in;
	int rc;

	memset(c, 0, sizeof(*c));
	wg_arena_init(&c->arena);
	c->dir = wg_xstrdup(dir);
	/* "chart/" and "chart" name the same folder; rel paths need one */
	for (size_t n = strlen(c->dir); n > 1 && c->dir[n - 1] == '/'; n--)
		c->dir[n - 1] = '\0';
	dir = c->dir;
	c->values = wg_node_new_map(&c->arena);
	c->values_path = join(dir, "values.yaml");
	if (is_file(c->values_path)) {
		if (wg_input_read(ctx, c->values_path, &in))
			return -1;
		c->values_len = in.len;
		c->values_text = wg_xstrndup(in.data, in.len);
		wg_input_release(&in);
	}
	{
		struct tree top = { dir, NULL, NULL, "", NULL };

		rc = load_tree(&L, &top, "", "", c->values, 0);
	}
	/* Helm's order: the files, then --set, then --set-string */
	for (int kind = WG_VALUES_FILE; kind <= WG_VALUES_SET_STRING; kind++)
		for (size_t i = 0; rc == 0 && i < nvals; i++) {
			struct wg_node *v = NULL;
			const char *why;

			if (vals[i].kind != (enum wg_values_kind)kind)
				continue;
			if (kind == WG_VALUES_FILE) {
				v = read_values(ctx, c, vals[i].arg, &rc);
			} else {
				v = wg_node_new_map(&c->arena);
				if (wg_chart_set_values(&c->arena, v,
						vals[i].arg,
						kind == WG_VALUES_SET_STRING,
						&why))
					rc = wg_report_at(ctx, WG_SEV_ERROR,
						NULL, 0, 0, "--set%s %s: %s",
						kind == WG_VALUES_SET_STRING
						? "-string" : "", vals[i].arg,
						why);
			}
			if (v && rc == 0)
				merge_into(&c->arena, c->values, v);
		}
	for (size_t i = 0; i < L.npacks; i++)
		wg_tgz_release(&L.packs[i]);
	free(L.packs);
	return rc;
}

void wg_chart_release(struct wg_chart *c)
{
	for (size_t i = 0; i < c->ntpls; i++) {
		free(c->tpls[i].rel);
		free(c->tpls[i].path);
		free(c->tpls[i].pack);
		free(c->tpls[i].values_prefix);
	}
	for (size_t i = 0; i < c->ndefines; i++)
		free(c->defines[i].name);
	for (size_t i = 0; i < c->ntexts; i++)
		free(c->texts[i]);
	free(c->texts);
	free(c->tpls);
	free(c->defines);
	free(c->dir);
	free(c->name);
	free(c->values_path);
	free(c->values_text);
	wg_arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

const struct wg_chart_tpl *wg_chart_tpl_find(const struct wg_chart *c,
					     const char *rel)
{
	for (size_t i = 0; rel && i < c->ntpls; i++)
		if (strcmp(c->tpls[i].rel, rel) == 0)
			return &c->tpls[i];
	return NULL;
}

/* ---- the render's Source comments --------------------------------------- */

void wg_source_map_build(struct wg_source_map *m, const char *text,
			 size_t len)
{
	static const char tag[] = "# Source: ";
	size_t cap = 0, line = 0;
	bool taken = false;	/* this document's Source is known */

	memset(m, 0, sizeof(*m));
	wg_arena_init(&m->arena);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;

		/* Helm writes one Source line right after a document's
		 * "---"; a template's own "# Source:" comment after it is
		 * text of the template */
		if (e - i >= 3 && memcmp(text + i, "---", 3) == 0
		    && (e - i == 3 || text[i + 3] == ' ' || text[i + 3] == '\r'))
			taken = false;
		if (!taken && e - i > sizeof(tag) - 1
		    && memcmp(text + i, tag, sizeof(tag) - 1) == 0) {
			const char *p = text + i + sizeof(tag) - 1;
			const char *slash = memchr(p, '/', e - (size_t)(p - text));
			size_t stop = e;

			if (stop > i && text[stop - 1] == '\r')
				stop--;
			if (slash) {
				if (m->len == cap) {
					cap = cap ? 2 * cap : 64;
					m->lines = wg_xrealloc(m->lines,
						cap * sizeof(*m->lines));
					m->paths = wg_xrealloc(m->paths,
						cap * sizeof(*m->paths));
				}
				m->lines[m->len] = line;
				m->paths[m->len] = wg_arena_strndup(&m->arena,
					slash + 1,
					stop - (size_t)(slash + 1 - text));
				m->len++;
				taken = true;
			}
		}
		i = e + 1;
		line++;
	}
}

const char *wg_source_map_get(const struct wg_source_map *m, size_t line)
{
	const char *best = NULL;

	for (size_t i = 0; i < m->len && m->lines[i] <= line; i++)
		best = m->paths[i];
	return best;
}

void wg_source_map_release(struct wg_source_map *m)
{
	free(m->lines);
	free(m->paths);
	wg_arena_release(&m->arena);
	memset(m, 0, sizeof(*m));
}

/* Whether a is opt's value: "opt X" (*v = the next argument, *skip 1),
 * "opt=X", or for a short opt "-fX". */
static bool opt_value(char *const *args, size_t nargs, size_t i,
		      const char *opt, const char **v, size_t *skip)
{
	const char *a = args[i];
	size_t n = strlen(opt);

	*skip = 0;
	if (strcmp(a, opt) == 0) {
		if (i + 1 >= nargs)
			return false;
		*v = args[i + 1];
		*skip = 1;
		return true;
	}
	if (strncmp(a, opt, n) == 0 && a[n] == '=') {
		*v = a + n + 1;
		return true;
	}
	if (n == 2 && strncmp(a, opt, 2) == 0 && a[2]) {
		*v = a + 2;
		return true;
	}
	return false;
}

size_t wg_chart_values_args(char *const *args, size_t nargs,
			    struct wg_values_arg *out, size_t cap)
{
	static const struct { const char *opt; enum wg_values_kind kind; }
	opts[] = {
		{ "-f", WG_VALUES_FILE }, { "--values", WG_VALUES_FILE },
		{ "--set", WG_VALUES_SET },
		{ "--set-string", WG_VALUES_SET_STRING },
	};
	size_t n = 0;

	for (size_t i = 0; i < nargs && n < cap; i++)
		for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			const char *v;
			size_t skip;

			if (!opt_value(args, nargs, i, opts[k].opt, &v, &skip))
				continue;
			out[n].kind = opts[k].kind;
			out[n++].arg = v;
			i += skip;
			break;
		}
	return n;
}

/* ---- a copy of the chart, for the second render ------------------------ */

static int copy_file(const char *from, const char *to, const char *data,
		     size_t len)
{
	FILE *in = data ? NULL : fopen(from, "rb");
	FILE *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	int rc = out && (data || in) ? 0 : -1;

	if (rc == 0 && data && fwrite(data, 1, len, out) != len)
		rc = -1;
	while (rc == 0 && in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in && ferror(in))
		rc = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		rc = -1;
	return rc;
}

static int copy_tree(const char *src, const char *dst, const char *rel,
		     const struct wg_chart_file *files, size_t n,
		     unsigned depth)
{
	DIR *d = depth < 32 ? opendir(src) : NULL;
	struct dirent *e;
	int rc = 0;

	if (!d || mkdir(dst, 0700))
		rc = -1;
	while (rc == 0 && (e = readdir(d))) {
		char *s, *t, *r;
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		s = join(src, e->d_name);
		t = join(dst, e->d_name);
		r = *rel ? join(rel, e->d_name) : wg_xstrdup(e->d_name);
		if (stat(s, &st) != 0) {
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = copy_tree(s, t, r, files, n, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			const struct wg_chart_file *f = NULL;

			for (size_t i = 0; i < n && !f; i++)
				if (strcmp(files[i].rel, r) == 0)
					f = &files[i];
			rc = copy_file(s, t, f ? f->data : NULL,
				       f ? f->len : 0);
		}
		free(s);
		free(t);
		free(r);
	}
	if (d)
		closedir(d);
	return rc;
}

int wg_chart_copy(struct wg_ctx *ctx, const char *src, const char *dst,
		  const struct wg_chart_file *files, size_t n)
{
	if (copy_tree(src, dst, "", files, n, 0) == 0)
		return 0;
	return wg_report_at(ctx, WG_SEV_ERROR, dst, 0, 0,
			    "cannot copy the chart %s here for the second "
			    "render", src);
}
