/*
 * The profile of a KRM run, from the ResourceList's functionConfig: a
 * wingen Profile, a ConfigMap of settings, or nothing.  Both forms become
 * profile text loaded by the profile loader, so every check is the
 * loader's; its diagnostics are then moved back to where the user wrote
 * the setting in the ResourceList.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/krm/krm.h"
#include "wingen/yaml/reader.h"
#include "wingen/base/template.h"
#include "wingen/yaml/writer.h"
#include "wingen/k8s/keys.h"

/* The name the generated profile text is loaded under; its diagnostics
 * are rebased (see rebase()) and never show this name. */
#define FC_NAME "<functionConfig>"
/* The name the data.workloads text is read under (see workloads()). */
#define WORKLOADS_NAME "<data.workloads>"

enum key {
	K_RELEASE, K_RELEASES, K_DEFAULT, K_ARCH, K_HANDLER, K_RUNTIME_CLASS,
	K_TAINT, K_IMAGE, K_KINDS, K_NAME, K_NAMESPACE, K_LABELS,
	K_ANNOTATIONS, K_LINUX_PIN, K_SERVICES_FIX, K_NETWORK_MODE, K_DSR,
	K_TRANSFORMS, K_STRICT, K_NODES, K_WORKLOADS, K_COUNT
};

const struct wg_krm_key wg_krm_config_keys[] = {
	{ "release", "one target build: a release name, alias or build "
	  "number (ltsc2022, 2019, 10.0.20348)" },
	{ "releases", "several target builds, comma-separated "
	  "(ltsc2019,ltsc2022); the first is the default" },
	{ "default", "the build of a Windows workload that names none" },
	{ "arch", "the architecture of every build: amd64 or arm64" },
	{ "handler", "the CRI handler of every build" },
	{ "runtimeClass", "the RuntimeClass name (one build only)" },
	{ "taint", "the Windows nodes' taint: key=value:Effect or key:Effect" },
	{ "select-image", "Windows workloads: an image matches this pattern" },
	{ "select-kinds", "... and the kind is one of these (a comma list)" },
	{ "select-name", "... and the name matches this pattern (anchored)" },
	{ "select-namespace", "... and the namespace matches (anchored)" },
	{ "label-selector", "... and the labels match (app=web,tier!=db)" },
	{ "annotation-selector", "... and the annotations match" },
	{ "linux-pin", "true or false: pin every other workload to Linux" },
	{ "services-fix", "true or false: fix Services of Windows pods" },
	{ "network-mode", "overlay or l2bridge" },
	{ "dsr", "true or false: kube-proxy on Windows runs with DSR" },
	{ "transforms", "the plugin chain, comma-separated" },
	{ "strict", "true or false: warnings are errors" },
	{ "nodes", "the cluster's nodes, as the text 'kubectl get nodes -o "
	  "json' (or -o yaml) prints: the stream is checked against them "
	  "(as check --nodes does)" },
	{ "workloads", "more workload kinds: the YAML text of a profile's "
	  "workloads: list (- group: example.com, kind: PodFarm, "
	  "templates: [spec.template], ...)" },
	{ NULL, NULL },
};

struct cm {
	struct wg_ctx *ctx;
	struct wg_krm *krm;
	struct wg_arena *arena;
	const struct wg_node *key[K_COUNT];	/* as written, or NULL */
	const struct wg_node *val[K_COUNT];
	const char *text[K_COUNT];
	bool failed;
};

/* An error at a node of the ConfigMap; field is its data key, or NULL. */
__attribute__((format(printf, 4, 5)))
static void err(struct cm *cm, const struct wg_node *at, const char *field,
		const char *fmt, ...)
{
	struct wg_log *log = &cm->ctx->log;
	va_list ap;

	va_start(ap, fmt);
	wg_vreport_at(cm->ctx, WG_SEV_ERROR, cm->krm->in->name,
		      wg_node_line(at) + 1, wg_node_col(at) + 1, fmt, ap);
	va_end(ap);
	if (field)
		log->diags[log->ndiags - 1].field =
			wg_arena_printf(&log->arena, "data.%s", field);
	cm->failed = true;
}

static const char *name_of(enum key k)
{
	return wg_krm_config_keys[k].name;
}

/* ---- positions ----------------------------------------------------------- */

static int unplace_fn(struct wg_node *node, struct wg_node *key,
		      const char *path, void *payload)
{
	(void)path;
	(void)payload;
	wg_node_set_pos(node, 0, 0);
	if (key)
		wg_node_set_pos(key, 0, 0);
	return 0;
}

/* 0:0 everywhere: the default profile's nodes are no place of the
 * user's. */
static void unplace(struct wg_node *tree)
{
	wg_node_walk(tree, unplace_fn, NULL);
}

struct mark {
	struct wg_krm *krm;
	const struct wg_node *from;
};

static void add_origin(struct wg_krm *krm, const struct wg_node *made,
		       const struct wg_node *from)
{
	WG_GROW(krm->fc_origins, krm->fc_origins_cap, krm->nfc_origins + 1);
	krm->fc_origins[krm->nfc_origins].made = made;
	krm->fc_origins[krm->nfc_origins++].from = from;
}

static int mark_fn(struct wg_node *node, struct wg_node *key,
		   const char *path, void *payload)
{
	const struct mark *m = payload;

	(void)path;
	add_origin(m->krm, node, m->from);
	if (key)
		add_origin(m->krm, key, m->from);
	return 0;
}

/* Records that node and everything under it were made of the setting
 * whose value is the node from. */
static struct wg_node *stamp(struct cm *cm, struct wg_node *node,
			     const struct wg_node *from)
{
	struct mark m = { cm->krm, from };

	if (from)
		wg_node_walk(node, mark_fn, &m);
	return node;
}

static const struct wg_node *origin(const struct wg_krm *krm,
				    const struct wg_node *n)
{
	for (size_t i = 0; i < krm->nfc_origins; i++)
		if (krm->fc_origins[i].made == n)
			return krm->fc_origins[i].from;
	return NULL;
}

/* Records, in document order, where each node of gen (the profile text
 * read back) came from in src (the tree it was written from). */
static void pair(struct wg_krm *krm, size_t *cap, const struct wg_node *gen,
		 const struct wg_node *src)
{
	struct wg_krm_pos *p;

	WG_GROW(krm->fc_pos, *cap, krm->nfc_pos + 1);
	p = &krm->fc_pos[krm->nfc_pos++];
	p->line = wg_node_line(gen);
	p->col = wg_node_col(gen);
	p->src = src;
	if (gen->kind != src->kind || gen->len != src->len
	    || wg_is_scalar(gen))
		return;
	for (size_t i = 0; i < (wg_is_map(gen) ? 2u : 1u) * gen->len; i++)
		pair(krm, cap, gen->u.items[i], src->u.items[i]);
}

/* The entry at or last before line:col (0-based), or NULL. */
static const struct wg_krm_pos *find_pos(const struct wg_krm *krm,
					 uint32_t line, uint32_t col)
{
	size_t lo = 0, hi = krm->nfc_pos;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct wg_krm_pos *p = &krm->fc_pos[mid];

		if (p->line < line || (p->line == line && p->col <= col))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* A block mapping starts where its first key does: of the nodes at
	 * one place, the outermost the user wrote. */
	hi = --lo;
	while (lo > 0 && krm->fc_pos[lo - 1].line == krm->fc_pos[hi].line
	       && krm->fc_pos[lo - 1].col == krm->fc_pos[hi].col)
		lo--;
	for (size_t i = lo; i <= hi; i++)
		if (origin(krm, krm->fc_pos[i].src)
		    || wg_node_line(krm->fc_pos[i].src)
		    || wg_node_col(krm->fc_pos[i].src))
			return &krm->fc_pos[i];
	return &krm->fc_pos[hi];
}

/* The data key of the ConfigMap functionConfig whose value is v, or
 * NULL. */
static const char *data_key(struct wg_arena *arena, const struct wg_krm *krm,
			    const struct wg_node *v)
{
	const struct wg_node *data = wg_map_get(krm->function_config, "data");

	for (size_t i = 0; wg_is_map(data) && i < data->len; i++)
		if (wg_map_value(data, i) == v)
			return wg_scalar_dup(arena, wg_map_key(data, i));
	return NULL;
}

void wg_krm_rebase(struct wg_ctx *ctx, const struct wg_krm *krm,
		   size_t first)
{
	const struct wg_node *fc = krm->function_config;
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_ref ref = { 0 };

	if (fc) {
		ref.api_version = wg_scalar_dup(&scratch,
						wg_map_get(fc, "apiVersion"));
		ref.kind = wg_scalar_dup(&scratch, wg_map_get(fc, "kind"));
		ref.name = wg_scalar_dup(&scratch,
					 wg_path_get(fc, "metadata.name"));
	}
	for (size_t i = first; i < ctx->log.ndiags; i++) {
		struct wg_diag *d = &ctx->log.diags[i];
		const struct wg_krm_pos *p;
		const struct wg_node *at = fc, *from = NULL;
		const char *key = NULL;

		if (!d->file || strcmp(d->file, FC_NAME) != 0)
			continue;
		p = d->line ? find_pos(krm, d->line - 1, d->col ? d->col - 1
							       : 0) : NULL;
		/* A setting's node: at the setting.  A profile's: where it
		 * is.  0:0: the default profile's, no place of the user's. */
		if (p && (from = origin(krm, p->src))) {
			at = from;
			key = data_key(&scratch, krm, from);
		} else if (p && (wg_node_line(p->src)
				 || wg_node_col(p->src))) {
			at = p->src;
		}
		if (key && strcmp(key, "workloads") == 0 && d->field
		    && strncmp(d->field, key, strlen(key)) == 0)
			/* The setting is a list: which entry, which field. */
			d->field = wg_arena_printf(&ctx->log.arena, "data.%s",
						   d->field);
		else if (key)
			d->field = wg_arena_printf(&ctx->log.arena, "data.%s",
						   key);
		if (from && p->src != from
		    && (wg_node_line(p->src) || wg_node_col(p->src)))
			/* A node read from a setting's text (workloads) has
			 * its place in that text: a block scalar or a
			 * quoted string with escapes has no exact place in
			 * the ResourceList, so say it in the message. */
			d->message = wg_arena_printf(&ctx->log.arena,
				"line %u column %u of the text: %s",
				(unsigned)wg_node_line(p->src) + 1,
				(unsigned)wg_node_col(p->src) + 1,
				d->message);
		d->file = wg_arena_strdup(&ctx->log.arena, krm->in->name);
		d->line = at ? wg_node_line(at) + 1 : 0;
		d->col = at ? wg_node_col(at) + 1 : 0;
		if (ref.kind && !d->ref.kind)
			wg_log_copy_ref(&ctx->log, &d->ref, &ref);
	}
	wg_arena_release(&scratch);
}

/* Writes tree as text, loads it as the profile, and maps the text's
 * positions back to tree's (which are the ResourceList's). */
static int load_tree(struct wg_ctx *ctx, struct wg_krm *krm,
		     struct wg_node *tree, const struct wg_profile_opts *opts,
		     struct wg_profile *out)
{
	struct wg_arena *arena = &krm->list.arena;
	struct wg_buf text = WG_BUF_INIT;
	struct wg_yaml_writer w;
	size_t first = ctx->log.ndiags, cap = 0;
	int rc;

	wg_yaml_writer_init(&w, &text);
	if (wg_yaml_writer_doc(&w, tree) || wg_yaml_writer_finish(&w)) {
		rc = wg_report_at(ctx, WG_SEV_ERROR, krm->in->name, 0, 0,
				  "cannot write the functionConfig as a "
				  "profile: %s", w.error);
	} else {
		struct wg_input in = { FC_NAME, wg_arena_strndup(arena,
				       text.buf, text.len), text.len, 0,
				       WG_FILE_META_NONE, false };
		struct wg_reader r;
		struct wg_node *gen = NULL;
		unsigned index;

		wg_reader_init(&r, ctx, &in);
		if (wg_reader_next(&r, arena, &gen, &index) == 1 && gen)
			pair(krm, &cap, gen, tree);
		wg_reader_release(&r);
		rc = wg_profile_load_data(ctx, FC_NAME, text.buf, text.len,
					  opts, out);
	}
	wg_yaml_writer_release(&w);
	wg_buf_release(&text);
	wg_krm_rebase(ctx, krm, first);
	return rc;
}

/* ---- a Profile ---------------------------------------------------------- */

static int from_profile(struct wg_ctx *ctx, struct wg_krm *krm,
			const struct wg_profile_opts *opts,
			struct wg_profile *out)
{
	struct wg_node *tree = wg_node_clone(&krm->list.arena,
					     krm->function_config);
	struct wg_node *meta = wg_map_get(tree, "metadata");
	long k = wg_map_find(tree, "resources");

	/* kpt annotates the functionConfig (index, seqindent); only the
	 * name means something to a profile. */
	if (wg_is_map(meta))
		for (size_t i = meta->len; i-- > 0;)
			if (!wg_scalar_is(wg_map_key(meta, i), "name"))
				wg_map_delete_at(meta, i);
	if (k >= 0) {
		const struct wg_node *key = wg_map_key(tree, (size_t)k);

		wg_report_at(ctx, WG_SEV_WARNING, krm->in->name,
			     wg_node_line(key) + 1, wg_node_col(key) + 1,
			     "'resources' of the functionConfig is ignored: "
			     "a KRM function works on the ResourceList's "
			     "items");
		wg_map_delete_at(tree, (size_t)k);
	}
	return load_tree(ctx, krm, tree, opts, out);
}

/* ---- a ConfigMap --------------------------------------------------------- */

/* A true/false setting as a plain scalar, or NULL (reported). */
static struct wg_node *boolean(struct cm *cm, enum key k)
{
	if (strcmp(cm->text[k], "true") != 0
	    && strcmp(cm->text[k], "false") != 0) {
		err(cm, cm->val[k], name_of(k), "'%s' is not true or false",
		    cm->text[k]);
		return NULL;
	}
	return stamp(cm, wg_node_new_plain(cm->arena, cm->text[k]),
		     cm->val[k]);
}

/* Sets key of m to value unless value is NULL (a bad setting). */
static void set(struct cm *cm, struct wg_node *m, const char *key,
		struct wg_node *value)
{
	if (value)
		wg_map_set(cm->arena, m, key, value);
}

static struct wg_node *str(struct cm *cm, enum key k, const char *s)
{
	return stamp(cm, wg_node_new_str(cm->arena, s), cm->val[k]);
}

/* A comma-separated list as a sequence of strings, or NULL (reported). */
static struct wg_node *list(struct cm *cm, enum key k)
{
	struct wg_node *seq = stamp(cm, wg_node_new_seq(cm->arena),
				    cm->val[k]);
	const char *p = cm->text[k];

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!len) {
			err(cm, cm->val[k], name_of(k),
			    "'%s' has an empty entry", cm->text[k]);
			return NULL;
		}
		wg_seq_append(cm->arena, seq,
			      stamp(cm, wg_node_new_strn(cm->arena, p, len),
				    cm->val[k]));
		if (!end)
			return seq;
		p = end + 1;
	}
}

/* key=value:Effect or key:Effect (no value: the toleration is Exists);
 * NULL when it is neither (reported). */
static struct wg_node *taint(struct cm *cm)
{
	const char *s = cm->text[K_TAINT], *colon = strrchr(s, ':');
	const char *eq = strchr(s, '=');
	struct wg_node *t = stamp(cm, wg_node_new_map(cm->arena),
				  cm->val[K_TAINT]);
	struct wg_arena *a = cm->arena;

	if (eq && colon && eq > colon)
		eq = NULL;
	if (!colon || colon == s || eq == s || !colon[1]) {
		err(cm, cm->val[K_TAINT], name_of(K_TAINT), "'%s' is not a "
		    "taint: write "
		    "key=value:Effect or key:Effect", s);
		return NULL;
	}
	wg_map_set(a, t, "key", str(cm, K_TAINT,
				     wg_arena_strndup(a, s, (size_t)((eq ? eq
								 : colon)
								- s))));
	if (eq)
		wg_map_set(a, t, "value", str(cm, K_TAINT,
			   wg_arena_strndup(a, eq + 1,
					    (size_t)(colon - eq - 1))));
	wg_map_set(a, t, "effect", str(cm, K_TAINT, colon + 1));
	return t;
}

/*
 * The diagnostics from first on that the reader gave about the
 * data.workloads text: at the value in the ResourceList, the place in
 * the text in the message (as data.nodes).
 */
static void place_text(struct cm *cm, size_t first)
{
	struct wg_log *log = &cm->ctx->log;
	const struct wg_node *v = cm->val[K_WORKLOADS];

	for (size_t i = first; i < log->ndiags; i++) {
		struct wg_diag *d = &log->diags[i];

		if (!d->file || strcmp(d->file, WORKLOADS_NAME) != 0)
			continue;
		d->message = wg_arena_printf(&log->arena, "line %u column %u "
					     "of the text: %s",
					     (unsigned)d->line,
					     (unsigned)d->col, d->message);
		d->file = wg_arena_strdup(&log->arena, cm->krm->in->name);
		d->line = wg_node_line(v) + 1;
		d->col = wg_node_col(v) + 1;
		d->field = "data.workloads";
		cm->failed = true;
	}
}

/*
 * data.workloads: the YAML text of a profile's workloads: list, read into
 * nodes that keep their places in the text (rebase names them) and are
 * stamped as made of the setting; NULL when the text is not one YAML
 * list (reported).  The loader checks the entries, as in a Profile.
 */
static struct wg_node *workloads(struct cm *cm)
{
	const struct wg_node *v = cm->val[K_WORKLOADS];
	struct wg_input in = { WORKLOADS_NAME, wg_arena_strndup(cm->arena,
			       v->u.str, v->len), v->len, 0,
			       WG_FILE_META_NONE, false };
	struct wg_node *seq = NULL, *more = NULL;
	size_t first = cm->ctx->log.ndiags;
	struct wg_reader r;
	unsigned index;
	int rc;

	wg_reader_init(&r, cm->ctx, &in);
	rc = wg_reader_next(&r, cm->arena, &seq, &index);
	if (rc == 1)
		rc = wg_reader_next(&r, cm->arena, &more, &index);
	wg_reader_release(&r);
	place_text(cm, first);
	if (rc < 0 || cm->ctx->log.ndiags > first)
		return NULL;
	if (more) {
		err(cm, v, name_of(K_WORKLOADS), "data.workloads holds more "
		    "than one YAML document: give one list");
		return NULL;
	}
	if (!wg_is_seq(seq)) {
		err(cm, v, name_of(K_WORKLOADS), "data.workloads is not a "
		    "YAML list: write the entries of a profile's workloads: "
		    "(- group: example.com, kind: PodFarm, templates: "
		    "[spec.template])");
		return NULL;
	}
	return stamp(cm, seq, v);
}

static void set_builds(struct cm *cm, struct wg_node *windows)
{
	struct wg_arena *a = cm->arena;
	enum key rk = cm->val[K_RELEASES] ? K_RELEASES : K_RELEASE;
	struct wg_node *builds, *releases = NULL, *first;

	if (cm->val[K_RELEASE] && cm->val[K_RELEASES])
		err(cm, cm->key[K_RELEASES], name_of(K_RELEASES), "'release' "
		    "and 'releases' are two ways to say the same: give one");
	if (cm->val[rk] && (releases = list(cm, rk))) {
		if (rk == K_RELEASE && releases->len > 1)
			err(cm, cm->val[rk], name_of(rk), "'%s' names several "
			    "builds: use 'releases'", cm->text[rk]);
		builds = stamp(cm, wg_node_new_seq(a), cm->val[rk]);
		for (size_t i = 0; i < releases->len; i++) {
			struct wg_node *b = stamp(cm, wg_node_new_map(a),
						  cm->val[rk]);

			wg_map_set(a, b, "release", wg_seq_item(releases, i));
			wg_seq_append(a, builds, b);
		}
		wg_map_set(a, windows, "builds", builds);
		first = releases->len ? wg_seq_item(releases, 0) : NULL;
		if (!cm->val[K_DEFAULT] && first)
			wg_map_set(a, windows, "default",
				   stamp(cm, wg_node_clone(a, first),
					 cm->val[rk]));
	}
	if (!releases) {
		/* The embedded default routes by image over every supported
		 * build; settings are a profile of the user's, one build
		 * unless they name more, as before. */
		struct wg_node *b = wg_node_new_map(a);

		builds = wg_node_new_seq(a);
		wg_map_set(a, b, "release", wg_node_new_str(a, "ltsc2022"));
		wg_seq_append(a, builds, b);
		wg_map_set(a, windows, "builds", builds);
		if (!cm->val[K_DEFAULT])
			wg_map_set(a, windows, "default",
				   wg_node_new_str(a, "ltsc2022"));
	}
	if (cm->val[K_RUNTIME_CLASS] && releases && releases->len > 1)
		err(cm, cm->key[K_RUNTIME_CLASS], name_of(K_RUNTIME_CLASS),
		    "'runtimeClass' names one RuntimeClass but there are "
		    "several builds (%s)", cm->text[rk]);
	builds = wg_map_get(windows, "builds");
	for (size_t i = 0; wg_is_seq(builds) && i < builds->len; i++) {
		struct wg_node *b = wg_seq_item(builds, i);

		if (cm->val[K_ARCH])
			wg_map_set(a, b, "arch", str(cm, K_ARCH,
						     cm->text[K_ARCH]));
		if (cm->val[K_HANDLER])
			wg_map_set(a, b, "handler", str(cm, K_HANDLER,
							cm->text[K_HANDLER]));
		if (cm->val[K_RUNTIME_CLASS])
			wg_map_set(a, b, "runtimeClass",
				   str(cm, K_RUNTIME_CLASS,
				       cm->text[K_RUNTIME_CLASS]));
	}
	if (cm->val[K_DEFAULT])
		wg_map_set(a, windows, "default", str(cm, K_DEFAULT,
						      cm->text[K_DEFAULT]));
}

static void set_select(struct cm *cm, struct wg_node *windows)
{
	static const struct {
		enum key k;
		const char *field;
	} fields[] = {
		{ K_IMAGE, "image" }, { K_KINDS, "kinds" },
		{ K_NAME, "name" }, { K_NAMESPACE, "namespace" },
		{ K_LABELS, "labelSelector" },
		{ K_ANNOTATIONS, "annotationSelector" },
	};
	struct wg_arena *a = cm->arena;
	struct wg_node *entry = NULL, *seq;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		enum key k = fields[i].k;

		if (!cm->val[k])
			continue;
		if (!entry)
			entry = stamp(cm, wg_node_new_map(a), cm->val[k]);
		set(cm, entry, fields[i].field, k == K_KINDS
		    ? list(cm, k) : str(cm, k, cm->text[k]));
	}
	if (!entry) {
		/* The loader gives a profile without windows.select the
		 * default image rules, as a catalog, not as the user's
		 * choice (no "matches nothing" warnings). */
		wg_map_delete(windows, "select");
		return;
	}
	seq = wg_node_new_seq(a);
	wg_seq_append(a, seq, entry);
	wg_map_set(a, windows, "select", seq);
}

static void apply(struct cm *cm, struct wg_node *tree)
{
	struct wg_arena *a = cm->arena;
	struct wg_node *windows = wg_map_ensure_map(a, tree, "windows");

	set_builds(cm, windows);
	if (cm->val[K_TAINT])
		set(cm, windows, "taint", taint(cm));
	set_select(cm, windows);
	if (cm->val[K_DSR] || cm->val[K_NETWORK_MODE]) {
		struct wg_node *net = wg_map_ensure_map(a, windows, "network");

		if (cm->val[K_DSR])
			set(cm, net, "dsr", boolean(cm, K_DSR));
		if (cm->val[K_NETWORK_MODE])
			set(cm, net, "mode", str(cm, K_NETWORK_MODE,
						 cm->text[K_NETWORK_MODE]));
	}
	if (cm->val[K_SERVICES_FIX])
		set(cm, wg_map_ensure_map(a, windows, "services"), "fix",
		    boolean(cm, K_SERVICES_FIX));
	if (cm->val[K_LINUX_PIN])
		set(cm, wg_map_ensure_map(a, tree, "linux"), "pin",
		    boolean(cm, K_LINUX_PIN));
	if (cm->val[K_TRANSFORMS])
		set(cm, tree, "transforms", list(cm, K_TRANSFORMS));
	if (cm->val[K_WORKLOADS])
		set(cm, tree, "workloads", workloads(cm));
	if (cm->val[K_STRICT] && boolean(cm, K_STRICT))
		cm->ctx->strict = strcmp(cm->text[K_STRICT], "true") == 0;
}

static void read_keys(struct cm *cm, const struct wg_node *data)
{
	const char *names[K_COUNT];

	for (size_t k = 0; k < K_COUNT; k++)
		names[k] = wg_krm_config_keys[k].name;
	for (size_t i = 0; i < data->len; i++) {
		const struct wg_node *key = wg_map_key(data, i);
		const struct wg_node *val = wg_map_value(data, i);
		const char *name = wg_scalar_dup(cm->arena, key);
		size_t k = 0;

		while (k < K_COUNT && strcmp(names[k], name) != 0)
			k++;
		if (k == K_COUNT) {
			const char *hint = wg_suggest(name, names, K_COUNT);

			if (hint)
				err(cm, key, name, "unknown setting '%s'; did "
				    "you mean '%s'?", name, hint);
			else
				err(cm, key, name, "unknown setting '%s' (see "
				    "'wingen help fn')", name);
			continue;
		}
		if (!wg_is_scalar(val) || wg_node_is_null(val)) {
			err(cm, val, name, "'%s' needs a value", name);
			continue;
		}
		cm->key[k] = key;
		cm->val[k] = val;
		cm->text[k] = wg_scalar_dup(cm->arena, val);
		/* not a profile setting: read by wg_krm_nodes_read() */
		if (k == K_NODES)
			cm->krm->fc_nodes = val;
	}
}

static int from_config_map(struct wg_ctx *ctx, struct wg_krm *krm,
			   const struct wg_profile_opts *opts,
			   struct wg_profile *out)
{
	const struct wg_template *t = wg_template_find(WG_PROFILE_DEFAULT);
	const struct wg_node *data = wg_map_get(krm->function_config, "data");
	struct wg_arena *arena = &krm->list.arena;
	struct cm cm = { .ctx = ctx, .krm = krm, .arena = arena };
	struct wg_input in = { FC_NAME, NULL, 0, 0, WG_FILE_META_NONE,
			       false };
	struct wg_reader r;
	struct wg_node *tree = NULL;
	unsigned index;
	int rc = -1;

	if (wg_is_map(data))
		read_keys(&cm, data);
	else if (!wg_node_is_null(data))
		err(&cm, data, NULL, "'data' of the functionConfig ConfigMap "
		    "is not a mapping");
	if (!t)
		return wg_report_at(ctx, WG_SEV_ERROR, krm->in->name, 0, 0,
				    "the default profile is not embedded");
	in.data = wg_arena_strndup(arena, t->data, t->len);
	in.len = t->len;
	wg_reader_init(&r, ctx, &in);
	if (wg_reader_next(&r, arena, &tree, &index) != 1)
		tree = NULL;
	wg_reader_release(&r);
	if (tree) {
		/* Settings with bad values are left out, so the loader still
		 * reports on every other one. */
		unplace(tree);
		apply(&cm, tree);
		rc = load_tree(ctx, krm, tree, opts, out);
	}
	if (rc == 0 && cm.failed) {
		wg_profile_release(out);
		rc = -1;
	}
	return rc;
}

/* ---- the functionConfig -------------------------------------------------- */

static int load(struct wg_ctx *ctx, struct wg_krm *krm,
		const struct wg_profile_opts *opts, struct wg_profile *out)
{
	const struct wg_node *fc = krm->function_config;
	const struct wg_node *api = wg_map_get(fc, "apiVersion");
	const struct wg_node *kind = wg_map_get(fc, "kind");
	struct wg_arena scratch = WG_ARENA_INIT;
	int rc;

	if (!fc)
		return wg_profile_load_default(ctx, opts, out);
	if (!wg_is_map(fc))
		return -1;	/* reported by wg_krm_read() */
	if (wg_scalar_is(kind, "Profile") && wg_is_scalar(api)
	    && api->len > 11 && memcmp(api->u.str, WG_DOMAIN, 11) == 0)
		return from_profile(ctx, krm, opts, out);
	if (wg_scalar_is(kind, "ConfigMap") && wg_scalar_is(api, "v1"))
		return from_config_map(ctx, krm, opts, out);
	rc = wg_report_at(ctx, WG_SEV_ERROR, krm->in->name,
			  wg_node_line(fc) + 1, wg_node_col(fc) + 1,
			  "functionConfig of kind '%s' "
			  "(apiVersion '%s') is not supported: give a %s "
			  "Profile or a ConfigMap",
			  kind ? wg_scalar_dup(&scratch, kind) : "",
			  api ? wg_scalar_dup(&scratch, api) : "",
			  WG_PROFILE_API_VERSION);
	wg_arena_release(&scratch);
	return rc;
}

int wg_krm_profile(struct wg_ctx *ctx, struct wg_krm *krm,
		   const struct wg_profile_opts *opts, struct wg_profile *out)
{
	const struct wg_node *fc = krm->function_config;
	size_t first = ctx->log.ndiags;
	int rc = load(ctx, krm, opts, out);
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_ref ref = { 0 };

	/* What was said about the functionConfig names it as its object. */
	if (wg_is_map(fc)) {
		ref.api_version = wg_scalar_dup(&scratch,
						wg_map_get(fc, "apiVersion"));
		ref.kind = wg_scalar_dup(&scratch, wg_map_get(fc, "kind"));
		ref.name = wg_scalar_dup(&scratch,
					 wg_path_get(fc, "metadata.name"));
	}
	for (size_t i = first; ref.kind && i < ctx->log.ndiags; i++)
		if (!ctx->log.diags[i].ref.kind)
			wg_log_copy_ref(&ctx->log, &ctx->log.diags[i].ref,
					&ref);
	wg_arena_release(&scratch);
	return rc;
}
