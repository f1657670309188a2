#ifndef WINGEN_CLI_MIGRATE_STREAMS_H
#define WINGEN_CLI_MIGRATE_STREAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/index.h"
#include "wingen/base/input.h"
#include "wingen/migrate/migrate.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * What one stream is to migrate.  A repository is many apply streams,
 * not one: variants of an app (install.yaml beside ha/ and base/) hold
 * the same objects rendered several ways.  So each kustomize root (a
 * folder with a kustomization, and everything its resources:, bases:
 * and components: build, transitively) is one stream, and each file no
 * root builds is a stream alone.  Duplicates, Service-to-workload
 * matching and the RuntimeClasses needed are judged within a stream,
 * each file as build judges it when run on that stream alone
 * (docs/migrate.md).  A file several roots build (a base under its
 * overlays) is judged in each, and must come out the same: a later
 * stream that would change it again is an error naming both.
 *
 * Generated RuntimeClasses go, for a root no other root of the run
 * builds (an overlay, "top"), into ROOT/00-runtimeclasses.yaml, listed
 * in its kustomization's resources:, less those a root it builds already
 * lists (kustomize refuses an object twice, so a base two overlays build
 * gets none of its own); for a file alone (or a Component no root
 * builds), into the run's RuntimeClass file, less those another file of
 * the run holds.
 */

/* The name of the RuntimeClass file migrate owns in a folder. */
#define WG_RC_FILE "00-runtimeclasses.yaml"

struct wg_mstream {
	const char *root;	/* the root's folder; NULL: one file */
	const char *kustomization;	/* the root's kustomization */
	const char *rc_file;	/* root: ROOT/WG_RC_FILE */
	bool component;		/* kind: Component */
	bool top;		/* a root no other root of the run builds */
	bool images;		/* its kustomization changes images */
	bool renames;		/* it has a namePrefix or nameSuffix */
	bool lists_rc;		/* its kustomization lists rc_file */
	size_t *files;		/* the run's files it builds, in order */
	size_t nfiles;
	size_t *subs;		/* the roots it builds, transitively */
	size_t nsubs;
	/* the generated objects its chain left (RuntimeClasses), in the
	 * set's work list's arena */
	struct wg_resource **gen;
	size_t ngen;
};

struct wg_mstreams {
	struct wg_mstream *items;	/* roots first (by path), then files */
	size_t len, cap, nroots;
	struct wg_arena arena;
	struct wg_index *roots;	/* folder id -> stream index + 1 */
	struct wg_index *own;	/* file id -> 1: a kustomization, 2: a
				   root's RuntimeClass file */
	struct wg_buf key;	/* scratch */
	/* the list every chain runs on, one after another: its arena holds
	 * what they add (fan-out's copies, RuntimeClasses) to the end of
	 * the run, one arena for them all */
	struct wg_resources work;
	bool *alone;		/* per file of the run: a file alone */
	size_t nalone;
};

void wg_mstreams_init(struct wg_mstreams *s);
void wg_mstreams_release(struct wg_mstreams *s);

/*
 * The roots: each folder of a file of all (every file under the run's
 * PATHs) that has a kustomization, and each folder one of theirs builds
 * that has one (inside the PATHs or not), transitively.
 */
void wg_mstreams_roots(struct wg_mstreams *s, const struct wg_pathlist *all);

/* Whether the file whose id (wg_file_id()) is id is a root's
 * kustomization (1) or a root's RuntimeClass file (2): not an input. */
int wg_mstreams_own(struct wg_mstreams *s, const struct wg_buf *id);

/* The streams of the run's files (after its skips): each root's files,
 * then one stream per file no root builds. */
void wg_mstreams_make(struct wg_mstreams *s, char *const *files, size_t n);

/*
 * Runs p's chain on every stream, in order, over the objects of the
 * files it builds, on list's journal (wg_migrate_edits_begin() before,
 * _end() after, as for one chain).  mf[0..n) are the run's files, list
 * the objects read from them, in file order.  Diagnostics go to ctx, each
 * once; one at the profile (windows.select[0] matches no workload) only
 * when every stream said it.  Afterwards list holds each file's objects
 * as the last stream building it left them (objects the chain added
 * after one included), in file order.  Returns 0, or -1 when a plugin
 * gave up.
 */
int wg_mstreams_run(struct wg_mstreams *s, struct wg_ctx *ctx,
		    const struct wg_profile *p, struct wg_migrate_file *mf,
		    size_t n, struct wg_resources *list);

/*
 * The RuntimeClass names a root's RuntimeClass file holds, when the
 * root's kustomization lists it (so every root building that root gets
 * them): into names (keys, no values).
 */
void wg_mstreams_listed_rcs(struct wg_mstreams *s, size_t i,
			    struct wg_index *names);

#endif
