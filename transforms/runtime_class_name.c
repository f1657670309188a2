/*
 * runtime-class-name: points a Windows workload at its build's
 * RuntimeClass.
 *
 * Sets spec.runtimeClassName; a different value already there is an
 * error.  Then checks what the RuntimeClass admission plugin will check
 * when the pod is created (windows.md 1.2): a pod nodeSelector key whose
 * value differs from the RuntimeClass's scheduling.nodeSelector gets the
 * pod rejected; so does a spec.overhead that differs from the
 * RuntimeClass's overhead.podFixed by value (or is set when it has none).  wingen
 * never writes spec.overhead: admission fills it in.
 *
 * HostProcess pods are left without a RuntimeClass: they run on the host,
 * not in a build-specific sandbox.  A pod that names a RuntimeClass of the
 * stream that is no build's (select.h own_rc: a Hyper-V class installed
 * by hand) keeps it; only its admission rules are checked.
 */
#include <string.h>

#include "tx.h"
#include "wingen/core/retarget.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/quantity.h"

/* The scheduling.nodeSelector the build's RuntimeClass has: the one in
 * the stream, else the one the runtime-class generator writes. */
static const struct wg_node *rc_selector(struct wg_resources *list,
					 const struct wg_build *b,
					 const struct wg_resource *rc)
{
	struct wg_arena *a = &list->arena;
	struct wg_node *ns;

	if (rc)
		return wg_path_get(rc->root, "scheduling.nodeSelector");
	ns = wg_node_new_map(a);
	wg_map_insert(a, ns, ns->len, WG_LABEL_OS,
		      wg_node_new_str(a, "windows"));
	wg_map_insert(a, ns, ns->len, WG_LABEL_ARCH,
		      wg_node_new_str(a, b->arch));
	wg_map_insert(a, ns, ns->len, WG_LABEL_WINDOWS_BUILD,
		      wg_node_new_str(a, b->release->build));
	return ns;
}

static void check_admission(struct wg_ctx *ctx, struct wg_resources *list,
			    struct wg_resource *res,
			    const struct wg_selection *sel,
			    const struct wg_podspec *ps, const char *name,
			    struct wg_buf *path)
{
	const struct wg_build *b = sel->build;
	const struct wg_resource *rc = wg_select_runtime_class(list, name);
	const struct wg_node *want = rc_selector(list, b, rc);
	const struct wg_node *ns = wg_map_get(ps->spec, "nodeSelector");
	const struct wg_node *overhead = wg_map_get(ps->spec, "overhead");
	const struct wg_node *podfixed = rc
		? wg_path_get(rc->root, "overhead.podFixed") : b->overhead;

	for (size_t i = 0; wg_is_map(want) && wg_is_map(ns)
			   && !(sel->reported & WG_SEL_NODESEL_CONFLICT)
			   && i < want->len; i++) {
		const struct wg_node *k = wg_map_key(want, i);
		const struct wg_node *v = wg_map_value(want, i);
		long at = wg_map_findn(ns, k->u.str, k->len);
		char *key;

		if (at < 0 || wg_node_equal(wg_map_value(ns, (size_t)at), v))
			continue;
		key = wg_scalar_dup(&list->arena, k);
		wg_error(ctx, res, wg_map_value(ns, (size_t)at),
			 wg_podspec_path(path, ps, "nodeSelector", key,
					 (const char *)NULL),
			 "conflicts with RuntimeClass '%s' "
			 "scheduling.nodeSelector[%s] = '%.*s': the "
			 "RuntimeClass admission plugin rejects the pod",
			 name, key,
			 wg_is_scalar(v) ? (int)v->len : 0,
			 wg_is_scalar(v) ? v->u.str : "");
	}
	if (wg_node_is_null(overhead))
		return;
	wg_podspec_path(path, ps, "overhead", (const char *)NULL);
	/* Admission compares by value (apiequality.Semantic: "0.1" is
	 * "100m"); an empty overhead is filled in like a missing one. */
	if (podfixed && (wg_resource_list_equal(overhead, podfixed)
			 || (wg_is_map(overhead) && overhead->len == 0)))
		wg_warning(ctx, res, overhead, path->buf,
			   "is set; the RuntimeClass admission plugin fills "
			   "it in from RuntimeClass '%s', so leave it out",
			   name);
	else
		wg_error(ctx, res, overhead, path->buf,
			 "is set, but RuntimeClass '%s' defines %s overhead: "
			 "the RuntimeClass admission plugin rejects the pod",
			 name, podfixed ? "a different" : "no");
}

/*
 * A kind whose pods have no runtimeClassName (an Argo template): the
 * nodeSelector written places them on the build's nodes, where they run
 * with the node's default handler, containerd's process isolation, not
 * the build's: a warning when the build's handler isolates otherwise
 * (Hyper-V, whose older images process isolation may not run), else an
 * info.
 */
static void no_place(struct wg_ctx *ctx, struct wg_resources *list,
		     struct wg_resource *res, const struct wg_selection *sel,
		     const struct wg_podspec *ps, size_t n)
{
	const char *handler = sel->build->handler;
	const struct wg_release *uvm;
	bool plain = wg_handler_isolation(handler, &uvm)
		     == WG_ISOLATION_PROCESS;

	tx_no_place(ctx, res, ps, n, "runtimeClassName", !plain, plain
		    ? "the nodeSelector written places its pods on the "
		      "build's nodes, whose default handler runs them"
		    : wg_arena_printf(&list->arena, "its pods run with the "
				      "node's default handler (%s), not %s "
				      "of RuntimeClass '%s' (build %s, %s)",
				      wg_handler_rule(NULL), handler,
				      sel->build->runtime_class,
				      sel->build->release->name,
				      wg_handler_rule(handler)));
}

/* One pod template of the workload. */
static void run_pod(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, const struct wg_selection *sel,
		    const struct wg_podspec *ps)
{
	struct wg_buf path = WG_BUF_INIT;
	struct wg_node *cur, *v;
	const char *want;

	cur = wg_map_get(ps->spec, "runtimeClassName");
	want = sel->multi ? sel->runtime_class : sel->build->runtime_class;
	wg_podspec_path(&path, ps, "runtimeClassName",
			(const char *)NULL);
	if (sel->host_process) {
		if (wg_node_is_null(cur))
			wg_info(ctx, res, ps->spec, path.buf,
				"not set: HostProcess containers run on the "
				"host, outside any RuntimeClass sandbox");
		goto out;
	}
	/* a RuntimeClass would name one build, or none is to be named
	 * (select.h no_runtime_class) */
	if (sel->any_build || (sel->multi && !want))
		goto out;
	if (sel->own_rc && wg_scalar_is(cur, sel->own_rc_name)) {
		/* the user's own RuntimeClass (a Hyper-V class): kept */
		check_admission(ctx, list, res, sel, ps, sel->own_rc_name,
				&path);
		goto out;
	}
	if (wg_sel_keeps_foreign_rc(sel)
	    && wg_scalar_is(cur, sel->foreign_rc_name)) {
		/* a class the cluster may well have (the API server admits
		 * the pod when it does): kept, its pod pinned to the build
		 * by its own nodeSelector */
		wg_warning(ctx, res, cur, path.buf, "is '%s', a RuntimeClass "
			   "neither in the stream nor the profile's: kept, "
			   "but the nodes it selects and its handler are not "
			   "known to wingen (the pod's own nodeSelector keeps "
			   "it on build %s); put the RuntimeClass in the "
			   "stream to have it checked, or remove the field "
			   "for '%s'", sel->foreign_rc_name,
			   sel->build->release->name, want);
		goto out;
	}
	if (!wg_node_is_null(cur) && !wg_scalar_is(cur, want)) {
		wg_error(ctx, res, cur, path.buf,
			 "is '%.*s', but this Windows workload (%s) needs "
			 "RuntimeClass '%s' of build %s; wingen does not "
			 "overwrite it%s", wg_is_scalar(cur) ? (int)cur->len : 0,
			 wg_is_scalar(cur) ? cur->u.str : "", sel->why, want,
			 sel->build->release->name,
			 wg_is_scalar(cur) ? wg_retarget_hint_rc(&list->arena,
				ctx->profile, list, cur->u.str, cur->len) : "");
		goto out;
	}
	if (wg_node_is_null(cur)) {
		v = wg_node_new_str(&list->arena, want);
		if (!wg_podspec_set(&list->arena, ps, "runtimeClassName", v)) {
			wg_error(ctx, res, wg_podspec_anchor(ps), path.buf,
				 "cannot be written: something on its way is "
				 "not a mapping");
			goto out;
		}
		wg_podspec_own_path(&path, ps, "runtimeClassName",
				    (const char *)NULL);
		wg_record_change(ctx, WG_CHANGE_SET, res,
				 tx_pod_pos(cur, ps), path.buf, NULL, v,
				 sel->reason);
	}
	check_admission(ctx, list, res, sel, ps, want, &path);
out:
	wg_buf_release(&path);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	struct wg_selection *sel = tx_windows(ctx, list, res);

	const struct wg_podspec *first = NULL;
	size_t nowhere = 0;

	(void)config;
	for (size_t i = 0; sel && i < sel->npods; i++) {
		struct wg_selection *part = tx_windows_pod(sel, i);

		if (!part)
			continue;
		if (wg_podspec_has(&sel->pods[i], "runtimeClassName")
		    || part->host_process) {
			run_pod(ctx, list, res, part, &sel->pods[i]);
			continue;
		}
		if (!nowhere++)
			first = &sel->pods[i];
	}
	if (nowhere)
		no_place(ctx, list, res, wg_select_pod(sel, (size_t)(first
			 - sel->pods)), first, nowhere);
	return 0;
}

const struct wg_plugin wg_tx_runtime_class_name = {
	.name = "runtime-class-name",
	.summary = "set runtimeClassName to the build's RuntimeClass and "
		   "check RuntimeClass admission",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
};
