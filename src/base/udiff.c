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
	add_range(out, '-', ops[s].i, na);
	wg_buf_addch(out, ' ');
	add_range(out, '+', ops[s].j, nb);
	wg_buf_addstr(out, " @@\n");
	for (size_t k = s; k < e; k++) {
		if (ops[k].type == '+')
			add_line(out, '+', &d->b.lines[ops[k].j]);
		else
			add_line(out, ops[k].type, &d->a.lines[ops[k].i]);
	}
}

/* Offset of line i in t (the text's length for i == n). */
static size_t line_off(const struct text *t, const char *base, size_t len,
		       long i)
{
	return i < t->n ? (size_t)(t->lines[i].s - base) : len;
}

/* The line that holds byte off (n for the end of the text). */
static long line_at(const struct text *t, const char *base, size_t len,
		    size_t off)
{
	long lo = 0, hi = t->n;	/* the answer is in [lo, hi] */

	if (off >= len)
		return t->n;
	while (lo < hi) {
		long mid = lo + (hi - lo + 1) / 2;

		if (line_off(t, base, len, mid) <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The first line after the lines that bytes [start, end) touch. */
static long line_after(const struct text *t, const char *base, size_t len,
		       size_t start, size_t end)
{
	long l = line_at(t, base, len, end);

	/* a region that ends inside a line (or an insertion inside one)
	 * changes that whole line */
	if (end < len && line_off(t, base, len, l) != end)
		return l + 1;
	if (end == start && end < len && line_off(t, base, len, l) != start)
		return l + 1;
	return l;
}

struct span {
	long a0, a1, b0, b1;
};

static bool gap_equal(const struct diff *d, const char *old, size_t old_len,
		      const char *new_, size_t new_len, long a0, long a1,
		      long b0, long b1)
{
	size_t x0 = line_off(&d->a, old, old_len, a0);
	size_t x1 = line_off(&d->a, old, old_len, a1);
	size_t y0 = line_off(&d->b, new_, new_len, b0);
	size_t y1 = line_off(&d->b, new_, new_len, b1);

	return a1 - a0 == b1 - b0 && x1 - x0 == y1 - y0
	       && memcmp(old + x0, new_ + y0, x1 - x0) == 0;
}

/*
 * Marks the changed lines looking only inside the regions, widened to
 * whole lines and merged where they touch.  False (nothing marked) when
 * the text between them differs.
 */
static bool compare_in(struct diff *d, const char *old, size_t old_len,
		       const char *new_, size_t new_len,
		       const struct wg_udiff_region *r, size_t n)
{
	struct span *sp = wg_xmalloc((n + 1) * sizeof(*sp));
	size_t ns = 0;
	long pa = 0, pb = 0;
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		struct span s;

		if (r[i].old_start > r[i].old_end || r[i].old_end > old_len
		    || r[i].new_start > r[i].new_end
		    || r[i].new_end > new_len) {
			ok = false;
			break;
		}
		s.a0 = line_at(&d->a, old, old_len, r[i].old_start);
		s.b0 = line_at(&d->b, new_, new_len, r[i].new_start);
		s.a1 = line_after(&d->a, old, old_len, r[i].old_start,
				  r[i].old_end);
		s.b1 = line_after(&d->b, new_, new_len, r[i].new_start,
				  r[i].new_end);
		if (s.a1 < s.a0)
			s.a1 = s.a0;
		if (s.b1 < s.b0)
			s.b1 = s.b0;
		if (ns && (s.a0 <= sp[ns - 1].a1 || s.b0 <= sp[ns - 1].b1)) {
			struct span *p = &sp[ns - 1];

			p->a1 = s.a1 > p->a1 ? s.a1 : p->a1;
			p->b1 = s.b1 > p->b1 ? s.b1 : p->b1;
		} else {
			sp[ns++] = s;
		}
	}
	for (size_t i = 0; ok && i <= ns; i++) {
		long a0 = i < ns ? sp[i].a0 : d->a.n;
		long b0 = i < ns ? sp[i].b0 : d->b.n;

		if (a0 < pa || b0 < pb
		    || !gap_equal(d, old, old_len, new_, new_len, pa, a0, pb,
				  b0))
			ok = false;
		else if (i < ns)
			pa = sp[i].a1, pb = sp[i].b1;
	}
	for (size_t i = 0; ok && i < ns; i++)
		compare(d, sp[i].a0, sp[i].a1, sp[i].b0, sp[i].b1);
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
	split(&d.a, old, old_len);
	split(&d.b, new_, new_len);
	if (!regions
	    || !compare_in(&d, old, old_len, new_, new_len, regions, n))
		compare(&d, 0, d.a.n, 0, d.b.n);
	hunks = write_hunks(out, &d, context);
	free(d.a.lines);
	free(d.a.changed);
	free(d.b.lines);
	free(d.b.changed);
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

	if (n)
		wg_buf_addf(out, "--- %s\n+++ %s\n%s", old_label, new_label,
			    hunks.buf);
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
