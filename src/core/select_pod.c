/*
 * Selection: the pod template's own say.  Whether a pod spec already
 * targets Windows (its nodeSelector, os.name, affinity, RuntimeClass, a
 * HostProcess pod).
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/core/retarget.h"
#include "wingen/k8s/sched.h"

/* ---- the pod template's own say ----------------------------------------- */

const char *const wg_sel_os_keys[2] = {
	WG_LABEL_OS, WG_LABEL_OS_BETA,
};
const char *const wg_sel_arch_keys[2] = {
	WG_LABEL_ARCH, WG_LABEL_ARCH_BETA,
};

static bool rc_selects_windows(const struct wg_resource *rc)
{
	const struct wg_node *ns = wg_path_get(rc->root,
					       "scheduling.nodeSelector");

	for (size_t i = 0; i < 2; i++)
		if (wg_scalar_is(wg_map_get(ns, wg_sel_os_keys[i]), "windows"))
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
		const char *key = wg_sel_os_keys[i];

		if (wg_scalar_is(wg_map_get(ns, key), "windows")) {
			wg_podspec_path(field, ps, "nodeSelector", key,
					(const char *)NULL);
			return true;
		}
	}
	if (wg_scalar_is(wg_path_get(spec, "os.name"), "windows")) {
		wg_podspec_path(field, ps, "os", "name", (const char *)NULL);
		return true;
	}
	for (size_t i = 0; i < 2; i++) {
		if (wg_affinity_requires(spec, wg_sel_os_keys[i], "windows")) {
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
bool wg_sel_pod_targets_windows(const struct wg_profile *p,
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

bool wg_sel_host_process(const struct wg_selection *sel)
{
	for (size_t i = 0; i < sel->npods; i++)
		if (spec_host_process(&sel->pods[i]))
			return true;
	return false;
}

void wg_sel_own_runtime_class(const struct wg_profile *p,
			      struct wg_resources *list,
			      struct wg_selection *sel)
{
	const struct wg_node *name = NULL;
	const struct wg_resource *rc;
	const struct wg_node *h;
	char *text;

	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_node *n = wg_map_get(sel->pods[i].spec,
						     "runtimeClassName");

		if (!wg_is_scalar(n) || wg_node_is_null(n) || !n->len
		    || (name && !wg_node_equal(name, n)))
			return;	/* none, or templates that disagree */
		name = n;
	}
	if (!name)
		return;
	text = wg_scalar_dup(&list->arena, name);
	for (size_t i = 0; i < p->nbuilds; i++)
		if (strcmp(p->builds[i].runtime_class, text) == 0)
			return;
	rc = wg_select_runtime_class(list, text);
	if (!rc) {
		sel->foreign_rc_name = text;
		sel->foreign_rc_release = wg_retarget_rc_release(text,
			strlen(text), NULL);
		return;
	}
	if (!rc_selects_windows(rc))
		return;
	h = wg_map_get(rc->root, "handler");
	sel->own_rc = rc;
	sel->own_rc_name = text;
	sel->own_handler = wg_is_scalar(h) && h->len
			   ? wg_scalar_dup(&list->arena, h) : NULL;
}

const char *wg_sel_handler(const struct wg_selection *sel,
			   const struct wg_build *b)
{
	return sel->own_rc ? sel->own_handler : b->handler;
}
