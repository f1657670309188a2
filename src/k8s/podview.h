#ifndef WINGEN_PODVIEW_H
#define WINGEN_PODVIEW_H

/*
 * The view of one pod of a shape (kinds.h), private to src/k8s/: built by
 * podview.c, read and edited through podspec.h.
 */
#include "wingen/k8s/podspec.h"

struct view_ctr {
	struct wg_node *node;
	const char *path;	/* its path, "Task/name spec.steps[0]" when
				   owner is another object */
	const struct wg_resource *owner;	/* NULL: the workload */
};

struct wg_pod_view {
	const struct wg_pod_shape *shape;
	const struct wg_resource *res;	/* the workload */
	struct wg_node *item;		/* the pod item */
	const char *item_path;
	const struct wg_resource *item_owner;	/* NULL: res */
	const char *name;		/* the item's name, or NULL */
	struct wg_node *own;		/* the own holder, NULL when not there */
	const char *own_path;		/* its path, or where it would be */
	struct wg_node *own_parent;	/* the item, or own_list's entry;
					   NULL when there is none yet */
	const char *own_parent_path;
	struct wg_node *shared[WG_SHAPE_MAX_SHARED];
	const char *shared_path[WG_SHAPE_MAX_SHARED];
	unsigned nshared;
	signed char from[WG_POD_NFIELDS];	/* -1 unset, 0 own, s + 1
						   shared[s] */
	struct view_ctr *ctrs[2];	/* initContainers, containers */
	size_t nctrs[2], cap[2];
	const struct wg_resource *body_owner;	/* NULL: res */
	const char *missing;		/* "Task 'build'": unresolved */
	const struct wg_node *missing_at;
	const char *missing_path;
	struct wg_node *map;		/* the view (podspec.h spec) */
};

/* ---- podrefs.c: following a reference ----------------------------------- */

enum follow {
	FOLLOW_NONE = 0,	/* no reference there */
	FOLLOW_FOUND,		/* *body is the named object's */
	FOLLOW_MISSING,		/* not in the stream (or no list) */
	FOLLOW_REMOTE,		/* fetched from elsewhere */
	FOLLOW_OTHER,		/* names a kind the shape does not run
				   (a Tekton custom task) */
};

struct followed {
	enum follow how;
	struct wg_node *body;
	const struct wg_resource *owner;
	const char *what;	/* "Task 'build'" */
	const struct wg_node *at;
	const char *path;	/* of the reference */
};

/* Follows ref at node from (whose path is from_path) within res, to the
 * objects of list (NULL: none followed). */
void wg_podview_follow(struct wg_arena *arena, struct wg_resources *list,
		       const struct wg_resource *res,
		       const struct wg_pod_ref *ref, struct wg_node *from,
		       const char *from_path, struct followed *out);

/* ---- podview.c ------------------------------------------------------------ */

/* base and p joined as a path ("" either is the other), in a. */
const char *wg_podview_join(struct wg_arena *a, const char *base,
			    const char *p);

/* Fills the view mapping of v from its holders (again, after an edit). */
void wg_podview_fill(struct wg_arena *a, struct wg_pod_view *v);

/* The pods of res, a kind with a shape, into out (NULL: counted only);
 * returns how many. */
size_t wg_podview_find(struct wg_arena *arena, const struct wg_kind *k,
		       struct wg_resources *list,
		       const struct wg_resource *res, struct wg_podspec *out,
		       wg_podspec_ref_fn fn, void *payload);

/* wg_podspec_refs() for a kind with a shape. */
void wg_podview_refs(struct wg_arena *arena, const struct wg_kind *k,
		     struct wg_resources *list, const struct wg_resource *res,
		     wg_podspec_ref_fn fn, void *payload);

/* wg_podspec_callers() for a kind with a shape. */
void wg_podview_callers(struct wg_arena *arena, const struct wg_kind *k,
			const struct wg_resource *res,
			void (*fn)(const struct wg_node *v, const char *path,
				   void *payload),
			void *payload);

/* ---- podedit.c ------------------------------------------------------------ */

/* The editing functions of podspec.h, for a field (enum wg_pod_field). */
struct wg_node *wg_podview_ensure(struct wg_ctx *ctx, struct wg_arena *a,
				  const struct wg_resource *res,
				  struct wg_pod_view *v, int f, int want,
				  const char *reason,
				  const struct wg_node **bad,
				  const char **bad_path);
bool wg_podview_set(struct wg_arena *a, struct wg_pod_view *v, int f,
		    struct wg_node *value);
struct wg_node *wg_podview_delete(struct wg_arena *a, struct wg_pod_view *v,
				  int f);

/* Where field f is read from: -1 nowhere, 0 the pod's own holder, s + 1
 * the shared holder s. */
int wg_podview_source(const struct wg_pod_view *v, int f);

/* The value of field f in the shared holder v reads it from (or the last
 * one, when it reads it from nowhere), made along its path; *path its
 * path.  NULL when the shape has none or v has its own. */
struct wg_node *wg_podview_ensure_shared(struct wg_arena *a,
					 struct wg_pod_view *v, int f,
					 int want, const char **path);

/* Reads v's holders again (after an edit through another pod's view). */
void wg_podview_refresh(struct wg_arena *a, struct wg_pod_view *v);

/* The path of field f: where its value is read (own false), or where
 * the pod's own is (own true). */
const char *wg_podview_field_path(struct wg_arena *a,
				  const struct wg_pod_view *v, int f, bool own);

#endif
