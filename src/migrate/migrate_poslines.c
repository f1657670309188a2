/*
 * The position index's lines: where each line of the text starts, which
 * lines hold wide characters or lie inside a scalar, and the conversions
 * between byte offsets and line and column.
 */
#include "posindex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

/* Length of the line break at p (0 when none): CRLF, CR, LF, NEL, LS, PS. */
size_t wg_pos_break_len(const char *p, const char *end)
{
	if (*p == '\n')
		return 1;
	if (*p == '\r')
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	if ((unsigned char)*p == 0xc2 && p + 1 < end
	    && (unsigned char)p[1] == 0x85)
		return 2;
	if ((unsigned char)*p == 0xe2 && p + 2 < end
	    && (unsigned char)p[1] == 0x80
	    && ((unsigned char)p[2] == 0xa8 || (unsigned char)p[2] == 0xa9))
		return 3;
	return 0;
}

/* Records that the line starting at lines[nlines - 1] ended (wide: it
 * held a multi-byte character).  The array is made at the first wide
 * line, sized for the lines counted so far (cap), which most files, all
 * ASCII, never reach. */
static void end_line(struct wg_pos_index *ix, size_t *cap, bool wide)
{
	if (!wide && !ix->wide)
		return;
	if (!ix->wide)
		ix->wide = wg_xcalloc(*cap, sizeof(*ix->wide));
	WG_GROW(ix->wide, *cap, ix->nlines);
	ix->wide[ix->nlines - 1] = wide;
}

bool wg_pos_line_wide(const struct wg_pos_index *ix, size_t line)
{
	return ix->wide && line < ix->nlines && ix->wide[line];
}

/*
 * Whether the 8 bytes at p may hold one below 0x20 or from 0x80 up (a
 * break, a control or a multi-byte character): a word at a time, as the
 * byte loop below was most of indexing a large file.  No false "no": a
 * byte b < 0x20 makes b - 0x20 borrow into its top bit, one >= 0x80 has
 * it set; borrows may flag a byte above such a one, which only sends
 * those 8 bytes to the byte loop.
 */
static inline bool maybe_special8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return ((w - 0x2020202020202020u) | w) & 0x8080808080808080u;
}

/*
 * Whether text [d, d + len) is ASCII with LF breaks alone: no CR, and no
 * byte from 0x80 up (a NEL, LS or PS, or any multi-byte character).  Its
 * lines then start after each LF and no line is wide, which memchr finds
 * at a fraction of the byte loop's cost (most files are such text).
 */
static bool ascii_lf_only(const char *d, size_t len)
{
	uint64_t seen = 0;
	size_t i = 0;

	for (; len - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		seen |= w;
	}
	for (; i < len; i++)
		seen |= (unsigned char)d[i];
	return !(seen & 0x8080808080808080u) && !memchr(d, '\r', len);
}

static void index_lines(struct wg_pos_index *ix)
{
	const char *d = ix->data, *end = ix->data + ix->len;
	size_t cap = 1, wide_cap, i = 0;
	bool first_break = true, wide = false;

	/* Sized by the LFs first (memchr is fast): a large file's array then
	 * is not copied as it grows; CR, NEL, LS and PS grow it further. */
	for (const char *p = d; p < end && (p = memchr(p, '\n',
						      (size_t)(end - p)));
	     p++)
		cap++;
	wide_cap = cap;
	ix->lines = wg_xcalloc(cap, sizeof(*ix->lines));
	if (ix->len >= 3 && memcmp(d, "\xef\xbb\xbf", 3) == 0)
		i = 3;	/* libyaml's marks do not count the BOM */
	WG_GROW(ix->lines, cap, 1);
	ix->lines[ix->nlines++] = (uint32_t)i;
	ix->eol = "\n";
	if (ascii_lf_only(d + i, ix->len - i)) {
		for (const char *p = d + i;
		     p < end && (p = memchr(p, '\n', (size_t)(end - p)));) {
			p++;
			WG_GROW(ix->lines, cap, ix->nlines + 1);
			ix->lines[ix->nlines++] = (uint32_t)(p - d);
		}
		i = ix->len;
	}
	while (i < ix->len) {
		unsigned char c;
		size_t b;

		/* most bytes: no break */
		while (ix->len - i >= 8 && !maybe_special8(d + i))
			i += 8;
		if (i >= ix->len)
			break;
		c = (unsigned char)d[i];
		if (c >= 0x20 && c < 0x80) {
			i++;
			continue;
		}
		b = wg_pos_break_len(d + i, end);
		if (!b) {
			wide = wide || c >= 0x80;
			i++;
			continue;
		}
		if (first_break && b == 2 && d[i] == '\r')
			ix->eol = "\r\n";
		first_break = false;
		i += b;
		end_line(ix, &wide_cap, wide);
		wide = false;
		WG_GROW(ix->lines, cap, ix->nlines + 1);
		ix->lines[ix->nlines++] = (uint32_t)i;	/* i <= len */
	}
	end_line(ix, &wide_cap, wide);
	/* A text ending in a break has an empty last "line" after it. */
	ix->final_newline = ix->len > 0 && ix->nlines > 1
			    && ix->lines[ix->nlines - 1] == ix->len;
}

size_t wg_pos_offset(const struct wg_pos_index *ix, size_t line, size_t col)
{
	size_t off;

	if (line >= ix->nlines)
		return ix->len;
	off = ix->lines[line];
	if (!wg_pos_line_wide(ix, line)) {	/* a byte a character */
		off += col;
		return off < ix->len ? off : ix->len;
	}
	while (col-- > 0 && off < ix->len) {
		unsigned char c = (unsigned char)ix->data[off];

		off += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	}
	return off < ix->len ? off : ix->len;
}

size_t wg_pos_line_of(const struct wg_pos_index *ix, size_t off)
{
	size_t lo = 0, hi = ix->nlines;

	/* last line whose start is <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Whether byte off is on line l (what wg_pos_line_of() gives). */
bool wg_pos_on_line(const struct wg_pos_index *ix, size_t off, size_t l)
{
	return l < ix->nlines && ix->lines[l] <= off
	       && (l + 1 >= ix->nlines || off < ix->lines[l + 1]);
}

size_t wg_pos_line_near(const struct wg_pos_index *ix, size_t off,
			size_t hint)
{
	if (wg_pos_on_line(ix, off, hint))
		return hint;
	if (wg_pos_on_line(ix, off, hint + 1))
		return hint + 1;
	return wg_pos_line_of(ix, off);
}

size_t wg_pos_next_line(const struct wg_pos_index *ix, size_t off)
{
	size_t line = wg_pos_line_of(ix, off);

	return line + 1 < ix->nlines ? ix->lines[line + 1] : ix->len;
}

bool wg_pos_is_comment_line(const struct wg_pos_index *ix, size_t line)
{
	size_t off;

	if (line >= ix->nlines || ix->in_scalar[line])
		return false;
	off = ix->lines[line];
	while (off < ix->len && (ix->data[off] == ' ' || ix->data[off] == '\t'))
		off++;
	return off < ix->len && ix->data[off] == '#';
}

/* Marks count from the parsed text's first byte, the start of line
 * b->line0 (columns need no shift). */
/* The index's lines, before any event; none for a text too long to
 * index (returns false). */
bool wg_pos_index_start(struct wg_pos_index *ix, const char *data,
			size_t len)
{
	memset(ix, 0, sizeof(*ix));
	ix->data = data;
	ix->len = len;
	ix->on_heap = WG_POS_HEAP_ALL;
	wg_arena_init(&ix->arena);
	ix->doc_built = SIZE_MAX;
	if (len > WG_POS_MAX_TEXT)
		return false;
	index_lines(ix);
	ix->in_scalar = wg_xcalloc(ix->nlines, 1);
	return true;
}
