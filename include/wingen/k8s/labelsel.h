#ifndef WINGEN_LABELSEL_H
#define WINGEN_LABELSEL_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/yaml/node.h"

/*
 * Kubernetes label selector strings, as kubectl -l and kustomize's
 * labelSelector/annotationSelector take them:
 *   k=v  k==v  k!=v  k in (a,b)  k notin (a)  k  !k
 * joined by commas (AND).
 */

enum wg_label_op {
	WG_LABEL_EQ = 1,
	WG_LABEL_NEQ,
	WG_LABEL_IN,
	WG_LABEL_NOTIN,
	WG_LABEL_EXISTS,
	WG_LABEL_NOT_EXISTS,
};

struct wg_label_req {
	const char *key;
	enum wg_label_op op;
	const char **values;	/* EQ/NEQ: one; IN/NOTIN: one or more */
	size_t nvalues;
};

struct wg_label_selector {
	struct wg_label_req *reqs;	/* all must hold; none: matches all */
	size_t len;
};

/*
 * Parses text into sel (everything in arena).  Returns 0, or -1 with
 * *error (in arena) and *offset (byte offset in text) describing the first
 * problem; keys and values are checked against Kubernetes label syntax.
 */
int wg_label_selector_parse(struct wg_arena *arena, const char *text,
			    struct wg_label_selector *sel, const char **error,
			    size_t *offset);

/* Whether a labels (or annotations) mapping satisfies sel; NULL = empty. */
bool wg_label_selector_matches(const struct wg_label_selector *sel,
			       const struct wg_node *labels);

/*
 * Reads a selector written as an object into sel (everything in arena):
 * with set_based false, a map of labels (a Service's or a
 * ReplicationController's spec.selector); with set_based true, a
 * LabelSelector {matchLabels, matchExpressions} with operators In, NotIn,
 * Exists and DoesNotExist.  A missing or null node gives an empty
 * selector, which matches everything: what "empty" means (nothing for a
 * Service, everything for a PodDisruptionBudget) is the caller's call.
 * Returns 0, or -1 when node is not such a selector (sel is then empty).
 */
int wg_label_selector_from_node(struct wg_arena *arena,
				const struct wg_node *node, bool set_based,
				struct wg_label_selector *sel);

/* Appends sel in canonical selector syntax ("a=b,c in (d,e),!f"), which
 * parses back to the same selector. */
struct wg_buf;
void wg_label_selector_write(const struct wg_label_selector *sel,
			     struct wg_buf *out);

/* Kubernetes syntax checks, for the profile and for generated objects. */
bool wg_is_dns_label(const char *s);		/* RFC 1123 label, <= 63 */
bool wg_is_dns_subdomain(const char *s);	/* RFC 1123 subdomain, <= 253 */
bool wg_is_label_key(const char *s);		/* [prefix/]name */
bool wg_is_label_value(const char *s);		/* <= 63, may be empty */

#endif
