/*
 * wingen migrate: run the same chain as build over manifest files, then
 * write the changes back into the files as text edits that keep comments
 * and layout (--in-place), or print them as a unified diff (--diff).
 * All or nothing: on any error no file is written and nothing printed.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "migrate_chart.h"
#include "migrate_rcfile.h"
#include "migrate_streams.h"
#include "options.h"
#include "wingen/base/alloc.h"
#include "wingen/base/fileid.h"
#include "wingen/base/index.h"
#include "wingen/migrate/migrate.h"
#include "wingen/migrate/chart.h"
#include "wingen/base/output.h"
#include "wingen/base/treeguard.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"
#include "wingen/base/udiff.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/kustomize_refs.h"
#include "wingen/k8s/podspec.h"

struct migrate_opts {
	struct wg_pathlist args;	/* [PROFILE] PATH... */
	const char *rc_file;
	struct wg_profile_opts popts;
	struct wg_pathlist retarget;	/* --retarget OLD=NEW */
	struct wg_migrate_opts mopts;
	bool in_place, diff, strict;
	bool check;		/* --check: --diff printing no diff */
	unsigned jobs;		/* threads loading the files (--jobs) */
	const char *values_out, *helm;	/* charts: docs/helm.md */
	struct wg_pathlist helm_args;
	struct wg_pathlist values, set, set_string;	/* -f, --set... */
};

static int parse(int argc, char **argv, struct migrate_opts *o)
{
	const struct wg_opt opts[] = {
		{ "in-place", 0, WG_OPT_FLAG, &o->in_place, NULL },
		{ "diff", 0, WG_OPT_FLAG, &o->diff, NULL },
		{ "check", 0, WG_OPT_FLAG, &o->check, NULL },
		{ "reformat-fallback", 0, WG_OPT_FLAG,
		  &o->mopts.reformat_fallback, NULL },
		{ "runtimeclass-file", 0, WG_OPT_STRING, &o->rc_file, NULL },
		{ "strict", 0, WG_OPT_FLAG, &o->strict, NULL },
		{ "jobs", 'j', WG_OPT_JOBS, &o->jobs, NULL },
		{ "values-out", 0, WG_OPT_STRING, &o->values_out, NULL },
		{ "helm", 0, WG_OPT_STRING, &o->helm, NULL },
		{ "helm-arg", 0, WG_OPT_PATHS, &o->helm_args, NULL },
		{ "values", 'f', WG_OPT_FILES, &o->values, NULL },
		{ "recursive", 'R', WG_OPT_IGNORED, NULL, NULL },
		{ "kustomize", 'k', WG_OPT_KUSTOMIZE, NULL, NULL },
		{ "set", 0, WG_OPT_PATHS, &o->set, NULL },
		{ "set-string", 0, WG_OPT_PATHS, &o->set_string, NULL },
		WG_OPTS_PROFILE(&o->popts),
		WG_OPT_RETARGET(&o->retarget),
		WG_OPT_END,
	};
	int rc;

	o->jobs = wg_cli_default_jobs();
	rc = wg_parse_options("migrate", argc, argv, opts, &o->args);

	WG_RETARGET_SET(&o->popts, &o->retarget);
	if (rc)
		return rc;
	if (o->in_place + o->diff + o->check + (o->values_out != NULL) != 1)
		return wg_usage_error("migrate", "give exactly one of "
				      "--in-place, --diff, --check and "
				      "--values-out");
	/* --check is --diff that prints no diff: the same run, the same
	 * "would" lines, the same exit status */
	o->diff = o->diff || o->check;
	/* "-" first is the PROFILE, read from stdin; a PATH is a file */
	for (size_t i = 1; i < o->args.len; i++)
		if (strcmp(o->args.items[i], "-") == 0)
			return wg_usage_error("migrate", "migrate edits files; "
					      "it cannot read stdin ('-')");
	if (!o->args.len)
		return wg_usage_error("migrate", "no PATH given");
	if (strcmp(o->args.items[0], "-") == 0 && o->args.len == 1)
		return wg_usage_error("migrate", "PROFILE '-' reads the profile "
				      "from stdin; give the PATHs to migrate "
				      "after it");
	return 0;
}

/*
 * Whether the first argument is meant as the PROFILE, not a manifest: its
 * first document is a mapping whose apiVersion is in wingen's group, or
 * whose kind reads "Profile" in any case, or which has no kind and keys of
 * a profile's (windows, linux, transforms).  A file so meant is loaded as
 * the profile and any fault in it is an error: taking a "kind: profile"
 * for a manifest and running the embedded default instead rewrote a repo
 * for a build nobody asked for.
 */
static bool is_profile(const char *path)
{
	struct wg_ctx scratch;
	struct wg_input in;
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_reader r;
	struct wg_node *root = NULL;
	const struct wg_node *api, *kind;
	unsigned index;
	struct stat st;
	bool yes = false;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	wg_ctx_init(&scratch);
	if (wg_input_read(&scratch, path, &in) == 0) {
		wg_reader_init(&r, &scratch, &in);
		if (wg_reader_next(&r, &arena, &root, &index) > 0
		    && wg_is_map(root)) {
			size_t dl = strlen(WG_DOMAIN);

			api = wg_map_get(root, "apiVersion");
			kind = wg_map_get(root, "kind");
			yes = (wg_is_scalar(api) && api->len > dl
			       && memcmp(api->u.str, WG_DOMAIN, dl) == 0)
			      || (wg_is_scalar(kind)
				  && strcasecmp(kind->u.str, "Profile") == 0)
			      || (!kind && (wg_map_get(root, "windows")
					    || wg_map_get(root, "linux")
					    || wg_map_get(root, "transforms")));
		}
		wg_reader_release(&r);
		wg_input_release(&in);
	}
	wg_arena_release(&arena);
	wg_ctx_release(&scratch);
	return yes;
}

/* Whether two keys of wg_file_id() name one file. */
static bool same_file(const struct wg_buf *a, const struct wg_buf *b)
{
	return a->len == b->len && memcmp(a->buf, b->buf, a->len) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where generated RuntimeClasses of the files alone go (a kustomize
 * root's go beside its kustomization: migrate_streams.h):
 * --runtimeclass-file, else WG_RC_FILE in the first PATH that is a
 * folder, else next to the first PATH (a file): inside what migrate was
 * given to edit.  The name sorts before every usual manifest name,
 * because kubectl apply -f DIR applies files in name order and a Pod
 * naming a RuntimeClass that does not exist yet is rejected at
 * admission. */

static char *rc_path(const struct migrate_opts *o,
		     const struct wg_pathlist *paths)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *first = paths->items[0], *slash;

	if (o->rc_file)
		return wg_xstrdup(o->rc_file);
	for (size_t i = 0; i < paths->len; i++)
		if (is_dir(paths->items[i])) {
			first = paths->items[i];
			break;
		}
	if (is_dir(first)) {
		wg_buf_addstr(&b, first);
		if (b.len && b.buf[b.len - 1] != '/')
			wg_buf_addch(&b, '/');
	} else if ((slash = strrchr(first, '/'))) {
		wg_buf_add(&b, first, (size_t)(slash - first) + 1);
	}
	wg_buf_addstr(&b, WG_RC_FILE);
	return wg_buf_detach(&b, NULL);
}

struct skipped {
	const char *path;
	const char *why;
	bool own;	/* migrate's own file (the profile, the RuntimeClass
			   file), not an input left out */
};

struct run {
	struct migrate_opts *o;
	struct wg_ctx ctx;
	struct wg_profile profile;
	bool have_profile;
	struct wg_pathlist files;
	struct skipped *skips;
	size_t nskips, skips_cap;
	struct wg_migrate_file *mf;
	size_t nmf;
	struct wg_resources list;
	char *rc_target;	/* the RuntimeClass file of files alone */
	struct wg_rc_target *targets;	/* every RuntimeClass file written */
	size_t ntargets;
	struct wg_mstreams streams;	/* kustomize roots, files alone */
	size_t kust_skipped;	/* files skipped as kustomize patches or
				   configuration */
	bool progress;
	size_t nchanged;	/* --diff, --check: files that would change */
};

static void skip(struct run *r, const char *path, const char *why, bool own)
{
	WG_GROW(r->skips, r->skips_cap, r->nskips + 1);
	r->skips[r->nskips].path = path;
	r->skips[r->nskips].why = why;
	r->skips[r->nskips].own = own;
	r->nskips++;
}

/*
 * A skipped input is said where it happened, before the chain runs: under
 * --strict it is an error naming the file (the chain's "select matches no
 * workload" would name only the consequence); else a file whose text names
 * a workload kind is a warning, as its workloads are left as they are.
 */
static void report_skip(struct run *r, const struct wg_migrate_file *f,
			const char *path)
{
	if (r->o->strict)
		wg_report_at(&r->ctx, WG_SEV_ERROR, path, f->skip_line, 0,
			     "skipped: %s%s%s (--strict: every skipped file is "
			     "an error)", f->skip,
			     f->skip_kind ? "; it holds a " : "",
			     f->skip_kind ? f->skip_kind : "");
	else if (f->skip_kind)
		wg_report_at(&r->ctx, WG_SEV_WARNING, path, f->skip_line, 0,
			     "skipped: %s; its %s is not migrated", f->skip,
			     f->skip_kind);
}

/*
 * A file with several hard links is one file under several names, and
 * migrate replaces a name by rename, which parts them: when two of the
 * run's names are one such file (each a stream of its own, so no
 * duplicate says so), it is an error naming both.  links maps device and
 * inode to the first name.  Returns -1 after the error.
 */
static int hard_link_again(struct run *r, struct wg_index *links,
			   const char *path)
{
	struct stat st;
	uint64_t id[2];
	void *const *v;
	size_t n;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink < 2)
		return 0;
	id[0] = (uint64_t)st.st_dev;
	id[1] = (uint64_t)st.st_ino;
	v = wg_index_get(links, (const char *)id, sizeof(id), &n);
	if (!n) {
		wg_index_add(links, (const char *)id, sizeof(id),
			     (void *)path);
		return 0;
	}
	return wg_report_at(&r->ctx, WG_SEV_ERROR, path, 0, 0, "the same file "
			    "as %s (a hard link): migrate replaces each name "
			    "by a rename, which would part them; give one of "
			    "the names", (const char *)v[0]);
}

/*
 * Expands the PATH arguments into the files to migrate.  A file that a
 * kustomization in the run's folders names as a patch or as its own
 * configuration is skipped (kustomize_refs.h): kustomize merges a patch
 * over a base this run migrates, and edited as an object it would undo
 * the base's edit.
 */
static int collect(struct run *r, const struct wg_pathlist *paths,
		   const char *profile_path)
{
	struct wg_pathlist all = { 0 };
	struct wg_index *seen = wg_index_new(), *links = wg_index_new();
	struct wg_kust_refs *kust = wg_kust_refs_new();
	struct wg_buf prof = WG_BUF_INIT, rc = WG_BUF_INIT, key = WG_BUF_INIT;
	int rc_ = 0;

	if (profile_path)
		wg_file_id(profile_path, &prof);
	wg_file_id(r->rc_target, &rc);
	for (size_t i = 0; i < paths->len; i++)
		if (wg_collect_files(&r->ctx, paths->items[i], &all))
			rc_ = -1;
	/* every folder's kustomization first: one may name a patch that an
	 * earlier folder holds */
	for (size_t i = 0; i < all.len; i++)
		wg_kust_refs_scan_dir_of(kust, all.items[i]);
	wg_mstreams_roots(&r->streams, &all);
	for (size_t i = 0; i < all.len; i++) {
		const char *p = all.items[i];
		const char *why;
		int own;

		if (wg_cli_named_again(seen, &key, p))
			continue;	/* listed twice: migrate it once */
		if (hard_link_again(r, links, p)) {
			rc_ = -1;
			continue;
		}
		own = wg_mstreams_own(&r->streams, &key);
		if (own == 1)
			continue;	/* a root's kustomization: no input */
		if (profile_path && same_file(&key, &prof)) {
			skip(r, p, "the profile", true);
		} else if (same_file(&key, &rc) || own == 2) {
			skip(r, p, "the RuntimeClass file migrate writes", true);
		} else if ((why = wg_kust_refs_why(kust, &key, NULL))
			   && strcmp(why, "a kustomization") != 0) {
			skip(r, p, wg_arena_strdup(&r->list.arena, why),
			     false);
			r->kust_skipped++;
			if (r->o->strict)
				wg_report_at(&r->ctx, WG_SEV_ERROR, p, 0, 0,
					     "skipped: %s (--strict: every "
					     "skipped file is an error)", why);
		} else if (ends_with(p, ".json")) {
			skip(r, p, "JSON is not edited as text", false);
			if (r->o->strict)
				wg_report_at(&r->ctx, WG_SEV_ERROR, p, 0, 0,
					     "skipped: JSON is not edited as "
					     "text (--strict: every skipped "
					     "file is an error)");
		} else {
			wg_pathlist_add(&r->files, p);
		}
	}
	/* skip() keeps pointers: the names must outlive all */
	for (size_t i = 0; i < r->nskips; i++)
		r->skips[i].path = wg_arena_strdup(&r->list.arena,
						   r->skips[i].path);
	wg_pathlist_release(&all);
	wg_index_free(seen);
	wg_index_free(links);
	wg_kust_refs_free(kust);
	wg_buf_release(&prof);
	wg_buf_release(&rc);
	wg_buf_release(&key);
	return rc_;
}

static void progress(struct run *r, size_t i, size_t n, const char *what,
		     const char *path)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\r\033[Kmigrate: %s %zu/%zu %s", what, i + 1, n, path);
	fflush(stderr);
}

/* The pool's progress: file i is being read. */
static void reading(void *arg, size_t i)
{
	struct run *r = arg;

	progress(r, i, r->files.len, "reading", r->files.items[i]);
}

static void progress_done(struct run *r)
{
	if (r->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);	/* no line break: stderr is line-buffered */
	}
}

/* A root whose kustomization changes images (images:) renders other
 * images than migrate read, which may make a workload a Windows one:
 * said, with the check of the render. */
static void images_roots(struct run *r)
{
	for (size_t i = 0; i < r->streams.nroots; i++) {
		const struct wg_mstream *m = &r->streams.items[i];

		if (m->images && m->nfiles)
			wg_report_at(&r->ctx, WG_SEV_WARNING, m->kustomization,
				     0, 0, "images: changes the images of what "
				     "it builds, and migrate judged the files "
				     "as written; check the render: kubectl "
				     "kustomize %s | wingen build PROFILE -f - "
				     "--check", m->root);
	}
}

/* The RuntimeClass files of the run (migrate_rcfile.h), made from what
 * the streams' chains generated. */
static void runtimeclasses(struct run *r)
{
	r->ntargets = wg_rc_targets_make(&r->ctx, &r->streams, r->mf, r->nmf,
					 r->rc_target, &r->targets);
}

/* --diff: the diff on stdout; --check: nothing.  Either way *nchanged is
 * the number of files that would change (RuntimeClass files and
 * kustomizations among them). */
static int write_diff(struct run *r, size_t *nchanged)
{
	struct wg_buf out = WG_BUF_INIT;
	int rc = WG_EXIT_OK;
	size_t n = 0;

	for (size_t i = 0; i < r->ntargets; i++) {
		const struct wg_rc_target *t = &r->targets[i];

		if (wg_rc_target_changes(t) && ++n)
			wg_udiff(&out, wg_cli_diff_name(t->path), t->old_text,
				 t->old_len, t->text.buf, t->text.len, 3);
		if (t->kust_changes && ++n)
			wg_udiff(&out, wg_cli_diff_name(t->kustomization),
				 t->kust_old, t->kust_old_len, t->kust_text.buf,
				 t->kust_text.len, 3);
	}
	for (size_t i = 0; i < r->nmf; i++)
		if (r->mf[i].emptied && ++n)	/* the file goes: git's deletion */
			wg_udiff(&out, wg_cli_diff_name(r->files.items[i]),
				 r->mf[i].in.data, r->mf[i].in.len, NULL, 0,
				 3);
		else if (r->mf[i].changed && ++n)
			wg_udiff_in(&out, wg_cli_diff_name(r->files.items[i]),
				    r->mf[i].in.data, r->mf[i].in.len,
				    r->mf[i].out.buf, r->mf[i].out.len,
				    r->mf[i].regions, r->mf[i].nregions, 3);
	if (!r->o->check)
		rc = wg_cli_write(&r->ctx, NULL, &out);
	wg_buf_release(&out);
	*nchanged = n;
	return rc;
}

static int write_files(struct run *r)
{
	struct wg_file_update *up = wg_xcalloc(r->nmf + 2 * r->ntargets + 1,
					       sizeof(*up));
	size_t n = 0, before = r->ctx.log.ndiags;
	int rc = WG_EXIT_OK;

	for (size_t i = 0; i < r->ntargets; i++) {
		const struct wg_rc_target *t = &r->targets[i];

		if (wg_rc_target_changes(t)) {
			up[n].path = t->path;
			up[n].data = t->text.buf;
			up[n].len = t->text.len;
			/* written only if still as read, or still absent */
			up[n].check = t->check;
			up[n].old = t->old_text;
			up[n].old_len = t->old_len;
			up[n].meta = t->meta;
			n++;
		}
		if (t->kust_changes) {
			up[n].path = t->kustomization;
			up[n].data = t->kust_text.buf;
			up[n].len = t->kust_text.len;
			up[n].check = true;
			up[n].old = t->kust_old;
			up[n].old_len = t->kust_old_len;
			up[n].meta = t->kust_meta;
			n++;
		}
	}
	for (size_t i = 0; i < r->nmf; i++) {
		if (!r->mf[i].changed)
			continue;
		up[n].path = r->files.items[i];
		up[n].remove = r->mf[i].emptied;
		/* written while finishing (write_through) */
		up[n].temp = r->mf[i].emptied ? NULL : &r->mf[i].temp;
		/* replaced only if still as read (output.h) */
		up[n].check = true;
		up[n].old = r->mf[i].in.data;
		up[n].old_len = r->mf[i].in.len;
		up[n].meta = r->mf[i].in.meta;
		n++;
	}
	if (n && wg_output_replace_all(&r->ctx, up, n)) {
		for (size_t i = before; i < r->ctx.log.ndiags; i++)
			wg_diag_print(stderr, &r->ctx.log.diags[i]);
		rc = WG_EXIT_FAIL;
	}
	free(up);
	return rc;
}

static int cmp_skip(const void *a, const void *b)
{
	return strcmp(((const struct skipped *)a)->path,
		      ((const struct skipped *)b)->path);
}

static void skipped_lines(struct run *r)
{
	wg_sort(r->skips, r->nskips, sizeof(*r->skips), cmp_skip);
	for (size_t i = 0; i < r->nskips; i++)
		fprintf(stderr, "migrate: skipped %s: %s\n", r->skips[i].path,
			r->skips[i].why);
}

/*
 * Skipped patches are merged over what this run wrote only when kustomize
 * builds the overlay: a patch that sets a Linux nodeSelector, or a Windows
 * image, changes the result, and only a check of the render shows it.
 */
static void kust_hint(const struct run *r)
{
	fprintf(stderr, "migrate: %zu kustomize patch or configuration "
		"file%s left as %s; check each overlay's result: kubectl "
		"kustomize DIR | wingen build PROFILE -f - --check\n",
		r->kust_skipped, r->kust_skipped == 1 ? "" : "s",
		r->kust_skipped == 1 ? "it is" : "they are");
}

/* No file is left to migrate (none found, or every one skipped): no
 * object was read, which is never a success. */
static bool all_skipped(const struct run *r)
{
	for (size_t i = 0; i < r->nmf; i++)
		if (!r->mf[i].skip)
			return false;
	return true;
}

static bool skipped_workload(const struct run *r)
{
	for (size_t i = 0; i < r->nmf; i++)
		if (r->mf[i].skip && r->mf[i].skip_kind)
			return true;
	return false;
}

/* The lines of one RuntimeClass file. */
static void target_summary(const struct run *r, const struct wg_rc_target *t)
{
	const char *verb = !wg_rc_target_changes(t) ? "kept"
			   : r->o->diff ? "would write" : "wrote";

	if (!t->count)
		return;
	if (t->kept > 0)
		fprintf(stderr, "migrate: %s %s (%zu RuntimeClass%s, and %ld "
			"object%s it held that this run does not generate, "
			"kept: %s)\n", verb, t->path, t->count,
			t->count == 1 ? "" : "es", t->kept,
			t->kept == 1 ? "" : "s", t->kept_names.buf);
	else
		fprintf(stderr, "migrate: %s %s (%zu RuntimeClass%s)\n", verb,
			t->path, t->count, t->count == 1 ? "" : "es");
	if (t->kust_changes)
		fprintf(stderr, "migrate: %s it to the resources: of %s\n",
			r->o->diff ? "would add" : "added", t->kustomization);
}

/*
 * Services in files alone whose file holds no workload: each file is a
 * stream of its own, so their Windows checks saw no pod to check them
 * against.  Said with the way to check them with their workloads.
 */
static void services_alone(const struct run *r)
{
	size_t n = 0;

	for (size_t f = 0; f < r->nmf && f < r->streams.nalone; f++) {
		size_t svc = 0, pods = 0;

		if (!r->streams.alone[f] || r->mf[f].skip)
			continue;
		for (size_t k = 0; k < r->mf[f].nmine; k++) {
			const struct wg_resource *res = r->mf[f].mine[k];
			struct wg_podspec ps;

			svc += wg_is_kind(res, WG_KIND_SERVICE)
			       && wg_map_get(wg_map_get(res->root, "spec"),
					     "selector");
			pods += wg_podspec_find(res, &ps);
		}
		n += pods ? 0 : svc;
	}
	if (n)
		fprintf(stderr, "migrate: %zu Service%s in files without a "
			"workload: each file is judged alone, so %s checked "
			"against no pod; wingen check PROFILE -f DIR checks a "
			"folder as one stream\n", n, n == 1 ? " is" : "s are",
			n == 1 ? "it was" : "they were");
}

static void summary(struct run *r)
{
	size_t changed = 0, objects = 0, reformatted = 0, migrated = 0;
	size_t removed = 0;
	const char *verb = r->o->diff ? "would change" : "changed";

	for (size_t i = 0; i < r->nmf; i++) {
		if (r->mf[i].skip)
			continue;
		migrated++;
		changed += r->mf[i].changed;
		objects += r->mf[i].objects_changed;
		reformatted += r->mf[i].reformatted;
		removed += r->mf[i].emptied;
	}
	if (all_skipped(r)) {
		skipped_lines(r);	/* the warning said nothing migrated */
		return;
	}
	fprintf(stderr, "migrate: %s %zu of %zu file%s (%zu object%s)",
		verb, changed, migrated, migrated == 1 ? "" : "s", objects,
		objects == 1 ? "" : "s");
	if (removed)	/* every object of them dropped (retarget) */
		fprintf(stderr, "; %s %zu, nothing left in %s",
			r->o->diff ? "would remove" : "removed", removed,
			removed == 1 ? "it" : "them");
	if (r->nskips)
		fprintf(stderr, "; %zu skipped", r->nskips);
	fputc('\n', stderr);
	for (size_t i = 0; r->o->check && i < r->nmf; i++)
		if (!r->mf[i].skip && (r->mf[i].changed || r->mf[i].emptied))
			fprintf(stderr, "  %s\n", r->files.items[i]);
	for (size_t i = 0; i < r->ntargets; i++)
		target_summary(r, &r->targets[i]);
	if (reformatted)
		fprintf(stderr, "migrate: %zu document%s re-emitted by "
			"--reformat-fallback (comments inside %s lost)\n",
			reformatted, reformatted == 1 ? "" : "s",
			reformatted == 1 ? "it are" : "them are");
	if (r->nskips)
		skipped_lines(r);
	if (r->kust_skipped)
		kust_hint(r);
	services_alone(r);
}

static void flag_arg(struct wg_pathlist *args, const char *flag,
		     const char *value)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addstr(&b, flag);
	wg_buf_addstr(&b, value);
	wg_pathlist_add(args, b.buf);
	wg_buf_release(&b);
}

/*
 * Chart folders (holding Chart.yaml) are migrated through Helm
 * (migrate_chart.c); manifests and charts are not mixed in one run, and
 * --values-out is for one chart.  Returns -1 when no PATH is a chart.
 */
static int charts(struct run *r, const struct wg_pathlist *paths)
{
	struct wg_pathlist args = { 0 };
	struct wg_cli_chart_opts co = {
		r->o->helm, &args, r->o->values_out, r->o->diff,
		r->o->check, &r->nchanged,
	};
	const struct migrate_opts *o = r->o;
	bool chart_opts = o->values_out || o->helm || o->helm_args.len
			  || o->values.len || o->set.len || o->set_string.len;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < paths->len; i++)
		n += wg_chart_is_dir(paths->items[i]);
	if (!n && chart_opts)
		return wg_usage_error("migrate", "--values-out, -f/--values, "
				      "--set, --set-string, --helm and "
				      "--helm-arg are for Helm chart folders "
				      "(holding Chart.yaml)");
	if (!n)
		return -1;
	if (n != paths->len)
		return wg_usage_error("migrate", "migrate chart folders and "
				      "manifest files in separate runs");
	if (o->values_out && n > 1)
		return wg_usage_error("migrate", "--values-out writes the "
				      "values of one chart; give one chart");
	if (wg_ctx_failed(&r->ctx))
		return wg_cli_report(&r->ctx, false);
	/* helm template gets the values as given, before --helm-arg's, each
	 * as one argument (FLAG=VALUE: a value cannot read as a flag) */
	for (size_t i = 0; i < o->values.len; i++) {
		char *a = wg_helm_path_arg("--values=", o->values.items[i]);

		wg_pathlist_add(&args, a);
		free(a);
	}
	for (size_t i = 0; i < o->set.len; i++)
		flag_arg(&args, "--set=", o->set.items[i]);
	for (size_t i = 0; i < o->set_string.len; i++)
		flag_arg(&args, "--set-string=", o->set_string.items[i]);
	for (size_t i = 0; i < o->helm_args.len; i++)
		wg_pathlist_add(&args, o->helm_args.items[i]);
	rc = wg_cli_migrate_charts(&r->ctx, &r->profile, paths, &co);
	wg_pathlist_release(&args);
	return rc;
}

int wg_cmd_migrate(int argc, char **argv)
{
	struct migrate_opts o;
	struct wg_pathlist paths = { 0 };
	const char *profile_arg = NULL;
	struct wg_migrate_scratch scratch = { 0 };
	struct wg_migrate_pool *pool;
	struct wg_tree_guard *guard = NULL;
	struct run r;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse(argc, argv, &o);
	if (rc) {
		wg_pathlist_release(&o.args);
		wg_pathlist_release(&o.helm_args);
		wg_pathlist_release(&o.values);
		wg_pathlist_release(&o.set);
		wg_pathlist_release(&o.set_string);
		wg_pathlist_release(&o.retarget);
		return rc < 0 ? wg_print_help("migrate") : rc;
	}
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.progress = isatty(STDERR_FILENO);
	wg_mstreams_init(&r.streams);
	wg_ctx_init(&r.ctx);
	r.ctx.strict = o.strict;
	/* migrate reports files and objects, never the chain's change log:
	 * recording it cost each edit its path, values and reason (as build
	 * without --explain) */
	r.ctx.skip_changes = true;
	/* an identical second copy stays in its file (never deleted) */
	r.ctx.keep_duplicates = true;
	wg_resources_init(&r.list);
	/* one node per distinct mapping key, as build: less memory, and the
	 * chain's lookups compare few, cached keys; a key's place in the
	 * text comes from the scan (wg_pos_index_doc_tree) */
	r.list.share_keys = true;
	if (strcmp(o.args.items[0], "-") == 0 || is_profile(o.args.items[0]))
		profile_arg = o.args.items[0];
	for (size_t i = profile_arg ? 1 : 0; i < o.args.len; i++)
		wg_pathlist_add(&paths, o.args.items[i]);
	if (wg_cli_load_profile(&r.ctx, profile_arg, &o.popts, &r.profile)
	    == 0) {
		r.have_profile = true;
		r.ctx.profile = &r.profile;
		/* no PATH: the profile's resources, as build reads them */
		for (size_t i = 0; !paths.len && i < r.profile.nresources; i++)
			if (strcmp(r.profile.resource_paths[i], "-") != 0)
				wg_pathlist_add(&paths,
						r.profile.resource_paths[i]);
	}
	if (!wg_ctx_failed(&r.ctx) && !paths.len) {
		rc = wg_usage_error("migrate", "no PATH given");
		goto out;
	}
	/* one run at a time over a tree, and what --in-place writes stays
	 * inside the PATHs, no link followed below them (treeguard.h) */
	if (!wg_ctx_failed(&r.ctx) && paths.len) {
		guard = wg_tree_guard_open(&r.ctx, paths.items, paths.len,
					   o.in_place);
		r.ctx.guard = guard;
		if (!guard) {
			rc = wg_cli_report(&r.ctx, false);
			goto out;
		}
	}
	rc = charts(&r, &paths);
	if (rc != -1)
		goto out;
	if (paths.len) {
		r.rc_target = rc_path(&o, &paths);
		collect(&r, &paths, profile_arg && strcmp(profile_arg, "-")
					     ? profile_arg : NULL);
	}
	r.mf = wg_xcalloc(r.files.len + 1, sizeof(*r.mf));
	/* read on threads; taken in order, as one thread would read them */
	pool = wg_migrate_pool_load(&r.ctx, r.mf, r.files.items, r.files.len,
				    &r.list, wg_ctx_failed(&r.ctx) ? 1 : o.jobs,
				    reading, &r);
	for (size_t i = 0; !wg_ctx_failed(&r.ctx) && i < r.files.len; i++) {
		r.nmf++;
		if (wg_migrate_pool_take(pool, i) == 0 && r.mf[i].skip) {
			skip(&r, r.files.items[i], r.mf[i].skip, false);
			report_skip(&r, &r.mf[i], r.files.items[i]);
		}
	}
	wg_migrate_pool_end(pool);
	/* Nothing left to migrate: no object was read, an error (never
	 * "changed 0 of 0 files", exit 0). */
	if (!wg_ctx_failed(&r.ctx) && all_skipped(&r))
		wg_report_at(&r.ctx, WG_SEV_ERROR, NULL, 0, 0, "nothing "
			     "migrated: %s", r.nskips ? (skipped_workload(&r)
			     ? "every file given was skipped, and one holds a "
			       "workload (see 'migrate: skipped' below)"
			     : "every file given was skipped (see 'migrate: "
			       "skipped' below)")
			     : "no *.yaml or *.yml file in the PATHs given");
	if (!wg_ctx_failed(&r.ctx)) {
		/* each kustomize root, each file alone: a stream of its own */
		wg_mstreams_make(&r.streams, r.files.items, r.nmf);
		wg_migrate_edits_begin(&r.list);
		wg_mstreams_run(&r.streams, &r.ctx, &r.profile, r.mf, r.nmf,
				&r.list);
		wg_migrate_edits_end(&r.list);
		images_roots(&r);
	}
	if (!wg_ctx_failed(&r.ctx))
		wg_migrate_assign(r.mf, r.nmf, &r.list);
	/* every file, so every object that cannot be edited is reported */
	o.mopts.scratch = &scratch;
	/* --in-place: each file's text goes to its temporary as it is made
	 * (renamed by write_files once the run has succeeded) */
	o.mopts.write_through = !o.diff;
	for (size_t i = 0, ok = !wg_ctx_failed(&r.ctx); ok && i < r.nmf; i++) {
		progress(&r, i, r.nmf, "editing", r.files.items[i]);
		wg_migrate_finish(&r.ctx, &r.mf[i], &r.list, &o.mopts);
	}
	wg_migrate_scratch_release(&scratch);
	progress_done(&r);
	if (!wg_ctx_failed(&r.ctx) && !all_skipped(&r))
		runtimeclasses(&r);	/* for the workloads of files migrated */
	rc = wg_cli_report(&r.ctx, false);
	if (rc == WG_EXIT_OK)
		rc = o.diff ? write_diff(&r, &r.nchanged) : write_files(&r);
	if (rc == WG_EXIT_OK)
		summary(&r);
	else if (r.nskips)
		skipped_lines(&r);
out:
	for (size_t i = 0; i < r.nmf; i++)
		wg_migrate_file_release(&r.mf[i]);
	free(r.mf);
	free(r.skips);
	free(r.rc_target);
	for (size_t i = 0; i < r.ntargets; i++)
		wg_rc_target_release(&r.targets[i]);
	free(r.targets);
	wg_mstreams_release(&r.streams);
	wg_resources_release(&r.list);
	wg_pathlist_release(&r.files);
	if (r.have_profile)
		wg_profile_release(&r.profile);
	wg_ctx_release(&r.ctx);
	wg_tree_guard_free(guard);
	wg_pathlist_release(&paths);
	wg_pathlist_release(&o.args);
	wg_pathlist_release(&o.helm_args);
	wg_pathlist_release(&o.values);
	wg_pathlist_release(&o.set);
	wg_pathlist_release(&o.set_string);
	wg_pathlist_release(&o.retarget);
	/* as kubectl diff: 0 nothing would change, 1 something would, 2 no
	 * answer (bad input, a conflict, I/O, usage) */
	if (o.diff && rc != WG_EXIT_OK)
		rc = WG_EXIT_TROUBLE;
	else if (o.diff && r.nchanged)
		rc = WG_EXIT_FAIL;
	return rc;
}
