/*
 * wg_select_prepare, every plugin's first step: a pass over the list
 * (every resource selected, kinds wingen does not know looked at, entries
 * that matched nothing reported).  It sits above the decision (select.c)
 * and the unknown-kind detector (select_unknown.c), which it runs.
 */
#include "select_internal.h"

static int prepare(struct wg_ctx *ctx, struct wg_resources *list);

int wg_select_prepare(struct wg_ctx *ctx, struct wg_resources *list)
{
	/* What selection reports is its own, not the plugin's whose
	 * prepare happens to run it first (diag.h's rule). */
	const char *plugin = ctx->plugin;
	int rc;

	ctx->plugin = WG_SELECT_RULE;
	rc = prepare(ctx, list);
	ctx->plugin = plugin;
	return rc;
}

static int prepare(struct wg_ctx *ctx, struct wg_resources *list)
{
	struct wg_select_state *st = wg_sel_state(list);
	const struct wg_profile *p = ctx->profile;

	/* Every plugin's prepare lands here; once the list is selected a
	 * pass over a large (cold) stream would find nothing new. */
	if (st->selected_len != list->len) {
		for (size_t i = 0; i < list->len; i++)
			if (!(list->items[i]->flags & WG_RES_DELETED))
				wg_select(ctx, list, list->items[i]);
		st->selected_len = list->len;
	}
	if (st->reported || !p || !p->nbuilds)
		return 0;
	st->reported = true;
	wg_sel_counters(p, list);
	wg_sel_unknown(ctx, list);
	/* The embedded default entries (the default profile's, or copied
	 * into a profile without windows.select, pos 0) are a catalog of
	 * Windows images, not a choice the user made: no warning.  Nor is
	 * one object of a stream seen alone (resource.h, single) a reason
	 * to say an entry matches nothing. */
	if (wg_profile_is_embedded(p) || list->single)
		return 0;
	for (size_t i = 0; i < p->nselect && i < st->nentries; i++)
		if (!st->matches[i] && p->select[i].pos.line)
			wg_report_at(ctx, WG_SEV_WARNING, p->path,
				     p->select[i].pos.line,
				     p->select[i].pos.col,
				     "windows.select[%zu] matches no workload",
				     i);
	return 0;
}
