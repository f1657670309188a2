#ifndef WINGEN_JSON_READER_H
#define WINGEN_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * JSON reader: yajl's parse events -> node trees, for the callers that
 * read JSON alone and want it fast (the admission webhook's request
 * body: libyaml's scanner was three quarters of a review's cost).
 *
 * Of any text it accepts, the trees are exactly those reader.h's libyaml
 * reader makes of the same text: strings double-quoted, numbers, true,
 * false and null plain with their text as written, no tags, collections
 * in flow style, keys in their order, every node's start mark (0-based
 * line and column in characters, as libyaml counts them), the same
 * limits (depth, scalar size, document size, documents, entries in one
 * collection) and the same refusal of a duplicate key.  A JSON stream
 * (objects or arrays one after another, as "kubectl get -o json" writes
 * several) is one document per value, as there.
 *
 * It refuses what the YAML reader refuses of valid JSON, so that the two
 * agree: a \u escape of a UTF-16 surrogate (libyaml takes none), a key
 * whose ':' is on a later line or more than 1024 characters after the
 * key's start (YAML's limit on a simple key), a tab in the whitespace
 * before a value at the top, or after a line break following the last
 * one, and the characters YAML allows nowhere (C0 and C1 controls but
 * tab, line feed, carriage return and NEL; DEL; U+FFFE, U+FFFF; bad
 * UTF-8).  What is not JSON is refused even where YAML would read it.
 *
 * One known difference, where the YAML reader is wrong about JSON: a raw
 * NEL, U+2028 or U+2029 inside a string is a line break to libyaml (it
 * folds the string there and counts a line); here it is the character
 * JSON says, and the line count goes on.  wingen's JSON writer escapes
 * them, and so does the API server for U+2028 and U+2029.
 *
 * Scalars without escapes point into in->data (in must outlive the
 * trees); the rest, and every node, live in arena.  Positions and errors
 * are reported against in->name, file:line:col, on ctx.
 */

/*
 * Called as each collection closes, with its depth (1: a document's
 * root) and the byte span of its text in in->data, [start, end): for a
 * caller that needs more of the text than the tree keeps.
 */
typedef void wg_json_close_fn(void *arg, const struct wg_node *node,
			      unsigned depth, size_t start, size_t end);

struct wg_json_opts {
	wg_json_close_fn *on_close;	/* NULL: none */
	void *on_close_arg;
	/* Refuse a number no 64-bit reader holds: an integer outside
	 * int64, or one with a fraction or exponent that overflows a
	 * double (the API server's decoder reads one or the other).  The
	 * YAML reader has no such rule: a caller that sets it reads less
	 * than the YAML reader, never something else. */
	bool int64_or_double;
};

/*
 * Reads every JSON value of in (after a UTF-8 BOM, which is skipped)
 * into arena.  Returns the number of documents (0: the input is empty or
 * whitespace) and sets *roots to an array of them in arena, or -1 with
 * the error reported on ctx.  opts may be NULL.
 */
long wg_json_read(struct wg_ctx *ctx, const struct wg_input *in,
		  struct wg_arena *arena, const struct wg_json_opts *opts,
		  struct wg_node ***roots);

/*
 * As wg_read_stream() (reader.h): every document of in into list
 * (wg_resources_add_document: empty ones dropped, Lists expanded), read
 * as JSON.  list->share_keys is not honoured (every key keeps its
 * position).  Returns 0 or -1.
 */
int wg_json_read_stream(struct wg_ctx *ctx, const struct wg_input *in,
			struct wg_resources *list);

#endif
