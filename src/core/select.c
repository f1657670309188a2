/*
 * Selection, the decision itself: for one resource, whether it is a
 * Windows workload, why, and for which build(s) (select.h says the rule).
 * The parts it weighs live beside it: select_entries.c (windows.select),
 * select_pod.c (the pod's own scheduling), select_annotations.c,
 * select_build.c (build and targets), select_node_agent.c,
 * select_images.c (what a build's hosts cannot run); select_list.c holds
 * the per-list state and the pass over a list.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/core/pipeline.h"
#include "wingen/k8s/podcheck.h"

static void compute(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, struct wg_selection *sel)
{
	const struct wg_profile *p = ctx->profile;
	struct wg_select_state *st = wg_sel_state(list);
	size_t *matches = wg_sel_counters(p, list);
	struct wg_arena *arena = &list->arena;
	struct wg_sel_ann forced, single, plural;
	const struct wg_node *force, *bann;
	struct wg_sel_match m = { ctx, res, 0 };
	struct wg_buf field = WG_BUF_INIT, ipath = WG_BUF_INIT;
	struct wg_image_ref iref;
	const struct wg_node *img;
	bool hp_pod = false;
	long first = -1;

	wg_sel_read_ann(ctx, arena, res, sel, WG_ANNOTATION_WINDOWS, &forced);
	wg_sel_read_ann(ctx, arena, res, sel, WG_ANNOTATION_BUILD, &single);
	wg_sel_read_ann(ctx, arena, res, sel, WG_ANNOTATION_BUILDS, &plural);
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
		rc = wg_sel_entry_matches(&m, &p->select[i], sel);
		if (rc < 0)
			sel->failed = true;
		if (rc > 0) {
			matches[i]++;
			if (first < 0)
				first = (long)i;
		}
	}
	sel->host_process = wg_sel_host_process(sel);
	if (sel->host_process) {
		sel->any_build = true;
		sel->any_build_why = "HostProcess pod: no windows-build key, "
				     "HostProcess containers run on any build";
	}
	sel->pod_windows = wg_sel_pod_targets_windows(p, list, sel, &field,
						      &hp_pod);
	wg_sel_own_runtime_class(p, list, sel);
	img = wg_sel_windows_image(sel, &iref, &ipath);
	if (img)
		sel->windows_image = img;
	if (img)
		sel->windows_image_why = wg_arena_printf(arena, "image '%.*s' "
			"names Windows (%s)", (int)img->len, img->u.str,
			wg_image_windows_why(arena, img->u.str, &iref));
	if (sel->failed)
		goto out;
	if (wg_scalar_is(force, "false")) {
		sel->opted_out = true;
	} else if (force) {
		sel->by = WG_SEL_ANNOTATION;
		sel->why = wg_sel_ann_why(arena, &forced,
					  WG_ANNOTATION_WINDOWS);
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
	} else if (img && wg_sel_image_rule(p)) {
		sel->by = WG_SEL_IMAGE;
		sel->why = sel->windows_image_why;
	} else if (img) {
		/* the invariant: never pinned to Linux in silence */
		wg_sel_unselected_image(ctx, arena, res, img, &iref,
					ipath.buf);
		sel->failed = true;
		goto out;
	}
	sel->windows = sel->by != WG_SEL_NONE;
	if (sel->windows)
		wg_sel_find_targets(ctx, arena, res, sel, &plural, bann);
	if (sel->windows)
		wg_sel_choose_build(arena, p, sel);
	if (plural.node && !sel->windows && !sel->opted_out && !sel->failed)
		wg_warning(ctx, res, plural.node, plural.field, "annotation "
			   "'%s' has no "
			   "effect: not a Windows workload (add %s: \"true\" "
			   "to select it)", WG_ANNOTATION_BUILDS,
			   WG_ANNOTATION_WINDOWS);
	if (bann) {
		wg_sel_annotated_build(ctx, arena, res, sel, &single);
		wg_sel_single_build(ctx, res, sel, &single, &plural);
	}
	if (sel->ntargets == 1) {	/* one build listed: no fan-out */
		sel->targets = NULL;
		sel->ntargets = 0;
	}
	if (sel->windows) {
		bool fan_out = sel->ntargets && wg_profile_runs(p, "fan-out");
		const char *label = wg_sel_build_label(arena, sel->build);

		sel->reason = wg_arena_printf(arena, "%s; build %s (%s)",
					      sel->why, label, sel->build_why);
		if (sel->ntargets && !fan_out)
			wg_warning(ctx, res, plural.node,
				   plural.node ? plural.field : NULL,
				   "targets %zu builds (%s), but the "
				   "profile's transforms have no fan-out step: "
				   "only build %s is used", sel->ntargets,
				   sel->targets_why, label);
		if (!fan_out)	/* fan-out checks each copy's images */
			wg_sel_check_images(ctx, list, res, sel);
		if (wg_profile_is_embedded(p))
			wg_sel_legacy_route(ctx, res, sel,
					    bann ? bann : plural.node,
					    bann ? single.field
					    : plural.field);
	}
out:
	wg_buf_release(&field);
	wg_buf_release(&ipath);
}

/* Locates every pod spec of res into sel (kinds: the profile's declared
 * kinds, or NULL). */
static void find_pods(struct wg_resources *list,
		      const struct wg_kind_set *kinds,
		      const struct wg_resource *res, struct wg_selection *sel)
{
	sel->kinds = kinds;
	sel->npods = wg_podspec_find_in(&list->arena, kinds, list, res,
					&sel->pods);
	sel->workload = sel->npods > 0;
	if (sel->workload)
		sel->pod = sel->pods[0];
	else
		memset(&sel->pod, 0, sizeof(sel->pod));
}

/*
 * A kind whose pods are decided apart (an Argo workflow's templates, a
 * PipelineRun's tasks: Linux and Windows pods in one object, as both
 * projects document): each pod is selected as if it were the object's
 * only one, and the object takes the first Windows pod's say.  Fan-out
 * copies objects, not one pod of them: a pod that targets several builds
 * keeps the one chosen, and a warning says so.
 */
static void compute_parts(struct wg_ctx *ctx, struct wg_resources *list,
			  struct wg_resource *res, struct wg_selection *sel)
{
	struct wg_arena *arena = &list->arena;
	const struct wg_selection *first = NULL;

	sel->parts = wg_arena_zalloc(arena, sel->npods * sizeof(*sel->parts));
	for (size_t i = 0; i < sel->npods; i++) {
		struct wg_selection *part = &sel->parts[i];

		part->workload = true;
		part->pods = &sel->pods[i];
		part->npods = 1;
		part->pod = sel->pods[i];
		part->kinds = sel->kinds;
		compute(ctx, list, res, part);
		if (part->ntargets) {
			struct wg_buf path = WG_BUF_INIT;

			wg_warning(ctx, res, wg_podspec_anchor(part->pods),
				   wg_podspec_path(&path, part->pods,
						   (const char *)NULL),
				   "targets %zu builds (%s), but fan-out "
				   "copies whole objects, not one pod of a %s: "
				   "only build %s is used", part->ntargets,
				   part->targets_why, part->pods->kind->kind,
				   wg_sel_build_label(arena, part->build));
			wg_buf_release(&path);
			part->targets = NULL;
			part->ntargets = 0;
		}
		sel->failed = sel->failed || part->failed;
		sel->pod_windows = sel->pod_windows || part->pod_windows;
		if (part->windows && !part->failed && !first)
			first = part;
	}
	if (!first)
		return;
	sel->windows = true;
	sel->host_process = first->host_process;
	sel->by = first->by;
	sel->entry = first->entry;
	sel->build = first->build;
	sel->why = first->why;
	sel->build_why = first->build_why;
	sel->reason = first->reason;
}

static bool decided_apart(const struct wg_selection *sel)
{
	return sel->npods && sel->pods[0].kind->shape
	       && sel->pods[0].kind->shape->apart;
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
				      wg_sel_build_label(arena, b),
				      sel->build_why);
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
	if (sel->workload && ctx->profile && ctx->profile->nbuilds) {
		if (decided_apart(sel))
			compute_parts(ctx, list, res, sel);
		else
			compute(ctx, list, res, sel);
	}
	return sel;
}
