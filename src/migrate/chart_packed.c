/*
 * Packed subcharts' unpacked size, checked before helm sees the chart: a
 * charts/NAME.tgz of a few megabytes can unpack to gigabytes (a gzip
 * bomb), and helm reads every file of it into memory (the real Helm went
 * to 23 GB).  Each archive is inflated as a stream, its tar walked as it
 * comes, nothing kept but the packed charts it holds (NAME/charts/X.tgz,
 * which helm unpacks too, each checked in turn), so wingen's own memory
 * stays within the limit whatever the archive claims.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/migrate/chart.h"

#define BLOCK 512
#define MAX_NESTED 8	/* packed charts inside packed charts */
#define MAX_NAME 65536	/* a PAX or GNU long name */

/* An octal tar header field; -1 when it is not one. */
static long long octal(const unsigned char *f, size_t n)
{
	long long v = 0;
	size_t i = 0;

	while (i < n && (f[i] == ' ' || f[i] == '\0'))
		i++;
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

/* Whether name (len bytes) is a packed chart helm unpacks: X.tgz in a
 * folder named charts. */
static bool packed_chart(const char *name, size_t len)
{
	const char *end = name + len, *base = end;

	while (base > name && base[-1] != '/')
		base--;
	if (end - base < 5 || memcmp(end - 4, ".tgz", 4) != 0)
		return false;
	return base - name >= 7 && memcmp(base - 7, "charts/", 7) == 0
	       && (base - name == 7 || base[-8] == '/');
}

/* The walk of one archive's tar, fed as it is inflated. */
struct walk {
	unsigned char hdr[BLOCK];
	size_t hdr_len;
	unsigned long long left;	/* bytes of the entry still to come */
	size_t pad;			/* then this many of padding */
	int keep;		/* 0 skip the entry, 'n' a long name, 'c' a
				   packed chart */
	struct wg_buf body;	/* what is kept of the entry */
	struct wg_buf name;	/* the next entry's long name */
	bool ended;		/* the end blocks met */
};

static int scan(const char *data, size_t len, size_t *budget,
		unsigned depth, const char **why);

/* A whole entry kept: a long name for the next, or a chart to scan. */
static int entry_done(struct walk *w, size_t *budget, unsigned depth,
		      const char **why)
{
	int rc = 0;

	if (w->keep == 'n') {
		wg_buf_reset(&w->name);
		if (w->hdr[156] == 'L') {
			/* an empty one has no buffer (found by fuzz_tgz) */
			if (w->body.len)
				wg_buf_add(&w->name, w->body.buf,
					   strnlen(w->body.buf, w->body.len));
		} else if (w->body.len) {	/* PAX records: "N path=NAME\n" */
			const char *p = w->body.buf, *e = p + w->body.len;

			while (p < e) {
				char *end;
				long n = strtol(p, &end, 10);

				if (n <= 0 || n > e - p || *end != ' ')
					break;
				if (p + n - (end + 1) > 5
				    && memcmp(end + 1, "path=", 5) == 0) {
					wg_buf_add(&w->name, end + 6,
						   (size_t)(p + n - 1 - end - 6));
					break;
				}
				p += n;
			}
		}
	} else if (w->keep == 'c') {
		rc = scan(w->body.buf, w->body.len, budget, depth + 1, why);
	}
	wg_buf_reset(&w->body);
	w->keep = 0;
	return rc;
}

/* A header block read: what its entry is and whether to keep it. */
static int header(struct walk *w, const char **why)
{
	const unsigned char *h = w->hdr;
	char type = (char)h[156];
	char name[256 + 2];
	size_t nl;
	long long size;

	for (size_t i = 0; i < BLOCK && !h[i]; i++)
		if (i == BLOCK - 1) {
			w->ended = true;	/* the end: zero blocks */
			return 0;
		}
	size = octal(h + 124, 12);
	if (size < 0) {
		*why = "a tar entry's size is not octal";
		return -1;
	}
	w->left = (unsigned long long)size;
	w->pad = (BLOCK - (size_t)(size % BLOCK)) % BLOCK;
	if (type == 'x' || type == 'L') {
		if (size > MAX_NAME) {
			*why = "a tar entry's long name is too long";
			return -1;
		}
		w->keep = 'n';
		return 0;
	}
	if (w->name.len) {
		nl = w->name.len;
		w->keep = (type == '0' || type == '\0' || type == '7')
			  && packed_chart(w->name.buf, nl) ? 'c' : 0;
		wg_buf_reset(&w->name);
		return 0;
	}
	nl = 0;
	if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
		size_t pl = strnlen((const char *)h + 345, 155);

		memcpy(name, h + 345, pl);
		name[pl] = '/';
		nl = pl + 1;
	}
	memcpy(name + nl, h, strnlen((const char *)h, 100));
	nl += strnlen((const char *)h, 100);
	w->keep = (type == '0' || type == '\0' || type == '7')
		  && packed_chart(name, nl) ? 'c' : 0;
	return 0;
}

/* Feeds n inflated bytes to the walk. */
static int feed(struct walk *w, const unsigned char *p, size_t n,
		size_t *budget, unsigned depth, const char **why)
{
	while (n && !w->ended) {
		size_t k;

		if (w->left) {
			k = n < w->left ? n : (size_t)w->left;
			if (w->keep)
				wg_buf_add(&w->body, p, k);
			w->left -= k;
		} else if (w->pad) {
			k = n < w->pad ? n : w->pad;
			w->pad -= k;
		} else {
			k = BLOCK - w->hdr_len < n ? BLOCK - w->hdr_len : n;
			memcpy(w->hdr + w->hdr_len, p, k);
			w->hdr_len += k;
			if (w->hdr_len == BLOCK) {
				w->hdr_len = 0;
				if (header(w, why))
					return -1;
			}
		}
		p += k;
		n -= k;
		if (w->keep && !w->left && !w->hdr_len
		    && entry_done(w, budget, depth, why))
			return -1;
	}
	return 0;
}

/* Inflates data, every byte counted against *budget, walking its tar. */
static int scan(const char *data, size_t len, size_t *budget,
		unsigned depth, const char **why)
{
	static const char *const too_big = "it unpacks to more than the "
		"limit of a packed chart (WINGEN_LIMITS chart-bytes)";
	unsigned char out[1 << 16];
	struct walk w;
	z_stream z;
	int zr = Z_OK, rc = 0;

	if (depth > MAX_NESTED) {
		*why = "packed charts nest deeper than 8 levels";
		return -1;
	}
	memset(&w, 0, sizeof(w));
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		*why = "cannot start zlib";
		return -1;
	}
	z.next_in = (Bytef *)data;
	for (;;) {
		size_t got, rest = len - (size_t)(z.next_in
						  - (const Bytef *)data);

		/* gzip members one after another read as one stream (Go's
		 * gzip reader, helm's, does so): a bomb may hide in the
		 * second */
		if (zr == Z_STREAM_END) {
			if (!rest || inflateReset(&z) != Z_OK)
				break;
			zr = Z_OK;
		}
		if (rc)
			break;
		z.avail_in = (uInt)(rest > (1u << 30) ? (1u << 30) : rest);
		z.next_out = out;
		z.avail_out = sizeof(out);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			*why = "it is not a gzip stream (or it is cut short)";
			rc = -1;
			break;
		}
		got = sizeof(out) - z.avail_out;
		if (got > *budget) {
			*why = too_big;
			rc = -1;
			break;
		}
		*budget -= got;
		rc = feed(&w, out, got, budget, depth, why);
	}
	inflateEnd(&z);
	wg_buf_release(&w.body);
	wg_buf_release(&w.name);
	return rc;
}

int wg_tgz_check_size(const char *data, size_t len, size_t max,
		      const char **why)
{
	size_t budget = max;

	*why = NULL;
	return scan(data, len, &budget, 0, why);
}

/* Reads a whole file; NULL when it cannot (helm then says why). */
static char *slurp(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct wg_buf b = WG_BUF_INIT;
	char chunk[1 << 16];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && b.len <= max)
		wg_buf_add(&b, chunk, n);
	fclose(f);
	return wg_buf_detach(&b, len);
}

/* The packed charts under dir/charts, and in its chart folders' own
 * charts/, to depth. */
static int check_dir(struct wg_ctx *ctx, const char *dir, unsigned depth)
{
	struct wg_buf path = WG_BUF_INIT;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	wg_buf_addf(&path, "%s/charts", dir);
	d = depth <= MAX_NESTED ? opendir(path.buf) : NULL;
	while (d && rc == 0 && (e = readdir(d))) {
		size_t base = path.len, n = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		wg_buf_addf(&path, "/%s", e->d_name);
		if (stat(path.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = check_dir(ctx, path.buf, depth + 1);
		} else if (S_ISREG(st.st_mode) && n > 4
			   && strcmp(e->d_name + n - 4, ".tgz") == 0) {
			size_t len, max = ctx->limits.max_chart_bytes;
			char *data = slurp(path.buf, max, &len);
			const char *why;

			if (data && len > max)
				rc = wg_report_at(ctx, WG_SEV_ERROR, path.buf,
						  0, 0, "the packed chart is "
						  "larger than the limit of "
						  "%zu bytes (WINGEN_LIMITS "
						  "chart-bytes)", max);
			else if (data && wg_tgz_check_size(data, len, max,
							   &why))
				rc = wg_report_at(ctx, WG_SEV_ERROR, path.buf,
						  0, 0, "the packed chart is "
						  "refused before helm reads "
						  "it: %s (%zu bytes)", why,
						  max);
			free(data);
		}
		path.len = base;
		path.buf[base] = '\0';
	}
	if (d)
		closedir(d);
	wg_buf_release(&path);
	return rc;
}

int wg_chart_check_packed(struct wg_ctx *ctx, const char *dir)
{
	return check_dir(ctx, dir, 0);
}
