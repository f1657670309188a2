#ifndef WINGEN_SELECT_INTERNAL_H
#define WINGEN_SELECT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/core/select.h"
#include "wingen/k8s/images.h"

/*
 * What the files of selection share (select.c and select_*.c; private to
 * src/core/).  The rule and the public contract are in select.h; each
 * function here is one part of it, named after the file that holds it.
 * Everything returned is in the list's arena unless said otherwise.
 *
 * Their calls go one way: select_prepare.c runs select_unknown.c and
 * select.c (the decision); both ask the parts; of the parts, build asks
 * node_agent, and build, node_agent and images ask pod, which asks list.
 */

/* ---- select_list.c: per-list state -------------------------------------- */

struct wg_sel_rc {
	const char *name;
	const struct wg_resource *res;
};

struct wg_select_state {
	size_t *matches;	/* per windows.select entry: workloads matched */
	size_t nentries;
	bool reported;		/* unmatched entries reported */
	struct wg_sel_rc *rcs;	/* the RuntimeClasses of the list */
	size_t nrcs;
	size_t indexed_len;	/* list->len when rcs was built */
	size_t selected_len;	/* list->len when all were last selected */
};

/* The list's selection state, made on first use. */
struct wg_select_state *wg_sel_state(struct wg_resources *list);

/* The per-entry match counters, made when the profile is first seen. */
size_t *wg_sel_counters(const struct wg_profile *p, struct wg_resources *list);

/* ---- select_entries.c: windows.select ----------------------------------- */

struct wg_sel_match {
	struct wg_ctx *ctx;
	struct wg_resource *res;
	size_t entry;
};

/*
 * The error that a profile's patterns spent the run's regex budget
 * (wg_regex_match_within() returned -2), said once a run: at node of res,
 * naming pattern re of windows.select[entry].what.
 */
void wg_sel_budget_spent(struct wg_ctx *ctx, struct wg_resource *res,
			 const struct wg_node *node, const char *field,
			 size_t entry, const char *what,
			 const struct wg_regex *re);

/* Whether entry e (index m->entry) matches m->res, whose pod templates
 * sel holds: 1, 0, or -1 after reporting a PCRE2 limit hit. */
int wg_sel_entry_matches(struct wg_sel_match *m, const struct wg_select *e,
			 const struct wg_selection *sel);

/* ---- select_pod.c: the pod's own say ------------------------------------ */

/* kubernetes.io/os and its deprecated beta key; the same for arch. */
extern const char *const wg_sel_os_keys[2];
extern const char *const wg_sel_arch_keys[2];

/* Whether a pod template of sel already targets Windows (one is enough);
 * field gets where, *hp true when it is because it is a HostProcess pod. */
bool wg_sel_pod_targets_windows(const struct wg_profile *p,
				struct wg_resources *list,
				const struct wg_selection *sel,
				struct wg_buf *field, bool *hp);

/* Whether some container of any template of sel runs as HostProcess. */
bool wg_sel_host_process(const struct wg_selection *sel);

/* Sets sel's own RuntimeClass (select.h own_rc), when its pod templates
 * name one of list's that is no build's of p and selects Windows. */
void wg_sel_own_runtime_class(const struct wg_profile *p,
			      struct wg_resources *list,
			      struct wg_selection *sel);

/* The handler sel's pods run with on build b: their own RuntimeClass's,
 * else b's. */
const char *wg_sel_handler(const struct wg_selection *sel,
			   const struct wg_build *b);

/* ---- select_annotations.c ----------------------------------------------- */

/*
 * One of wingen's annotations as the workload gives it: on the object's
 * own metadata.annotations, or on a pod template's (where a Helm chart's
 * podAnnotations puts it), read alike.  The object's comes first, then the
 * templates in order; a later place that says something else is an error
 * there naming the first (the workload is then left alone: two owners of
 * one chart disagree, and neither may silently win).
 */
struct wg_sel_ann {
	const struct wg_node *node;	/* NULL: not given */
	const char *field;		/* its field path, for messages */
	bool on_template;		/* read on a pod template */
};

/* Reads annotation key into *out (sel->failed on a contradiction). */
void wg_sel_read_ann(struct wg_ctx *ctx, struct wg_arena *arena,
		     struct wg_resource *res, struct wg_selection *sel,
		     const char *key, struct wg_sel_ann *out);

/* "annotation KEY", with the template's path when it was read there. */
const char *wg_sel_ann_why(struct wg_arena *arena, const struct wg_sel_ann *a,
			   const char *key);

/* "ltsc2022", or "ltsc2025/arm64" for a build not amd64. */
const char *wg_sel_build_label(struct wg_arena *arena,
			       const struct wg_build *b);

/* Reads wingen.dev/windows-build into sel->build (an error, and the
 * workload left alone, when it names no build of the profile). */
void wg_sel_annotated_build(struct wg_ctx *ctx, struct wg_arena *arena,
			    struct wg_resource *res, struct wg_selection *sel,
			    const struct wg_sel_ann *a);

/* Reads wingen.dev/windows-builds into sel->targets. */
void wg_sel_annotated_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			      struct wg_resource *res,
			      struct wg_selection *sel,
			      const struct wg_sel_ann *a);

/* A singular wingen.dev/windows-build names the one build (must be one of
 * wingen.dev/windows-builds when both are given); clears the targets. */
void wg_sel_single_build(struct wg_ctx *ctx, struct wg_resource *res,
			 struct wg_selection *sel,
			 const struct wg_sel_ann *single,
			 const struct wg_sel_ann *plural);

/* ---- select_build.c ----------------------------------------------------- */

/* The targets of a Windows workload (annotation, else its entry, else the
 * node-agent rule). */
void wg_sel_find_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			 struct wg_resource *res, struct wg_selection *sel,
			 const struct wg_sel_ann *plural,
			 const struct wg_node *bann);

/* Sets sel->build and sel->build_why. */
void wg_sel_choose_build(struct wg_arena *arena, const struct wg_profile *p,
			 struct wg_selection *sel);

/* The embedded default's warning for a workload routed to a legacy
 * release. */
void wg_sel_legacy_route(struct wg_ctx *ctx, struct wg_resource *res,
			 const struct wg_selection *sel,
			 const struct wg_node *ann, const char *ann_field);

/* ---- select_node_agent.c ------------------------------------------------ */

/* A node agent's targets: every build of a multi-build profile it can
 * reach (select.h). */
void wg_sel_node_agent_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			       struct wg_resource *res,
			       struct wg_selection *sel);

/* ---- select_images.c ---------------------------------------------------- */

/* The first container image b's hosts cannot run, of any pod template,
 * or NULL; *ref says what it names and *path (when not NULL) its field. */
const struct wg_node *wg_sel_image_misfit(const struct wg_selection *sel,
					  const struct wg_build *b,
					  struct wg_image_ref *ref,
					  struct wg_buf *path);

/* The first image of any pod template of sel that names Windows
 * (images.h: its family, tag or name), or NULL; *ref says what it names,
 * path its field. */
const struct wg_node *wg_sel_windows_image(const struct wg_selection *sel,
					   struct wg_image_ref *ref,
					   struct wg_buf *path);

/* Whether an image that names Windows selects the workload in p: when p
 * has no windows.select entry of its own (the embedded default, or a
 * profile without windows.select).  Else such an image that nothing
 * selects is an error (wg_sel_unselected_image). */
bool wg_sel_image_rule(const struct wg_profile *p);

/* The error for a workload whose image names Windows that the profile's
 * windows.select leaves out: it names the image and an entry that would
 * take it. */
void wg_sel_unselected_image(struct wg_ctx *ctx, struct wg_arena *arena,
			     struct wg_resource *res,
			     const struct wg_node *image,
			     const struct wg_image_ref *ref,
			     const char *field);

/* An error when the chosen build's hosts cannot run an image of sel
 * (res of list). */
void wg_sel_check_images(struct wg_ctx *ctx, struct wg_resources *list,
			 struct wg_resource *res,
			 const struct wg_selection *sel);

/* ---- select_unknown.c --------------------------------------------------- */

/*
 * What would pass through untouched, over the whole list, each a warning:
 * an object of a kind wingen does not know that holds a pod template a
 * windows.select entry would take, or a Windows image anywhere; a
 * reference a workload's pods depend on (a taskRef) that names nothing in
 * the stream; an object other objects run (a Tekton Task) with a Windows
 * image that nothing in the stream runs.
 */
void wg_sel_unknown(struct wg_ctx *ctx, struct wg_resources *list);

#endif
