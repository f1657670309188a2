#ifndef WINGEN_SCHED_H
#define WINGEN_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/yaml/node.h"

/*
 * Scheduling rules of the API server and scheduler, read off pod-spec
 * nodes: toleration supersets, required node affinity.  Facts:
 * docs/windows-facts.md section 1.2.
 */

/* A label a target node carries. */
struct wg_label {
	const char *key;
	const char *value;
};

/*
 * Whether toleration ss tolerates at least everything t does: the API
 * server's merge rule (pkg/util/tolerations isSuperset).
 *  - keys equal, or ss has an empty key with operator Exists;
 *  - effects equal, or ss has an empty effect;
 *  - ss NoExecute with tolerationSeconds: t has tolerationSeconds <= it;
 *  - ss Equal (or empty operator): t is Equal with the same value;
 *    ss Exists: anything.
 * Missing fields are empty.  Non-mappings are never supersets.
 */
bool wg_toleration_superset(const struct wg_node *ss, const struct wg_node *t);

/* Index of the first toleration of seq that is a superset of t, or -1. */
long wg_tolerations_find_superset(const struct wg_node *seq,
				  const struct wg_node *t);

enum wg_affinity {
	WG_AFFINITY_NONE = 0,	/* no required node affinity terms */
	WG_AFFINITY_ADMITS,	/* some term admits the node */
	WG_AFFINITY_EXCLUDES,	/* every term rules the node out */
};

/*
 * Judges the pod spec's required node affinity
 * (affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.
 * nodeSelectorTerms; terms OR'ed, expressions AND'ed) against a node
 * carrying labels.  Only expressions on the keys of labels are judged; the
 * rest (and matchFields) are assumed to hold, since the node is not known;
 * an empty term ({}: no matchExpressions nor matchFields) selects no node.
 * In, NotIn, Exists, DoesNotExist, Gt and Lt follow the scheduler.  When
 * the verdict is EXCLUDES and where is not NULL, *where is the first
 * expression (or empty term) that ruled a term out.
 */
enum wg_affinity wg_affinity_judge(const struct wg_node *spec,
				   const struct wg_label *labels, size_t n,
				   const struct wg_node **where);

/* Whether some required term has an expression on key; *where is it. */
bool wg_affinity_mentions(const struct wg_node *spec, const char *key,
			  const struct wg_node **where);

/*
 * Whether the required affinity has at least one term and every term has
 * an expression "key In [value...]" whose values are all value.  With
 * value NULL, any "key In [...]" (values not empty) or "key Exists" will
 * do: the pod needs a node that has the label at all.
 */
bool wg_affinity_requires(const struct wg_node *spec, const char *key,
			  const char *value);

#endif
