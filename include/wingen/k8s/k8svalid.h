#ifndef WINGEN_K8SVALID_H
#define WINGEN_K8SVALID_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/resource.h"

/*
 * Kubernetes' own validation rules for the pod-spec fields wingen writes
 * or removes, so tests (and any plugin) can check that what comes out is
 * what the API server accepts (pkg/apis/core/validation):
 *  - nodeSelector: a mapping of string to string; keys are qualified
 *    label names, values label values;
 *  - tolerations: a list of mappings; a key is a label name; an empty key
 *    needs operator Exists; operator is Equal, Exists or empty; Exists has
 *    no value; an Equal value is a label value; effect is NoSchedule,
 *    PreferNoSchedule, NoExecute or empty; tolerationSeconds is an integer
 *    and needs effect NoExecute;
 *  - runtimeClassName: a DNS subdomain;
 *  - os.name: linux or windows;
 *  - os.name windows: none of the fields validateWindows forbids
 *    (hostPID/hostIPC only when true);
 *  - os.name linux: no windowsOptions anywhere;
 *  - any OS: the windowsOptions and HostProcess rules of podcheck.h
 *    (wg_k8s_check_windows_options).
 *
 * Every violation is reported on ctx as an error against res with its
 * field path.  Returns the number of violations (0: valid).
 */
size_t wg_k8s_check_pod_spec(struct wg_ctx *ctx, const struct wg_resource *res,
			     const struct wg_podspec *ps);

/*
 * The same for every pod spec of any resource (all its templates, every
 * item of a list of templates), whose kind is one of the table's or of
 * extra (the profile's workloads:, may be NULL): 0 when it is not a
 * workload.  Returns the violations of all its pod specs together.
 */
size_t wg_k8s_check_workload(struct wg_ctx *ctx,
			     const struct wg_kind_set *extra,
			     const struct wg_resource *res);

/* wg_k8s_check_workload() with the built-in kinds only. */
size_t wg_k8s_check_resource(struct wg_ctx *ctx,
			     const struct wg_resource *res);

#endif
