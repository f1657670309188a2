#ifndef WINGEN_IDENTITY_H
#define WINGEN_IDENTITY_H

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/yaml/resource.h"

/*
 * An object's identity in a cluster is its API group, kind, namespace and
 * name (the version is only a view of it).  Two objects of one run with
 * the same identity are one object written twice: kubectl apply keeps
 * whichever comes last, and kustomize refuses the stream ("may not add
 * resource with an already registered id").  So they are an error, at the
 * second, naming the first.
 *
 * Namespaces compare as written: "" (none) and "default" are not taken
 * for the same, since kubectl apply -n puts an object without one
 * elsewhere; a duplicate missed that way is missed, never invented.
 * Objects without kind or metadata.name, generated ones and deleted ones
 * are left out.
 */

/* Reports every duplicate in list on ctx (an error each); returns how
 * many there were. */
size_t wg_report_duplicates(struct wg_ctx *ctx,
			    const struct wg_resources *list);

#endif
