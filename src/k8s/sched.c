#include "wingen/k8s/sched.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The text of a scalar field of a mapping; "" when missing or null. */
static const char *field(const struct wg_node *m, const char *key,
			 size_t *len)
{
	const struct wg_node *v = wg_map_get(m, key);

	if (!wg_is_scalar(v) || wg_node_is_null(v)) {
		*len = 0;
		return "";
	}
	*len = v->len;
	return v->u.str;
}

static bool field_eq(const struct wg_node *a, const struct wg_node *b,
		     const char *key)
{
	size_t la, lb;
	const char *sa = field(a, key, &la), *sb = field(b, key, &lb);

	return la == lb && memcmp(sa, sb, la) == 0;
}

static bool field_is(const struct wg_node *m, const char *key, const char *s)
{
	size_t len;
	const char *v = field(m, key, &len);

	return len == strlen(s) && memcmp(v, s, len) == 0;
}

/* Parses a decimal integer scalar (as Go's strconv.ParseInt). */
static bool parse_int(const char *s, size_t len, long long *out)
{
	char buf[32], *end;

	*out = 0;
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return !errno && *end == '\0' && buf[0] != ' ';
}

/* tolerationSeconds: true and *out when set, false when nil. */
static bool seconds(const struct wg_node *m, long long *out, bool *bad)
{
	size_t len;
	const char *s = field(m, "tolerationSeconds", &len);

	*bad = false;
	if (!len)
		return false;
	if (!parse_int(s, len, out))
		*bad = true;
	return true;
}

bool wg_toleration_superset(const struct wg_node *ss, const struct wg_node *t)
{
	size_t klen;

	if (!wg_is_map(ss) || !wg_is_map(t))
		return false;
	field(ss, "key", &klen);
	if (!field_eq(ss, t, "key")
	    && !(klen == 0 && field_is(ss, "operator", "Exists")))
		return false;
	if (!field_eq(ss, t, "effect") && !field_is(ss, "effect", ""))
		return false;
	if (field_is(ss, "effect", "NoExecute")) {
		long long a = 0, b = 0;
		bool bad_a = false, bad_b = false;

		if (seconds(ss, &a, &bad_a)) {
			if (!seconds(t, &b, &bad_b) || bad_a || bad_b || b > a)
				return false;
		}
	}
	if (field_is(ss, "operator", "Equal") || field_is(ss, "operator", ""))
		return field_is(t, "operator", "Equal")
		       && field_eq(ss, t, "value");
	return field_is(ss, "operator", "Exists");
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

static bool value_in(const struct wg_node *values, const char *v)
{
	for (size_t i = 0; wg_is_seq(values) && i < values->len; i++)
		if (wg_scalar_is(wg_seq_item(values, i), v))
			return true;
	return false;
}

/* Gt/Lt: both sides must parse as integers, else the expression fails. */
static bool compare(const struct wg_node *values, const char *v, bool gt)
{
	const struct wg_node *first;
	long long a = 0, b = 0;

	if (!wg_is_seq(values) || values->len != 1)
		return false;
	first = wg_seq_item(values, 0);
	if (!wg_is_scalar(first) || !parse_int(v, strlen(v), &a)
	    || !parse_int(first->u.str, first->len, &b))
		return false;
	return gt ? a > b : a < b;
}

/* Whether expression e holds on a node carrying label l. */
static bool expr_holds(const struct wg_node *e, const struct wg_label *l)
{
	const struct wg_node *op = wg_map_get(e, "operator");
	const struct wg_node *values = wg_map_get(e, "values");

	if (wg_scalar_is(op, "In"))
		return value_in(values, l->value);
	if (wg_scalar_is(op, "NotIn"))
		return !value_in(values, l->value);
	if (wg_scalar_is(op, "DoesNotExist"))
		return false;
	if (wg_scalar_is(op, "Gt"))
		return compare(values, l->value, true);
	if (wg_scalar_is(op, "Lt"))
		return compare(values, l->value, false);
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
		bool all = wg_is_seq(values) && values->len > 0;

		if (!wg_scalar_is(wg_map_get(e, "key"), key)
		    || !wg_scalar_is(wg_map_get(e, "operator"), "In"))
			continue;
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
