/*
 * Output of one command: stdout, or --output-file written through a
 * temporary beside it and renamed over it (output.h).  Files replaced in
 * sets (migrate) are replace.c's.
 */
#define _GNU_SOURCE

#include "wingen/base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/cleanup.h"

static int write_fd(struct wg_ctx *ctx, int fd, const char *name,
		    const void *data, size_t len)
{
	if (wg_write_all(fd, data, len) == 0)
		return WG_OUT_OK;
	if (errno == EPIPE)
		return WG_OUT_EPIPE;
	wg_report_at(ctx, WG_SEV_ERROR, name, 0, 0, "cannot write: %s",
		     strerror(errno));
	return WG_OUT_ERROR;
}

/*
 * True when path must be written in place: it exists and is not a regular
 * file, or it reaches one through a file descriptor's name (/dev/stdout
 * redirected to a file, maybe through symbolic links of its own).  Renaming
 * over such a file would drop what the shell opened, e.g. a log appended
 * to with >>.
 */
static bool special_file(const char *path)
{
	char cur[PATH_MAX], link[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return true;
	if (strlen(path) >= sizeof(cur))
		return false;
	strcpy(cur, path);
	for (int hop = 0; hop < 40; hop++) {
		ssize_t n;

		if (wg_path_names_fd(cur))
			return true;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return false;
		link[n] = '\0';
		if (link[0] != '/') {
			char *copy = wg_xstrdup(cur);
			int len = snprintf(cur, sizeof(cur), "%s/%s",
					   dirname(copy), link);

			free(copy);
			if (len < 0 || (size_t)len >= sizeof(cur))
				return false;
		} else {
			memcpy(cur, link, (size_t)n + 1);
		}
	}
	return false;
}

int wg_out_open(struct wg_ctx *ctx, struct wg_out *out, const char *path)
{
	struct wg_place place;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->dirfd = -1;
	if (!path || strcmp(path, "-") == 0) {
		out->fd = STDOUT_FILENO;
		out->name = "stdout";
		return WG_OUT_OK;
	}
	out->name = path;
	if (special_file(path)) {
		/* /dev/stdout, /dev/full, a FIFO: write in place. */
		out->fd = open(path, O_WRONLY | O_CLOEXEC | O_APPEND);
		if (out->fd < 0) {
			wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				     "cannot open: %s", strerror(errno));
			return out->status = WG_OUT_ERROR;
		}
		return WG_OUT_OK;
	}
	if (wg_place_open(ctx, path, &place))
		return out->status = WG_OUT_ERROR;
	out->fd = wg_temp_create(ctx, &place, path, NULL, &out->tmp);
	if (out->fd < 0) {
		wg_place_close(&place);
		return out->status = WG_OUT_ERROR;
	}
	out->dirfd = place.dirfd;
	out->path = place.leaf;		/* the place's: ours now */
	place.dirfd = -1;
	place.leaf = NULL;
	wg_place_close(&place);
	return WG_OUT_OK;
}

int wg_out_write(struct wg_ctx *ctx, struct wg_out *out, const void *data,
		 size_t len)
{
	if (out->status)
		return out->status;
	out->status = write_fd(ctx, out->fd, out->name, data, len);
	return out->status;
}

/* Drops the temporary (written or not). */
static void drop(struct wg_out *out)
{
	if (out->fd >= 0)
		close(out->fd);
	unlinkat(out->dirfd, wg_temp_leaf(out->tmp), 0);
	wg_cleanup_untrack(out->tmp);
	out->tmp = NULL;
	out->fd = -1;
}

static void release(struct wg_out *out)
{
	if (out->dirfd >= 0)
		close(out->dirfd);
	out->dirfd = -1;
	free(out->path);
	out->path = NULL;
}

int wg_out_commit(struct wg_ctx *ctx, struct wg_out *out)
{
	int rc = out->status;

	if (rc) {
		wg_out_abort(out);
		return rc;
	}
	if (out->tmp) {
		int err = fsync(out->fd) != 0 ? errno : 0;

		if (close(out->fd) != 0 && !err)
			err = errno;
		out->fd = -1;
		if (!err && renameat(out->dirfd, wg_temp_leaf(out->tmp),
				     out->dirfd, out->path) == 0) {
			wg_cleanup_untrack(out->tmp);
			out->tmp = NULL;
		} else {
			wg_report_at(ctx, WG_SEV_ERROR, out->name, 0, 0,
				     err ? "cannot write: %s"
					 : "cannot replace the file: %s",
				     strerror(err ? err : errno));
			drop(out);
			rc = WG_OUT_ERROR;
		}
	} else if (out->fd != STDOUT_FILENO && close(out->fd) != 0) {
		wg_report_at(ctx, WG_SEV_ERROR, out->name, 0, 0,
			     "cannot write: %s", strerror(errno));
		rc = WG_OUT_ERROR;
	}
	out->fd = -1;
	release(out);
	return rc;
}

void wg_out_abort(struct wg_out *out)
{
	if (out->tmp)
		drop(out);
	else if (out->fd > STDOUT_FILENO)
		close(out->fd);
	out->fd = -1;
	release(out);
}

int wg_output_write(struct wg_ctx *ctx, const char *path, const void *data,
		    size_t len)
{
	struct wg_out out;

	if (wg_out_open(ctx, &out, path))
		return out.status;
	wg_out_write(ctx, &out, data, len);
	return wg_out_commit(ctx, &out);
}

