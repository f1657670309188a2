#ifndef WINGEN_PODSPEC_H
#define WINGEN_PODSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * Where the pod spec of a workload lives: the one table every transform
 * uses (kustomize's fieldspecs in miniature).
 *
 *   Deployment, StatefulSet, DaemonSet, ReplicaSet,
 *   ReplicationController, Job          spec.template.spec
 *   CronJob                             spec.jobTemplate.spec.template.spec
 *   Pod                                 spec
 *   PodTemplate                         template.spec
 *
 * The kind alone is not enough: a custom resource may call itself "Job".
 * A kind counts only with its own API group (apps or extensions, batch,
 * core); a resource without apiVersion is taken at its kind's word.
 */

struct wg_podspec_kind {
	const char *kind;
	const char *groups;	/* accepted API groups, '|'-separated; "" core */
	const char *tmpl;	/* path of the pod template ("" = the root) */
	const char *spec;	/* path of the pod spec, for field names */
};

/* Every kind of the table, ended by an entry with kind NULL. */
extern const struct wg_podspec_kind wg_podspec_kinds[];

/* The table entry for res (kind and group), or NULL: not a workload. */
const struct wg_podspec_kind *wg_podspec_kind_of(const struct wg_resource *res);

/* A located pod spec.  Nodes point into the resource's tree. */
struct wg_podspec {
	const struct wg_podspec_kind *kind;
	struct wg_node *tmpl;	/* mapping with metadata and spec */
	struct wg_node *spec;	/* the pod spec mapping */
};

/*
 * Locates the pod spec of res.  Returns true and fills *out when res is a
 * workload kind whose pod spec is a mapping; false otherwise (out zeroed).
 */
bool wg_podspec_find(const struct wg_resource *res, struct wg_podspec *out);

/* The pod template's metadata.labels / .annotations mapping, or NULL. */
struct wg_node *wg_podspec_labels(const struct wg_podspec *ps);
struct wg_node *wg_podspec_annotations(const struct wg_podspec *ps);

/*
 * Appends to out the field path of a key of the pod spec:
 * "spec.template.spec.nodeSelector.[kubernetes.io/os]" for
 * wg_podspec_path(out, ps, "nodeSelector", "kubernetes.io/os", NULL).
 * Every argument after ps is one key (NULL ends the list), escaped as
 * wg_path_get() reads it.  out is reset first.  Returns out->buf.
 */
const char *wg_podspec_path(struct wg_buf *out, const struct wg_podspec *ps,
			    ...);

/*
 * Containers, in the order the API server validates them: initContainers,
 * containers, ephemeralContainers.  Items that are not mappings are
 * skipped.
 *
 *	struct wg_container_iter it;
 *	struct wg_container c;
 *
 *	wg_container_iter_init(&it, ps.spec);
 *	while (wg_container_next(&it, &c))
 *		...
 */
struct wg_container {
	struct wg_node *node;	/* the container mapping */
	const char *list;	/* "initContainers", "containers", ... */
	size_t index;		/* position in that list */
};

struct wg_container_iter {
	const struct wg_node *spec;
	unsigned list;
	size_t index;
};

void wg_container_iter_init(struct wg_container_iter *it,
			    const struct wg_node *spec);
bool wg_container_next(struct wg_container_iter *it, struct wg_container *out);

/* Appends the container's path: "spec.template.spec.containers[1]" and
 * then each key given (NULL-terminated).  out is reset first. */
const char *wg_container_path(struct wg_buf *out, const struct wg_podspec *ps,
			      const struct wg_container *c, ...);

/* The container's name as written, or "#<index>" when it has none; in
 * arena. */
const char *wg_container_name(struct wg_arena *arena,
			      const struct wg_container *c);

#endif
