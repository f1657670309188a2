#ifndef WINGEN_KINDS_H
#define WINGEN_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * The kinds table: what wingen knows about each kind of object it reads,
 * as data (kustomize's field specs in spirit).  Selection, every
 * transform, the Services check, fan-out, the profile check and migrate
 * read it; no plugin spells a kind, a pod path or an API group itself.
 *
 * A workload kind is a kind whose objects hold pod templates: the
 * built-in Kubernetes workloads, well-known custom resources (Argo
 * Rollouts, KEDA, Knative Serving, OpenKruise, Volcano), and those a
 * profile declares under workloads:.  A kind counts only with one of its
 * own API groups: a custom resource may call itself "Job" or
 * "StatefulSet".  An object without apiVersion is taken at its kind's
 * word for the built-in Kubernetes kinds only (a custom resource cannot be
 * applied without one).
 *
 * Paths are wg_path_get() paths from the object's root; "[]" after a key
 * means every item of that list ("spec.tasks[].template"), and "" is the
 * root itself (a Pod is its own template).
 */

/* Template paths per kind, and "[]" steps per path, at most. */
#define WG_KIND_MAX_TEMPLATES 4
#define WG_KIND_MAX_ITEMS 4

/* The shape of a workload's label selector. */
enum wg_selector_shape {
	WG_SELECTOR_NONE = 0,	/* none: its controller labels the pods
				   (Pod, Knative, KEDA, Volcano) */
	WG_SELECTOR_LABELS,	/* a LabelSelector: matchLabels and
				   matchExpressions */
	WG_SELECTOR_MAP,	/* a plain map of labels
				   (ReplicationController) */
};

/*
 * Pods that are not PodTemplateSpecs: an Argo Workflow runs one pod per
 * template, whose settings sit on the template and on the workflow; a
 * Tekton run takes its containers from a Task and its settings from a pod
 * template of its own.  A shape says where each of that lives, as data;
 * the PodTemplateSpec kinds are its simple case (wg_pod_template_shape:
 * the settings and the containers are the keys of the template's spec).
 * podspec.h walks a shape into one view per pod.
 *
 * Every path of a shape is a wg_path_get() path ("[]" every item of a
 * list, at most WG_KIND_MAX_ITEMS of them; "" where it starts).
 */

/* The pod settings wingen reads and writes, each by its pod spec key
 * (wg_pod_field_keys). */
enum wg_pod_field {
	WG_POD_NODE_SELECTOR = 0,	/* nodeSelector */
	WG_POD_TOLERATIONS,		/* tolerations */
	WG_POD_AFFINITY,		/* affinity */
	WG_POD_RUNTIME_CLASS,		/* runtimeClassName */
	WG_POD_OS,			/* os */
	WG_POD_SECURITY_CONTEXT,	/* securityContext */
	WG_POD_HOST_NETWORK,		/* hostNetwork */
	WG_POD_NFIELDS
};

extern const char *const wg_pod_field_keys[WG_POD_NFIELDS];

/* The field of a pod spec key, or -1 when key is none of them. */
int wg_pod_field_of(const char *key);

#define WG_SHAPE_MAX_PODS 4		/* pod item paths */
#define WG_SHAPE_MAX_CONTAINERS 6	/* container paths */
#define WG_SHAPE_MAX_SHARED 2		/* shared settings holders */
#define WG_SHAPE_MAX_CHECKS 4		/* references checked */

/*
 * A reference to another object of the stream: a mapping with the
 * object's name (Tekton's taskRef: {name, kind}; Argo's templateRef:
 * {name, template, clusterScope}).
 */
struct wg_pod_ref {
	const char *at;		/* the reference, from where it is read;
				   NULL: no reference */
	const char *kind;	/* the kind it names when it says none */
	const char *cluster_kind;	/* the cluster-scoped kind it may
					   name: by its kind key, or by a
					   true cluster key; NULL none */
	const char *cluster;	/* that key ("clusterScope"), or NULL */
	const char *groups;	/* the API groups of those kinds */
	const char *body;	/* in the named object, where what it brings
				   is ("spec") */
	const char *remote;	/* '|'-separated keys that say it is fetched
				   from outside the stream ("resolver") */
};

struct wg_pod_shape {
	/* Where the pods are: the pod root, from the object's root, or
	 * (when it is missing) the body of the object root_ref names. */
	const char *root;
	struct wg_pod_ref root_ref;
	/* From the pod root, each item one pod ("templates[]"; "" the root
	 * itself), NULL-ended; an item runs a pod only when it holds one of
	 * the '|'-separated keys of runs (NULL: every item). */
	const char *pods[WG_SHAPE_MAX_PODS + 1];
	const char *runs;
	/* Where a pod's containers are: its body, from the pod item ("" the
	 * item), or the body of the object body_ref names; then each
	 * container path from the body: "steps[]" a list of containers,
	 * "container" one container.  Those of init_containers run first
	 * (the pod's initContainers). */
	const char *body;
	struct wg_pod_ref body_ref;
	const char *containers[WG_SHAPE_MAX_CONTAINERS + 1];
	const char *init_containers;
	/* A container holding this reference takes what it runs from the
	 * named object's body (Tekton's step ref: a StepAction). */
	struct wg_pod_ref container_ref;
	/* A container whose fields a container without its own takes
	 * (Tekton's stepTemplate: its image counts when a step has none). */
	const char *container_defaults;
	/* Where a pod's settings are: its own holder, from the pod item ("" the
	 * item), or from the entry of own_list (from the object's root)
	 * whose own_key is the pod item's name; then the shared holders
	 * (from the object's root), first first: a field the pod's own
	 * holder does not set is read from the first that does. */
	const char *own;
	const char *own_list;
	const char *own_key;
	const char *shared[WG_SHAPE_MAX_SHARED + 1];
	/* Each field's path from a holder; NULL: the shape has no place for
	 * it (never written, said so). */
	const char *fields[WG_POD_NFIELDS];
	bool empty_inherits;	/* an empty mapping or list sets nothing
				   (Argo's len() > 0) */
	/* Items of the pod paths that run no pod but hold one of these
	 * '|'-separated keys call pods, which take the caller's settings
	 * when they set none (Argo's steps and DAG templates: the "boundary"
	 * template); wingen writes a pod's own, so such settings are said. */
	const char *callers;
	bool apart;		/* each pod is decided on its own (a hybrid
				   workflow runs Linux and Windows pods) */
	/* References whose object should be in the stream, though they
	 * bring no pod into this one (Argo's templateRef: the template's
	 * pods are the WorkflowTemplate's own), from the pod root. */
	struct wg_pod_ref checks[WG_SHAPE_MAX_CHECKS + 1];
};

/* The shape of a kind with PodTemplateSpecs (templates): settings and
 * containers are keys of the template's spec. */
extern const struct wg_pod_shape wg_pod_template_shape;

/* Where a kind's entry comes from. */
enum wg_kind_origin {
	WG_KIND_KUBERNETES = 0,	/* a built-in Kubernetes kind */
	WG_KIND_CUSTOM,		/* a well-known custom resource */
	WG_KIND_DECLARED,	/* the profile's workloads: */
};

struct wg_kind {
	const char *kind;
	const char *groups;	/* accepted API groups, '|'-separated; ""
				   is the core group */
	const char *versions;	/* accepted API versions, '|'-separated;
				   NULL: any */
	/* PodTemplateSpec paths (metadata + spec), NULL-ended; none when
	 * shape is set. */
	const char *templates[WG_KIND_MAX_TEMPLATES + 1];
	/* Where its pods are when they are not PodTemplateSpecs; NULL:
	 * templates (wg_pod_template_shape). */
	const struct wg_pod_shape *shape;
	const char *selector;	/* path of its label selector, or NULL */
	enum wg_selector_shape selector_shape;
	/* A selector that is the controller's unless this key (a path) is
	 * "true": a Job's generated controller-uid selector. */
	const char *manual_selector;
	/* Path of the number of pods it runs at once (default 1 when
	 * missing); "" exactly one (a Pod); NULL unknown: one per node
	 * (node_agent) or set by an autoscaler.  "[]" steps take the
	 * indexes of the template they count. */
	const char *pods;
	const char *claims;	/* volumeClaimTemplates path, or NULL */
	size_t name_max;	/* longest metadata.name its pods allow */
	bool node_agent;	/* one pod per node, like a DaemonSet */
	bool no_pods;		/* runs no pods itself (PodTemplate) */
	enum wg_kind_origin origin;
	const char *project;	/* "Argo Rollouts"; NULL for Kubernetes */
	const char *note;	/* what to know about it, for docs, or NULL */
};

/* Every built-in kind (Kubernetes first, then custom resources), ended by
 * an entry with kind NULL. */
extern const struct wg_kind wg_kinds[];

/* More kinds, declared by a profile.  Owned by whoever declares them. */
struct wg_kind_set {
	const struct wg_kind *items;
	size_t len;
};

/*
 * The workload kind of res (its kind and API group), from the built-in
 * table and then extra (may be NULL), or NULL: not a workload.
 */
const struct wg_kind *wg_kind_of(const struct wg_kind_set *extra,
				 const struct wg_resource *res);

/*
 * The first workload kind called name (len bytes) of any group, or NULL:
 * for a select entry's kinds: and an HPA's scaleTargetRef, which name a
 * kind without its object.
 */
const struct wg_kind *wg_kind_named(const struct wg_kind_set *extra,
				    const char *name, size_t len);

/*
 * The distinct kind names of the table and of extra, in table order, for
 * messages: up to cap of them go in names.  Returns how many there are.
 */
size_t wg_kind_names(const struct wg_kind_set *extra, const char **names,
		     size_t cap);

/*
 * The built-in kind called kind whose groups overlap groups ('|'-
 * separated), or NULL: a profile's declared kind may not shadow one.
 */
const struct wg_kind *wg_kind_collides(const char *kind, const char *groups);

/* ---- kinds that are not workloads ---------------------------------------- */

enum wg_known_kind {
	WG_KIND_SERVICE = 0,	/* v1 Service */
	WG_KIND_HPA,		/* autoscaling HorizontalPodAutoscaler */
	WG_KIND_PDB,		/* policy PodDisruptionBudget */
	WG_KIND_RUNTIME_CLASS,	/* node.k8s.io RuntimeClass */
	WG_KIND_KNOWN_COUNT
};

struct wg_known {
	const char *kind;
	const char *group;
	const char *api_version;	/* of the objects wingen generates
					   of this kind; NULL: none */
};

extern const struct wg_known wg_known_kinds[WG_KIND_KNOWN_COUNT];

/* Whether res is of kind k, in k's group (no apiVersion: its kind's
 * word). */
bool wg_is_kind(const struct wg_resource *res, enum wg_known_kind k);

/* ---- API groups ---------------------------------------------------------- */

/*
 * The API group of an apiVersion scalar: "apps/v1" -> "apps", "v1" -> ""
 * (the core group).  Sets *group (pointing into api) and *len; false when
 * api is not a scalar.  The one parser of apiVersion.
 */
bool wg_api_group(const struct wg_node *api, const char **group,
		  size_t *len);

/* Whether api names one of groups ('|'-separated; "" the core group).
 * A missing api (NULL) is taken as a match. */
bool wg_api_group_in(const struct wg_node *api, const char *groups);

/* Whether group (len bytes) is one of groups ('|'-separated). */
bool wg_group_listed(const char *group, size_t len, const char *groups);

#endif
