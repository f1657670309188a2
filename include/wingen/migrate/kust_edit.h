#ifndef WINGEN_MIGRATE_KUST_EDIT_H
#define WINGEN_MIGRATE_KUST_EDIT_H

#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"

/*
 * One edit of a kustomization as text: an entry added to its resources:
 * list, so that kubectl kustomize includes a file migrate wrote beside it
 * (the RuntimeClasses its pods name).  Everything else stays byte for
 * byte: comments, key order, quoting, the list's layout.
 *
 *   resources:               resources:
 *   - web.yaml   # the app   - web.yaml   # the app
 *                            - 00-runtimeclasses.yaml
 *
 * A block list gets the entry as its last item, at its items' dash
 * column; a flow list ([a, b] or []) after its last item; a key with no
 * value (or ~, null) the list [entry]; a kustomization without the key
 * gets "resources:" with the entry as its last key.  The line break is
 * the file's (CRLF when its first one is).
 */

/*
 * Adds entry (a path relative to the kustomization's folder) to the
 * resources: of the kustomization text[0..len) (named name in messages),
 * into out.  The result is read back: it must be the same document with
 * resources: one entry longer.  Returns 1 when out holds the new text, 0
 * when resources: already lists entry (or "./" entry; out untouched), and
 * -1 after an error on ctx at name's position: the text does not parse,
 * its first document is not a block mapping, resources: is not a list,
 * or the edit did not read back.
 */
int wg_kust_add_resource(struct wg_ctx *ctx, const char *name,
			 const char *text, size_t len, const char *entry,
			 struct wg_buf *out);

#endif
