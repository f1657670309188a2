#ifndef WINGEN_NODE_H
#define WINGEN_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/arena.h"

/*
 * The node tree: what a YAML document is while wingen works on it.
 *
 * A node is a scalar, a sequence or a mapping.  It keeps what is needed to
 * write it back the way it came in: scalar style (plain, quoted, literal,
 * folded), flow or block style for collections, an explicit tag, and mapping
 * key order.  It also keeps the libyaml start mark (0-based line and column)
 * for diagnostics.
 *
 * Memory: every node, child array and string belongs to an arena (arena.h).
 * Nothing here frees; removing a node detaches it and the arena reclaims it
 * with the rest of the tree.  Scalar strings are NOT NUL-terminated in
 * general (they may point straight into the input buffer): always use len.
 *
 * Pointers to nodes stay valid across edits of their parent (children are
 * held by pointer), so a transform may keep a pointer to spec.nodeSelector
 * while it inserts spec.tolerations.
 */

enum wg_node_kind {
	WG_NODE_SCALAR = 1,
	WG_NODE_SEQ,
	WG_NODE_MAP,
};

/* Scalar styles, in libyaml's order. */
enum wg_scalar_style {
	WG_STYLE_PLAIN = 0,
	WG_STYLE_SINGLE,
	WG_STYLE_DOUBLE,
	WG_STYLE_LITERAL,
	WG_STYLE_FOLDED,
};

/* Node flags. */
enum {
	WG_NODE_FLOW = 1 << 0,	 /* collection written in flow style */
	WG_NODE_EXT = 1 << 1,	 /* has a prefix with a tag and/or a far
				    position, see wg_node_tag() */
	WG_NODE_GROWN = 1 << 2,	 /* child array capacity is a power of two */
	WG_NODE_NEW = 1 << 3,	 /* made by wingen, not read from input */
	WG_NODE_OWNED = 1 << 4,	 /* u.str is libyaml's malloc'd buffer (see
				    reader.h, adopt); set only by the reader */
	/* The same bit on a collection (which owns no string): an undo
	 * journal saved it, so wg_node_journal_before() looks it up; one
	 * without it is not looked up (a hint: a stale one costs a lookup) */
	WG_NODE_SAVED = WG_NODE_OWNED,
};

/* Largest scalar (bytes) or collection (items, pairs) a node can hold. */
#define WG_NODE_MAX_LEN ((1u << 22) - 1)

/* Saturated line and column fields: the exact position is in the prefix. */
#define WG_NODE_LINE_SAT ((1u << 24) - 1)
#define WG_NODE_COL_SAT ((1u << 8) - 1)

/*
 * 16 bytes: a large stream holds millions of these.  line and col hold
 * the position when it fits (line < 16M, col < 255), else they saturate
 * and the exact one sits in the node's prefix: read positions with
 * wg_node_line() and wg_node_col().
 */
struct wg_node {
	uint32_t kind : 2;	/* enum wg_node_kind */
	uint32_t style : 3;	/* enum wg_scalar_style; 0 for collections */
	uint32_t flags : 5;
	uint32_t len : 22;	/* scalar: bytes; sequence: items; mapping: pairs */
	uint32_t line : 24;	/* 0-based start mark, saturated */
	uint32_t col : 8;	/* 0-based, saturated */
	union {
		const char *str;	 /* scalar bytes, len of them */
		struct wg_node **items;	 /* seq: len; map: 2*len (key, value) */
	} u;
};

/* The 0-based start line and column of a node read from input (0 for new
 * nodes). */
uint32_t wg_node_line(const struct wg_node *n);
uint32_t wg_node_col(const struct wg_node *n);

/*
 * Whether a node has a position from input: false for new nodes and for
 * shared mapping keys (reader.h), which stand in many places at once.
 */
bool wg_node_has_pos(const struct wg_node *n);

/* Marks a node as having no position of its own (a shared key). */
void wg_node_forget_pos(struct wg_node *n);

/*
 * Moves a node's position (0-based): exact when the node has a prefix or
 * the position fits its fields, else saturated (messages then point at
 * the right line with the column 255, or at line 16777215).
 */
void wg_node_set_pos(struct wg_node *n, uint32_t line, uint32_t col);

/* ---- construction ------------------------------------------------------ */

/* A scalar of exactly this text and style; s is copied into the arena. */
struct wg_node *wg_node_new_scalar(struct wg_arena *arena, const char *s,
				   size_t len, enum wg_scalar_style style);

/*
 * A string scalar for generated content: plain when a YAML 1.1 or 1.2 reader
 * would take it as a string, double-quoted when it would read it as a bool,
 * null, number or timestamp (or plain is impossible).  s is copied.
 */
struct wg_node *wg_node_new_str(struct wg_arena *arena, const char *s);
struct wg_node *wg_node_new_strn(struct wg_arena *arena, const char *s,
				 size_t len);

/* A plain scalar meant to be typed (an integer, true/false): s is copied. */
struct wg_node *wg_node_new_plain(struct wg_arena *arena, const char *s);

struct wg_node *wg_node_new_map(struct wg_arena *arena);
struct wg_node *wg_node_new_seq(struct wg_arena *arena);

/* Deep copy; tags, styles and marks are kept. */
struct wg_node *wg_node_clone(struct wg_arena *arena,
			      const struct wg_node *node);

/*
 * An undo journal: the other way to keep what trees were before a chain of
 * edits, without a snapshot of each.  While a journal is active on the
 * calling thread, every edit through this header's functions (insert,
 * set, delete, ensure, on a mapping or a sequence) first saves the
 * collection's pairs or items as they were, once per collection: only
 * collections read from input (not WG_NODE_NEW), and an append saves a
 * length and a pointer, not a copy (appending never rewrites the slots
 * before it).
 *
 * wg_node_journal_before() then gives a tree as it was when the journal
 * began: a copy of each collection the journal saved, or that holds one,
 * in arena; every other subtree, and every scalar, is the tree's own, so
 * the result shares all that did not change (a tree nothing touched comes
 * back as itself).  It is exact as long as nothing changed the tree but
 * this header's edits while the journal was active:
 *  - no scalar node is rewritten in place, and nothing that edits a tree
 *    does (a transform replaces a scalar with wg_map_set and a new node);
 *    the in-place changes that exist are for trees nobody journals
 *    (wg_node_set_pos for a KRM functionConfig, the writer's take mode
 *    for build, a ResourceList's JSON unflowing);
 *  - a node made by wingen (WG_NODE_NEW) before the journal began is
 *    not in its care;
 *  - no edit after wg_node_journal_stop() while its results are in use
 *    (they may share a collection's array with the tree).
 *
 * Used by migrate.  Its before-trees were snapshots (the collections of
 * every object copied at load, held to the end: 172 MB of 976 MB over
 * bench's broad 50k stream in 50,000 files); the journal holds what the
 * chain changed, and each file's trees are rebuilt while it is finished.
 * One active journal per thread.
 */
struct wg_node_journal;

/* A new, empty journal (owned by the caller: wg_node_journal_free()),
 * sized for a stream's edits; _sized for about expect collections (it
 * grows past them): one object's edits are a handful. */
struct wg_node_journal *wg_node_journal_new(void);
struct wg_node_journal *wg_node_journal_new_sized(size_t expect);
void wg_node_journal_free(struct wg_node_journal *journal);

/* Makes journal the calling thread's active journal: edits from now on
 * are saved in it.  wg_node_journal_stop() ends that. */
void wg_node_journal_start(struct wg_node_journal *journal);
void wg_node_journal_stop(void);

/* node as it was when the journal started (see above); node itself when
 * nothing in it changed.  Copies are allocated in arena. */
const struct wg_node *wg_node_journal_before(
	const struct wg_node_journal *journal, struct wg_arena *arena,
	const struct wg_node *node);

/*
 * What collection node held when the journal started, as the journal
 * saved it: sets *items (len pairs of a mapping, key then value, or len
 * items of a sequence; not to be written) and *len, and returns true;
 * false when the journal saved nothing of node (no edit of this header
 * touched it, so it holds what it held).  For a caller that walks the
 * tree as it is and asks, collection by collection, what it was (the
 * admission webhook's JSON Patch): the children are the nodes of then,
 * so one still in place is the same node, changed or not.
 */
bool wg_node_journal_saved(const struct wg_node_journal *journal,
			   const struct wg_node *node,
			   struct wg_node *const **items, uint32_t *len);

/* Collections the journal saved (for tests and measurements). */
size_t wg_node_journal_size(const struct wg_node_journal *journal);

/* The explicit tag of a node ("tag:yaml.org,2002:str", "!foo"), or NULL. */
const char *wg_node_ext_tag(const struct wg_node *node);	/* its slow path */
static inline const char *wg_node_tag(const struct wg_node *node)
{
	/* inline: the writer asks for every node, and few have a tag */
	return node && (node->flags & WG_NODE_EXT) ? wg_node_ext_tag(node)
						    : NULL;
}

/*
 * A node of the given kind read at 0-based line and col, with an explicit
 * tag (copied) or none (NULL).  Used by the reader; kind is enum
 * wg_node_kind.
 */
struct wg_node *wg_node_new_ext_at(struct wg_arena *arena, int kind,
				   const char *tag, uint32_t line,
				   uint32_t col);	/* its slow path */
static inline struct wg_node *wg_node_new_at(struct wg_arena *arena, int kind,
					     const char *tag, uint32_t line,
					     uint32_t col)
{
	struct wg_node *n;

	/* inline: the reader makes one per event; a tag or a position
	 * that does not fit the fields needs a prefix */
	if (tag || line >= WG_NODE_LINE_SAT || col >= WG_NODE_COL_SAT)
		return wg_node_new_ext_at(arena, kind, tag, line, col);
	n = (struct wg_node *)wg_arena_alloc(arena, sizeof(*n));
	*n = (struct wg_node){ .kind = (unsigned)kind & 3u, .line = line,
			       .col = col };
	return n;
}

/* ---- reading ----------------------------------------------------------- */

static inline bool wg_is_scalar(const struct wg_node *n)
{
	return n && n->kind == WG_NODE_SCALAR;
}
static inline bool wg_is_map(const struct wg_node *n)
{
	return n && n->kind == WG_NODE_MAP;
}
static inline bool wg_is_seq(const struct wg_node *n)
{
	return n && n->kind == WG_NODE_SEQ;
}

/* True when n is a scalar whose text is exactly s. */
bool wg_scalar_is(const struct wg_node *n, const char *s);

/*
 * A boolean field read as kubectl reads it (sigs.k8s.io/yaml, YAML 1.1):
 * a plain y/Y/yes/Yes/YES/on/On/ON/true/True/TRUE is true, n/no/off/false
 * in the same spellings false (a !!bool tag reads the text the same way);
 * a missing node or a null is absent; anything else (a quoted "true", a
 * number, a collection) is no boolean and the API server refuses it.  The
 * one helper every boolean field wingen reads goes through.
 */
enum wg_bool {
	WG_BOOL_ABSENT = 0,
	WG_BOOL_FALSE,
	WG_BOOL_TRUE,
	WG_BOOL_INVALID,
};

enum wg_bool wg_node_bool(const struct wg_node *n);

/* wg_node_bool(n) == WG_BOOL_TRUE. */
bool wg_node_true(const struct wg_node *n);

/*
 * True when n is a YAML null: a missing node, a scalar tagged !!null, or an
 * untagged plain scalar that is empty, "~", "null", "Null" or "NULL".
 */
bool wg_node_is_null(const struct wg_node *n);

/* Copies a scalar's text into the arena with a NUL; NULL for non-scalars. */
char *wg_scalar_dup(struct wg_arena *arena, const struct wg_node *n);

/* Mapping access.  i-th key / value; no bounds check beyond an assert. */
static inline struct wg_node *wg_map_key(const struct wg_node *m, size_t i)
{
	return m->u.items[2 * i];
}
static inline struct wg_node *wg_map_value(const struct wg_node *m, size_t i)
{
	return m->u.items[2 * i + 1];
}
static inline struct wg_node *wg_seq_item(const struct wg_node *s, size_t i)
{
	return s->u.items[i];
}

/* Index of the pair whose key text is key, or -1; m may be any node. */
long wg_map_find(const struct wg_node *m, const char *key);
long wg_map_findn(const struct wg_node *m, const char *key, size_t len);

/* Value under key, or NULL (also when m is not a mapping). */
struct wg_node *wg_map_get(const struct wg_node *m, const char *key);

/*
 * Path lookup.  A path is keys separated by '.'; "[N]" selects item N of a
 * sequence; "[key.with.dots]" is one key (kyaml's escaping), so
 * "spec.template.metadata.labels.[app.kubernetes.io/name]".
 * Returns NULL when any step is missing or of the wrong kind.
 */
struct wg_node *wg_path_get(const struct wg_node *root, const char *path);

/* ---- editing ----------------------------------------------------------- */

/* Change a collection only through these functions, never by writing its
 * items or len: the undo journal (above) sees these alone. */

/*
 * Sets key to value: replaces the value in place when the key exists (key
 * style and position kept), else appends a new pair with a plain key.
 * Returns value.
 */
struct wg_node *wg_map_set(struct wg_arena *arena, struct wg_node *m,
			   const char *key, struct wg_node *value);

/*
 * Inserts a new pair before pair index pos (pos == len appends).  The caller
 * makes sure the key is not present.  Returns value.
 */
struct wg_node *wg_map_insert(struct wg_arena *arena, struct wg_node *m,
			      size_t pos, const char *key,
			      struct wg_node *value);

/* Removes the pair for key; returns the detached value, or NULL. */
struct wg_node *wg_map_delete(struct wg_node *m, const char *key);

/* Puts value in place of pair index i's value; returns the old one. */
struct wg_node *wg_map_replace_at(struct wg_node *m, size_t i,
				  struct wg_node *value);

/* Removes pair index i; returns the detached value. */
struct wg_node *wg_map_delete_at(struct wg_node *m, size_t i);

/* The mapping under key, created (empty, block style) when missing or null.
 * Returns NULL when key holds something that is not a mapping. */
struct wg_node *wg_map_ensure_map(struct wg_arena *arena, struct wg_node *m,
				  const char *key);
/* Same for a sequence. */
struct wg_node *wg_map_ensure_seq(struct wg_arena *arena, struct wg_node *m,
				  const char *key);

void wg_seq_append(struct wg_arena *arena, struct wg_node *s,
		   struct wg_node *item);
void wg_seq_insert(struct wg_arena *arena, struct wg_node *s, size_t pos,
		   struct wg_node *item);
struct wg_node *wg_seq_delete_at(struct wg_node *s, size_t i);

/* ---- comparison and walking -------------------------------------------- */

/*
 * Semantic equality as Kubernetes sees it: scalars compare by text (style
 * ignored), mappings by key set regardless of order, sequences in order.
 */
bool wg_node_equal(const struct wg_node *a, const struct wg_node *b);

/*
 * Visits every node depth-first, parents before children.  path is the
 * node's path in wg_path_get() syntax (valid only during the call); key is
 * the mapping key node for mapping values, NULL otherwise.  A non-zero
 * return from fn stops the walk and is returned.
 */
typedef int (*wg_walk_fn)(struct wg_node *node, struct wg_node *key,
			  const char *path, void *payload);
int wg_node_walk(struct wg_node *root, wg_walk_fn fn, void *payload);

/* Appends the path syntax for one key to a path being built. */
struct wg_buf;
void wg_path_append_key(struct wg_buf *path, const char *key, size_t len);

#endif
