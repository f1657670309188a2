/*
 * Selection: which build (and which fan-out targets) a Windows workload
 * gets, and the embedded default's warning for a legacy route.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/k8s/images.h"

/* Whether the pod's own RuntimeClass (select.h own_rc) admits build b:
 * its scheduling.nodeSelector arch and windows-build. */
static bool own_rc_admits(const struct wg_selection *sel,
			  const struct wg_build *b)
{
	const struct wg_node *ns = wg_path_get(sel->own_rc->root,
					       "scheduling.nodeSelector");
	const struct wg_node *v = wg_map_get(ns, WG_LABEL_WINDOWS_BUILD);

	if (wg_is_scalar(v) && !wg_scalar_is(v, b->release->build))
		return false;
	v = wg_map_get(ns, WG_LABEL_ARCH);
	return !(wg_is_scalar(v) && !wg_scalar_is(v, b->arch));
}

/* Whether the pod spec agrees with build b where it names one: its
 * nodeSelector arch and windows-build, its runtimeClassName (a build's,
 * or its own RuntimeClass that admits b), and the releases its Windows
 * base images are built for. */
static bool spec_agrees(const struct wg_selection *sel,
			const struct wg_podspec *ps, const struct wg_build *b)
{
	const struct wg_node *ns = wg_map_get(ps->spec, "nodeSelector");
	const struct wg_node *v;

	for (size_t i = 0; i < 2; i++) {
		v = wg_map_get(ns, wg_sel_arch_keys[i]);
		if (wg_is_scalar(v) && !wg_scalar_is(v, b->arch))
			return false;
	}
	v = wg_map_get(ns, WG_LABEL_WINDOWS_BUILD);
	if (wg_is_scalar(v) && !wg_scalar_is(v, b->release->build))
		return false;
	v = wg_map_get(ps->spec, "runtimeClassName");
	if (sel->own_rc && wg_scalar_is(v, sel->own_rc_name))
		return own_rc_admits(sel, b);
	if (sel->foreign_rc_name && wg_scalar_is(v, sel->foreign_rc_name))
		return !sel->foreign_rc_release
		       || sel->foreign_rc_release == b->release;
	return !(wg_is_scalar(v) && !wg_node_is_null(v)
		 && !wg_scalar_is(v, b->runtime_class));
}

static bool spec_names(const struct wg_selection *sel,
		       const struct wg_build *b)
{
	for (size_t i = 0; i < sel->npods; i++)
		if (!spec_agrees(sel, &sel->pods[i], b))
			return false;
	return true;
}

static bool agrees(const struct wg_selection *sel, const struct wg_build *b)
{
	struct wg_image_ref ref;

	return spec_names(sel, b) && !wg_sel_image_misfit(sel, b, &ref, NULL);
}

/*
 * The first of n builds the pod spec and its images agree with, else the
 * first its pod spec alone agrees with (a RuntimeClass, a windows-build
 * key, an arch: the build is the user's pick, and an image its hosts
 * cannot run is an error under that build's isolation rule, not a reason
 * to pick another), else NULL.  *by_spec says which.
 */
static const struct wg_build *pick(const struct wg_selection *sel,
				   const struct wg_build *const *builds,
				   const struct wg_build *all, size_t n,
				   bool *by_spec)
{
	*by_spec = false;
	for (size_t i = 0; i < n; i++)
		if (agrees(sel, builds ? builds[i] : &all[i]))
			return builds ? builds[i] : &all[i];
	*by_spec = true;
	for (size_t i = 0; i < n; i++)
		if (spec_names(sel, builds ? builds[i] : &all[i]))
			return builds ? builds[i] : &all[i];
	return NULL;
}

void wg_sel_choose_build(struct wg_arena *arena, const struct wg_profile *p,
			 struct wg_selection *sel)
{
	const struct wg_select *e = sel->by == WG_SEL_ENTRY
				    ? &p->select[sel->entry] : NULL;
	const struct wg_build *b;
	bool by_spec;

	if (sel->ntargets) {
		b = pick(sel, sel->targets, NULL, sel->ntargets, &by_spec);
		sel->build = b ? b : sel->targets[0];
		sel->build_why = sel->targets_why;
		return;
	}
	if (e && e->nbuilds) {
		b = pick(sel, e->builds, NULL, e->nbuilds, &by_spec);
		sel->build = b ? b : e->builds[0];
		sel->build_why = wg_arena_printf(arena,
			"windows.select[%zu].builds", sel->entry);
		return;
	}
	sel->build = p->default_build;
	sel->build_why = "windows.default";
	if (agrees(sel, p->default_build))
		return;
	b = pick(sel, NULL, p->builds, p->nbuilds, &by_spec);
	if (!b || (by_spec && b == p->default_build))
		return;
	sel->build = b;
	sel->build_why = wg_profile_is_embedded(p) && !by_spec
		? "the build its images name: the embedded default profile "
		  "routes by image"
		: "the build its pod spec names";
}

/*
 * The embedded default profile routes each workload to the build its
 * images name, ltsc2019 among them; a profile the user writes warns about
 * a legacy build once, where it lists it, but the default lists it only
 * as a route, so the warning goes to each workload routed there: at the
 * image that named it, else at the annotation that picked it.
 */
void wg_sel_legacy_route(struct wg_ctx *ctx, struct wg_resource *res,
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
	image = wg_sel_image_misfit(sel, p->default_build, &ref, &path);
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

/* The targets of a Windows workload (annotation, else its entry). */
void wg_sel_find_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			 struct wg_resource *res, struct wg_selection *sel,
			 const struct wg_sel_ann *plural,
			 const struct wg_node *bann)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_select *e = sel->by == WG_SEL_ENTRY
				    ? &p->select[sel->entry] : NULL;

	if (plural->node) {
		wg_sel_annotated_targets(ctx, arena, res, sel, plural);
	} else if (e && e->nbuilds > 1) {
		sel->targets = e->builds;
		sel->ntargets = e->nbuilds;
		sel->targets_why = wg_arena_printf(arena,
			"windows.select[%zu].builds", sel->entry);
	} else if (!(e && e->nbuilds) && !bann) {
		wg_sel_node_agent_targets(ctx, arena, res, sel);
	}
}
