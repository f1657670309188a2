/*
 * Packed charts: a subchart committed as charts/NAME-VERSION.tgz (what
 * `helm package` and `helm dependency build` write) is a gzip'd tar
 * whose entries are NAME/Chart.yaml, NAME/values.yaml, NAME/templates/...
 * Chart migration reads its templates and values from memory, never
 * unpacking anything to disk.  The tar forms read are the ones Go's
 * archive/tar writes (ustar, with PAX "path" records for long names) and
 * GNU long names; links, devices and folders are skipped.  The unpacked
 * size is bounded by the caller's limit, so a gzip bomb is an error, not
 * an exhausted memory.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "wingen/base/alloc.h"
#include "wingen/migrate/chart.h"

#define BLOCK 512

/* data (len bytes, gzip) unpacked into out, at most max bytes. */
static int gunzip(const char *data, size_t len, size_t max,
		  struct wg_buf *out, const char **why)
{
	z_stream z;
	int zr = Z_OK;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip stream only */
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		*why = "cannot start zlib";
		return -1;
	}
	z.next_in = (Bytef *)data;
	for (;;) {
		size_t chunk = 1 << 16;
		size_t rest = len - (size_t)(z.next_in - (const Bytef *)data);

		/* gzip members one after another are one stream, as Go's
		 * gzip reader (helm's) reads them */
		if (zr == Z_STREAM_END) {
			if (!rest || inflateReset(&z) != Z_OK)
				break;
			zr = Z_OK;
		}
		z.avail_in = (uInt)(rest > (1u << 30) ? (1u << 30) : rest);
		if (out->len + chunk > max + 1)
			chunk = max + 1 - out->len;
		if (!chunk) {
			*why = "it unpacks to more than the input size limit "
			       "(WINGEN_LIMITS input-bytes)";
			inflateEnd(&z);
			return -1;
		}
		wg_buf_grow(out, chunk);
		z.next_out = (Bytef *)out->buf + out->len;
		z.avail_out = (uInt)chunk;
		zr = inflate(&z, Z_NO_FLUSH);
		out->len += chunk - z.avail_out;
		if (zr != Z_OK && zr != Z_STREAM_END) {
			*why = "it is not a gzip stream (or it is cut short)";
			inflateEnd(&z);
			return -1;
		}
		if (out->len > max) {
			*why = "it unpacks to more than the input size limit "
			       "(WINGEN_LIMITS input-bytes)";
			inflateEnd(&z);
			return -1;
		}
	}
	inflateEnd(&z);
	return 0;
}

/* An octal header field; -1 when it is not one. */
static long long octal(const char *f, size_t n)
{
	long long v = 0;
	size_t i = 0;

	while (i < n && (f[i] == ' ' || f[i] == '\0'))
		i++;
	if (i == n)
		return 0;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (1LL << 40))
			return -1;
		v = v * 8 + (f[i] - '0');
	}
	for (; i < n; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	return v;
}

/* The "path=" record of PAX extended header data, or NULL. */
static char *pax_path(const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		char *e;
		long n = strtol(p, &e, 10);
		const char *rec = p, *kv;

		if (n <= 0 || n > end - p || *e != ' ')
			return NULL;
		kv = e + 1;
		if (rec + n - kv > 5 && memcmp(kv, "path=", 5) == 0
		    && rec[n - 1] == '\n')
			return wg_xstrndup(kv + 5, (size_t)(rec + n - 1 - kv - 5));
		p += n;
	}
	return NULL;
}

static void add_file(struct wg_tgz *t, char *path, const char *data,
		     size_t len)
{
	struct wg_tgz_file *f;

	WG_GROW(t->files, t->cap, t->len + 1);
	f = &t->files[t->len++];
	f->path = path;
	f->data = wg_xstrndup(data, len);
	f->len = len;
}

int wg_tgz_read(const char *data, size_t len, size_t max, struct wg_tgz *out,
		const char **why)
{
	struct wg_buf tar = WG_BUF_INIT;
	char *next_name = NULL;
	size_t off = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (gunzip(data, len, max, &tar, why))
		goto done;
	while (off + BLOCK <= tar.len) {
		const char *h = tar.buf + off;
		long long size;
		char type = h[156];
		size_t body = off + BLOCK, padded;
		char *name;

		if (h[0] == '\0') {
			rc = 0;		/* the end: zero blocks */
			goto done;
		}
		size = octal(h + 124, 12);
		if (size < 0 || (size_t)size > tar.len - body) {
			*why = "a tar entry's size is not octal or runs past "
			       "the end";
			goto done;
		}
		padded = ((size_t)size + BLOCK - 1) / BLOCK * BLOCK;
		if (type == 'x' || type == 'L') {
			free(next_name);
			next_name = type == 'x'
				? pax_path(tar.buf + body, (size_t)size)
				: wg_xstrndup(tar.buf + body,
					      strnlen(tar.buf + body,
						      (size_t)size));
		} else if (type == '0' || type == '\0' || type == '7') {
			if (next_name) {
				name = next_name;
				next_name = NULL;
			} else if (memcmp(h + 257, "ustar", 5) == 0
				   && h[345]) {
				size_t pl = strnlen(h + 345, 155);
				size_t nl = strnlen(h, 100);

				name = wg_xmalloc(pl + nl + 2);
				memcpy(name, h + 345, pl);
				name[pl] = '/';
				memcpy(name + pl + 1, h, nl);
				name[pl + nl + 1] = '\0';
			} else {
				name = wg_xstrndup(h, strnlen(h, 100));
			}
			add_file(out, name, tar.buf + body, (size_t)size);
		} else {
			/* a folder, a link, a global PAX header: nothing */
			free(next_name);
			next_name = NULL;
		}
		if (padded > tar.len - body)
			break;
		off = body + padded;
	}
	/* a tar cut short of its end blocks still lists what it holds */
	rc = out->len ? 0 : -1;
	if (rc)
		*why = "it holds no file (not a tar archive?)";
done:
	free(next_name);
	wg_buf_release(&tar);
	if (rc)
		wg_tgz_release(out);
	return rc;
}

void wg_tgz_release(struct wg_tgz *t)
{
	for (size_t i = 0; i < t->len; i++) {
		free(t->files[i].path);
		free(t->files[i].data);
	}
	free(t->files);
	memset(t, 0, sizeof(*t));
}
