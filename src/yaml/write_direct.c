/*
 * The direct writer (yaml_internal.h): libyaml 0.2.5's emitter, for the
 * block subset Kubernetes documents use, driven by the tree instead of
 * events.  Its state is the emitter's (indent, column, whitespace,
 * indention, open_ended) and each function below does what the emitter
 * function it names does with wingen's settings (src/emitter.c of libyaml:
 * yaml_emitter_write_indent, _write_indicator, _analyze_scalar,
 * _select_scalar_style, _write_plain_scalar and the others), so both write
 * the same bytes.  check_writer compares the two on crafted documents and
 * on the corpus.
 */
#include "yaml/yaml_internal.h"

#include <string.h>

/* What the emitter holds while it writes a document. */
struct direct {
	struct wg_buf *out;
	long indent;		/* -1 before the root collection */
	long column;
	bool whitespace;	/* the last thing written was white */
	bool indention;		/* the line holds only indentation so far */
	int flow_level;		/* flow collections open */
	int open_ended;
};

/* ---- output ------------------------------------------------------------- */

static void put(struct direct *d, const char *s, size_t n)
{
	wg_buf_grow(d->out, n);
	memcpy(d->out->buf + d->out->len, s, n);
	d->out->len += n;
	d->column += (long)n;
}

static void put_break(struct direct *d)
{
	wg_buf_grow(d->out, 1);
	d->out->buf[d->out->len++] = '\n';
	d->column = 0;
}

/* yaml_emitter_write_indent */
static void write_indent(struct direct *d)
{
	long indent = d->indent >= 0 ? d->indent : 0;

	if (!d->indention || d->column > indent
	    || (d->column == indent && !d->whitespace))
		put_break(d);
	if (d->column < indent) {
		size_t pad = (size_t)(indent - d->column);

		wg_buf_grow(d->out, pad);
		memset(d->out->buf + d->out->len, ' ', pad);
		d->out->len += pad;
		d->column = indent;
	}
	d->whitespace = true;
	d->indention = true;
}

/* yaml_emitter_write_indicator */
static void write_indicator(struct direct *d, const char *indicator,
			    bool need_whitespace, bool is_whitespace,
			    bool is_indention)
{
	if (need_whitespace && !d->whitespace)
		put(d, " ", 1);
	put(d, indicator, strlen(indicator));
	d->whitespace = is_whitespace;
	d->indention = d->indention && is_indention;
}

/* ---- scalars ------------------------------------------------------------ */

/* What yaml_emitter_analyze_scalar decides about a text. */
struct scan {
	bool multiline;
	bool flow_plain;	/* plain allowed inside flow collections */
	bool block_plain;	/* plain allowed outside them */
	bool single;		/* single-quoted allowed */
	bool block;		/* literal or folded allowed */
};

/* The characters with a role in a plain scalar past its first one, as
 * bits of two words (0x00-0x3f, 0x40-0x7f): , ? : # and space below,
 * [ ] { } above. */
#define BIT(c) (1ull << ((c) & 63))
static const unsigned long long role_low = BIT(',') | BIT('?') | BIT(':')
					   | BIT('#') | BIT(' ');
static const unsigned long long role_high = BIT('[') | BIT(']') | BIT('{')
					    | BIT('}');

/* The indicators that make a first character take plain away, and the
 * flow indicators anywhere after it. */
static const unsigned long long first_low = BIT('#') | BIT(',') | BIT('&')
	| BIT('*') | BIT('!') | BIT('>') | BIT('\'') | BIT('"') | BIT('%');
static const unsigned long long first_high = BIT('[') | BIT(']')
	| BIT('{') | BIT('}') | BIT('|') | BIT('@') | BIT('`');
static const unsigned long long flow_low = BIT(',') | BIT('?');
static const unsigned long long flow_high = BIT('[') | BIT(']') | BIT('{')
					    | BIT('}');

/* Whether ASCII c is in the set of two words low, high. */
static bool in_set(unsigned char c, unsigned long long low,
		   unsigned long long high)
{
	return ((c < 64 ? low : high) >> (c & 63)) & 1;
}

/* Printable ASCII without a role after the first character. */
static bool quiet(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e && !in_set(c, role_low, role_high);
}

/* A letter or digit: no role first either. */
static bool word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	       || (c >= '0' && c <= '9');
}

/*
 * The analysis of yaml_emitter_analyze_scalar for a text of printable
 * ASCII and line breaks; false for any other byte (a tab, a control
 * character, a non-ASCII character), which the direct writer leaves to
 * libyaml.
 */
static bool analyse(const char *s, size_t len, struct scan *a)
{
	bool flow_ind = false, block_ind = false, breaks = false;
	bool lead_space = false, lead_break = false, trail_space = false;
	bool trail_break = false, break_space = false, space_break = false;
	bool prev_white = true, prev_space = false, prev_break = false;
	size_t i = 1;

	if (!len) {
		*a = (struct scan){ false, false, true, true, false };
		return true;
	}
	/* the common case: a word first, nothing with a role after it */
	if (word((unsigned char)s[0])) {
		while (i < len && quiet((unsigned char)s[i]))
			i++;
		if (i == len) {
			*a = (struct scan){ false, true, true, true, true };
			return true;
		}
	}
	if (len >= 3 && ((s[0] == '-' && s[1] == '-' && s[2] == '-')
			 || (s[0] == '.' && s[1] == '.' && s[2] == '.')))
		flow_ind = block_ind = true;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool next_white = i + 1 == len || s[i + 1] == ' '
				  || s[i + 1] == '\n';

		if ((c < 0x20 && c != '\n') || c > 0x7e)
			return false;
		if (i == 0) {
			if (in_set(c, first_low, first_high))
				flow_ind = block_ind = true;
			if (c == '?' || c == ':') {
				flow_ind = true;
				block_ind = block_ind || next_white;
			}
			if (c == '-' && next_white)
				flow_ind = block_ind = true;
		} else {
			if (in_set(c, flow_low, flow_high))
				flow_ind = true;
			if (c == ':') {
				flow_ind = true;
				block_ind = block_ind || next_white;
			}
			if (c == '#' && prev_white)
				flow_ind = block_ind = true;
		}
		if (c == ' ') {
			lead_space = lead_space || i == 0;
			trail_space = trail_space || i + 1 == len;
			break_space = break_space || prev_break;
			prev_space = true;
			prev_break = false;
		} else if (c == '\n') {
			breaks = true;
			lead_break = lead_break || i == 0;
			trail_break = trail_break || i + 1 == len;
			space_break = space_break || prev_space;
			prev_space = false;
			prev_break = true;
		} else {
			prev_space = prev_break = false;
		}
		prev_white = c == ' ' || c == '\n';
	}
	a->multiline = breaks;
	a->flow_plain = !(lead_space || lead_break || trail_space
			  || trail_break || break_space || space_break
			  || breaks);
	a->block_plain = a->flow_plain && !block_ind;
	a->flow_plain = a->flow_plain && !flow_ind;
	a->single = !(break_space || space_break);
	a->block = !(trail_space || space_break);
	return true;
}

/* yaml_emitter_select_scalar_style for an untagged scalar (both implicit
 * flags set). */
static enum wg_scalar_style select_style(enum wg_scalar_style style,
					 const struct scan *a, size_t len,
					 bool flow, bool simple_key)
{
	if (simple_key && a->multiline)
		style = WG_STYLE_DOUBLE;
	if (style == WG_STYLE_PLAIN
	    && (!(flow ? a->flow_plain : a->block_plain)
		|| (!len && (flow || simple_key))))
		style = WG_STYLE_SINGLE;
	if (style == WG_STYLE_SINGLE && !a->single)
		style = WG_STYLE_DOUBLE;
	if ((style == WG_STYLE_LITERAL || style == WG_STYLE_FOLDED)
	    && (!a->block || flow || simple_key))
		style = WG_STYLE_DOUBLE;
	return style;
}

/* yaml_emitter_write_plain_scalar for a text without breaks (plain is
 * never chosen for one). */
static void write_plain(struct direct *d, const char *s, size_t len)
{
	if (!d->whitespace && len)
		put(d, " ", 1);
	put(d, s, len);
	d->whitespace = false;
	d->indention = false;
}

/* The quoted writers for one line of printable ASCII: quote doubled
 * (single) or '"' and '\' escaped (double); the width is unlimited, so
 * they never fold. */
static void write_quoted(struct direct *d, const char *s, size_t len,
			 char quote)
{
	char q[2] = { quote, '\0' };
	size_t run = 0;

	write_indicator(d, q, true, false, false);
	for (size_t i = 0; i < len; i++) {
		bool escape = quote == '\'' ? s[i] == '\''
					    : s[i] == '"' || s[i] == '\\';

		if (!escape)
			continue;
		put(d, s + run, i - run);
		put(d, quote == '\'' ? "'" : "\\", 1);
		run = i;
	}
	put(d, s + run, len - run);
	write_indicator(d, q, false, false, false);
	d->whitespace = false;
	d->indention = false;
}

/* yaml_emitter_write_block_scalar_hints and _write_literal_scalar, for a
 * non-empty text (an empty one is never a block). */
static void write_literal(struct direct *d, const char *s, size_t len)
{
	const char *chomp = NULL;
	bool breaks = true;

	write_indicator(d, "|", true, false, false);
	if (s[0] == ' ' || s[0] == '\n')
		write_indicator(d, "2", false, false, false);
	d->open_ended = 0;
	if (s[len - 1] != '\n') {
		chomp = "-";
	} else if (len == 1 || s[len - 2] == '\n') {
		chomp = "+";
		d->open_ended = 2;
	}
	if (chomp)
		write_indicator(d, chomp, false, false, false);
	put_break(d);
	d->indention = true;
	d->whitespace = true;
	for (size_t i = 0; i < len;) {
		const char *nl;
		size_t n;

		if (s[i] == '\n') {
			put_break(d);
			d->indention = true;
			breaks = true;
			i++;
			continue;
		}
		if (breaks)
			write_indent(d);
		nl = memchr(s + i, '\n', len - i);
		n = nl ? (size_t)(nl - (s + i)) : len - i;
		put(d, s + i, n);
		d->indention = false;
		breaks = false;
		i += n;
	}
}

/*
 * yaml_emitter_emit_scalar: the style, the indent one step in, the text.
 * False for what the direct writer leaves to libyaml.
 */
static bool scalar(struct direct *d, const struct wg_node *n, bool simple_key)
{
	const char *s = n->u.str;
	size_t len = n->len;
	enum wg_scalar_style style;
	long indent = d->indent;
	struct scan a;

	if (wg_node_tag(n))
		return false;
	/* as writer.c's emit_scalar: an empty plain key or flow item
	 * stays null */
	if (!len && n->style == WG_STYLE_PLAIN
	    && (simple_key || d->flow_level)) {
		s = "~";
		len = 1;
	}
	if (!analyse(s, len, &a))
		return false;
	/* yaml_emitter_check_simple_key: else "? key" */
	if (simple_key && (a.multiline || len > 128))
		return false;
	style = select_style((enum wg_scalar_style)n->style, &a, len,
			     d->flow_level > 0, simple_key);
	if (style == WG_STYLE_FOLDED
	    || (a.multiline && style != WG_STYLE_LITERAL))
		return false;
	d->indent = indent < 0 ? 2 : indent + 2;
	if (style == WG_STYLE_PLAIN)
		write_plain(d, s, len);
	else if (style == WG_STYLE_LITERAL)
		write_literal(d, s, len);
	else
		write_quoted(d, s, len,
			     style == WG_STYLE_SINGLE ? '\'' : '"');
	d->indent = indent;
	return true;
}

/* ---- collections -------------------------------------------------------- */

static bool node(struct direct *d, const struct wg_node *n, bool mapping);

/*
 * yaml_emitter_emit_flow_sequence_item and _flow_mapping_key / _value: a
 * collection inside a flow one, written in flow style or empty (the
 * emitter writes those "[]" and "{}").  The width is unlimited, so no
 * item starts a new line.
 */
static bool flow(struct direct *d, const struct wg_node *n)
{
	bool map = n->kind == WG_NODE_MAP;
	long indent = d->indent;

	write_indicator(d, map ? "{" : "[", true, true, false);
	d->indent = indent < 0 ? 2 : indent + 2;
	d->flow_level++;
	for (size_t i = 0; i < n->len; i++) {
		if (i)
			write_indicator(d, ",", false, false, false);
		if (!map) {
			if (!node(d, n->u.items[i], false))
				return false;
			continue;
		}
		if (n->u.items[2 * i]->kind != WG_NODE_SCALAR
		    || !scalar(d, n->u.items[2 * i], true))
			return false;
		write_indicator(d, ":", false, false, false);
		if (!node(d, n->u.items[2 * i + 1], true))
			return false;
	}
	d->flow_level--;
	d->indent = indent;
	write_indicator(d, map ? "}" : "]", false, false, false);
	return true;
}

/* yaml_emitter_emit_block_sequence_item; mapping: the sequence is a
 * mapping's value ("- " then stays at the key's indent). */
static bool sequence(struct direct *d, const struct wg_node *n, bool mapping)
{
	long indent = d->indent;

	if (indent < 0)
		d->indent = 0;
	else if (!(mapping && !d->indention))
		d->indent = indent + 2;
	for (size_t i = 0; i < n->len; i++) {
		write_indent(d);
		write_indicator(d, "-", true, false, true);
		if (!node(d, n->u.items[i], false))
			return false;
	}
	d->indent = indent;
	return true;
}

/* yaml_emitter_emit_block_mapping_key and _value, simple keys only. */
static bool mapping(struct direct *d, const struct wg_node *n)
{
	long indent = d->indent;

	d->indent = indent < 0 ? 0 : indent + 2;
	for (size_t i = 0; i < n->len; i++) {
		const struct wg_node *key = n->u.items[2 * i];

		write_indent(d);
		if (key->kind != WG_NODE_SCALAR || !scalar(d, key, true))
			return false;
		write_indicator(d, ":", false, false, false);
		if (!node(d, n->u.items[2 * i + 1], true))
			return false;
	}
	d->indent = indent;
	return true;
}

static bool node(struct direct *d, const struct wg_node *n, bool mapping_value)
{
	if (n->kind == WG_NODE_SCALAR)
		return scalar(d, n, false);
	if (wg_node_tag(n))
		return false;
	if (d->flow_level || (n->flags & WG_NODE_FLOW) || !n->len)
		return flow(d, n);
	return n->kind == WG_NODE_SEQ ? sequence(d, n, mapping_value)
				      : mapping(d, n);
}

/* ---- documents ---------------------------------------------------------- */

bool wg_write_direct_doc(struct wg_buf *out, const struct wg_node *root,
			 bool first, int *open_ended)
{
	/* the emitter's state after the stream's start or a document's end */
	struct direct d = { out, -1, 0, true, true, 0, 0 };
	size_t mark = out->len;

	if (root->kind == WG_NODE_SCALAR || wg_node_tag(root))
		return false;
	if (!first) {
		write_indent(&d);
		write_indicator(&d, "---", true, false, false);
	}
	if (!node(&d, root, false)) {
		out->len = mark;
		if (out->cap)
			out->buf[mark] = '\0';
		return false;
	}
	/* yaml_emitter_emit_document_end, implicit */
	write_indent(&d);
	if (!d.open_ended)
		d.open_ended = 1;
	*open_ended = d.open_ended;
	wg_buf_grow(out, 0);
	out->buf[out->len] = '\0';
	return true;
}
