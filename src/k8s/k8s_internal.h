#ifndef WINGEN_K8S_INTERNAL_H
#define WINGEN_K8S_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/yaml/node.h"

/*
 * Helpers the k8s layer's readers of API objects share (sched.c, nodes.c):
 * the scalar fields of tolerations, taints and node selector requirements
 * are compared as Go compares the strings of the decoded struct, where a
 * missing or null field is "".  Private to src/k8s/ (fields.c).
 */

/* Whether kubectl decodes n as a string (sigs.k8s.io/yaml reads YAML 1.1:
 * a plain 1, true or 1.5 is a number or a boolean, a quoted one or a
 * !!str one a string). */
bool wg_k8s_is_string(const struct wg_node *n);

/* Whether kubectl decodes n as an integer (a plain YAML 1.1 integer). */
bool wg_k8s_is_int(const struct wg_node *n);

/* The text of a scalar field of mapping m (not NUL-terminated: *len
 * bytes); "" when m is no mapping or the field is missing, null or not a
 * scalar. */
const char *wg_k8s_field(const struct wg_node *m, const char *key,
			 size_t *len);

/* Whether field key has the same text in a and b (both "" counts). */
bool wg_k8s_field_eq(const struct wg_node *a, const struct wg_node *b,
		     const char *key);

/* Whether field key of m is s ("" for missing). */
bool wg_k8s_field_is(const struct wg_node *m, const char *key, const char *s);

/* Parses len bytes of s as a decimal integer, whole (Go's strconv.ParseInt
 * base 10: an optional sign, digits, nothing else).  False, and *out 0,
 * when it is not one or does not fit. */
bool wg_k8s_parse_int(const char *s, size_t len, long long *out);

/* Whether the sequence values holds the scalar v. */
bool wg_k8s_values_has(const struct wg_node *values, const char *v);

/* Gt (gt) or Lt of a requirement: values holds one integer, the label
 * value v is an integer, and v > (<) it; anything else fails. */
bool wg_k8s_compare(const struct wg_node *values, const char *v, bool gt);

#endif
