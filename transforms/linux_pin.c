/*
 * linux-pin: keeps everything that is not a Windows workload off Windows
 * nodes.
 *
 * A pod without an OS selector can land on any OS (windows.md 8).  With
 * linux.pin: true every workload that is not a Windows workload gets
 * nodeSelector kubernetes.io/os: linux, unless it already names an OS
 * (nodeSelector kubernetes.io/os or beta.kubernetes.io/os, or required
 * node affinity on either key), or its pod template targets Windows and
 * was opted out by annotation.
 *
 * A DaemonSet that tolerates every taint (operator Exists with no key)
 * walks past the Windows taint, so it is pinned even with linux.pin:
 * false, and the change says why.
 *
 * windowsOptions on a pod pinned to Linux, or already on Linux by its
 * nodeSelector or affinity, is a warning: it means nothing on a Linux
 * node, but the API server rejects it only when the pod says os.name
 * linux (validateLinux), which wingen never writes; there it is an error.
 * No refusal is stricter than the API server's.
 */
#include <string.h>

#include "tx.h"
#include "wingen/transforms/linux_pin.h"
#include "wingen/k8s/sched.h"
#include "wingen/k8s/keys.h"

static const char *const os_keys[] = {
	WG_LABEL_OS, WG_LABEL_OS_BETA,
};

/* Whether the pod spec already says which OS it runs on. */
static bool names_os(const struct wg_node *spec)
{
	const struct wg_node *ns = wg_map_get(spec, "nodeSelector");

	for (size_t i = 0; i < 2; i++)
		if (wg_map_get(ns, os_keys[i])
		    || wg_affinity_mentions(spec, os_keys[i], NULL))
			return true;
	return false;
}

static bool says_linux(const struct wg_node *spec)
{
	const struct wg_node *ns = wg_map_get(spec, "nodeSelector");

	for (size_t i = 0; i < 2; i++)
		if (wg_scalar_is(wg_map_get(ns, os_keys[i]), "linux")
		    || wg_affinity_requires(spec, os_keys[i], "linux"))
			return true;
	return wg_scalar_is(wg_path_get(spec, "os.name"), "linux");
}

/* A toleration with no key and operator Exists that tolerates the
 * profile's taint (any taint when the profile has none). */
static bool blanket(struct wg_arena *arena, const struct wg_profile *p,
		    const struct wg_node *spec)
{
	const struct wg_node *seq = wg_map_get(spec, "tolerations");
	struct wg_node *t = wg_node_new_map(arena);

	wg_map_insert(arena, t, 0, "key",
		      wg_node_new_str(arena, p->taint.key ? p->taint.key
							  : "any"));
	wg_map_insert(arena, t, 1, "operator",
		      wg_node_new_str(arena, "Exists"));
	if (p->taint.effect)
		wg_map_insert(arena, t, 2, "effect",
			      wg_node_new_str(arena, p->taint.effect));
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++) {
		const struct wg_node *tol = wg_seq_item(seq, i);
		const struct wg_node *key = wg_map_get(tol, "key");

		if ((wg_node_is_null(key) || wg_scalar_is(key, ""))
		    && wg_toleration_superset(tol, t))
			return true;
	}
	return false;
}

/* windowsOptions at n (field path) on a pod that runs on Linux: an
 * error where the API server rejects it (the pod's own os.name linux),
 * else a warning. */
static void linux_windows_options(struct wg_ctx *ctx,
				  struct wg_resource *res,
				  const struct wg_node *n, const char *field,
				  bool os_linux)
{
	if (os_linux)
		wg_error(ctx, res, n, field, "windows options cannot be set "
			 "for a linux pod (spec.os.name is linux)");
	else
		wg_warning(ctx, res, n, field, "is set on a pod that runs on "
			   "Linux, where it means nothing (the API server "
			   "accepts it while spec.os.name is not linux)");
}

static void check_windows_options(struct wg_ctx *ctx,
				  struct wg_resource *res,
				  const struct wg_podspec *ps,
				  struct wg_buf *path)
{
	const struct wg_node *wo = wg_path_get(ps->spec,
					       "securityContext.windowsOptions");
	bool os_linux = wg_scalar_is(wg_path_get(ps->spec, "os.name"),
				     "linux");
	struct wg_container_iter it;
	struct wg_container c;

	if (wo)
		linux_windows_options(ctx, res, wo,
			wg_podspec_path(path, ps, "securityContext",
					"windowsOptions", (const char *)NULL),
			os_linux);
	wg_container_iter_init(&it, ps->spec);
	while (wg_container_next(&it, &c)) {
		wo = wg_path_get(c.node, "securityContext.windowsOptions");
		if (wo)
			linux_windows_options(ctx, res, wo,
				wg_container_path(path, ps, &c,
						  "securityContext",
						  "windowsOptions",
						  (const char *)NULL),
				os_linux);
	}
}

static const char *pin_reason(struct wg_arena *a,
			      const struct wg_linux_pin_settings *set,
			      const struct wg_selection *sel, bool ds_blanket)
{
	const char *who = sel->opted_out
		? "opted out of Windows by annotation " WG_ANNOTATION_WINDOWS
		: "not a Windows workload";

	if (sel->opted_out && sel->windows_image)	/* said out loud */
		who = wg_arena_printf(a, "%s, though %s: it starts only on "
				      "Windows nodes", who,
				      sel->windows_image_why);

	if (ds_blanket)
		return wg_arena_printf(a, "%s%s; the DaemonSet tolerates every "
				       "taint (operator Exists, no key), so "
				       "the Windows taint cannot keep it off "
				       "Windows nodes", set->pin
				       ? "linux.pin: " : "", who);
	return wg_arena_printf(a, "linux.pin: %s; without an OS selector "
			       "it could land on a Windows node", who);
}

/* Whether the pod ps (of selection sel) is to be pinned. */
static bool to_pin(struct wg_arena *a, const struct wg_profile *p,
		   const struct wg_selection *sel, const struct wg_podspec *ps,
		   const struct wg_linux_pin_settings *set, bool *ds_blanket)
{
	const char *what, *at_path;
	const struct wg_node *at;

	*ds_blanket = ps->kind->node_agent && blanket(a, p, ps->spec);
	/* what it runs is in an object the stream does not hold (the
	 * reference check says so): it may be a Windows pod */
	if (wg_podspec_unresolved(ps, &what, &at, &at_path))
		return false;
	return (set->pin || *ds_blanket) && !names_os(ps->spec)
	       && !sel->pod_windows;
}

/* One pod template of the workload. */
static void run_pod(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, const struct wg_selection *sel,
		    const struct wg_podspec *ps,
		    const struct wg_linux_pin_settings *set)
{
	struct wg_buf path = WG_BUF_INIT;
	struct wg_node *ns, *v;
	bool ds_blanket, on_linux;

	on_linux = says_linux(ps->spec);
	if (to_pin(&list->arena, ctx->profile, sel, ps, set, &ds_blanket)) {
		const char *reason = pin_reason(&list->arena, set, sel,
						ds_blanket);

		ns = tx_ensure_map(ctx, list, res, ps, "nodeSelector", reason);
		if (!ns)
			goto out;
		v = wg_node_new_str(&list->arena, "linux");
		wg_map_insert(&list->arena, ns, ns->len, WG_LABEL_OS, v);
		wg_record_change(ctx, WG_CHANGE_ADD, res,
				 tx_pod_pos(ns, ps),
				 wg_podspec_path(&path, ps,
						 "nodeSelector",
						 WG_LABEL_OS,
						 (const char *)NULL),
				 NULL, v, reason);
		on_linux = true;
	}
	if (on_linux)
		check_windows_options(ctx, res, ps, &path);
out:
	wg_buf_release(&path);
}

/*
 * A shape whose pods inherit settings (an Argo workflow's spec, a
 * PipelineRun's taskRunTemplate pod template): when every pod that reads
 * its nodeSelector from there (or from nowhere) is to be pinned, the pin
 * is written there once, as a person would, not into each pod; a pod
 * with a nodeSelector of its own is pinned on its own.  Any such pod that
 * is not to be pinned (a Windows pod, one whose Task is not in the
 * stream) keeps it per pod.
 */
static void pin_shared(struct wg_ctx *ctx, struct wg_resources *list,
		       struct wg_resource *res, struct wg_selection *sel,
		       const struct wg_linux_pin_settings *set)
{
	const struct wg_selection *who = NULL;
	const char *path, *reason;
	struct wg_node *ns, *v;
	size_t first = sel->npods, n = 0;
	bool ds;
	int src = -2;

	if (!sel->npods || !sel->pods[0].view
	    || !wg_podspec_shape(&sel->pods[0])->shared[0])
		return;
	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_podspec *ps = &sel->pods[i];
		const struct wg_selection *part = wg_select_pod(sel, i);
		int s = wg_podspec_source(ps, "nodeSelector");

		if (s == 0)
			continue;	/* its own */
		if (part->windows || !to_pin(&list->arena, ctx->profile, part,
					     ps, set, &ds))
			return;
		if (src == -2) {
			src = s;
			first = i;
			who = part;
		} else if (s != src) {
			return;
		}
		n++;
	}
	if (!n)
		return;
	reason = pin_reason(&list->arena, set, who, false);
	ns = wg_podspec_ensure_shared(&list->arena, sel->pods, sel->npods,
				      first, "nodeSelector", WG_NODE_MAP,
				      &path);
	if (!ns)
		return;	/* each pod then, with the error if any */
	v = wg_node_new_str(&list->arena, "linux");
	wg_map_insert(&list->arena, ns, ns->len, WG_LABEL_OS, v);
	wg_podspec_refresh(&list->arena, sel->pods, sel->npods);
	wg_record_change(ctx, WG_CHANGE_ADD, res,
			 tx_pod_pos(ns, &sel->pods[first]),
			 wg_arena_printf(&list->arena, "%s.[%s]", path,
					 WG_LABEL_OS), NULL, v,
			 wg_arena_printf(&list->arena, "%s; written once for "
					 "the %zu pod%s that read%s "
					 "nodeSelector there", reason, n,
					 n == 1 ? "" : "s", n == 1 ? "s" : ""));
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	struct wg_selection *sel = wg_select(ctx, list, res);
	const struct wg_linux_pin_settings *set = config ? config
		: &wg_linux_pin_defaults;

	if (!ctx->profile || !sel->workload || sel->failed)
		return 0;
	pin_shared(ctx, list, res, sel, set);
	/* a kind whose pods are decided apart (an Argo workflow) has Linux
	 * pods beside its Windows ones */
	for (size_t i = 0; i < sel->npods; i++)
		if (!wg_select_pod(sel, i)->windows)
			run_pod(ctx, list, res, wg_select_pod(sel, i),
				&sel->pods[i], set);
	return 0;
}

/* ---- settings: linux.pin ------------------------------------------------- */

const struct wg_linux_pin_settings wg_linux_pin_defaults = { .pin = true };

/* The loader has refused any boolean but true and false (and their
 * capitalised spellings), so YAML's reading of one is the setting. */
static int settings(struct wg_ctx *ctx, const struct wg_profile *p,
		    struct wg_arena *arena, const void **out)
{
	struct wg_linux_pin_settings *set = wg_arena_alloc(arena, sizeof(*set));
	const struct wg_node *pin = wg_path_get(p->root, "linux.pin");

	(void)ctx;
	*set = wg_linux_pin_defaults;
	if (wg_is_scalar(pin) && !wg_node_is_null(pin))
		set->pin = wg_node_true(pin);
	*out = set;
	return 0;
}

static void write_settings(const void *settings, struct wg_arena *a,
			   struct wg_node *root)
{
	const struct wg_linux_pin_settings *set = settings;
	struct wg_node *m = wg_map_set(a, root, "linux", wg_node_new_map(a));

	wg_map_set(a, m, "pin", wg_node_new_plain(a, set->pin ? "true"
						  : "false"));
}

const struct wg_plugin wg_tx_linux_pin = {
	.name = "linux-pin",
	.summary = "pin every other workload to Linux "
		   "(kubernetes.io/os: linux)",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
	.settings = settings,
	.write_settings = write_settings,
};
