#include "k8s_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/yaml/scalar.h"

bool wg_k8s_is_string(const struct wg_node *n)
{
	const char *tag;

	if (!wg_is_scalar(n))
		return false;
	tag = wg_node_tag(n);
	if (tag)
		return strcmp(tag, "tag:yaml.org,2002:str") == 0;
	return n->style != WG_STYLE_PLAIN
	       || wg_resolve_yaml11(n->u.str, n->len) == WG_TYPE_STR;
}

bool wg_k8s_is_int(const struct wg_node *n)
{
	return wg_is_scalar(n) && n->style == WG_STYLE_PLAIN
	       && !wg_node_tag(n)
	       && wg_resolve_yaml11(n->u.str, n->len) == WG_TYPE_INT;
}

const char *wg_k8s_field(const struct wg_node *m, const char *key,
			 size_t *len)
{
	const struct wg_node *v = wg_is_map(m) ? wg_map_get(m, key) : NULL;

	if (!wg_is_scalar(v) || wg_node_is_null(v)) {
		*len = 0;
		return "";
	}
	*len = v->len;
	return v->u.str;
}

bool wg_k8s_field_eq(const struct wg_node *a, const struct wg_node *b,
		     const char *key)
{
	size_t la, lb;
	const char *sa = wg_k8s_field(a, key, &la);
	const char *sb = wg_k8s_field(b, key, &lb);

	return la == lb && memcmp(sa, sb, la) == 0;
}

bool wg_k8s_field_is(const struct wg_node *m, const char *key, const char *s)
{
	size_t len;
	const char *v = wg_k8s_field(m, key, &len);

	return len == strlen(s) && memcmp(v, s, len) == 0;
}

bool wg_k8s_parse_int(const char *s, size_t len, long long *out)
{
	char buf[32], *end;
	size_t sign;

	*out = 0;
	if (!len || len >= sizeof(buf))
		return false;
	sign = s[0] == '+' || s[0] == '-';
	/* strtoll would take leading blanks and a bare sign; Go does not */
	if (len == sign || strspn(s + sign, "0123456789") != len - sign)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoll(buf, &end, 10);
	if (errno || *end) {
		*out = 0;
		return false;
	}
	return true;
}

bool wg_k8s_values_has(const struct wg_node *values, const char *v)
{
	for (size_t i = 0; wg_is_seq(values) && i < values->len; i++)
		if (wg_scalar_is(wg_seq_item(values, i), v))
			return true;
	return false;
}

bool wg_k8s_compare(const struct wg_node *values, const char *v, bool gt)
{
	const struct wg_node *first;
	long long a = 0, b = 0;

	if (!wg_is_seq(values) || values->len != 1 || !v)
		return false;
	first = wg_seq_item(values, 0);
	if (!wg_is_scalar(first) || !wg_k8s_parse_int(v, strlen(v), &a)
	    || !wg_k8s_parse_int(first->u.str, first->len, &b))
		return false;
	return gt ? a > b : a < b;
}
