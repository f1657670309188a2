#ifndef WINGEN_TX_AFFINITY_H
#define WINGEN_TX_AFFINITY_H

/*
 * Required node affinity "key In [values]" on a pod spec, for the
 * workloads that run on several builds or arches (private to this
 * folder): fan-out's build expression, node-selector's arch expression.
 */

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/core/select.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/resource.h"

/*
 * Adds expression "key In [values]" (n values, in list's arena) to every
 * term of pod spec ps's requiredDuringSchedulingIgnoredDuringExecution
 * nodeSelectorTerms, creating the one term when there is none (a plain
 * nodeSelector cannot say "In"); each addition is a change with reason.
 * A term that already has an expression on key with other values is an
 * error naming what (the builds or arches it runs on) and sel's
 * targets_why; one with the same values (in any order) is left as it is,
 * so a second run changes nothing.  A part of the path that is not a
 * mapping, or terms that are not a list, are errors too.
 */
void tx_require_in(struct wg_ctx *ctx, struct wg_resources *list,
		   struct wg_resource *res, const struct wg_selection *sel,
		   const struct wg_podspec *ps, const char *key,
		   const char *const *values, size_t n, const char *what,
		   const char *reason);

#endif
