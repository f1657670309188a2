/*
 * Making nodes: a node's head (kind, style, flags, its tag and position,
 * in a prefix for the rare node that needs one), new nodes, and copies.
 * Below the editing of node.c and its journal (node_journal.c), which
 * both copy heads here.
 */
#include "wingen/yaml/node.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/scalar.h"

#include "yaml_internal.h"

/*
 * The rare node with an explicit tag, or a position too far for its
 * bit-fields, carries a prefix just before it in memory, so the common
 * node stays 16 bytes.
 */
struct node_ext {
	const char *tag;	/* NULL when untagged */
	uint32_t line, col;	/* exact position */
	struct wg_node node;
};

static const struct node_ext *ext_of(const struct wg_node *node)
{
	/* via void *: the node_ext is 8-aligned, as the arena made it */
	return (const struct node_ext *)(const void *)
	       ((const char *)node - offsetof(struct node_ext, node));
}

const char *wg_node_ext_tag(const struct wg_node *node)
{
	return ext_of(node)->tag;
}

/* Saturated line and column without a prefix: no position (a far one
 * always has a prefix). */
static bool no_pos(const struct wg_node *n)
{
	return n->line == WG_NODE_LINE_SAT && n->col == WG_NODE_COL_SAT
	       && !(n->flags & WG_NODE_EXT);
}

bool wg_node_has_pos(const struct wg_node *n)
{
	return !(n->flags & WG_NODE_NEW) && !no_pos(n);
}

void wg_node_forget_pos(struct wg_node *n)
{
	if (n->flags & WG_NODE_EXT)
		return;	/* tagged keys are not shared */
	n->line = WG_NODE_LINE_SAT;
	n->col = WG_NODE_COL_SAT;
}

uint32_t wg_node_line(const struct wg_node *n)
{
	if (no_pos(n))
		return 0;
	if (n->line == WG_NODE_LINE_SAT && (n->flags & WG_NODE_EXT))
		return ext_of(n)->line;
	return n->line;
}

uint32_t wg_node_col(const struct wg_node *n)
{
	if (no_pos(n))
		return 0;
	if (n->col == WG_NODE_COL_SAT && (n->flags & WG_NODE_EXT))
		return ext_of(n)->col;
	return n->col;
}

void wg_node_set_pos(struct wg_node *n, uint32_t line, uint32_t col)
{
	if (n->flags & WG_NODE_EXT) {
		struct node_ext *x = (struct node_ext *)(void *)
			((char *)n - offsetof(struct node_ext, node));

		x->line = line;
		x->col = col;
	}
	n->line = line < WG_NODE_LINE_SAT ? line : WG_NODE_LINE_SAT;
	n->col = col < WG_NODE_COL_SAT ? col : WG_NODE_COL_SAT;
}

static struct wg_node *alloc_node(struct wg_arena *arena, int kind,
				  const char *tag, uint32_t line, uint32_t col)
{
	bool far = line >= WG_NODE_LINE_SAT || col >= WG_NODE_COL_SAT;
	struct wg_node *n;

	if (tag || far) {
		struct node_ext *x = wg_arena_alloc(arena, sizeof(*x));

		x->tag = tag ? wg_arena_strdup(arena, tag) : NULL;
		x->line = line;
		x->col = col;
		n = &x->node;
	} else {
		n = wg_arena_alloc(arena, sizeof(*n));
	}
	/* one store per word, not a memset and a read-modify-write per
	 * bit-field: the reader makes millions of these */
	*n = (struct wg_node){
		.kind = (unsigned)kind & 3u,
		.flags = tag || far ? WG_NODE_EXT : 0,
		.line = line < WG_NODE_LINE_SAT ? line : WG_NODE_LINE_SAT,
		.col = col < WG_NODE_COL_SAT ? col : WG_NODE_COL_SAT,
	};
	return n;
}

struct wg_node *wg_node_new_ext_at(struct wg_arena *arena, int kind,
				   const char *tag, uint32_t line, uint32_t col)
{
	return alloc_node(arena, kind, tag, line, col);
}

struct wg_node *wg_node_new_scalar(struct wg_arena *arena, const char *s,
				   size_t len, enum wg_scalar_style style)
{
	struct wg_node *n = alloc_node(arena, WG_NODE_SCALAR, NULL, 0, 0);

	assert(len <= WG_NODE_MAX_LEN);
	n->style = (unsigned)style & 7u;
	n->flags |= WG_NODE_NEW;
	n->len = (uint32_t)len;
	n->u.str = wg_arena_strndup(arena, s, len);
	return n;
}

struct wg_node *wg_node_new_strn(struct wg_arena *arena, const char *s,
				 size_t len)
{
	return wg_node_new_scalar(arena, s, len,
				  wg_scalar_needs_quotes(s, len)
				  ? WG_STYLE_DOUBLE : WG_STYLE_PLAIN);
}

struct wg_node *wg_node_new_str(struct wg_arena *arena, const char *s)
{
	return wg_node_new_strn(arena, s, strlen(s));
}

struct wg_node *wg_node_new_plain(struct wg_arena *arena, const char *s)
{
	return wg_node_new_scalar(arena, s, strlen(s), WG_STYLE_PLAIN);
}

struct wg_node *wg_node_new_map(struct wg_arena *arena)
{
	struct wg_node *n = alloc_node(arena, WG_NODE_MAP, NULL, 0, 0);

	n->flags |= WG_NODE_NEW;
	return n;
}

struct wg_node *wg_node_new_seq(struct wg_arena *arena)
{
	struct wg_node *n = alloc_node(arena, WG_NODE_SEQ, NULL, 0, 0);

	n->flags |= WG_NODE_NEW;
	return n;
}

struct wg_node *wg_node_copy_head(struct wg_arena *arena,
				  const struct wg_node *node)
{
	struct wg_node *n = alloc_node(arena, node->kind, wg_node_tag(node),
				       wg_node_line(node), wg_node_col(node));

	n->style = node->style;
	/* A clone shares strings but owns none of them (see reader.h); it
	 * has a prefix exactly when alloc_node() gave it one. */
	n->flags = (node->flags & ~(unsigned)(WG_NODE_GROWN | WG_NODE_OWNED
					      | WG_NODE_EXT))
		   | (n->flags & (unsigned)WG_NODE_EXT);
	if (!(node->flags & WG_NODE_NEW) && !wg_node_has_pos(node))
		wg_node_forget_pos(n);	/* a copy of a shared key */
	n->len = node->len;
	if (node->kind == WG_NODE_SCALAR)
		n->u.str = node->u.str;	/* strings are immutable: share */
	else
		n->u.items = NULL;
	return n;
}

/* A deep copy of node. */
static struct wg_node *copy(struct wg_arena *arena, const struct wg_node *node)
{
	struct wg_node *n;
	size_t k;

	n = wg_node_copy_head(arena, node);
	if (node->kind == WG_NODE_SCALAR)
		return n;
	k = wg_node_slots(node);
	n->u.items = k ? wg_arena_alloc(arena, k * sizeof(*n->u.items)) : NULL;
	for (size_t i = 0; i < k; i++)
		n->u.items[i] = copy(arena, node->u.items[i]);
	return n;
}

struct wg_node *wg_node_clone(struct wg_arena *arena,
			      const struct wg_node *node)
{
	return copy(arena, node);
}
