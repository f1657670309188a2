#include "fuzz_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/output.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/scalar.h"

void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("wingen fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void fz_input(struct wg_input *in, const char *name, const uint8_t *data,
	      size_t size)
{
	memset(in, 0, sizeof(*in));	/* owned text, no meta: all zero */
	in->name = wg_xstrdup(name);
	in->data = wg_xmalloc(size + 1);
	if (size)
		memcpy(in->data, data, size);
	in->data[size] = '\0';
	in->len = size;
}

bool fz_has_positioned_error(const struct wg_ctx *ctx)
{
	for (size_t i = 0; i < ctx->log.ndiags; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		if (d->severity == WG_SEV_ERROR && d->file && d->line > 0
		    && d->message && *d->message)
			return true;
	}
	return false;
}

void fz_dump_log(const struct wg_ctx *ctx)
{
	wg_log_print(stderr, &ctx->log, WG_SEV_INFO);
}

/*
 * The type a scalar has for a reader: its tag, or what its text resolves
 * to when plain, or a string.  A timestamp counts as a string: go-yaml
 * keeps timestamp-like text a string when decoding into interface{} (as
 * kubectl does), and wingen's resolver takes any text starting with a
 * date as one.
 */
static int scalar_type(const struct wg_node *n, bool yaml12)
{
	enum wg_scalar_type t;

	if (wg_node_tag(n))
		return -1;	/* compared through the tag */
	if (n->style != WG_STYLE_PLAIN)
		return WG_TYPE_STR;
	t = yaml12 ? wg_resolve_yaml12(n->u.str, n->len)
		   : wg_resolve_yaml11(n->u.str, n->len);
	return t == WG_TYPE_TIMESTAMP ? WG_TYPE_STR : (int)t;
}

static bool same_tag(const struct wg_node *a, const struct wg_node *b)
{
	const char *ta = wg_node_tag(a), *tb = wg_node_tag(b);

	if (!ta || !tb)
		return ta == tb;
	return strcmp(ta, tb) == 0;
}

static const char *diff(const struct wg_node *a, const struct wg_node *b,
			bool in_flow, unsigned *line)
{
	bool fa, fb;
	size_t k;

	*line = wg_node_line(a) + 1;
	if (a->kind != b->kind)
		return "node kind changed";
	if (!same_tag(a, b))
		return "tag changed";
	if (a->kind == WG_NODE_SCALAR) {
		if (wg_node_is_null(a) && wg_node_is_null(b))
			return NULL;	/* "" may come back as "~" */
		if (a->len != b->len || memcmp(a->u.str, b->u.str, a->len))
			return "scalar text changed";
		if (a->style == b->style)
			return NULL;
		if (b->style != WG_STYLE_SINGLE && b->style != WG_STYLE_DOUBLE)
			return "scalar style changed to a non-quoted one";
		if (scalar_type(a, false) != scalar_type(b, false)
		    || scalar_type(a, true) != scalar_type(b, true))
			return "scalar style change changed its type";
		return NULL;
	}
	if (a->len != b->len)
		return "collection size changed";
	fa = a->flags & WG_NODE_FLOW;
	fb = b->flags & WG_NODE_FLOW;
	if (fa && !fb)
		return "flow collection came back in block style";
	if (!fa && fb && a->len && !in_flow)
		return "block collection came back in flow style";
	k = a->kind == WG_NODE_MAP ? 2 * (size_t)a->len : a->len;
	for (size_t i = 0; i < k; i++) {
		const char *why = diff(a->u.items[i], b->u.items[i],
				       in_flow || fa, line);

		if (why)
			return why;
	}
	return NULL;
}

const char *fz_tree_diff(const struct wg_node *a, const struct wg_node *b,
			 unsigned *line)
{
	*line = 0;
	if (!a || !b)
		return a == b ? NULL : "document missing";
	return diff(a, b, false, line);
}

static char tmpdir[64];

/* Removes the folder and the files the targets made in it. */
static void remove_tmpdir(void)
{
	struct wg_buf path = WG_BUF_INIT;
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		wg_buf_reset(&path);
		wg_buf_addf(&path, "%s/%s", tmpdir, e->d_name);
		unlink(path.buf);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
	wg_buf_release(&path);
}

bool fz_same_value(const struct wg_node *a, const struct wg_node *b)
{
	if (wg_node_is_null(a) && wg_node_is_null(b))
		return true;
	if (!a || !b || a->kind != b->kind || a->len != b->len
	    || !same_tag(a, b))
		return false;
	if (a->kind == WG_NODE_SCALAR)
		return memcmp(a->u.str, b->u.str, a->len) == 0
		       && scalar_type(a, false) == scalar_type(b, false);
	if (a->kind == WG_NODE_SEQ) {
		for (size_t i = 0; i < a->len; i++)
			if (!fz_same_value(a->u.items[i], b->u.items[i]))
				return false;
		return true;
	}
	for (size_t i = 0; i < a->len; i++) {
		const struct wg_node *k = wg_map_key(a, i);
		long j = wg_map_findn(b, k->u.str, k->len);

		if (j < 0 || !fz_same_value(wg_map_value(a, i),
					    wg_map_value(b, (size_t)j)))
			return false;
	}
	return true;
}

const char *fz_tmpdir(void)
{
	char *dir = tmpdir;

	if (!dir[0]) {
		const char *base = getenv("TMPDIR");

		snprintf(dir, sizeof(tmpdir), "%s/wingen-fuzz-XXXXXX",
			 base && strlen(base) < 32 ? base : "/tmp");
		if (!mkdtemp(dir))
			fz_fail("cannot make a temporary folder: %s",
				strerror(errno));
		atexit(remove_tmpdir);
	}
	return dir;
}

void fz_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || wg_write_all(fd, data, len) != 0 || close(fd) != 0)
		fz_fail("cannot write %s: %s", path, strerror(errno));
}

char *fz_read_file(const char *path, size_t *len)
{
	struct wg_buf b = WG_BUF_INIT;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fz_fail("cannot open %s: %s", path, strerror(errno));
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		wg_buf_add(&b, chunk, (size_t)n);
	if (n < 0)
		fz_fail("cannot read %s: %s", path, strerror(errno));
	close(fd);
	return wg_buf_detach(&b, len);
}
