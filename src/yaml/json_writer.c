/*
 * JSON out of node trees: a resource as one line (build -o json), a tree
 * wingen built, and a text too large for one tree written a piece at a
 * time (check's report).  Scalars are typed the one way kubectl reads
 * YAML (wg_scalar_to_json); the layout is the only thing that differs.
 */
#include <string.h>

#include "wingen/yaml/scalar.h"
#include "wingen/yaml/writer.h"

static const char core_tag[] = "tag:yaml.org,2002:";

/*
 * Where JSON goes: a resource's tree (errors reported on ctx against res)
 * or a tree wingen built (ctx NULL: a scalar without a JSON form only
 * fails the write).  indent 0 writes one line; else a member or an item
 * a line, indent spaces a level deeper than its collection.
 */
struct json_style {
	struct wg_ctx *ctx;
	const struct wg_resource *res;
	struct wg_buf *out;
	unsigned indent;
	bool spaced;		/* one line, ", " between items */
};

/* A sequence of scalars alone: pretty JSON keeps it on one line. */
static bool scalars_only(const struct wg_node *n)
{
	for (size_t i = 0; i < n->len; i++)
		if (!wg_is_scalar(n->u.items[i]))
			return false;
	return true;
}

static void newline(struct wg_buf *out, unsigned indent, unsigned depth)
{
	wg_buf_addch(out, '\n');
	for (unsigned k = 0; k < depth * indent; k++)
		wg_buf_addch(out, ' ');
}

static int json_scalar(const struct json_style *j, const struct wg_node *n)
{
	const char *tag = wg_node_tag(n);
	bool typed = n->style == WG_STYLE_PLAIN;

	if (tag) {
		/* An explicit core tag types the text whatever its style. */
		typed = strncmp(tag, core_tag, sizeof(core_tag) - 1) == 0
			&& strcmp(tag + sizeof(core_tag) - 1, "str") != 0
			&& strcmp(tag + sizeof(core_tag) - 1, "binary") != 0
			&& strcmp(tag + sizeof(core_tag) - 1, "timestamp") != 0;
	}
	if (!typed) {
		wg_json_quote(j->out, n->u.str, n->len);
		return 0;
	}
	if (wg_scalar_to_json(j->out, n->u.str, n->len) == 0)
		return 0;
	if (!j->ctx)
		return -1;
	return wg_error(j->ctx, j->res, n, NULL,
			"'%.*s' has no JSON representation", (int)n->len,
			n->u.str);
}

/* Before a member or item (i its index), or before the closing bracket
 * of a collection of n entries (i == n). */
static void json_break(const struct json_style *j, size_t i, size_t n,
		       unsigned depth)
{
	if (i && i < n)
		wg_buf_addstr(j->out, j->spaced ? ", " : ",");
	if (j->indent && n)
		newline(j->out, j->indent, i < n ? depth + 1 : depth);
}

static int json_node(const struct json_style *j, const struct wg_node *n,
		     unsigned depth)
{
	int rc = 0;

	switch (n->kind) {
	case WG_NODE_SCALAR:
		return json_scalar(j, n);
	case WG_NODE_SEQ:
		if (j->indent && scalars_only(n)) {
			struct json_style line = *j;

			line.indent = 0;
			line.spaced = true;
			return json_node(&line, n, depth);
		}
		wg_buf_addch(j->out, '[');
		for (size_t i = 0; i < n->len; i++) {
			json_break(j, i, n->len, depth);
			rc |= json_node(j, n->u.items[i], depth + 1);
		}
		json_break(j, n->len, n->len, depth);
		wg_buf_addch(j->out, ']');
		return rc;
	default:
		wg_buf_addch(j->out, '{');
		for (size_t i = 0; i < n->len; i++) {
			const struct wg_node *k = wg_map_key(n, i);

			json_break(j, i, n->len, depth);
			wg_json_quote(j->out, k->u.str, k->len);
			wg_buf_addstr(j->out, j->indent ? ": " : ":");
			rc |= json_node(j, wg_map_value(n, i), depth + 1);
		}
		json_break(j, n->len, n->len, depth);
		wg_buf_addch(j->out, '}');
		return rc;
	}
}

int wg_json_write(struct wg_ctx *ctx, struct wg_buf *out,
		  const struct wg_resource *res)
{
	struct json_style j = { ctx, res, out, 0, false };
	int rc = json_node(&j, res->root, 0);

	wg_buf_addch(out, '\n');
	return rc ? -1 : 0;
}

int wg_json_write_node(struct wg_ctx *ctx, struct wg_buf *out,
		       const struct wg_resource *res, const struct wg_node *n)
{
	struct json_style j = { ctx, res, out, 0, false };

	return json_node(&j, n, 0) ? -1 : 0;
}

int wg_json_write_tree(struct wg_buf *out, const struct wg_node *root,
		       unsigned indent)
{
	struct json_style j = { NULL, NULL, out, indent, false };
	int rc = json_node(&j, root, 0);

	wg_buf_addch(out, '\n');
	return rc ? -1 : 0;
}

/* ---- a piece at a time ---------------------------------------------------- */

void wg_json_begin(struct wg_json_out *j, struct wg_buf *out, unsigned indent)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->indent = indent;
}

/* Before a member's key or an item: the comma and the line break. */
static void item(struct wg_json_out *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->depth)
		return;
	if (j->items[j->depth - 1]++)
		wg_buf_addch(j->out, ',');
	if (j->indent)
		newline(j->out, j->indent, j->depth);
}

void wg_json_open(struct wg_json_out *j, char bracket)
{
	item(j);
	if (j->depth == WG_JSON_MAX_DEPTH) {
		j->failed = true;
		return;
	}
	wg_buf_addch(j->out, bracket);
	j->open[j->depth] = bracket;
	j->items[j->depth++] = 0;
}

void wg_json_close(struct wg_json_out *j)
{
	if (!j->depth) {
		j->failed = true;
		return;
	}
	j->depth--;
	if (j->indent && j->items[j->depth])
		newline(j->out, j->indent, j->depth);
	wg_buf_addch(j->out, j->open[j->depth] == '{' ? '}' : ']');
}

void wg_json_key(struct wg_json_out *j, const char *key)
{
	item(j);
	wg_json_quote(j->out, key, strlen(key));
	wg_buf_addstr(j->out, j->indent ? ": " : ":");
	j->after_key = true;
}

void wg_json_value(struct wg_json_out *j, const struct wg_node *n)
{
	struct json_style style = { NULL, NULL, j->out, j->indent, false };

	item(j);
	if (json_node(&style, n, j->depth))
		j->failed = true;
}

int wg_json_end(struct wg_json_out *j)
{
	if (j->depth)
		j->failed = true;
	wg_buf_addch(j->out, '\n');
	return j->failed ? -1 : 0;
}
