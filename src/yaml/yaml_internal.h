#ifndef WINGEN_YAML_INTERNAL_H
#define WINGEN_YAML_INTERNAL_H

#include <stdbool.h>

#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"

/*
 * The direct writer (write_direct.c), private to src/yaml/ (writer.c).
 *
 * Writes one document as libyaml 0.2.5's emitter writes it with wingen's
 * settings (indent 2, no width limit, unicode, LF breaks, implicit document
 * start and end), byte for byte, without going through the emitter's
 * events: the emitter is a third of the work of writing a stream, most of
 * it spent on copying, queueing and freeing each event's strings.
 *
 * It knows exactly the subset of trees Kubernetes documents are made of: a
 * mapping or sequence at the root; block and flow collections (empty ones
 * are written "{}" and "[]", and everything inside a flow collection in
 * flow style, as the emitter writes them); untagged scalars of printable
 * ASCII written plain, single- or double-quoted on one line, or as literal
 * blocks; mapping keys that are such scalars and short enough to be simple
 * keys (128 bytes).  Anything else (a tag, a folded block, a tab, a byte
 * over 0x7e, a multi-line quoted scalar, a long or collection key, a
 * scalar at the root) makes it refuse the whole document, and the caller
 * gives that document to libyaml.
 *
 * first: the stream's first document (no "---" before it).  On success
 * appends the text to out, sets *open_ended to the emitter's open_ended
 * after the document (2 when it ended in a block scalar kept with "+":
 * the stream's end is then "...") and returns true.  On refusal leaves
 * out as it was and returns false.
 */
bool wg_write_direct_doc(struct wg_buf *out, const struct wg_node *root,
			 bool first, int *open_ended);

/*
 * Between node.c and node_journal.c (the undo journal, node.h).
 *
 * wg_node_journal_note() is called by every edit in node.c before it
 * changes collection n: append when the edit only adds slots after the
 * last (it rewrites none of those before).  It costs a thread-local load
 * when no journal is active.
 */
struct wg_node_journal;
extern _Thread_local struct wg_node_journal *wg_node_journal_active;
void wg_node_journal_save(struct wg_node *n, bool append);

static inline void wg_node_journal_note(struct wg_node *n, bool append)
{
	if (wg_node_journal_active && !(n->flags & WG_NODE_NEW))
		wg_node_journal_save(n, append);
}

/* A copy of node without its children: kind, tag, position, style and
 * flags as wg_node_clone() gives them, len as node's, u.items NULL (a
 * scalar's u.str is shared).  (node_new.c) */
struct wg_node *wg_node_copy_head(struct wg_arena *arena,
				  const struct wg_node *node);

/* The child slots a collection uses: a mapping's keys and values. */
static inline size_t wg_node_slots(const struct wg_node *n)
{
	return n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
}

/*
 * Between the readers (reader.c, json_reader.c): the index of the first
 * pair of a mapping's kids (pairs of key and value) whose key repeats an
 * earlier one (the later of two in the file), or -1; "<<" keys (plain or
 * tagged merge keys) are left out and reported in *has_merge.  Keys are
 * scalars.  n log n for many pairs.
 */
long wg_map_first_duplicate(struct wg_node **kids, size_t pairs,
			    bool *has_merge);

#endif
