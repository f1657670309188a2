#ifndef WINGEN_INPUT_H
#define WINGEN_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/ctx.h"

/*
 * Input files and folders.
 *
 * An input is the whole content of one file (or stdin) in memory: the
 * reader points scalars straight into it where it can, and error positions
 * are computed from it.  Folders expand to their *.yaml, *.yml and *.json
 * files, recursively, in byte order of their paths.
 */

/* What stdin is called in every message, every command alike (kubectl's
 * and kustomize's "-" reads as a typo in "-:3:1: error"). */
#define WG_STDIN_NAME "<stdin>"

/*
 * What a read told of a regular file: its permission bits and the
 * filesystem it is on, so a temporary that replaces it needs no stat of
 * its own (output.h, wg_temp_open()), and which file it was, so a file
 * changed since it was read is not replaced (wg_output_replace_all()).
 * known is false for stdin, a pipe or a device.
 */
struct wg_file_meta {
	bool known;
	unsigned mode;		/* st_mode & 07777 */
	uint64_t dev;		/* st_dev */
	uint64_t ino;		/* st_ino */
	uint64_t size;		/* st_size */
	uint64_t nlink;		/* st_nlink */
	int64_t mtime_ns, ctime_ns;	/* st_mtim, st_ctim */
	int64_t read_ns;	/* the clock when it was read (CLOCK_REALTIME):
				   a change in the same tick as the read can
				   keep the times, so the bytes are compared */
};

#define WG_FILE_META_NONE { false, 0, 0, 0, 0, 0, 0, 0, 0 }

struct stat;
/* meta of the file st describes, read now. */
void wg_file_meta_of(struct wg_file_meta *meta, const struct stat *st);

struct wg_input {
	char *name;	/* path as given, or WG_STDIN_NAME; owned unless
			   borrowed */
	char *data;	/* content, NUL-terminated; owned unless borrowed */
	size_t len;
	size_t mapped;	/* 0: data is malloc'd; else the length of the
			   private file mapping data is (release with
			   wg_input_release, take with wg_input_take_data) */
	struct wg_file_meta meta;
	bool borrowed;	/* name, and data unless mapped, live in the
			   arena given to wg_input_read_in(): not freed
			   here */
};

/*
 * Reads path ("-" for stdin, then named WG_STDIN_NAME) into in.  Errors
 * (missing, unreadable, a folder, a FIFO or device that is not a
 * descriptor's name (wg_path_names_fd()), over limits.max_input_bytes,
 * a NUL byte in a stream) are reported on ctx as "path: error: ..." and
 * return -1, before any read could wait; in is then empty.
 */
int wg_input_read(struct wg_ctx *ctx, const char *path, struct wg_input *in);

/*
 * As wg_input_read(), with a regular file's text allocated in arena (it
 * lives as long as arena: in->borrowed): for a run over thousands of
 * files that holds every text to its end, whose texts in the heap, each
 * read between one file's parse and the next, left it in pieces that
 * every later malloc walked (bench/README.md).  Its name is there too.
 * A file large enough to be mapped is mapped all the same.
 */
struct wg_arena;
int wg_input_read_in(struct wg_ctx *ctx, const char *path,
		     struct wg_arena *arena, struct wg_input *in);

/* Reads from an open file descriptor; name is used for messages. */
int wg_input_read_fd(struct wg_ctx *ctx, int fd, const char *name,
		     struct wg_input *in);

/*
 * Whether path names an open file descriptor: /dev/stdin (stdout,
 * stderr), /dev/fd/N, /proc/PID/fd/N.  Such a path may be a pipe and is
 * read (or written) as one; any other path that is neither a regular
 * file nor a folder (a FIFO, a device) is refused before a read could
 * wait on it.
 */
bool wg_path_names_fd(const char *path);

void wg_input_release(struct wg_input *in);

/* in's data as a malloc'd NUL-terminated string the caller owns (a copy
 * when it was mapped); in->data is NULL afterwards. */
char *wg_input_take_data(struct wg_input *in);

/* What stdin is, for the notes a command gives about it. */
enum wg_stdin_kind {
	WG_STDIN_EMPTY,		/* /dev/null, closed, a pipe or file with no
				 * data waiting: nothing to say */
	WG_STDIN_TERMINAL,	/* a person would have to type the input */
	WG_STDIN_DATA,		/* a pipe with bytes waiting, or a file with
				 * bytes after the offset */
};

/*
 * Looks at stdin without reading it.  A pipe counts as data only when
 * bytes already wait in it (FIONREAD): a writer that has written nothing
 * yet, or a runner's empty pipe, is WG_STDIN_EMPTY, so a warning built on
 * this can be missed but is never wrong.
 */
enum wg_stdin_kind wg_stdin_kind(void);

/*
 * A list of paths (owned strings).
 */
struct wg_pathlist {
	char **items;
	size_t len, cap;
};

void wg_pathlist_add(struct wg_pathlist *list, const char *path);
void wg_pathlist_release(struct wg_pathlist *list);

/*
 * Expands path into files: a file or "-" is added as is; a folder adds its
 * *.yaml, *.yml and *.json files, recursively, sorted.  Hidden entries
 * (starting with '.') are skipped.  A symlink loop, a missing path or an
 * over-long path is an error on ctx (returns -1).
 */
int wg_collect_files(struct wg_ctx *ctx, const char *path,
		     struct wg_pathlist *out);

/*
 * As wg_collect_files(), under the load restrictor: root is a resolved
 * folder (realpath), and a symbolic link met in the walk that resolves
 * outside it is an error (path itself is the caller's to check).  NULL
 * root: no restriction.
 */
int wg_collect_files_within(struct wg_ctx *ctx, const char *path,
			    const char *root, struct wg_pathlist *out);

/* 1-based line and column of a byte offset in data (columns in characters). */
void wg_offset_position(const char *data, size_t len, size_t offset,
			unsigned *line, unsigned *col);

#endif
