#include "wingen/yaml/reader.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/event_pipe.h"
#include "wingen/yaml/scalar.h"
#include "yaml_internal.h"

/* A collection being built: its children are stack[base..]. */
struct wg_frame {
	struct wg_node *node;
	size_t base;
	size_t start;	/* byte index of its first event */
	long anchor;	/* index into anchors, -1 when none */
};

struct wg_anchor {
	char *name;
	struct wg_node *node;
	bool open;	/* still being built: an alias to it is recursive */
};

/*
 * End (exclusive) of the JSON value starting at data[i] ('{' or '['), by
 * bracket depth outside double-quoted strings; 0 when it does not close.
 */
static size_t json_value_end(const char *data, size_t len, size_t i)
{
	size_t depth = 0;
	bool in_str = false;

	for (; i < len; i++) {
		char c = data[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth == 0)
				return i + 1;
		}
	}
	return 0;
}

static size_t skip_space(const char *data, size_t len, size_t i)
{
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n'
			   || data[i] == '\r'))
		i++;
	return i;
}

/*
 * A JSON stream (kubectl's and "-o json" output: objects one after the
 * other with no "---") is not one YAML document.  When the input starts
 * with such a value and another follows, each value is parsed as a
 * stream of its own.  Returns the end of the first segment.
 */
static size_t segment_end(struct wg_reader *r, size_t start)
{
	const char *d = r->in->data;
	size_t len = r->end, i = skip_space(d, len, start), end;

	if (i >= len || (d[i] != '{' && d[i] != '['))
		return len;
	end = json_value_end(d, len, i);
	if (!end)
		return len;
	i = skip_space(d, len, end);
	if (i < len && (d[i] == '{' || d[i] == '[')) {
		r->json_stream = true;
		return end;
	}
	return r->json_stream ? end : len;
}

/* line and col: 0-based position of start. */
static void start_segment_at(struct wg_reader *r, size_t start, size_t line,
			     size_t col)
{
	r->seg_start = start;
	r->seg_end = segment_end(r, start);
	r->seg_line = line;
	r->seg_col = col;
	yaml_parser_delete(&r->parser);
	yaml_parser_initialize(&r->parser);
	/* UTF-8 only: forcing it makes UTF-16 input an error, not a surprise. */
	yaml_parser_set_encoding(&r->parser, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&r->parser,
				     (const unsigned char *)r->in->data + start,
				     r->seg_end - start);
}

/*
 * The start of the first document of d[start, end) longer than max
 * bytes, or end.  libyaml holds a scalar whole before the reader sees it
 * (a 1 GiB scalar took 3.1 GB before "larger than the size limit"), so
 * the documents are measured here, before it reads them: split at each
 * line that starts with "---" or "..." and a blank or the end, where
 * libyaml ends a document (or fails), so a span is never longer than the
 * document libyaml would read.  Only input longer than max is looked at.
 */
static size_t first_big_doc(const char *d, size_t start, size_t end,
			    size_t max)
{
	size_t doc = start;

	if (end - start <= max)
		return end;
	for (size_t i = start; i < end;) {
		const char *nl;

		if (end - i >= 3 && (memcmp(d + i, "---", 3) == 0
				     || memcmp(d + i, "...", 3) == 0)
		    && (end - i == 3 || strchr(" \t\r\n", d[i + 3]))) {
			if (i - doc > max)
				return doc;
			doc = i;
		}
		nl = memchr(d + i, '\n', end - i);
		i = nl ? (size_t)(nl - d) + 1 : end;
	}
	return end - doc > max ? doc : end;
}

static void start_segment(struct wg_reader *r, size_t start)
{
	unsigned line, col;

	wg_offset_position(r->in->data, r->in->len, start, &line, &col);
	start_segment_at(r, start, line - 1, col - 1);
}

void wg_reader_init(struct wg_reader *r, struct wg_ctx *ctx,
		    const struct wg_input *in)
{
	wg_reader_init_range(r, ctx, in, 0, in->len, 0);
}

void wg_reader_init_range(struct wg_reader *r, struct wg_ctx *ctx,
			  const struct wg_input *in, size_t start, size_t end,
			  size_t line)
{
	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->in = in;
	r->end = end;
	yaml_parser_initialize(&r->parser);
	if (start > 0) {
		start_segment_at(r, start, line, 0);
		return;
	}
	/* A BOM is dropped here: with the encoding forced, libyaml would
	 * count it as a column and misread the indentation that follows. */
	if (end >= 3 && memcmp(in->data, "\xef\xbb\xbf", 3) == 0)
		start = 3;
	start_segment(r, start);
}

/* The 0-based input position of a libyaml mark of the current segment. */
static void mark_pos(const struct wg_reader *r, const yaml_mark_t *m,
		     uint32_t *line, uint32_t *col)
{
	*line = (uint32_t)(r->seg_line + m->line);
	*col = (uint32_t)(m->line ? m->column : r->seg_col + m->column);
}

static void clear_anchors(struct wg_reader *r)
{
	for (size_t i = 0; i < r->nanchors; i++)
		free(r->anchors[i].name);
	r->nanchors = 0;
}

void wg_reader_release_doc(struct wg_reader *r)
{
	for (size_t i = 0; i < r->nowned; i++) {
		struct wg_node *n = r->owned[i];

		if (n->flags & WG_NODE_OWNED) {
			free((char *)n->u.str);
			n->flags &= (uint16_t)~WG_NODE_OWNED;
			n->u.str = "";
			n->len = 0;
		}
	}
	r->nowned = 0;
}

void wg_reader_release(struct wg_reader *r)
{
	wg_event_pipe_stop(r->pipe);	/* before the parser it uses */
	free(r->pos);
	free(r->owned);	/* strings: wg_reader_release_doc(), while nodes live */
	clear_anchors(r);
	free(r->anchors);
	free(r->stack);
	free(r->frames);
	yaml_parser_delete(&r->parser);
	memset(r, 0, sizeof(*r));
}

__attribute__((format(printf, 4, 0)))
static int verror(struct wg_reader *r, uint32_t line, uint32_t col,
		  const char *fmt, va_list ap)
{
	r->failed = true;
	wg_vreport_at(r->ctx, WG_SEV_ERROR, r->in->name, line + 1, col + 1,
		      fmt, ap);
	return -1;
}

/* An error at a libyaml mark of the current segment. */
__attribute__((format(printf, 3, 4)))
static int error_at(struct wg_reader *r, const yaml_mark_t *m,
		    const char *fmt, ...)
{
	uint32_t line, col;
	va_list ap;

	mark_pos(r, m, &line, &col);
	va_start(ap, fmt);
	verror(r, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error at a node already built. */
__attribute__((format(printf, 3, 4)))
static int error_at_node(struct wg_reader *r, const struct wg_node *n,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(r, wg_node_line(n), wg_node_col(n), fmt, ap);
	va_end(ap);
	return -1;
}

static int parser_error(struct wg_reader *r)
{
	yaml_parser_t *p = &r->parser;
	const char *problem = p->problem ? p->problem : "invalid YAML";
	uint32_t line, col, cline, ccol;
	unsigned l, c;

	r->failed = true;
	if (p->error == YAML_READER_ERROR) {
		const unsigned char *d = (const unsigned char *)r->in->data;

		if (r->in->len >= 2 && ((d[0] == 0xff && d[1] == 0xfe)
					|| (d[0] == 0xfe && d[1] == 0xff)))
			return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name,
					    1, 1, "input is UTF-16; wingen "
					    "reads UTF-8 only");
		wg_offset_position(r->in->data, r->in->len,
				   p->problem_offset + r->seg_start, &l, &c);
		return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, l, c,
				    "%s (input must be UTF-8)", problem);
	}
	mark_pos(r, &p->problem_mark, &line, &col);
	if (strstr(problem, "cannot start")) {
		/* The usual cause: a tab used for indentation.  The mark's
		 * index counts characters; on ASCII input that is the byte. */
		size_t off = p->problem_mark.index + r->seg_start;

		if (off < r->in->len && r->in->data[off] == '\t')
			return error_at(r, &p->problem_mark, "%s",
					"tab character used for indentation "
					"(YAML allows only spaces)");
	}
	if (p->context) {
		mark_pos(r, &p->context_mark, &cline, &ccol);
		return error_at(r, &p->problem_mark, "%s %s (started at line %u)",
				problem, p->context, (unsigned)cline + 1);
	}
	return error_at(r, &p->problem_mark, "%s", problem);
}

/* Pushes a finished node with the position it was read at (a shared key
 * has none of its own: duplicate keys are reported from here). */
static void push(struct wg_reader *r, struct wg_node *n, uint32_t line,
		 uint32_t col)
{
	if (r->stack_len == r->stack_cap) {
		size_t cap = r->stack_cap;

		WG_GROW(r->stack, r->stack_cap, r->stack_len + 1);
		WG_GROW(r->pos, cap, r->stack_cap);
	}
	r->pos[r->stack_len].line = line;
	r->pos[r->stack_len].col = col;
	r->stack[r->stack_len++] = n;
}

/*
 * The scalar's bytes straight from the input when they are the value
 * (no escapes, folding or block indentation), else a copy.  The scanner's
 * index counts characters, so for non-ASCII input the guess may miss; the
 * comparison makes a miss harmless.
 */
static const char *scalar_text(struct wg_reader *r, struct wg_arena *arena,
			       const yaml_event_t *e)
{
	const char *v = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	size_t at = e->start_mark.index + r->seg_start;

	switch (e->data.scalar.style) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		at++;
		/* fall through */
	case YAML_PLAIN_SCALAR_STYLE:
		if (at + len <= r->seg_end
		    && memcmp(r->in->data + at, v, len) == 0)
			return r->in->data + at;
		break;
	default:
		break;
	}
	return wg_arena_strndup(arena, v, len);
}

/*
 * One more node in the document: a tree costs some fifty bytes a node
 * whatever its text, so a document of one-letter items within doc-bytes
 * held twenty times its size (a 60 MB one took 1.4 GB); the doc-nodes
 * limit bounds it.  0, or -1 reported.
 */
static int count_node(struct wg_reader *r, const yaml_event_t *e)
{
	if (++r->doc_nodes <= r->ctx->limits.max_doc_nodes)
		return 0;
	return error_at(r, &e->start_mark, "document has more than %zu "
			"nodes (WINGEN_LIMITS doc-nodes)",
			r->ctx->limits.max_doc_nodes);
}

static int check_depth(struct wg_reader *r, const yaml_event_t *e)
{
	if (r->nframes < r->ctx->limits.max_depth)
		return 0;
	return error_at(r, &e->start_mark, "nesting deeper than %zu levels",
			r->ctx->limits.max_depth);
}

static long find_anchor(struct wg_reader *r, const char *name)
{
	for (size_t i = r->nanchors; i-- > 0;)
		if (strcmp(r->anchors[i].name, name) == 0)
			return (long)i;
	return -1;
}

static inline long add_anchor(struct wg_reader *r, const yaml_char_t *name,
			      struct wg_node *node, bool open)
{
	if (!name)
		return -1;
	WG_GROW(r->anchors, r->anchors_cap, r->nanchors + 1);
	r->anchors[r->nanchors].name = wg_xstrdup((const char *)name);
	r->anchors[r->nanchors].node = node;
	r->anchors[r->nanchors].open = open;
	return (long)r->nanchors++;
}

/*
 * Nodes in a subtree, counting at most limit + 1, and in *depth the levels
 * of collections it nests (0 for a scalar).  Anchored trees were read
 * within max_depth, so the recursion is bounded by it.
 */
static size_t count_nodes(const struct wg_node *n, size_t limit,
			  size_t *depth)
{
	size_t total = 1, k, d, deepest = 0;

	*depth = 0;
	if (n->kind == WG_NODE_SCALAR)
		return 1;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	for (size_t i = 0; i < k && total <= limit; i++) {
		total += count_nodes(n->u.items[i], limit - total, &d);
		if (d > deepest)
			deepest = d;
	}
	*depth = deepest + 1;
	return total;
}

static void own(struct wg_reader *r, struct wg_node *n)
{
	n->flags |= WG_NODE_OWNED;
	WG_GROW(r->owned, r->owned_cap, r->nowned + 1);
	r->owned[r->nowned++] = n;
}

/* In adopt mode every scalar owns its string: a copy made for an alias
 * gets strings of its own, or one free would leave the other dangling. */
static void own_copies(struct wg_reader *r, struct wg_node *n)
{
	if (n->kind == WG_NODE_SCALAR) {
		char *s = wg_xmalloc((size_t)n->len + 1);

		memcpy(s, n->u.str, n->len);
		s[n->len] = '\0';
		n->u.str = s;
		own(r, n);
		return;
	}
	for (size_t i = 0; i < (n->kind == WG_NODE_MAP ? 2u : 1u) * n->len; i++)
		own_copies(r, n->u.items[i]);
}

static int on_alias(struct wg_reader *r, struct wg_arena *arena,
		    const yaml_event_t *e)
{
	const char *name = (const char *)e->data.alias.anchor;
	long i = find_anchor(r, name);
	size_t budget = r->ctx->limits.max_alias_nodes;
	size_t n, depth;

	if (i < 0)
		return error_at(r, &e->start_mark, "unknown alias '*%s'", name);
	if (r->anchors[i].open)
		return error_at(r, &e->start_mark,
				"alias '*%s' refers to a node that contains it",
				name);
	n = count_nodes(r->anchors[i].node, budget - r->alias_nodes, &depth);
	if (r->alias_nodes + n > budget)
		return error_at(r, &e->start_mark,
				"alias '*%s' expands the document past %zu "
				"nodes (the alias budget)", name, budget);
	/* A copy nests as deep as its anchor, wherever it lands. */
	if (r->nframes + depth > r->ctx->limits.max_depth)
		return error_at(r, &e->start_mark, "alias '*%s' nests deeper "
				"than %zu levels", name,
				r->ctx->limits.max_depth);
	r->alias_nodes += n;
	push(r, wg_node_clone(arena, r->anchors[i].node), 0, 0);
	mark_pos(r, &e->start_mark, &r->pos[r->stack_len - 1].line,
		 &r->pos[r->stack_len - 1].col);
	if (r->adopt)
		own_copies(r, r->stack[r->stack_len - 1]);
	return 0;
}

/*
 * libyaml's emitter writes a tag under the "!" or "!!" handle whenever its
 * prefix fits, flow indicators and all, but its scanner rejects ",[]{}" in
 * such a shorthand: "!<tag:yaml.org,2002:a,b>" would be written "!!a,b",
 * which no reader takes.  Such a tag is refused on input (found by
 * fuzz_roundtrip).  0, or -1 reported.
 */
static inline int check_tag(struct wg_reader *r, const yaml_event_t *e,
			    const yaml_char_t *tag)
{
	static const char core[] = "tag:yaml.org,2002:";
	const char *t = (const char *)tag, *suffix = NULL;

	if (!t)
		return 0;
	if (strncmp(t, core, sizeof(core) - 1) == 0)
		suffix = t + sizeof(core) - 1;
	else if (t[0] == '!')
		suffix = t + 1;
	if (!suffix || !suffix[strcspn(suffix, ",[]{}")])
		return 0;
	return error_at(r, &e->start_mark, "tag '%s' holds ',', '[', ']', "
			"'{' or '}', which YAML cannot write back in its "
			"short form", t);
}

static int on_scalar(struct wg_reader *r, struct wg_arena *arena,
		     yaml_event_t *e)
{
	const struct wg_frame *f = r->nframes ? &r->frames[r->nframes - 1]
					      : NULL;
	unsigned style = e->data.scalar.style > 0
			 ? (unsigned)e->data.scalar.style - 1 : 0;
	bool shared = false;
	struct wg_node *n;
	uint32_t line, col;

	if (e->data.scalar.length > r->ctx->limits.max_scalar_bytes
	    || e->data.scalar.length > WG_NODE_MAX_LEN)
		return error_at(r, &e->start_mark, "%s",
				"scalar is larger than the size limit");
	if (count_node(r, e))
		return -1;
	if (check_tag(r, e, e->data.scalar.tag))
		return -1;
	mark_pos(r, &e->start_mark, &line, &col);
	/* A plain mapping key: one shared node per distinct key, when the
	 * list wants it (resource.h, share_keys). */
	if (r->shared_keys && !r->adopt && f && f->node->kind == WG_NODE_MAP
	    && (r->stack_len - f->base) % 2 == 0 && !e->data.scalar.tag
	    && !e->data.scalar.anchor
	    && (!r->share_in_seq_depth
		|| (r->nframes > r->share_in_seq_depth
		    && r->frames[r->share_in_seq_depth - 1].node->kind
		       == WG_NODE_SEQ))) {
		n = wg_resources_shared_key(r->shared_keys,
					    (const char *)e->data.scalar.value,
					    e->data.scalar.length, style);
		if (n) {
			push(r, n, line, col);
			return 0;
		}
		shared = true;
	}
	n = wg_node_new_at(arena, WG_NODE_SCALAR,
			   (const char *)e->data.scalar.tag, line, col);
	n->style = style;
	n->len = (uint32_t)e->data.scalar.length;
	if (r->adopt) {
		n->u.str = (const char *)e->data.scalar.value;
		e->data.scalar.value = NULL;	/* ours now */
		own(r, n);
	} else {
		n->u.str = scalar_text(r, arena, e);
	}
	if (shared)
		wg_resources_add_shared_key(r->shared_keys, n);
	add_anchor(r, e->data.scalar.anchor, n, false);
	push(r, n, line, col);
	return 0;
}

static int on_start(struct wg_reader *r, struct wg_arena *arena,
		    const yaml_event_t *e, int kind)
{
	const yaml_char_t *tag, *anchor;
	struct wg_frame *f;
	struct wg_node *n;
	uint32_t line, col;
	bool flow;

	if (check_depth(r, e) || count_node(r, e))
		return -1;
	if (kind == WG_NODE_MAP) {
		tag = e->data.mapping_start.tag;
		anchor = e->data.mapping_start.anchor;
		flow = e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
	} else {
		tag = e->data.sequence_start.tag;
		anchor = e->data.sequence_start.anchor;
		flow = e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
	}
	if (check_tag(r, e, tag))
		return -1;
	mark_pos(r, &e->start_mark, &line, &col);
	n = wg_node_new_at(arena, kind, (const char *)tag, line, col);
	if (flow)
		n->flags |= WG_NODE_FLOW;
	WG_GROW(r->frames, r->frames_cap, r->nframes + 1);
	f = &r->frames[r->nframes++];
	f->node = n;
	f->base = r->stack_len;
	f->start = e->start_mark.index;
	f->anchor = add_anchor(r, anchor, n, true);
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct wg_node *x = *(struct wg_node *const *)a;
	const struct wg_node *y = *(struct wg_node *const *)b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->u.str, y->u.str, x->len);
}

static inline bool is_merge_key(const struct wg_node *k)
{
	const char *tag = wg_node_tag(k);

	if (tag)
		return strcmp(tag, "tag:yaml.org,2002:merge") == 0;
	return k->style == WG_STYLE_PLAIN && k->len == 2
	       && memcmp(k->u.str, "<<", 2) == 0;
}

struct key_at {
	const struct wg_node *key;
	size_t index;
};

static int key_at_cmp(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	int c = key_cmp(&x->key, &y->key);

	return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

long wg_map_first_duplicate(struct wg_node **kids, size_t pairs,
			    bool *has_merge)
{
	struct key_at *keys;
	long dup = -1;
	size_t n = 0;

	*has_merge = false;
	if (pairs <= 16) {
		for (size_t i = 0; i < pairs && dup < 0; i++) {
			const struct wg_node *a = kids[2 * i];

			if (is_merge_key(a)) {
				*has_merge = true;
				continue;
			}
			for (size_t j = 0; j < i && dup < 0; j++) {
				const struct wg_node *b = kids[2 * j];

				if (a->len == b->len && !is_merge_key(b)
				    && memcmp(a->u.str, b->u.str, a->len) == 0)
					dup = (long)i;
			}
		}
		for (size_t i = 0; i < pairs && !*has_merge; i++)
			*has_merge = is_merge_key(kids[2 * i]);
		return dup;
	}
	keys = wg_xmalloc(pairs * sizeof(*keys));
	for (size_t i = 0; i < pairs; i++) {
		if (is_merge_key(kids[2 * i])) {
			*has_merge = true;
			continue;
		}
		keys[n].key = kids[2 * i];
		keys[n++].index = i;
	}
	wg_sort(keys, n, sizeof(*keys), key_at_cmp);
	for (size_t i = 1; i < n; i++)
		if (key_cmp(&keys[i - 1].key, &keys[i].key) == 0
		    && (dup < 0 || keys[i].index < (size_t)dup))
			dup = (long)keys[i].index;
	free(keys);
	return dup;
}

/* The sources of a "<<" value: one mapping or a sequence of mappings. */
static int merge_sources(struct wg_reader *r, const struct wg_node *v)
{
	if (wg_is_map(v))
		return 0;
	if (wg_is_seq(v)) {
		for (size_t i = 0; i < v->len; i++)
			if (!wg_is_map(wg_seq_item(v, i)))
				return error_at_node(r, v, "%s", "merge key "
						     "'<<' takes a mapping or "
						     "a list of mappings");
		return 0;
	}
	return error_at_node(r, v, "%s", "merge key '<<' takes a mapping or "
			     "a list of mappings");
}

/* A pair a merged mapping may get, in output order (pos). */
struct merge_pair {
	struct wg_node *key, *value;
	size_t rank;	/* 0: the mapping's own; n: from the n-th source */
	size_t pos;
	bool lost;	/* an own or earlier-merged key has it */
};

static int merge_cmp(const void *a, const void *b)
{
	const struct merge_pair *x = *(struct merge_pair *const *)a;
	const struct merge_pair *y = *(struct merge_pair *const *)b;
	int c = key_cmp(&x->key, &y->key);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void add_source(struct merge_pair *cand, size_t *n, size_t rank,
		       const struct wg_node *src)
{
	for (size_t j = 0; j < src->len; j++) {
		cand[*n].key = wg_map_key(src, j);
		cand[*n].value = wg_map_value(src, j);
		cand[*n].rank = rank;
		cand[*n].pos = *n;
		cand[*n].lost = false;
		(*n)++;
	}
}

/*
 * Resolves "<<" as YAML 1.1 readers do: keys of the mapping win over merged
 * ones, earlier merged mappings over later ones; merged keys take the place
 * of the "<<" entry.
 */
static int resolve_merges(struct wg_reader *r, struct wg_arena *arena,
			  struct wg_node *map)
{
	size_t pairs = map->len, total = 0, nout = 0, n = 0, rank = 0;
	struct merge_pair *cand, **order;
	struct wg_node **out;

	for (size_t i = 0; i < pairs; i++) {
		const struct wg_node *v = map->u.items[2 * i + 1];

		if (!is_merge_key(map->u.items[2 * i])) {
			total++;
			continue;
		}
		if (merge_sources(r, v))
			return -1;
		if (wg_is_map(v))
			total += v->len;
		else
			for (size_t j = 0; j < v->len; j++)
				total += wg_seq_item(v, j)->len;
	}
	/* Every candidate in output order, then sorted by key and rank so
	 * the winner of each key comes first: n log n, as a hostile merge of
	 * many keys must not take quadratic time. */
	cand = wg_xmalloc((total ? total : 1) * sizeof(*cand));
	order = wg_xmalloc((total ? total : 1) * sizeof(*order));
	for (size_t i = 0; i < pairs; i++) {
		struct wg_node *k = map->u.items[2 * i];
		struct wg_node *v = map->u.items[2 * i + 1];

		if (!is_merge_key(k)) {
			cand[n] = (struct merge_pair){ k, v, 0, n, false };
			n++;
		} else if (wg_is_map(v)) {
			add_source(cand, &n, ++rank, v);
		} else {
			for (size_t j = 0; j < v->len; j++)
				add_source(cand, &n, ++rank, wg_seq_item(v, j));
		}
	}
	for (size_t i = 0; i < n; i++)
		order[i] = &cand[i];
	wg_sort(order, n, sizeof(*order), merge_cmp);
	for (size_t i = 1; i < n; i++)
		if (key_cmp(&order[i - 1]->key, &order[i]->key) == 0)
			order[i]->lost = true;
	out = wg_arena_alloc(arena, 2 * (n ? n : 1) * sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (cand[i].lost)
			continue;
		out[2 * nout] = cand[i].key;
		out[2 * nout + 1] = cand[i].value;
		nout++;
	}
	free(order);
	free(cand);
	map->u.items = out;
	map->len = (uint32_t)nout;
	return 0;
}

/* pos: where each child of n was read (keys, then values, in turn). */
static int finish_map(struct wg_reader *r, struct wg_arena *arena,
		      struct wg_node *n, const struct wg_read_pos *pos)
{
	long dup;
	bool has_merge;

	for (size_t i = 0; i < n->len; i++) {
		const struct wg_node *k = n->u.items[2 * i];

		if (k->kind != WG_NODE_SCALAR)
			return error_at_node(r, k, "%s", "mapping key is not a "
					     "scalar (Kubernetes objects only "
					     "have string keys)");
	}
	dup = wg_map_first_duplicate(n->u.items, n->len, &has_merge);
	if (dup >= 0) {
		const struct wg_node *k = n->u.items[2 * dup];
		const struct wg_read_pos *at = &pos[2 * dup];

		r->failed = true;
		return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name,
				    at->line + 1, at->col + 1,
				    "duplicate mapping key '%.*s'",
				    (int)k->len, k->u.str);
	}
	return has_merge ? resolve_merges(r, arena, n) : 0;
}

static int on_end(struct wg_reader *r, struct wg_arena *arena,
		  const yaml_event_t *e)
{
	struct wg_frame *f = &r->frames[--r->nframes];
	struct wg_node *n = f->node;
	size_t count = r->stack_len - f->base;

	/* the size limit on each object of a one-document list */
	if (r->limit_depth && r->nframes + 1 == r->limit_depth
	    && e->end_mark.index - f->start > r->ctx->limits.max_doc_bytes)
		return error_at_node(r, n, "%s", "this item is larger than "
				     "the size limit of one object "
				     "(doc-bytes)");

	if (n->kind == WG_NODE_MAP && count % 2)
		return error_at_node(r, n, "%s", "mapping with a key but no "
				     "value");
	if (count / (n->kind == WG_NODE_MAP ? 2 : 1) > WG_NODE_MAX_LEN)
		return error_at_node(r, n, "more than %u entries in one "
				     "collection", WG_NODE_MAX_LEN);
	n->len = (uint32_t)(n->kind == WG_NODE_MAP ? count / 2 : count);
	if (count) {
		n->u.items = wg_arena_alloc(arena, count * sizeof(*n->u.items));
		memcpy(n->u.items, r->stack + f->base,
		       count * sizeof(*n->u.items));
	}
	/* an empty mapping has nothing to check, and r->pos may still be
	 * NULL (NULL + 0 is undefined; found by fuzz_profile with "{}") */
	if (n->kind == WG_NODE_MAP && count
	    && finish_map(r, arena, n, r->pos + f->base))
		return -1;
	r->stack_len = f->base;
	if (f->anchor >= 0)
		r->anchors[f->anchor].open = false;
	push(r, n, wg_node_line(n), wg_node_col(n));
	return 0;
}

/*
 * yaml_event_delete() for the events in the hot loop, without its memset
 * of the whole event: a measurable share of the reader's time.  libyaml
 * allocates with malloc().
 */
static void event_free(yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		free(e->data.scalar.value);
		free(e->data.scalar.tag);
		free(e->data.scalar.anchor);
		break;
	case YAML_SEQUENCE_START_EVENT:
		free(e->data.sequence_start.tag);
		free(e->data.sequence_start.anchor);
		break;
	case YAML_MAPPING_START_EVENT:
		free(e->data.mapping_start.tag);
		free(e->data.mapping_start.anchor);
		break;
	case YAML_ALIAS_EVENT:
		free(e->data.alias.anchor);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		break;
	default:
		yaml_event_delete(e);
	}
}

/* The document first_big_doc() found, where it starts. */
static int big_doc_error(struct wg_reader *r)
{
	unsigned line, col;

	r->failed = true;
	wg_offset_position(r->in->data, r->in->len, r->end, &line, &col);
	return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, line, col,
			    "%s", "document is larger than the size limit");
}

int wg_reader_next(struct wg_reader *r, struct wg_arena *arena,
		   struct wg_node **root, unsigned *index)
{
	yaml_event_t e;
	yaml_mark_t doc_start = { 0, 0, 0 };
	bool in_doc = false;

	*root = NULL;
	if (r->done || r->failed)
		return r->failed ? -1 : 0;
	/* The documents' sizes, before libyaml reads one too large: it is
	 * read no further than the document before it. */
	if (!r->sized) {
		size_t big = r->limit_depth ? r->end
			: first_big_doc(r->in->data, r->seg_start, r->end,
					r->ctx->limits.max_doc_bytes);

		r->sized = true;
		if (big < r->end) {
			r->big_doc = true;
			r->end = big;
			start_segment_at(r, r->seg_start, r->seg_line,
					 r->seg_col);
		}
	}
	/* One segment covers the rest of the input (no JSON stream, whose
	 * values need a parser each): it may be parsed on a thread. */
	if (r->threaded && !r->pipe_tried && !r->observe) {
		r->pipe_tried = true;
		if (r->seg_end == r->end)
			r->pipe = wg_event_pipe_start(&r->parser);
		/* the pipe's events are its own: nothing is adopted */
		if (r->pipe)
			r->adopt = false;
	}
	for (;;) {
		int rc = 0;

		if (!(r->pipe ? wg_event_pipe_next(r->pipe, &e)
			      : yaml_parser_parse(&r->parser, &e)))
			return parser_error(r);
		if (r->observe)
			r->observe(r->observe_arg, &e);
		switch (e.type) {
		case YAML_STREAM_END_EVENT:
			if (!r->pipe)	/* the pipe frees its own */
				yaml_event_delete(&e);
			if (r->seg_end < r->end
			    && skip_space(r->in->data, r->end, r->seg_end)
			       < r->end) {
				start_segment(r, r->seg_end);
				continue;
			}
			r->done = true;
			if (r->big_doc)
				return big_doc_error(r);
			return 0;
		case YAML_DOCUMENT_START_EVENT:
			in_doc = true;
			doc_start = e.start_mark;
			r->stack_len = 0;
			r->nframes = 0;
			r->alias_nodes = 0;
			r->doc_nodes = 0;
			clear_anchors(r);
			if (++r->ctx->documents > r->ctx->limits.max_documents)
				rc = error_at(r, &e.start_mark, "%s", "more "
					      "documents than the limit");
			break;
		case YAML_DOCUMENT_END_EVENT:
			if (!r->limit_depth && e.end_mark.index
			    - doc_start.index > r->ctx->limits.max_doc_bytes) {
				rc = error_at(r, &doc_start, "%s", "document "
					      "is larger than the size limit");
				break;
			}
			*root = r->stack_len ? r->stack[0] : NULL;
			*index = r->doc_index++;
			if (!r->pipe)	/* the pipe frees its own */
				yaml_event_delete(&e);
			return in_doc ? 1 : 0;
		case YAML_SCALAR_EVENT:
			rc = on_scalar(r, arena, &e);
			break;
		case YAML_ALIAS_EVENT:
			rc = on_alias(r, arena, &e);
			break;
		case YAML_SEQUENCE_START_EVENT:
			rc = on_start(r, arena, &e, WG_NODE_SEQ);
			break;
		case YAML_MAPPING_START_EVENT:
			rc = on_start(r, arena, &e, WG_NODE_MAP);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			rc = on_end(r, arena, &e);
			break;
		default:
			break;
		}
		if (!r->pipe)
			event_free(&e);
		if (rc)
			return -1;
	}
}

int wg_read_stream(struct wg_ctx *ctx, const struct wg_input *in,
		   struct wg_resources *list)
{
	struct wg_reader r;
	struct wg_node *root;
	const char *file = wg_arena_strdup(&list->arena, in->name);
	unsigned index;
	int rc;

	wg_reader_init(&r, ctx, in);
	if (list->share_keys)
		r.shared_keys = list;
	while ((rc = wg_reader_next(&r, &list->arena, &root, &index)) > 0)
		wg_resources_add_document(list, root, file, index);
	wg_reader_release(&r);
	return rc;
}
