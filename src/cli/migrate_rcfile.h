#ifndef WINGEN_CLI_MIGRATE_RCFILE_H
#define WINGEN_CLI_MIGRATE_RCFILE_H

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/resource.h"

#include "migrate_streams.h"

/* Most objects a message names before "and N more". */
#define WG_RCFILE_NAMED 3

/*
 * migrate rewrites its RuntimeClass file with the RuntimeClasses of the
 * run; a run over part of a tree (one file, or the default profile
 * inferring another build from other images) must not drop one that
 * workloads migrated before name: the API server rejects a Pod whose
 * RuntimeClass does not exist.
 *
 * Reads in (the file as it is) into old, and appends to gen, after this
 * run's objects and in the file's order, each object of old that gen
 * does not hold again (the same API group, kind, namespace and name);
 * gen then points into old's trees, which must outlive its writing.
 * names gets "Kind/name" of the first WG_RCFILE_NAMED kept, and "and N
 * more".  Returns how many were kept, or -1 when in does not read as
 * YAML: an error on ctx at its place, since writing the file would lose
 * what it holds.
 */
long wg_rcfile_keep_earlier(struct wg_ctx *ctx, const struct wg_input *in,
			    struct wg_resources *gen, struct wg_resources *old,
			    struct wg_buf *names);

/*
 * One RuntimeClass file migrate writes: the run's (for files alone) or a
 * kustomize root's, then listed in its kustomization's resources: so
 * that kubectl kustomize includes it (migrate_streams.h).
 */
struct wg_rc_target {
	char *path;			/* owned */
	const char *kustomization;	/* the root's, or NULL */
	struct wg_resources gen;	/* what it gets: the run's generated
					   RuntimeClasses (borrowed), then
					   what it held and keeps */
	struct wg_resources old;	/* the file as it was, read */
	struct wg_buf text;		/* the new text */
	size_t count;			/* generated RuntimeClasses in it */
	char *old_text;			/* the file as it was, or NULL */
	size_t old_len;
	struct wg_file_meta meta;	/* what its read told */
	bool check;			/* old_text is what it holds (or it
					   is absent): replaced only if
					   still so */
	long kept;			/* objects it held that stay */
	struct wg_buf kept_names;	/* the first of them */
	struct wg_buf kust_text;	/* the kustomization listing it */
	char *kust_old;			/* the kustomization as it was */
	size_t kust_old_len;
	struct wg_file_meta kust_meta;
	bool kust_changes;		/* kust_text is to be written */
};

void wg_rc_target_init(struct wg_rc_target *t, const char *path,
		       const char *kustomization);
void wg_rc_target_release(struct wg_rc_target *t);

/* Adds res (a generated RuntimeClass, borrowed) unless t holds one of
 * its name already. */
void wg_rc_target_add(struct wg_rc_target *t, struct wg_resource *res);

/*
 * Makes t's new text from what it got and what the file holds (kept
 * unless generated again: wg_rcfile_keep_earlier()), and, for a root's
 * file, the kustomization that lists it (wg_kust_add_resource()).  A
 * target that got nothing is left as it is.  Returns 0, or -1 after an
 * error on ctx.
 */
int wg_rc_target_finish(struct wg_ctx *ctx, struct wg_rc_target *t);

/* Whether t's file is to be written (its text differs from the file). */
bool wg_rc_target_changes(const struct wg_rc_target *t);

/*
 * Where the generated RuntimeClasses of a run go (migrate_streams.h): a
 * kustomize root no root of the run builds gets those its stream needs
 * that the roots it builds do not list already, in ROOT/WG_RC_FILE its
 * kustomization is to list (none, with a warning, when it renames what
 * it builds); the files alone share run_file, less those a file alone
 * holds itself.  mf[0..n): the run's files, assigned their objects.
 * Each target is finished (wg_rc_target_finish()).  Returns how many, in
 * *out (release each, then free *out).
 */
size_t wg_rc_targets_make(struct wg_ctx *ctx, struct wg_mstreams *s,
			  const struct wg_migrate_file *mf, size_t n,
			  const char *run_file, struct wg_rc_target **out);

#endif
