/*
 * The RuntimeClass file migrate writes: what it held before is kept
 * unless this run generates it again (cmd_migrate.c runtimeclasses()).
 */
#include "migrate_rcfile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"
#include "wingen/base/fileid.h"
#include "wingen/base/index.h"
#include "wingen/k8s/kinds.h"
#include "wingen/migrate/kust_edit.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

/* The API group of an apiVersion ("" for the core group's "v1"). */
static size_t group_len(const char *api_version)
{
	const char *slash = api_version ? strchr(api_version, '/') : NULL;

	return slash ? (size_t)(slash - api_version) : 0;
}

/* The same object in a cluster: API group, kind, namespace and name. */
static bool same_object(struct wg_arena *a, const struct wg_resource *x,
			const struct wg_resource *y)
{
	struct wg_ref rx, ry;
	size_t gx, gy;

	wg_resource_ref(a, x, &rx);
	wg_resource_ref(a, y, &ry);
	gx = group_len(rx.api_version);
	gy = group_len(ry.api_version);
	return gx == gy && (!gx || memcmp(rx.api_version, ry.api_version,
					  gx) == 0)
	       && strcmp(wg_resource_label(a, x), wg_resource_label(a, y)) == 0;
}

long wg_rcfile_keep_earlier(struct wg_ctx *ctx, const struct wg_input *in,
			    struct wg_resources *gen, struct wg_resources *old,
			    struct wg_buf *names)
{
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_ctx scratch;
	size_t generated = gen->len;
	long kept = 0;

	wg_ctx_init(&scratch);
	scratch.limits = ctx->limits;
	if (wg_read_stream(&scratch, in, old) || wg_ctx_failed(&scratch)) {
		const struct wg_diag *d = NULL;

		for (size_t i = 0; i < scratch.log.ndiags && !d; i++)
			if (scratch.log.diags[i].severity == WG_SEV_ERROR)
				d = &scratch.log.diags[i];
		wg_report_at(ctx, WG_SEV_ERROR, d ? d->file : in->name,
			     d ? d->line : 0, d ? d->col : 0,
			     "%s; migrate writes its RuntimeClasses to this "
			     "file and keeps what it holds, so it must read "
			     "(fix it, remove it, or give --runtimeclass-file)",
			     d ? d->message : "cannot be read");
		wg_ctx_release(&scratch);
		return -1;
	}
	wg_ctx_release(&scratch);
	for (size_t i = 0; i < old->len; i++) {
		struct wg_resource *res = old->items[i];
		bool again = false;

		for (size_t g = 0; g < generated && !again; g++)
			again = same_object(&a, gen->items[g], res);
		if (again)
			continue;
		wg_resources_append(gen, res);
		if (kept < WG_RCFILE_NAMED)
			wg_buf_addf(names, "%s%s", kept ? ", " : "",
				    wg_resource_label(&a, res));
		kept++;
	}
	if (kept > WG_RCFILE_NAMED)
		wg_buf_addf(names, " and %ld more", kept - WG_RCFILE_NAMED);
	wg_arena_release(&a);
	return kept;
}

void wg_rc_target_init(struct wg_rc_target *t, const char *path,
		       const char *kustomization)
{
	memset(t, 0, sizeof(*t));
	t->path = wg_xstrdup(path);
	t->kustomization = kustomization;
	wg_resources_init(&t->gen);
	wg_resources_init(&t->old);
}

void wg_rc_target_release(struct wg_rc_target *t)
{
	free(t->gen.items);	/* borrowed objects: not the arena's */
	t->gen.items = NULL;
	t->gen.len = 0;
	wg_resources_release(&t->gen);
	wg_resources_release(&t->old);
	wg_buf_release(&t->text);
	wg_buf_release(&t->kept_names);
	wg_buf_release(&t->kust_text);
	free(t->old_text);
	free(t->kust_old);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

void wg_rc_target_add(struct wg_rc_target *t, struct wg_resource *res)
{
	const struct wg_node *name = wg_resource_name_node(res);

	for (size_t i = 0; i < t->gen.len; i++) {
		const struct wg_node *n = wg_resource_name_node(t->gen.items[i]);

		if (wg_is_scalar(n) && wg_is_scalar(name) && n->len == name->len
		    && memcmp(n->u.str, name->u.str, n->len) == 0)
			return;
	}
	wg_resources_append(&t->gen, res);
	t->count++;
}

/* Reads path whole into *text (malloc'd) and what the read told into
 * *meta; false when it cannot. */
static bool slurp(const char *path, char **text, size_t *len,
		  struct wg_file_meta *meta)
{
	struct wg_ctx scratch;
	struct wg_input in;
	bool ok;

	wg_ctx_init(&scratch);
	ok = wg_input_read(&scratch, path, &in) == 0;
	wg_ctx_release(&scratch);
	if (!ok)
		return false;
	*len = in.len;
	*meta = in.meta;
	*text = wg_input_take_data(&in);
	wg_input_release(&in);
	return true;
}

int wg_rc_target_finish(struct wg_ctx *ctx, struct wg_rc_target *t)
{
	struct stat st;

	if (!t->count)
		return 0;
	if (stat(t->path, &st) == 0
	    && slurp(t->path, &t->old_text, &t->old_len, &t->meta)) {
		struct wg_input in = { t->path, t->old_text, t->old_len, 0,
				       WG_FILE_META_NONE, true };

		t->kept = wg_rcfile_keep_earlier(ctx, &in, &t->gen, &t->old,
						 &t->kept_names);
		if (t->kept < 0)
			return -1;
	}
	/* written only if still as read, or still absent */
	t->check = t->old_text || lstat(t->path, &st) != 0;
	if (wg_write_resources(ctx, &t->text, &t->gen, WG_FORMAT_YAML))
		return -1;
	if (t->kustomization
	    && slurp(t->kustomization, &t->kust_old, &t->kust_old_len,
		     &t->kust_meta)) {
		const char *slash = strrchr(t->path, '/');
		int rc = wg_kust_add_resource(ctx, t->kustomization,
					      t->kust_old, t->kust_old_len,
					      slash ? slash + 1 : t->path,
					      &t->kust_text);

		if (rc < 0)
			return -1;
		t->kust_changes = rc == 1;
	}
	return 0;
}

bool wg_rc_target_changes(const struct wg_rc_target *t)
{
	return t->count && (!t->old_text || t->old_len != t->text.len
			    || memcmp(t->old_text, t->text.buf,
				      t->text.len) != 0);
}

/* ---- which file gets which RuntimeClass -------------------------------- */

struct targets {
	struct wg_rc_target *items;
	size_t len;
};

/* The target of path, made when new (kustomization: the root's). */
static struct wg_rc_target *target(struct targets *ts, const char *path,
				   const char *kustomization)
{
	struct wg_buf a = WG_BUF_INIT, b = WG_BUF_INIT;
	struct wg_rc_target *t = NULL;

	wg_file_id(path, &a);
	for (size_t i = 0; i < ts->len && !t; i++) {
		wg_file_id(ts->items[i].path, &b);
		if (a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0)
			t = &ts->items[i];
	}
	if (!t) {
		ts->items = wg_xrealloc(ts->items, (ts->len + 1)
					* sizeof(*ts->items));
		t = &ts->items[ts->len++];
		wg_rc_target_init(t, path, NULL);
	}
	if (kustomization)
		t->kustomization = kustomization;
	wg_buf_release(&a);
	wg_buf_release(&b);
	return t;
}

/* Adds the name of a RuntimeClass res (not generated) to names. */
static void add_name(struct wg_index *names, const struct wg_resource *res)
{
	const struct wg_node *name = wg_resource_name_node(res);
	size_t n;

	if ((res->flags & (WG_RES_GENERATED | WG_RES_DELETED))
	    || !wg_is_kind(res, WG_KIND_RUNTIME_CLASS) || !wg_is_scalar(name))
		return;
	wg_index_get(names, name->u.str, name->len, &n);
	if (!n)
		wg_index_add(names, name->u.str, name->len, NULL);
}

static bool has_name(const struct wg_index *names, const struct wg_resource *res)
{
	const struct wg_node *name = wg_resource_name_node(res);
	size_t n = 0;

	if (wg_is_scalar(name))
		wg_index_get(names, name->u.str, name->len, &n);
	return n != 0;
}

size_t wg_rc_targets_make(struct wg_ctx *ctx, struct wg_mstreams *s,
			  const struct wg_migrate_file *mf, size_t n,
			  const char *run_file, struct wg_rc_target **out)
{
	struct targets ts = { NULL, 0 };
	struct wg_index *inputs = wg_index_new();

	/* RuntimeClasses the files alone hold themselves: kubectl apply
	 * -f DIR applies them with the rest */
	for (size_t f = 0; f < n && f < s->nalone; f++)
		for (size_t k = 0; s->alone[f] && k < mf[f].nmine; k++)
			add_name(inputs, mf[f].mine[k]);
	for (size_t i = 0; i < s->len; i++) {
		struct wg_mstream *m = &s->items[i];
		struct wg_index *listed;
		struct wg_rc_target *t = NULL;
		bool root = m->root && !m->component;

		if (!m->ngen || (root && !m->top))
			continue;	/* the roots building it get them */
		if (root && m->renames) {
			/* kustomize would rename a RuntimeClass listed
			 * there, and not the pods that name it */
			wg_report_at(ctx, WG_SEV_WARNING, m->kustomization, 0,
				     0, "its namePrefix or nameSuffix would "
				     "rename a RuntimeClass listed here, and "
				     "not the pods that name it: none is "
				     "added; install the RuntimeClasses once "
				     "(wingen runtimeclasses PROFILE | kubectl "
				     "apply -f -)");
			continue;
		}
		listed = wg_index_new();
		for (size_t k = 0; root && k < m->nsubs; k++)
			wg_mstreams_listed_rcs(s, m->subs[k], listed);
		for (size_t k = 0; k < m->ngen; k++) {
			if (has_name(root ? listed : inputs, m->gen[k]))
				continue;
			if (!t)
				t = root ? target(&ts, m->rc_file,
						  m->kustomization)
					 : target(&ts, run_file, NULL);
			wg_rc_target_add(t, m->gen[k]);
		}
		wg_index_free(listed);
	}
	wg_index_free(inputs);
	for (size_t i = 0; i < ts.len; i++)
		wg_rc_target_finish(ctx, &ts.items[i]);
	*out = ts.items;
	return ts.len;
}
