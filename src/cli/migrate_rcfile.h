#ifndef WINGEN_CLI_MIGRATE_RCFILE_H
#define WINGEN_CLI_MIGRATE_RCFILE_H

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/resource.h"

/* Most objects a message names before "and N more". */
#define WG_RCFILE_NAMED 3

/*
 * migrate rewrites its RuntimeClass file with the RuntimeClasses of the
 * run; a run over part of a tree (one file, or the default profile
 * inferring another build from other images) must not drop one that
 * workloads migrated before name: the API server rejects a Pod whose
 * RuntimeClass does not exist.
 *
 * Reads in (the file as it is) into old, and appends to gen, after this
 * run's objects and in the file's order, each object of old that gen
 * does not hold again (the same API group, kind, namespace and name);
 * gen then points into old's trees, which must outlive its writing.
 * names gets "Kind/name" of the first WG_RCFILE_NAMED kept, and "and N
 * more".  Returns how many were kept, or -1 when in does not read as
 * YAML: an error on ctx at its place, since writing the file would lose
 * what it holds.
 */
long wg_rcfile_keep_earlier(struct wg_ctx *ctx, const struct wg_input *in,
			    struct wg_resources *gen, struct wg_resources *old,
			    struct wg_buf *names);

#endif
