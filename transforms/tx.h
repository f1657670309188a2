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

/*
 * The mapping under key of the pod spec, created when missing or null.
 * Reports an error and returns NULL when it holds something else.
 */
static inline struct wg_node *tx_ensure_map(struct wg_ctx *ctx,
					    struct wg_resources *list,
					    struct wg_resource *res,
					    const struct wg_podspec *ps,
					    const char *key)
{
	struct wg_node *m = wg_map_ensure_map(&list->arena, ps->spec, key);
	struct wg_buf path = WG_BUF_INIT;

	if (!m)
		wg_error(ctx, res, wg_map_get(ps->spec, key),
			 wg_podspec_path(&path, ps, key, (const char *)NULL),
			 "is not a mapping");
	wg_buf_release(&path);
	return m;
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

#define TX_DAEMONSET_NOTE \
	"written on the DaemonSet itself, because the DaemonSet controller " \
	"ignores RuntimeClass scheduling (kubernetes#111590)"

#endif
