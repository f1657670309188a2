#include "wingen/k8s/kustomize_refs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/base/fileid.h"
#include "wingen/base/index.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/reader.h"

/* Why a file is not a resource, and the folder kustomize builds it in. */
struct ref {
	const char *why;
	const char *root;
};

struct wg_kust_refs {
	struct wg_index *dirs;	/* folders scanned: key only */
	struct wg_index *files;	/* file id -> struct ref (in arena) */
	struct wg_arena arena;
	struct wg_buf key;	/* scratch: a named file's id */
	struct wg_buf last;	/* the folder scanned last (empty: ".") */
	bool have_last;
};

/* kustomize's names for a kustomization (its
 * konfig.RecognizedKustomizationFileNames). */
static const char *const names[] = {
	"kustomization.yaml", "kustomization.yml", "Kustomization",
};

/*
 * Fields that name files.  A list's item is the path itself (an item with
 * a line break is an inline patch or config, not a path), or a mapping
 * whose "path" is (its "patch" is inline); in_map fields take both.
 */
static const struct {
	const char *field;
	bool patch;	/* a patch, else kustomize's configuration */
	bool in_map;	/* items are mappings with a "path" */
} fields[] = {
	{ "patches", true, true },
	{ "patchesStrategicMerge", true, false },
	{ "patchesJson6902", true, true },
	{ "replacements", false, true },
	{ "configurations", false, false },
	{ "crds", false, false },
	{ "transformers", false, false },
	{ "generators", false, false },
	{ "validators", false, false },
};

struct wg_kust_refs *wg_kust_refs_new(void)
{
	struct wg_kust_refs *refs = wg_xcalloc(1, sizeof(*refs));

	refs->dirs = wg_index_new();
	refs->files = wg_index_new();
	wg_arena_init(&refs->arena);
	return refs;
}

void wg_kust_refs_free(struct wg_kust_refs *refs)
{
	if (!refs)
		return;
	wg_index_free(refs->dirs);
	wg_index_free(refs->files);
	wg_arena_release(&refs->arena);
	wg_buf_release(&refs->key);
	wg_buf_release(&refs->last);
	free(refs);
}

/* Records path (an existing file) as not a resource, for why, in the
 * kustomize root dir; the first reason recorded stays. */
static void record(struct wg_kust_refs *refs, const char *path,
		   const char *dir, const char *why)
{
	struct ref *r;
	size_t n;

	if (!wg_file_id(path, &refs->key))
		return;
	wg_index_get(refs->files, refs->key.buf, refs->key.len, &n);
	if (n)
		return;
	r = wg_arena_alloc(&refs->arena, sizeof(*r));
	r->why = why;
	r->root = wg_arena_strdup(&refs->arena, dir);
	wg_index_add(refs->files, refs->key.buf, refs->key.len, r);
}

/* A kustomization's entry as a path: dir/entry, or the entry when it is
 * absolute, in *path; false (and path untouched) for no usable entry. */
static bool entry_path(const char *dir, const struct wg_node *entry,
		       struct wg_buf *path)
{
	if (!wg_is_scalar(entry) || !entry->len
	    || memchr(entry->u.str, '\n', entry->len))
		return false;
	if (entry->u.str[0] != '/') {
		wg_buf_addstr(path, dir);
		wg_buf_addch(path, '/');
	}
	wg_buf_add(path, entry->u.str, entry->len);
	return true;
}

/* Records dir/rel as named by kpath's field. */
static void name_file(struct wg_kust_refs *refs, const char *dir,
		      const struct wg_node *rel, const char *kpath,
		      const char *field, bool patch)
{
	struct wg_buf path = WG_BUF_INIT;
	struct stat st;

	if (!entry_path(dir, rel, &path))
		return;
	/* a folder (transformers may name one) is not a file migrate reads */
	if (stat(path.buf, &st) == 0 && S_ISREG(st.st_mode))
		record(refs, path.buf, dir,
		       wg_arena_printf(&refs->arena, "%s (%s of %s)",
				       patch ? "a kustomize patch"
				       : "kustomize configuration",
				       field, kpath));
	wg_buf_release(&path);
}

static void read_kustomization(struct wg_kust_refs *refs, const char *dir,
			       const char *kpath)
{
	struct wg_ctx scratch;	/* its messages are the file read's to say */
	struct wg_input in;
	struct wg_reader r;
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_node *root = NULL;
	unsigned index;

	wg_ctx_init(&scratch);
	if (wg_input_read(&scratch, kpath, &in)) {
		wg_ctx_release(&scratch);
		return;
	}
	wg_reader_init(&r, &scratch, &in);
	if (wg_reader_next(&r, &a, &root, &index) > 0 && wg_is_map(root)) {
		for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
			const struct wg_node *s =
				wg_map_get(root, fields[i].field);

			for (size_t k = 0; wg_is_seq(s) && k < s->len; k++) {
				const struct wg_node *item = wg_seq_item(s, k);

				/* a bare path where a mapping belongs
				 * (argocd-example-apps' "patches: [p.yaml]")
				 * is still no resource: kustomize refuses
				 * the kustomization, and its author meant a
				 * patch */
				if (fields[i].in_map && wg_is_map(item))
					item = wg_map_get(item, "path");
				name_file(refs, dir, item, kpath,
					  fields[i].field, fields[i].patch);
			}
		}
		if (wg_is_map(wg_map_get(root, "openapi")))
			name_file(refs, dir,
				  wg_map_get(wg_map_get(root, "openapi"),
					     "path"),
				  kpath, "openapi", false);
	}
	wg_reader_release(&r);
	wg_arena_release(&a);
	wg_input_release(&in);
	wg_ctx_release(&scratch);
}

void wg_kust_refs_scan_dir(struct wg_kust_refs *refs, const char *dir)
{
	struct wg_buf kpath = WG_BUF_INIT;
	size_t n;

	wg_index_get(refs->dirs, dir, strlen(dir), &n);
	if (n)
		return;
	wg_index_add(refs->dirs, dir, strlen(dir), NULL);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		struct stat st;

		wg_buf_reset(&kpath);
		wg_buf_addstr(&kpath, dir);
		wg_buf_addch(&kpath, '/');
		wg_buf_addstr(&kpath, names[i]);
		/* kustomize refuses a folder with two of them; the first
		 * found is read here, and the run reads the rest */
		if (stat(kpath.buf, &st) == 0 && S_ISREG(st.st_mode)) {
			record(refs, kpath.buf, dir, "a kustomization");
			read_kustomization(refs, dir, kpath.buf);
			break;
		}
	}
	wg_buf_release(&kpath);
}

void wg_kust_refs_scan_dir_of(struct wg_kust_refs *refs, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len;

	if (strcmp(path, "-") == 0)
		return;
	len = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
	if (refs->have_last && refs->last.len == len
	    && (len == 0 || memcmp(refs->last.buf, path, len) == 0))
		return;
	refs->have_last = true;
	wg_buf_reset(&refs->last);
	wg_buf_add(&refs->last, path, len);
	wg_kust_refs_scan_dir(refs, len ? refs->last.buf : ".");
}

const char *wg_kust_refs_why(const struct wg_kust_refs *refs,
			     const struct wg_buf *id, const char **root)
{
	void *const *v;
	const struct ref *r;
	size_t n;

	v = wg_index_get(refs->files, id->buf, id->len, &n);
	r = n ? v[0] : NULL;
	if (root)
		*root = r ? r->root : NULL;
	return r ? r->why : NULL;
}

bool wg_kust_file_of(const char *dir, struct wg_buf *path)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		struct stat st;

		wg_buf_reset(path);
		wg_buf_addstr(path, dir);
		wg_buf_addch(path, '/');
		wg_buf_addstr(path, names[i]);
		if (stat(path->buf, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	wg_buf_reset(path);
	return false;
}

/* Appends dir/item to out when item is a local path that exists. */
static void add_entry(struct wg_pathlist *out, const char *dir,
		      const struct wg_node *item)
{
	struct wg_buf path = WG_BUF_INIT;
	struct stat st;

	if (!entry_path(dir, item, &path))
		return;
	if (stat(path.buf, &st) == 0)
		wg_pathlist_add(out, path.buf);
	wg_buf_release(&path);
}

int wg_kust_read(const char *kpath, const char *dir, struct wg_kust *out)
{
	static const char *const lists[] = { "resources", "bases",
					     "components" };
	struct wg_ctx scratch;	/* its messages are the file read's to say */
	struct wg_input in;
	struct wg_reader r;
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_node *root = NULL;
	unsigned index;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	wg_ctx_init(&scratch);
	if (wg_input_read(&scratch, kpath, &in)) {
		wg_ctx_release(&scratch);
		return -1;
	}
	wg_reader_init(&r, &scratch, &in);
	if (wg_reader_next(&r, &a, &root, &index) > 0 && wg_is_map(root)) {
		for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++) {
			const struct wg_node *s = wg_map_get(root, lists[i]);

			for (size_t k = 0; wg_is_seq(s) && k < s->len; k++)
				add_entry(&out->entries, dir,
					  wg_seq_item(s, k));
		}
		out->component = wg_scalar_is(wg_map_get(root, "kind"),
					      "Component");
		out->images = wg_is_seq(wg_map_get(root, "images"))
			      && wg_map_get(root, "images")->len;
		for (size_t i = 0; i < 2; i++) {
			const struct wg_node *v = wg_map_get(
				root, i ? "nameSuffix" : "namePrefix");

			out->renames = out->renames
				       || (wg_is_scalar(v) && v->len
					   && !wg_node_is_null(v));
		}
		rc = 0;
	}
	wg_reader_release(&r);
	wg_arena_release(&a);
	wg_input_release(&in);
	wg_ctx_release(&scratch);
	return rc;
}

void wg_kust_release(struct wg_kust *k)
{
	wg_pathlist_release(&k->entries);
	memset(k, 0, sizeof(*k));
}

bool wg_kust_is_kustomization_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(base, names[i]) == 0)
			return true;
	return false;
}

bool wg_kust_is_kustomization(const struct wg_node *root)
{
	const struct wg_node *api = wg_map_get(root, "apiVersion");
	static const char group[] = "kustomize.config.k8s.io/";

	return wg_is_scalar(api) && api->len > sizeof(group) - 1
	       && memcmp(api->u.str, group, sizeof(group) - 1) == 0
	       && (wg_scalar_is(wg_map_get(root, "kind"), "Kustomization")
		   || wg_scalar_is(wg_map_get(root, "kind"), "Component"));
}
