/*
 * Selection: which build (and which fan-out targets) a Windows workload
 * gets, and the embedded default's warning for a legacy route.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/k8s/images.h"

/* Whether the pod spec agrees with build b where it names one: its
 * nodeSelector arch and windows-build, its runtimeClassName, and the
 * releases its Windows base images are built for. */
static bool spec_agrees(const struct wg_podspec *ps, const struct wg_build *b)
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
	return !(wg_is_scalar(v) && !wg_node_is_null(v)
		 && !wg_scalar_is(v, b->runtime_class));
}

static bool agrees(const struct wg_selection *sel, const struct wg_build *b)
{
	struct wg_image_ref ref;

	for (size_t i = 0; i < sel->npods; i++)
		if (!spec_agrees(&sel->pods[i], b))
			return false;
	return !wg_sel_image_misfit(sel, b, &ref, NULL);
}

bool wg_sel_embedded(const struct wg_profile *p)
{
	return p->path && strcmp(p->path, "<default>") == 0;
}

void wg_sel_choose_build(struct wg_arena *arena, const struct wg_profile *p,
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
			sel->build_why = wg_sel_embedded(p)
				? "the build its images name: the embedded "
				  "default profile routes by image"
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
