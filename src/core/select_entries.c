/* Selection: whether one windows.select entry matches a workload. */
#include "select_internal.h"

#include <string.h>

#include "wingen/k8s/labelsel.h"

/* ---- matching one windows.select entry ---------------------------------- */

void wg_sel_budget_spent(struct wg_ctx *ctx, struct wg_resource *res,
			 const struct wg_node *node, const char *field,
			 size_t entry, const char *what,
			 const struct wg_regex *re)
{
	if (ctx->regex_spent_said)
		return;
	ctx->regex_spent_said = true;
	wg_error(ctx, res, node, field, "windows.select[%zu].%s: pattern '%s' "
		 "spent the run's regex budget (WINGEN_LIMITS regex-seconds: "
		 "%zu s of matching): no pattern is matched any more; make it "
		 "one that cannot backtrack (a possessive a++ or an atomic "
		 "group) or raise the budget", entry, what, re->source,
		 ctx->limits.regex_seconds);
}

/* 1, 0, or -1 after reporting a regex that gave up or the spent budget. */
static int regex_on(struct wg_sel_match *m, const struct wg_regex *re,
		    const char *what, const struct wg_node *node,
		    const char *field)
{
	const char *s = wg_is_scalar(node) ? node->u.str : "";
	size_t len = wg_is_scalar(node) ? node->len : 0;
	int rc = wg_regex_match_within(m->ctx, re, s, len);

	if (rc >= 0)
		return rc;
	if (rc == -2) {
		wg_sel_budget_spent(m->ctx, m->res, node, field, m->entry,
				    what, re);
		return -1;
	}
	wg_error(m->ctx, m->res, node, field,
		 "windows.select[%zu].%s: pattern '%s' gave up on '%.*s' "
		 "(PCRE2 match or depth limit)", m->entry, what, re->source,
		 (int)(len > 80 ? 80 : len), s);
	return -1;
}

static bool kind_listed(const struct wg_select *e, const struct wg_resource *r)
{
	if (!e->nkinds)
		return true;
	for (size_t i = 0; i < e->nkinds; i++)
		if (wg_resource_kind_is(r, e->kinds[i]))
			return true;
	return false;
}

/* Whether an image of any pod template matches; one is enough. */
static int images_match(struct wg_sel_match *m, const struct wg_select *e,
			const struct wg_selection *sel)
{
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_buf path = WG_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sel->npods; i++) {
		const struct wg_podspec *ps = &sel->pods[i];

		wg_container_iter_init(&it, ps->spec);
		while (rc == 0 && wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");

			if (!wg_is_scalar(image))
				continue;
			rc = regex_on(m, e->image, "image", image,
				      wg_container_path(&path, ps, &c, "image",
							(const char *)NULL));
		}
	}
	wg_buf_release(&path);
	return rc;
}

int wg_sel_entry_matches(struct wg_sel_match *m, const struct wg_select *e,
			 const struct wg_selection *sel)
{
	const struct wg_node *meta = wg_map_get(m->res->root, "metadata");
	int rc;

	if (!kind_listed(e, m->res))
		return 0;
	if (e->name && (rc = regex_on(m, e->name, "name",
				      wg_map_get(meta, "name"),
				      "metadata.name")) <= 0)
		return rc;
	if (e->namespace_ && (rc = regex_on(m, e->namespace_, "namespace",
					    wg_map_get(meta, "namespace"),
					    "metadata.namespace")) <= 0)
		return rc;
	if (e->labels && !wg_label_selector_matches(e->labels,
						    wg_map_get(meta, "labels")))
		return 0;
	if (e->annotations
	    && !wg_label_selector_matches(e->annotations,
					  wg_map_get(meta, "annotations")))
		return 0;
	if (e->image)
		return images_match(m, e, sel);
	return 1;
}
