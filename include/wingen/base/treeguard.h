#ifndef WINGEN_TREEGUARD_H
#define WINGEN_TREEGUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"

/*
 * The trees a run edits in place (migrate's PATHs, a chart folder), and
 * the one rule for writing into them: a file is written only where its
 * path, from the PATH that holds it, meets no symbolic link.  The PATH
 * itself is the user's and may be a link (to a folder, or as a file
 * PATH, to the file's folder); below it, a folder link, a link in the
 * file's own place, or a ".." is refused, naming the link, so a tree
 * never leads a write outside what the user gave (kustomize's load
 * restrictor keeps reads in the same way).  A path in no tree (the
 * user's --runtimeclass-file, --output-file) is not guarded: it is the
 * user's own, links and all.
 *
 * Owned by the caller; it outlives every write of the run (ctx->guard
 * points to it while the run writes).
 */
struct wg_tree_guard;

/*
 * Guards the trees paths[0..n) (files or folders, as given; one that
 * does not exist is left out: reading it says so), and takes their
 * advisory locks (flock) for as long as the guard lives: each tree
 * exclusive when write (the run replaces files in it), else shared, and
 * every folder above a tree shared.  So two runs conflict exactly when
 * one writes a tree that the other reads or writes (the same, or one
 * inside the other), and the second fails at once, before it reads a
 * file: NULL with an error on ctx naming the locked file or folder.
 * Locks are advisory: they keep out other wingen runs (and any program
 * that takes flock), not an editor.  Take the guard before reading.
 */
struct wg_tree_guard *wg_tree_guard_open(struct wg_ctx *ctx,
					 char *const *paths, size_t n,
					 bool write);
void wg_tree_guard_free(struct wg_tree_guard *g);

/*
 * Where path is to be written: *dirfd, its folder opened (O_PATH-like,
 * for *at() calls; the caller closes it), and *leaf, its last component
 * (a pointer into path).  When a tree of g holds path, the folders below
 * the tree's PATH are opened one at a time without following a link,
 * and the leaf is checked not to be one (it may not exist yet).
 * Returns 1 for a path in a tree, 0 for a path in none (*dirfd -1: the
 * caller treats it as the user's own), -1 with an error on ctx naming
 * the link (or the folder that cannot be opened).  g may be NULL (0).
 */
int wg_tree_guard_place(struct wg_ctx *ctx, const struct wg_tree_guard *g,
			const char *path, int *dirfd, const char **leaf);

#endif
