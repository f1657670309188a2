#ifndef WINGEN_PROFILE_INIT_H
#define WINGEN_PROFILE_INIT_H

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/k8s/nodes.h"

/*
 * A profile written from the cluster's nodes (wingen init): the text of a
 * commented wingen.dev/v1alpha1 Profile that wg_profile_load() takes as
 * it is.
 *
 *  - windows.builds: one per distinct (Windows build, arch) of the
 *    Windows nodes, oldest first; the build from the
 *    node.kubernetes.io/windows-build label, else from nodeInfo (a
 *    warning: RuntimeClass scheduling selects nodes by the label); the
 *    handler from the runtime most of its nodes run (containerd:
 *    runhcs-wcow-process; docker: docker, with a warning that dockershim
 *    is gone); a comment with its node count and pools.
 *  - windows.default: the build with the most nodes (a tie: the newer).
 *  - windows.taint: the repelling taint every Windows node carries
 *    (states such as not-ready left aside); a warning when they differ
 *    (the most common one is written) or carry none (os=windows:NoSchedule
 *    is written, as the taint to apply).
 *
 * Nodes of another or no operating system and Windows nodes whose build
 * or architecture cannot be told are left out with a warning; a build the
 * catalogue does not know is kept (build: number) with a warning.
 * Returns 0 with the text appended to out, or -1 when no Windows node
 * remains (an error against source, the input's name).
 */
int wg_profile_init(struct wg_ctx *ctx, const struct wg_cluster *c,
		    const char *source, struct wg_buf *out);

#endif
