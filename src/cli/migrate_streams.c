/*
 * migrate's streams (migrate_streams.h): kustomize roots and files
 * alone, and the chain run on each.
 */
#include "migrate_streams.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "wingen/base/alloc.h"
#include "wingen/base/fileid.h"
#include "wingen/k8s/identity.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/kustomize_refs.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

void wg_mstreams_init(struct wg_mstreams *s)
{
	memset(s, 0, sizeof(*s));
	wg_arena_init(&s->arena);
	wg_resources_init(&s->work);
	s->roots = wg_index_new();
	s->own = wg_index_new();
}

void wg_mstreams_release(struct wg_mstreams *s)
{
	for (size_t i = 0; i < s->len; i++) {
		free(s->items[i].files);
		free(s->items[i].subs);
		free(s->items[i].gen);
	}
	wg_resources_release(&s->work);
	free(s->alone);
	free(s->items);
	wg_index_free(s->roots);
	wg_index_free(s->own);
	wg_arena_release(&s->arena);
	wg_buf_release(&s->key);
	memset(s, 0, sizeof(*s));
}

static struct wg_mstream *add_stream(struct wg_mstreams *s)
{
	struct wg_mstream *m;

	WG_GROW(s->items, s->cap, s->len + 1);
	m = &s->items[s->len++];
	memset(m, 0, sizeof(*m));
	return m;
}

/* The stream index + 1 of the root whose folder is dir, or 0. */
static size_t root_of(struct wg_mstreams *s, const char *dir)
{
	void *const *v;
	size_t n;

	if (!wg_file_id(dir, &s->key))
		return 0;
	v = wg_index_get(s->roots, s->key.buf, s->key.len, &n);
	return n ? (size_t)(uintptr_t)v[0] : 0;
}

static void mark_own(struct wg_mstreams *s, const char *path, int what)
{
	size_t n;

	wg_file_id(path, &s->key);
	wg_index_get(s->own, s->key.buf, s->key.len, &n);
	if (!n)
		wg_index_add(s->own, s->key.buf, s->key.len,
			     (void *)(uintptr_t)what);
}

/* Makes dir a root when it has a kustomization and is not one yet. */
static void add_root(struct wg_mstreams *s, const char *dir)
{
	struct wg_buf kpath = WG_BUF_INIT;
	struct wg_mstream *m;
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || root_of(s, dir)
	    || !wg_kust_file_of(dir, &kpath)) {
		wg_buf_release(&kpath);
		return;
	}
	wg_file_id(dir, &s->key);
	m = add_stream(s);
	wg_index_add(s->roots, s->key.buf, s->key.len,
		     (void *)(uintptr_t)s->len);
	m->root = wg_arena_strdup(&s->arena, dir);
	m->kustomization = wg_arena_strdup(&s->arena, kpath.buf);
	m->rc_file = wg_arena_printf(&s->arena, "%s/%s", dir, WG_RC_FILE);
	m->top = true;
	mark_own(s, m->kustomization, 1);
	mark_own(s, m->rc_file, 2);
	s->nroots = s->len;
	wg_buf_release(&kpath);
}

/* The folder of path ("." for a bare name) into dir. */
static void dir_of(const char *path, struct wg_buf *dir)
{
	const char *slash = strrchr(path, '/');

	wg_buf_reset(dir);
	if (!slash)
		wg_buf_addch(dir, '.');
	else
		wg_buf_add(dir, path, slash == path ? 1
						    : (size_t)(slash - path));
}

static int cmp_root(const void *a, const void *b)
{
	return strcmp(((const struct wg_mstream *)a)->root,
		      ((const struct wg_mstream *)b)->root);
}

void wg_mstreams_roots(struct wg_mstreams *s, const struct wg_pathlist *all)
{
	struct wg_buf dir = WG_BUF_INIT;

	/* the folders of the files first: their paths are the clean ones */
	for (size_t i = 0; i < all->len; i++) {
		if (strcmp(all->items[i], "-") == 0)
			continue;
		dir_of(all->items[i], &dir);
		if (i && strncmp(all->items[i - 1], dir.buf, dir.len) == 0
		    && all->items[i - 1][dir.len] == '/'
		    && !strchr(all->items[i - 1] + dir.len + 1, '/'))
			continue;	/* the folder of the one before */
		add_root(s, dir.buf);
	}
	/* then the folders they build (a base outside the PATHs too) */
	for (size_t i = 0; i < s->len; i++) {
		struct wg_kust k;

		if (wg_kust_read(s->items[i].kustomization, s->items[i].root,
				 &k) != 0)
			continue;
		s->items[i].component = k.component;
		s->items[i].images = k.images;
		s->items[i].renames = k.renames;
		for (size_t e = 0; e < k.entries.len; e++)
			add_root(s, k.entries.items[e]);
		wg_kust_release(&k);
	}
	/* sorted by folder: the order streams run and are named in */
	wg_sort(s->items, s->len, sizeof(*s->items), cmp_root);
	wg_index_free(s->roots);
	s->roots = wg_index_new();
	for (size_t i = 0; i < s->len; i++) {
		wg_file_id(s->items[i].root, &s->key);
		wg_index_add(s->roots, s->key.buf, s->key.len,
			     (void *)(uintptr_t)(i + 1));
	}
	wg_buf_release(&dir);
}

int wg_mstreams_own(struct wg_mstreams *s, const struct wg_buf *id)
{
	void *const *v;
	size_t n;

	v = wg_index_get(s->own, id->buf, id->len, &n);
	return n ? (int)(uintptr_t)v[0] : 0;
}

/* ---- which files each stream builds ------------------------------------ */

static void push(size_t **a, size_t *n, size_t v)
{
	*a = wg_xrealloc(*a, (*n + 1) * sizeof(**a));
	(*a)[(*n)++] = v;
}

static bool has(const size_t *a, size_t n, size_t v)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] == v)
			return true;
	return false;
}

/* Adds to root r (and, through its subs, transitively) what root i
 * builds: its files (file ids in by_id) and the roots it names. */
static void close_over(struct wg_mstreams *s, size_t r, size_t i,
		       struct wg_index *by_id, bool *seen)
{
	struct wg_mstream *m = &s->items[r];
	struct wg_kust k;

	if (seen[i])
		return;
	seen[i] = true;
	if (wg_kust_read(s->items[i].kustomization, s->items[i].root, &k))
		return;
	for (size_t e = 0; e < k.entries.len; e++) {
		const char *path = k.entries.items[e];
		size_t sub = root_of(s, path);
		void *const *v;
		size_t n;

		if (sub) {
			if (sub - 1 != r && !has(m->subs, m->nsubs, sub - 1))
				push(&m->subs, &m->nsubs, sub - 1);
			if (r == i)
				s->items[sub - 1].top = false;
			close_over(s, r, sub - 1, by_id, seen);
			continue;
		}
		wg_file_id(path, &s->key);
		if (i == r && wg_mstreams_own(s, &s->key) == 2)
			m->lists_rc = true;
		v = wg_index_get(by_id, s->key.buf, s->key.len, &n);
		if (n && !has(m->files, m->nfiles, (size_t)(uintptr_t)v[0] - 1))
			push(&m->files, &m->nfiles,
			     (size_t)(uintptr_t)v[0] - 1);
	}
	wg_kust_release(&k);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

void wg_mstreams_make(struct wg_mstreams *s, char *const *files, size_t n)
{
	struct wg_index *by_id = wg_index_new_sized(n);
	bool *built = wg_xcalloc(n + 1, sizeof(*built));
	bool *seen = wg_xcalloc(s->nroots + 1, sizeof(*seen));

	for (size_t i = 0; i < n; i++) {
		wg_file_id(files[i], &s->key);
		wg_index_add(by_id, s->key.buf, s->key.len,
			     (void *)(uintptr_t)(i + 1));
	}
	for (size_t r = 0; r < s->nroots; r++) {
		struct wg_mstream *m = &s->items[r];

		memset(seen, 0, s->nroots * sizeof(*seen));
		close_over(s, r, r, by_id, seen);
		wg_sort(m->files, m->nfiles, sizeof(*m->files), cmp_size);
		wg_sort(m->subs, m->nsubs, sizeof(*m->subs), cmp_size);
	}
	for (size_t r = 0; r < s->nroots; r++)
		for (size_t k = 0; k < s->items[r].nfiles; k++)
			built[s->items[r].files[k]] = true;
	s->alone = wg_xcalloc(n + 1, sizeof(*s->alone));
	s->nalone = n;
	for (size_t i = 0; i < n; i++) {
		struct wg_mstream *m;

		if (built[i])
			continue;
		s->alone[i] = true;
		m = add_stream(s);
		push(&m->files, &m->nfiles, i);
	}
	free(seen);
	free(built);
	wg_index_free(by_id);
}

/* ---- the chain on each stream ------------------------------------------ */

/* Each file's objects as the last stream left them. */
struct current {
	struct wg_resource ***objs;	/* per file */
	size_t *nobjs;
};

static void set_current(struct current *c, size_t f, struct wg_resource **o,
			size_t n)
{
	free(c->objs[f]);
	c->objs[f] = wg_xcalloc(n + 1, sizeof(*o));
	if (n)
		memcpy(c->objs[f], o, n * sizeof(*o));
	c->nobjs[f] = n;
}

/* The YAML of file f's current objects, for the comparison of a file
 * two streams build. */
static void text_of(const struct current *c, size_t f, struct wg_buf *out)
{
	struct wg_resources l;
	struct wg_ctx quiet;

	wg_resources_init(&l);
	for (size_t i = 0; i < c->nobjs[f]; i++)
		if (!(c->objs[f][i]->flags & WG_RES_DELETED))
			wg_resources_append(&l, c->objs[f][i]);
	wg_ctx_init(&quiet);
	wg_buf_reset(out);
	wg_write_resources(&quiet, out, &l, WG_FORMAT_YAML);
	wg_ctx_release(&quiet);
	free(l.items);
	l.items = NULL;
	l.len = 0;
	wg_resources_release(&l);
}

/* A diagnostic's identity, for saying it once. */
static void diag_key(const struct wg_diag *d, struct wg_buf *key)
{
	wg_buf_reset(key);
	wg_buf_addf(key, "%d|%s|%u|%u|%s|%s|%s|%s", (int)d->severity,
		    d->file ? d->file : "", d->line, d->col,
		    d->ref.kind ? d->ref.kind : "",
		    d->ref.name ? d->ref.name : "", d->field ? d->field : "",
		    d->message);
}

/* The diagnostics of stream's scratch context onto ctx, each once; a
 * warning or note at the profile (about the run as a whole: an entry that
 * selects nothing) waits in pending, profile_diags counting the streams
 * that said it. */
static void merge(struct wg_ctx *ctx, const struct wg_ctx *scratch,
		  const struct wg_profile *p, struct wg_index *said,
		  struct wg_index *profile_diags, struct wg_log *pending,
		  struct wg_buf *key)
{
	for (size_t i = 0; i < scratch->log.ndiags; i++) {
		const struct wg_diag *d = &scratch->log.diags[i];
		size_t n;

		diag_key(d, key);
		if (d->severity != WG_SEV_ERROR && p->path && d->file
		    && strcmp(d->file, p->path) == 0 && !d->ref.kind) {
			/* counted by the values under its key */
			wg_index_get(profile_diags, key->buf, key->len, &n);
			if (!n)
				wg_log_add_diag(pending, d);
			wg_index_add(profile_diags, key->buf, key->len, NULL);
			continue;
		}
		wg_index_get(said, key->buf, key->len, &n);
		if (n)
			continue;
		wg_index_add(said, key->buf, key->len, NULL);
		wg_log_add_diag(&ctx->log, d);
	}
}

/*
 * Files alone are streams of their own, but most of a large folder's
 * files hold objects no plugin reads across objects: their chains run
 * together, as one, when that gives what each gives alone.  A file can
 * join when it holds no object another object's edit reads (a Service,
 * an autoscaler, a disruption budget, a RuntimeClass, a gMSA credential
 * spec) and no object of an identity the others hold (duplicates are
 * judged per file).  ids: the identities joined so far.
 */
static bool joins(struct wg_resource *const *objs, size_t n,
		  struct wg_index *ids, struct wg_buf *key)
{
	size_t hit;

	for (size_t i = 0; i < n; i++) {
		const struct wg_resource *res = objs[i];

		if (wg_is_kind(res, WG_KIND_SERVICE)
		    || wg_is_kind(res, WG_KIND_HPA)
		    || wg_is_kind(res, WG_KIND_PDB)
		    || wg_is_kind(res, WG_KIND_RUNTIME_CLASS)
		    || wg_resource_kind_is(res, "GMSACredentialSpec"))
			return false;
		if (wg_object_identity(res, key)) {
			wg_index_get(ids, key->buf, key->len, &hit);
			if (hit)
				return false;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (wg_object_identity(objs[i], key))
			wg_index_add(ids, key->buf, key->len, NULL);
	return true;
}

/* The files of streams [i, next) that ran as one: a root's, or files
 * alone (one each). */
static size_t run_files(const struct wg_mstreams *s, size_t i, size_t next)
{
	return next == i + 1 ? s->items[i].nfiles : next - i;
}

static size_t run_file(const struct wg_mstreams *s, size_t i, size_t next,
		       size_t k)
{
	return next == i + 1 ? s->items[i].files[k] : s->items[i + k].files[0];
}

/* The stream's name in a message. */
static const char *stream_name(const struct wg_mstream *m, char *const *files)
{
	return m->root ? m->root : files[m->files[0]];
}

int wg_mstreams_run(struct wg_mstreams *s, struct wg_ctx *ctx,
		    const struct wg_profile *p, struct wg_migrate_file *mf,
		    size_t n, struct wg_resources *list)
{
	struct current cur = { wg_xcalloc(n + 1, sizeof(*cur.objs)),
			       wg_xcalloc(n + 1, sizeof(*cur.nobjs)) };
	long *last = wg_xcalloc(n + 1, sizeof(*last));
	char **names = wg_xcalloc(n + 1, sizeof(*names));
	struct wg_index *said = wg_index_new(), *pdiags = wg_index_new();
	struct wg_index *ids = wg_index_new();
	struct wg_index *by_name = wg_index_new_sized(n);
	struct wg_buf key = WG_BUF_INIT, before = WG_BUF_INIT,
		      after = WG_BUF_INIT;
	struct wg_log pending;
	size_t ran = 0, total = 0;
	int rc = 0;

	wg_log_init(&pending);
	for (size_t f = 0; f < n; f++) {
		names[f] = mf[f].in.name;
		last[f] = -1;
		if (names[f])
			wg_index_add(by_name, names[f], strlen(names[f]),
				     (void *)(uintptr_t)(f + 1));
	}
	wg_migrate_assign(mf, n, list);
	for (size_t f = 0; f < n; f++)
		set_current(&cur, f, mf[f].mine, mf[f].nmine);
	for (size_t i = 0, next; i < s->len && rc == 0; i = next) {
		struct wg_mstream *m = &s->items[i];
		struct wg_resources *work = &s->work;
		struct wg_ctx scratch;
		size_t shared = SIZE_MAX;

		/* the work list anew; its arena (and all it holds) stays */
		work->len = 0;
		work->select = NULL;
		next = i + 1;
		/* a Component is built as part of a root, never alone;
		 * one no root of the run builds is judged as a root */
		if (!m->nfiles || (m->component && !m->top))
			continue;
		for (size_t k = 0; k < m->nfiles; k++) {
			size_t f = m->files[k];

			if (mf[f].skip)
				continue;
			if (last[f] >= 0 && shared == SIZE_MAX)
				shared = f;
			for (size_t o = 0; o < cur.nobjs[f]; o++) {
				/* selected anew: a selection reads its
				 * stream (the RuntimeClasses in it) */
				cur.objs[f][o]->sel = NULL;
				wg_resources_append(work, cur.objs[f][o]);
			}
		}
		/* the files alone after it that may run with it */
		if (!m->root && joins(work->items, work->len, ids, &key)) {
			while (next < s->len && !s->items[next].root) {
				size_t f = s->items[next].files[0];

				if (!mf[f].skip && !joins(cur.objs[f],
							 cur.nobjs[f], ids,
							 &key))
					break;
				for (size_t o = 0; o < cur.nobjs[f]; o++) {
					cur.objs[f][o]->sel = NULL;
					wg_resources_append(work,
							    cur.objs[f][o]);
				}
				next++;
			}
		}
		wg_index_free(ids);
		ids = wg_index_new();
		if (!work->len)
			continue;
		if (shared != SIZE_MAX)
			text_of(&cur, shared, &before);
		wg_ctx_init(&scratch);
		scratch.limits = ctx->limits;
		scratch.strict = ctx->strict;
		scratch.skip_changes = ctx->skip_changes;
		scratch.keep_duplicates = ctx->keep_duplicates;
		if (wg_cli_run_chain(&scratch, p, work) != 0)
			rc = -1;
		merge(ctx, &scratch, p, said, pdiags, &pending, &key);
		wg_ctx_release(&scratch);
		ran++;
		/* the RuntimeClasses the chain made and kept */
		for (size_t j = 0; j < work->len; j++) {
			struct wg_resource *res = work->items[j];

			if ((res->flags & WG_RES_GENERATED)
			    && !(res->flags & WG_RES_DELETED)
			    && wg_is_kind(res, WG_KIND_RUNTIME_CLASS)) {
				m->gen = wg_xrealloc(m->gen, (m->ngen + 1)
						     * sizeof(*m->gen));
				m->gen[m->ngen++] = res;
			}
		}
		/* each file's objects, as this stream left them */
		for (size_t k = 0; k < run_files(s, i, next); k++) {
			size_t f = run_file(s, i, next, k), cnt = 0;
			struct wg_resource **o = wg_xcalloc(work->len + 1,
							    sizeof(*o));

			for (size_t j = 0; j < work->len; j++) {
				struct wg_resource *res = work->items[j];
				void *const *v;
				size_t hit;

				if ((res->flags & WG_RES_GENERATED)
				    || !res->file)
					continue;
				v = wg_index_get(by_name, res->file,
						 strlen(res->file), &hit);
				if (hit && (size_t)(uintptr_t)v[0] - 1 == f)
					o[cnt++] = res;
			}
			set_current(&cur, f, o, cnt);
			free(o);
		}
		if (shared != SIZE_MAX) {
			text_of(&cur, shared, &after);
			if (before.len != after.len
			    || memcmp(before.buf, after.buf, before.len))
				wg_report_at(ctx, WG_SEV_ERROR, names[shared],
					     0, 0, "built by %s and by %s, "
					     "which would edit it differently "
					     "(a Service or a duplicate there "
					     "sees other objects): migrate "
					     "them in separate runs, or make "
					     "them agree",
					     stream_name(&s->items[last[shared]],
							 names),
					     stream_name(m, names));
		}
		for (size_t k = 0; k < run_files(s, i, next); k++)
			last[run_file(s, i, next, k)] = (long)i;
	}
	/* a finding about the profile as a whole (an entry that selects
	 * nothing) holds when every stream made it */
	for (size_t i = 0; i < pending.ndiags; i++) {
		const struct wg_diag *d = &pending.diags[i];
		size_t count;

		diag_key(d, &key);
		wg_index_get(pdiags, key.buf, key.len, &count);
		if (count == ran)
			wg_log_add_diag(&ctx->log, d);
	}
	/* the list, in file order, as the streams left it */
	list->len = 0;
	for (size_t f = 0; f < n; f++)
		total += cur.nobjs[f];
	WG_GROW(list->items, list->cap, total + 1);
	for (size_t f = 0; f < n; f++)
		for (size_t o = 0; o < cur.nobjs[f]; o++)
			list->items[list->len++] = cur.objs[f][o];
	for (size_t f = 0; f < n; f++)
		free(cur.objs[f]);
	free(cur.objs);
	free(cur.nobjs);
	free(last);
	free(names);
	wg_index_free(said);
	wg_index_free(pdiags);
	wg_index_free(ids);
	wg_index_free(by_name);
	wg_log_release(&pending);
	wg_buf_release(&key);
	wg_buf_release(&before);
	wg_buf_release(&after);
	return rc;
}

void wg_mstreams_listed_rcs(struct wg_mstreams *s, size_t i,
			    struct wg_index *names)
{
	const struct wg_mstream *m = &s->items[i];
	struct wg_ctx quiet;
	struct wg_input in;
	struct wg_resources l;
	size_t n;

	if (!m->root || !m->lists_rc)
		return;
	wg_ctx_init(&quiet);
	wg_resources_init(&l);
	if (wg_input_read(&quiet, m->rc_file, &in) == 0) {
		if (wg_read_stream(&quiet, &in, &l) == 0)
			for (size_t k = 0; k < l.len; k++) {
				const struct wg_node *name =
					wg_resource_name_node(l.items[k]);

				if (!wg_is_kind(l.items[k],
						WG_KIND_RUNTIME_CLASS)
				    || !wg_is_scalar(name))
					continue;
				wg_index_get(names, name->u.str, name->len, &n);
				if (!n)
					wg_index_add(names, name->u.str,
						     name->len, NULL);
			}
		wg_resources_release(&l);
		wg_input_release(&in);
	} else {
		wg_resources_release(&l);
	}
	wg_ctx_release(&quiet);
}
