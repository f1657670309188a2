/*
 * KRM functions: reading a ResourceList into resources, writing one back
 * with the results.  The functionConfig is turned into a profile by
 * krm_config.c.
 */
#include "wingen/krm/krm.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/scalar.h"
#include "wingen/yaml/writer.h"
#include "wingen/k8s/keys.h"

const char *const wg_krm_api_versions[] = {
	WG_KRM_V1,
	WG_KRM_V1BETA1,
	WG_KRM_V2ALPHA1,
	NULL,
};

#define ANN "metadata.annotations."

void wg_krm_init(struct wg_krm *krm)
{
	memset(krm, 0, sizeof(*krm));
	wg_resources_init(&krm->list);
}

void wg_krm_release(struct wg_krm *krm)
{
	free(krm->items);
	free(krm->fc_pos);
	free(krm->fc_origins);
	wg_resources_release(&krm->list);
	memset(krm, 0, sizeof(*krm));
}

static struct wg_node *annotation(const struct wg_node *root, const char *key)
{
	const struct wg_node *ann = wg_path_get(root, "metadata.annotations");
	struct wg_node *v = wg_map_get(ann, key);

	return wg_is_scalar(v) ? v : NULL;
}

/* The item's path and index, as kpt writes them: the internal keys, with
 * the legacy ones as a fallback (older orchestrators send only those). */
static void locate(struct wg_arena *arena, const struct wg_node *root,
		   struct wg_krm_item *it)
{
	struct wg_node *path = annotation(root, WG_KRM_PATH);
	struct wg_node *index = annotation(root, WG_KRM_INDEX);

	if (!path)
		path = annotation(root, WG_KRM_PATH_LEGACY);
	if (!index)
		index = annotation(root, WG_KRM_INDEX_LEGACY);
	it->path = path ? wg_scalar_dup(arena, path) : NULL;
	it->index = index ? (unsigned)strtoul(wg_scalar_dup(arena, index),
					      NULL, 10) : 0;
}

/* Objects the function must not touch: local configuration (kustomize
 * drops it from its output; kpt keeps it) and kpt's own Kptfile. */
static bool held(const struct wg_node *root)
{
	const struct wg_node *api = wg_map_get(root, "apiVersion");

	if (wg_scalar_is(annotation(root, WG_KRM_LOCAL_CONFIG), "true"))
		return true;
	return wg_scalar_is(wg_map_get(root, "kind"), "Kptfile")
	       && wg_is_scalar(api) && api->len > 8
	       && memcmp(api->u.str, "kpt.dev/", 8) == 0;
}

__attribute__((format(printf, 4, 5)))
static int at(struct wg_ctx *ctx, const struct wg_input *in,
	      const struct wg_node *n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wg_vreport_at(ctx, WG_SEV_ERROR, in->name, wg_node_line(n) + 1,
			   wg_node_col(n) + 1, fmt, ap);
	va_end(ap);
	return rc;
}

static const char *node_kind(const struct wg_node *n)
{
	return wg_is_map(n) ? "mapping" : wg_is_seq(n) ? "sequence"
							: "scalar";
}

static void add_items(struct wg_ctx *ctx, struct wg_krm *krm,
		      const struct wg_node *items)
{
	struct wg_arena *arena = &krm->list.arena;
	const char *file = wg_arena_strdup(arena, krm->in->name);

	for (size_t i = 0; i < items->len; i++) {
		struct wg_node *item = wg_seq_item(items, i);
		struct wg_resource *res;
		struct wg_krm_item *it;

		if (!wg_is_map(item)) {
			wg_report_at(ctx, WG_SEV_ERROR, krm->in->name,
				     wg_node_line(item) + 1,
				     wg_node_col(item) + 1,
				     "items[%zu]: expected an object, found "
				     "a %s", i, node_kind(item));
			continue;
		}
		res = wg_resource_new(&krm->list, item, file, (unsigned)i);
		it = wg_arena_zalloc(arena, sizeof(*it));
		it->pos = i;
		it->held = held(item);
		locate(arena, item, it);
		res->payload = it;
		WG_GROW(krm->items, krm->items_cap, krm->nitems + 1);
		krm->items[krm->nitems++] = res;
		if (!it->held)
			wg_resources_append(&krm->list, res);
	}
}

static bool known_api_version(const struct wg_node *v)
{
	for (size_t i = 0; wg_krm_api_versions[i]; i++)
		if (wg_scalar_is(v, wg_krm_api_versions[i]))
			return true;
	return false;
}

int wg_krm_read(struct wg_ctx *ctx, const struct wg_input *in,
		struct wg_krm *krm)
{
	struct wg_arena *arena = &krm->list.arena;
	size_t errors = ctx->log.counts[WG_SEV_ERROR];
	struct wg_node *root = NULL, *extra = NULL, *v;
	struct wg_reader r;
	unsigned index;
	long k;
	int rc;

	krm->in = in;
	wg_reader_init(&r, ctx, in);
	r.limit_depth = 3;	/* the limit is per item, not per list */
	if (krm->list.share_keys) {	/* the items' keys only */
		r.shared_keys = &krm->list;
		r.share_in_seq_depth = 2;
	}
	rc = wg_reader_next(&r, arena, &root, &index);
	if (rc == 1 && wg_reader_next(&r, arena, &extra, &index) == 1
	    && !wg_node_is_null(extra))
		at(ctx, in, extra, "a ResourceList is one YAML document; "
		   "this is a second one");
	wg_reader_release(&r);
	if (rc < 0 || r.failed)
		return -1;
	if (rc == 0 || wg_node_is_null(root))
		return wg_report_at(ctx, WG_SEV_ERROR, in->name, 0, 0,
				    "the input is empty: a KRM function "
				    "reads a ResourceList");
	if (!wg_is_map(root))
		return at(ctx, in, root, "expected a ResourceList, found a %s",
			  node_kind(root));
	krm->flow = root->flags & WG_NODE_FLOW;
	v = wg_map_get(root, "kind");
	if (!wg_scalar_is(v, "ResourceList"))
		return at(ctx, in, v ? v : root, "expected kind ResourceList, "
			  "not '%s'", v ? wg_scalar_dup(arena, v) : "");
	v = wg_map_get(root, "apiVersion");
	if (known_api_version(v))
		krm->api_version = v;
	else
		at(ctx, in, v ? v : root, "apiVersion '%s' of ResourceList is "
		   "not supported (use config.kubernetes.io/v1)",
		   v && wg_is_scalar(v) ? wg_scalar_dup(arena, v) : "");
	k = wg_map_find(root, "functionConfig");
	if (k >= 0 && !wg_node_is_null(wg_map_value(root, (size_t)k))) {
		krm->fc_key = wg_map_key(root, (size_t)k);
		krm->function_config = wg_map_value(root, (size_t)k);
		if (!wg_is_map(krm->function_config))
			at(ctx, in, krm->function_config, "functionConfig: "
			   "expected an object, found a %s",
			   node_kind(krm->function_config));
	}
	v = wg_map_get(root, "items");
	if (wg_is_seq(v))
		add_items(ctx, krm, v);
	else if (!wg_node_is_null(v))
		at(ctx, in, v, "items: expected a sequence, found a %s",
		   node_kind(v));
	return ctx->log.counts[WG_SEV_ERROR] > errors ? -1 : 0;
}

bool wg_krm_sniff(const struct wg_input *in)
{
	struct wg_ctx ctx;
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_reader r;
	struct wg_node *root = NULL;
	unsigned index;
	bool yes;

	wg_ctx_init(&ctx);
	wg_reader_init(&r, &ctx, in);
	yes = wg_reader_next(&r, &arena, &root, &index) == 1
	      && wg_scalar_is(wg_map_get(root, "kind"), "ResourceList");
	wg_reader_release(&r);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	return yes;
}

/* ---- generated objects -------------------------------------------------- */

void wg_krm_annotate_generated(struct wg_krm *krm)
{
	struct wg_arena *arena = &krm->list.arena;
	unsigned next = 0;

	/* A file of that name in the package keeps its documents. */
	for (size_t i = 0; i < krm->nitems; i++) {
		const struct wg_krm_item *it = krm->items[i]->payload;

		if (it->path && strcmp(it->path, WG_KRM_GENERATED_PATH) == 0
		    && it->index >= next)
			next = it->index + 1;
	}
	for (size_t i = 0; i < krm->list.len; i++) {
		struct wg_resource *res = krm->list.items[i];
		struct wg_node *meta, *ann;
		const char *index;

		if (!(res->flags & WG_RES_GENERATED) || res->payload
		    || (res->flags & WG_RES_DELETED)
		    || annotation(res->root, WG_KRM_PATH)
		    || annotation(res->root, WG_KRM_PATH_LEGACY))
			continue;
		meta = wg_map_ensure_map(arena, res->root, "metadata");
		ann = meta ? wg_map_ensure_map(arena, meta, "annotations")
			   : NULL;
		if (!ann)
			continue;
		index = wg_arena_printf(arena, "%u", next++);
		wg_map_set(arena, ann, WG_KRM_INDEX_LEGACY,
			   wg_node_new_str(arena, index));
		wg_map_set(arena, ann, WG_KRM_PATH_LEGACY,
			   wg_node_new_str(arena, WG_KRM_GENERATED_PATH));
		wg_map_set(arena, ann, WG_KRM_INDEX,
			   wg_node_new_str(arena, index));
		wg_map_set(arena, ann, WG_KRM_PATH,
			   wg_node_new_str(arena, WG_KRM_GENERATED_PATH));
	}
}

/* ---- results ------------------------------------------------------------- */

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Where the object a record names was read from: its item's path and
 * index annotations; for a generated object, the ones it was given. */
static bool ref_file(struct wg_krm *krm, const struct wg_ref *ref,
		     const char **path, unsigned *index)
{
	if (ref->file && strcmp(ref->file, krm->in->name) == 0) {
		/* items are in position order: a binary search */
		size_t lo = 0, hi = krm->nitems;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct wg_krm_item *it =
				krm->items[mid]->payload;

			if (it->pos == ref->index) {
				*path = it->path;
				*index = it->index;
				return it->path != NULL;
			}
			if (it->pos < ref->index)
				lo = mid + 1;
			else
				hi = mid;
		}
		return false;
	}
	if (ref->file || !ref->kind)
		return false;
	for (size_t i = 0; i < krm->list.len; i++) {
		const struct wg_resource *res = krm->list.items[i];
		struct wg_arena scratch = WG_ARENA_INIT;
		struct wg_krm_item it = { 0 };
		struct wg_ref r;
		bool same;

		if (!(res->flags & WG_RES_GENERATED))
			continue;
		wg_resource_ref(&scratch, res, &r);
		same = str_eq(r.kind, ref->kind) && str_eq(r.name, ref->name)
		       && str_eq(r.namespace_, ref->namespace_);
		if (same)
			locate(&krm->list.arena, res->root,
			       &it);
		wg_arena_release(&scratch);
		if (same) {
			*path = it.path;
			*index = it.index;
			return it.path != NULL;
		}
	}
	return false;
}

static void set_str(struct wg_arena *arena, struct wg_node *m,
		    const char *key, const char *value)
{
	if (value)
		wg_map_set(arena, m, key, wg_node_new_str(arena, value));
}

static void add_ref(struct wg_arena *arena, struct wg_node *r,
		    const struct wg_ref *ref)
{
	if (ref->kind || ref->name) {
		struct wg_node *rr = wg_map_set(arena, r, "resourceRef",
						wg_node_new_map(arena));

		set_str(arena, rr, "apiVersion", ref->api_version);
		set_str(arena, rr, "kind", ref->kind);
		set_str(arena, rr, "name", ref->name);
		set_str(arena, rr, "namespace", ref->namespace_);
	}
}

static void add_file(struct wg_arena *arena, struct wg_krm *krm,
		     struct wg_node *r, const struct wg_ref *ref)
{
	const char *path;
	unsigned index;

	if (ref_file(krm, ref, &path, &index)) {
		struct wg_node *f = wg_map_set(arena, r, "file",
					       wg_node_new_map(arena));

		set_str(arena, f, "path", path);
		wg_map_set(arena, f, "index", wg_node_new_plain(arena,
			   wg_arena_printf(arena, "%u", index)));
	}
}

/* A value of the change log (one-line flow YAML) as a node again. */
static struct wg_node *value_node(struct wg_arena *arena, const char *text)
{
	struct wg_input in = { "<value>", wg_arena_strdup(arena, text),
			       strlen(text), 0, WG_FILE_META_NONE, false };
	struct wg_ctx ctx;
	struct wg_reader r;
	struct wg_node *root = NULL;
	unsigned index;

	wg_ctx_init(&ctx);
	wg_reader_init(&r, &ctx, &in);
	if (wg_reader_next(&r, arena, &root, &index) != 1 || r.failed)
		root = NULL;
	wg_reader_release(&r);
	wg_ctx_release(&ctx);
	return root ? root : wg_node_new_str(arena, text);
}

static const char *verb(enum wg_change_op op)
{
	switch (op) {
	case WG_CHANGE_ADD:
		return "added";
	case WG_CHANGE_REMOVE:
		return "removed";
	case WG_CHANGE_CREATE:
		return "created";
	default:
		return "set";
	}
}

/* The result of one diagnostic, built in arena. */
static struct wg_node *diag_result(struct wg_ctx *ctx, struct wg_krm *krm,
				   struct wg_arena *arena,
				   const struct wg_diag *d)
{
	struct wg_node *r = wg_node_new_map(arena);
	enum wg_severity sev = d->severity;

	if (sev == WG_SEV_WARNING && ctx->strict)
		sev = WG_SEV_ERROR;
	set_str(arena, r, "message", d->message);
	set_str(arena, r, "severity", wg_severity_name(sev));
	add_ref(arena, r, &d->ref);
	if (d->field) {
		struct wg_node *f = wg_map_set(arena, r, "field",
					       wg_node_new_map(arena));

		set_str(arena, f, "path", d->field);
	}
	add_file(arena, krm, r, &d->ref);
	return r;
}

/* The result of one change of the log (severity info), built in arena. */
static struct wg_node *change_result(struct wg_krm *krm,
				     struct wg_arena *arena,
				     const struct wg_change *c)
{
	struct wg_node *r = wg_node_new_map(arena);
	const char *msg = c->reason
		? wg_arena_printf(arena, "%s by %s: %s", verb(c->op),
				  c->plugin ? c->plugin : "wingen", c->reason)
		: wg_arena_printf(arena, "%s by %s", verb(c->op),
				  c->plugin ? c->plugin : "wingen");

	set_str(arena, r, "message", msg);
	set_str(arena, r, "severity", "info");
	add_ref(arena, r, &c->ref);
	if (c->field) {
		struct wg_node *f = wg_map_set(arena, r, "field",
					       wg_node_new_map(arena));

		set_str(arena, f, "path", c->field);
		if (c->old_value)
			wg_map_set(arena, f, "currentValue",
				   value_node(arena, c->old_value));
		if (c->new_value
		    && wg_scalar_is(krm->api_version, WG_KRM_V2ALPHA1)) {
			/* v2alpha1: a list (the spec's one breaking change) */
			struct wg_node *vs = wg_node_new_seq(arena);

			wg_seq_append(arena, vs,
				      value_node(arena, c->new_value));
			wg_map_set(arena, f, "proposedValues", vs);
		} else if (c->new_value) {
			wg_map_set(arena, f, "proposedValue",
				   value_node(arena, c->new_value));
		}
	}
	add_file(arena, krm, r, &c->ref);
	return r;
}

/* ---- writing ------------------------------------------------------------- */

/* JSON in: block collections, and plain scalars where quotes are not
 * needed to keep a string a string. */
static int unflow(struct wg_node *node, struct wg_node *key, const char *path,
		  void *payload)
{
	(void)path;
	(void)payload;
	node->flags &= (uint16_t)~WG_NODE_FLOW;
	if (key && key->style == WG_STYLE_DOUBLE && !wg_node_tag(key)
	    && !wg_scalar_needs_quotes(key->u.str, key->len))
		key->style = WG_STYLE_PLAIN;
	if (wg_is_scalar(node) && node->style == WG_STYLE_DOUBLE
	    && !wg_node_tag(node)
	    && !wg_scalar_needs_quotes(node->u.str, node->len))
		node->style = WG_STYLE_PLAIN;
	return 0;
}

static struct wg_node *items(struct wg_krm *krm, struct wg_arena *arena)
{
	struct wg_node *seq = wg_node_new_seq(arena);
	size_t h = 0;	/* next item of krm->items that may be held */

	/* Held items go back before the first chain item that followed
	 * them in the input; generated objects stay where the chain put
	 * them. */
	for (size_t i = 0; i < krm->list.len; i++) {
		struct wg_resource *res = krm->list.items[i];
		const struct wg_krm_item *it = res->payload;

		for (; it && h < krm->nitems; h++) {
			const struct wg_krm_item *ht = krm->items[h]->payload;

			if (ht->pos >= it->pos)
				break;
			if (ht->held)
				wg_seq_append(arena, seq, krm->items[h]->root);
		}
		if (!(res->flags & WG_RES_DELETED))
			wg_seq_append(arena, seq, res->root);
	}
	for (; h < krm->nitems; h++)
		if (((const struct wg_krm_item *)krm->items[h]->payload)->held)
			wg_seq_append(arena, seq, krm->items[h]->root);
	return seq;
}

size_t wg_krm_check_writable(struct wg_ctx *ctx, const struct wg_krm *krm)
{
	size_t n = 0;

	for (size_t i = 0; i < krm->list.len; i++) {
		const struct wg_resource *res = krm->list.items[i];
		const struct wg_node *bad;

		if (res->flags & WG_RES_DELETED)
			continue;
		bad = wg_yaml_unwritable(res->root);
		if (bad) {
			wg_error(ctx, res, bad, NULL, "cannot write YAML: "
				 "generated text is not valid UTF-8");
			n++;
		}
	}
	return n;
}

static int write_list(struct wg_ctx *ctx, struct wg_krm *krm,
		      struct wg_buf *out, wg_yaml_sink sink, void *data);

int wg_krm_write(struct wg_ctx *ctx, struct wg_krm *krm, struct wg_buf *out)
{
	return write_list(ctx, krm, out, NULL, NULL);
}

int wg_krm_write_sink(struct wg_ctx *ctx, struct wg_krm *krm,
		      wg_yaml_sink sink, void *data)
{
	struct wg_buf stage = WG_BUF_INIT;
	int rc = write_list(ctx, krm, &stage, sink, data);

	wg_buf_release(&stage);
	return rc;
}

/*
 * The results are written one at a time, each built in a scratch arena
 * that is cleared once it is written: a run with a change on every
 * object would otherwise hold a tree of them as large as the items.
 */
static int write_results(struct wg_ctx *ctx, struct wg_krm *krm,
			 struct wg_yaml_writer *w)
{
	struct wg_arena scratch = WG_ARENA_INIT;
	size_t nchanges = krm->unchanged ? 0 : ctx->log.nchanges;
	int rc = 0;

	if (ctx->log.ndiags + nchanges == 0)
		return 0;
	rc = wg_yaml_writer_key(w, "results") || wg_yaml_writer_begin_seq(w);
	for (size_t i = 0; !rc && i < ctx->log.ndiags + nchanges; i++) {
		struct wg_node *r = i < ctx->log.ndiags
			? diag_result(ctx, krm, &scratch, &ctx->log.diags[i])
			: change_result(krm, &scratch,
				&ctx->log.changes[i - ctx->log.ndiags]);

		if (krm->flow)
			wg_node_walk(r, unflow, NULL);
		rc = wg_yaml_writer_node(w, r);
		wg_arena_clear(&scratch);
	}
	wg_arena_release(&scratch);
	return rc || wg_yaml_writer_end_seq(w) ? -1 : 0;
}

static int write_list(struct wg_ctx *ctx, struct wg_krm *krm,
		      struct wg_buf *out, wg_yaml_sink sink, void *data)
{
	struct wg_arena *arena = &krm->list.arena;
	struct wg_node *api = krm->api_version
		? krm->api_version
		: wg_node_new_str(arena, wg_krm_api_versions[0]);
	struct wg_node *list = items(krm, arena);
	struct wg_yaml_writer w;
	int rc;

	/* kpt writes what the function returns into the user's files:
	 * JSON in gives block YAML out. */
	if (krm->flow) {
		wg_node_walk(api, unflow, NULL);
		wg_node_walk(list, unflow, NULL);
	}
	wg_yaml_writer_init(&w, out);
	if (sink)
		wg_yaml_writer_set_sink(&w, sink, data);
	rc = wg_yaml_writer_begin_doc(&w) || wg_yaml_writer_begin_map(&w)
	     || wg_yaml_writer_key(&w, "apiVersion")
	     || wg_yaml_writer_node(&w, api)
	     || wg_yaml_writer_key(&w, "kind")
	     || wg_yaml_writer_node(&w, wg_node_new_str(arena, "ResourceList"))
	     || wg_yaml_writer_key(&w, "items")
	     || wg_yaml_writer_node(&w, list)
	     || write_results(ctx, krm, &w)
	     || wg_yaml_writer_end_map(&w) || wg_yaml_writer_end_doc(&w)
	     || wg_yaml_writer_finish(&w);
	if (rc)
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "cannot write the ResourceList: %s", w.error);
	wg_yaml_writer_release(&w);
	return rc ? -1 : 0;
}
