#ifndef WINGEN_TX_H
#define WINGEN_TX_H

/*
 * Helpers shared by the workload transforms of this folder (private: not
 * a contract of the core).
 */

#include "wingen/core/plugin.h"
#include "wingen/core/select.h"

/* The prepare hook of every workload transform: select the whole list
 * once, so unmatched windows.select entries are reported. */
static inline int tx_prepare(struct wg_ctx *ctx, struct wg_resources *list,
			     const void *config)
{
	(void)config;
	return wg_select_prepare(ctx, list);
}

/* The selection of res when it is a Windows workload to transform. */
static inline struct wg_selection *tx_windows(struct wg_ctx *ctx,
					      struct wg_resources *list,
					      struct wg_resource *res)
{
	struct wg_selection *sel = wg_select(ctx, list, res);

	return sel->windows && !sel->failed ? sel : NULL;
}

/* The selection of pod i of sel (a Windows workload) when that pod is to
 * be made a Windows pod, else NULL: a kind whose pods are decided apart
 * (an Argo workflow) has Linux pods beside its Windows ones. */
static inline struct wg_selection *tx_windows_pod(struct wg_selection *sel,
						  size_t i)
{
	struct wg_selection *part = wg_select_pod(sel, i);

	return part->windows && !part->failed ? part : NULL;
}

/*
 * The mapping (want WG_NODE_MAP) or list (WG_NODE_SEQ) under key where
 * the pod's own value is, created when missing or null (for a shape, in
 * its own holder, with the value it inherited copied in first:
 * wg_podspec_ensure(), recorded with reason).  Reports an error and
 * returns NULL when it holds something else; NULL without a word when
 * the kind has no place for key (callers ask wg_podspec_has() first).
 */
static inline struct wg_node *tx_ensure(struct wg_ctx *ctx,
					struct wg_resources *list,
					struct wg_resource *res,
					const struct wg_podspec *ps,
					const char *key, int want,
					const char *reason)
{
	const struct wg_node *bad;
	const char *bad_path;
	struct wg_node *m = wg_podspec_ensure(ctx, &list->arena, res, ps, key,
					      want, reason, &bad, &bad_path);

	if (!m && bad_path)
		wg_error(ctx, res, bad, bad_path, want == WG_NODE_SEQ
			 ? "is not a list" : "is not a mapping");
	return m;
}

static inline struct wg_node *tx_ensure_map(struct wg_ctx *ctx,
					    struct wg_resources *list,
					    struct wg_resource *res,
					    const struct wg_podspec *ps,
					    const char *key, const char *reason)
{
	return tx_ensure(ctx, list, res, ps, key, WG_NODE_MAP, reason);
}

/*
 * Says once per workload that a setting was not written because its kind
 * has no place for it (an Argo template has no runtimeClassName, a Tekton
 * pod template no os): an info, or a warning when warn, at the first pod
 * ps that lacks it, naming how many pods (npods) it concerns.
 */
static inline void tx_no_place(struct wg_ctx *ctx, struct wg_resource *res,
			       const struct wg_podspec *ps, size_t npods,
			       const char *key, bool warn, const char *why)
{
	struct wg_buf path = WG_BUF_INIT, count = WG_BUF_INIT;

	if (npods > 1)
		wg_buf_addf(&count, " (on its %zu Windows pods)", npods);
	wg_report(ctx, warn ? WG_SEV_WARNING : WG_SEV_INFO, res,
		  wg_podspec_anchor(ps),
		  wg_podspec_own_path(&path, ps, key, (const char *)NULL),
		  "not written%s: %s%s%s has no %s for its pods; %s",
		  count.len ? count.buf : "", ps->kind->kind,
		  ps->kind->project ? " of " : "",
		  ps->kind->project ? ps->kind->project : "", key, why);
	wg_buf_release(&count);
	wg_buf_release(&path);
}

/* One pod of a Windows workload, with the selection that decides it. */
typedef void (*tx_pod_fn)(struct wg_ctx *ctx, struct wg_resources *list,
			  struct wg_resource *res, struct wg_selection *sel,
			  const struct wg_podspec *ps);

/*
 * Runs fn on each Windows pod of res (tx_windows_pod()) whose kind has a
 * place for key; the Windows pods that have none are said once
 * (tx_no_place(), a warning when warn, with why).
 */
static inline void tx_each_windows_pod(struct wg_ctx *ctx,
				       struct wg_resources *list,
				       struct wg_resource *res,
				       const char *key, tx_pod_fn fn,
				       bool warn, const char *why)
{
	struct wg_selection *sel = tx_windows(ctx, list, res);
	const struct wg_podspec *first = NULL;
	size_t nowhere = 0;

	for (size_t i = 0; sel && i < sel->npods; i++) {
		if (!tx_windows_pod(sel, i))
			continue;
		if (wg_podspec_has(&sel->pods[i], key))
			fn(ctx, list, res, tx_windows_pod(sel, i),
			   &sel->pods[i]);
		else if (!nowhere++)
			first = &sel->pods[i];
	}
	if (nowhere)
		tx_no_place(ctx, res, first, nowhere, key, warn, why);
}

/* Whether the value under key is present and neither a mapping nor null. */
static inline bool tx_not_map(const struct wg_node *m, const char *key)
{
	const struct wg_node *v = wg_map_get(m, key);

	return v && !wg_is_map(v) && !wg_node_is_null(v);
}

/* The node to place a change at: n when it came from the input, else the
 * nearest parent that did. */
static inline const struct wg_node *tx_pos(const struct wg_node *n,
					   const struct wg_node *parent)
{
	return n && !(n->flags & WG_NODE_NEW) ? n : parent;
}

/* tx_pos() within the pod ps: its anchor (wg_podspec_anchor()) when n
 * is new. */
static inline const struct wg_node *tx_pod_pos(const struct wg_node *n,
					       const struct wg_podspec *ps)
{
	return tx_pos(n, wg_podspec_anchor(ps));
}

#define TX_DAEMONSET_NOTE \
	"written on the DaemonSet itself, because the DaemonSet controller " \
	"ignores RuntimeClass scheduling (kubernetes#111590)"

#endif
