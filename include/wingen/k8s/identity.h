#ifndef WINGEN_IDENTITY_H
#define WINGEN_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/yaml/resource.h"

/*
 * An object's identity in a cluster is its API group, kind, namespace and
 * name (the version is only a view of it).  Two objects of one run with
 * the same identity are one object written twice: kubectl apply keeps
 * whichever comes last, and kustomize refuses the stream ("may not add
 * resource with an already registered id").  Two that differ are an
 * error, at the second, naming the first and the first field where they
 * differ.  Two that are identical (as Kubernetes reads them: key order
 * and scalar style aside, and the annotations kpt, kustomize and Helm put
 * on each copy they read) are one object to kubectl apply, as when an
 * install guide applies two files that both hold one ServiceAccount: a
 * note (info), and the second is dropped (WG_RES_DELETED) unless
 * keep_identical (fn and migrate, whose objects are documents of files:
 * dropping one would delete it from the file).
 *
 * Namespaces compare as written: "" (none) and "default" are not taken
 * for the same, since kubectl apply -n puts an object without one
 * elsewhere; a duplicate missed that way is missed, never invented.
 * Objects without kind or metadata.name, generated ones and deleted ones
 * are left out.
 */

/* Fills key with res's identity (API group, kind, namespace and name, as
 * bytes); false when it has none to compare (no kind or name, generated,
 * deleted). */
struct wg_buf;
bool wg_object_identity(const struct wg_resource *res, struct wg_buf *key);

/* Reports every duplicate in list on ctx; returns how many differ (an
 * error each). */
size_t wg_report_duplicates(struct wg_ctx *ctx, struct wg_resources *list,
			    bool keep_identical);

#endif
