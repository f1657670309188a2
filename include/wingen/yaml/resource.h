#ifndef WINGEN_RESOURCE_H
#define WINGEN_RESOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/arena.h"
#include "wingen/base/diag.h"
#include "wingen/yaml/node.h"

/*
 * Resources: the objects of a stream, in order.
 *
 * A resource is one document's root (after List expansion) plus where it
 * came from.  The list owns one arena that holds every resource and every
 * node of every document read into it.
 */

struct wg_selection;	/* per-resource selection state, see select.h */
struct wg_select_state;	/* per-list selection state, see select.h */
struct wg_pod_refs;	/* per-list index of named objects, podview.c */

enum {
	WG_RES_GENERATED = 1 << 0,	/* made by a generator */
	WG_RES_DELETED = 1 << 1,	/* dropped; not written */
	WG_RES_LIST_ITEM = 1 << 2,	/* came from the items of a List */
	WG_RES_ERROR = 1 << 3,		/* an error was reported against it
					   (set by wg_report) */
};

struct wg_resource {
	struct wg_node *root;	/* usually a mapping */
	const char *file;	/* source path; "-" for stdin; NULL generated */
	unsigned index;		/* document index within the file (0-based) */
	unsigned flags;
	struct wg_selection *sel;	/* owned by the selection module */
	void *payload;		/* for the command driving the pipeline */
	/* Helm's "# Source: CHART/templates/FILE" line that headed the
	 * object's document (wg_resources_source_comments()), written
	 * back above it by the YAML writer; NULL when none.  A copy of
	 * the object made by a transform keeps it. */
	const char *source_comment;
};

struct wg_resources {
	struct wg_resource **items;
	size_t len, cap;
	struct wg_arena arena;
	/*
	 * Set before reading into the list to share one read-only node per
	 * distinct mapping key (their text and style): a large stream then
	 * holds a few hundred key nodes instead of millions.  Shared keys
	 * have no position (wg_node_has_pos), so set it only where memory
	 * matters more than pointing messages at keys (build).
	 */
	bool share_keys;
	struct wg_node **keys;	/* open-addressing table of shared keys */
	size_t keys_cap, nkeys;
	struct wg_select_state *select;	/* owned by select.c, in arena */
	struct wg_pod_refs *pod_refs;	/* owned by src/k8s/podview.c (the
					   objects references name), in
					   arena */
	/* One object of a stream nobody sees whole (the admission webhook
	 * answers for each alone): checks of the stream as a whole (a
	 * select entry that matches no object) are not made. */
	bool single;
	/* what edits changed in its trees, when its owner keeps that
	 * (migrate: wg_migrate_edits_begin()); NULL otherwise; owned */
	struct wg_node_journal *journal;
};

void wg_resources_init(struct wg_resources *list);
void wg_resources_release(struct wg_resources *list);

/* A new resource in the list's arena; not yet in the list. */
struct wg_resource *wg_resource_new(struct wg_resources *list,
				    struct wg_node *root, const char *file,
				    unsigned index);

void wg_resources_append(struct wg_resources *list, struct wg_resource *res);

/*
 * Appends every resource of src to dst, in order, and moves src's arena
 * (nodes, shared keys and all) into dst's; src is released.  src must not
 * have been selected (select.h) yet.
 */
void wg_resources_take(struct wg_resources *dst, struct wg_resources *src);
void wg_resources_insert(struct wg_resources *list, size_t pos,
			 struct wg_resource *res);

struct wg_ctx;

/*
 * Adds one parsed document: drops it when empty or null; expands a List (a
 * kind ending in "List" whose items is a sequence, or null with no fields
 * besides apiVersion, kind, metadata and items) into its items, and Lists
 * among the items into theirs; else appends it.  Returns the number of
 * resources added.
 */
size_t wg_resources_add_document(struct wg_resources *list,
				 struct wg_node *root, const char *file,
				 unsigned index);

/*
 * Shared mapping keys (see share_keys): the list's node for a key with
 * this text and style, or NULL; and adding an untagged scalar as the node
 * for its text and style (its position is dropped: it will stand in many
 * places).
 */
struct wg_node *wg_resources_shared_key(struct wg_resources *list,
					const char *s, size_t len,
					unsigned style);
void wg_resources_add_shared_key(struct wg_resources *list,
				 struct wg_node *key);

struct wg_input;

/* How far wg_resources_source_comments() got in an input: zeroed before
 * the first call, kept across calls over the same input's documents in
 * order (a stream read a document at a time). */
struct wg_source_cursor {
	size_t off;		/* the start of line */
	uint32_t line;		/* 0-based */
	int state;		/* 0 not looked yet; 1 the text has a Source
				   line; 2 it has none */
};

/*
 * Finds the "# Source: ..." comment that heads each of list->items[from,
 * to) (read from in, in order) in in's text: among the comment and blank
 * lines between the "---" or "..." that starts the object's document (or
 * the text's start) and its first line, the first that starts with
 * "# Source: " (Helm's), into res->source_comment (list's arena); a
 * List's items each get its document's.  Helm 3 splits a post-rendered
 * stream on those comments (helm template --show-only); libyaml reports
 * no comments.  at (NULL: from the start) carries on from an earlier
 * call.  Text without such a line costs one search.
 */
void wg_resources_source_comments(struct wg_resources *list, size_t from,
				  size_t to, const struct wg_input *in,
				  struct wg_source_cursor *at);

/* Kubernetes identity, read from the root (NULL when absent). */
const char *wg_resource_kind(struct wg_arena *arena,
			     const struct wg_resource *res);
bool wg_resource_kind_is(const struct wg_resource *res, const char *kind);
struct wg_node *wg_resource_name_node(const struct wg_resource *res);
struct wg_node *wg_resource_namespace_node(const struct wg_resource *res);

/* Fills ref with the resource's identity, strings in arena. */
void wg_resource_ref(struct wg_arena *arena, const struct wg_resource *res,
		     struct wg_ref *ref);

/* "Kind/name" or "Kind/namespace/name", in arena, for messages. */
const char *wg_resource_label(struct wg_arena *arena,
			      const struct wg_resource *res);

#endif
