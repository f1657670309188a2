#define _GNU_SOURCE	/* memmem */
/*
 * Template literal edits (chart migration --in-place): a change no values
 * key carries is made in the template's own YAML text, at its own
 * indentation, where the text is literal enough to find the spot without
 * evaluating Go templates:
 *   - a new pod-spec key goes in front of the pod spec's one literal
 *     "containers:" line, at that line's indentation;
 *   - a removed key goes with its lines, found as the same block of lines
 *     (the same text at one indentation) in the template, exactly as often
 *     as the object removes it.
 * Anything else is refused.  The second render (chart_migrate.c) proves
 * the edits or the run fails.
 */
#include <string.h>

#include "wingen/migrate/chart.h"
#include "wingen/migrate/migrate.h"

/* The next line after p (to end), and the end of p's line without its
 * line break. */
static const char *line_end(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;

	*next = nl ? nl + 1 : end;
	if (e > p && e[-1] == '\r')
		e--;
	return e;
}

static unsigned indent_of(const char *p, const char *e)
{
	unsigned n = 0;

	while (p + n < e && p[n] == ' ')
		n++;
	return n;
}

int wg_tpl_insert_podspec_key(const char *text, const char *b, const char *e,
			      const struct wg_node *key,
			      const struct wg_node *value,
			      struct wg_edits *edits)
{
	const char *found = NULL, *next;
	unsigned col = 0, n = 0;
	struct wg_render_style st = { 2, true, "\n", false, 0 };
	struct wg_buf out = WG_BUF_INIT;
	const char *nl = memchr(text, '\n', (size_t)(e - text));

	if (nl && nl > text && nl[-1] == '\r')
		st.eol = "\r\n";
	for (const char *l = b; l < e; l = next) {
		const char *le = line_end(l, e, &next);
		unsigned c = indent_of(l, le);
		const char *q = l + c;
		const char *k = "containers:";
		size_t kl = strlen(k);

		if ((size_t)(le - q) >= kl && memcmp(q, k, kl) == 0) {
			const char *r = q + kl;

			while (r < le && (*r == ' ' || *r == '\t'))
				r++;
			if (r == le) {
				found = l;
				col = c;
				n++;
			}
		}
	}
	if (n != 1)
		return -1;
	for (unsigned i = 0; i < col; i++)
		wg_buf_addch(&out, ' ');
	wg_render_pair(&out, &st, key, value, col);
	wg_edits_add(edits, (size_t)(found - text), (size_t)(found - text),
		     out.buf, out.len);
	wg_buf_release(&out);
	return 0;
}

/* Whether the template lines at l match block (lines, each with its
 * indentation relative to the first) at indentation col; *stop is where
 * the match ends. */
static bool block_at(const char *l, const char *e, const char *block,
		     size_t blen, unsigned base, unsigned col,
		     const char **stop)
{
	const char *bp = block, *bend = block + blen, *bnext, *next;

	while (bp < bend) {
		const char *ble = line_end(bp, bend, &bnext);
		unsigned bi = indent_of(bp, ble);
		const char *le;
		unsigned ti;

		if (l >= e || bi < base)
			return false;
		le = line_end(l, e, &next);
		ti = indent_of(l, le);
		if (ti != col + (bi - base)
		    || (size_t)(le - l - ti) != (size_t)(ble - bp - bi)
		    || memcmp(l + ti, bp + bi, (size_t)(le - l - ti)) != 0)
			return false;
		l = next;
		bp = bnext;
	}
	*stop = l;
	return true;
}

size_t wg_tpl_find_block(const char *b, const char *e, const char *block,
			 size_t blen, size_t want, size_t *start, size_t *stop,
			 const char *text)
{
	const char *next, *bn;
	unsigned base = indent_of(block, line_end(block, block + blen, &bn));
	size_t n = 0;

	for (const char *l = b; l < e; l = next) {
		const char *le = line_end(l, e, &next), *s;

		if (block_at(l, e, block, blen, base, indent_of(l, le), &s)) {
			if (n == want) {
				*start = (size_t)(l - text);
				*stop = (size_t)(s - text);
			}
			n++;
			next = s;
		}
	}
	return n;
}

/* Whether the line [q, le) (its indentation skipped) is "key:" with
 * nothing after the colon: a block follows. */
static bool key_line(const char *q, const char *le, const char *key)
{
	size_t kl = strlen(key);
	const char *r;

	if ((size_t)(le - q) < kl + 1 || memcmp(q, key, kl) != 0
	    || q[kl] != ':')
		return false;
	for (r = q + kl + 1; r < le && (*r == ' ' || *r == '\t'); r++)
		;
	return r == le;
}

/* Whether the literal line [q, le) writes the mapping key k ("k:",
 * '"k":' or "'k':"). */
static bool writes_key(const char *q, const char *le, const char *k,
		       size_t kl)
{
	if (q < le && (*q == '"' || *q == '\'')) {
		if ((size_t)(le - q) < kl + 3 || q[kl + 1] != *q)
			return false;
		return memcmp(q + 1, k, kl) == 0 && q[kl + 2] == ':';
	}
	return (size_t)(le - q) > kl && memcmp(q, k, kl) == 0 && q[kl] == ':';
}

/* The N of the first "nindent N" in [l, le), or 0. */
static unsigned nindent_of(const char *l, const char *le)
{
	const char *k = memmem(l, (size_t)(le - l), "nindent", 7);
	unsigned n = 0;

	if (!k)
		return 0;
	for (k += 7; k < le && *k == ' '; k++)
		;
	while (k < le && *k >= '0' && *k <= '9' && n < 1000)
		n = n * 10 + (unsigned)(*k++ - '0');
	return n;
}

/* How the actions of [l, le) change the nesting of if, with, range,
 * define and block (each +1) and end (-1). */
static int nesting_of(const char *l, const char *le)
{
	static const char *const open[] = { "if ", "with ", "range ",
					    "define ", "block " };
	int d = 0;

	for (const char *p = l; (p = memmem(p, (size_t)(le - p), "{{", 2));) {
		p += 2;
		if (p < le && *p == '-')
			p++;
		while (p < le && *p == ' ')
			p++;
		if ((size_t)(le - p) >= 3 && memcmp(p, "end", 3) == 0)
			d--;
		for (size_t i = 0; i < sizeof(open) / sizeof(open[0]); i++)
			if ((size_t)(le - p) >= strlen(open[i])
			    && memcmp(p, open[i], strlen(open[i])) == 0)
				d++;
	}
	return d;
}

/*
 * A block whose first line is an action: the column its entries render
 * at, from its lines (up to the next line at the key's column or left of
 * it; for a sequence, a line at the key's column that is not an item or
 * an action): the leftmost line that starts with literal text, and the
 * leftmost "nindent N".  0 when they say nothing; -1 when they disagree
 * (the branches of an if write the entries at different columns, and a
 * line added above them would match one branch and break the other's
 * YAML).  *end is where the block's last line outside any if, with or
 * range ends (new entries go there, after what the chart writes, as
 * build appends them), or l.
 */
static int entries_column(const char *l, const char *e, unsigned col,
			  bool seq, const char **end)
{
	unsigned lit = 0, nin = 0;
	const char *next;
	int depth = 0;

	*end = l;
	for (; l < e; l = next) {
		const char *le = line_end(l, e, &next);
		unsigned c = indent_of(l, le), n;
		bool item = le - l > c + 1 && l[c] == '-' && l[c + 1] == ' ';
		bool action = le - l > c + 1 && l[c] == '{' && l[c + 1] == '{';

		if (le == l + c || l[c] == '#')
			continue;
		/* a sequence's items may stand at the key's column, and so
		 * may the actions around them */
		if (c < col || (c == col && !(seq && (item || action))))
			break;
		if (!action && (!lit || c < lit))
			lit = c;
		if (action && (n = nindent_of(l, le)) && (!nin || n < nin))
			nin = n;
		depth += nesting_of(l, le);
		if (depth == 0)
			*end = next;
	}
	if (lit && nin && lit != nin)
		return -1;
	return (int)(lit ? lit : nin);
}

int wg_tpl_insert_into_block(const char *text, const char *b, const char *e,
			     const char *field, const struct wg_node *add,
			     struct wg_edits *edits, size_t *line)
{
	const char *found = NULL, *after = NULL, *next;
	unsigned col = 0, n = 0, child = 0;
	size_t lineno = 0, found_line = 0;
	struct wg_render_style st = { 2, true, "\n", false, 0 };
	struct wg_buf out = WG_BUF_INIT;
	const char *nl = memchr(text, '\n', (size_t)(e - text));

	*line = 0;
	if (nl && nl > text && nl[-1] == '\r')
		st.eol = "\r\n";
	for (const char *p = text; p < b; p++)
		lineno += *p == '\n';
	for (const char *l = b; l < e; l = next, lineno++) {
		const char *le = line_end(l, e, &next);
		unsigned c = indent_of(l, le);

		if (key_line(l + c, le, field)) {
			found = l;
			found_line = lineno;
			col = c;
			n++;
		}
	}
	if (n != 1 || !(wg_is_map(add) || wg_is_seq(add)) || !add->len)
		return -1;
	*line = found_line + 1;
	/* the literal lines of the block: deeper than the key (or, for a
	 * sequence, "- " items at its column), with no action in them */
	line_end(found, e, &after);
	for (const char *l = after; l < e; l = next) {
		const char *le = line_end(l, e, &next);
		unsigned c = indent_of(l, le);
		bool item = le - l > c + 1 && l[c] == '-' && l[c + 1] == ' ';

		if (le == l + c || memmem(l, (size_t)(le - l), "{{", 2)
		    || (c <= col && !(c == col && item && wg_is_seq(add))))
			break;
		if (!child)
			child = c;
		if (c < child)
			return -1;	/* not one block */
		/* a mapping key the template already writes: not an addition */
		for (size_t i = 0; c == child && wg_is_map(add) && i < add->len;
		     i++) {
			const struct wg_node *k = wg_map_key(add, i);

			if (wg_is_scalar(k)
			    && writes_key(l + c, le, k->u.str, k->len))
				return -1;
		}
		after = next;
	}
	if (!child) {
		int at = entries_column(after, e, col, wg_is_seq(add), &after);

		if (at < 0 || (at && (unsigned)at < col))
			return -1;
		child = at ? (unsigned)at : col + 2;
	}
	for (size_t i = 0; i < add->len; i++) {
		for (unsigned s = 0; s < child; s++)
			wg_buf_addch(&out, ' ');
		if (wg_is_map(add)) {
			wg_render_pair(&out, &st, wg_map_key(add, i),
				       wg_map_value(add, i), child);
		} else {
			wg_buf_addch(&out, '-');
			wg_render_item(&out, &st, wg_seq_item(add, i), child);
		}
	}
	wg_edits_add(edits, (size_t)(after - text), (size_t)(after - text),
		     out.buf, out.len);
	wg_buf_release(&out);
	return 0;
}
