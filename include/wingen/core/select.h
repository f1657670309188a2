#ifndef WINGEN_SELECT_H
#define WINGEN_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/podspec.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * Selection: which workloads are Windows workloads, and for which build.
 * Every plugin asks here; nobody re-implements it.  Computed once per
 * resource (cached in res->sel, in the list's arena) from ctx->profile.
 *
 * A workload (a kind of podspec.h with a pod spec) is a Windows workload
 * when, in this order:
 *  1. annotation wingen.dev/windows is "true" (forced in) or "false"
 *     (forced out, even if a rule below holds); any other value is an
 *     error at the annotation;
 *  2. a windows.select entry matches: entries are OR'ed, the fields of one
 *     entry AND'ed:
 *       kinds        the kind is one of them
 *       name         anchored PCRE2 on metadata.name
 *       namespace    anchored PCRE2 on metadata.namespace ("" when unset:
 *                    the namespace a stream will land in is not known)
 *       image        PCRE2 searched in the image of every container,
 *                    initContainer and ephemeralContainer; one is enough
 *       labelSelector, annotationSelector
 *                    Kubernetes selector syntax against the object's own
 *                    metadata.labels / metadata.annotations, as kustomize
 *                    selects; pod template labels do not count (for a Pod
 *                    they are the same thing);
 *     the first matching entry is the one named in change reasons;
 *  3. its pod template already targets Windows: nodeSelector
 *     kubernetes.io/os (or beta.kubernetes.io/os) windows, spec.os.name
 *     windows, required node affinity os In [windows] in every term, or a
 *     runtimeClassName naming a profile build's RuntimeClass or a
 *     RuntimeClass of the stream whose scheduling selects windows, or it
 *     is a HostProcess pod (windowsOptions.hostProcess true, read as a
 *     YAML 1.1 bool, on the pod or on every container), whatever its
 *     images: only Windows runs HostProcess containers.
 *
 * The build: annotation wingen.dev/windows-build (release name, alias or
 * build number of a profile build; anything else is an error at the
 * annotation), else the first build the pod spec already agrees with
 * (nodeSelector arch and windows-build, runtimeClassName, the releases of
 * its images: wg_image_fit of images.h) among the
 * matching entry's builds or, when it lists none, the default build and
 * then the others; else the entry's first build or windows.default.
 *
 * Fan-out targets (transforms/fan_out.c): a Windows workload targets
 * several builds when annotation wingen.dev/windows-builds lists them
 * (comma-separated release names, aliases, build numbers or RuntimeClass
 * names of profile builds; anything else, or a build twice, is an error
 * at the annotation), else when its matching entry lists several builds,
 * else, for a node agent (kinds.h node_agent) in a user's profile of
 * several builds that names no build itself, every build its images and
 * its own selectors admit (the others are a warning naming them; a
 * HostProcess workload gets no targets: it has no build key; the arches
 * of those builds, when several, go in arches).  They go in targets, in order, and build is the first of them the pod
 * spec agrees with (else the first).  Annotation wingen.dev/windows-build
 * names one build and wins over both: that is how fan-out's copies (and a
 * user's own pick) say which build they are; it must then be one of
 * wingen.dev/windows-builds when both are there.  With a fan-out step in
 * the profile's chain, the image check below waits for it (fan-out checks
 * each copy's images for the copy's build); without one, a warning says
 * that only build is used.
 *
 * Annotations (wingen.dev/windows, -build, -builds) are read on the
 * object's metadata.annotations and on each pod template's
 * metadata.annotations (where a Helm chart's podAnnotations puts them),
 * alike.  The same key in two places with different values is an error at
 * the later one (templates after the object, in order) naming the first,
 * and the resource is then left alone (failed).  Change reasons name a
 * template's annotation with its path: "annotation wingen.dev/windows
 * (spec.template.metadata.annotations)".
 *
 * A PCRE2 match or depth limit hit is an error naming the pattern, and
 * the resource is then left alone (failed).
 */

/* How a workload came to be a Windows workload (or not). */
enum wg_sel_by {
	WG_SEL_NONE = 0,	/* not a Windows workload */
	WG_SEL_ANNOTATION,	/* wingen.dev/windows: "true" */
	WG_SEL_ENTRY,		/* windows.select[entry] */
	WG_SEL_POD,		/* its pod template already targets Windows */
	WG_SEL_IMAGE,		/* an image names Windows (no windows.select
				   of the user's: the image rule) */
};

/* Conflicts already reported, so a later plugin does not repeat them. */
enum {
	WG_SEL_NODESEL_CONFLICT = 1 << 0,
};

struct wg_selection {
	bool workload;		/* has a pod spec (pod is valid) */
	bool windows;		/* a Windows workload: transforms apply */
	bool opted_out;		/* wingen.dev/windows: "false" */
	bool failed;		/* selection reported an error: leave it */
	bool host_process;	/* some container runs as HostProcess */
	bool pod_windows;	/* its pod template targets Windows (rule 3),
				   whether or not it was opted out */
	enum wg_sel_by by;
	size_t entry;		/* windows.select index, when by is ENTRY */
	const struct wg_build *build;	/* target build; NULL unless windows */
	const char *why;	/* "windows.select[1]", for change reasons */
	const char *build_why;	/* "windows.default", ... */
	const char *reason;	/* "windows.select[1]; build ltsc2022
				   (windows.default)" */
	struct wg_podspec pod;	/* where the pod spec is, when workload */
	unsigned reported;	/* WG_SEL_* flags */
	/* Fan-out (added after the fields above). */
	const struct wg_build *const *targets;	/* every target build, in */
	size_t ntargets;			/* order; 0 unless > 1 */
	const char *targets_why;	/* "windows.select[0].builds", ... */
	bool multi;		/* set by fan-out: one workload on every
				   target (required node affinity on
				   node.kubernetes.io/windows-build In
				   [...], no nodeSelector key for it) */
	const char *runtime_class;	/* multi: the RuntimeClass without a
					   build label; NULL: build's */
	/* Every pod template (added after the fields above): pod is the
	 * first.  A workload whose kind holds several (a Volcano Job's
	 * tasks) is selected as one object: an image of any template
	 * matches, any template may already target Windows, and every
	 * transform edits every template. */
	struct wg_podspec *pods;
	size_t npods;
	const struct wg_kind_set *kinds;	/* the kinds it was found in */
	/* A node agent on builds of several arches (added after the fields
	 * above): every kubernetes.io/arch it runs on, in build order, when
	 * more than one; node-selector then writes required affinity
	 * kubernetes.io/arch In [...] in place of the nodeSelector key. */
	const char *const *arches;
	size_t narches;
	/* Added after the fields above. */
	const struct wg_node *windows_image;	/* the first image that
						   names Windows, or NULL */
	const char *windows_image_why;	/* "image '...' names Windows (its
					   tag says 'ltsc2022': ltsc2022)" */
	bool any_build;		/* runs on every Windows build: no
				   windows-build key and no RuntimeClass (a
				   HostProcess pod; a node agent of the
				   embedded default whose images name no
				   release) */
	const char *any_build_why;	/* why, for change reasons */
	bool any_arch;		/* any_build, and no kubernetes.io/arch key
				   either: the embedded default's node agent
				   whose images name no arch */
	bool no_runtime_class;	/* targets several builds with no
				   RuntimeClass: the embedded default's node
				   agent (its handler is containerd's
				   default, the DaemonSet carries its own
				   scheduling, and no RuntimeClass needs
				   installing for it) */
	/* The pod's own RuntimeClass (added after the fields above): one
	 * of the stream, not a profile build's, that its pod templates
	 * name and whose scheduling selects Windows (a Hyper-V class the
	 * user installed, as windows-testing's runhcs-wcow-hypervisor).  It
	 * is kept (runtime-class-name checks its admission rules only), it
	 * agrees with a build its scheduling admits, and its handler, not
	 * the build's, says which images the build's hosts run for the
	 * pod. */
	const struct wg_resource *own_rc;
	const char *own_rc_name;
	const char *own_handler;	/* NULL: containerd's default */
	/* The RuntimeClass its pod templates name when it is neither a
	 * build's of the profile nor in the stream (a class the cluster was
	 * installed with: windows-2019), else NULL; its release, when its
	 * name says one as wingen's do (retarget.h), else NULL.  It does not
	 * decide the build beyond that release, and runtime-class-name
	 * keeps it with a warning on a build of that release
	 * (wg_sel_keeps_foreign_rc). */
	const char *foreign_rc_name;
	const struct wg_release *foreign_rc_release;
	/* A kind whose pods are decided apart (kinds.h: an Argo workflow's
	 * templates, a PipelineRun's tasks, added after the fields above):
	 * one selection per pod, parts[i] for pods[i] (its pods and pod are
	 * that one pod); the object is then a Windows workload when one of
	 * its pods is (build, why and reason the first such pod's), failed
	 * when one is.  NULL for every other kind: read them through
	 * wg_select_pod(). */
	struct wg_selection *parts;
};

/*
 * The selection that decides pod i of sel (sel->pods[i]): sel itself, or
 * that pod's own for a kind whose pods are decided apart.  Transforms loop
 * over sel->pods and ask this for each.
 */
static inline struct wg_selection *wg_select_pod(struct wg_selection *sel,
						 size_t i)
{
	return sel->parts && i < sel->npods ? &sel->parts[i] : sel;
}

/* Whether sel's pods keep their RuntimeClass that is neither a build's
 * nor in the stream (foreign_rc_name): one build, whose release its name
 * says (windows-2019 on ltsc2019; a name that says none, as kata, may
 * well be a Linux sandbox's).  Then no RuntimeClass of the profile is
 * named for them. */
static inline bool wg_sel_keeps_foreign_rc(const struct wg_selection *sel)
{
	return sel->foreign_rc_name && !sel->multi && !sel->ntargets
	       && sel->build && sel->foreign_rc_release
	       && sel->foreign_rc_release == sel->build->release;
}

/*
 * The selection of res, computed on first use.  Never NULL; a resource
 * that is not a workload has workload false.  Without a profile nothing
 * is a Windows workload.
 */
struct wg_selection *wg_select(struct wg_ctx *ctx, struct wg_resources *list,
			       struct wg_resource *res);

/*
 * Selects every resource of list, then warns (an error with --strict)
 * once per list about each windows.select entry that matches no workload;
 * entries that come from the embedded default profile are not the user's
 * choice and are not reported.  What it reports names WG_SELECT_RULE as
 * what found it (diag.h's rule), whichever plugin runs it.
 * Plugins call it from their prepare hook.  Returns 0.
 */
#define WG_SELECT_RULE "select"
int wg_select_prepare(struct wg_ctx *ctx, struct wg_resources *list);

/*
 * The release (and arch) an image is built for is read through the image
 * families (wingen/k8s/images.h).  Selection prefers a build whose hosts
 * can run every image of a workload (HostProcess pods: their arch only,
 * they need not match the host's build), and reports an error when the
 * chosen build cannot.
 */

/*
 * Gives copy the selection of from for build b, as fan-out decided it:
 * copy is a copy fan-out made of from's workload (or that workload edited
 * into its first copy), and carries annotation wingen.dev/windows-build
 * naming b, so a later run computes the same selection from the text
 * (selection is not recomputed now: the copy's new name may no longer
 * match the entry that selected the original).  Returns copy's selection.
 */
struct wg_selection *wg_select_as_copy(struct wg_resources *list,
				       struct wg_resource *copy,
				       const struct wg_selection *from,
				       const struct wg_build *b);

/* The RuntimeClass of list called name, or NULL. */
const struct wg_resource *wg_select_runtime_class(struct wg_resources *list,
						  const char *name);


#endif
