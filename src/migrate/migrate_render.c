/*
 * Rendering new values for migrate's text edits: the same quoting rules as
 * the writer (wg_scalar_needs_quotes), in the layout of the file edited.
 */
#include "wingen/migrate/migrate.h"

#include <string.h>

#include "wingen/yaml/scalar.h"

static const char core_tag[] = "tag:yaml.org,2002:";

static void render_tag(struct wg_buf *out, const struct wg_node *n)
{
	const char *tag = wg_node_tag(n);

	if (!tag)
		return;
	if (strncmp(tag, core_tag, sizeof(core_tag) - 1) == 0)
		wg_buf_addf(out, "!!%s ", tag + sizeof(core_tag) - 1);
	else if (tag[0] == '!')
		wg_buf_addf(out, "%s ", tag);
	else
		wg_buf_addf(out, "!<%s> ", tag);
}

static bool has_any(const char *s, size_t len, const char *set)
{
	for (size_t i = 0; i < len; i++)
		if (strchr(set, s[i]) && s[i])
			return true;
	return false;
}

/* Text that a single-quoted scalar can hold on one line. */
static bool single_ok(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

/* A plain scalar of this text reads back as this node. */
static bool plain_ok(const struct wg_node *n, bool in_flow)
{
	const char *s = n->u.str;
	size_t len = n->len;

	if (!len || has_any(s, len, "\n\r"))
		return false;
	if (in_flow && has_any(s, len, ",[]{}"))
		return false;
	if (!wg_scalar_needs_quotes(s, len))
		return true;
	/* A typed value (true, 3, null) stays plain when it is one. */
	return n->style == WG_STYLE_PLAIN
	       && wg_resolve_yaml11(s, len) != WG_TYPE_STR
	       && !has_any(s, len, "#:,[]{}\"'") && s[0] != ' '
	       && s[len - 1] != ' ';
}

static void single_quote(struct wg_buf *out, const char *s, size_t len)
{
	wg_buf_addch(out, '\'');
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			wg_buf_addch(out, '\'');
		wg_buf_addch(out, s[i]);
	}
	wg_buf_addch(out, '\'');
}

void wg_render_scalar(struct wg_buf *out, const struct wg_node *n,
		      bool in_flow)
{
	render_tag(out, n);
	if (!n->len && n->style == WG_STYLE_PLAIN) {
		/* null: empty in block context, "~" where empty is '' */
		if (in_flow)
			wg_buf_addch(out, '~');
		return;
	}
	if (n->style == WG_STYLE_PLAIN && plain_ok(n, in_flow))
		wg_buf_add(out, n->u.str, n->len);
	else if (n->style == WG_STYLE_SINGLE && single_ok(n->u.str, n->len))
		single_quote(out, n->u.str, n->len);
	else
		wg_json_quote(out, n->u.str, n->len);
}

void wg_render_scalar_as(struct wg_buf *out, const struct wg_node *n,
			 enum wg_scalar_style old_style)
{
	bool typed = n->style == WG_STYLE_PLAIN
		     && wg_resolve_yaml11(n->u.str, n->len) != WG_TYPE_STR;

	if (typed || wg_node_tag(n) || !n->len) {
		wg_render_scalar(out, n, false);
		return;
	}
	/* A string: written the way the old value was, when it can be. */
	if (old_style == WG_STYLE_SINGLE && single_ok(n->u.str, n->len))
		single_quote(out, n->u.str, n->len);
	else if (old_style == WG_STYLE_DOUBLE)
		wg_json_quote(out, n->u.str, n->len);
	else if (old_style == WG_STYLE_PLAIN
		 && !wg_scalar_needs_quotes(n->u.str, n->len))
		wg_buf_add(out, n->u.str, n->len);
	else
		wg_render_scalar(out, n, false);
}

void wg_render_flow(struct wg_buf *out, const struct wg_node *n, bool pad)
{
	bool map = n->kind == WG_NODE_MAP;

	if (n->kind == WG_NODE_SCALAR) {
		wg_render_scalar(out, n, true);
		return;
	}
	render_tag(out, n);
	wg_buf_addch(out, map ? '{' : '[');
	if (pad && n->len)
		wg_buf_addch(out, ' ');
	for (size_t i = 0; i < n->len; i++) {
		if (i)
			wg_buf_addstr(out, ", ");
		if (map) {
			wg_render_scalar(out, wg_map_key(n, i), true);
			wg_buf_addstr(out, ": ");
			wg_render_flow(out, wg_map_value(n, i), pad);
		} else {
			wg_render_flow(out, wg_seq_item(n, i), pad);
		}
	}
	if (pad && n->len)
		wg_buf_addch(out, ' ');
	wg_buf_addch(out, map ? '}' : ']');
}

bool wg_render_is_inline(const struct wg_node *n)
{
	return n->kind == WG_NODE_SCALAR || n->len == 0
	       || (n->flags & WG_NODE_FLOW);
}

static void spaces(struct wg_buf *out, unsigned n)
{
	while (n--)
		wg_buf_addch(out, ' ');
}

void wg_render_value(struct wg_buf *out, const struct wg_render_style *st,
		     const struct wg_node *v, unsigned key_col)
{
	if (wg_render_is_inline(v)) {
		size_t mark = out->len;

		wg_buf_addch(out, ' ');
		if (v->kind == WG_NODE_SCALAR)
			wg_render_scalar(out, v, false);
		else
			wg_render_flow(out, v, st->flow_pad);
		if (out->len == mark + 1) {	/* null: "key:" alone */
			out->len = mark;
			out->buf[mark] = '\0';
		}
		wg_buf_addstr(out, st->eol);
		return;
	}
	if (wg_node_tag(v)) {
		wg_buf_addch(out, ' ');
		render_tag(out, v);
		out->len--;	/* the tag's trailing space */
		out->buf[out->len] = '\0';
	}
	wg_buf_addstr(out, st->eol);
	if (v->kind == WG_NODE_MAP) {
		for (size_t i = 0; i < v->len; i++) {
			spaces(out, key_col + st->indent);
			wg_render_pair(out, st, wg_map_key(v, i),
				       wg_map_value(v, i),
				       key_col + st->indent);
		}
		return;
	}
	for (size_t i = 0; i < v->len; i++) {
		unsigned dash = key_col + (st->compact_seqs ? 0 : st->indent);

		spaces(out, dash);
		wg_buf_addch(out, '-');
		wg_render_item(out, st, wg_seq_item(v, i), dash);
	}
}

void wg_render_pair(struct wg_buf *out, const struct wg_render_style *st,
		    const struct wg_node *key, const struct wg_node *value,
		    unsigned col)
{
	wg_render_scalar(out, key, true);
	wg_buf_addch(out, ':');
	wg_render_value(out, st, value, col);
}

void wg_render_item(struct wg_buf *out, const struct wg_render_style *st,
		    const struct wg_node *v, unsigned dash_col)
{
	unsigned col = dash_col + (st->item_indent ? st->item_indent : 2);

	if (wg_render_is_inline(v) || wg_node_tag(v)) {
		/* " scalar" / " {}", exactly as after a key; a sequence below
		 * a dash must be indented past it */
		struct wg_render_style inner = *st;

		inner.compact_seqs = false;
		wg_render_value(out, &inner, v, dash_col);
		return;
	}
	spaces(out, col - dash_col - 1);
	for (size_t i = 0; i < v->len; i++) {
		if (i)
			spaces(out, col);
		if (v->kind == WG_NODE_MAP) {
			wg_render_pair(out, st, wg_map_key(v, i),
				       wg_map_value(v, i), col);
		} else {
			wg_buf_addch(out, '-');
			wg_render_item(out, st, wg_seq_item(v, i), col);
		}
	}
}
