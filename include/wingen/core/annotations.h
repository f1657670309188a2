#ifndef WINGEN_ANNOTATIONS_H
#define WINGEN_ANNOTATIONS_H

#include "wingen/base/ctx.h"
#include "wingen/k8s/kinds.h"
#include "wingen/yaml/resource.h"

/*
 * wingen's own annotations (wingen.dev/..., include/wingen/k8s/keys.h)
 * that are spelt so that nothing reads them, reported as warnings before
 * the chain runs: a wingen.dev/ key wingen does not know, on an object or
 * on a pod template ("wingen.dev/window", "wingen.dev/windowz-build"),
 * with the known key it is closest to.  A known key is read in both
 * places (selection, select.h: a Helm chart's podAnnotations puts it on
 * the pod template).  A misspelt opt-in otherwise passes silently and the
 * workload is pinned to Linux.  extra: the profile's declared workload
 * kinds (may be NULL).
 */
void wg_report_annotation_typos(struct wg_ctx *ctx,
				const struct wg_kind_set *extra,
				const struct wg_resources *list);

#endif
