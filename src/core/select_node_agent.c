/*
 * Selection: a node agent (a DaemonSet, a HostProcess workload) in a
 * profile of several builds reaches every build it can.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/core/pipeline.h"
#include "wingen/k8s/images.h"
#include "wingen/k8s/sched.h"

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
			const struct wg_node *v
				= wg_map_get(ns, wg_sel_arch_keys[k]);

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

/* Whether an image of sel names a Windows release (images.h); *arch
 * true when one names an arch, or a release with no arm64 images (its
 * tag has no arm64 platform to pull). */
static bool names_release(const struct wg_selection *sel, bool *arch)
{
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_image_ref ref;
	bool release = false;

	for (size_t i = 0; i < sel->npods; i++) {
		wg_container_iter_init(&it, sel->pods[i].spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");

			if (!wg_is_scalar(image))
				continue;
			wg_image_parse(image->u.str, image->len, &ref);
			*arch = *arch || ref.arch
				|| (ref.release
				    && !wg_release_arm64_images(ref.release));
			release = release || ref.release;
		}
	}
	return release;
}

/*
 * A node agent under the embedded default profile, whose builds are
 * routes, not the cluster's (it may have nodes of any build, 23H2
 * among them): one whose images name no release (one multi-platform
 * image, as CSI node plugins and pre-pull DaemonSets ship) keeps every
 * Windows node it reached: no windows-build key and no RuntimeClass,
 * like a HostProcess pod, and no arch key unless an image names one (nor
 * has a HostProcess node agent, which runs on any build already).
 * One whose images name a release reaches every default build whose hosts
 * run them, as in a user's profile of several builds (fan-out targets:
 * one DaemonSet with required affinity windows-build In those builds),
 * with no RuntimeClass: its handler is containerd's default, and none
 * would be installed for it where Helm runs wingen as a post-renderer.
 */
static void default_agent(struct wg_arena *arena, const struct wg_profile *p,
			  struct wg_selection *sel)
{
	struct wg_image_ref ref;
	const struct wg_build **ok;
	size_t nok = 0;
	bool arch = false;

	if (sel->host_process) {
		/* any build already; a DaemonSet any arch too unless an
		 * image says one (the default's amd64 is a route, not the
		 * cluster's; a HostProcess Pod or Deployment keeps it) */
		(void)names_release(sel, &arch);
		sel->any_arch = !arch && sel->pod.kind
				&& sel->pod.kind->node_agent;
		if (sel->any_arch)
			sel->any_build_why = "a HostProcess node agent whose "
				"images name no arch, under the embedded "
				"default profile, whose builds and arch are "
				"routes and not the cluster's: it keeps every "
				"Windows node it reaches";
		return;
	}
	if (!names_release(sel, &arch)) {
		sel->any_build = true;
		sel->any_arch = !arch;
		sel->any_build_why = "a node agent whose images name no "
			"Windows build, under the embedded default profile, "
			"whose builds are routes and not the cluster's: it "
			"keeps every Windows node it reaches";
		return;
	}
	ok = wg_arena_zalloc(arena, p->nbuilds * sizeof(*ok));
	for (size_t i = 0; i < p->nbuilds; i++)
		if (spec_admits(sel, &p->builds[i])
		    && !wg_sel_image_misfit(sel, &p->builds[i], &ref, NULL))
			ok[nok++] = &p->builds[i];
	if (nok < 2)
		return;		/* one build, or none: routed as any */
	sel->targets = ok;
	sel->ntargets = nok;
	sel->no_runtime_class = true;
	sel->targets_why = "a node agent: every build of the embedded "
			   "default profile whose hosts run its images";
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
 * RuntimeClass).  The embedded default's builds are routes, not the
 * cluster's: default_agent below.
 */
void wg_sel_node_agent_targets(struct wg_ctx *ctx, struct wg_arena *arena,
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

	if (!(sel->host_process
	      || (sel->pod.kind && sel->pod.kind->node_agent))
	    || names_one_build(arena, p, sel))
		return;
	if (wg_profile_is_embedded(p)) {
		default_agent(arena, p, sel);
		return;
	}
	if (p->nbuilds < 2)
		return;
	ok = wg_arena_zalloc(arena, p->nbuilds * sizeof(*ok));
	arches = wg_arena_zalloc(arena, p->nbuilds * sizeof(*arches));
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];

		if (!spec_admits(sel, b))
			continue;	/* its own choice */
		if ((image = wg_sel_image_misfit(sel, b, &ref, NULL))) {
			if (!at) {
				at = wg_sel_image_misfit(sel, b, &ref, &path);
				at_path = path.buf;
			}
			wg_buf_addf(&rest, "%s%s (whose hosts cannot run "
				    "'%.*s')", nmiss++ ? ", " : "",
				    wg_sel_build_label(arena, b),
				    (int)image->len, image->u.str);
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
