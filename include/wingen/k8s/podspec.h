#ifndef WINGEN_PODSPEC_H
#define WINGEN_PODSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
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

struct wg_pod_view;	/* a shape's pod (podview.c) */

/*
 * A located pod spec.  Nodes point into the resource's tree.
 *
 * A kind with a shape (kinds.h: Argo's templates, Tekton's runs) has no
 * pod spec mapping of its own: spec is then a view, a mapping made by
 * wingen whose values are the pod's settings where they are read (its own
 * holder's, else a shared holder's: the nodes of the tree) and whose
 * initContainers and containers lists hold its containers (the nodes of
 * the tree, maybe of another object: wg_container_owner()).  Read it as a
 * pod spec; never edit the view itself (its edits reach no tree): write
 * through wg_podspec_ensure(), wg_podspec_set() and wg_podspec_delete(),
 * which edit the tree and keep the view up to date.  Paths
 * (wg_podspec_path(), wg_container_path()) are the tree's.
 */
struct wg_podspec {
	const struct wg_kind *kind;
	unsigned tpl;		/* which of kind->templates, or of the
				   shape's pods */
	unsigned nitems;	/* the "[]" steps of that path */
	size_t items[WG_KIND_MAX_ITEMS];	/* the item index of each */
	struct wg_node *tmpl;	/* mapping with metadata (and spec): for a
				   shape, what holds the pod's metadata
				   (an Argo template), or NULL */
	struct wg_node *spec;	/* the pod spec mapping, or a shape's view */
	struct wg_pod_view *view;	/* NULL for a PodTemplateSpec */
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
 * As wg_podspec_find_all(), following a shape's references (a TaskRun's
 * taskRef, a PipelineRun's pipelineRef) to the objects of list they name
 * (list may be NULL: none is followed, and such a pod is unresolved:
 * wg_podspec_unresolved()).
 */
size_t wg_podspec_find_in(struct wg_arena *arena,
			  const struct wg_kind_set *extra,
			  struct wg_resources *list,
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

/* ---- shapes: reading and writing a pod's settings --------------------- */

/* The shape of ps's kind (wg_pod_template_shape for a PodTemplateSpec). */
const struct wg_pod_shape *wg_podspec_shape(const struct wg_podspec *ps);

/* Whether ps's kind has a place for the pod spec key (a wg_pod_field_keys
 * entry): always for a PodTemplateSpec. */
bool wg_podspec_has(const struct wg_podspec *ps, const char *key);

/* A node of the tree to place messages and changes about ps at: the pod
 * spec, or the shape's own holder (or the entry that holds it) when read
 * from input, else its pod item when that is of ps's object, else NULL
 * (the object's own position). */
const struct wg_node *wg_podspec_anchor(const struct wg_podspec *ps);

/*
 * What ps is, for messages: "template 'build'" (an Argo template),
 * "task 'unit'" (a pipeline task), or NULL for a PodTemplateSpec and a
 * pod that is its object.  In arena.
 */
const char *wg_podspec_what(struct wg_arena *arena,
			    const struct wg_podspec *ps);

/*
 * Whether ps's containers come from an object its workload names that is
 * not in the stream (a Task, a Pipeline, a StepAction), or is fetched from
 * elsewhere (a resolver): then what it runs is not known.  *what says
 * which ("Task 'build'"), *at is the reference and *path its path.
 */
bool wg_podspec_unresolved(const struct wg_podspec *ps, const char **what,
			   const struct wg_node **at, const char **path);

/* The object c comes from: the workload (NULL), or the object it names
 * (a Tekton Task). */
const struct wg_resource *wg_container_owner(const struct wg_podspec *ps,
					     const struct wg_container *c);

/*
 * The mapping (want WG_NODE_MAP) or list (WG_NODE_SEQ) under the pod spec
 * key where ps's own value is, made when missing or null: for a
 * PodTemplateSpec, the pod spec's (as wg_map_ensure_map()); for a shape,
 * its own holder's, made along its path, and when the pod inherited a
 * value from a shared holder, that value copied in first (a pod's own
 * value replaces the inherited one whole, in Argo and Tekton alike): the
 * copy is recorded on ctx as a change of res, with reason and where it
 * came from.  NULL when the kind has no place for key (wg_podspec_has())
 * or what is there (or on the way) is of another kind: *bad is then that
 * node and *bad_path (in arena) its path.
 */
struct wg_node *wg_podspec_ensure(struct wg_ctx *ctx, struct wg_arena *arena,
				  const struct wg_resource *res,
				  const struct wg_podspec *ps, const char *key,
				  int want, const char *reason,
				  const struct wg_node **bad,
				  const char **bad_path);

/* Sets key of ps's own settings to value (a scalar), its holder made when
 * missing; false (nothing done) when the kind has no place for key or
 * something on the way is not a mapping. */
bool wg_podspec_set(struct wg_arena *arena, const struct wg_podspec *ps,
		    const char *key, struct wg_node *value);

/* Removes key from ps's own settings; the value removed, or NULL. */
struct wg_node *wg_podspec_delete(struct wg_arena *arena,
				  const struct wg_podspec *ps,
				  const char *key);

/* As wg_podspec_path(), where ps's own value of the keys is (or would be
 * written): the same for a PodTemplateSpec. */
const char *wg_podspec_own_path(struct wg_buf *out,
				const struct wg_podspec *ps, ...);

/*
 * Every reference of res's shape followed into list (a PipelineRun's
 * pipelineRef, each task's taskRef, each step's ref, an Argo
 * workflowTemplateRef or templateRef): fn gets each, found or not.
 * Nothing for a kind without a shape.
 */
struct wg_podspec_ref {
	const char *what;	/* "Task 'build'", "a Task its resolver
				   fetches" */
	const struct wg_node *at;	/* the reference */
	const char *path;		/* its path */
	const struct wg_resource *target;	/* the object of list it
						   names; NULL: none */
	bool remote;		/* fetched from outside the stream */
	bool pods;		/* what its pods run comes from there (not
				   so for Argo's templateRef: the template
				   is the WorkflowTemplate's own pod) */
};
typedef void (*wg_podspec_ref_fn)(const struct wg_podspec_ref *ref,
				  void *payload);
void wg_podspec_refs(struct wg_arena *arena, const struct wg_kind_set *extra,
		     struct wg_resources *list, const struct wg_resource *res,
		     wg_podspec_ref_fn fn, void *payload);

/*
 * The settings res's callers set (kinds.h callers: an Argo steps or DAG
 * template's nodeSelector, tolerations, affinity, securityContext), which
 * the pods they run take when they set none: fn gets each value and its
 * path.  Nothing for a kind without callers.
 */
void wg_podspec_callers(struct wg_arena *arena,
			const struct wg_kind_set *extra,
			const struct wg_resource *res,
			void (*fn)(const struct wg_node *v, const char *path,
				   void *payload),
			void *payload);

/*
 * Whether res is of a kind that a built-in shape's reference names (a
 * Tekton Task, Pipeline or StepAction): what it runs, the objects that
 * name it place (TaskRun, PipelineRun).  *runners gets their kinds
 * ("TaskRun, PipelineRun"), in arena.
 */
bool wg_podspec_named_kind(struct wg_arena *arena,
			   const struct wg_resource *res, const char **runners);

/* Where ps reads key from: -1 nowhere, 0 its own settings (a
 * PodTemplateSpec's pod spec), s + 1 its shape's shared holder s. */
int wg_podspec_source(const struct wg_podspec *ps, const char *key);

/*
 * The mapping (want WG_NODE_MAP) or list under key in the shared holder
 * pods[i] reads it from (or its shape's last one, when it reads it from
 * nowhere: an Argo workflow's spec, a PipelineRun's taskRunTemplate pod
 * template), made along its path; *path (in arena) its path: call
 * wg_podspec_refresh() when it is written.  NULL when pods[i] is not
 * a shape's pod with a shared holder, has its own, or something on the way
 * is not a mapping.  For a value every pod that reads it there must take
 * (linux-pin's kubernetes.io/os: linux on a workflow of Linux pods).
 */
struct wg_node *wg_podspec_ensure_shared(struct wg_arena *arena,
					 struct wg_podspec *pods, size_t npods,
					 size_t i, const char *key, int want,
					 const char **path);


/* Reads the holders of every view of pods (a workload's npods) again:
 * after an edit of a shared holder. */
void wg_podspec_refresh(struct wg_arena *arena, struct wg_podspec *pods,
			size_t npods);

/* Whether ps reads key from a shared holder (a workflow's own settings,
 * a PipelineRun's taskRunTemplate), not its own. */
bool wg_podspec_inherits(const struct wg_podspec *ps, const char *key);

#endif
