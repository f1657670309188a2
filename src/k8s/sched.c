#include "wingen/k8s/sched.h"

#include <string.h>

#include "k8s_internal.h"

/* tolerationSeconds: true and *out when set, false when nil. */
static bool seconds(const struct wg_node *m, long long *out, bool *bad)
{
	size_t len;
	const char *s = wg_k8s_field(m, "tolerationSeconds", &len);

	*bad = false;
	if (!len)
		return false;
	if (!wg_k8s_parse_int(s, len, out))
		*bad = true;
	return true;
}

bool wg_toleration_superset(const struct wg_node *ss, const struct wg_node *t)
{
	size_t klen;

	if (!wg_is_map(ss) || !wg_is_map(t))
		return false;
	wg_k8s_field(ss, "key", &klen);
	if (!wg_k8s_field_eq(ss, t, "key")
	    && !(klen == 0 && wg_k8s_field_is(ss, "operator", "Exists")))
		return false;
	if (!wg_k8s_field_eq(ss, t, "effect") && !wg_k8s_field_is(ss, "effect", ""))
		return false;
	if (wg_k8s_field_is(ss, "effect", "NoExecute")) {
		long long a = 0, b = 0;
		bool bad_a = false, bad_b = false;

		if (seconds(ss, &a, &bad_a)) {
			if (!seconds(t, &b, &bad_b) || bad_a || bad_b || b > a)
				return false;
		}
	}
	if (wg_k8s_field_is(ss, "operator", "Equal") || wg_k8s_field_is(ss, "operator", ""))
		return wg_k8s_field_is(t, "operator", "Equal")
		       && wg_k8s_field_eq(ss, t, "value");
	return wg_k8s_field_is(ss, "operator", "Exists");
}

long wg_tolerations_find_superset(const struct wg_node *seq,
				  const struct wg_node *t)
{
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++)
		if (wg_toleration_superset(wg_seq_item(seq, i), t))
			return (long)i;
	return -1;
}

static const struct wg_node *required_terms(const struct wg_node *spec)
{
	const struct wg_node *terms = wg_path_get(spec,
		"affinity.nodeAffinity."
		"requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms");

	return wg_is_seq(terms) ? terms : NULL;
}

static const struct wg_label *label_for(const struct wg_node *key,
					const struct wg_label *labels,
					size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (wg_scalar_is(key, labels[i].key))
			return &labels[i];
	return NULL;
}

/* Whether expression e holds on a node carrying label l. */
static bool expr_holds(const struct wg_node *e, const struct wg_label *l)
{
	const struct wg_node *op = wg_map_get(e, "operator");
	const struct wg_node *values = wg_map_get(e, "values");

	if (wg_scalar_is(op, "In"))
		return wg_k8s_values_has(values, l->value);
	if (wg_scalar_is(op, "NotIn"))
		return !wg_k8s_values_has(values, l->value);
	if (wg_scalar_is(op, "DoesNotExist"))
		return false;
	if (wg_scalar_is(op, "Gt"))
		return wg_k8s_compare(values, l->value, true);
	if (wg_scalar_is(op, "Lt"))
		return wg_k8s_compare(values, l->value, false);
	return true;	/* Exists, or an operator validation rejects */
}

enum wg_affinity wg_affinity_judge(const struct wg_node *spec,
				   const struct wg_label *labels, size_t n,
				   const struct wg_node **where)
{
	const struct wg_node *terms = required_terms(spec);
	const struct wg_node *first_bad = NULL;

	if (!terms || !terms->len)
		return WG_AFFINITY_NONE;
	for (size_t t = 0; t < terms->len; t++) {
		const struct wg_node *term = wg_seq_item(terms, t);
		const struct wg_node *exprs = wg_map_get(term,
							 "matchExpressions");
		const struct wg_node *fields = wg_map_get(term, "matchFields");
		/* An empty term ({}, or empty lists) selects no node, as
		 * component-helpers' nodeaffinity reads it: it is not "any". */
		bool holds = (wg_is_seq(exprs) && exprs->len)
			     || (wg_is_seq(fields) && fields->len);

		if (!holds && !first_bad)
			first_bad = term;
		for (size_t i = 0; holds && wg_is_seq(exprs) && i < exprs->len;
		     i++) {
			const struct wg_node *e = wg_seq_item(exprs, i);
			const struct wg_label *l =
				label_for(wg_map_get(e, "key"), labels, n);

			if (l && !expr_holds(e, l)) {
				holds = false;
				if (!first_bad)
					first_bad = e;
				break;
			}
		}
		if (holds)
			return WG_AFFINITY_ADMITS;
	}
	if (where)
		*where = first_bad;
	return WG_AFFINITY_EXCLUDES;
}

bool wg_affinity_mentions(const struct wg_node *spec, const char *key,
			  const struct wg_node **where)
{
	const struct wg_node *terms = required_terms(spec);

	for (size_t t = 0; terms && t < terms->len; t++) {
		const struct wg_node *exprs = wg_map_get(wg_seq_item(terms, t),
							 "matchExpressions");

		for (size_t i = 0; wg_is_seq(exprs) && i < exprs->len; i++) {
			const struct wg_node *e = wg_seq_item(exprs, i);

			if (wg_scalar_is(wg_map_get(e, "key"), key)) {
				if (where)
					*where = e;
				return true;
			}
		}
	}
	return false;
}

/* Whether exprs has "key In [value, value...]". */
static bool term_requires(const struct wg_node *exprs, const char *key,
			  const char *value)
{
	for (size_t i = 0; wg_is_seq(exprs) && i < exprs->len; i++) {
		const struct wg_node *e = wg_seq_item(exprs, i);
		const struct wg_node *values = wg_map_get(e, "values");
		const struct wg_node *op = wg_map_get(e, "operator");
		bool all = wg_is_seq(values) && values->len > 0;

		if (!wg_scalar_is(wg_map_get(e, "key"), key))
			continue;
		if (!value && wg_scalar_is(op, "Exists"))
			return true;
		if (!wg_scalar_is(op, "In"))
			continue;
		if (!value && all)
			return true;
		for (size_t j = 0; all && j < values->len; j++)
			all = wg_scalar_is(wg_seq_item(values, j), value);
		if (all)
			return true;
	}
	return false;
}

bool wg_affinity_requires(const struct wg_node *spec, const char *key,
			  const char *value)
{
	const struct wg_node *terms = required_terms(spec);

	if (!terms || !terms->len)
		return false;
	for (size_t t = 0; t < terms->len; t++)
		if (!term_requires(wg_map_get(wg_seq_item(terms, t),
					      "matchExpressions"), key, value))
			return false;
	return true;
}
