/*
 * Required node affinity "key In [values]" (affinity.h): how one workload
 * says it runs on several builds or arches, since a nodeSelector holds one
 * value per key.
 */
#include "affinity.h"

#include "tx.h"
#include "wingen/base/buf.h"

static struct wg_node *expression(struct wg_arena *a, const char *key,
				  const char *const *values, size_t n)
{
	struct wg_node *e = wg_node_new_map(a);
	struct wg_node *seq = wg_node_new_seq(a);

	for (size_t k = 0; k < n; k++)
		wg_seq_append(a, seq, wg_node_new_str(a, values[k]));
	wg_map_set(a, e, "key", wg_node_new_str(a, key));
	wg_map_set(a, e, "operator", wg_node_new_str(a, "In"));
	wg_map_set(a, e, "values", seq);
	return e;
}

/* Whether expression e is "key In values" with exactly the values of want
 * (in any order). */
static bool same_expression(const struct wg_node *e, const struct wg_node *want)
{
	const struct wg_node *v = wg_map_get(e, "values");
	const struct wg_node *w = wg_map_get(want, "values");

	if (!wg_scalar_is(wg_map_get(e, "operator"), "In") || !wg_is_seq(v)
	    || v->len != w->len)
		return false;
	for (size_t i = 0; i < w->len; i++) {
		bool found = false;

		for (size_t j = 0; j < v->len && !found; j++)
			found = wg_node_equal(wg_seq_item(v, j),
					      wg_seq_item(w, i));
		if (!found)
			return false;
	}
	return true;
}

void tx_require_in(struct wg_ctx *ctx, struct wg_resources *list,
		   struct wg_resource *res, const struct wg_selection *sel,
		   const struct wg_podspec *ps, const char *key,
		   const char *const *values, size_t n, const char *what,
		   const char *reason)
{
	static const char *const keys[] = {
		"affinity", "nodeAffinity",
		"requiredDuringSchedulingIgnoredDuringExecution",
	};
	struct wg_arena *a = &list->arena;
	struct wg_node *want = expression(a, key, values, n);
	struct wg_node *m = ps->spec, *terms;
	struct wg_buf path = WG_BUF_INIT;
	const char *base;

	base = wg_arena_strdup(a, wg_podspec_path(&path, ps, keys[0], keys[1],
						  keys[2], "nodeSelectorTerms",
						  (const char *)NULL));
	wg_buf_release(&path);
	/* the pod's own affinity (a shape's pod gets its own copy of one
	 * it inherits first) */
	m = tx_ensure_map(ctx, list, res, ps, keys[0], reason);
	for (size_t i = 1; m && i < 3; i++) {
		struct wg_node *next = wg_map_ensure_map(a, m, keys[i]);

		if (!next)
			wg_error(ctx, res, wg_map_get(m, keys[i]), base,
				 "is not a mapping");
		m = next;
	}
	if (!m)
		return;
	terms = wg_map_get(m, "nodeSelectorTerms");
	if (wg_node_is_null(terms) || (wg_is_seq(terms) && !terms->len)) {
		struct wg_node *term = wg_node_new_map(a);
		struct wg_node *exprs = wg_node_new_seq(a);

		wg_seq_append(a, exprs, want);
		wg_map_set(a, term, "matchExpressions", exprs);
		terms = wg_node_new_seq(a);
		wg_seq_append(a, terms, term);
		wg_map_set(a, m, "nodeSelectorTerms", terms);
		wg_record_change(ctx, WG_CHANGE_ADD, res, tx_pod_pos(NULL, ps),
				 wg_arena_printf(a, "%s[0]", base), NULL, term,
				 reason);
		return;
	}
	if (!wg_is_seq(terms)) {
		wg_error(ctx, res, terms, base, "is not a list");
		return;
	}
	for (size_t i = 0; i < terms->len; i++) {
		struct wg_node *term = wg_seq_item(terms, i), *exprs;
		const char *field = wg_arena_printf(a, "%s[%zu]."
						    "matchExpressions", base,
						    i);
		bool have = false;

		exprs = wg_is_map(term) ? wg_map_ensure_seq(a, term,
							    "matchExpressions")
					: NULL;
		if (!exprs) {
			wg_error(ctx, res, term, field, "is not a list");
			continue;
		}
		for (size_t j = 0; j < exprs->len; j++) {
			const struct wg_node *e = wg_seq_item(exprs, j);

			if (!wg_scalar_is(wg_map_get(e, "key"), key))
				continue;
			have = true;
			if (!same_expression(e, want))
				wg_error(ctx, res, e, wg_arena_printf(a,
					 "%s[%zu]", field, j), "already "
					 "constrains %s, but the workload runs "
					 "on %s (%s); wingen does not "
					 "overwrite it", key, what,
					 sel->targets_why ? sel->targets_why
					 : sel->reason);
		}
		if (have)
			continue;
		wg_seq_append(a, exprs, wg_node_clone(a, want));
		wg_record_change(ctx, WG_CHANGE_ADD, res, tx_pos(exprs, term),
				 wg_arena_printf(a, "%s[%zu]", field,
						 (size_t)exprs->len - 1),
				 NULL, want, reason);
	}
}
