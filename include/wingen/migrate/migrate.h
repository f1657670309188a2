#ifndef WINGEN_MIGRATE_H
#define WINGEN_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/base/output.h"
#include "wingen/base/udiff.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * migrate: apply the changes the chain made to a tree as text edits of the
 * file the tree was read from, so comments, blank lines, quoting and key
 * order survive (docs/migrate.md).
 *
 *   file text --wg_reader--> tree --clone--> before
 *                              \--chain--> after
 *   wg_tree_diff(before, after)       -> changes (generic, no positions)
 *   wg_pos_scan_* (the reader's events) -> documents, layout
 *   wg_pos_index_doc_tree(a changed document, its tree as read)
 *                                     -> byte spans of its nodes
 *   wg_migrate_plan(changes, spans)   -> text edits
 *   wg_edits_apply(text, edits)       -> new text; re-read and compared
 *   wg_udiff (udiff.h)                -> what --diff prints
 *
 * The pieces are separate so each can be tested alone: the tree diff knows
 * nothing of text, the position index nothing of trees.
 */

/* ---- position index (migrate_pos*.c) ---------------------------------- */

/*
 * libyaml's events give the exact byte span of every node.  The reader
 * keeps only start line and column; libyaml's mark.index counts
 * characters, so offsets here are computed from line and column over the
 * text (UTF-8; CRLF, CR, NEL, LS and PS are one break).
 */

enum {
	WG_POS_ALIAS = 4,	/* kind of an alias node ("*name") */
};

enum {
	WG_POS_FLOW = 1 << 0,	/* flow collection */
	WG_POS_ANCHOR = 1 << 1,	/* carries "&name" */
	WG_POS_TAG = 1 << 2,	/* carries an explicit tag */
	WG_POS_MERGE = 1 << 3,	/* mapping with a "<<" key */
	WG_POS_STUB = 1 << 4,	/* a collection's span alone: len 0, no
				   items (wg_pos_index_doc_tree's expand) */
};

struct wg_pos_node {
	uint8_t kind;		/* WG_NODE_SCALAR, _SEQ, _MAP or WG_POS_ALIAS */
	uint8_t style;		/* enum wg_scalar_style, scalars only */
	uint16_t flags;		/* WG_POS_* */
	uint32_t len;		/* items, or pairs */
	uint32_t line, col;	/* start, 0-based; col in characters */
	uint32_t end_line;	/* line of the last byte of content */
	size_t start;		/* first byte, anchor and tag included */
	size_t end;		/* one past the last byte of content: block
				   collections end where their last child
				   ends, not at the next token */
	struct wg_pos_node *parent;
	struct wg_pos_node **items;	/* seq: items; map: key, value... */
	size_t *dashes;		/* block seq: offset of each item's '-',
				   SIZE_MAX when unknown */
	const char *text;	/* scalar value as parsed, text_len bytes:
				   the index's copy, or the tree's own bytes
				   in a replay (wg_pos_index_doc_tree), not
				   NUL-terminated */
	size_t text_len;
};

struct wg_pos_doc {
	struct wg_pos_node *root;	/* NULL for an empty document, or
					   one whose nodes are not built */
	size_t start;		/* the "---" or the first content byte */
	bool explicit_start;
	bool indexed;		/* its nodes are built (root is right) */
	bool stubs;		/* built with stubs (an expand set) */
	bool recorded;		/* a scan kept what its tree lacks:
				   ends[rec_first, rec_end), the first of
				   them far[far_first] when far */
	size_t rec_first, rec_end, far_first;
};

/* The longest text an index takes: its offsets are 32-bit. */
#define WG_POS_MAX_TEXT ((size_t)UINT32_MAX)

/* wg_pos_index.on_heap: an array the index allocated and frees. */
enum {
	WG_POS_HEAP_LINES = 1u << 0,
	WG_POS_HEAP_WIDE = 1u << 1,
	WG_POS_HEAP_IN_SCALAR = 1u << 2,
	WG_POS_HEAP_ENDS = 1u << 3,
	WG_POS_HEAP_DOCS = 1u << 4,
	WG_POS_HEAP_FAR = 1u << 5,
	WG_POS_HEAP_ALL = (1u << 6) - 1
};

/* wg_pos_index.ends: this delta or more is in far, in order. */
#define WG_POS_END_FAR UINT16_MAX

struct wg_pos_index {
	const char *data;	/* the text (not owned) */
	size_t len;
	uint32_t *lines;	/* byte offset of each line's start (4 bytes:
				   a run holds the lines of every file; text
				   of WG_POS_MAX_TEXT or more is not indexed) */
	size_t nlines;
	uint8_t *in_scalar;	/* per line: inside a multi-line scalar */
	uint8_t *wide;		/* per line: holds a multi-byte character
				   (columns then are not bytes); NULL when
				   no line does: wg_pos_line_wide() */
	struct wg_pos_doc *docs;
	size_t ndocs;
	const char *eol;	/* "\r\n" when the first break is CRLF */
	bool final_newline;	/* the text ends with a line break */
	unsigned indent;	/* indentation step the file uses (2) */
	bool compact_seqs;	/* "- " at the parent key's column */
	unsigned item_indent;	/* item content column - dash column (2) */
	bool partial;		/* from a scan: nodes per document, on demand */
	size_t doc_built;	/* partial: the document whose nodes are
				   built, SIZE_MAX when none */
	uint16_t *ends;		/* a scan's records: the end offset of
				   each scalar and flow collection of the
				   documents it could record, in order,
				   as its distance from the end before it
				   (or from the document's start); 2 bytes,
				   not 4, as a large file has millions */
	size_t nends, ends_cap;
	uint32_t *far;		/* the offsets of the ends that are
				   WG_POS_END_FAR from the one before */
	size_t nfar, far_cap;
	size_t replayed;	/* documents built from ends (for tests) */
	unsigned on_heap;	/* WG_POS_HEAP_* bits: which of the arrays
				   above are the index's to free (the rest
				   are in a caller's arena,
				   wg_pos_scan_finish) */
	struct wg_arena arena;	/* every node above */
};

/*
 * Indexes text (which must outlive ix).  Returns 0, or -1 when libyaml
 * cannot parse it or it is longer than WG_POS_MAX_TEXT (*error then names
 * the problem and *error_line is the 0-based line).  Release ix in both
 * cases.
 */
int wg_pos_index_build(struct wg_pos_index *ix, const char *data, size_t len,
		       const char **error, size_t *error_line);
void wg_pos_index_release(struct wg_pos_index *ix);

/*
 * The same index from a parse someone else runs (migrate's reader, which
 * reads the file anyway), without keeping the nodes: wg_pos_scan_start()
 * indexes the lines of data (which must outlive ix), wg_pos_scan_event()
 * takes every event of a parse of data past its BOM (the reader's
 * observer, reader.h) and wg_pos_scan_finish() ends the scan (freeing
 * it).  ix then has what wg_pos_index_build() gives except the nodes:
 * every document's start, the lines inside multi-line scalars and the
 * layout (voted on by each document's nodes, built and dropped one
 * document at a time).  wg_pos_scan_finish() returns 0, or -1 when the
 * events were not one stream of well-formed documents (a JSON stream,
 * a parse cut short, a text longer than WG_POS_MAX_TEXT, whose events
 * the scan then ignores): ix is then to be released.  With keep (optional),
 * a scan that succeeded moves ix's small arrays into that arena, each at
 * its size: they then live as long as keep (for a run that holds the
 * indexes of thousands of files, whose heap they would leave in pieces).
 * An array of WG_POS_KEEP_MAX bytes or more (a large file's) stays on the
 * heap, cut to size, as copying it would touch its memory twice.  Either
 * way, wg_pos_index_release() frees exactly what is the index's own.
 */
#define WG_POS_KEEP_MAX ((size_t)256 * 1024)
struct wg_pos_scan;
struct wg_pos_scan *wg_pos_scan_start(struct wg_pos_index *ix,
				      const char *data, size_t len);
void wg_pos_scan_event(void *scan, const yaml_event_t *event);
int wg_pos_scan_finish(struct wg_pos_scan *scan, struct wg_arena *keep);

/*
 * Builds the nodes of document d of a scanned index (sets its root) by
 * parsing its text alone, from the start of its first line to the next
 * document's start, and drops those of the document built before: one
 * document's nodes at a time, for an editor that edits one document at a
 * time.  The nodes are those wg_pos_index_build() gives for it.  Returns
 * 0 (at once when they are built), or -1 when that text does not parse as
 * the one document the scan saw there.
 */
int wg_pos_index_doc(struct wg_pos_index *ix, size_t d);

/*
 * The same, given the document's tree as the reader read it (before any
 * change; NULL when unknown).  A document the scan recorded (no alias, no
 * "<<" key, no anchor or tag: events and tree then match one for one) has
 * its nodes built from the tree's nodes and the scan's end offsets,
 * without a second parse; any disagreement between the two falls back to
 * the parse of wg_pos_index_doc().  The nodes are the same either way,
 * but a replay's scalars point at the tree's text: root must outlive
 * them (until another document is built or the nodes are dropped).
 */
int wg_pos_index_doc_tree(struct wg_pos_index *ix, size_t d,
			  const struct wg_node *root);

/*
 * The same, with the nodes of a replay built in full only where they are
 * needed: below root, a collection of root's tree that is not among
 * expand[0..n) (sorted by address, as wg_pos_sort_nodes() sorts them) is
 * a WG_POS_STUB node, its span, kind, position and flow flag without
 * items, and what lies below it is skipped in the records.  expand is
 * what wg_tree_diff() walked: the edits' parents and the collections
 * above them, whose children the plan and the read-back look at.  NULL
 * builds every node.  A parsed document (no replay) is always whole.  A
 * document built already in full is kept; one built with stubs serves
 * only the call that built it, and any later call (whole, as
 * wg_pos_index_doc_tree(), or with its own expand) builds it again.
 */
int wg_pos_index_doc_tree_for(struct wg_pos_index *ix, size_t d,
			      const struct wg_node *root,
			      const struct wg_node *const *expand, size_t n);

/* Sorts nodes[0..n) by address, for wg_pos_index_doc_tree_for(). */
void wg_pos_sort_nodes(const struct wg_node **nodes, size_t n);

/*
 * Forgets the nodes of the document built last (of a scanned index) and
 * frees their memory; the lines and documents stay, so the index can
 * build nodes again.  For a run that keeps many files' indexes while it
 * works on one at a time.
 */
void wg_pos_index_drop_nodes(struct wg_pos_index *ix);

/* Byte offset of a 0-based (line, column-in-characters) mark. */
size_t wg_pos_offset(const struct wg_pos_index *ix, size_t line, size_t col);

/* Whether line holds a multi-byte character (its columns are not its
 * bytes). */
bool wg_pos_line_wide(const struct wg_pos_index *ix, size_t line);

/* 0-based line holding byte offset off. */
size_t wg_pos_line_of(const struct wg_pos_index *ix, size_t off);

/* The same, tried first on line hint and the one after it (a node's
 * line or end_line): a search over a large file's millions of lines is a
 * cache miss a step, and the read-back asks for a line per pair. */
size_t wg_pos_line_near(const struct wg_pos_index *ix, size_t off,
			size_t hint);

/* Offset just past the line break ending the line that holds off (len
 * when that line has no break). */
size_t wg_pos_next_line(const struct wg_pos_index *ix, size_t off);

/* True when the line is a comment line: only spaces before a '#', and not
 * inside a multi-line scalar. */
bool wg_pos_is_comment_line(const struct wg_pos_index *ix, size_t line);

/* The value of pair i of a mapping node, and its key. */
static inline struct wg_pos_node *wg_pos_key(const struct wg_pos_node *m,
					     size_t i)
{
	return m->items[2 * i];
}
static inline struct wg_pos_node *wg_pos_value(const struct wg_pos_node *m,
					       size_t i)
{
	return m->items[2 * i + 1];
}

/*
 * Which position node stands for each node of a tree read from the same
 * text: pairs are matched by key text (so "<<" merges leave the merged
 * pairs unmatched), items by index; the subtree of an alias maps to the
 * alias node and no deeper.  Lookups of unmatched nodes give NULL.
 */
struct wg_pos_map {
	const struct wg_node **keys;
	struct wg_pos_node **values;
	size_t cap, len;
	size_t *used;	/* the slots filled, len of them: a clear costs
			   the entries, not the table (which the largest
			   object sized: 64k slots cleared per object) */
};

void wg_pos_map_add_tree(struct wg_pos_map *map, const struct wg_node *tree,
			 struct wg_pos_node *pos);
/* The position node of key i of mapping parent, a node of a tree added
 * (NULL as above).  Keys are not in the map themselves: a shared key
 * node (resource.h, share_keys) stands in many places. */
struct wg_pos_node *wg_pos_map_key(const struct wg_pos_map *map,
				   const struct wg_node *parent, size_t i);
struct wg_pos_node *wg_pos_map_get(const struct wg_pos_map *map,
				   const struct wg_node *node);
void wg_pos_map_release(struct wg_pos_map *map);

/* Empties map and keeps its table, for the next tree: one map serves the
 * objects of a file one after the other without growing each time. */
void wg_pos_map_clear(struct wg_pos_map *map);

/* ---- tree diff (migrate_treediff.c) ----------------------------------- */

/*
 * The difference between two trees as a list of changes, each against a
 * collection of the before tree.  Mappings are compared by key (a pair
 * whose key is in both is kept and compared deeper), sequences by the
 * longest common subsequence of items, where an item matches when it is
 * the same input node (same start mark, not made by wingen) or the same
 * tree.  A collection is replaced whole when its kept children changed
 * order, when it became empty, when nothing of it was kept, or when it is
 * in flow style (flow text is rewritten as a unit).
 */

enum wg_tdiff_kind {
	WG_TDIFF_REPLACE = 0,	/* old_value becomes new_value */
	WG_TDIFF_ADD,		/* new_value (under new_key) is inserted */
	WG_TDIFF_REMOVE,	/* old_value (and its key) goes */
};

struct wg_tdiff {
	enum wg_tdiff_kind kind;
	const struct wg_node *parent;	/* before-tree collection; NULL when
					   the root itself is replaced */
	size_t index;		/* REPLACE, REMOVE: index in parent;
				   ADD: index in the after collection */
	long prev_kept;		/* ADD: index in parent of the kept sibling
				   just before / after it, -1 when none (one */
	long next_kept;		/* of the two is always set) */
	const struct wg_node *old_value;	/* REPLACE, REMOVE */
	const struct wg_node *new_value;	/* REPLACE, ADD */
	const struct wg_node *new_key;		/* ADD to a mapping */
	const char *path;	/* of the changed node, wg_path_get() syntax;
				   ADD: the new node's path (in arena) */
};

struct wg_tdiff_list {
	struct wg_tdiff *items;
	size_t len, cap;
	/* the before-tree collections compared child by child (kept whole
	   or changed, every one above a change): heap */
	const struct wg_node **walked;
	size_t nwalked, walked_cap;
};

/*
 * Appends the changes that turn before into after to out: for each
 * collection its removals first, then additions and deeper changes in
 * after order.  Paths are allocated in arena.  Returns the number of
 * changes.  The collections of before it walked into go to out->walked:
 * every change's parent and the collections above it (a subtree the
 * trees share is not walked).
 */
size_t wg_tree_diff(struct wg_arena *arena, const struct wg_node *before,
		    const struct wg_node *after, struct wg_tdiff_list *out);
void wg_tdiff_list_release(struct wg_tdiff_list *list);

/*
 * Strict equality, as a YAML reader sees the text: mappings in key order,
 * scalars by text, tag and resolved type (a plain "true" is not a quoted
 * "true"; plain, single- or double-quoted "a" are equal).  Styles and flow
 * or block layout are ignored.
 */
bool wg_tree_same(const struct wg_node *a, const struct wg_node *b);

/*
 * Whether text (one document's region of an edited file, maybe with the
 * documents added after it) reads back as exactly the objects want[0..n):
 * read as wg_read_stream() reads a file, with limits and on a scratch
 * context (nothing is reported), its objects (Lists read as their items,
 * null documents skipped) n and each wg_tree_same() as the one of want.
 * The usual text is decided from libyaml's events alone, without building
 * trees (wg_readback_same); any other is read in full.  name is the file's,
 * for the reader.
 */
bool wg_migrate_reads_back(const struct wg_limits *limits, const char *name,
			   const char *text, size_t len,
			   const struct wg_node *const *want, size_t n);

/*
 * The fast half of wg_migrate_reads_back(): true only when the text
 * surely reads back as want[0..n), decided from the parser's events as
 * they come.  false means unsure: the text differs, or holds what this
 * does not follow (an alias, anchor or tag, a "<<" key, a scalar or List
 * document, a mapping key that is no scalar, a BOM or a JSON value first,
 * nesting past 64 levels, a limit or parse error), and must be read in
 * full to know.
 */
bool wg_readback_same(const char *text, size_t len,
		      const struct wg_node *const *want, size_t n,
		      const struct wg_limits *limits);

/* ---- text edits (migrate_textedit.c) ----------------------------------- */

/*
 * A list of replacements of byte ranges of one text.  Insertions are empty
 * ranges; several at one offset keep the order they were added in.
 * Deletions (empty text) may overlap each other: their union goes.  Any
 * other overlap is an error.
 */
struct wg_edit {
	size_t start, end;	/* [start, end) of the original text */
	char *text;		/* owned; NULL when deleting */
	size_t len;
	size_t seq;		/* order of addition */
};

struct wg_edits {
	struct wg_edit *items;
	size_t len, cap;
};

void wg_edits_add(struct wg_edits *e, size_t start, size_t end,
		  const char *text, size_t len);
/*
 * Writes data with the edits applied to out.  Returns 0, or -1 when two
 * edits overlap (out then holds nothing new).  Sorts e.
 */
int wg_edits_apply(struct wg_edits *e, const char *data, size_t len,
		   struct wg_buf *out);
void wg_edits_release(struct wg_edits *e);

/* ---- rendering new values (migrate_render.c) --------------------------- */

/* How the file around an edit is written. */
struct wg_render_style {
	unsigned indent;	/* indentation step */
	bool compact_seqs;	/* "- " at the parent key's column */
	const char *eol;	/* line break */
	bool flow_pad;		/* "{ a: b }" rather than "{a: b}" */
	unsigned item_indent;	/* "-   key": content 4 past the dash; 0: 2 */
};

/*
 * One scalar on one line.  Plain when the node is plain and the text can
 * be written plain (in a flow collection: without flow indicators), else
 * double-quoted; single-quoted kept when possible; block styles become
 * double-quoted.  An explicit tag is written first.
 */
void wg_render_scalar(struct wg_buf *out, const struct wg_node *n,
		      bool in_flow);

/*
 * A scalar replacing one written in style old_style: a string keeps the
 * old quoting when its text allows (plain when it needs no quotes), a
 * plain (typed) value stays plain.
 */
void wg_render_scalar_as(struct wg_buf *out, const struct wg_node *n,
			 enum wg_scalar_style old_style);

/* A node in flow style on one line: "{a: b, c: [d]}". */
void wg_render_flow(struct wg_buf *out, const struct wg_node *n, bool pad);

/*
 * Block text.  Each writes from the current position (the caller wrote the
 * indentation or "- ") and ends with a line break; further lines are
 * indented for a key at column col or a dash at column col.
 *   pair:  "key: value" / "key:" + lines below
 *   value: what follows "key:" (" scalar", " {}", or lines below)
 *   item:  the content after "- "
 */
void wg_render_pair(struct wg_buf *out, const struct wg_render_style *st,
		    const struct wg_node *key, const struct wg_node *value,
		    unsigned col);
void wg_render_value(struct wg_buf *out, const struct wg_render_style *st,
		     const struct wg_node *value, unsigned key_col);
void wg_render_item(struct wg_buf *out, const struct wg_render_style *st,
		    const struct wg_node *value, unsigned dash_col);

/* True when the node renders on one line after "key:" (a scalar, a flow
 * or an empty collection). */
bool wg_render_is_inline(const struct wg_node *n);

/* ---- planning: changes -> edits (migrate_plan.c) ----------------------- */

/* Why a change cannot be made as a safe text edit, and where. */
struct wg_migrate_refusal {
	const char *reason;	/* static text */
	uint32_t line, col;	/* 0-based, of the node concerned */
	size_t change;		/* index of the change in the list */
};

/*
 * Turns changes [first, first + count) of one object into edits.  map
 * locates before-tree nodes in ix.  Returns 0, or -1 when a change cannot
 * be made as a safe text edit (*why filled; edits may hold part of the
 * plan and should be dropped).
 */
int wg_migrate_plan(const struct wg_pos_index *ix, const struct wg_pos_map *map,
		    const struct wg_tdiff_list *changes, size_t first,
		    size_t count, struct wg_edits *edits,
		    struct wg_migrate_refusal *why);

/* The render style for edits in ix (indent, sequences, line breaks). */
void wg_migrate_style(const struct wg_pos_index *ix,
		      struct wg_render_style *st);

/* ---- read-back by regions (migrate_region.c) ---------------------------- */

/*
 * The fast read-back of one edited document that holds one object: true
 * only when the edited text surely reads back as after, found by reading
 * back alone the runs of sibling pairs that hold the edits (each from its
 * first key's line to the next line with content at its column or less)
 * and comparing before and after node by node everywhere else.  root is
 * the document's position nodes in ix (a document the scan recorded: no
 * alias, anchor, tag or "<<"), [doc_start, doc_end) its text in ix,
 * before and after its object's trees, edits those wg_edits_apply() made
 * (sorted; offsets from doc_start), text and len the edited document.
 * Edits that only insert whole pairs are read back alone, without the
 * pair before them.  *read (when read is not NULL) gets the bytes of text
 * read back.  false means unsure: the caller reads the whole document
 * back.
 */
bool wg_readback_regions(const struct wg_pos_index *ix,
			 const struct wg_pos_node *root, size_t doc_start,
			 size_t doc_end, const struct wg_node *before,
			 const struct wg_node *after,
			 const struct wg_edits *edits, const char *text,
			 size_t len, const struct wg_limits *limits,
			 size_t *read);

/* ---- files (migrate.c) ------------------------------------------------- */

/*
 * One file under migration.  wg_migrate_load() reads it, decides whether
 * to skip it, and adds its objects to the shared resource list (each
 * resource's payload points back here, with its tree as read: the chain's
 * edits of it are journaled, see wg_migrate_edits_begin()).  After the
 * chain, wg_migrate_finish() computes the new text.
 */
struct wg_migrate_doc;

struct wg_migrate_file {
	struct wg_input in;
	const char *skip;	/* why the file is skipped, or NULL */
	const char *skip_kind;	/* a workload kind the skipped text names */
	unsigned skip_line;	/* and its line (1-based), 0: none */
	struct wg_migrate_doc *docs;	/* in the list's arena */
	size_t ndocs;
	struct wg_buf out;	/* the new text, after wg_migrate_finish();
				   empty with opts.write_through */
	bool changed;		/* the new text differs from the input */
	/* opts.write_through: the new text of a changed file, written to a
	 * temporary beside it as it was made (closed, not yet renamed: see
	 * wg_output_replace_all()); temp.tmp is NULL when nothing changed */
	struct wg_temp temp;
	size_t out_base;	/* write_through: bytes of the new text
				   before what out holds */
	bool out_same;		/* write_through: those equal the input's
				   first out_base bytes (none written yet) */
	bool out_content;	/* write_through: they hold more than
				   comments and document markers */
	size_t objects_changed;
	size_t reformatted;	/* documents re-emitted by the writer */
	size_t regions_read;	/* edited documents read back by their
				   edited pairs alone (for tests) */
	size_t regions_wrong;	/* of those, read back whole otherwise
				   (opts.check_regions; must stay 0) */
	/* where in and out differ, one region per changed document, in
	 * order (for a diff that looks only there: wg_udiff_in()) */
	struct wg_udiff_region *regions;
	size_t nregions, regions_cap;
	/* the objects of list that belong to this file, in list order,
	 * when wg_migrate_assign() sorted them out; else finish scans list */
	struct wg_resource **mine;
	size_t nmine, mine_cap;
	bool assigned;
	/* the file's positions, scanned from the reader's events at load
	 * (scanned set); finishing builds the nodes of the documents it
	 * edits, one at a time, instead of parsing the file again */
	struct wg_pos_index ix;
	bool scanned;
	/* documents whose one object the chain dropped (retarget's
	 * RuntimeClasses of a retired build): deleted as text, from their
	 * "---" to the next, comments inside them included; emptied when
	 * nothing but comments and markers is left (the file is to go) */
	size_t documents_deleted;
	bool emptied;
};

/*
 * Memory wg_migrate_finish() reuses from one file to the next: its position
 * map, expected-tree array and arena (a run of 20,000 small files would
 * otherwise grow a map from 64 slots and get fresh blocks 20,000 times).
 * Zero it before the first use; wg_migrate_scratch_release() frees it.
 */
struct wg_migrate_scratch {
	struct wg_pos_map map;
	const struct wg_node **want;
	size_t want_cap;
	struct wg_arena arena;
	struct wg_buf window;	/* write_through's text not yet written */
};

void wg_migrate_scratch_release(struct wg_migrate_scratch *s);

struct wg_migrate_opts {
	bool reformat_fallback;	/* re-emit a document that cannot be edited */
	/* tests: a document read back by its edited pairs alone is read
	 * back whole as well, and a disagreement counted (regions_wrong) */
	bool check_regions;
	/*
	 * Write each changed file's new text to a temporary beside it while
	 * it is made (f->temp), through a window of a few hundred KiB,
	 * instead of holding it in f->out: a file's new text is about its
	 * size, and on a virtual machine first touching that much fresh
	 * memory costs more than making the text (bench/README.md).  The
	 * caller renames the temporaries (wg_output_replace_all()) or drops
	 * them (wg_migrate_file_release()).  Not for --diff, which needs
	 * the text.
	 */
	bool write_through;
	/* optional (NULL: each call allocates its own), not const: it is
	 * the caller's to reuse across calls, one call at a time */
	struct wg_migrate_scratch *scratch;
};

/*
 * Reads path into f and, unless the file is skipped, adds its objects to
 * list.  A file is skipped (f->skip set; f->skip_kind and f->skip_line
 * name a workload kind its text holds, for the caller's warning) when it
 * holds template actions and does not read as YAML (a Helm template; one
 * that reads, "{{" in its plain scalars, is migrated), is a stream of
 * JSON objects, holds no Kubernetes object, or nests Lists.  Returns 0,
 * or -1 on a read or parse error (reported on ctx).
 */
int wg_migrate_load(struct wg_ctx *ctx, struct wg_migrate_file *f,
		    const char *path, struct wg_resources *list);

/* The same for text already in memory: takes over in (left empty). */
int wg_migrate_load_input(struct wg_ctx *ctx, struct wg_migrate_file *f,
			  struct wg_input *in, struct wg_resources *list);

/*
 * Many files on threads (migrate_pool.c).  wg_migrate_pool_load() loads
 * paths[0..n) into files[0..n) on up to jobs threads (serially, as each
 * is taken, when jobs < 2 or n < 2), each thread into a list of its own
 * and each file with a context of its own.  The caller then takes the
 * files in order, 0, 1, ..., stopping where it likes:
 * wg_migrate_pool_take(i) puts file i's objects into list after those of
 * the files before it and returns what wg_migrate_load() returned.  A
 * file whose load said anything (a warning, an error) or would pass the
 * document limit is loaded again there, on ctx: every message, and the
 * first failure, come as a load on one thread gives them, and list ends
 * up as it would.  wg_migrate_pool_end() releases the files loaded but
 * not taken, moves the threads' memory into list's arena, and frees the
 * pool.  progress (may be NULL) is called with each file's index before
 * it is loaded, on the calling thread only (it sees some files).  files
 * and paths must outlive the pool; ctx's limits and strictness are read
 * once, at the start.
 */
struct wg_migrate_pool;

struct wg_migrate_pool *wg_migrate_pool_load(
	struct wg_ctx *ctx, struct wg_migrate_file *files,
	char *const *paths, size_t n, struct wg_resources *list,
	unsigned jobs, void (*progress)(void *arg, size_t i), void *arg);
int wg_migrate_pool_take(struct wg_migrate_pool *pool, size_t i);
void wg_migrate_pool_end(struct wg_migrate_pool *pool);

/*
 * Around the edits of list's objects (the chain, or a test's own edits):
 * wg_migrate_edits_begin() after the last wg_migrate_load() and before
 * the first edit, wg_migrate_edits_end() after the last, on the thread
 * that edits.  Between them list's undo journal (node.h) keeps what each
 * edit overwrites, and wg_migrate_finish() diffs every object against its
 * tree as the journal rebuilds it: the objects as read are not copied.
 * finish refuses a list whose edits were not bracketed so (it would see
 * no change).  Once per list.
 */
void wg_migrate_edits_begin(struct wg_resources *list);
void wg_migrate_edits_end(struct wg_resources *list);

/*
 * After the chain ran over list: plans and applies the edits of f's
 * objects into f->out and checks that the new text reads back as exactly
 * the objects the chain produced.  An object that cannot be edited safely
 * is an error on ctx (file:line) unless opts->reformat_fallback, which
 * re-emits its document with the YAML writer.  Objects the chain added
 * after an object of the file become new documents after it; one it
 * removed (or added inside a List) cannot be edited.  Returns 0 or -1.
 */
int wg_migrate_finish(struct wg_ctx *ctx, struct wg_migrate_file *f,
		      const struct wg_resources *list,
		      const struct wg_migrate_opts *opts);

/*
 * Sorts the objects of list out to the n files they belong to (read from
 * the file, or added by the chain under its name) in one pass, so that
 * finishing every file costs the list once, not once per file.  Call it
 * after the chain ran and before wg_migrate_finish().
 */
void wg_migrate_assign(struct wg_migrate_file *files, size_t n,
		       const struct wg_resources *list);

void wg_migrate_file_release(struct wg_migrate_file *f);

/*
 * True when text holds Helm (Go) template actions: libyaml's scanner meets
 * "{{" outside quoted and block scalars and comments.  Such text may still
 * be YAML; wg_migrate_load() skips it only when it does not read as YAML.
 */
bool wg_migrate_is_template(const char *data, size_t len);

/*
 * The first workload kind (of the pod-spec table) that the text names as
 * the value of a "kind" key, read line by line (the text need not parse),
 * with its line in *line; NULL (*line 0) when it names none.
 */
const char *wg_migrate_text_workload(const char *data, size_t len,
				     unsigned *line);

#endif
