#ifndef WINGEN_OUTPUT_H
#define WINGEN_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"

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

/*
 * A destination written in pieces, for output too large to hold twice in
 * memory.  Open it only once the run is known to have succeeded: what is
 * written to stdout cannot be taken back.  A regular file goes to a
 * temporary file until wg_out_commit().
 */
struct wg_out {
	int fd;
	int dirfd;	/* the folder of the file replaced at commit, or -1 */
	char *path;	/* its name there; NULL: stdout or in place */
	char *tmp;	/* the temporary file, NULL when writing in place */
	const char *name;	/* for messages */
	int status;	/* WG_OUT_* of the first failure */
};

/* Opens path ("-" or NULL: stdout).  Returns a WG_OUT_* code. */
int wg_out_open(struct wg_ctx *ctx, struct wg_out *out, const char *path);
/* Appends data.  After a failure, does nothing and returns the status. */
int wg_out_write(struct wg_ctx *ctx, struct wg_out *out, const void *data,
		 size_t len);
/* Finishes: fsync and rename a temporary file.  Returns a WG_OUT_* code;
 * on failure nothing replaces the target. */
int wg_out_commit(struct wg_ctx *ctx, struct wg_out *out);
/* Gives up: removes the temporary file, if any. */
void wg_out_abort(struct wg_out *out);

/* Writes data to path ("-" or NULL: stdout).  Returns a WG_OUT_* code. */
int wg_output_write(struct wg_ctx *ctx, const char *path, const void *data,
		    size_t len);

/* Writes all of data to fd, retrying short writes and EINTR. 0, -1 (errno).
 * (write_all.c) */
int wg_write_all(int fd, const void *data, size_t len);

/*
 * One file's replacement written ahead, in pieces, for
 * wg_output_replace_all(): migrate writes each file's new text while it
 * makes it, instead of holding every file's text in memory until the run
 * has succeeded.  wg_temp_open() creates the temporary next to path (a
 * symlink resolved, the file's mode kept), wg_temp_write() appends to it
 * and wg_temp_close() closes it, unsynced.  wg_output_replace_all() then
 * syncs and renames it with the others, or removes it when anything
 * fails; wg_temp_drop() removes it instead.  Until then it is tracked
 * like every temporary (removed on exit and on SIGINT/SIGTERM).  Each
 * returns 0, or -1 reported on ctx (the temporary is then removed).
 * Zero the struct before the first use.
 */
struct wg_temp {
	char *target;	/* the file replaced; NULL: none open */
	char *tmp;	/* the temporary; NULL: none (dropped, or handed on) */
	int fd;		/* open while tmp is written; -1 once closed */
	bool failed;	/* a write failed: the run is to fail */
	struct wg_file_meta meta;	/* the file replaced, as read */
};

/* meta: what a read of path told (its mode and filesystem: no stat of
 * path then), or NULL. */
int wg_temp_open(struct wg_ctx *ctx, struct wg_temp *t, const char *path,
		 const struct wg_file_meta *meta);
int wg_temp_write(struct wg_ctx *ctx, struct wg_temp *t, const void *data,
		  size_t len);
int wg_temp_close(struct wg_ctx *ctx, struct wg_temp *t);
void wg_temp_drop(struct wg_temp *t);

/*
 * Atomically replaces several files: every temp file is written first and
 * the renames happen only when all writes succeeded.  Used by migrate.
 * Files marked remove are deleted after every rename succeeded (migrate:
 * a file whose every object was dropped).  A file given as temp (closed
 * by wg_temp_close()) is taken over: its temporary is renamed or removed
 * here, and temp left empty.
 *
 * An update with check set is the run's edit of what it read: just
 * before the first rename, every such path must still be the file read
 * (meta, or the temp's: the same inode, size and modification and change
 * times) holding old (old_len bytes; compared when the times cannot tell:
 * meta unknown, or the file changed in the second before it was read),
 * and have one link (a hard-linked file would be split by the rename);
 * old NULL: the path did not exist and still must not.  Otherwise
 * nothing is written: an error names the file that changed.  Just before
 * each rename, its times and inode are looked at again.
 *
 * The renames run with SIGINT, SIGTERM and SIGHUP held (cleanup.h): a
 * signal then acts once every file is replaced.  A rename that fails
 * midway is an error that also names the files already replaced.
 * Paths in a tree of ctx->guard are reached without following a link
 * (treeguard.h).
 * Returns 0 or -1 (reported; no file changed unless a rename itself fails).
 */
struct wg_file_update {
	const char *path;
	const void *data;
	size_t len;
	bool remove;	/* delete path instead of writing it */
	struct wg_temp *temp;	/* written ahead: data and len unused */
	bool check;	/* path must still be what the run read (above) */
	const char *old;	/* what it held, NULL: it did not exist */
	size_t old_len;
	struct wg_file_meta meta;	/* when not temp: what its read told */
};
int wg_output_replace_all(struct wg_ctx *ctx,
			  const struct wg_file_update *files, size_t n);

/*
 * Scratch files and folders in $TMPDIR (default /tmp), for a program run
 * on them (chart migrate's values file and copy of a chart, rendered by
 * helm): PREFIX-XXXXXX, mode 0700 or 0600, each registered for removal
 * before it is made (cleanup.h), so a signal or an exit at any moment
 * leaves none.  Each returns the path (NULL reported on ctx), which the
 * matching remove function removes and frees.
 */
char *wg_scratch_dir_make(struct wg_ctx *ctx, const char *prefix);
void wg_scratch_dir_remove(char *path);	/* with all it holds */
char *wg_scratch_file_write(struct wg_ctx *ctx, const char *prefix,
			    const void *data, size_t len);
void wg_scratch_file_remove(char *path);

#endif
