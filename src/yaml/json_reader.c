/*
 * JSON reader (json_reader.h): yajl parses; its callbacks build the tree
 * reader.c builds from libyaml's events.  This file keeps positions as
 * libyaml counts them and refuses what libyaml refuses of JSON; it lexes
 * nothing itself beyond the whitespace, ',' and ':' between two tokens
 * yajl has read.
 */
#include "wingen/yaml/json_reader.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "wingen/base/alloc.h"
#include "yaml_internal.h"

/* libyaml drops a simple key (the ':' then has none: an error) once the
 * scanner is more than this many characters past the key's start. */
#define SIMPLE_KEY_MAX 1024

struct jr_frame {
	struct wg_node *node;
	size_t base;	/* its children are stack[base..] */
	size_t start;	/* byte offset of its '{' or '[' */
};

struct jr {
	struct wg_ctx *ctx;
	const struct wg_input *in;
	struct wg_arena *arena;
	const struct wg_json_opts *opts;
	yajl_handle h;
	const char *data;
	size_t start, end;	/* what yajl parses: after a BOM, to the end */
	bool ascii;		/* no byte over 0x7f: a byte is a character */
	bool finishing;		/* in yajl_complete_parse() */
	bool failed;		/* reported; yajl was told to stop */
	/* where the last token ended, its 0-based position and the
	 * characters before it (libyaml's mark index) */
	size_t at;
	uint32_t line, col;
	size_t chars;
	/* the token at hand */
	size_t tok;
	uint32_t tok_line, tok_col;
	/* a key whose ':' is still to come */
	bool key_open;
	uint32_t key_line;
	size_t key_chars;
	/* the tree being built */
	struct wg_node **stack;
	size_t stack_len, stack_cap;
	struct jr_frame *frames;
	size_t nframes, frames_cap;
	/* the documents */
	struct wg_node **docs;
	size_t ndocs, docs_cap;
	size_t doc_chars;	/* characters before the document's start */
	uint32_t doc_line, doc_col;
	bool first_scalar;	/* the first value is no collection */
};

__attribute__((format(printf, 4, 5)))
static int fail_at(struct jr *r, uint32_t line, uint32_t col,
		   const char *fmt, ...)
{
	va_list ap;

	r->failed = true;
	va_start(ap, fmt);
	wg_vreport_at(r->ctx, WG_SEV_ERROR, r->in->name, line + 1, col + 1,
		      fmt, ap);
	va_end(ap);
	return 0;	/* yajl stops */
}

/* Characters in data[from, to), which holds no line break. */
static size_t chars_in(const struct jr *r, size_t from, size_t to)
{
	size_t n = to - from;

	if (!r->ascii)
		for (size_t i = from; i < to; i++)
			n -= ((unsigned char)r->data[i] & 0xC0) == 0x80;
	return n;
}

static int tab_error(struct jr *r)
{
	return fail_at(r, r->line, r->col, "%s", "tab character used for "
		       "indentation (YAML allows only spaces)");
}

/*
 * Moves over what lies between two tokens (whitespace, ',' and ':'),
 * counting lines and characters as libyaml does: CR LF, CR and LF are one
 * line break each.  Outside every collection a tab is what libyaml takes
 * for indentation, and a ':' must be on its key's line within
 * SIMPLE_KEY_MAX characters.  0 when refused (reported).
 */
static int skip(struct jr *r)
{
	const char *d = r->data;
	size_t i = r->at;

	for (; i < r->end; i++) {
		switch (d[i]) {
		case '\r':
			if (i + 1 < r->end && d[i + 1] == '\n') {
				i++;
				r->chars++;
			}
			/* fall through */
		case '\n':
			r->line++;
			r->col = 0;
			r->chars++;
			continue;
		case '\t':
			if (!r->nframes) {
				r->at = i;
				return tab_error(r);
			}
			break;
		case ':':
		case ',':
			/* separators only inside a collection: at the top
			 * they are yajl's to refuse */
			if (!r->nframes) {
				r->at = i;
				return 1;
			}
			if (d[i] == ',')
				break;
			if (r->key_open && (r->line != r->key_line
					    || r->chars - r->key_chars
					       > SIMPLE_KEY_MAX))
				return fail_at(r, r->line, r->col, "the ':' "
					       "of this key is %s its start "
					       "(YAML's limit on a simple "
					       "key)", r->line != r->key_line
					       ? "on a later line than"
					       : "more than 1024 characters "
						 "after");
			r->key_open = false;
			break;
		case ' ':
			break;
		default:
			r->at = i;
			return 1;
		}
		r->col++;
		r->chars++;
	}
	r->at = i;
	return 1;
}

/* A value at the top: a document begins. */
static int begin_doc(struct jr *r)
{
	char c = r->data[r->tok];
	bool coll = c == '{' || c == '[';

	if (r->ndocs && (r->first_scalar || !coll))
		return fail_at(r, r->tok_line, r->tok_col, "%s", "a second "
			       "JSON value after the first (a stream holds "
			       "objects and arrays only)");
	if (!r->ndocs)
		r->first_scalar = !coll;
	r->doc_chars = r->chars;
	r->doc_line = r->tok_line;
	r->doc_col = r->tok_col;
	if (++r->ctx->documents > r->ctx->limits.max_documents)
		return fail_at(r, r->tok_line, r->tok_col, "%s", "more "
			       "documents than the limit");
	return 1;
}

/* Every callback begins here: the token's start and position. */
static int begin(struct jr *r)
{
	if (!r->nframes && r->ndocs) {
		/* A later value of a stream: reader.c parses each value
		 * alone, from the end of the one before, and starts its
		 * positions there as wg_offset_position() counts. */
		unsigned l, c;

		wg_offset_position(r->data, r->in->len, r->at, &l, &c);
		r->line = l - 1;
		r->col = c - 1;
	}
	if (!skip(r))
		return 0;
	r->tok = r->at;
	r->tok_line = r->line;
	r->tok_col = r->col;
	return r->nframes ? 1 : begin_doc(r);
}

/* The token's end, as yajl has consumed it. */
static size_t tok_end(const struct jr *r)
{
	return r->finishing ? r->end
			    : r->start + yajl_get_bytes_consumed(r->h);
}

/* Every callback that built a node ends here. */
static int end(struct jr *r, struct wg_node *n)
{
	size_t e = tok_end(r), k = chars_in(r, r->tok, e);

	r->at = e;
	r->col += (uint32_t)k;
	r->chars += k;
	WG_GROW(r->stack, r->stack_cap, r->stack_len + 1);
	r->stack[r->stack_len++] = n;
	if (r->nframes)
		return 1;
	/* a document's end: the size limit (at the input's end for the
	 * one value of a text, wg_json_read()) */
	if (r->chars - r->doc_chars > r->ctx->limits.max_doc_bytes)
		return fail_at(r, r->doc_line, r->doc_col, "%s", "document is "
			       "larger than the size limit");
	WG_GROW(r->docs, r->docs_cap, r->ndocs + 1);
	r->docs[r->ndocs++] = n;
	r->stack_len = 0;
	return 1;
}

static struct wg_node *scalar(struct jr *r, const char *s, size_t len,
			      enum wg_scalar_style style)
{
	struct wg_node *n;

	if (len > r->ctx->limits.max_scalar_bytes || len > WG_NODE_MAX_LEN) {
		fail_at(r, r->tok_line, r->tok_col, "%s",
			"scalar is larger than the size limit");
		return NULL;
	}
	n = wg_node_new_at(r->arena, WG_NODE_SCALAR, NULL, r->tok_line,
			   r->tok_col);
	n->style = style;
	n->len = (uint32_t)len;
	n->u.str = s;
	return n;
}

static int hex_digit(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* libyaml takes no \u escape of a UTF-16 surrogate, paired or not:
 * looked for in the raw text of a string yajl found escapes in. */
static int check_escapes(struct jr *r)
{
	const char *d = r->data;
	size_t to = tok_end(r) - 1;

	for (size_t i = r->tok + 1; i < to; i++) {
		unsigned v = 0;

		if (d[i] != '\\')
			continue;
		if (d[++i] != 'u' || i + 4 >= to)
			continue;
		for (int k = 1; k <= 4; k++)
			v = v << 4 | (unsigned)hex_digit(d[i + (size_t)k]);
		if (v >= 0xD800 && v <= 0xDFFF)
			return fail_at(r, r->tok_line, r->tok_col
				       + (uint32_t)chars_in(r, r->tok, i - 1),
				       "\\u%04x is half of a UTF-16 surrogate "
				       "pair, which wingen's YAML reader "
				       "refuses: write the character as UTF-8",
				       v);
		i += 4;
	}
	return 1;
}

/* A string's text: in the input when it has no escapes, else yajl's
 * decoded copy, copied. */
static const char *string_text(struct jr *r, const unsigned char *s,
			       size_t len)
{
	const char *p = (const char *)s;
	char *copy;

	if (p >= r->data && p <= r->data + r->end)
		return p;
	if (!check_escapes(r))
		return NULL;
	copy = wg_arena_alloc(r->arena, len + 1);
	memcpy(copy, p, len);
	copy[len] = '\0';
	return copy;
}

static int on_string(void *arg, const unsigned char *s, size_t len)
{
	struct jr *r = arg;
	const char *text;
	struct wg_node *n;

	if (!begin(r) || !(text = string_text(r, s, len))
	    || !(n = scalar(r, text, len, WG_STYLE_DOUBLE)))
		return 0;
	return end(r, n);
}

static int on_key(void *arg, const unsigned char *s, size_t len)
{
	struct jr *r = arg;

	if (!on_string(arg, s, len))
		return 0;
	r->key_open = true;
	r->key_line = r->tok_line;
	r->key_chars = r->chars - chars_in(r, r->tok, r->at);
	return 1;
}

static int plain(struct jr *r, const char *s, size_t len)
{
	struct wg_node *n;

	if (!begin(r))
		return 0;
	/* a number at the input's end is in yajl's own buffer */
	if (s < r->data || s > r->data + r->end)
		s = wg_arena_strndup(r->arena, s, len);
	if (!(n = scalar(r, s, len, WG_STYLE_PLAIN)))
		return 0;
	return end(r, n);
}

static int on_null(void *arg)
{
	return plain(arg, "null", 4);
}

static int on_bool(void *arg, int b)
{
	return b ? plain(arg, "true", 4) : plain(arg, "false", 5);
}

/* Whether the number s (valid JSON, len bytes) is an int64 or, with a
 * fraction or exponent, a finite double. */
static bool fits_64_bits(const char *s, size_t len)
{
	static const char int64_max[] = "9223372036854775807";
	const char *d = s + (*s == '-');
	size_t digits = len - (size_t)(d - s);
	char buf[64], *copy;
	double v;

	if (!memchr(s, '.', len) && !memchr(s, 'e', len)
	    && !memchr(s, 'E', len)) {
		/* -9223372036854775808 passes as one beyond int64's max: JSON
		 * writes no leading zeros, so length then text compare */
		if (digits != sizeof(int64_max) - 1)
			return digits < sizeof(int64_max) - 1;
		return memcmp(d, int64_max, digits) <= 0
		       || (*s == '-' && !memcmp(d, "9223372036854775808", digits));
	}
	copy = len < sizeof(buf) ? buf : malloc(len + 1);
	if (!copy)
		return false;
	memcpy(copy, s, len);
	copy[len] = '\0';
	v = strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	return v - v == 0;	/* not inf (nor nan, which JSON cannot write) */
}

static int on_number(void *arg, const char *s, size_t len)
{
	struct jr *r = arg;

	if (r->opts && r->opts->int64_or_double && !fits_64_bits(s, len)) {
		if (!begin(r))
			return 0;
		return fail_at(r, r->tok_line, r->tok_col, "the number %.*s%s "
			       "is out of range (a 64-bit integer, or a "
			       "double)", len > 24 ? 24 : (int)len, s,
			       len > 24 ? "..." : "");
	}
	return plain(arg, s, len);
}

static int open_coll(struct jr *r, int kind)
{
	struct wg_node *n;

	if (!begin(r))
		return 0;
	if (r->nframes >= r->ctx->limits.max_depth)
		return fail_at(r, r->tok_line, r->tok_col, "nesting deeper "
			       "than %zu levels", r->ctx->limits.max_depth);
	n = wg_node_new_at(r->arena, kind, NULL, r->tok_line, r->tok_col);
	n->flags |= WG_NODE_FLOW;
	WG_GROW(r->frames, r->frames_cap, r->nframes + 1);
	r->frames[r->nframes++] = (struct jr_frame){ n, r->stack_len, r->tok };
	r->at = r->tok + 1;
	r->col++;
	r->chars++;
	return 1;
}

static int on_start_map(void *arg)
{
	return open_coll(arg, WG_NODE_MAP);
}

static int on_start_array(void *arg)
{
	return open_coll(arg, WG_NODE_SEQ);
}

static int close_coll(struct jr *r)
{
	struct jr_frame *f;
	struct wg_node *n;
	size_t count;
	bool map, has_merge;

	if (!skip(r))
		return 0;
	r->tok = r->at;
	f = &r->frames[--r->nframes];
	n = f->node;
	map = n->kind == WG_NODE_MAP;
	count = r->stack_len - f->base;
	if (count / (map ? 2 : 1) > WG_NODE_MAX_LEN)
		return fail_at(r, wg_node_line(n), wg_node_col(n), "more than "
			       "%u entries in one collection", WG_NODE_MAX_LEN);
	n->len = (uint32_t)(map ? count / 2 : count);
	if (count) {
		n->u.items = wg_arena_alloc(r->arena,
					    count * sizeof(*n->u.items));
		memcpy(n->u.items, r->stack + f->base,
		       count * sizeof(*n->u.items));
	}
	if (map && count) {
		long dup = wg_map_first_duplicate(n->u.items, n->len,
						  &has_merge);

		if (dup >= 0) {
			const struct wg_node *k = n->u.items[2 * dup];

			return fail_at(r, wg_node_line(k), wg_node_col(k),
				       "duplicate mapping key '%.*s'",
				       (int)k->len, k->u.str);
		}
	}
	r->stack_len = f->base;
	if (r->opts && r->opts->on_close)
		r->opts->on_close(r->opts->on_close_arg, n,
				  (unsigned)r->nframes + 1, f->start,
				  tok_end(r));
	return end(r, n);
}

static int on_end(void *arg)
{
	return close_coll(arg);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/* An error in the input's encoding, where reader.c reports one. */
static int bad_text(struct jr *r, size_t at, const char *problem)
{
	unsigned l, c;

	r->failed = true;
	wg_offset_position(r->data, r->in->len, at, &l, &c);
	return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, l, c,
			    "%s (input must be UTF-8)", problem);
}

/*
 * The characters libyaml's reader takes, checked as it checks them
 * (yajl would pass some inside strings): UTF-8 of the shortest form, no
 * surrogate, and printable (tab, LF, CR, NEL, and no C0 or C1 control,
 * DEL, U+FFFE or U+FFFF).  Sets r->ascii.  0, or -1 reported.
 */
static int check_text(struct jr *r)
{
	const unsigned char *d = (const unsigned char *)r->data;
	bool ascii = true;

	for (size_t i = r->start; i < r->end;) {
		unsigned c, width, v;

		/* eight printable ASCII bytes at once: none under 0x20, none
		 * over 0x7e */
		while (r->end - i >= 8) {
			uint64_t x;

			memcpy(&x, d + i, 8);
			if (((x - 0x2020202020202020u) | (x + 0x0101010101010101u)
			     | x) & 0x8080808080808080u)
				break;
			i += 8;
		}
		if (i == r->end)
			break;
		c = d[i];
		if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r'
		    || c == '\t') {
			i++;
			continue;
		}
		if (c < 0x80)
			return bad_text(r, i, "control characters are not "
					"allowed");
		ascii = false;
		width = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
			: (c & 0xF8) == 0xF0 ? 4 : 0;
		if (!width)
			return bad_text(r, i, "invalid leading UTF-8 octet");
		if (width > r->end - i)
			return bad_text(r, i, "incomplete UTF-8 octet "
					"sequence");
		v = c & (width == 2 ? 0x1Fu : width == 3 ? 0x0Fu : 0x07u);
		for (unsigned k = 1; k < width; k++) {
			if ((d[i + k] & 0xC0) != 0x80)
				return bad_text(r, i + k, "invalid trailing "
						"UTF-8 octet");
			v = v << 6 | (d[i + k] & 0x3Fu);
		}
		if ((width == 2 && v < 0x80) || (width == 3 && v < 0x800)
		    || (width == 4 && v < 0x10000))
			return bad_text(r, i, "invalid length of a UTF-8 "
					"sequence");
		if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
			return bad_text(r, i, "invalid Unicode character");
		if (!(v == 0x85 || (v >= 0xA0 && v <= 0xD7FF)
		      || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000))
			return bad_text(r, i, "control characters are not "
					"allowed");
		i += width;
	}
	r->ascii = ascii;
	return 0;
}

/*
 * After the one value of a text: libyaml reads on to the end, where a
 * tab after a line break is indentation (after a number, true, false or
 * null it is part of the plain scalar's end), and the document's size
 * runs to there.
 */
static int finish_one(struct jr *r)
{
	const struct wg_node *root = r->docs[0];
	bool plain = root->kind == WG_NODE_SCALAR
		     && root->style == WG_STYLE_PLAIN, broken = false;

	for (size_t i = r->at; i < r->end; i++) {
		char c = r->data[i];

		if (c == '\t' && broken && !plain) {
			r->at = i;
			return tab_error(r);
		}
		if (c == '\r' && i + 1 < r->end && r->data[i + 1] == '\n') {
			i++;
			r->chars++;
		}
		if (c == '\n' || c == '\r') {
			r->line++;
			r->col = 0;
			broken = true;
		} else {
			r->col++;
		}
		r->chars++;
	}
	if (r->chars - r->doc_chars > r->ctx->limits.max_doc_bytes)
		return fail_at(r, r->doc_line, r->doc_col, "%s", "document is "
			       "larger than the size limit");
	return 1;
}

/* yajl's own error, at the byte where it stopped. */
static void yajl_error(struct jr *r)
{
	unsigned char *msg = yajl_get_error(r->h, 0, NULL, 0);
	size_t at = r->finishing ? r->end
				 : r->start + yajl_get_bytes_consumed(r->h);
	const char *m = msg ? (const char *)msg : "invalid JSON";
	size_t n = strlen(m);
	unsigned l, c;

	while (n && (m[n - 1] == '\n' || m[n - 1] == ' ' || m[n - 1] == '.'))
		n--;
	wg_offset_position(r->data, r->in->len, at, &l, &c);
	wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, l, c, "not JSON: "
		     "%.*s", (int)n, m);
	if (msg)
		yajl_free_error(r->h, msg);
}

/*
 * Whether yajl read every value: reading values one after another, it
 * drops an unfinished one at the end (a string with no closing quote)
 * and says ok.  Only whitespace may follow the last value read.
 */
static bool all_read(struct jr *r)
{
	unsigned l, c;

	for (size_t i = r->at; i < r->end; i++)
		if (r->data[i] != ' ' && r->data[i] != '\t'
		    && r->data[i] != '\r' && r->data[i] != '\n') {
			wg_offset_position(r->data, r->in->len, i, &l, &c);
			wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, l, c,
				     "not JSON: a value that does not end");
			return false;
		}
	return true;
}

static long parse(struct jr *r, struct wg_node ***roots)
{
	const unsigned char *d = (const unsigned char *)r->data;
	yajl_status st;

	if (r->in->len >= 2 && ((d[0] == 0xff && d[1] == 0xfe)
				|| (d[0] == 0xfe && d[1] == 0xff)))
		return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, 1, 1,
				    "input is UTF-16; wingen reads UTF-8 "
				    "only");
	/* reader.c measures a text longer than the limit before libyaml
	 * reads it, from one "---" or "..." line to the next: JSON has
	 * none, so the whole text is one document to it */
	if (r->in->len > r->ctx->limits.max_doc_bytes)
		return wg_report_at(r->ctx, WG_SEV_ERROR, r->in->name, 1, 1,
				    "%s", "document is larger than the size "
				    "limit");
	if (r->end >= 3 && memcmp(d, "\xef\xbb\xbf", 3) == 0)
		r->start = r->at = 3;
	if (check_text(r))
		return -1;
	if (!skip(r))
		return -1;
	if (r->at == r->end)
		return 0;	/* nothing but whitespace */
	r->h = yajl_alloc(&callbacks, NULL, r);
	yajl_config(r->h, yajl_allow_multiple_values, 1);
	/* check_text() holds the input to libyaml's stricter rules */
	yajl_config(r->h, yajl_dont_validate_strings, 1);
	st = yajl_parse(r->h, d + r->start, r->end - r->start);
	if (st == yajl_status_ok) {
		r->finishing = true;
		st = yajl_complete_parse(r->h);
	}
	if (st != yajl_status_ok) {
		if (!r->failed)
			yajl_error(r);
		return -1;
	}
	if (!all_read(r))
		return -1;
	if (r->ndocs == 1 && !finish_one(r))
		return -1;
	*roots = wg_arena_alloc(r->arena, r->ndocs * sizeof(**roots) + 1);
	memcpy(*roots, r->docs, r->ndocs * sizeof(**roots));
	return (long)r->ndocs;
}

long wg_json_read(struct wg_ctx *ctx, const struct wg_input *in,
		  struct wg_arena *arena, const struct wg_json_opts *opts,
		  struct wg_node ***roots)
{
	struct jr r;
	long n;

	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.in = in;
	r.arena = arena;
	r.opts = opts;
	r.data = in->data;
	r.end = in->len;
	*roots = NULL;
	n = parse(&r, roots);
	if (r.h)
		yajl_free(r.h);
	free(r.stack);
	free(r.frames);
	free(r.docs);
	return n;
}

int wg_json_read_stream(struct wg_ctx *ctx, const struct wg_input *in,
			struct wg_resources *list)
{
	const char *file = wg_arena_strdup(&list->arena, in->name);
	struct wg_node **roots;
	long n = wg_json_read(ctx, in, &list->arena, NULL, &roots);

	for (long i = 0; i < n; i++)
		wg_resources_add_document(list, roots[i], file, (unsigned)i);
	return n < 0 ? -1 : 0;
}
