#ifndef WINGEN_PODSPEC_H
#define WINGEN_PODSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

#include "wingen/base/arena.h"
#include "wingen/k8s/kinds.h"

/*
 * Where the pod specs of a workload live, as its row of the kinds table
 * (kinds.h) says:
 *
 *   Deployment, StatefulSet, DaemonSet, ReplicaSet,
 *   ReplicationController, Job          spec.template.spec
 *   CronJob                             spec.jobTemplate.spec.template.spec
 *   Pod                                 spec
 *   PodTemplate                         template.spec
 *   Volcano Job                         spec.tasks[N].template.spec
 *   ... and every other row of the table or of the profile's workloads:.
 *
 * A workload may hold several pod templates (one per template path, and
 * one per item of a "[]" step); each is one struct wg_podspec.
 */

/* A located pod spec.  Nodes point into the resource's tree. */
struct wg_podspec {
	const struct wg_kind *kind;
	unsigned tpl;		/* which of kind->templates */
	unsigned nitems;	/* the "[]" steps of that path */
	size_t items[WG_KIND_MAX_ITEMS];	/* the item index of each */
	struct wg_node *tmpl;	/* mapping with metadata and spec */
	struct wg_node *spec;	/* the pod spec mapping */
};

/*
 * Every pod spec of res, whose kind is one of the table's or of extra
 * (may be NULL): in template order, each list in item order.  Templates
 * that are not a mapping with a spec mapping are skipped.  Returns how
 * many; *out is an array in arena (NULL when none).
 */
size_t wg_podspec_find_all(struct wg_arena *arena,
			   const struct wg_kind_set *extra,
			   const struct wg_resource *res,
			   struct wg_podspec **out);

/*
 * The first pod spec of res, a kind of the built-in table.  Returns true
 * and fills *out when there is one; false otherwise (out zeroed).
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

/* As wg_podspec_path(), from the pod template: "spec.template.metadata"
 * for wg_podspec_tmpl_path(out, ps, "metadata", NULL); "metadata" for a
 * Pod. */
const char *wg_podspec_tmpl_path(struct wg_buf *out,
				 const struct wg_podspec *ps, ...);

/*
 * A path of ps's kind (pods, say) with each "[]" step replaced by the
 * item index of ps's template: "spec.tasks[].replicas" ->
 * "spec.tasks[1].replicas" for the second task.  out is reset first.
 */
const char *wg_podspec_expand(struct wg_buf *out, const struct wg_podspec *ps,
			      const char *path);

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
