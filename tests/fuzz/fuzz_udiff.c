/*
 * fuzz_udiff: the unified-diff writer (base/udiff.h) behind build --diff
 * and migrate --diff.  The input is two texts, split at its first NUL
 * byte (no NUL: at its middle).
 *
 *  - equal texts give no hunk and append nothing;
 *  - the hunks, applied to the old text the way patch(1) reads them (each
 *    header's ranges counted, every context and removed line equal to
 *    the old text's, "\ No newline at end of file" after a last line
 *    without one), give exactly the new text;
 *  - the same holds for the search inside regions (wg_udiff_hunks_in)
 *    with the region the texts' common head and tail leave, as migrate
 *    passes, and with a region that is wrong (the whole diff then);
 *  - wg_udiff_labeled() writes its two labels and the same hunks;
 *  - never a crash, a hang or a leak.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "wingen/base/udiff.h"

/* The next line of s[*at..len), '\n' included when there is one. */
static bool next_line(const char *s, size_t len, size_t *at,
		      const char **line, size_t *n)
{
	const char *nl;

	if (*at >= len)
		return false;
	*line = s + *at;
	nl = memchr(*line, '\n', len - *at);
	*n = nl ? (size_t)(nl - *line) + 1 : len - *at;
	*at += *n;
	return true;
}

/* "@@ -a[,b] +c[,d] @@": 0, or -1 when the header is not one. */
static int header(const char *l, size_t n, unsigned long r[4])
{
	char *end;
	const char *p = l + 4;

	if (n < 12 || memcmp(l, "@@ -", 4) != 0)
		return -1;
	for (int k = 0; k < 2; k++) {
		r[2 * k] = strtoul(p, &end, 10);
		r[2 * k + 1] = 1;
		if (*end == ',')
			r[2 * k + 1] = strtoul(end + 1, &end, 10);
		p = end;
		if (k == 0 && strncmp(p, " +", 2) != 0)
			return -1;
		p += 2;
	}
	return strncmp(end, " @@\n", 4) == 0 ? 0 : -1;
}

/*
 * Applies the hunks of diff to old, appending the result to out.
 * Returns NULL, or what was wrong with the diff.
 */
static const char *apply(const char *old, size_t old_len, const char *diff,
			 size_t diff_len, struct wg_buf *out)
{
	size_t oat = 0, dat = 0, dn, on;
	const char *dl, *ol;
	unsigned long r[4], line = 1, nline = 1;

	while (next_line(diff, diff_len, &dat, &dl, &dn)) {
		unsigned long seen_old = 0, seen_new = 0;

		if (header(dl, dn, r))
			return "a hunk does not start with its header";
		/* an empty old range is numbered by the line before it */
		for (unsigned long to = r[1] ? r[0] : r[0] + 1; line < to;
		     line++, nline++) {
			if (!next_line(old, old_len, &oat, &ol, &on))
				return "a hunk starts past the old text";
			wg_buf_add(out, ol, on);
		}
		if (nline != (r[3] ? r[2] : r[2] + 1))
			return "a hunk's new start is not where the new text "
			       "is";
		while (seen_old < r[1] || seen_new < r[3]) {
			size_t keep;
			char op;

			if (!next_line(diff, diff_len, &dat, &dl, &dn) || dn < 2)
				return "a hunk ends before its ranges";
			op = dl[0];
			keep = dn - 1;
			/* a line the text ends without a '\n' */
			if (dat + 1 < diff_len && diff[dat] == '\\')
				keep--;
			if (op == ' ' || op == '-') {
				if (!next_line(old, old_len, &oat, &ol, &on)
				    || on != keep || memcmp(ol, dl + 1, on))
					return "a context or removed line is "
					       "not the old text's";
				line++;
				seen_old++;
			}
			if (op == ' ' || op == '+') {
				wg_buf_add(out, dl + 1, keep);
				nline++;
				seen_new++;
			}
			if (op != ' ' && op != '-' && op != '+')
				return "a hunk line is not context, removed "
				       "or added";
			if (keep < dn - 1) {
				size_t skip = dat;
				const char *m;

				next_line(diff, diff_len, &skip, &m, &dn);
				static const char nonl[] =
					"\\ No newline at end of file\n";

				if (dn != sizeof(nonl) - 1
				    || memcmp(m, nonl, sizeof(nonl) - 1))
					return "a bad '\\' line";
				dat = skip;
			}
		}
		if (seen_old != r[1] || seen_new != r[3])
			return "a hunk's lines do not add up to its ranges";
	}
	while (next_line(old, old_len, &oat, &ol, &on))
		wg_buf_add(out, ol, on);
	return NULL;
}

static void check(const char *what, const char *old, size_t old_len,
		  const char *new_, size_t new_len, const struct wg_buf *diff,
		  size_t hunks)
{
	struct wg_buf got = WG_BUF_INIT;
	const char *why = apply(old, old_len, diff->buf, diff->len, &got);
	size_t headers = 0;

	for (size_t i = 0; i + 2 < diff->len; i++)
		if ((i == 0 || diff->buf[i - 1] == '\n')
		    && memcmp(diff->buf + i, "@@ ", 3) == 0)
			headers++;
	if (why || got.len != new_len || (new_len && memcmp(got.buf, new_,
							     new_len)))
		fz_fail("%s: %s; the diff:\n%.*s", what,
			why ? why : "patching the old text does not give "
			"the new one", (int)diff->len, diff->buf ? diff->buf
								 : "");
	FZ_CHECK(headers == hunks, "%s: %zu hunks said, %zu written", what,
		 hunks, headers);
	FZ_CHECK((hunks == 0) == (old_len == new_len
				  && (!old_len || !memcmp(old, new_,
							  old_len))),
		 "%s: %zu hunks for texts that are %s", what, hunks,
		 hunks ? "equal" : "not equal");
	FZ_CHECK(hunks || diff->len == 0, "%s: bytes without a hunk", what);
	wg_buf_release(&got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t old_len = nul ? (size_t)(nul - text) : size / 2;
	const char *old = text, *new_ = text + old_len + (nul ? 1 : 0);
	size_t new_len = size - (size_t)(new_ - text);
	size_t head = 0, tail = 0, hunks, lh;
	struct wg_buf d = WG_BUF_INIT, l = WG_BUF_INIT;
	struct wg_udiff_region reg;
	unsigned context = size ? data[0] % 5 : 3;

	hunks = wg_udiff_hunks(&d, old, old_len, new_, new_len, context);
	check("wg_udiff_hunks", old, old_len, new_, new_len, &d, hunks);

	/* the region migrate would pass: all but the common head and tail */
	while (head < old_len && head < new_len && old[head] == new_[head])
		head++;
	while (tail < old_len - head && tail < new_len - head
	       && old[old_len - 1 - tail] == new_[new_len - 1 - tail])
		tail++;
	reg = (struct wg_udiff_region){ head, old_len - tail, head,
					new_len - tail };
	wg_buf_reset(&d);
	hunks = wg_udiff_hunks_in(&d, old, old_len, new_, new_len, &reg, 1,
				  context);
	check("wg_udiff_hunks_in", old, old_len, new_, new_len, &d, hunks);

	/* a wrong region: an empty one at the start */
	reg = (struct wg_udiff_region){ 0, 0, 0, 0 };
	wg_buf_reset(&d);
	hunks = wg_udiff_hunks_in(&d, old, old_len, new_, new_len, &reg, 1,
				  context);
	check("wg_udiff_hunks_in (a wrong region)", old, old_len, new_,
	      new_len, &d, hunks);

	wg_buf_reset(&d);
	hunks = wg_udiff_hunks(&d, old, old_len, new_, new_len, context);
	lh = wg_udiff_labeled(&l, "a/x", "b/x", old, old_len, new_, new_len,
			      context);
	FZ_CHECK(lh == hunks, "wg_udiff_labeled: %zu hunks, not %zu", lh,
		 hunks);
	if (hunks)
		FZ_CHECK(l.len == 16 + d.len
			 && memcmp(l.buf, "--- a/x\n+++ b/x\n", 16) == 0
			 && memcmp(l.buf + 16, d.buf, d.len) == 0,
			 "wg_udiff_labeled: not the labels and the hunks");
	else
		FZ_CHECK(l.len == 0, "wg_udiff_labeled: bytes for equal texts");
	wg_buf_release(&d);
	wg_buf_release(&l);
	return 0;
}
