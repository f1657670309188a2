#ifndef WINGEN_OUTPUT_H
#define WINGEN_OUTPUT_H

#include <stddef.h>

#include "wingen/ctx.h"

/*
 * Writing results: all or nothing.
 *
 * Commands render their whole output in memory first and call these only
 * when the run succeeded, so stdout never sees half a stream.  A regular
 * file is replaced atomically: a temporary file in the same folder, fsync,
 * rename, with the old file's mode kept.  Anything else (a device such as
 * /dev/stdout or /dev/full, a FIFO) is written in place, never renamed over.
 * Temporary files are removed on error, exit and SIGINT/SIGTERM.
 */

enum {
	WG_OUT_OK = 0,
	WG_OUT_ERROR = -1,	/* reported on ctx */
	WG_OUT_EPIPE = -2,	/* reader went away: stop quietly */
};

/* Writes data to path ("-" or NULL: stdout).  Returns a WG_OUT_* code. */
int wg_output_write(struct wg_ctx *ctx, const char *path, const void *data,
		    size_t len);

/* Writes all of data to fd, retrying short writes and EINTR. 0, -1 (errno). */
int wg_write_all(int fd, const void *data, size_t len);

/*
 * Atomically replaces several files: every temp file is written first and
 * the renames happen only when all writes succeeded.  Used by migrate.
 * Returns 0 or -1 (reported; no file changed unless a rename itself fails).
 */
struct wg_file_update {
	const char *path;
	const void *data;
	size_t len;
};
int wg_output_replace_all(struct wg_ctx *ctx,
			  const struct wg_file_update *files, size_t n);

/* Installs the SIGINT/SIGTERM/atexit cleanup of temporary files. */
void wg_output_install_cleanup(void);

#endif
