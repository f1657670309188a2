#ifndef WINGEN_K8S_KUSTOMIZE_REFS_H
#define WINGEN_K8S_KUSTOMIZE_REFS_H

/*
 * The files a kustomization names as something other than a resource, so
 * that migrate does not edit them as objects, and build and check do not
 * read them as objects (wg_cli_read()).
 *
 * An overlay's patch (patches[].path, patchesStrategicMerge,
 * patchesJson6902[].path) often has apiVersion, kind and metadata.name
 * and reads like a Deployment, but it is merged over its base by
 * kustomize.  Edited as an object it would be wrong in two ways: a patch
 * that sets no image is decided Linux and gets
 * `kubernetes.io/os: linux`, which kustomize then merges over the
 * Windows base's selector; and with its base in the same run it is "the
 * same object twice".  kustomize's own configuration files
 * (replacements[].path, configurations, crds, openapi.path, transformers,
 * generators, validators) are not resources either.  Field names and
 * their meaning: kustomize's api/types/kustomization.go.
 *
 * A kustomization is a file named kustomization.yaml, kustomization.yml
 * or Kustomization in a folder (kustomize's own three names).  Only the
 * folders handed to wg_kust_refs_scan_dir() are looked at: a patch whose
 * kustomization lies outside every folder of the run is not known.
 */

#include <stdbool.h>

#include "wingen/base/buf.h"
#include "wingen/base/input.h"

struct wg_kust_refs;

/* An empty set; free with wg_kust_refs_free().  Never NULL. */
struct wg_kust_refs *wg_kust_refs_new(void);
void wg_kust_refs_free(struct wg_kust_refs *refs);

/*
 * Reads dir's kustomization, if it has one (once per folder: a second
 * call with the same dir does nothing), and records every existing file
 * it names as a patch or as configuration.  A kustomization that cannot
 * be read, or does not read as YAML, names nothing here: migrate reads
 * it as one of its files, and that read says what is wrong.
 */
void wg_kust_refs_scan_dir(struct wg_kust_refs *refs, const char *dir);

/* wg_kust_refs_scan_dir() of the folder holding path ("." for a bare
 * name); "-" (stdin) has none.  Cheap for a run of paths in one folder
 * (a folder walk gives them in order): no allocation, no lookup. */
void wg_kust_refs_scan_dir_of(struct wg_kust_refs *refs, const char *path);

/*
 * Why the file whose id is id (wg_file_id(), which callers have already
 * made to read each file once) is not a resource ("a kustomize patch
 * (patches of overlays/prod/kustomization.yaml)", or "a kustomization"
 * for a scanned folder's kustomization itself), or NULL when no
 * kustomization scanned names it.  root (may be NULL) gets the folder of
 * the kustomization, what kubectl kustomize builds.  Texts are owned by
 * refs.
 */
const char *wg_kust_refs_why(const struct wg_kust_refs *refs,
			     const struct wg_buf *id, const char **root);

/*
 * What a kustomization adds to its build, for migrate's streams: the
 * local paths (dir/entry, existing files or folders) its resources:,
 * bases: (kustomize's older name for them) and components: name, in
 * order; entries that name nothing on disk (a remote base, a typo) are
 * left out.  component: its kind is Component (built only as part of
 * another).  images: it has an images: transformer (it changes images
 * of what it builds: what migrate read is not what kustomize renders).
 * renames: it has a namePrefix or nameSuffix, which renames every object
 * it builds, a RuntimeClass too, but not the runtimeClassName of a pod
 * (kustomize's name references do not cover it).
 */
struct wg_kust {
	struct wg_pathlist entries;
	bool component;
	bool images;
	bool renames;
};

/* The kustomization of folder dir (the first of kustomize's three names
 * there), its path into path; false when dir has none. */
bool wg_kust_file_of(const char *dir, struct wg_buf *path);

/* Reads kpath, the kustomization of folder dir, into out (released by
 * wg_kust_release()).  Returns 0, or -1 when it cannot be read or is no
 * mapping (out then empty). */
int wg_kust_read(const char *kpath, const char *dir, struct wg_kust *out);
void wg_kust_release(struct wg_kust *k);

/* Whether path's last component is one of kustomize's names for a
 * kustomization. */
bool wg_kust_is_kustomization_name(const char *path);

/* Whether root, a document, is kustomize's own (apiVersion
 * kustomize.config.k8s.io/..., kind Kustomization or Component): a build
 * description, never an object to apply. */
struct wg_node;
bool wg_kust_is_kustomization(const struct wg_node *root);

#endif
