/*
 * pod-os: declares a Windows workload's pods as Windows pods.
 *
 * Sets spec.os.name: windows (GA in 1.25).  It does not schedule, but the
 * kubelet rejects a pod whose os.name is not its node's OS, the API server
 * then validates the pod with the Windows rules (windows-security removes
 * what they forbid), and Pod Security "restricted" skips its Linux-only
 * checks only for pods that say so (windows.md 4).  An os.name that says
 * anything else is an error, never overwritten.  A kind whose pods have
 * no os (an Argo template, a Tekton pod template) is told so, once.
 */
#include "tx.h"

/* One pod template of the workload. */
static void run_pod(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, struct wg_selection *sel,
		    const struct wg_podspec *ps)
{
	struct wg_buf path = WG_BUF_INIT;
	struct wg_node *os, *name, *v;

	os = tx_ensure_map(ctx, list, res, ps, "os", sel->reason);
	if (!os)
		goto out;
	name = wg_map_get(os, "name");
	wg_podspec_path(&path, ps, "os", "name", (const char *)NULL);
	if (wg_scalar_is(name, "windows"))
		goto out;
	if (!wg_node_is_null(name)) {
		wg_error(ctx, res, name, path.buf,
			 "is '%.*s', but this is a Windows workload (%s); "
			 "wingen does not overwrite it",
			 wg_is_scalar(name) ? (int)name->len : 0,
			 wg_is_scalar(name) ? name->u.str : "", sel->why);
		goto out;
	}
	v = wg_node_new_str(&list->arena, "windows");
	wg_map_set(&list->arena, os, "name", v);
	wg_record_change(ctx, WG_CHANGE_SET, res,
			 tx_pos(name, tx_pod_pos(os, ps)), path.buf,
			 NULL, v, sel->reason);
out:
	wg_buf_release(&path);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	(void)config;
	tx_each_windows_pod(ctx, list, res, "os", run_pod, false,
			    "the API server does not hold its pods to the "
			    "Windows rules, and the nodeSelector "
			    "kubernetes.io/os: windows places them");
	return 0;
}

const struct wg_plugin wg_tx_pod_os = {
	.name = "pod-os",
	.summary = "set spec.os.name: windows on Windows workloads",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
};
