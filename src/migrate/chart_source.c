/*
 * The chart on disk, as chart migration reads it: template files (text:
 * they are Go templates, not YAML), the named templates they define,
 * and the values a render starts from.  And the render's "# Source:"
 * comments, which say which template file each object came from.
 */
#include <dirent.h>
#include <ftw.h>
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
	qsort(names.items, names.len, sizeof(*names.items), cmp_str);
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

static char *keep_text(struct wg_chart *c, struct wg_input *in)
{
	char *t = in->data;

	WG_GROW(c->texts, c->texts_cap, c->ntexts + 1);
	c->texts[c->ntexts++] = t;
	in->data = NULL;
	return t;
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

/* The first document of path as a mapping, or NULL (absent, empty). */
static struct wg_node *read_values(struct wg_ctx *ctx, struct wg_chart *c,
				   const char *path, int *rc)
{
	struct wg_input in;
	struct wg_reader r;
	struct wg_node *root = NULL;
	unsigned index;

	if (wg_input_read(ctx, path, &in)) {
		*rc = -1;
		return NULL;
	}
	keep_text(c, &in);
	in.data = c->texts[c->ntexts - 1];
	wg_reader_init(&r, ctx, &in);
	if (wg_reader_next(&r, &c->arena, &root, &index) < 0)
		*rc = -1;
	wg_reader_release(&r);
	in.data = NULL;
	wg_input_release(&in);
	if (root && !wg_is_map(root) && !wg_node_is_null(root)) {
		wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
			     "values are not a mapping");
		*rc = -1;
	}
	return wg_is_map(root) ? root : NULL;
}

/* The chart at dir (prefix "" or "sub.") and its unpacked subcharts:
 * templates, defines, and values under prefix in c->values. */
static int load_tree(struct wg_ctx *ctx, struct wg_chart *c, const char *dir,
		     const char *rel, const char *prefix, struct wg_node *vals,
		     size_t *tcap, size_t *dcap, unsigned depth)
{
	struct wg_pathlist files = { 0 };
	char *tdir = join(dir, "templates"), *cdir = join(dir, "charts");
	char *vpath = join(dir, "values.yaml");
	struct wg_node *own = NULL;
	DIR *d;
	int rc = 0;

	if (is_file(vpath))
		own = read_values(ctx, c, vpath, &rc);
	/* the subchart's own values under its key; the parent's win */
	if (own) {
		struct wg_node *merged = wg_node_new_map(&c->arena);

		merge_into(&c->arena, merged, own);
		merge_into(&c->arena, merged, vals);
		vals->len = 0;
		merge_into(&c->arena, vals, merged);
	}
	walk(tdir, &files, 0);
	for (size_t i = 0; rc == 0 && i < files.len; i++) {
		struct wg_input in;
		struct wg_chart_tpl *t;

		if (wg_input_read(ctx, files.items[i], &in)) {
			rc = -1;
			break;
		}
		WG_GROW(c->tpls, *tcap, c->ntpls + 1);
		t = &c->tpls[c->ntpls++];
		t->len = in.len;
		t->text = keep_text(c, &in);
		wg_input_release(&in);
		t->rel = wg_xmalloc(strlen(rel) + strlen(files.items[i]));
		sprintf(t->rel, "%s%s", rel, files.items[i] + strlen(dir) + 1);
		t->values_prefix = wg_xstrdup(prefix);
		scan_defines(c, t->text, t->len, dcap);
	}
	wg_pathlist_release(&files);
	d = depth < 8 ? opendir(cdir) : NULL;
	while (rc == 0 && d) {
		struct dirent *e = readdir(d);
		char *sub, *srel, *spre;
		struct wg_node *svals;

		if (!e)
			break;
		if (e->d_name[0] == '.')
			continue;
		sub = join(cdir, e->d_name);
		if (!wg_chart_is_dir(sub)) {
			free(sub);	/* a packed .tgz: not read */
			continue;
		}
		srel = wg_xmalloc(strlen(rel) + strlen(e->d_name) + 9);
		sprintf(srel, "%scharts/%s/", rel, e->d_name);
		spre = wg_xmalloc(strlen(prefix) + strlen(e->d_name) + 2);
		sprintf(spre, "%s%s.", prefix, e->d_name);
		svals = wg_map_get(vals, e->d_name);
		if (!wg_is_map(svals))
			svals = wg_map_set(&c->arena, vals,
					   wg_arena_strdup(&c->arena,
							   e->d_name),
					   wg_node_new_map(&c->arena));
		rc = load_tree(ctx, c, sub, srel, spre, svals, tcap, dcap,
			       depth + 1);
		free(sub);
		free(srel);
		free(spre);
	}
	if (d)
		closedir(d);
	free(tdir);
	free(cdir);
	free(vpath);
	return rc;
}

int wg_chart_load(struct wg_ctx *ctx, struct wg_chart *c, const char *dir,
		  char *const *values_files, size_t nvalues_files)
{
	size_t tcap = 0, dcap = 0;
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
	rc = load_tree(ctx, c, dir, "", "", c->values, &tcap, &dcap, 0);
	for (size_t i = 0; rc == 0 && i < nvalues_files; i++) {
		struct wg_node *v = read_values(ctx, c, values_files[i], &rc);

		if (v)
			merge_into(&c->arena, c->values, v);
	}
	return rc;
}

void wg_chart_release(struct wg_chart *c)
{
	for (size_t i = 0; i < c->ntpls; i++) {
		free(c->tpls[i].rel);
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

	memset(m, 0, sizeof(*m));
	wg_arena_init(&m->arena);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;

		if (e - i > sizeof(tag) - 1
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

size_t wg_chart_values_args(char *const *args, size_t nargs,
			    const char **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < nargs && n < cap; i++) {
		const char *a = args[i];

		if ((strcmp(a, "-f") == 0 || strcmp(a, "--values") == 0)
		    && i + 1 < nargs)
			out[n++] = args[++i];
		else if (strncmp(a, "--values=", 9) == 0)
			out[n++] = a + 9;
		else if (strncmp(a, "-f", 2) == 0 && a[2])
			out[n++] = a + 2 + (a[2] == '=');
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

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

void wg_chart_copy_remove(const char *dst)
{
	nftw(dst, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
