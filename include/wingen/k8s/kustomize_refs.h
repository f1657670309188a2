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

#include "wingen/base/buf.h"

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
 * (patches of overlays/prod/kustomization.yaml)"), or NULL when no
 * kustomization scanned names it.  The text is owned by refs.
 */
const char *wg_kust_refs_why(const struct wg_kust_refs *refs,
			     const struct wg_buf *id);

#endif
