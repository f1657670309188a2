#ifndef WINGEN_SERVE_PATCH_H
#define WINGEN_SERVE_PATCH_H

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * An RFC 6902 JSON Patch from the change journal (yaml/node.h): what the
 * chain did to one object, as operations on the object the API server
 * sent.  No second implementation of a transform: the chain edits the
 * tree, the journal remembers what each collection held, and this walks
 * the tree as it is, collection by collection, against what it was.
 *
 * Operations: "remove" for a key that is gone, "add" for a new key or an
 * item appended to a list, "replace" for a value that is another node
 * now (a list edited in place other than by appending is replaced
 * whole).  Paths are JSON Pointers (RFC 6901: "~" written "~0", "/"
 * written "~1").  Values are written as wg_json_write_node() types
 * them.  Applied in order to the object as it was, they give the object
 * as it is: for a list, the items kept are diffed before those appended,
 * and no operation moves an index that a later one uses.
 */

/*
 * Appends the patch turning root as it was when journal started into
 * root as it is now (root itself was not replaced) to out, as a JSON
 * array ("[]" when nothing changed).  res is for diagnostics.  Returns
 * the number of operations, or -1 when a value has no JSON form
 * (reported on ctx).
 */
long wg_json_patch(struct wg_ctx *ctx, struct wg_buf *out,
		   const struct wg_node_journal *journal,
		   const struct wg_resource *res, const struct wg_node *root);

/* Appends the JSON Pointer token of a key (len bytes): "~" -> "~0",
 * "/" -> "~1". */
void wg_json_pointer_add(struct wg_buf *out, const char *key, size_t len);

#endif
