/*
 * Unified diff: Myers' shortest edit script in linear space (the "middle
 * snake" bisection), then hunks in the format GNU diff and git write.
 */
#include "wingen/base/udiff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

struct line {
	const char *s;
	size_t len;	/* with its '\n', when it has one */
	uint64_t hash;
};

struct text {
	struct line *lines;
	long n;
	char *changed;	/* per line: deleted (old) or inserted (new) */
};

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603u;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static void split(struct text *t, const char *s, size_t len)
{
	size_t cap = 0, start = 0;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '\n')
			continue;
		if (i == len && start == len)
			break;	/* no unterminated last line */
		WG_GROW(t->lines, cap, (size_t)t->n + 1);
		t->lines[t->n].s = s + start;
		t->lines[t->n].len = i - start + (i < len);
		t->lines[t->n].hash = hash(s + start, t->lines[t->n].len);
		t->n++;
		start = i + 1;
	}
	t->changed = wg_xcalloc((size_t)t->n + 1, 1);
}

struct diff {
	struct text a, b;
	long a_base, b_base;	/* line numbers of a's and b's first lines
				   in the whole texts (a window's) */
};

static bool same(const struct diff *d, long i, long j)
{
	const struct line *x = &d->a.lines[i], *y = &d->b.lines[j];

	return x->hash == y->hash && x->len == y->len
	       && memcmp(x->s, y->s, x->len) == 0;
}

static void compare(struct diff *d, long a0, long a1, long b0, long b1);

/*
 * Finds the middle snake of a[a0, a0+n) and b[b0, b0+m) by searching
 * forward from the start and backward from the end at once, and diffs the
 * two halves on either side of it.  (Myers 1986, section 4b.)
 */
static void bisect(struct diff *d, long a0, long n, long b0, long m)
{
	long max_d = (n + m + 1) / 2, off = max_d, vlen = 2 * max_d + 2;
	long delta = n - m, k1start = 0, k1end = 0, k2start = 0, k2end = 0;
	bool front = delta % 2 != 0;
	long *v1 = wg_xmalloc((size_t)vlen * 2 * sizeof(long)), *v2 = v1 + vlen;

	for (long i = 0; i < vlen; i++)
		v1[i] = v2[i] = -1;
	v1[off + 1] = v2[off + 1] = 0;
	for (long e = 0; e < max_d; e++) {
		/* Forward paths of e edits. */
		for (long k = -e + k1start; k <= e - k1end; k += 2) {
			long ko = off + k, x, y;

			if (k == -e || (k != e && v1[ko - 1] < v1[ko + 1]))
				x = v1[ko + 1];
			else
				x = v1[ko - 1] + 1;
			y = x - k;
			while (x < n && y < m && same(d, a0 + x, b0 + y))
				x++, y++;
			v1[ko] = x;
			if (x > n) {
				k1end += 2;
			} else if (y > m) {
				k1start += 2;
			} else if (front) {
				long k2o = off + delta - k;

				if (k2o >= 0 && k2o < vlen && v2[k2o] != -1
				    && x >= n - v2[k2o]) {
					free(v1);
					compare(d, a0, a0 + x, b0, b0 + y);
					compare(d, a0 + x, a0 + n, b0 + y,
						b0 + m);
					return;
				}
			}
		}
		/* Backward paths of e edits (x, y count from the ends). */
		for (long k = -e + k2start; k <= e - k2end; k += 2) {
			long ko = off + k, x, y;

			if (k == -e || (k != e && v2[ko - 1] < v2[ko + 1]))
				x = v2[ko + 1];
			else
				x = v2[ko - 1] + 1;
			y = x - k;
			while (x < n && y < m
			       && same(d, a0 + n - x - 1, b0 + m - y - 1))
				x++, y++;
			v2[ko] = x;
			if (x > n) {
				k2end += 2;
			} else if (y > m) {
				k2start += 2;
			} else if (!front) {
				long k1o = off + delta - k;

				if (k1o >= 0 && k1o < vlen && v1[k1o] != -1) {
					long x1 = v1[k1o];
					long y1 = off + x1 - k1o;

					if (x1 >= n - x) {
						free(v1);
						compare(d, a0, a0 + x1, b0,
							b0 + y1);
						compare(d, a0 + x1, a0 + n,
							b0 + y1, b0 + m);
						return;
					}
				}
			}
		}
	}
	/* Nothing in common. */
	free(v1);
	memset(d->a.changed + a0, 1, (size_t)n);
	memset(d->b.changed + b0, 1, (size_t)m);
}

static void compare(struct diff *d, long a0, long a1, long b0, long b1)
{
	while (a0 < a1 && b0 < b1 && same(d, a0, b0))
		a0++, b0++;
	while (a0 < a1 && b0 < b1 && same(d, a1 - 1, b1 - 1))
		a1--, b1--;
	if (a0 == a1) {
		memset(d->b.changed + b0, 1, (size_t)(b1 - b0));
	} else if (b0 == b1) {
		memset(d->a.changed + a0, 1, (size_t)(a1 - a0));
	} else if (a1 - a0 == 1 && b1 - b0 == 1) {
		d->a.changed[a0] = d->b.changed[b0] = 1;
	} else {
		bisect(d, a0, a1 - a0, b0, b1 - b0);
	}
}

/* One line of the edit script: ' ', '-' or '+', with the line numbers
 * (0-based) of both texts at that point. */
struct op {
	char type;
	long i, j;
};

static void add_line(struct wg_buf *out, char type, const struct line *l)
{
	wg_buf_addch(out, type);
	wg_buf_add(out, l->s, l->len);
	if (!l->len || l->s[l->len - 1] != '\n')
		wg_buf_addstr(out, "\n\\ No newline at end of file\n");
}

static void add_range(struct wg_buf *out, char sign, long start, long count)
{
	/* GNU and git: ",1" left out; an empty range names the line before. */
	if (count == 1)
		wg_buf_addf(out, "%c%ld", sign, start + 1);
	else
		wg_buf_addf(out, "%c%ld,%ld", sign, count ? start + 1 : start,
			    count);
}

static void add_hunk(struct wg_buf *out, const struct diff *d,
		     const struct op *ops, size_t s, size_t e)
{
	long na = 0, nb = 0;

	for (size_t k = s; k < e; k++) {
		na += ops[k].type != '+';
		nb += ops[k].type != '-';
	}
	wg_buf_addstr(out, "@@ ");
	add_range(out, '-', d->a_base + ops[s].i, na);
	wg_buf_addch(out, ' ');
	add_range(out, '+', d->b_base + ops[s].j, nb);
	wg_buf_addstr(out, " @@\n");
	for (size_t k = s; k < e; k++) {
		if (ops[k].type == '+')
			add_line(out, '+', &d->b.lines[ops[k].j]);
		else
			add_line(out, ops[k].type, &d->a.lines[ops[k].i]);
	}
}

static size_t write_hunks(struct wg_buf *out, const struct diff *d,
			  unsigned context);

static void diff_release(struct diff *d)
{
	free(d->a.lines);
	free(d->a.changed);
	free(d->b.lines);
	free(d->b.changed);
}

/*
 * A text walked forward by byte offset, counting lines as split() does
 * (a line ends with '\n'; a last line without one counts too), with no
 * array of lines: the region diff holds only the lines of its windows.
 */
struct walk {
	const char *s;
	size_t len;
	size_t at;	/* start of line `line` */
	long line;
};

static void walk_init(struct walk *w, const char *s, size_t len)
{
	w->s = s;
	w->len = len;
	w->at = 0;
	w->line = 0;
}

/* Start of the line after the one starting at off (len at the end). */
static size_t next_line(const struct walk *w, size_t off)
{
	const char *nl = off < w->len ? memchr(w->s + off, '\n', w->len - off)
				      : NULL;

	return nl ? (size_t)(nl - w->s) + 1 : w->len;
}

/* Moves to the line that holds byte off (off >= the current line's
 * start); off == len gives the line count and len. */
static void walk_to(struct walk *w, size_t off)
{
	for (;;) {
		size_t next = next_line(w, w->at);

		if (w->at >= w->len || next > off)
			return;
		if (next == w->len && off < w->len)
			return;
		w->at = next;
		w->line++;
	}
}

/* Where a region's lines start and end in one text: [l0, l1) and their
 * bytes [x0, x1). */
struct side {
	long l0, l1;
	size_t x0, x1;
};

/* The lines bytes [start, end) touch, start no earlier than the walk:
 * an end (or an insertion) inside a line takes that whole line. */
static void region_lines(struct walk *w, size_t start, size_t end,
			 struct side *out)
{
	walk_to(w, start);
	out->l0 = w->line;
	out->x0 = w->at;
	walk_to(w, end);
	out->l1 = w->line;
	out->x1 = w->at;
	if (w->at < w->len && w->at != end) {
		out->l1++;
		out->x1 = next_line(w, w->at);
	}
	if (out->l1 < out->l0) {
		out->l1 = out->l0;
		out->x1 = out->x0;
	}
}

/* Moves [l, x) back by up to n lines from a line start x. */
static void back_lines(const char *s, long *l, size_t *x, unsigned n)
{
	for (; n && *x; n--) {
		size_t i = *x - 1;	/* the '\n' ending the line before */

		while (i && s[i - 1] != '\n')
			i--;
		*x = i;
		(*l)--;
	}
}

/* Moves a line start x (line l) on by up to n lines. */
static void on_lines(const struct walk *w, long *l, size_t *x, unsigned n)
{
	for (; n && *x < w->len; n--) {
		*x = next_line(w, *x);
		(*l)++;
	}
}

struct span {
	struct side a, b;
};

/* Diffs a run of spans as one window: their lines and context lines
 * around them, split alone; appends its hunks and returns how many. */
static size_t diff_window(struct wg_buf *out, const struct walk *wa,
			  const struct walk *wb, const struct span *sp,
			  size_t n, unsigned context)
{
	struct diff d;
	long la = sp[0].a.l0, lb = sp[0].b.l0;
	size_t xa = sp[0].a.x0, xb = sp[0].b.x0, ya, yb, hunks;
	long ea = sp[n - 1].a.l1, eb = sp[n - 1].b.l1;

	/* the gaps are equal, so as many context lines on both sides */
	back_lines(wa->s, &la, &xa, context);
	back_lines(wb->s, &lb, &xb, (unsigned)(sp[0].a.l0 - la));
	ya = sp[n - 1].a.x1;
	yb = sp[n - 1].b.x1;
	on_lines(wa, &ea, &ya, context);
	on_lines(wb, &eb, &yb, (unsigned)(ea - sp[n - 1].a.l1));
	split(&d.a, wa->s + xa, ya - xa);
	split(&d.b, wb->s + xb, yb - xb);
	d.a_base = la;
	d.b_base = lb;
	for (size_t i = 0; i < n; i++)
		compare(&d, sp[i].a.l0 - la, sp[i].a.l1 - la, sp[i].b.l0 - lb,
			sp[i].b.l1 - lb);
	hunks = write_hunks(out, &d, context);
	diff_release(&d);
	return hunks;
}

/* Whether bytes [x0, x1) of old and [y0, y1) of new_ (lines [l0, l1)
 * and [m0, m1)) are the same lines. */
static bool gap_equal(const char *old, size_t x0, size_t x1, long l0,
		      long l1, const char *new_, size_t y0, size_t y1,
		      long m0, long m1)
{
	return l1 - l0 == m1 - m0 && x1 - x0 == y1 - y0
	       && memcmp(old + x0, new_ + y0, x1 - x0) == 0;
}

/*
 * The diff searched only inside the regions, widened to whole lines and
 * merged where they touch, each run of spans closer than 2 * context lines
 * diffed as one window (so the hunks are those a diff of the whole texts
 * with the same marks would write).  Memory follows the windows, not the
 * texts.  false (nothing appended) when the text between the regions
 * differs: the caller diffs the whole texts.
 */
static bool hunks_in(struct wg_buf *out, const char *old, size_t old_len,
		     const char *new_, size_t new_len,
		     const struct wg_udiff_region *r, size_t n,
		     unsigned context, size_t *hunks)
{
	struct span *sp = wg_xmalloc((n + 1) * sizeof(*sp));
	struct walk wa, wb;
	size_t ns = 0;
	long pa = 0, pb = 0;
	size_t px = 0, py = 0;
	bool ok = true;

	walk_init(&wa, old, old_len);
	walk_init(&wb, new_, new_len);
	for (size_t i = 0; ok && i < n; i++) {
		struct span s;

		if (r[i].old_start > r[i].old_end || r[i].old_end > old_len
		    || r[i].new_start > r[i].new_end
		    || r[i].new_end > new_len || r[i].old_start < wa.at
		    || r[i].new_start < wb.at) {
			ok = false;
			break;
		}
		region_lines(&wa, r[i].old_start, r[i].old_end, &s.a);
		region_lines(&wb, r[i].new_start, r[i].new_end, &s.b);
		if (ns && (s.a.l0 <= sp[ns - 1].a.l1
			   || s.b.l0 <= sp[ns - 1].b.l1)) {
			struct span *p = &sp[ns - 1];

			if (s.a.l1 > p->a.l1)
				p->a.l1 = s.a.l1, p->a.x1 = s.a.x1;
			if (s.b.l1 > p->b.l1)
				p->b.l1 = s.b.l1, p->b.x1 = s.b.x1;
		} else {
			sp[ns++] = s;
		}
	}
	/* every gap, and the text after the last span, the same */
	for (size_t i = 0; ok && i <= ns; i++) {
		struct side ea, eb;

		if (i < ns) {
			ea = sp[i].a;
			eb = sp[i].b;
		} else {
			walk_to(&wa, old_len);
			walk_to(&wb, new_len);
			ea.l0 = wa.line + (wa.at < old_len);
			eb.l0 = wb.line + (wb.at < new_len);
			ea.x0 = old_len;
			eb.x0 = new_len;
		}
		if (ea.l0 < pa || eb.l0 < pb
		    || !gap_equal(old, px, ea.x0, pa, ea.l0, new_, py, eb.x0,
				  pb, eb.l0))
			ok = false;
		else if (i < ns)
			pa = sp[i].a.l1, pb = sp[i].b.l1, px = sp[i].a.x1,
			py = sp[i].b.x1;
	}
	*hunks = 0;
	for (size_t i = 0, j; ok && i < ns; i = j) {
		for (j = i + 1; j < ns
		     && sp[j].a.l0 - sp[j - 1].a.l1 <= 2 * (long)context; j++)
			;
		*hunks += diff_window(out, &wa, &wb, sp + i, j - i, context);
	}
	free(sp);
	return ok;
}

/* The hunks of the marked lines. */
static size_t write_hunks(struct wg_buf *out, const struct diff *d,
			  unsigned context)
{
	struct op *ops;
	size_t nops = 0, hunks = 0, k = 0;
	long i = 0, j = 0;

	ops = wg_xmalloc(((size_t)d->a.n + (size_t)d->b.n + 1) * sizeof(*ops));
	while (i < d->a.n || j < d->b.n) {
		struct op *o = &ops[nops++];

		o->i = i;
		o->j = j;
		if (i < d->a.n && d->a.changed[i]) {
			o->type = '-';
			i++;
		} else if (j < d->b.n && d->b.changed[j]) {
			o->type = '+';
			j++;
		} else {
			o->type = ' ';
			i++;
			j++;
		}
	}
	/* A hunk: its changes with context lines around them; changes at
	 * most 2 * context lines apart share one. */
	while (k < nops) {
		size_t s, e, last;

		while (k < nops && ops[k].type == ' ')
			k++;
		if (k == nops)
			break;
		s = k > context ? k - context : 0;
		last = k;
		for (e = k + 1; e < nops; e++) {
			if (ops[e].type != ' ')
				last = e;
			else if (e - last > 2 * (size_t)context)
				break;
		}
		e = last + 1 + context < nops ? last + 1 + context : nops;
		add_hunk(out, d, ops, s, e);
		hunks++;
		k = e;
	}
	free(ops);
	return hunks;
}

size_t wg_udiff_hunks_in(struct wg_buf *out, const char *old, size_t old_len,
			 const char *new_, size_t new_len,
			 const struct wg_udiff_region *regions, size_t n,
			 unsigned context)
{
	struct diff d;
	size_t hunks;

	if (!old)
		old = "", old_len = 0;
	if (!new_)
		new_ = "", new_len = 0;
	if (regions && hunks_in(out, old, old_len, new_, new_len, regions, n,
				context, &hunks))
		return hunks;
	split(&d.a, old, old_len);
	split(&d.b, new_, new_len);
	d.a_base = d.b_base = 0;
	compare(&d, 0, d.a.n, 0, d.b.n);
	hunks = write_hunks(out, &d, context);
	diff_release(&d);
	return hunks;
}

size_t wg_udiff_hunks(struct wg_buf *out, const char *old, size_t old_len,
		      const char *new_, size_t new_len, unsigned context)
{
	return wg_udiff_hunks_in(out, old, old_len, new_, new_len, NULL, 0,
				 context);
}

size_t wg_udiff_labeled(struct wg_buf *out, const char *old_label,
			const char *new_label, const char *old, size_t old_len,
			const char *new_, size_t new_len, unsigned context)
{
	struct wg_buf hunks = WG_BUF_INIT;
	size_t n = wg_udiff_hunks(&hunks, old, old_len, new_, new_len,
				  context);

	/* the hunks as bytes: a text may hold a NUL (found by fuzz_udiff) */
	if (n) {
		wg_buf_addf(out, "--- %s\n+++ %s\n", old_label, new_label);
		wg_buf_add(out, hunks.buf, hunks.len);
	}
	wg_buf_release(&hunks);
	return n;
}

void wg_udiff_in(struct wg_buf *out, const char *name, const char *old,
		 size_t old_len, const char *new_, size_t new_len,
		 const struct wg_udiff_region *regions, size_t n,
		 unsigned context)
{
	struct wg_buf hunks = WG_BUF_INIT;

	if (!wg_udiff_hunks_in(&hunks, old, old_len, new_, new_len, regions,
			       n, context)
	    && (old != NULL) == (new_ != NULL)) {
		wg_buf_release(&hunks);
		return;
	}
	wg_buf_addf(out, "diff --git a/%s b/%s\n", name, name);
	if (!old)
		wg_buf_addf(out, "new file mode 100644\n--- /dev/null\n"
			    "+++ b/%s\n", name);
	else if (!new_)
		wg_buf_addf(out, "deleted file mode 100644\n--- a/%s\n"
			    "+++ /dev/null\n", name);
	else
		wg_buf_addf(out, "--- a/%s\n+++ b/%s\n", name, name);
	wg_buf_add(out, hunks.buf, hunks.len);
	wg_buf_release(&hunks);
}

void wg_udiff(struct wg_buf *out, const char *name, const char *old,
	      size_t old_len, const char *new_, size_t new_len,
	      unsigned context)
{
	wg_udiff_in(out, name, old, old_len, new_, new_len, NULL, 0, context);
}
