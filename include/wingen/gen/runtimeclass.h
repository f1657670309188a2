#ifndef WINGEN_GEN_RUNTIMECLASS_H
#define WINGEN_GEN_RUNTIMECLASS_H

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/core/plugin.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * The runtime-class generator (gen/runtimeclass.c): one node.k8s.io/v1
 * RuntimeClass per profile build, from the template runtimeclass.yaml
 * (embedded, or from the profile's templates folder).  Placeholder scalars
 * ("$handler") are replaced by values after parsing, never by text
 * substitution.  The generated objects go first in the list, in build
 * order, flagged WG_RES_GENERATED.  A RuntimeClass of the same name in the
 * input is kept instead (its metadata, labels and annotations included)
 * when its handler, scheduling and overhead equal the generated one's
 * (overhead.podFixed by value: "0.1" is "100m"), and is an error when
 * they differ; metadata is not compared.
 */
extern const struct wg_plugin wg_gen_runtime_class;

/*
 * The RuntimeClass of one workload that runs on several builds (fan-out,
 * when the same images run on all of them): build b's RuntimeClass from
 * the same template, named "<b's runtimeClass>-multi", with $build
 * standing for nothing, so the key holding it (scheduling.nodeSelector's
 * node.kubernetes.io/windows-build in the embedded template) goes; the
 * workload names its builds in node affinity instead.  With any_arch (a
 * node agent on builds of several arches: select.h arches) it is named
 * "<b's runtimeClass>-multiarch" and $arch stands for nothing too, so
 * kubernetes.io/arch goes as well and the RuntimeClass admission plugin
 * adds no arch to the pods (each node's own).  Made once per run,
 * after the generated RuntimeClasses at the front of list; one of that
 * name in the input is kept when equal and is an error when it differs.
 * Returns its name (in list's arena), or NULL after an error on ctx.
 */
const char *wg_runtime_class_multi(struct wg_ctx *ctx,
				   struct wg_resources *list,
				   const struct wg_build *b, bool any_arch);

/*
 * Kubernetes' validation of a RuntimeClass (pkg/apis/node/validation,
 * windows.md 1.1): apiVersion node.k8s.io/v1 and kind RuntimeClass,
 * metadata.name a DNS subdomain, handler a DNS label, label syntax in
 * metadata.labels and scheduling.nodeSelector, valid and unique
 * scheduling.tolerations, overhead.podFixed quantities.  Each violation is
 * an error on ctx against res; returns their number.
 */
size_t wg_runtime_class_validate(struct wg_ctx *ctx,
				 const struct wg_resource *res);

#endif
