#ifndef WINGEN_PODCHECK_H
#define WINGEN_PODCHECK_H

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/resource.h"

/*
 * What a workload must hold before wingen reads it, checked once for
 * every workload (Linux ones too) when it is first selected
 * (src/core/select.c), so at render time in every command that runs the
 * chain: build, check, fn and migrate.  Each problem is an error on ctx at
 * its node (file:line:col) with its field path.
 */

/*
 * Types (podshape.c): every field wingen reads or writes has the type
 * kubectl decodes it into, or kubectl refuses the object (a string where
 * a list goes: "cannot unmarshal string into Go struct field"):
 *
 *   metadata                 a mapping; name, namespace strings; labels,
 *                            annotations mappings of strings
 *   template metadata        the same (labels, annotations)
 *   pod spec                 nodeSelector a mapping of strings;
 *                            tolerations a list of mappings (key,
 *                            operator, value, effect strings,
 *                            tolerationSeconds an integer); affinity,
 *                            affinity.nodeAffinity, its required term
 *                            mappings, nodeSelectorTerms a list of
 *                            mappings, matchExpressions and matchFields
 *                            lists of mappings (key, operator strings,
 *                            values a list of strings); runtimeClassName
 *                            a string; os a mapping, os.name a string;
 *                            hostNetwork, hostPID, hostIPC, hostUsers,
 *                            shareProcessNamespace booleans; overhead a
 *                            mapping; securityContext a mapping;
 *                            initContainers, containers,
 *                            ephemeralContainers lists of mappings
 *   every container          name, image strings; securityContext a
 *                            mapping
 *   each securityContext     runAsNonRoot a boolean; windowsOptions a
 *                            mapping: hostProcess a boolean,
 *                            runAsUserName, gmsaCredentialSpecName,
 *                            gmsaCredentialSpec strings
 *
 * Booleans are read as kubectl reads them (wg_node_bool).  Returns the
 * number of fields of the wrong type: a workload with any is left alone
 * by every plugin, which could not read it as the API server would.
 */
size_t wg_k8s_check_shape(struct wg_ctx *ctx, const struct wg_resource *res,
			  const struct wg_podspec *pods, size_t npods);

/*
 * The API server's rules on windowsOptions, on every pod whatever its OS
 * (winopts.c; Kubernetes pkg/apis/core/validation/validation.go, the same
 * in 1.30 to 1.35):
 *
 * validateWindowsSecurityContextOptions, for the pod's and each
 * container's securityContext.windowsOptions:
 *  - gmsaCredentialSpecName a DNS-1123 subdomain;
 *  - gmsaCredentialSpec not empty, at most 64 KiB;
 *  - runAsUserName not empty; no control character; at most one
 *    backslash; in DOMAIN\USER the domain under 256 characters and either
 *    a NetBIOS name (1 to 15 characters, not starting with a dot, none of
 *    \ / : * ? " < > |) or a DNS subdomain; the user 1 to 104 characters,
 *    not only dots and spaces, none of " / \ : ; | = , + * ? < > @ [ ].
 *
 * validateWindowsHostProcessPod:
 *  - a container's hostProcess and the pod's, when both are set, are
 *    the same;
 *  - when any container (init and ephemeral ones included) is a
 *    HostProcess container, set or inherited from the pod, all are;
 *  - a pod with a HostProcess container has hostNetwork: true.
 *
 * Call it on a workload whose shape is right.  Returns the violations.
 */
size_t wg_k8s_check_windows_options(struct wg_ctx *ctx,
				    const struct wg_resource *res,
				    const struct wg_podspec *ps);

/* NULL when name[0..len) is a runAsUserName the API server accepts, else
 * its reason ("runAsUserName's User cannot be empty"), static. */
const char *wg_k8s_run_as_user_name_error(const char *name, size_t len);

#endif
