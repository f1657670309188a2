#include "wingen/core/select.h"
#include "wingen/core/retarget.h"

#include <string.h>

#include "wingen/base/names.h"
#include "wingen/base/suggest.h"
#include "wingen/k8s/catalog.h"
#include "wingen/core/chain.h"
#include "wingen/k8s/images.h"
#include "wingen/k8s/sched.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/podcheck.h"

struct rc_entry {
	const char *name;
	const struct wg_resource *res;
};

struct wg_select_state {
	size_t *matches;	/* per windows.select entry: workloads matched */
	size_t nentries;
	bool reported;		/* unmatched entries reported */
	struct rc_entry *rcs;	/* the RuntimeClasses of the list */
	size_t nrcs;
	size_t indexed_len;	/* list->len when rcs was built */
	size_t selected_len;	/* list->len when all were last selected */
};

static struct wg_select_state *state(struct wg_resources *list)
{
	if (!list->select) {
		list->select = wg_arena_zalloc(&list->arena,
					       sizeof(*list->select));
		list->select->indexed_len = (size_t)-1;
		list->select->selected_len = (size_t)-1;
	}
	return list->select;
}

/* The per-entry match counters, made when the profile is first seen. */
static size_t *counters(const struct wg_profile *p, struct wg_resources *list)
{
	struct wg_select_state *st = state(list);

	if (!st->matches) {
		st->nentries = p->nselect;
		st->matches = wg_arena_zalloc(&list->arena, (p->nselect + 1)
					      * sizeof(*st->matches));
	}
	return st->matches;
}

/* A RuntimeClass must say its group: a pod's runtimeClassName names
 * node.k8s.io's. */
static bool is_runtime_class(const struct wg_resource *res)
{
	return wg_map_get(res->root, "apiVersion")
	       && wg_is_kind(res, WG_KIND_RUNTIME_CLASS);
}

/* (Re)indexes the RuntimeClasses when the list changed length. */
static void index_rcs(struct wg_resources *list, struct wg_select_state *st)
{
	size_t n = 0;

	if (st->indexed_len == list->len)
		return;
	for (size_t i = 0; i < list->len; i++)
		n += is_runtime_class(list->items[i]);
	st->rcs = wg_arena_alloc(&list->arena, (n ? n : 1) * sizeof(*st->rcs));
	st->nrcs = 0;
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct wg_node *name = wg_resource_name_node(res);

		if (!is_runtime_class(res) || !wg_is_scalar(name)
		    || (res->flags & WG_RES_DELETED))
			continue;
		st->rcs[st->nrcs].name = wg_scalar_dup(&list->arena, name);
		st->rcs[st->nrcs].res = res;
		st->nrcs++;
	}
	st->indexed_len = list->len;
}

const struct wg_resource *wg_select_runtime_class(struct wg_resources *list,
						  const char *name)
{
	struct wg_select_state *st = state(list);

	index_rcs(list, st);
	for (size_t i = 0; i < st->nrcs; i++)
		if (strcmp(st->rcs[i].name, name) == 0)
			return st->rcs[i].res;
	return NULL;
}

/* ---- matching one windows.select entry ---------------------------------- */

struct match {
	struct wg_ctx *ctx;
	struct wg_resource *res;
	size_t entry;
};

/* 1, 0, or -1 after reporting a regex that gave up. */
static int regex_on(struct match *m, const struct wg_regex *re,
		    const char *what, const struct wg_node *node,
		    const char *field)
{
	const char *s = wg_is_scalar(node) ? node->u.str : "";
	size_t len = wg_is_scalar(node) ? node->len : 0;
	int rc = wg_regex_match(re, s, len);

	if (rc >= 0)
		return rc;
	wg_error(m->ctx, m->res, node, field,
		 "windows.select[%zu].%s: pattern '%s' gave up on '%.*s' "
		 "(PCRE2 match or depth limit)", m->entry, what, re->source,
		 (int)(len > 80 ? 80 : len), s);
	return -1;
}

static bool kind_listed(const struct wg_select *e, const struct wg_resource *r)
{
	if (!e->nkinds)
		return true;
	for (size_t i = 0; i < e->nkinds; i++)
		if (wg_resource_kind_is(r, e->kinds[i]))
			return true;
	return false;
}

/* Whether an image of any pod template matches; one is enough. */
static int images_match(struct match *m, const struct wg_select *e,
			const struct wg_selection *sel)
{
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_buf path = WG_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sel->npods; i++) {
		const struct wg_podspec *ps = &sel->pods[i];

		wg_container_iter_init(&it, ps->spec);
		while (rc == 0 && wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");

			if (!wg_is_scalar(image))
				continue;
			rc = regex_on(m, e->image, "image", image,
				      wg_container_path(&path, ps, &c, "image",
							(const char *)NULL));
		}
	}
	wg_buf_release(&path);
	return rc;
}

static int entry_matches(struct match *m, const struct wg_select *e,
			 const struct wg_selection *sel)
{
	const struct wg_node *meta = wg_map_get(m->res->root, "metadata");
	int rc;

	if (!kind_listed(e, m->res))
		return 0;
	if (e->name && (rc = regex_on(m, e->name, "name",
				      wg_map_get(meta, "name"),
				      "metadata.name")) <= 0)
		return rc;
	if (e->namespace_ && (rc = regex_on(m, e->namespace_, "namespace",
					    wg_map_get(meta, "namespace"),
					    "metadata.namespace")) <= 0)
		return rc;
	if (e->labels && !wg_label_selector_matches(e->labels,
						    wg_map_get(meta, "labels")))
		return 0;
	if (e->annotations
	    && !wg_label_selector_matches(e->annotations,
					  wg_map_get(meta, "annotations")))
		return 0;
	if (e->image)
		return images_match(m, e, sel);
	return 1;
}

/* ---- the pod template's own say ----------------------------------------- */

static const char *const os_keys[] = {
	WG_LABEL_OS, WG_LABEL_OS_BETA,
};
static const char *const arch_keys[] = {
	WG_LABEL_ARCH, WG_LABEL_ARCH_BETA,
};

static bool rc_selects_windows(const struct wg_resource *rc)
{
	const struct wg_node *ns = wg_path_get(rc->root,
					       "scheduling.nodeSelector");

	for (size_t i = 0; i < 2; i++)
		if (wg_scalar_is(wg_map_get(ns, os_keys[i]), "windows"))
			return true;
	return false;
}

/*
 * Whether the pod is a HostProcess pod: hostProcess true (as kubectl
 * reads a bool: wg_node_bool) on the pod with no container saying
 * otherwise, or on every container.  Only Windows runs HostProcess
 * containers (windows.md 5), so such a pod is a Windows pod whatever its
 * images (node agents often ship one multi-platform image).  *field says
 * where.
 */
static bool spec_is_host_process(const struct wg_podspec *ps,
				 struct wg_buf *field)
{
	const struct wg_node *pod = wg_path_get(ps->spec,
		"securityContext.windowsOptions.hostProcess");
	struct wg_container_iter it;
	struct wg_container c, first = { 0 };
	size_t n = 0;

	wg_container_iter_init(&it, ps->spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *hp = wg_path_get(c.node,
			"securityContext.windowsOptions.hostProcess");

		if (!wg_node_true(wg_node_is_null(hp) ? pod : hp))
			return false;
		if (!n++)
			first = c;
	}
	if (!n)
		return false;
	if (wg_node_true(pod))
		wg_podspec_path(field, ps, "securityContext", "windowsOptions",
				"hostProcess", (const char *)NULL);
	else
		wg_container_path(field, ps, &first, "securityContext",
				  "windowsOptions", "hostProcess",
				  (const char *)NULL);
	return true;
}

/* Whether the pod spec already targets Windows; *field says where. */
static bool spec_targets_windows(const struct wg_profile *p,
				struct wg_resources *list,
				const struct wg_podspec *ps, struct wg_buf *field,
				bool *hp)
{
	const struct wg_node *spec = ps->spec;
	const struct wg_node *ns = wg_map_get(spec, "nodeSelector");
	const struct wg_node *rcn = wg_map_get(spec, "runtimeClassName");

	for (size_t i = 0; i < 2; i++) {
		if (wg_scalar_is(wg_map_get(ns, os_keys[i]), "windows")) {
			wg_podspec_path(field, ps, "nodeSelector", os_keys[i],
					(const char *)NULL);
			return true;
		}
	}
	if (wg_scalar_is(wg_path_get(spec, "os.name"), "windows")) {
		wg_podspec_path(field, ps, "os", "name", (const char *)NULL);
		return true;
	}
	for (size_t i = 0; i < 2; i++) {
		if (wg_affinity_requires(spec, os_keys[i], "windows")) {
			wg_podspec_path(field, ps, "affinity", "nodeAffinity",
					(const char *)NULL);
			return true;
		}
	}
	/* Only Windows nodes carry node.kubernetes.io/windows-build (the
	 * kubelet sets it from the host's version on Windows alone: kubelet's
	 * nodestatus setters, well-known labels), so a pod that requires it
	 * is a Windows pod whatever its images say. */
	if (wg_is_scalar(wg_map_get(ns, WG_LABEL_WINDOWS_BUILD))) {
		wg_podspec_path(field, ps, "nodeSelector",
				WG_LABEL_WINDOWS_BUILD, (const char *)NULL);
		return true;
	}
	if (wg_affinity_requires(spec, WG_LABEL_WINDOWS_BUILD, NULL)) {
		wg_podspec_path(field, ps, "affinity", "nodeAffinity",
				(const char *)NULL);
		return true;
	}
	if (spec_is_host_process(ps, field)) {
		*hp = true;
		return true;
	}
	if (wg_is_scalar(rcn) && rcn->len) {
		char *name = wg_scalar_dup(&list->arena, rcn);
		const struct wg_resource *rc;
		bool hit = false;

		for (size_t i = 0; i < p->nbuilds && !hit; i++)
			hit = strcmp(p->builds[i].runtime_class, name) == 0;
		if (!hit && (rc = wg_select_runtime_class(list, name)))
			hit = rc_selects_windows(rc);
		if (hit) {
			wg_podspec_path(field, ps, "runtimeClassName",
					(const char *)NULL);
			return true;
		}
	}
	return false;
}

/* Whether a pod template of sel already targets Windows: one says it
 * for the workload, as one image does for windows.select. */
static bool pod_targets_windows(const struct wg_profile *p,
				struct wg_resources *list,
				const struct wg_selection *sel,
				struct wg_buf *field, bool *hp)
{
	for (size_t i = 0; i < sel->npods; i++)
		if (spec_targets_windows(p, list, &sel->pods[i], field, hp))
			return true;
	return false;
}

static bool spec_host_process(const struct wg_podspec *ps)
{
	const struct wg_node *pod = wg_path_get(ps->spec,
		"securityContext.windowsOptions.hostProcess");
	struct wg_container_iter it;
	struct wg_container c;

	wg_container_iter_init(&it, ps->spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *hp = wg_path_get(c.node,
			"securityContext.windowsOptions.hostProcess");

		if (wg_node_true(wg_node_is_null(hp) ? pod : hp))
			return true;
	}
	return false;
}

static bool host_process(const struct wg_selection *sel)
{
	for (size_t i = 0; i < sel->npods; i++)
		if (spec_host_process(&sel->pods[i]))
			return true;
	return false;
}

/* The first container image b's hosts cannot run (its release or arch:
 * images.h), of any pod template, or NULL; *ref says what it names and
 * *path (when not NULL) its field.  HostProcess containers need not match
 * the host's build, but still its arch. */
static const struct wg_node *image_misfit(const struct wg_selection *sel,
					  const struct wg_build *b,
					  struct wg_image_ref *ref,
					  struct wg_buf *path)
{
	struct wg_container_iter it;
	struct wg_container c;

	for (size_t i = 0; i < sel->npods; i++) {
		wg_container_iter_init(&it, sel->pods[i].spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");
			enum wg_image_fit fit;

			if (!wg_is_scalar(image))
				continue;
			wg_image_parse(image->u.str, image->len, ref);
			fit = wg_image_fit(ref, sel->host_process ? NULL
					   : b->release, b->arch);
			if (fit != WG_FIT_RELEASE && fit != WG_FIT_ARCH)
				continue;
			if (path)
				wg_container_path(path, &sel->pods[i], &c,
						  "image", (const char *)NULL);
			return image;
		}
	}
	return NULL;
}

/* Whether the pod spec agrees with build b where it names one: its
 * nodeSelector arch and windows-build, its runtimeClassName, and the
 * releases its Windows base images are built for. */
static bool spec_agrees(const struct wg_podspec *ps, const struct wg_build *b)
{
	const struct wg_node *ns = wg_map_get(ps->spec, "nodeSelector");
	const struct wg_node *v;

	for (size_t i = 0; i < 2; i++) {
		v = wg_map_get(ns, arch_keys[i]);
		if (wg_is_scalar(v) && !wg_scalar_is(v, b->arch))
			return false;
	}
	v = wg_map_get(ns, WG_LABEL_WINDOWS_BUILD);
	if (wg_is_scalar(v) && !wg_scalar_is(v, b->release->build))
		return false;
	v = wg_map_get(ps->spec, "runtimeClassName");
	return !(wg_is_scalar(v) && !wg_node_is_null(v)
		 && !wg_scalar_is(v, b->runtime_class));
}

static bool agrees(const struct wg_selection *sel, const struct wg_build *b)
{
	struct wg_image_ref ref;

	for (size_t i = 0; i < sel->npods; i++)
		if (!spec_agrees(&sel->pods[i], b))
			return false;
	return !image_misfit(sel, b, &ref, NULL);
}

static bool embedded(const struct wg_profile *p)
{
	return p->path && strcmp(p->path, "<default>") == 0;
}

static void choose_build(struct wg_arena *arena, const struct wg_profile *p,
			 struct wg_selection *sel)
{
	const struct wg_select *e = sel->by == WG_SEL_ENTRY
				    ? &p->select[sel->entry] : NULL;

	if (sel->ntargets) {
		sel->build = sel->targets[0];
		for (size_t i = 0; i < sel->ntargets; i++) {
			if (agrees(sel, sel->targets[i])) {
				sel->build = sel->targets[i];
				break;
			}
		}
		sel->build_why = sel->targets_why;
		return;
	}
	if (e && e->nbuilds) {
		sel->build = e->builds[0];
		for (size_t i = 0; i < e->nbuilds; i++) {
			if (agrees(sel, e->builds[i])) {
				sel->build = e->builds[i];
				break;
			}
		}
		sel->build_why = wg_arena_printf(arena,
			"windows.select[%zu].builds", sel->entry);
		return;
	}
	sel->build = p->default_build;
	sel->build_why = "windows.default";
	if (agrees(sel, p->default_build))
		return;
	for (size_t i = 0; i < p->nbuilds; i++) {
		if (agrees(sel, &p->builds[i])) {
			sel->build = &p->builds[i];
			sel->build_why = embedded(p) ? "the build its images "
					 "name: the embedded default profile "
					 "routes by image"
					 : "the build its pod spec names";
			return;
		}
	}
}

/*
 * The embedded default profile routes each workload to the build its
 * images name, ltsc2019 among them; a profile the user writes warns about
 * a legacy build once, where it lists it, but the default lists it only
 * as a route, so the warning goes to each workload routed there: at the
 * image that named it, else at the annotation that picked it.
 */
static void legacy_route(struct wg_ctx *ctx, struct wg_resource *res,
			 const struct wg_selection *sel,
			 const struct wg_node *ann, const char *ann_field)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_build *legacy = NULL;
	struct wg_image_ref ref;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *image;

	if (!sel->build->release->supported
	    && !sel->build->release->end_of_life)
		legacy = sel->build;
	for (size_t i = 0; !legacy && i < sel->ntargets; i++)
		if (!sel->targets[i]->release->supported
		    && !sel->targets[i]->release->end_of_life)
			legacy = sel->targets[i];
	if (!legacy)
		return;
	image = image_misfit(sel, p->default_build, &ref, &path);
	if (image && ref.release == legacy->release)
		wg_warning(ctx, res, image, path.buf, "'%.*s' is built for %s, "
			   "so the embedded default profile targets %s "
			   "hosts: release '%s' is not supported by current "
			   "Kubernetes releases (%s)", (int)image->len,
			   image->u.str, legacy->release->name,
			   legacy->release->name, legacy->release->name,
			   legacy->release->note);
	else
		wg_warning(ctx, res, ann, ann ? ann_field : NULL, "targets "
			   "%s (%s): release '%s' is not supported by current "
			   "Kubernetes releases (%s)", legacy->release->name,
			   sel->build_why, legacy->release->name,
			   legacy->release->note);
	wg_buf_release(&path);
}

/*
 * One of wingen's annotations as the workload gives it: on the object's
 * own metadata.annotations, or on a pod template's (where a Helm chart's
 * podAnnotations puts it), read alike.  The object's comes first, then the
 * templates in order; a later place that says something else is an error
 * there naming the first (the workload is then left alone: two owners of
 * one chart disagree, and neither may silently win).
 */
struct ann {
	const struct wg_node *node;	/* NULL: not given */
	const char *field;		/* its field path, for messages */
	bool on_template;		/* read on a pod template */
};

static bool same_text(const struct wg_node *a, const struct wg_node *b)
{
	return wg_is_scalar(a) && wg_is_scalar(b) && a->len == b->len
	       && memcmp(a->u.str, b->u.str, a->len) == 0;
}

static void read_ann(struct wg_ctx *ctx, struct wg_arena *arena,
		     struct wg_resource *res, struct wg_selection *sel,
		     const char *key, struct ann *out)
{
	struct wg_buf path = WG_BUF_INIT;

	out->node = wg_map_get(wg_path_get(res->root, "metadata.annotations"),
			       key);
	out->field = wg_arena_printf(arena, "metadata.annotations.[%s]", key);
	out->on_template = false;
	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_podspec *ps = &sel->pods[i];
		const struct wg_node *t;
		const char *field;

		if (ps->tmpl == res->root)
			continue;	/* a Pod is its own template */
		t = wg_map_get(wg_podspec_annotations(ps), key);
		if (!t)
			continue;
		wg_podspec_tmpl_path(&path, ps, "metadata", "annotations",
				     (const char *)NULL);
		field = wg_arena_printf(arena, "%s.[%s]", path.buf, key);
		wg_buf_reset(&path);
		if (!out->node) {
			out->node = t;
			out->field = field;
			out->on_template = true;
		} else if (!same_text(out->node, t)) {
			wg_error(ctx, res, t, field, "'%.*s' contradicts "
				 "'%.*s' of %s (line %u column %u): give %s "
				 "once, or the same value in both places",
				 wg_is_scalar(t) ? (int)t->len : 0,
				 wg_is_scalar(t) ? t->u.str : "",
				 wg_is_scalar(out->node) ? (int)out->node->len
				 : 0, wg_is_scalar(out->node)
				 ? out->node->u.str : "", out->field,
				 wg_node_line(out->node) + 1,
				 wg_node_col(out->node) + 1, key);
			sel->failed = true;
		}
	}
	wg_buf_release(&path);
}

/* "annotation wingen.dev/windows", with the template's path when it was
 * read there. */
static const char *ann_why(struct wg_arena *arena, const struct ann *a,
			   const char *key)
{
	if (!a->on_template)
		return wg_arena_printf(arena, "annotation %s", key);
	return wg_arena_printf(arena, "annotation %s (%.*s)", key,
			       (int)(strlen(a->field) - strlen(key) - 3),
			       a->field);
}

static const char *build_label(struct wg_arena *arena,
			       const struct wg_build *b)
{
	if (strcmp(b->arch, "amd64") == 0)
		return b->release->name;
	return wg_arena_printf(arena, "%s/%s", b->release->name, b->arch);
}

static void list_builds(struct wg_buf *out, const struct wg_profile *p)
{
	for (size_t i = 0; i < p->nbuilds; i++) {
		if (i)
			wg_buf_addstr(out, ", ");
		wg_buf_addstr(out, p->builds[i].release->name);
	}
}

/*
 * "; did you mean 'ltsc2022'?" when word, which names no build of p, is
 * a likely typo of a build's release or RuntimeClass name; "" when it is
 * a release of the catalogue (a real build the profile does not target:
 * no other name is what was meant) or close to none.
 */
static const char *build_hint(struct wg_arena *arena,
			      const struct wg_profile *p, const char *word)
{
	const char **names;
	const char *hint;
	size_t n = 0;

	if (!word || wg_release_find(word))
		return "";
	names = wg_arena_alloc(arena, (2 * p->nbuilds + 1) * sizeof(*names));
	for (size_t i = 0; i < p->nbuilds; i++) {
		names[n++] = p->builds[i].release->name;
		names[n++] = p->builds[i].runtime_class;
	}
	hint = wg_suggest(word, names, n);
	return hint ? wg_arena_printf(arena, "; did you mean '%s'?", hint)
		    : "";
}

/* Reads the wingen.dev/windows-build annotation into sel->build. */
static void annotated_build(struct wg_ctx *ctx, struct wg_arena *arena,
			    struct wg_resource *res, struct wg_selection *sel,
			    const struct ann *a)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *ann = a->node;
	const char *field = a->field;
	const struct wg_build *b = NULL;

	if (!sel->windows) {
		if (!sel->opted_out && !sel->failed)
			wg_warning(ctx, res, ann, field,
				   "annotation '%s' has no effect: not a "
				   "Windows workload (add %s: \"true\" to "
				   "select it)", WG_ANNOTATION_BUILD,
				   WG_ANNOTATION_WINDOWS);
		return;
	}
	if (wg_is_scalar(ann)) {
		char *name = wg_scalar_dup(arena, ann);

		b = wg_profile_find_build(p, name);
	}
	if (!b) {
		struct wg_buf builds = WG_BUF_INIT;
		/* the way out names the release, however it is spelled */
		const char *hint = !wg_is_scalar(ann) ? ""
			: wg_retarget_hint_word(arena, p, ann->u.str,
						ann->len);

		if (wg_is_scalar(ann) && !*hint)
			hint = wg_retarget_hint_rc(arena, p, NULL, ann->u.str,
						   ann->len);
		list_builds(&builds, p);
		wg_error(ctx, res, ann, field,
			 "'%.*s' is not a build of the profile (builds: %s)%s%s",
			 wg_is_scalar(ann) ? (int)ann->len : 0,
			 wg_is_scalar(ann) ? ann->u.str : "", builds.buf,
			 build_hint(arena, p, wg_is_scalar(ann)
				    ? wg_scalar_dup(arena, ann) : NULL),
			 hint);
		wg_buf_release(&builds);
		sel->failed = true;
		sel->windows = false;
		return;
	}
	sel->build = b;
	sel->build_why = ann_why(arena, a, WG_ANNOTATION_BUILD);
}

/*
 * Reads annotation wingen.dev/windows-builds into sel->targets (one or
 * more builds).  A problem is an error at the annotation, and the
 * workload is then left alone.
 */
static void annotated_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			      struct wg_resource *res, struct wg_selection *sel,
			      const struct ann *a)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *ann = a->node;
	const char *field = a->field;
	char *text = wg_is_scalar(ann) ? wg_scalar_dup(arena, ann) : NULL;
	const struct wg_build **t;
	struct wg_buf builds = WG_BUF_INIT;
	size_t n = 0, cap = 1, len;
	bool bad = false;

	if (!text) {
		wg_error(ctx, res, ann, field, "is not a string: write a "
			 "comma-separated list of builds");
		goto fail;
	}
	for (const char *c = text; *c; c++)
		cap += *c == ',';
	t = wg_arena_zalloc(arena, cap * sizeof(*t));
	list_builds(&builds, p);
	for (char *rest = text, *item; (item = wg_list_next(&rest, &len));) {
		const struct wg_build *b;

		if (!len) {
			wg_error(ctx, res, ann, field, "'%.*s' has an empty "
				 "entry", (int)ann->len, ann->u.str);
			bad = true;
			continue;
		}
		b = wg_profile_find_build(p, item);
		if (!b) {
			wg_error(ctx, res, ann, field, "'%s' is not a build of "
				 "the profile (builds: %s)%s%s", item, builds.buf,
				 build_hint(arena, p, item),
				 wg_retarget_hint_word(arena, p, item,
						       strlen(item)));
			bad = true;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			if (t[i] == b) {
				wg_error(ctx, res, ann, field, "'%s' names "
					 "build %s twice", item,
					 build_label(arena, b));
				bad = true;
				b = NULL;
				break;
			}
		}
		if (b)
			t[n++] = b;
	}
	wg_buf_release(&builds);
	if (bad || !n)
		goto fail;
	sel->targets = t;
	sel->ntargets = n;
	sel->targets_why = ann_why(arena, a, WG_ANNOTATION_BUILDS);
	return;
fail:
	sel->failed = true;
	sel->windows = false;
}

/* Whether the pod spec's own nodeSelector and required node affinity
 * admit build b's nodes (a selector the user wrote is the user's choice:
 * the node-agent rule never widens it). */
static bool spec_admits(const struct wg_selection *sel,
			const struct wg_build *b)
{
	const struct wg_label labels[] = {
		{ WG_LABEL_OS, "windows" },
		{ WG_LABEL_ARCH, b->arch },
		{ WG_LABEL_WINDOWS_BUILD, b->release->build },
	};

	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_node *ns = wg_map_get(sel->pods[i].spec,
						      "nodeSelector");

		for (size_t k = 0; k < 2; k++) {
			const struct wg_node *v = wg_map_get(ns, arch_keys[k]);

			if (wg_is_scalar(v) && !wg_scalar_is(v, b->arch))
				return false;
		}
		if (wg_affinity_judge(sel->pods[i].spec, labels,
				      sel->host_process ? 2 : 3, NULL)
		    == WG_AFFINITY_EXCLUDES)
			return false;
	}
	return true;
}

/* Whether a pod template names one build itself: a windows-build
 * nodeSelector key, or a runtimeClassName other than the -multi (or
 * -multiarch) one an earlier run wrote. */
static bool names_one_build(struct wg_arena *arena, const struct wg_profile *p,
			    const struct wg_selection *sel)
{
	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_node *ns = wg_map_get(sel->pods[i].spec,
						      "nodeSelector");
		const struct wg_node *rcn = wg_map_get(sel->pods[i].spec,
						       "runtimeClassName");
		bool multi = false;

		for (size_t j = 0; wg_is_scalar(rcn) && j < p->nbuilds; j++)
			multi = multi || wg_scalar_is(rcn, wg_arena_printf(
				arena, "%s-multi", p->builds[j].runtime_class))
				|| wg_scalar_is(rcn, wg_arena_printf(arena,
				"%s-multiarch", p->builds[j].runtime_class));
		if (wg_map_get(ns, WG_LABEL_WINDOWS_BUILD)
		    || (!wg_node_is_null(rcn) && !multi))
			return true;
	}
	return false;
}

/*
 * A node agent (a kind with kinds.c's node_agent: a DaemonSet) or a
 * HostProcess workload runs one pod on every node it may; in a profile of
 * several builds, narrowing it to the default build would leave the other
 * builds' nodes without it (a CSI node plugin, a log shipper).  So it
 * reaches every build of the profile whose hosts run its images and that
 * its own nodeSelector and affinity admit, as one object: a DaemonSet's
 * several builds become its fan-out targets (fan-out keeps it one
 * workload when its images are the same on each: required affinity In
 * those builds and the -multi RuntimeClass); a HostProcess workload needs
 * no targets, since it carries no build key and no RuntimeClass.  When
 * those builds are of several arches (amd64 and arm64 nodes running one
 * multi-platform image), they go in sel->arches: one DaemonSet with
 * affinity kubernetes.io/arch In them, as Kubernetes' own multi-arch
 * DaemonSets are, not a renamed copy per arch.
 *
 * The builds it cannot reach because of an image are a warning naming
 * them; those its own selector rules out are its choice and are not
 * named.  Not for a workload that names one build itself (annotation
 * wingen.dev/windows-build, a windows-build nodeSelector key, a
 * RuntimeClass), nor in the embedded default, whose builds are routes,
 * not the cluster's.
 */
static void node_agent_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			       struct wg_resource *res,
			       struct wg_selection *sel)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_build **ok;
	const char **arches;
	struct wg_buf rest = WG_BUF_INIT, path = WG_BUF_INIT;
	struct wg_image_ref ref;
	const struct wg_node *image = NULL, *at = NULL;
	const char *at_path = NULL;
	size_t nok = 0, nmiss = 0, narch = 0;

	if (p->nbuilds < 2 || embedded(p)
	    || !(sel->host_process
		 || (sel->pod.kind && sel->pod.kind->node_agent))
	    || names_one_build(arena, p, sel))
		return;
	ok = wg_arena_zalloc(arena, p->nbuilds * sizeof(*ok));
	arches = wg_arena_zalloc(arena, p->nbuilds * sizeof(*arches));
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];

		if (!spec_admits(sel, b))
			continue;	/* its own choice */
		if ((image = image_misfit(sel, b, &ref, NULL))) {
			if (!at) {
				at = image_misfit(sel, b, &ref, &path);
				at_path = path.buf;
			}
			wg_buf_addf(&rest, "%s%s (whose hosts cannot run "
				    "'%.*s')", nmiss++ ? ", " : "",
				    build_label(arena, b), (int)image->len,
				    image->u.str);
			continue;
		}
		ok[nok++] = b;
	}
	if (!nok)
		goto out;	/* no build: the usual errors say why */
	for (size_t i = 0; i < nok; i++) {
		bool seen = false;

		for (size_t k = 0; k < narch && !seen; k++)
			seen = strcmp(arches[k], ok[i]->arch) == 0;
		if (!seen)
			arches[narch++] = ok[i]->arch;
	}
	if (nmiss)
		wg_warning(ctx, res, at, at_path, "a %s reaches only %zu of "
			   "the profile's %zu builds: not %s; give those "
			   "nodes an agent of their own (a copy with "
			   "annotation %s)", sel->host_process
			   ? "HostProcess workload" : "node agent", nok,
			   p->nbuilds, rest.buf, WG_ANNOTATION_BUILD);
	/* without fan-out a DaemonSet keeps one build, and so one arch */
	if (narch > 1 && (sel->host_process || wg_profile_runs(p, "fan-out"))) {
		sel->arches = arches;
		sel->narches = narch;
	}
	if (nok < 2 || sel->host_process)
		goto out;
	sel->targets = ok;
	sel->ntargets = nok;
	sel->targets_why = nok == p->nbuilds
		? "a node agent: every build of the profile"
		: "a node agent: every build it can reach";
out:
	wg_buf_release(&rest);
	wg_buf_release(&path);
}

/* The targets of a Windows workload (annotation, else its entry). */
static void find_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			 struct wg_resource *res, struct wg_selection *sel,
			 const struct ann *plural,
			 const struct wg_node *bann)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_select *e = sel->by == WG_SEL_ENTRY
				    ? &p->select[sel->entry] : NULL;

	if (plural->node) {
		annotated_targets(ctx, arena, res, sel, plural);
	} else if (e && e->nbuilds > 1) {
		sel->targets = e->builds;
		sel->ntargets = e->nbuilds;
		sel->targets_why = wg_arena_printf(arena,
			"windows.select[%zu].builds", sel->entry);
	} else if (!(e && e->nbuilds) && !bann) {
		node_agent_targets(ctx, arena, res, sel);
	}
}

/* A singular wingen.dev/windows-build names the one build, and must be one
 * of wingen.dev/windows-builds when both are there. */
static void single_build(struct wg_ctx *ctx, struct wg_resource *res,
			 struct wg_selection *sel, const struct ann *single,
			 const struct ann *plural)
{
	const struct wg_node *bann = single->node;
	bool listed = false;

	for (size_t i = 0; i < sel->ntargets; i++)
		listed = listed || sel->targets[i] == sel->build;
	if (sel->windows && plural->node && sel->ntargets && !listed) {
		wg_error(ctx, res, bann, single->field, "'%.*s' is not one of "
			 "the builds annotation %s lists ('%.*s')",
			 (int)bann->len, bann->u.str, WG_ANNOTATION_BUILDS,
			 (int)plural->node->len, plural->node->u.str);
		sel->failed = true;
		sel->windows = false;
	}
	sel->targets = NULL;
	sel->ntargets = 0;
	sel->targets_why = NULL;
}

/* Whether the image families rewrite image for b (a patch tag, a digest
 * or an unknown repository they do not): then retarget is a way out. */
static bool rewritable(struct wg_arena *arena, const struct wg_node *image,
		       const struct wg_build *b)
{
	const char *out, *why;

	return b && wg_image_rewrite(arena, image->u.str, image->len,
				     b->release, b->arch, &out, &why) > 0;
}

/* A Windows base image the chosen build's hosts cannot run fails at
 * container creation (windows.md 2.1): an error, with the way out. */
static void check_images(struct wg_ctx *ctx, struct wg_arena *arena,
			 struct wg_resource *res,
			 const struct wg_selection *sel)
{
	struct wg_image_ref ref;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *image = image_misfit(sel, sel->build, &ref,
						   &path);

	/* A release the profile retires: retarget, which runs first, has
	 * already said this image has no known rewrite (with the rule that
	 * would do it); a second error here would only send the user to the
	 * wrong fix. */
	if (!image || (ref.release && (res->flags & WG_RES_ERROR)
		       && wg_profile_retarget_of(ctx->profile, ref.release))) {
		wg_buf_release(&path);
		return;
	}
	if (wg_image_fit(&ref, sel->host_process ? NULL
			 : sel->build->release, sel->build->arch)
	    == WG_FIT_ARCH)
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, but build %s is %s (%s); "
			 "pick a build with annotation %s",
			 (int)image->len, image->u.str, ref.arch,
			 sel->build->release->name, sel->build->arch,
			 sel->reason, WG_ANNOTATION_BUILD);
	else
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, which %s hosts cannot run "
			 "with process isolation (%s); pick a build with "
			 "annotation %s%s", (int)image->len, image->u.str,
			 ref.release->name, sel->build->release->name,
			 sel->reason, WG_ANNOTATION_BUILD,
			 rewritable(arena, image, ctx->profile->default_build)
			 ? wg_retarget_hint(arena, ctx->profile, ref.release)
			 : "");
	wg_buf_release(&path);
}

static void compute(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, struct wg_selection *sel)
{
	const struct wg_profile *p = ctx->profile;
	struct wg_select_state *st = state(list);
	size_t *matches = counters(p, list);
	struct wg_arena *arena = &list->arena;
	struct ann forced, single, plural;
	const struct wg_node *force, *bann;
	struct match m = { ctx, res, 0 };
	struct wg_buf field = WG_BUF_INIT;
	bool hp_pod = false;
	long first = -1;

	read_ann(ctx, arena, res, sel, WG_ANNOTATION_WINDOWS, &forced);
	read_ann(ctx, arena, res, sel, WG_ANNOTATION_BUILD, &single);
	read_ann(ctx, arena, res, sel, WG_ANNOTATION_BUILDS, &plural);
	force = forced.node;
	bann = single.node;
	if (force && !wg_scalar_is(force, "true")
	    && !wg_scalar_is(force, "false")) {
		wg_error(ctx, res, force, forced.field,
			 "'%.*s' is not \"true\" or \"false\"",
			 wg_is_scalar(force) ? (int)force->len : 0,
			 wg_is_scalar(force) ? force->u.str : "");
		sel->failed = true;
	}
	for (size_t i = 0; i < p->nselect && i < st->nentries; i++) {
		int rc;

		if (first >= 0 && matches[i])
			continue;	/* only counting, and it is counted */
		m.entry = i;
		rc = entry_matches(&m, &p->select[i], sel);
		if (rc < 0)
			sel->failed = true;
		if (rc > 0) {
			matches[i]++;
			if (first < 0)
				first = (long)i;
		}
	}
	sel->host_process = host_process(sel);
	sel->pod_windows = pod_targets_windows(p, list, sel, &field, &hp_pod);
	if (sel->failed)
		goto out;
	if (wg_scalar_is(force, "false")) {
		sel->opted_out = true;
	} else if (force) {
		sel->by = WG_SEL_ANNOTATION;
		sel->why = ann_why(arena, &forced, WG_ANNOTATION_WINDOWS);
	} else if (first >= 0) {
		sel->by = WG_SEL_ENTRY;
		sel->entry = (size_t)first;
		sel->why = wg_arena_printf(arena, "windows.select[%ld]", first);
	} else if (sel->pod_windows) {
		sel->by = WG_SEL_POD;
		sel->why = wg_arena_printf(arena, hp_pod ? "a HostProcess pod "
					   "(%s), which only Windows runs"
					   : "already a Windows pod (%s)",
					   field.buf);
	}
	sel->windows = sel->by != WG_SEL_NONE;
	if (sel->windows)
		find_targets(ctx, arena, res, sel, &plural, bann);
	if (sel->windows)
		choose_build(arena, p, sel);
	if (plural.node && !sel->windows && !sel->opted_out && !sel->failed)
		wg_warning(ctx, res, plural.node, plural.field, "annotation "
			   "'%s' has no "
			   "effect: not a Windows workload (add %s: \"true\" "
			   "to select it)", WG_ANNOTATION_BUILDS,
			   WG_ANNOTATION_WINDOWS);
	if (bann) {
		annotated_build(ctx, arena, res, sel, &single);
		single_build(ctx, res, sel, &single, &plural);
	}
	if (sel->ntargets == 1) {	/* one build listed: no fan-out */
		sel->targets = NULL;
		sel->ntargets = 0;
	}
	if (sel->windows) {
		bool fan_out = sel->ntargets && wg_profile_runs(p, "fan-out");

		sel->reason = wg_arena_printf(arena, "%s; build %s (%s)",
					      sel->why,
					      build_label(arena, sel->build),
					      sel->build_why);
		if (sel->ntargets && !fan_out)
			wg_warning(ctx, res, plural.node, plural.node
				   ? plural.field : NULL, "targets %zu builds (%s), but the "
				   "profile's transforms have no fan-out step: "
				   "only build %s is used", sel->ntargets,
				   sel->targets_why,
				   build_label(arena, sel->build));
		if (!fan_out)	/* fan-out checks each copy's images */
			check_images(ctx, arena, res, sel);
		if (embedded(p))
			legacy_route(ctx, res, sel, bann ? bann : plural.node,
				     bann ? single.field : plural.field);
	}
out:
	wg_buf_release(&field);
}

/* Locates every pod spec of res into sel (kinds: the profile's declared
 * kinds, or NULL). */
static void find_pods(struct wg_resources *list,
		      const struct wg_kind_set *kinds,
		      const struct wg_resource *res, struct wg_selection *sel)
{
	sel->kinds = kinds;
	sel->npods = wg_podspec_find_all(&list->arena, kinds, res, &sel->pods);
	sel->workload = sel->npods > 0;
	if (sel->workload)
		sel->pod = sel->pods[0];
	else
		memset(&sel->pod, 0, sizeof(sel->pod));
}

struct wg_selection *wg_select_as_copy(struct wg_resources *list,
				       struct wg_resource *copy,
				       const struct wg_selection *from,
				       const struct wg_build *b)
{
	struct wg_arena *arena = &list->arena;
	struct wg_selection *sel = wg_arena_alloc(arena, sizeof(*sel));

	*sel = *from;
	find_pods(list, from->kinds, copy, sel);
	sel->build = b;
	sel->build_why = wg_arena_printf(arena, "fan-out of %s",
					 from->targets_why);
	sel->reason = wg_arena_printf(arena, "%s; build %s (%s)", from->why,
				      build_label(arena, b), sel->build_why);
	sel->targets = NULL;
	sel->ntargets = 0;
	sel->targets_why = NULL;
	sel->multi = false;
	sel->runtime_class = NULL;
	sel->arches = NULL;
	sel->narches = 0;
	sel->reported = 0;
	copy->sel = sel;
	return sel;
}

/*
 * What every workload must hold before anyone reads it (podcheck.h), once,
 * Linux workloads too: a field of the wrong type leaves the workload alone
 * (failed: no plugin could read it as the API server would); a
 * windowsOptions or HostProcess value the API server refuses is an error,
 * and the workload is still read, so its other problems are reported too.
 */
static void check_workload(struct wg_ctx *ctx, const struct wg_resource *res,
			   struct wg_selection *sel)
{
	if (wg_k8s_check_shape(ctx, res, sel->pods, sel->npods)) {
		sel->failed = true;
		return;
	}
	for (size_t i = 0; i < sel->npods; i++)
		wg_k8s_check_windows_options(ctx, res, &sel->pods[i]);
}

struct wg_selection *wg_select(struct wg_ctx *ctx, struct wg_resources *list,
			       struct wg_resource *res)
{
	struct wg_selection *sel = res->sel;

	if (sel)
		return sel;
	sel = wg_arena_zalloc(&list->arena, sizeof(*sel));
	res->sel = sel;
	if (!wg_is_map(res->root))
		return sel;
	find_pods(list, ctx->profile ? &ctx->profile->kinds : NULL, res, sel);
	if (sel->workload && ctx->profile)
		check_workload(ctx, res, sel);
	if (sel->workload && ctx->profile && ctx->profile->nbuilds)
		compute(ctx, list, res, sel);
	return sel;
}

/* ---- kinds wingen does not know ------------------------------------------ */

/* Pod-template-shaped maps below an object, at most this deep. */
#define SHAPE_DEPTH 12

struct shapes {
	struct wg_arena *arena;
	const char *paths[WG_KIND_MAX_TEMPLATES];	/* "[]" for items */
	size_t n;
	struct wg_node *first;		/* the first template found */
	const char *first_path;		/* its path, with indexes */
};

/* A map whose spec holds a containers list: a PodTemplateSpec. */
static bool template_shaped(const struct wg_node *m)
{
	return wg_is_map(m)
	       && wg_is_seq(wg_map_get(wg_map_get(m, "spec"), "containers"));
}

static void add_shape(struct shapes *sh, struct wg_node *n, const char *gen,
		      const char *exact)
{
	for (size_t i = 0; i < sh->n; i++)
		if (strcmp(sh->paths[i], gen) == 0)
			return;
	if (sh->n == WG_KIND_MAX_TEMPLATES)
		return;
	if (!sh->n) {
		sh->first = n;
		sh->first_path = wg_arena_strdup(sh->arena, exact);
	}
	sh->paths[sh->n++] = wg_arena_strdup(sh->arena, gen);
}

/* Walks n: gen is its path with "[]" for items, exact with indexes. */
static void find_shapes(struct shapes *sh, struct wg_node *n,
			struct wg_buf *gen, struct wg_buf *exact,
			unsigned depth)
{
	size_t glen = gen->len, elen = exact->len;

	if (depth > SHAPE_DEPTH)
		return;
	if (depth && template_shaped(n)) {
		add_shape(sh, n, gen->buf, exact->buf);
		return;
	}
	if (wg_is_map(n)) {
		for (size_t i = 0; i < n->len; i++) {
			const struct wg_node *k = wg_map_key(n, i);

			if (depth == 0 && (wg_scalar_is(k, "metadata")
					   || wg_scalar_is(k, "status")))
				continue;
			wg_path_append_key(gen, k->u.str, k->len);
			wg_path_append_key(exact, k->u.str, k->len);
			find_shapes(sh, wg_map_value(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	} else if (wg_is_seq(n)) {
		for (size_t i = 0; i < n->len; i++) {
			wg_buf_addstr(gen, "[]");
			wg_buf_addf(exact, "[%zu]", i);
			find_shapes(sh, wg_seq_item(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	}
}

static bool is_known_kind(const struct wg_resource *res)
{
	for (int k = 0; k < WG_KIND_KNOWN_COUNT; k++)
		if (wg_is_kind(res, (enum wg_known_kind)k))
			return true;
	return false;
}

/*
 * An object of a kind wingen does not know, holding a pod template whose
 * image a windows.select entry matches, would pass through untouched: its
 * pods would land anywhere.  A warning (an error with --strict) names the
 * object, the template and the workloads: entry that would handle it.
 */
static void unknown_kind(struct wg_ctx *ctx, struct wg_resources *list,
			 struct wg_resource *res)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *api = wg_map_get(res->root, "apiVersion");
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	struct shapes sh = { .arena = &list->arena };
	struct wg_buf gen = WG_BUF_INIT, exact = WG_BUF_INIT;
	struct wg_kind guess = { .name_max = 253, .origin = WG_KIND_DECLARED };
	struct wg_kind_set set = { &guess, 1 };
	struct wg_selection tmp = { 0 };
	struct match m = { ctx, res, 0 };
	const char *g;
	size_t glen;

	if (!wg_is_map(res->root) || !wg_is_scalar(kind)
	    || !wg_api_group(api, &g, &glen) || !glen || is_known_kind(res))
		return;
	wg_buf_addstr(&gen, "");
	wg_buf_addstr(&exact, "");
	find_shapes(&sh, res->root, &gen, &exact, 0);
	wg_buf_release(&gen);
	wg_buf_release(&exact);
	if (!sh.n)
		return;
	guess.kind = wg_scalar_dup(&list->arena, kind);
	guess.groups = wg_arena_strndup(&list->arena, g, glen);
	for (size_t i = 0; i < sh.n; i++)
		guess.templates[i] = sh.paths[i];
	tmp.npods = wg_podspec_find_all(&list->arena, &set, res, &tmp.pods);
	for (size_t i = 0; i < p->nselect; i++) {
		struct wg_buf paths = WG_BUF_INIT;
		int rc;

		if (!p->select[i].image)
			continue;
		m.entry = i;
		rc = entry_matches(&m, &p->select[i], &tmp);
		if (rc < 0)
			break;
		if (!rc)
			continue;
		for (size_t k = 0; k < sh.n; k++)
			wg_buf_addf(&paths, "%s\"%s\"", k ? ", " : "",
				    sh.paths[k]);
		wg_warning(ctx, res, sh.first, sh.first_path,
			   "holds a pod template with an image "
			   "windows.select[%zu] matches, but %s of group %s "
			   "is not a kind wingen knows, so nothing schedules "
			   "its pods; declare it in the profile: workloads: "
			   "[{group: %s, kind: %s, templates: [%s]}]", i,
			   guess.kind, guess.groups, guess.groups, guess.kind,
			   paths.buf);
		wg_buf_release(&paths);
		break;
	}
}

int wg_select_prepare(struct wg_ctx *ctx, struct wg_resources *list)
{
	struct wg_select_state *st = state(list);
	const struct wg_profile *p = ctx->profile;

	/* Every plugin's prepare lands here; once the list is selected a
	 * pass over a large (cold) stream would find nothing new. */
	if (st->selected_len != list->len) {
		for (size_t i = 0; i < list->len; i++)
			if (!(list->items[i]->flags & WG_RES_DELETED))
				wg_select(ctx, list, list->items[i]);
		st->selected_len = list->len;
	}
	if (st->reported || !p || !p->nbuilds)
		return 0;
	st->reported = true;
	counters(p, list);
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];

		if (!(res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
		    && !wg_select(ctx, list, res)->workload)
			unknown_kind(ctx, list, res);
	}
	/* The embedded default entries (the default profile's, or copied
	 * into a profile without windows.select, pos 0) are a catalog of
	 * Windows images, not a choice the user made: no warning. */
	if (embedded(p))
		return 0;
	for (size_t i = 0; i < p->nselect && i < st->nentries; i++)
		if (!st->matches[i] && p->select[i].pos.line)
			wg_report_at(ctx, WG_SEV_WARNING, p->path,
				     p->select[i].pos.line,
				     p->select[i].pos.col,
				     "windows.select[%zu] matches no workload",
				     i);
	return 0;
}
