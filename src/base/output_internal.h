#ifndef WINGEN_OUTPUT_INTERNAL_H
#define WINGEN_OUTPUT_INTERNAL_H

/*
 * Shared by output.c (stdout, --output-file) and replace.c (files
 * replaced in sets: migrate): where a file is written, and its temporary
 * beside it (tempfile.c).
 */
#include <stdbool.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"

/*
 * Where a file is written: its folder, open for *at() calls, and its
 * name there.  A path in a tree of ctx->guard is reached without
 * following a link (treeguard.h); any other is the user's own: a
 * symbolic link in its place is followed, so its target is replaced and
 * the link stays.
 */
struct wg_place {
	int dirfd;
	char *dir;	/* the folder's path, for the temporary's name */
	char *leaf;	/* the file's name in it */
	bool guarded;	/* in a tree of ctx->guard */
};

/* 0, or -1 reported on ctx (a link in a tree, a folder that cannot be
 * opened). */
int wg_place_open(struct wg_ctx *ctx, const char *path, struct wg_place *p);
void wg_place_close(struct wg_place *p);

/*
 * Creates a temporary file in p's folder, ".LEAF.wingen-XXXXXX", with the
 * mode of the file it replaces (meta's when known, else its own; the
 * umask default for a new file).  Its name is registered for removal
 * before it is created (cleanup.h).  Returns its fd and sets *tmp, the
 * registered name (wg_cleanup_untrack() frees it), or -1 reported on ctx
 * against path.
 */
int wg_temp_create(struct wg_ctx *ctx, const struct wg_place *p,
		   const char *path, const struct wg_file_meta *meta,
		   char **tmp);

/* The last component of a temporary's name (a pointer into tmp). */
const char *wg_temp_leaf(const char *tmp);

#endif
