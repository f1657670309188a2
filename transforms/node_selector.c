/*
 * node-selector: schedules a Windows workload on its build's nodes.
 *
 * Adds kubernetes.io/os: windows, kubernetes.io/arch and
 * node.kubernetes.io/windows-build of the chosen build to the pod spec's
 * nodeSelector, after the keys already there.  A nodeSelector or required
 * node affinity that says otherwise is an error, never overwritten.
 * HostProcess pods get no windows-build key: HostProcess containers need
 * not match the host's build (windows.md 2.1), and they are typically
 * node agents that must run on every Windows node; nor do node agents of
 * the embedded default whose images name no build (select.h any_build).  A node agent on
 * builds of several arches (select.h arches) gets required affinity
 * kubernetes.io/arch In [...] in place of the arch key.
 */
#include <string.h>

#include "affinity.h"
#include "tx.h"
#include "wingen/core/retarget.h"
#include "wingen/k8s/sched.h"
#include "wingen/k8s/keys.h"

struct want {
	const char *key;
	const char *value;
	bool add;	/* added when missing (the beta keys are only checked) */
};

static size_t wanted(const struct wg_selection *sel, struct want *w)
{
	const struct wg_build *b = sel->build;
	size_t n = 0;

	w[n++] = (struct want){ WG_LABEL_OS, "windows", true };
	/* a node agent on several arches names them in node affinity */
	if (sel->narches < 2 && !sel->any_arch)
		w[n++] = (struct want){ WG_LABEL_ARCH, b->arch, true };
	/* fan-out's multi workloads name their builds in node affinity;
	 * HostProcess pods and the embedded default's node agents none */
	if (!sel->any_build && !sel->multi)
		w[n++] = (struct want){ WG_LABEL_WINDOWS_BUILD,
					b->release->build, true };
	w[n++] = (struct want){ WG_LABEL_OS_BETA, "windows", false };
	if (sel->narches < 2 && !sel->any_arch)
		w[n++] = (struct want){ WG_LABEL_ARCH_BETA, b->arch, false };
	return n;
}

/* Reports every key of ns that contradicts w; returns how many. */
static int check_selector(struct wg_ctx *ctx, struct wg_resources *list,
			  struct wg_resource *res,
			  const struct wg_selection *sel,
			  const struct wg_podspec *ps,
			  const struct wg_node *ns, const struct want *w,
			  size_t n, struct wg_buf *path)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct wg_node *v = wg_map_get(ns, w[i].key);

		if (!v || wg_scalar_is(v, w[i].value))
			continue;
		wg_error(ctx, res, v,
			 wg_podspec_path(path, ps, "nodeSelector",
					 w[i].key, (const char *)NULL),
			 "is '%.*s', but this is a Windows workload (%s) that "
			 "needs '%s' for build %s; wingen does not overwrite "
			 "it%s", wg_is_scalar(v) ? (int)v->len : 0,
			 wg_is_scalar(v) ? v->u.str : "", sel->why,
			 w[i].value, sel->build->release->name,
			 strcmp(w[i].key, WG_LABEL_WINDOWS_BUILD) == 0
			 && wg_is_scalar(v)
			 ? wg_retarget_hint_word_in(&list->arena,
						    ctx->profile, list, res,
						    v->u.str, v->len) : "");
		bad++;
	}
	return bad;
}

static int check_affinity(struct wg_ctx *ctx, struct wg_resource *res,
			  const struct wg_selection *sel,
			  const struct wg_podspec *ps, const struct want *w,
			  size_t n, struct wg_buf *path)
{
	struct wg_label labels[8];
	struct wg_buf list = WG_BUF_INIT;
	const struct wg_node *where = NULL;
	size_t nl = 0;

	for (size_t i = 0; i < n; i++) {
		labels[nl].key = w[i].key;
		labels[nl++].value = w[i].value;
		if (w[i].add) {
			if (list.len)
				wg_buf_addstr(&list, ", ");
			wg_buf_addf(&list, "%s=%s", w[i].key, w[i].value);
		}
	}
	if (wg_affinity_judge(ps->spec, labels, nl, &where)
	    != WG_AFFINITY_EXCLUDES) {
		wg_buf_release(&list);
		return 0;
	}
	wg_error(ctx, res, where,
		 wg_podspec_path(path, ps, "affinity", "nodeAffinity",
				 "requiredDuringSchedulingIgnoredDuringExecution",
				 (const char *)NULL),
		 "rules out the Windows nodes of build %s (%s) in every term, "
		 "but this is a Windows workload (%s); wingen does not "
		 "overwrite it", sel->build->release->name, list.buf,
		 sel->why);
	wg_buf_release(&list);
	return 1;
}

/* One pod template of the workload. */
static void run_pod(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, struct wg_selection *sel,
		    const struct wg_podspec *ps)
{
	struct wg_buf path = WG_BUF_INIT;
	struct want w[5];
	struct wg_node *ns;
	const char *reason;
	size_t n;
	int bad;

	n = wanted(sel, w);
	if (tx_not_map(ps->spec, "nodeSelector")) {
		tx_ensure_map(ctx, list, res, ps, "nodeSelector", sel->reason);
		return;
	}
	ns = wg_map_get(ps->spec, "nodeSelector");
	bad = check_selector(ctx, list, res, sel, ps, ns, w, n, &path);
	bad += check_affinity(ctx, res, sel, ps, w, n, &path);
	if (bad) {
		sel->reported |= WG_SEL_NODESEL_CONFLICT;
		wg_buf_release(&path);
		return;
	}
	/* DaemonSets must carry this themselves, whatever is decided for
	 * other kinds: their controller ignores RuntimeClass scheduling. */
	reason = sel->reason;
	if (ps->kind->node_agent)
		reason = wg_arena_printf(&list->arena, "%s; %s", reason,
					 TX_DAEMONSET_NOTE);
	if (sel->any_build)
		reason = wg_arena_printf(&list->arena, "%s; %s", reason,
					 sel->any_build_why);
	if (sel->any_build && (!sel->host_process || sel->any_arch))
		/* --explain says why */
		wg_info(ctx, res, ns ? ns : ps->spec,
			wg_podspec_path(&path, ps, "nodeSelector",
					(const char *)NULL),
			"no %s key, no RuntimeClass%s: %s",
			WG_LABEL_WINDOWS_BUILD,
			sel->any_arch ? ", no " WG_LABEL_ARCH " key" : "",
			sel->any_build_why);
	for (size_t i = 0; i < n; i++) {
		struct wg_node *v;

		if (!w[i].add || wg_map_get(ns, w[i].key))
			continue;
		/* the pod's own map: a shape's pod that inherits one
		 * (an Argo workflow's) gets its own copy first, so the
		 * other pods keep theirs */
		if (!wg_is_map(ns) || wg_podspec_inherits(ps, "nodeSelector"))
			ns = tx_ensure_map(ctx, list, res, ps,
					   "nodeSelector", reason);
		if (!ns)
			break;
		v = wg_node_new_str(&list->arena, w[i].value);
		wg_map_insert(&list->arena, ns, ns->len, w[i].key, v);
		wg_record_change(ctx, WG_CHANGE_ADD, res,
				 tx_pod_pos(ns, ps),
				 wg_podspec_path(&path, ps,
						 "nodeSelector", w[i].key,
						 (const char *)NULL),
				 NULL, v, reason);
	}
	if (sel->narches > 1) {
		struct wg_buf what = WG_BUF_INIT;

		for (size_t i = 0; i < sel->narches; i++)
			wg_buf_addf(&what, "%s%s", i ? ", " : "arches ",
				    sel->arches[i]);
		tx_require_in(ctx, list, res, sel, ps, WG_LABEL_ARCH,
			      sel->arches, sel->narches, what.buf,
			      wg_arena_printf(&list->arena, "%s; a node agent "
			      "on %s: one object for every arch, as its "
			      "multi-platform images are", reason, what.buf));
		wg_buf_release(&what);
	}
	wg_buf_release(&path);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	(void)config;
	tx_each_windows_pod(ctx, list, res, "nodeSelector", run_pod, true,
			    "nothing places its Windows pods on Windows nodes");
	return 0;
}

const struct wg_plugin wg_tx_node_selector = {
	.name = "node-selector",
	.summary = "schedule Windows workloads on their build's nodes "
		   "(kubernetes.io/os, arch, windows-build)",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
};
