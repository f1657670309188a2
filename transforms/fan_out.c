/*
 * fan-out: one workload per target build.
 *
 * A Windows workload that targets several builds (select.h: annotation
 * wingen.dev/windows-builds, or a windows.select entry with several
 * builds) becomes, before the scheduling transforms run:
 *
 *  - one workload on every target, when its images come out the same for
 *    every target and one RuntimeClass fits them all (same arch, handler
 *    and overhead): required node affinity node.kubernetes.io/windows-build
 *    In [...] in every term takes the place of the nodeSelector key, and
 *    the pods name RuntimeClass <first target's runtimeClass>-multi, which
 *    has no build label (gen/runtimeclass.c makes it when the chain has
 *    the runtime-class generator).  A node agent on builds of several
 *    arches (select.h arches) may differ in arch: its RuntimeClass is
 *    <...>-multiarch, with no arch label either, and node-selector writes
 *    kubernetes.io/arch In [...];
 *  - else one copy per target, in target order: the workload itself is
 *    edited into the first copy and the others follow it in the stream
 *    (same file, so migrate writes them as new documents after it).  Copy
 *    k is named <name>-<suffix> (the release in lower case; the build's
 *    RuntimeClass name when two targets share a release), carries
 *    annotation wingen.dev/windows-build naming its build (so later runs
 *    and the other transforms know it: the singular annotation wins over
 *    wingen.dev/windows-builds, which stays) and label
 *    wingen.dev/windows-build: <suffix> on its pods and in its selector,
 *    so copies never select each other's pods; Services, whose selectors
 *    do not name the label, select every copy.  Its images are rewritten
 *    for its build.
 *
 * HorizontalPodAutoscalers that scale a fanned-out workload get one copy
 * per build, like it; PodDisruptionBudgets stay shared, and a diagnostic
 * says so (a warning for minAvailable, which one build's pods can meet
 * alone; an info for maxUnavailable, which then counts every build).
 *
 * Images, per target build: tx_image_for_build() (images.c), the
 * profile's windows.images rules, else the image families
 * (wingen/k8s/images.h).  An image that then still names a release or
 * arch the target cannot run is an error that shows a rule that would
 * rewrite it: nothing is fanned out.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "images.h"
#include "tx.h"
#include "wingen/base/alloc.h"
#include "wingen/base/index.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/images.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/core/pipeline.h"
#include "wingen/gen/runtimeclass.h"
#include "wingen/k8s/keys.h"


struct target {
	const struct wg_build *b;
	const char *suffix;	/* of names, and the label's value */
	const char *key;	/* annotation value that names b */
	const char **images;	/* per container, for this build */
};

/* A workload fanned out into copies, for its HPAs and PDBs. */
struct fanned {
	const char *kind, *group, *ns, *name;	/* as read */
	const char *label;	/* "Deployment/web", as read */
	const struct wg_node **pod_labels;	/* of each pod template, */
	size_t npods;			/* before the build label */
	const struct target *t;
	size_t n;
};

struct run {
	struct wg_ctx *ctx;
	struct wg_resources *list;
	struct wg_arena *arena;
	const struct wg_profile *p;
	struct fanned *fanned;
	size_t nfanned, cap;
	struct wg_buf path;
	size_t cursor;	/* the last workload copied sits here or later */
	/* the fanned workloads by namespace and name, and by namespace,
	 * once all are known: an HPA or a PDB looks up its own, not every
	 * fanned workload (quadratic on a stream of many) */
	struct wg_index *by_name, *by_ns;
};

/* Orchestrator identities a copy must not share with its original. */
static const char *const id_annotations[] = {
	WG_KRM_CONFIG_ID, WG_KRM_ID,
	WG_KUSTOMIZE_ID,
};

/* Where kpt and kustomize's KRM runners write an object back: a copy
 * gets the next free index in its original's file, since they refuse two
 * objects at one path and index. */
static const char *const krm_paths[] = {
	WG_KRM_PATH, WG_KRM_PATH_LEGACY,
};
static const char *const krm_indexes[] = {
	WG_KRM_INDEX, WG_KRM_INDEX_LEGACY,
};

static const char *str(struct wg_arena *a, const struct wg_node *n)
{
	return wg_is_scalar(n) ? wg_scalar_dup(a, n) : NULL;
}

/* The KRM index of a copy: one past the highest of its file (per kind of
 * annotation, internal or legacy), so kpt writes it after the others. */
static void krm_index(struct run *r, struct wg_resource *copy)
{
	struct wg_node *ann = wg_path_get(copy->root, "metadata.annotations");

	for (size_t k = 0; k < 2; k++) {
		const struct wg_node *path = wg_map_get(ann, krm_paths[k]);
		unsigned long next = 0;

		if (!wg_is_scalar(path) || !wg_map_get(ann, krm_indexes[k]))
			continue;
		for (size_t i = 0; i < r->list->len; i++) {
			const struct wg_node *a = wg_path_get(
				r->list->items[i]->root,
				"metadata.annotations");
			const char *v = str(r->arena, wg_map_get(a,
							  krm_indexes[k]));
			unsigned long n;

			if (!v || !wg_node_equal(wg_map_get(a, krm_paths[k]),
						 path))
				continue;
			n = strtoul(v, NULL, 10);
			if (n + 1 > next)
				next = n + 1;
		}
		wg_map_set(r->arena, ann, krm_indexes[k], wg_node_new_str(
			   r->arena, wg_arena_printf(r->arena, "%lu", next)));
	}
}

/* The namespace as written; "" when missing (see services.c). */
static const char *ns_of(struct wg_arena *a, const struct wg_resource *res)
{
	const char *ns = str(a, wg_resource_namespace_node(res));

	return ns ? ns : "";
}

/* The API group of an apiVersion, in a; NULL when there is none. */
static const char *group_of(struct wg_arena *a, const struct wg_node *api)
{
	const char *g;
	size_t len;

	return wg_api_group(api, &g, &len) ? wg_arena_strndup(a, g, len)
					    : NULL;
}

/* path = base, then each key (NULL-terminated), escaped as wg_path_get()
 * reads it. */
static const char *path_of(struct wg_buf *path, const char *base, ...)
{
	va_list ap;
	const char *key;

	wg_buf_reset(path);
	wg_buf_addstr(path, base);
	va_start(ap, base);
	while ((key = va_arg(ap, const char *)))
		wg_path_append_key(path, key, strlen(key));
	va_end(ap);
	return path->buf;
}

/* A container of the workload, in the order wg_container_next gives. */
struct box {
	struct wg_node *image;	/* NULL when it has none */
	const char *field;
};

/* Every container of every pod template of sel, in order. */
static size_t containers(struct run *r, const struct wg_selection *sel,
			 struct box **out)
{
	struct wg_container_iter it;
	struct wg_container c;
	size_t n = 0;

	for (size_t k = 0; k < sel->npods; k++) {
		wg_container_iter_init(&it, sel->pods[k].spec);
		while (wg_container_next(&it, &c))
			n++;
	}
	*out = wg_arena_zalloc(r->arena, (n ? n : 1) * sizeof(**out));
	n = 0;
	for (size_t k = 0; k < sel->npods; k++) {
		const struct wg_podspec *ps = &sel->pods[k];

		wg_container_iter_init(&it, ps->spec);
		while (wg_container_next(&it, &c)) {
			struct wg_node *image = wg_map_get(c.node, "image");

			(*out)[n].image = wg_is_scalar(image) ? image : NULL;
			(*out)[n].field = wg_arena_strdup(r->arena,
				wg_container_path(&r->path, ps, &c, "image",
						  (const char *)NULL));
			n++;
		}
	}
	return n;
}

/* Fills every target's images; false after an error (reported). */
static bool plan_images(struct run *r, struct wg_resource *res,
			const struct wg_selection *sel, struct target *t,
			size_t n, const struct box *box, size_t nbox)
{
	bool ok = true;

	for (size_t k = 0; k < n; k++) {
		const struct wg_release *host = t[k].b->release;

		t[k].images = wg_arena_zalloc(r->arena, (nbox ? nbox : 1)
					      * sizeof(*t[k].images));
		for (size_t i = 0; i < nbox; i++) {
			struct wg_image_ref ref;
			enum wg_image_fit fit;
			const char *img, *note;
			bool same;

			if (!box[i].image)
				continue;
			img = tx_image_for_build(r->ctx, r->p, r->arena, res,
						 box[i].image, box[i].field,
						 t[k].b, &note);
			if (!img)	/* the rule fails for every target */
				return false;
			t[k].images[i] = img;
			wg_image_parse(img, strlen(img), &ref);
			fit = wg_image_fit(&ref, host, t[k].b->arch,
					   t[k].b->handler);
			if (fit != WG_FIT_RELEASE && fit != WG_FIT_ARCH)
				continue;
			same = strlen(img) == box[i].image->len
			       && memcmp(img, box[i].image->u.str,
					 box[i].image->len) == 0;
			wg_error(r->ctx, res, box[i].image, box[i].field,
				 "'%s'%s is built for %s, which %s%s hosts "
				 "cannot run%s (%s targets %s)%s%s; add a "
				 "rule that rewrites it: %s", img,
				 same ? "" : " (as rewritten)",
				 fit == WG_FIT_ARCH ? ref.arch
				 : ref.release->name, host->name,
				 fit == WG_FIT_ARCH ? wg_arena_printf(r->arena,
					 "/%s", t[k].b->arch) : "",
				 fit == WG_FIT_ARCH ? "" : wg_arena_printf(
					 r->arena, " with %s of handler %s",
					 wg_handler_rule(t[k].b->handler),
					 t[k].b->handler),
				 sel->targets_why, t[k].suffix,
				 note && same ? ": no known rewrite, " : "",
				 note && same ? note : "",
				 tx_image_rule_hint(r->arena, img));
			ok = false;
		}
	}
	return ok;
}

/* Whether every target gets the same images and one RuntimeClass fits:
 * the same arch too, unless the workload is a node agent on several
 * arches (select.h arches), whose RuntimeClass names no arch. */
static bool one_fits_all(const struct wg_selection *sel,
			 const struct target *t, size_t n, size_t nbox)
{
	for (size_t k = 1; k < n; k++) {
		const struct wg_build *a = t[0].b, *b = t[k].b;

		if ((strcmp(a->arch, b->arch) && sel->narches < 2)
		    || strcmp(a->handler, b->handler)
		    || !(a->overhead == b->overhead
			 || wg_node_equal(a->overhead, b->overhead)))
			return false;
		for (size_t i = 0; i < nbox; i++)
			if (t[0].images[i] && strcmp(t[0].images[i],
						     t[k].images[i]))
				return false;
	}
	return true;
}

/* Sets the images of every container of the pod templates ps (npods of
 * them; same order as box). */
static void set_images(struct run *r, struct wg_resource *res,
		       const struct wg_podspec *ps, size_t npods,
		       const struct target *t, const struct box *box,
		       const char *reason, bool record)
{
	struct wg_container_iter it;
	struct wg_container c;
	size_t i = 0;

	for (size_t k = 0; k < npods; k++) {
	wg_container_iter_init(&it, ps[k].spec);
	while (wg_container_next(&it, &c)) {
		struct wg_node *old = wg_map_get(c.node, "image"), *v;

		if (box[i].image && !wg_scalar_is(old, t->images[i])) {
			v = wg_node_new_str(r->arena, t->images[i]);
			wg_map_set(r->arena, c.node, "image", v);
			if (record)
				wg_record_change(r->ctx, WG_CHANGE_SET, res,
						 old, box[i].field, old, v,
						 reason);
		}
		i++;
	}
	}
}

/* ---- names -------------------------------------------------------------- */

static void name_targets(struct run *r, const struct wg_selection *sel,
			 struct target *t)
{
	for (size_t k = 0; k < sel->ntargets; k++) {
		const struct wg_build *b = sel->targets[k];
		const char *rel = b->release->name;
		bool shared = false;
		char *s;

		bool same_arch = false;

		for (size_t j = 0; j < sel->ntargets; j++) {
			const struct wg_build *o = sel->targets[j];

			if (j == k || o->release != b->release)
				continue;
			shared = true;
			same_arch = same_arch || strcmp(o->arch, b->arch) == 0;
		}
		/* ltsc2025, ltsc2025-arm64 beside ltsc2025-amd64, or the
		 * RuntimeClass when only the handler tells them apart */
		s = !shared ? wg_arena_strdup(r->arena, rel)
		    : !same_arch ? wg_arena_printf(r->arena, "%s-%s", rel,
						   b->arch)
		    : wg_arena_strdup(r->arena, b->runtime_class);
		for (char *c = s; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		t[k].b = b;
		t[k].suffix = s;
		t[k].key = !shared && wg_profile_find_build(r->p, rel) == b
			   ? rel : b->runtime_class;
	}
}

/* The longest name a kind may have (kinds.h: its pods' host names and
 * labels carry it). */
static bool names_ok(struct run *r, struct wg_resource *res,
		     const struct wg_selection *sel,
		     const struct wg_node *name, const struct target *t,
		     size_t n)
{
	size_t max = sel->pod.kind->name_max;
	bool ok = true;

	for (size_t k = 0; k < n; k++) {
		const char *s = wg_arena_printf(r->arena, "%.*s-%s",
						(int)name->len, name->u.str,
						t[k].suffix);

		if (wg_is_dns_subdomain(s) && strlen(s) <= max)
			continue;
		wg_error(r->ctx, res, name, "metadata.name", "'%s', the name "
			 "of its copy for build %s, is not a valid %s name "
			 "(a DNS subdomain of at most %zu characters); "
			 "shorten it", s, t[k].b->release->name,
			 wg_resource_kind(r->arena, res), max);
		ok = false;
		break;	/* one copy says it */
	}
	return ok;
}

/* ---- one copy ----------------------------------------------------------- */

/* The selector of a kind (kinds.h) that must name the build label, or
 * NULL. */
static struct wg_node *selector_labels(struct run *r,
				       const struct wg_resource *res,
				       const struct wg_kind *k,
				       const char **field)
{
	struct wg_node *sel = k->selector ? wg_path_get(res->root,
							k->selector) : NULL;

	if (!wg_is_map(sel))
		return NULL;	/* none: the API server (or the Job
				   controller) derives it from the pods */
	if (k->selector_shape == WG_SELECTOR_MAP) {
		*field = k->selector;
		return sel;
	}
	/* a generated selector (a Job's controller-uid) already keeps the
	 * copies apart; only a manual one is the user's to extend */
	if (k->manual_selector && !wg_node_true(wg_path_get(res->root,
				k->manual_selector)))
		return NULL;
	*field = wg_arena_printf(r->arena, "%s.matchLabels", k->selector);
	return wg_map_ensure_map(r->arena, sel, "matchLabels");
}

/* Adds key: value to m (a mapping) unless it is there; records it. */
static void add_label(struct run *r, struct wg_resource *res,
		      struct wg_node *m, const struct wg_node *at,
		      const char *field, const char *key, const char *value,
		      const char *reason, bool record)
{
	struct wg_node *v = wg_map_get(m, key);

	if (wg_scalar_is(v, value))
		return;
	v = wg_node_new_str(r->arena, value);
	wg_map_set(r->arena, m, key, v);
	if (record)
		wg_record_change(r->ctx, WG_CHANGE_ADD, res, tx_pos(m, at),
				 path_of(&r->path, field, key,
					 (const char *)NULL), NULL, v, reason);
}

/* Edits res into the copy for target t.  Only the first copy (the
 * workload as read) records each field; the others are one CREATE. */
static void edit_copy(struct run *r, struct wg_resource *res,
		      const struct wg_kind_set *kinds,
		      const struct wg_node *name, const struct target *t,
		      const struct box *box, const char *reason, bool first)
{
	struct wg_arena *a = r->arena;
	struct wg_node *meta = wg_map_get(res->root, "metadata");
	struct wg_node *old = wg_map_get(meta, "name"), *v, *m;
	struct wg_podspec *ps;
	const char *field = NULL, *tmpl;
	size_t nps;

	v = wg_node_new_str(a, wg_arena_printf(a, "%.*s-%s", (int)name->len,
					       name->u.str, t->suffix));
	wg_map_set(a, meta, "name", v);
	if (first)
		wg_record_change(r->ctx, WG_CHANGE_SET, res, old,
				 "metadata.name", old, v, reason);
	m = wg_map_ensure_map(a, meta, "annotations");
	if (m)
		add_label(r, res, m, meta, "metadata.annotations",
			  WG_ANNOTATION_BUILD, t->key, reason, first);
	for (size_t i = 0; m && !first && i < sizeof(id_annotations)
					      / sizeof(*id_annotations); i++)
		wg_map_delete(m, id_annotations[i]);
	nps = wg_podspec_find_all(a, kinds, res, &ps);
	for (size_t k = 0; k < nps; k++) {
		tmpl = wg_arena_strdup(a, wg_podspec_tmpl_path(&r->path,
				       &ps[k], "metadata", (const char *)NULL));
		m = wg_map_get(ps[k].tmpl, "metadata");
		if (wg_node_is_null(m)) {	/* written before spec */
			long at = wg_map_find(ps[k].tmpl, "spec");

			wg_map_delete(ps[k].tmpl, "metadata");
			m = wg_node_new_map(a);
			wg_map_insert(a, ps[k].tmpl, at < 0 ? ps[k].tmpl->len
							    : (size_t)at,
				      "metadata", m);
		}
		m = wg_is_map(m) ? wg_map_ensure_map(a, m, "labels") : NULL;
		if (m)
			add_label(r, res, m, ps[k].tmpl,
				  wg_arena_printf(a, "%s.labels", tmpl),
				  WG_LABEL_BUILD, t->suffix, reason, first);
	}
	m = nps ? selector_labels(r, res, ps[0].kind, &field) : NULL;
	if (m)
		add_label(r, res, m, wg_map_get(res->root, "spec"), field,
			  WG_LABEL_BUILD, t->suffix, reason, first);
	set_images(r, res, ps, nps, t, box, reason, first);
}

/* The build label must be fan-out's to write, in the pods and in the
 * selector. */
static bool label_free(struct run *r, struct wg_resource *res,
		       const struct wg_selection *sel)
{
	const struct wg_kind *k = sel->pod.kind;
	const struct wg_node *sel_node = k->selector
		? wg_path_get(res->root, k->selector) : NULL;
	const struct wg_node *where[2] = {
		wg_map_get(wg_map_get(sel_node, "matchLabels"),
			   WG_LABEL_BUILD),
		k->selector_shape == WG_SELECTOR_MAP
		? wg_map_get(sel_node, WG_LABEL_BUILD) : NULL,
	};
	bool ok = true;

	for (size_t i = 0; i < sel->npods + 2; i++) {
		const struct wg_node *v = i >= sel->npods
			? where[i - sel->npods]
			: wg_map_get(wg_podspec_labels(&sel->pods[i]),
				     WG_LABEL_BUILD);

		if (!v)
			continue;
		wg_error(r->ctx, res, v, NULL, "label '%s' is '%.*s', but "
			 "fan-out gives each copy's pods its own value (%s) to "
			 "keep the copies' selectors apart; wingen does not "
			 "overwrite it", WG_LABEL_BUILD,
			 wg_is_scalar(v) ? (int)v->len : 0,
			 wg_is_scalar(v) ? v->u.str : "", sel->targets_why);
		ok = false;
	}
	return ok;
}

/* Checks what the copies cannot keep: one build named in pod spec ps. */
static bool no_single_build_in(struct run *r, struct wg_resource *res,
			       const struct wg_selection *sel,
			       const struct wg_podspec *ps, const char *multi)
{
	const struct wg_node *ns = wg_map_get(ps->spec, "nodeSelector");
	const struct wg_node *v = wg_map_get(ns, WG_LABEL_WINDOWS_BUILD);
	const struct wg_node *rc = wg_map_get(ps->spec, "runtimeClassName");
	bool ok = true;

	if (v) {
		wg_error(r->ctx, res, v,
			 wg_podspec_path(&r->path, ps, "nodeSelector",
					 WG_LABEL_WINDOWS_BUILD,
					 (const char *)NULL),
			 "names one build, but the workload targets several "
			 "(%s): remove it; fan-out schedules each build",
			 sel->targets_why);
		ok = false;
	}
	if (!wg_node_is_null(rc) && !(multi && wg_scalar_is(rc, multi))) {
		wg_error(r->ctx, res, rc,
			 wg_podspec_path(&r->path, ps,
					 "runtimeClassName",
					 (const char *)NULL),
			 "is '%.*s', but the workload targets several builds "
			 "(%s): remove it; fan-out gives each build its "
			 "RuntimeClass", wg_is_scalar(rc) ? (int)rc->len : 0,
			 wg_is_scalar(rc) ? rc->u.str : "", sel->targets_why);
		ok = false;
	}
	return ok;
}

/* ... and in every pod spec of sel. */
static bool no_single_build(struct run *r, struct wg_resource *res,
			    const struct wg_selection *sel, const char *multi)
{
	bool ok = true;

	for (size_t k = 0; k < sel->npods; k++)
		if (!no_single_build_in(r, res, sel, &sel->pods[k], multi))
			ok = false;
	return ok;
}

/* Where res is in the list.  Workloads are copied in list order and
 * objects only ever go in before one (never out), so the search starts
 * where the last one was found: the whole walk costs the list once, not
 * once per workload. */
static size_t index_of_res(struct run *r, const struct wg_resource *res)
{
	const struct wg_resources *list = r->list;

	for (size_t i = r->cursor; i < list->len; i++)
		if (list->items[i] == res)
			return r->cursor = i;
	for (size_t i = 0; i < r->cursor && i < list->len; i++)
		if (list->items[i] == res)
			return r->cursor = i;
	return list->len;
}

static const char *builds_text(struct run *r, const struct target *t,
			       size_t n, bool numbers)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *s;

	for (size_t k = 0; k < n; k++)
		wg_buf_addf(&b, "%s%s", k ? ", " : "",
			    numbers ? t[k].b->release->build : t[k].suffix);
	s = wg_arena_strdup(r->arena, b.buf);
	wg_buf_release(&b);
	return s;
}

static void copies(struct run *r, struct wg_resource *res,
		   struct wg_selection *sel, struct target *t, size_t n,
		   const struct box *box)
{
	struct wg_arena *a = r->arena;
	const struct wg_node *name = wg_resource_name_node(res);
	struct wg_node *pristine = wg_node_clone(a, res->root);
	const char *label = wg_resource_label(a, res);
	struct wg_resource before = *res;
	const char *claims = sel->pod.kind->claims;
	struct wg_podspec *ps;
	struct fanned *f;
	size_t at;

	before.root = pristine;
	WG_GROW(r->fanned, r->cap, r->nfanned + 1);
	f = &r->fanned[r->nfanned++];
	f->kind = wg_resource_kind(a, res);
	f->group = group_of(a, wg_map_get(res->root, "apiVersion"));
	f->ns = ns_of(a, res);
	f->name = wg_scalar_dup(a, name);
	f->label = label;
	f->npods = wg_podspec_find_all(a, sel->kinds, &before, &ps);
	f->pod_labels = wg_arena_zalloc(a, (f->npods ? f->npods : 1)
					* sizeof(*f->pod_labels));
	for (size_t k = 0; k < f->npods; k++)
		f->pod_labels[k] = wg_podspec_labels(&ps[k]);
	f->t = t;
	f->n = n;
	for (size_t k = 0; k < n; k++) {
		const char *reason = wg_arena_printf(a, "copy %zu of "
			"%zu of %s, for build %s (%s)", k + 1, n, label,
			t[k].b->release->name, sel->targets_why);
		struct wg_resource *c = res;

		if (k) {
			c = wg_resource_new(r->list, wg_node_clone(a, pristine),
					    res->file, res->index);
			c->flags = res->flags & WG_RES_LIST_ITEM;
			c->source_comment = res->source_comment;
		}
		edit_copy(r, c, sel->kinds, name, &t[k], box, reason, k == 0);
		wg_select_as_copy(r->list, c, sel, t[k].b);
		if (!k)
			continue;
		at = index_of_res(r, res) + k;
		wg_resources_insert(r->list, at, c);
		krm_index(r, c);
		wg_record_change(r->ctx, WG_CHANGE_CREATE, c, NULL, NULL, NULL,
				 NULL, reason);
	}
	if (claims && wg_is_seq(wg_path_get(pristine, claims)))
		wg_info(r->ctx, res, wg_path_get(res->root, claims), claims,
			"each copy (%s) gets "
			"PersistentVolumeClaims of its own, named after it: "
			"the builds do not share the data of %s",
			builds_text(r, t, n, false), label);
}

/* ---- one workload on every build ---------------------------------------- */

/* Adds "windows-build In [the targets' builds]" to every required term of
 * pod spec ps. */
static void add_affinity(struct run *r, struct wg_resource *res,
			 const struct wg_selection *sel,
			 const struct wg_podspec *ps, const struct target *t,
			 size_t n, const char *reason)
{
	const char **values = wg_arena_zalloc(r->arena, n * sizeof(*values));
	size_t nv = 0;

	/* two targets of one release (amd64 and arm64) share its number */
	for (size_t k = 0; k < n; k++) {
		bool seen = false;

		for (size_t j = 0; j < nv && !seen; j++)
			seen = strcmp(values[j], t[k].b->release->build) == 0;
		if (!seen)
			values[nv++] = t[k].b->release->build;
	}
	tx_require_in(r->ctx, r->list, res, sel, ps, WG_LABEL_WINDOWS_BUILD,
		      values, nv, wg_arena_printf(r->arena, "builds %s",
		      builds_text(r, t, n, true)), reason);
}

static void one_for_all(struct run *r, struct wg_resource *res,
			struct wg_selection *sel, const struct target *t,
			size_t n, const struct box *box)
{
	const char *reason = wg_arena_printf(r->arena, "its images "
		"run on every target build (%s; %s), so one workload runs on "
		"all of them", builds_text(r, t, n, false), sel->targets_why);
	const char *rc;

	bool any_arch = sel->narches > 1;

	if (sel->no_runtime_class)	/* select.h: none to name */
		rc = NULL;
	else if (wg_profile_runs(r->p, "runtime-class"))
		rc = wg_runtime_class_multi(r->ctx, r->list, t[0].b, any_arch);
	else	/* the user provides RuntimeClasses */
		rc = wg_arena_printf(r->arena, "%s-%s", t[0].b->runtime_class,
				     any_arch ? "multiarch" : "multi");
	if ((!rc && !sel->no_runtime_class)
	    || !no_single_build(r, res, sel, rc))
		return;
	for (size_t k = 0; k < sel->npods; k++)
		add_affinity(r, res, sel, &sel->pods[k], t, n, reason);
	set_images(r, res, sel->pods, sel->npods, &t[0], box, reason, true);
	sel->multi = true;
	sel->runtime_class = rc;
}

/* ---- the plugin ---------------------------------------------------------- */

static void fan_out(struct run *r, struct wg_resource *res,
		    struct wg_selection *sel)
{
	const struct wg_node *name = wg_resource_name_node(res);
	struct target *t;
	struct box *box;
	size_t nbox;

	if (sel->host_process) {
		wg_info(r->ctx, res, NULL, NULL, "not fanned out to builds "
			"(%s): HostProcess containers run on any build, so "
			"one workload runs on every Windows node",
			sel->targets_why);
		return;
	}
	if (!wg_is_scalar(name) || !name->len) {
		wg_error(r->ctx, res, name, "metadata.name", "is missing: "
			 "fan-out names each copy after it (%s)",
			 sel->targets_why);
		sel->failed = true;
		return;
	}
	t = wg_arena_zalloc(r->arena, sel->ntargets * sizeof(*t));
	name_targets(r, sel, t);
	nbox = containers(r, sel, &box);
	if (!plan_images(r, res, sel, t, sel->ntargets, box, nbox)) {
		sel->failed = true;
		return;
	}
	if (one_fits_all(sel, t, sel->ntargets, nbox)) {
		one_for_all(r, res, sel, t, sel->ntargets, box);
		return;
	}
	if (!no_single_build(r, res, sel, NULL)
	    || !names_ok(r, res, sel, name, t, sel->ntargets)
	    || !label_free(r, res, sel)) {
		sel->failed = true;
		return;
	}
	copies(r, res, sel, t, sel->ntargets, box);
}

static const struct fanned *fanned_for(struct run *r,
				       const struct wg_resource *hpa)
{
	const struct wg_node *ref = wg_path_get(hpa->root,
						"spec.scaleTargetRef");
	const char *ns = ns_of(r->arena, hpa);
	const char *group = group_of(r->arena, wg_map_get(ref, "apiVersion"));
	const struct wg_node *name = wg_map_get(ref, "name");
	void *const *hit;
	size_t nhit;

	if (!wg_is_scalar(name))
		return NULL;
	wg_buf_reset(&r->path);
	wg_buf_add(&r->path, ns, strlen(ns) + 1);
	wg_buf_add(&r->path, name->u.str, name->len);
	hit = wg_index_get(r->by_name, r->path.buf, r->path.len, &nhit);
	for (size_t i = 0; i < nhit; i++) {	/* in the order fanned */
		const struct fanned *f = hit[i];

		if (strcmp(f->ns, ns) == 0
		    && wg_scalar_is(wg_map_get(ref, "kind"), f->kind)
		    && wg_scalar_is(wg_map_get(ref, "name"), f->name)
		    && (!group || !f->group || strcmp(group, f->group) == 0))
			return f;
	}
	return NULL;
}


/* Every HorizontalPodAutoscaler of a fanned-out workload: one per copy. */
static void autoscalers(struct run *r)
{
	struct wg_arena *a = r->arena;

	for (size_t i = 0; i < r->list->len; i++) {
		struct wg_resource *res = r->list->items[i];
		const struct wg_node *name = wg_resource_name_node(res);
		const struct fanned *f;
		struct wg_node *pristine;
		const char *label;

		if ((res->flags & WG_RES_DELETED)
		    || !wg_is_kind(res, WG_KIND_HPA)
		    || !(f = fanned_for(r, res)) || !wg_is_scalar(name))
			continue;
		pristine = wg_node_clone(a, res->root);
		label = wg_resource_label(a, res);
		for (size_t k = 0; k < f->n; k++) {
			const char *reason = wg_arena_printf(a,
				"copy %zu of %zu of %s, for %s-%s", k + 1, f->n,
				label, f->name, f->t[k].suffix);
			struct wg_resource *c = res;
			struct wg_node *meta, *ref, *old, *v;

			if (k) {
				c = wg_resource_new(r->list,
						    wg_node_clone(a, pristine),
						    res->file, res->index);
				c->flags = res->flags & WG_RES_LIST_ITEM;
				c->source_comment = res->source_comment;
			}
			meta = wg_map_get(c->root, "metadata");
			old = wg_map_get(meta, "name");
			v = wg_node_new_str(a, wg_arena_printf(a, "%.*s-%s",
				(int)name->len, name->u.str, f->t[k].suffix));
			wg_map_set(a, meta, "name", v);
			if (!k)
				wg_record_change(r->ctx, WG_CHANGE_SET, c, old,
						 "metadata.name", old, v,
						 reason);
			ref = wg_path_get(c->root, "spec.scaleTargetRef");
			old = wg_map_get(ref, "name");
			v = wg_node_new_str(a, wg_arena_printf(a, "%s-%s",
				f->name, f->t[k].suffix));
			wg_map_set(a, ref, "name", v);
			if (!k) {
				wg_record_change(r->ctx, WG_CHANGE_SET, c, old,
						 "spec.scaleTargetRef.name",
						 old, v, reason);
				continue;
			}
			meta = wg_map_get(meta, "annotations");
			for (size_t j = 0; wg_is_map(meta) && j < sizeof(
				     id_annotations) / sizeof(*id_annotations);
			     j++)
				wg_map_delete(meta, id_annotations[j]);
			wg_resources_insert(r->list, i + k, c);
			krm_index(r, c);
			wg_record_change(r->ctx, WG_CHANGE_CREATE, c, NULL,
					 NULL, NULL, NULL, reason);
		}
		i += f->n - 1;
	}
}

/* Every PodDisruptionBudget over a fanned-out workload's pods: shared. */
static void budgets(struct run *r)
{
	for (size_t i = 0; i < r->list->len; i++) {
		struct wg_resource *res = r->list->items[i];
		const struct wg_node *sel = wg_path_get(res->root,
							"spec.selector");
		const struct wg_node *min = wg_path_get(res->root,
							"spec.minAvailable");
		struct wg_label_selector ls;
		const char *ns;
		void *const *same_ns;
		size_t nsame;

		if ((res->flags & WG_RES_DELETED)
		    || !wg_is_kind(res, WG_KIND_PDB)
		    || wg_node_is_null(sel)	/* selects no pods */
		    || wg_label_selector_from_node(r->arena, sel, true, &ls))
			continue;
		ns = ns_of(r->arena, res);
		same_ns = wg_index_get(r->by_ns, ns, strlen(ns), &nsame);
		for (size_t k = 0; k < nsame; k++) {
			const struct fanned *f = same_ns[k];
			const char *copies = builds_text(r, f->t, f->n, false);
			bool hit = false;

			for (size_t j = 0; j < f->npods && !hit; j++)
				hit = wg_label_selector_matches(&ls,
							f->pod_labels[j]);
			if (strcmp(f->ns, ns) != 0 || !hit)
				continue;
			if (!wg_node_is_null(min))
				wg_warning(r->ctx, res, sel, "spec.selector",
					   "selects the pods of every copy of "
					   "%s (%s): the budget stays shared "
					   "by the builds, so minAvailable "
					   "can be met by one build's pods "
					   "alone; write one budget per build "
					   "(label %s) to keep each available",
					   f->label, copies, WG_LABEL_BUILD);
			else
				wg_info(r->ctx, res, sel, "spec.selector",
					"selects the pods of every copy of %s "
					"(%s): the budget stays shared by the "
					"builds, and maxUnavailable counts "
					"their pods together", f->label,
					copies);
		}
	}
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       const void *config)
{
	struct run r = { ctx, list, &list->arena, ctx->profile, NULL, 0, 0,
			 WG_BUF_INIT, 0, NULL, NULL };
	struct wg_resource **todo;
	size_t n = list->len;

	(void)config;
	if (!r.p || !r.p->nbuilds)
		return 0;
	/* the workloads as they are now: copies and RuntimeClasses go in
	 * while this walks */
	todo = wg_arena_alloc(r.arena, (n ? n : 1) * sizeof(*todo));
	if (n)	/* an empty list's items may be NULL (post-render of none) */
		memcpy(todo, list->items, n * sizeof(*todo));
	for (size_t i = 0; i < n; i++) {
		struct wg_selection *sel;

		if (todo[i]->flags & WG_RES_DELETED)
			continue;
		sel = tx_windows(ctx, list, todo[i]);
		if (sel && sel->ntargets > 1)
			fan_out(&r, todo[i], sel);
	}
	/* HPAs and PDBs follow fanned-out workloads: with none, nothing to
	 * look for (and no pass over a large, cold stream). */
	if (r.nfanned) {
		r.by_name = wg_index_new();
		r.by_ns = wg_index_new();
		for (size_t i = 0; i < r.nfanned; i++) {
			struct fanned *f = &r.fanned[i];

			wg_buf_reset(&r.path);
			wg_buf_add(&r.path, f->ns, strlen(f->ns) + 1);
			wg_buf_addstr(&r.path, f->name);
			wg_index_add(r.by_name, r.path.buf, r.path.len, f);
			wg_index_add(r.by_ns, f->ns, strlen(f->ns), f);
		}
		autoscalers(&r);
		budgets(&r);
		wg_index_free(r.by_name);
		wg_index_free(r.by_ns);
	}
	free(r.fanned);
	wg_buf_release(&r.path);
	return 0;
}

const struct wg_plugin wg_tx_fan_out = {
	.name = "fan-out",
	.summary = "one workload per target build (wingen.dev/windows-builds "
		   "or a select entry's builds), images rewritten per build",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_list = run,
	.prepare = tx_prepare,
};
