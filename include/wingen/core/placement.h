#ifndef WINGEN_PLACEMENT_H
#define WINGEN_PLACEMENT_H

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/k8s/nodes.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * Whether a rendered stream fits the cluster (check --nodes, build
 * --nodes, and the KRM function given Node objects): the cluster's nodes
 * are held against what the chain left, with the scheduler's rules
 * (k8s/nodes.h):
 *
 *  - every build of the profile has nodes: a Windows node with its
 *    node.kubernetes.io/windows-build label and its arch (the labels its
 *    RuntimeClass selects by); an error at the build in the profile;
 *  - every RuntimeClass the stream holds, and every one of classes its
 *    workloads name, selects at least one node by scheduling.nodeSelector
 *    and tolerates the taints of at least one of those; an error at the
 *    RuntimeClass (one made from a build that already has an error is
 *    left out: that build's message says it);
 *  - every pod template (every workload kind, Windows or Linux: each is
 *    checked against the nodes its nodeSelector, spec.os.name and
 *    RuntimeClass pick) can be placed on some node: its nodeSelector and
 *    its RuntimeClass's, its required node affinity, its tolerations and
 *    its RuntimeClass's against the NoSchedule and NoExecute taints; an
 *    error at the workload naming what no node has ("no node has
 *    node.kubernetes.io/windows-build=10.0.20348 with
 *    kubernetes.io/arch=arm64").  A node agent (DaemonSet) that fits no
 *    node runs no pod rather than one Pending: a warning.  Pods with
 *    spec.nodeName bypass the scheduler and are not checked; templates of
 *    kinds that run no pods (PodTemplate) neither.
 *
 * Taints that come and go with a node's state (wg_taint_is_condition:
 * not-ready, unschedulable, ...) are not held against anything: the nodes
 * describe the pools, not their state at the moment they were listed.
 * Resources deleted or with an error already are skipped.
 */
struct wg_placement {
	const struct wg_profile *profile;	/* its builds are checked */
	const struct wg_cluster *cluster;	/* at least one node */
	const struct wg_resources *list;	/* the stream as the chain
						   left it */
	const struct wg_resources *classes;	/* RuntimeClasses installed
						   apart (the profile's, in
						   post-renderer mode), for
						   names list references but
						   does not hold; NULL: none */
};

/* Runs the checks above, reporting on ctx; returns the number of errors. */
size_t wg_placement_check(struct wg_ctx *ctx, const struct wg_placement *pl);

#endif
