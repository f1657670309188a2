#ifndef WINGEN_NODES_H
#define WINGEN_NODES_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/sched.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * The cluster's nodes as input: what wingen reads off v1 Node objects as
 * "kubectl get nodes -o json" (or -o yaml) prints them, and whether a pod
 * can be placed on a node.  Facts: docs/windows-facts.md sections 1.2, 2
 * and 3; the rules are the scheduler's (k8s.io/component-helpers
 * scheduling/corev1: nodeaffinity, and ToleratesTaint in
 * k8s.io/api/core/v1 toleration.go).
 *
 * A node is called "cluster node" here: struct wg_node is a YAML node.
 */

/* Where a Windows node's build number was read from. */
enum wg_build_source {
	WG_BUILD_NONE = 0,	/* not Windows, or nothing to read it from */
	WG_BUILD_LABEL,		/* node.kubernetes.io/windows-build */
	WG_BUILD_KERNEL,	/* status.nodeInfo.kernelVersion */
	WG_BUILD_OS_IMAGE,	/* status.nodeInfo.osImage ("... 2022 ...") */
};

/* A container runtime, by the scheme of containerRuntimeVersion. */
struct wg_runtime {
	const char *scheme;	/* "containerd" in "containerd://1.7.20" */
	const char *handler;	/* the RuntimeClass handler it runs */
	const char *removed;	/* NULL, or why it no longer works */
};

/* Every runtime known, ended by an entry with scheme NULL. */
extern const struct wg_runtime wg_runtimes[];

/* The runtime of a containerRuntimeVersion value, or NULL. */
const struct wg_runtime *wg_runtime_of(const char *version);

/*
 * Labels naming a node's pool on the managed offerings (AKS, EKS, GKE,
 * eksctl, Karpenter, kops), in the order they are tried; NULL-terminated.
 */
extern const char *const wg_pool_label_keys[];

struct wg_cluster_node {
	const struct wg_resource *res;	/* the Node object, for messages */
	const char *name;		/* metadata.name ("" when missing) */
	const char *os;		/* "windows", "linux", another GOOS, or NULL */
	const char *arch;	/* kubernetes.io/arch (or nodeInfo), or NULL */
	const char *build;	/* Windows: "10.0.20348", no revision; NULL */
	enum wg_build_source build_from;
	const struct wg_release *release;	/* build's catalog entry, NULL
						   when it has none */
	const char *runtime_version;	/* containerRuntimeVersion, or NULL */
	const struct wg_runtime *runtime;	/* NULL: unknown or missing */
	const char *pool;		/* the first pool label's value, or NULL */
	struct wg_label *labels;	/* metadata.labels, in order */
	size_t nlabels;
	const struct wg_node *labels_node;	/* the mapping, or NULL */
	const struct wg_node *taints;	/* spec.taints sequence, or NULL */
};

/* The nodes read so far; strings point into the resources' trees (keep
 * them alive) or the cluster's arena. */
struct wg_cluster {
	struct wg_cluster_node *nodes;
	size_t len, cap;
	struct wg_arena arena;
};

void wg_cluster_init(struct wg_cluster *c);
void wg_cluster_release(struct wg_cluster *c);

/* Whether res is a v1 Node. */
bool wg_is_node_object(const struct wg_resource *res);

/*
 * Adds the Node res to c.  A field of the wrong shape (labels that are not
 * a mapping of strings, taints that are not a list of {key, effect}) is an
 * error on ctx positioned at it, and the node is not added; a build label
 * that is not a build number is a warning (the build is then read from
 * nodeInfo).  Returns 0 or -1.
 */
int wg_cluster_add(struct wg_ctx *ctx, struct wg_cluster *c,
		   const struct wg_resource *res);

/*
 * Adds every resource of list: each must be a Node (the first object that
 * is not is an error naming how many more there are).  An empty list is an
 * error against source (the file it was read from, for the message).
 * Returns 0 or -1.
 */
int wg_cluster_read(struct wg_ctx *ctx, struct wg_cluster *c,
		    const struct wg_resources *list, const char *source);

/* The value of label key on n, or NULL. */
const char *wg_cluster_node_label(const struct wg_cluster_node *n,
				  const char *key);

/*
 * Whether a taint keeps pods off the node: effect NoSchedule or NoExecute
 * (PreferNoSchedule only steers).
 */
bool wg_taint_repels(const struct wg_node *taint);

/*
 * Whether a taint is one the node lifecycle controller and cloud providers
 * put on and take off by themselves (node.kubernetes.io/not-ready,
 * unschedulable, ..., node.cloudprovider.kubernetes.io/uninitialized):
 * a state, not part of how a pool is set up.
 */
bool wg_taint_is_condition(const struct wg_node *taint);

/* "key=value:Effect" (or "key:Effect"), in arena. */
const char *wg_taint_text(struct wg_arena *arena, const struct wg_node *taint);

/* Whether toleration tol tolerates taint (ToleratesTaint: effects equal or
 * the toleration's empty; an empty key with Exists matches every key;
 * Exists any value, Equal or empty operator the same value). */
bool wg_toleration_tolerates(const struct wg_node *tol,
			     const struct wg_node *taint);

/*
 * What a pod asks of a node: its nodeSelector (and its RuntimeClass's),
 * its required node affinity, its tolerations (and its RuntimeClass's).
 */
struct wg_pod_needs {
	const struct wg_label *selector;	/* every pair must be a label */
	size_t nselector;
	const struct wg_node *spec;	/* pod spec: required affinity; NULL */
	const struct wg_node *const *tolerations;	/* toleration items */
	size_t ntolerations;
};

/* Whether n has every label of needs->selector. */
bool wg_node_has_labels(const struct wg_cluster_node *n,
			const struct wg_pod_needs *needs);

/*
 * Whether n passes the required node affinity of needs->spec (no terms:
 * yes).  Terms are OR'ed, their matchExpressions and matchFields
 * (metadata.name) AND'ed; a term with neither selects no node.  A label
 * the node does not have fails In, Exists, Gt and Lt and passes NotIn and
 * DoesNotExist.
 */
bool wg_node_affinity_admits(const struct wg_cluster_node *n,
			     const struct wg_pod_needs *needs);

/* The first taint of n that repels and that no toleration of needs
 * tolerates, or NULL. */
const struct wg_node *wg_node_untolerated(const struct wg_cluster_node *n,
					  const struct wg_pod_needs *needs);

/* Whether the pod can be placed on n: labels, affinity and taints. */
bool wg_node_admits(const struct wg_cluster_node *n,
		    const struct wg_pod_needs *needs);

#endif
