/*
 * tolerations: lets a Windows workload onto tainted Windows nodes.
 *
 * Appends the toleration of the profile's taint ({key, operator: Equal,
 * value, effect}; operator Exists when the taint has no value) unless a
 * toleration already present tolerates at least as much, by the API
 * server's own superset rule (windows.md 1.2), so nothing is duplicated
 * and the result is what the RuntimeClass admission merge would keep.
 */
#include "tx.h"
#include "wingen/k8s/sched.h"

/*
 * A NoExecute toleration with tolerationSeconds bounds how long a pod
 * stays on a node after the taint appears (the taint manager evicts it
 * then).  Ours has no bound: added beside a bounded one it covers, it
 * lets the pod stay forever, silently undoing the bound.  A warning at
 * the bounded toleration; write the taint's toleration with the same
 * tolerationSeconds to keep it.
 */
static void warn_unbounded(struct wg_ctx *ctx, struct wg_arena *arena,
			   const struct wg_resource *res,
			   const struct wg_podspec *ps,
			   const struct wg_node *seq, const struct wg_node *t,
			   struct wg_buf *path)
{
	if (!wg_is_seq(seq)
	    || !wg_scalar_is(wg_map_get(t, "effect"), "NoExecute"))
		return;
	for (size_t i = 0; i < seq->len; i++) {
		const struct wg_node *e = wg_seq_item(seq, i);
		const struct wg_node *secs = wg_map_get(e, "tolerationSeconds");
		struct wg_node *unbounded;

		if (wg_node_is_null(secs) || !wg_is_map(e))
			continue;
		/* does it tolerate the taint, its bound aside? */
		unbounded = wg_node_clone(arena, e);
		wg_map_delete(unbounded, "tolerationSeconds");
		if (!wg_toleration_superset(unbounded, t))
			continue;
		wg_podspec_path(path, ps, "tolerations", (const char *)NULL);
		wg_buf_addf(path, "[%zu]", i);
		wg_warning(ctx, res, e, path->buf, "tolerates the Windows "
			   "taint for %.*s seconds only, but the toleration "
			   "added for windows.taint has no tolerationSeconds: "
			   "the pod now stays on tainted nodes without bound; "
			   "add the taint's toleration with tolerationSeconds "
			   "yourself to keep the bound",
			   wg_is_scalar(secs) ? (int)secs->len : 0,
			   wg_is_scalar(secs) ? secs->u.str : "");
	}
}

/* One pod template of the workload. */
static void run_pod(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, struct wg_selection *sel,
		    const struct wg_podspec *ps)
{
	const struct wg_taint *taint = &ctx->profile->taint;
	struct wg_buf path = WG_BUF_INIT;
	struct wg_node *t, *seq;
	const char *reason;

	seq = wg_map_get(ps->spec, "tolerations");
	if (seq && !wg_is_seq(seq) && !wg_node_is_null(seq)) {
		wg_error(ctx, res, seq,
			 wg_podspec_path(&path, ps, "tolerations",
					 (const char *)NULL),
			 "is not a list");
		goto out;
	}
	t = wg_taint_toleration(&list->arena, taint);
	if (wg_tolerations_find_superset(seq, t) >= 0)
		goto out;
	warn_unbounded(ctx, &list->arena, res, ps, seq, t, &path);
	/* DaemonSets must carry this themselves, whatever is decided for
	 * other kinds: their controller ignores RuntimeClass scheduling. */
	reason = sel->reason;
	if (ps->kind->node_agent && !ctx->skip_changes)
		reason = wg_arena_printf(&list->arena, "%s; %s", reason,
					 TX_DAEMONSET_NOTE);
	/* the pod's own list (a shape's pod that inherits one gets its
	 * own copy first) */
	seq = tx_ensure(ctx, list, res, ps, "tolerations", WG_NODE_SEQ,
			reason);
	if (!seq)
		goto out;
	wg_seq_append(&list->arena, seq, t);
	wg_podspec_path(&path, ps, "tolerations", (const char *)NULL);
	wg_buf_addf(&path, "[%zu]", (size_t)seq->len - 1);
	wg_record_change(ctx, WG_CHANGE_ADD, res, tx_pod_pos(seq, ps),
			 path.buf, NULL, t, reason);
out:
	wg_buf_release(&path);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	(void)config;
	if (!ctx->profile->taint.key)
		return 0;
	tx_each_windows_pod(ctx, list, res, "tolerations", run_pod, true,
			    "its pods cannot tolerate the Windows nodes' "
			    "taint (windows.taint), so they do not schedule "
			    "there: declare where its pods take tolerations");
	return 0;
}

const struct wg_plugin wg_tx_tolerations = {
	.name = "tolerations",
	.summary = "tolerate the Windows nodes' taint, unless an equal or "
		   "broader toleration is there",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
};
