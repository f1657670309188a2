/*
 * runtime-class: one node.k8s.io/v1 RuntimeClass per profile build.
 *
 * The template is parsed once into a node tree; for each build a copy has
 * its placeholder scalars replaced by value nodes.  Values never pass
 * through YAML text, so a handler or label cannot inject structure.
 */
#include <stdarg.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/input.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/k8s/quantity.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"
#include "wingen/gen/runtimeclass.h"
#include "wingen/core/select.h"
#include "wingen/base/template.h"
#include "wingen/yaml/flow.h"
#include "wingen/k8s/keys.h"

#define TEMPLATE "runtimeclass.yaml"

/* What the placeholders of one build stand for. */
struct vars {
	const char *file;	/* the template, for messages */
	const char *runtime_class, *handler, *arch, *release, *build;
	const char *profile;
	const struct wg_node *toleration;
	const struct wg_node *overhead;	/* NULL: drop its key */
};

/* ---- the template ------------------------------------------------------- */

/*
 * Reads and parses the template into arena (its text is copied there, so
 * the tree outlives the input).  Returns the root mapping or NULL.
 */
static struct wg_node *load_template(struct wg_ctx *ctx,
				     const struct wg_profile *p,
				     struct wg_arena *arena, const char **file)
{
	struct wg_input in, src = { 0 };
	struct wg_reader r;
	struct wg_node *root = NULL, *extra = NULL;
	unsigned index;
	int rc = wg_profile_read_template(ctx, p, TEMPLATE, &in);

	if (rc < 0)
		return NULL;
	if (rc == 1) {
		src.name = wg_arena_strdup(arena, in.name);
		src.data = wg_arena_strndup(arena, in.data, in.len);
		src.len = in.len;
		wg_input_release(&in);
	} else {
		const struct wg_template *t = wg_template_find(TEMPLATE);

		if (!t) {
			wg_report_at(ctx, WG_SEV_ERROR, TEMPLATE, 0, 0,
				     "the template is not embedded");
			return NULL;
		}
		src.name = "<embedded>/" TEMPLATE;
		src.data = wg_arena_strndup(arena, t->data, t->len);
		src.len = t->len;
	}
	*file = src.name;
	wg_reader_init(&r, ctx, &src);
	rc = wg_reader_next(&r, arena, &root, &index);
	if (rc == 1 && wg_reader_next(&r, arena, &extra, &index) == 1) {
		wg_report_at(ctx, WG_SEV_ERROR, src.name, wg_node_line(extra) + 1,
			     wg_node_col(extra) + 1, "a template is one YAML "
			     "document; this is a second one");
		rc = -1;
	}
	if (rc == 0 || (rc == 1 && !wg_is_map(root))) {
		wg_report_at(ctx, WG_SEV_ERROR, src.name, root ? wg_node_line(root) + 1
			     : 0, root ? wg_node_col(root) + 1 : 0,
			     "the template must be a mapping (a RuntimeClass)");
		rc = -1;
	}
	if (r.failed)
		rc = -1;
	wg_reader_release(&r);
	return rc == 1 ? root : NULL;
}

/* ---- placeholders ------------------------------------------------------- */

static bool is_placeholder(const struct wg_node *n)
{
	if (!wg_is_scalar(n) || n->len < 2 || n->u.str[0] != '$')
		return false;
	for (uint32_t i = 1; i < n->len; i++) {
		char c = n->u.str[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}

static const char *string_var(const struct vars *v, const struct wg_node *n)
{
	static const struct {
		const char *name;
		size_t offset;
	} table[] = {
		{ "$runtimeClass", offsetof(struct vars, runtime_class) },
		{ "$handler", offsetof(struct vars, handler) },
		{ "$arch", offsetof(struct vars, arch) },
		{ "$release", offsetof(struct vars, release) },
		{ "$build", offsetof(struct vars, build) },
		{ "$profile", offsetof(struct vars, profile) },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (wg_scalar_is(n, table[i].name)) {
			const char *s;

			/* memcpy: the field is aligned, but the compiler
			 * cannot see it through a char pointer */
			memcpy(&s, (const char *)v + table[i].offset,
			       sizeof(s));
			return s;
		}
	return NULL;
}

/* Marks a copied subtree as wingen's own: no source position. */
static void mark_new(struct wg_node *n)
{
	n->flags |= WG_NODE_NEW;
	wg_node_set_pos(n, 0, 0);
	if (n->kind == WG_NODE_SCALAR)
		return;
	for (size_t i = 0; i < (n->kind == WG_NODE_MAP ? 2u * n->len : n->len);
	     i++)
		mark_new(n->u.items[i]);
}

/*
 * Replaces the placeholder in *slot and below.  *drop is set when the node
 * should go ($overhead with no overhead, or a mapping emptied by that).
 * Returns 0, or -1 for an unknown placeholder (reported).
 */
static int subst(struct wg_ctx *ctx, struct wg_arena *arena,
		 struct wg_node **slot, const struct vars *v, bool *drop)
{
	struct wg_node *n = *slot;
	const char *s;
	int rc = 0;

	*drop = false;
	if (n->kind == WG_NODE_SCALAR) {
		if (!is_placeholder(n))
			return 0;
		if ((wg_scalar_is(n, "$build") && !v->build)
		    || (wg_scalar_is(n, "$arch") && !v->arch)) {
			*drop = true;	/* a RuntimeClass of several builds
					   (or arches) */
			return 0;
		}
		if ((s = string_var(v, n))) {
			/* A quoted placeholder keeps its quotes: '$build'
			 * stays '10.0.20348', as the label value reads. */
			*slot = n->style == WG_STYLE_PLAIN
				? wg_node_new_str(arena, s)
				: wg_node_new_scalar(arena, s, strlen(s),
						     n->style);
		} else if (wg_scalar_is(n, "$toleration")) {
			*slot = wg_node_clone(arena, v->toleration);
		} else if (wg_scalar_is(n, "$overhead")) {
			if (v->overhead)
				*slot = wg_node_clone(arena, v->overhead);
			else
				*drop = true;
		} else {
			return wg_report_at(ctx, WG_SEV_ERROR, v->file,
					    wg_node_line(n) + 1, wg_node_col(n) + 1,
					    "unknown placeholder '%.*s'",
					    (int)n->len, n->u.str);
		}
		return 0;
	}
	if (n->kind == WG_NODE_SEQ) {
		for (size_t i = 0; i < n->len; i++) {
			bool d;

			if (subst(ctx, arena, &n->u.items[i], v, &d))
				rc = -1;
			if (d)
				wg_seq_delete_at(n, i--);
		}
		return rc;
	}
	if (n->len == 0)
		return 0;
	for (size_t i = 0; i < n->len; i++) {
		bool d;

		if (subst(ctx, arena, &n->u.items[2 * i + 1], v, &d))
			rc = -1;
		if (d)
			wg_map_delete_at(n, i--);
	}
	*drop = n->len == 0;
	return rc;
}

/* ---- validation --------------------------------------------------------- */

static size_t invalid(struct wg_ctx *ctx, const struct wg_resource *res,
		      const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Reports one violation; returns 1 so callers can count. */
static size_t invalid(struct wg_ctx *ctx, const struct wg_resource *res,
		      const char *field, const char *fmt, ...)
{
	struct wg_buf msg = WG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	wg_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	wg_error(ctx, res, NULL, field, "%s", msg.buf);
	wg_buf_release(&msg);
	return 1;
}

static char *text(struct wg_arena *a, const struct wg_node *n)
{
	return wg_is_scalar(n) ? wg_scalar_dup(a, n) : NULL;
}

static size_t check_labels(struct wg_ctx *ctx, const struct wg_resource *res,
			   struct wg_arena *a, const struct wg_node *m,
			   const char *field, bool values)
{
	size_t bad = 0;

	if (!m)
		return 0;
	if (!wg_is_map(m))
		return invalid(ctx, res, field, "%s", "expected a mapping");
	for (size_t i = 0; i < m->len; i++) {
		char *k = text(a, wg_map_key(m, i));
		char *val = text(a, wg_map_value(m, i));

		if (!k || !wg_is_label_key(k))
			bad += invalid(ctx, res, field, "'%s' is not a valid "
				       "label key", k ? k : "");
		else if (!val)
			bad += invalid(ctx, res, field, "the value of '%s' is "
				       "not a string", k);
		else if (values && !wg_is_label_value(val))
			bad += invalid(ctx, res, field, "'%s' is not a valid "
				       "label value", val);
	}
	return bad;
}

static const char *field_text(struct wg_arena *a, const struct wg_node *m,
			      const char *key)
{
	const struct wg_node *v = wg_map_get(m, key);

	return v ? text(a, v) : "";
}

static bool same_toleration(struct wg_arena *a, const struct wg_node *x,
			    const struct wg_node *y)
{
	static const char *const keys[] = { "key", "operator", "value",
					    "effect" };

	for (size_t k = 0; k < 4; k++) {
		const char *p = field_text(a, x, keys[k]);
		const char *q = field_text(a, y, keys[k]);

		if (!p || !q || strcmp(p, q) != 0)
			return false;
	}
	return true;
}

static size_t check_tolerations(struct wg_ctx *ctx,
				const struct wg_resource *res,
				struct wg_arena *a, const struct wg_node *seq)
{
	const char *field = "scheduling.tolerations";
	size_t bad = 0;

	if (!seq)
		return 0;
	if (!wg_is_seq(seq))
		return invalid(ctx, res, field, "%s", "expected a list");
	for (size_t i = 0; i < seq->len; i++) {
		const struct wg_node *t = wg_seq_item(seq, i);
		const char *key, *op, *value, *effect;

		if (!wg_is_map(t)) {
			bad += invalid(ctx, res, field, "%s", "a toleration "
				       "must be a mapping");
			continue;
		}
		key = field_text(a, t, "key");
		op = field_text(a, t, "operator");
		value = field_text(a, t, "value");
		effect = field_text(a, t, "effect");
		if (!key || !op || !value || !effect) {
			bad += invalid(ctx, res, field, "%s", "toleration "
				       "fields must be strings");
			continue;
		}
		if (*key && !wg_is_label_key(key))
			bad += invalid(ctx, res, field, "'%s' is not a valid "
				       "toleration key", key);
		if (!*key && strcmp(op, "Exists") != 0)
			bad += invalid(ctx, res, field, "%s", "an empty key "
				       "needs operator Exists");
		if (*op && strcmp(op, "Equal") && strcmp(op, "Exists"))
			bad += invalid(ctx, res, field, "'%s' is not an "
				       "operator (Equal or Exists)", op);
		if (strcmp(op, "Exists") == 0 && *value)
			bad += invalid(ctx, res, field, "%s", "operator Exists "
				       "takes no value");
		else if (!wg_is_label_value(value))
			bad += invalid(ctx, res, field, "'%s' is not a valid "
				       "toleration value", value);
		if (*effect && strcmp(effect, "NoSchedule")
		    && strcmp(effect, "PreferNoSchedule")
		    && strcmp(effect, "NoExecute"))
			bad += invalid(ctx, res, field, "'%s' is not a taint "
				       "effect", effect);
		/* The API server rejects the same (key, operator, value,
		 * effect) twice in one RuntimeClass. */
		for (size_t j = 0; j < i; j++) {
			if (same_toleration(a, wg_seq_item(seq, j), t)) {
				bad += invalid(ctx, res, field, "toleration "
					       "'%s' is listed twice", key);
				break;
			}
		}
	}
	return bad;
}

size_t wg_runtime_class_validate(struct wg_ctx *ctx,
				 const struct wg_resource *res)
{
	struct wg_arena a = WG_ARENA_INIT;
	const struct wg_node *root = res->root;
	const struct wg_node *sched = wg_map_get(root, "scheduling");
	const struct wg_node *pf = wg_path_get(root, "overhead.podFixed");
	const char *s;
	size_t bad = 0;

	if (!wg_scalar_is(wg_map_get(root, "apiVersion"),
			  wg_known_kinds[WG_KIND_RUNTIME_CLASS].api_version)
	    || !wg_is_kind(res, WG_KIND_RUNTIME_CLASS))
		bad += invalid(ctx, res, NULL, "%s", "not a node.k8s.io/v1 "
			       "RuntimeClass");
	s = text(&a, wg_path_get(root, "metadata.name"));
	if (!s || !wg_is_dns_subdomain(s))
		bad += invalid(ctx, res, "metadata.name", "'%s' is not a DNS "
			       "subdomain", s ? s : "");
	s = text(&a, wg_map_get(root, "handler"));
	if (!s || !wg_is_dns_label(s))
		bad += invalid(ctx, res, "handler", "'%s' is not a DNS label",
			       s ? s : "");
	bad += check_labels(ctx, res, &a, wg_path_get(root, "metadata.labels"),
			    "metadata.labels", true);
	bad += check_labels(ctx, res, &a,
			    wg_path_get(root, "metadata.annotations"),
			    "metadata.annotations", false);
	if (sched && !wg_is_map(sched)) {
		bad += invalid(ctx, res, "scheduling", "%s",
			       "expected a mapping");
	} else if (sched) {
		bad += check_labels(ctx, res, &a,
				    wg_map_get(sched, "nodeSelector"),
				    "scheduling.nodeSelector", true);
		bad += check_tolerations(ctx, res, &a,
					 wg_map_get(sched, "tolerations"));
	}
	if (pf && (!wg_is_map(pf) || pf->len == 0))
		bad += invalid(ctx, res, "overhead.podFixed", "%s",
			       "expected a mapping of resource quantities");
	wg_arena_release(&a);
	return bad;
}

/* ---- generation --------------------------------------------------------- */

/*
 * An input RuntimeClass is compared with the generated one on what makes
 * a RuntimeClass what it is, the fields the API server and the
 * RuntimeClass admission plugin read (k8s.io/api node/v1 RuntimeClass;
 * plugin/pkg/admission/runtimeclass/admission.go): handler, scheduling,
 * overhead.  Metadata is not compared: labels and annotations a release
 * tool adds (app.kubernetes.io/managed-by, kpt's and kustomize's own) say
 * nothing about the class, and the input's object, its metadata with it,
 * is the one kept.  overhead.podFixed compares as quantities by value, as
 * admission compares a pod's overhead with it (apiequality.Semantic:
 * "0.1" is "100m").
 */
static const char *const rc_fields[] = { "handler", "scheduling", "overhead" };

static const struct wg_node *field_of(const struct wg_node *root,
				      const char *key)
{
	const struct wg_node *v = wg_map_get(root, key);

	return wg_node_is_null(v) ? NULL : v;
}

static bool same_field(const char *key, const struct wg_node *a,
		       const struct wg_node *b)
{
	if (strcmp(key, "overhead") == 0 && (!a || wg_is_map(a))
	    && (!b || wg_is_map(b))) {
		if ((a ? a->len : 0) > 1 || (b ? b->len : 0) > 1)
			return wg_node_equal(a, b);	/* not only podFixed */
		return wg_resource_list_equal(field_of(a, "podFixed"),
					      field_of(b, "podFixed"));
	}
	return wg_node_equal(a, b);
}

static bool same_class(const struct wg_node *a, const struct wg_node *b)
{
	for (size_t i = 0; i < sizeof(rc_fields) / sizeof(*rc_fields); i++)
		if (!same_field(rc_fields[i], field_of(a, rc_fields[i]),
				field_of(b, rc_fields[i])))
			return false;
	return true;
}

/* The first path where a and b differ, into path; false when equal.
 * Quantities compare by value. */
static bool first_difference(const struct wg_node *a, const struct wg_node *b,
			     struct wg_buf *path)
{
	size_t mark = path->len;

	if (wg_node_equal(a, b) || wg_quantity_node_equal(a, b))
		return false;
	if (wg_is_map(a) && wg_is_map(b)) {
		for (size_t i = 0; i < a->len; i++) {
			const struct wg_node *k = wg_map_key(a, i);
			long j = wg_map_findn(b, k->u.str, k->len);

			wg_path_append_key(path, k->u.str, k->len);
			if (j < 0 || first_difference(
					     wg_map_value(a, i),
					     wg_map_value(b, (size_t)j), path))
				return true;
			path->len = mark;
			path->buf[mark] = '\0';
		}
		for (size_t i = 0; i < b->len; i++) {
			const struct wg_node *k = wg_map_key(b, i);

			if (wg_map_findn(a, k->u.str, k->len) < 0) {
				wg_path_append_key(path, k->u.str, k->len);
				return true;
			}
		}
	}
	return true;
}

static struct wg_resource *find_existing(struct wg_resources *list,
					 const char *name)
{
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];

		if (!(res->flags & (WG_RES_GENERATED | WG_RES_DELETED))
		    && wg_is_kind(res, WG_KIND_RUNTIME_CLASS)
		    && wg_scalar_is(wg_resource_name_node(res), name))
			return res;
	}
	return NULL;
}

static void report_conflict(struct wg_ctx *ctx,
			    const struct wg_resource *existing,
			    const struct wg_node *want, const char *what)
{
	const struct wg_node *have = existing->root;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *hv, *wv;
	struct wg_buf hs = WG_BUF_INIT, ws = WG_BUF_INIT;

	for (size_t i = 0; i < sizeof(rc_fields) / sizeof(*rc_fields); i++) {
		const char *k = rc_fields[i];

		if (same_field(k, field_of(have, k), field_of(want, k)))
			continue;
		wg_path_append_key(&path, k, strlen(k));
		if (field_of(have, k) && field_of(want, k)
		    && !first_difference(field_of(want, k), field_of(have, k),
					 &path))
			first_difference(field_of(have, k), field_of(want, k),
					 &path);
		break;
	}
	hv = wg_path_get(have, path.buf);
	wv = wg_path_get(want, path.buf);
	if (hv)
		wg_node_to_flow(&hs, hv);
	if (wv)
		wg_node_to_flow(&ws, wv);
	wg_error(ctx, existing, wg_path_get(existing->root, path.buf),
		 path.len ? path.buf : NULL,
		 "differs from the RuntimeClass the profile makes for "
		 "%s: %s here, %s from the profile; remove "
		 "it or make it match", what, hv ? hs.buf : "absent",
		 wv ? ws.buf : "absent");
	wg_buf_release(&hs);
	wg_buf_release(&ws);
	wg_buf_release(&path);
}

/*
 * The RuntimeClass of build b called name, from the template; any_build
 * leaves out the key holding $build (a RuntimeClass for several builds),
 * any_arch the one holding $arch (for several arches).
 * Sets *fatal when the template itself is wrong (the same for every
 * build).  Returns the resource, not in the list, or NULL after an error.
 */
static struct wg_resource *make(struct wg_ctx *ctx, struct wg_resources *list,
				const struct wg_node *tmpl, const char *file,
				const struct wg_build *b, const char *name,
				bool any_build, bool any_arch, bool *fatal)
{
	const struct wg_profile *p = ctx->profile;
	struct wg_arena *arena = &list->arena;
	struct vars v = {
		.file = file,
		.runtime_class = name,
		.handler = b->handler,
		.arch = any_arch ? NULL : b->arch,
		.release = b->release->name,
		.build = any_build ? NULL : b->release->build,
		.profile = p->name,
		.toleration = wg_taint_toleration(arena, &p->taint),
		.overhead = b->overhead,
	};
	struct wg_node *root = wg_node_clone(arena, tmpl);
	struct wg_resource *res;
	bool drop;

	*fatal = false;
	if (subst(ctx, arena, &root, &v, &drop)) {
		*fatal = true;
		return NULL;
	}
	mark_new(root);	/* after subst: its errors need positions */
	res = wg_resource_new(list, root, NULL, 0);
	res->flags |= WG_RES_GENERATED;
	if (wg_runtime_class_validate(ctx, res))
		return NULL;
	if (!wg_scalar_is(wg_path_get(root, "metadata.name"), name)) {
		wg_error(ctx, res, NULL, "metadata.name", "the template must "
			 "name the RuntimeClass $runtimeClass");
		return NULL;
	}
	return res;
}

/* Whether an input RuntimeClass called name is there: true when it is
 * (an error when it differs from want). */
static bool kept_existing(struct wg_ctx *ctx, struct wg_resources *list,
			  const struct wg_resource *want, const char *name,
			  const char *what)
{
	struct wg_resource *existing = find_existing(list, name);

	if (!existing)
		return false;
	if (!same_class(existing->root, want->root))
		report_conflict(ctx, existing, want->root, what);
	return true;
}

/*
 * Which builds get a RuntimeClass: the stream's RuntimeClasses come with
 * the workloads that need them, so build writes what migrate writes
 * beside the files and a CI gate (build --check) right after migrate
 * finds nothing to add.  A profile the user writes: every one of its
 * builds (the cluster runs them) when a Windows workload of the stream
 * targets one or a pod names one's RuntimeClass, and none on a stream
 * without (a Linux-only stream gets no Windows RuntimeClass).  The
 * embedded default profile lists every supported build only so that
 * each workload can go where its images run: there, only the builds a
 * Windows workload targets or a pod names.  An empty stream is the
 * bootstrap (wingen runtimeclasses): every build; the commands that
 * read manifests refuse an empty input before the chain runs.
 * HostProcess pods name no RuntimeClass and count for none.
 */
static void builds_used(struct wg_ctx *ctx, struct wg_resources *list,
			bool *used)
{
	const struct wg_profile *p = ctx->profile;
	bool user = !p->path || strcmp(p->path, "<default>") != 0;
	bool any = false, needed = false;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		struct wg_selection *sel;

		if (res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
			continue;
		any = true;
		sel = wg_select(ctx, list, res);
		for (size_t k = 0; sel->workload && k < sel->npods; k++) {
			const struct wg_node *rcn = wg_map_get(
				sel->pods[k].spec, "runtimeClassName");

			for (size_t j = 0; wg_is_scalar(rcn) && j < p->nbuilds;
			     j++)
				if (wg_scalar_is(rcn,
						 p->builds[j].runtime_class))
					used[j] = needed = true;
		}
		if (!sel->windows || sel->failed)
			continue;
		/* each pod of a kind whose pods are decided apart has its
		 * own build; a pod that cannot name a RuntimeClass (an Argo
		 * template) needs none */
		for (size_t k = 0; k < (sel->parts ? sel->npods : 1); k++) {
			const struct wg_selection *s = wg_select_pod(sel, k);

			if (!s->windows || s->any_build || s->no_runtime_class
			    || s->own_rc || wg_sel_keeps_foreign_rc(s)
			    || !wg_podspec_has(&sel->pods[k],
					       "runtimeClassName"))
				continue;
			for (size_t j = 0; j < p->nbuilds; j++) {
				bool t = s->build == &p->builds[j];

				for (size_t m = 0; m < s->ntargets; m++)
					t = t || s->targets[m]
						 == &p->builds[j];
				used[j] = used[j] || t;
				needed = needed || t;
			}
		}
	}
	for (size_t i = 0; i < p->nbuilds; i++)
		if (!any || (user && needed))
			used[i] = true;
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       const void *config)
{
	const struct wg_profile *p = ctx->profile;
	struct wg_arena *arena = &list->arena;
	struct wg_node *tmpl;
	const char *file = TEMPLATE;
	size_t inserted = 0;
	bool *used;

	(void)config;
	if (!p || !p->nbuilds)
		return 0;
	tmpl = load_template(ctx, p, arena, &file);
	if (!tmpl)
		return -1;
	used = wg_arena_zalloc(arena, p->nbuilds * sizeof(*used));
	builds_used(ctx, list, used);
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];
		struct wg_resource *res;
		bool fatal;

		/* made for the first build, used or not, and for each one
		 * an input RuntimeClass is named after: a template or an
		 * input RuntimeClass that is wrong is an error whatever
		 * the stream holds */
		if (i && !used[i] && !find_existing(list, b->runtime_class))
			continue;
		res = make(ctx, list, tmpl, file, b, b->runtime_class, false,
			   false, &fatal);
		if (fatal)
			return -1;
		if (!res || kept_existing(ctx, list, res, b->runtime_class,
					  wg_arena_printf(arena, "windows."
							  "builds[%zu]", i))
		    || !used[i])
			continue;
		wg_resources_insert(list, inserted++, res);
		wg_record_change(ctx, WG_CHANGE_CREATE, res, NULL, NULL, NULL,
				 NULL, wg_arena_printf(arena, "windows.builds"
						       "[%zu]: %s %s, handler "
						       "%s", i,
						       b->release->name,
						       b->arch, b->handler));
	}
	return 0;
}

const char *wg_runtime_class_multi(struct wg_ctx *ctx,
				   struct wg_resources *list,
				   const struct wg_build *b, bool any_arch)
{
	const struct wg_profile *p = ctx->profile;
	struct wg_arena *arena = &list->arena;
	const char *name = wg_arena_printf(arena, "%s-%s", b->runtime_class,
					   any_arch ? "multiarch" : "multi");
	size_t i = (size_t)(b - p->builds), pos = 0;
	const char *file = TEMPLATE, *what;
	struct wg_resource *res;
	struct wg_node *tmpl;
	bool fatal;

	for (size_t j = 0; j < p->nbuilds; j++) {
		if (strcmp(p->builds[j].runtime_class, name) == 0) {
			wg_report_at(ctx, WG_SEV_ERROR, p->path,
				     p->builds[j].pos.line,
				     p->builds[j].pos.col, "windows.builds"
				     "[%zu].runtimeClass: '%s' is the name "
				     "fan-out gives the RuntimeClass of "
				     "windows.builds[%zu] on several builds; "
				     "name the build otherwise", j, name, i);
			return NULL;
		}
	}
	for (size_t j = 0; j < list->len; j++) {
		res = list->items[j];
		if ((res->flags & WG_RES_GENERATED)
		    && wg_is_kind(res, WG_KIND_RUNTIME_CLASS)
		    && wg_scalar_is(wg_resource_name_node(res), name))
			return name;	/* made for another workload */
	}
	tmpl = load_template(ctx, p, arena, &file);
	if (!tmpl)
		return NULL;
	res = make(ctx, list, tmpl, file, b, name, true, any_arch, &fatal);
	what = wg_arena_printf(arena, "windows.builds[%zu] on several builds%s "
			       "(fan-out)", i, any_arch ? " and arches" : "");
	if (!res)
		return NULL;
	if (kept_existing(ctx, list, res, name, what))
		return name;
	while (pos < list->len && (list->items[pos]->flags & WG_RES_GENERATED))
		pos++;
	wg_resources_insert(list, pos, res);
	wg_record_change(ctx, WG_CHANGE_CREATE, res, NULL, NULL, NULL, NULL,
			 wg_arena_printf(arena, "%s: %s %s, handler %s, no "
					 "windows-build label%s", what,
					 b->release->name, b->arch,
					 b->handler, any_arch
					 ? ", no arch label" : ""));
	return name;
}

const struct wg_plugin wg_gen_runtime_class = {
	.name = "runtime-class",
	.summary = "one node.k8s.io/v1 RuntimeClass per profile build, first "
		   "in the output",
	.kind = WG_PLUGIN_GENERATOR,
	.run_list = run,
};
