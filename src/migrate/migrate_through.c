/*
 * migrate --in-place writes each file's new text through a window to its
 * temporary (migrate_through.h): a 114 MB file's text held whole was
 * 114 MB of fresh memory to fault in, more than a third of what migrate
 * touched beyond build.
 */
#include "migrate_through.h"

#include <string.h>

#include "wingen/base/output.h"

static const char *skip_blanks(const char *c, const char *e)
{
	while (c < e && (*c == ' ' || *c == '\t' || *c == '\r'))
		c++;
	return c;
}

/* A "---" or "..." marker with nothing after it but a comment: "--- {}"
 * is a document, "---x" a scalar. */
static bool bare_marker(const char *c, const char *e)
{
	if (e - c < 3 || (memcmp(c, "---", 3) != 0 && memcmp(c, "...", 3) != 0))
		return false;
	c += 3;
	if (c < e && *c != ' ' && *c != '\t' && *c != '\r')
		return false;
	c = skip_blanks(c, e);
	return c == e || *c == '#';
}

bool wg_migrate_nothing_left(const char *text, size_t len)
{
	const char *c = text, *end = text + len;

	while (c < end) {
		const char *eol = memchr(c, '\n', (size_t)(end - c));
		const char *e = eol ? eol : end;

		c = skip_blanks(c, e);
		if (c < e && *c != '#' && !bare_marker(c, e))
			return false;
		c = eol ? eol + 1 : end;
	}
	return true;
}

void wg_through_begin(struct wg_migrate_file *f, struct wg_buf *window)
{
	wg_buf_release(&f->out);
	f->out = *window;
	f->out.len = 0;
	wg_buf_init(window);
	f->out_base = 0;
	f->out_same = true;
	f->out_content = false;
}

/* Appends new text to the temporary; at the first difference, the
 * temporary is made and gets the input's first out_base bytes first (the
 * new text up to there, not written while it was the same). */
static int write_new(struct wg_ctx *ctx, struct wg_migrate_file *f,
		     const char *text, size_t len)
{
	if (f->out_same) {
		f->out_same = false;
		if (wg_temp_open(ctx, &f->temp, f->in.name, &f->in.meta)
		    || wg_temp_write(ctx, &f->temp, f->in.data, f->out_base))
			return -1;
	}
	return wg_temp_write(ctx, &f->temp, text, len);
}

/* Whether the new text's next len bytes, text, are still the input's. */
static bool still_same(const struct wg_migrate_file *f, const char *text,
		       size_t len)
{
	/* an empty window may have no buffer at all: no memcmp of NULL */
	return f->out_same && f->out_base + len <= f->in.len
	       && (!len || memcmp(text, f->in.data + f->out_base, len) == 0);
}

int wg_through_flush(struct wg_ctx *ctx, struct wg_migrate_file *f)
{
	size_t n = f->out.len ? f->out.len - 1 : 0;
	int rc = 0;

	/* keep the last line: the text's end may still lose its break, and
	 * a line read whole is what wg_migrate_nothing_left() needs */
	while (n && f->out.buf[n - 1] != '\n')
		n--;
	if (!n)
		return 0;
	if (!f->out_content)
		f->out_content = !wg_migrate_nothing_left(f->out.buf, n);
	if (!still_same(f, f->out.buf, n))
		rc = write_new(ctx, f, f->out.buf, n);
	memmove(f->out.buf, f->out.buf + n, f->out.len - n);
	f->out.len -= n;
	f->out_base += n;
	return rc;
}

int wg_through_end(struct wg_ctx *ctx, struct wg_migrate_file *f,
		   struct wg_buf *window)
{
	int rc = 0;

	f->changed = !(still_same(f, f->out.buf, f->out.len)
		       && f->out_base + f->out.len == f->in.len);
	f->emptied = f->documents_deleted && !f->out_content
		     && wg_migrate_nothing_left(f->out.buf, f->out.len);
	if (f->changed && !f->emptied)
		rc = write_new(ctx, f, f->out.buf, f->out.len) == 0
		     && wg_temp_close(ctx, &f->temp) == 0 ? 0 : -1;
	else
		wg_temp_drop(&f->temp);	/* nothing to write, or the file goes */
	*window = f->out;
	window->len = 0;
	wg_buf_init(&f->out);
	return rc;
}
