/*
 * wingen init's profile: the Windows nodes of a cluster grouped by build
 * and arch, written as a commented profile (init.h).  The text is written
 * here rather than through the YAML writer, which has no comments; every
 * value goes through wg_scalar_needs_quotes().
 */
#include "wingen/profile/init.h"

#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/k8s/keys.h"
#include "wingen/yaml/scalar.h"

/* What the loader takes when a build does not say (profile_check.c). */
#define DEFAULT_HANDLER "runhcs-wcow-process"
/* How many names a comment or message lists before "and N more". */
#define SHOWN 3


/* One build of the profile: the Windows nodes of one build and arch. */
struct group {
	const char *build;	/* "10.0.20348" */
	const struct wg_release *release;	/* NULL: not in the catalogue */
	unsigned number;	/* the build number, for the order */
	const char *arch;
	const struct wg_cluster_node **nodes;
	size_t len, cap;
	const char *handler;
	const char *runtime;	/* containerRuntimeVersion of the first node
				   running the handler's runtime */
	const char *runtime_class;
};

/* A repelling taint and the Windows nodes that carry it. */
struct taint {
	const struct wg_node *node;	/* the first node's taint */
	size_t count;
	const struct wg_cluster_node *example;	/* a node with it */
};

struct init {
	struct wg_ctx *ctx;
	const struct wg_cluster *c;
	struct wg_arena arena;
	struct group *groups;
	size_t ngroups, groups_cap;
	size_t nwindows, nlinux, nother;
	struct taint *taints;
	size_t ntaints, taints_cap;
	const struct wg_node *taint;	/* the one written; NULL: default */
};

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static unsigned build_number(const char *build)
{
	return (unsigned)strtoul(build + strlen("10.0."), NULL, 10);
}

/* ---- grouping ------------------------------------------------------------ */

/* Warns about a node left out; false. */
static bool leave_out(struct init *in, const struct wg_cluster_node *n,
		      const struct wg_node *at, const char *field,
		      const char *why)
{
	wg_warning(in->ctx, n->res, at, field, "%s: left out of the profile",
		   why);
	return false;
}

/* Whether n is a Windows node the profile describes (warnings for the
 * ones it cannot). */
static bool take(struct init *in, const struct wg_cluster_node *n)
{
	const struct wg_node *labels = n->labels_node;

	if (!n->os) {
		in->nother++;
		return leave_out(in, n, NULL, NULL, "no kubernetes.io/os label "
				 "and no status.nodeInfo.operatingSystem: the "
				 "node's operating system is unknown");
	}
	if (strcmp(n->os, "linux") == 0) {
		in->nlinux++;
		return false;
	}
	if (strcmp(n->os, "windows") != 0) {
		in->nother++;
		return leave_out(in, n, wg_map_get(labels, WG_LABEL_OS),
				 NULL, wg_arena_printf(&in->arena,
				 "operating system '%s' is neither linux nor "
				 "windows", n->os));
	}
	in->nwindows++;
	if (!n->build)
		return leave_out(in, n, NULL, NULL, "Windows node without a "
				 "build: no build number in its "
				 "node.kubernetes.io/windows-build label, "
				 "status.nodeInfo.kernelVersion or osImage");
	if (!n->arch)
		return leave_out(in, n, NULL, NULL, "Windows node without an "
				 "architecture: no kubernetes.io/arch label "
				 "and no status.nodeInfo.architecture");
	for (size_t i = 0; wg_profile_arches[i]; i++)
		if (strcmp(n->arch, wg_profile_arches[i]) == 0)
			return true;
	return leave_out(in, n, wg_map_get(labels, WG_LABEL_ARCH),
			 NULL, wg_arena_printf(&in->arena, "architecture '%s' "
			 "is not one a profile build may have (amd64, arm64)",
			 n->arch));
}

static struct group *group_of(struct init *in,
			      const struct wg_cluster_node *n)
{
	struct group *g;

	for (size_t i = 0; i < in->ngroups; i++)
		if (strcmp(in->groups[i].build, n->build) == 0
		    && strcmp(in->groups[i].arch, n->arch) == 0)
			return &in->groups[i];
	WG_GROW(in->groups, in->groups_cap, in->ngroups + 1);
	g = &in->groups[in->ngroups++];
	memset(g, 0, sizeof(*g));
	g->build = n->build;
	g->release = n->release;
	g->number = build_number(n->build);
	g->arch = n->arch;
	return g;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return strcmp(x->arch, y->arch);
}

/* "a, b, c and 4 more" of at most SHOWN items, in arena. */
static const char *some(struct wg_arena *a, const char *const *items,
			size_t n)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *s;

	for (size_t i = 0; i < n && i < SHOWN; i++)
		wg_buf_addf(&b, "%s%s", i == 0 ? "" : (i + 1 == n ? " and "
						       : ", "), items[i]);
	if (n > SHOWN)
		wg_buf_addf(&b, " and %zu more", n - SHOWN);
	s = wg_arena_strdup(a, b.len ? b.buf : "");
	wg_buf_release(&b);
	return s;
}

/* The distinct pools of g's nodes, and the names of nodes without one. */
static const char *where(struct init *in, const struct group *g)
{
	const char **pools = wg_arena_zalloc(&in->arena, (g->len + 1)
						       * sizeof(*pools));
	const char **loose = wg_arena_zalloc(&in->arena, (g->len + 1)
						       * sizeof(*loose));
	size_t np = 0, nl = 0;

	for (size_t i = 0; i < g->len; i++) {
		const char *p = g->nodes[i]->pool;
		bool seen = false;

		if (!p) {
			loose[nl++] = g->nodes[i]->name;
			continue;
		}
		for (size_t k = 0; k < np && !seen; k++)
			seen = strcmp(pools[k], p) == 0;
		if (!seen)
			pools[np++] = p;
	}
	if (np && nl)
		return wg_arena_printf(&in->arena, "%s %s, and %s",
				       np == 1 ? "pool" : "pools",
				       some(&in->arena, pools, np),
				       some(&in->arena, loose, nl));
	if (np)
		return wg_arena_printf(&in->arena, "%s %s",
				       np == 1 ? "pool" : "pools",
				       some(&in->arena, pools, np));
	return some(&in->arena, loose, nl);
}

/* The handler of g: the runtime most of its nodes run. */
static void pick_handler(struct init *in, struct group *g)
{
	size_t counts[8] = { 0 }, unknown = 0, best = 0, kinds = 0;
	const struct wg_cluster_node *odd = NULL;
	size_t nr = 0;

	while (wg_runtimes[nr].scheme)
		nr++;
	for (size_t i = 0; i < g->len; i++) {
		const struct wg_runtime *r = g->nodes[i]->runtime;

		if (!r) {
			if (!unknown++)
				odd = g->nodes[i];
			continue;
		}
		counts[r - wg_runtimes]++;
	}
	for (size_t i = 0; i < nr && i < 8; i++) {
		kinds += counts[i] > 0;
		if (counts[i] > counts[best])
			best = i;
	}
	if (!counts[best]) {
		g->handler = DEFAULT_HANDLER;
		wg_warning(in->ctx, odd->res, NULL,
			   "status.nodeInfo.containerRuntimeVersion",
			   "container runtime '%s' is not one wingen knows "
			   "(containerd, docker): build %s on %s gets the "
			   "handler %s", odd->runtime_version
			   ? odd->runtime_version : "", g->build, g->arch,
			   g->handler);
		return;
	}
	g->handler = wg_runtimes[best].handler;
	for (size_t i = 0; i < g->len && !g->runtime; i++)
		if (g->nodes[i]->runtime == &wg_runtimes[best])
			g->runtime = g->nodes[i]->runtime_version;
	if (kinds > 1 || unknown) {
		for (size_t i = 0; i < g->len && !odd; i++)
			if (g->nodes[i]->runtime != &wg_runtimes[best])
				odd = g->nodes[i];
		wg_warning(in->ctx, odd->res, NULL,
			   "status.nodeInfo.containerRuntimeVersion",
			   "the nodes of build %s on %s run different "
			   "container runtimes ('%s' here); one RuntimeClass "
			   "has one handler: %s, that of most of them",
			   g->build, g->arch, odd->runtime_version
			   ? odd->runtime_version : "", g->handler);
	}
	if (wg_runtimes[best].removed) {
		const struct wg_cluster_node *n = NULL;

		for (size_t i = 0; i < g->len && !n; i++)
			if (g->nodes[i]->runtime == &wg_runtimes[best])
				n = g->nodes[i];
		wg_warning(in->ctx, n->res, NULL,
			   "status.nodeInfo.containerRuntimeVersion",
			   "build %s on %s runs %s: handler %s; %s",
			   g->build, g->arch, n->runtime_version, g->handler,
			   wg_runtimes[best].removed);
	}
}

static const char *field_of(enum wg_build_source from)
{
	return from == WG_BUILD_KERNEL ? "status.nodeInfo.kernelVersion"
				       : "status.nodeInfo.osImage";
}

/* Warnings of g: builds read from nodeInfo, a build not catalogued. */
static void check_group(struct init *in, const struct group *g)
{
	const struct wg_cluster_node *first = NULL;
	size_t unlabelled = 0;

	for (size_t i = 0; i < g->len; i++)
		if (g->nodes[i]->build_from != WG_BUILD_LABEL
		    && !unlabelled++)
			first = g->nodes[i];
	if (first)
		wg_warning(in->ctx, first->res, NULL, "metadata.labels",
			   "no node.kubernetes.io/windows-build label%s: "
			   "build %s read from %s; RuntimeClass scheduling "
			   "selects nodes by that label, so no pod of this "
			   "build is placed on %s until the kubelet sets it",
			   unlabelled > 1 ? wg_arena_printf(&in->arena,
			   " (nor on %zu more nodes)", unlabelled - 1) : "",
			   g->build, field_of(first->build_from),
			   unlabelled > 1 ? "them" : "it");
	if (!g->release) {
		const struct wg_cluster_node *n = g->nodes[0];
		const struct wg_release *newest = wg_releases;
		bool label = n->build_from == WG_BUILD_LABEL;

		for (const struct wg_release *r = wg_releases; r->name; r++)
			if (r->number > newest->number)
				newest = r;
		wg_warning(in->ctx, n->res, label ? wg_map_get(n->labels_node,
			   WG_LABEL_WINDOWS_BUILD) : NULL,
			   label ? "metadata.labels.[" WG_LABEL_WINDOWS_BUILD "]"
			   : field_of(n->build_from),
			   "Windows build %s is not in wingen's catalogue (the "
			   "newest it knows is %s, %s; see 'wingen builds'): "
			   "kept as build \"%s\"; which images its hosts run "
			   "cannot be checked", g->build, newest->build,
			   newest->name, g->build);
	}
}

/* The RuntimeClass name the loader would give (profile_check.c:
 * windows-<release>[-<arch>], lowercase). */
static const char *runtime_class(struct init *in, const struct group *g)
{
	const char *name = g->release ? g->release->name : g->build;
	char *s;

	if (strcmp(g->arch, "amd64") == 0)
		s = wg_arena_printf(&in->arena, "windows-%s", name);
	else
		s = wg_arena_printf(&in->arena, "windows-%s-%s", name,
				    g->arch);
	for (char *p = s; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return s;
}

/* ---- the taint ----------------------------------------------------------- */

static bool taint_same(const struct wg_node *a, const struct wg_node *b)
{
	static const char *const keys[] = { "key", "value", "effect" };

	for (size_t i = 0; i < 3; i++) {
		const struct wg_node *x = wg_map_get(a, keys[i]);
		const struct wg_node *y = wg_map_get(b, keys[i]);
		bool nx = wg_node_is_null(x), ny = wg_node_is_null(y);

		if (nx != ny || (!nx && !wg_node_equal(x, y)))
			return false;
	}
	return true;
}

static void count_taints(struct init *in, const struct wg_cluster_node *n)
{
	for (size_t i = 0; n->taints && i < n->taints->len; i++) {
		const struct wg_node *t = wg_seq_item(n->taints, i);
		struct taint *e = NULL;

		if (!wg_taint_repels(t) || wg_taint_is_condition(t))
			continue;
		for (size_t k = 0; k < in->ntaints && !e; k++)
			if (taint_same(in->taints[k].node, t))
				e = &in->taints[k];
		if (!e) {
			WG_GROW(in->taints, in->taints_cap, in->ntaints + 1);
			e = &in->taints[in->ntaints++];
			*e = (struct taint){ t, 0, n };
		}
		e->count++;	/* a node lists a taint once (the API's rule) */
	}
}

/* Whether n carries taint t (key, value and effect). */
static bool has_taint(const struct wg_cluster_node *n, const struct wg_node *t)
{
	for (size_t k = 0; n->taints && k < n->taints->len; k++)
		if (taint_same(wg_seq_item(n->taints, k), t))
			return true;
	return false;
}

/* The first repelling taint of n that is not a state, or NULL. */
static const struct wg_node *own_taint(const struct wg_cluster_node *n)
{
	for (size_t k = 0; n->taints && k < n->taints->len; k++) {
		const struct wg_node *t = wg_seq_item(n->taints, k);

		if (wg_taint_repels(t) && !wg_taint_is_condition(t))
			return t;
	}
	return NULL;
}

/* The Windows nodes do not all carry best: one warning at the first node
 * without it, saying what the others have instead. */
static void differ(struct init *in, const struct taint *best, size_t nodes)
{
	const struct wg_cluster_node *first = NULL;
	const struct wg_node *instead = NULL;
	size_t bare = 0, other = 0;
	struct wg_buf b = WG_BUF_INIT;
	const char *bt = wg_taint_text(&in->arena, best->node);

	for (size_t g = 0; g < in->ngroups; g++)
		for (size_t i = 0; i < in->groups[g].len; i++) {
			const struct wg_cluster_node *n =
				in->groups[g].nodes[i];
			const struct wg_node *t;

			if (has_taint(n, best->node))
				continue;
			if (!first)
				first = n;
			if (!(t = own_taint(n))) {
				bare++;
			} else if (!other++) {
				instead = t;
			}
		}
	wg_buf_addf(&b, "the Windows nodes differ in taints: the profile "
		    "tolerates %s, which %zu of the %zu carry", bt,
		    best->count, nodes);
	if (other)
		wg_buf_addf(&b, "; %zu %s another taint instead (%s%s): "
			    "Windows workloads are placed there only with a "
			    "toleration of their own", other,
			    plural(other, "has", "have"),
			    wg_taint_text(&in->arena, instead),
			    other > 1 ? ", ..." : "");
	if (bare)
		wg_buf_addf(&b, "; %zu %s no taint: Linux pods without a "
			    "nodeSelector can land there", bare,
			    plural(bare, "has", "have"));
	wg_warning(in->ctx, first->res, first->taints, "spec.taints", "%s",
		   b.buf);
	wg_buf_release(&b);
}

static void pick_taint(struct init *in, size_t nodes)
{
	const struct taint *best = NULL;
	size_t shared = 0;

	for (size_t i = 0; i < in->ntaints; i++) {
		if (!best || in->taints[i].count > best->count)
			best = &in->taints[i];
		shared += in->taints[i].count == nodes;
	}
	if (!best) {
		wg_report_at(in->ctx, WG_SEV_WARNING,
			     in->groups[0].nodes[0]->res->file, 0, 0,
			     "no Windows node is tainted: Linux pods without "
			     "a nodeSelector can land on them; the profile "
			     "assumes os=windows:NoSchedule, the taint to "
			     "apply ('kubectl taint nodes -l "
			     "kubernetes.io/os=windows "
			     "os=windows:NoSchedule')");
		return;
	}
	in->taint = best->node;
	if (best->count < nodes) {
		differ(in, best, nodes);
	} else if (shared > 1) {
		const struct taint *other = NULL;

		for (size_t i = 0; i < in->ntaints && !other; i++)
			if (&in->taints[i] != best
			    && in->taints[i].count == nodes)
				other = &in->taints[i];
		wg_warning(in->ctx, other->example->res, other->example->taints,
			   "spec.taints", "every Windows node also has taint "
			   "%s; the profile tolerates one taint (%s): Windows "
			   "workloads need a toleration of their own for it",
			   wg_taint_text(&in->arena, other->node),
			   wg_taint_text(&in->arena, best->node));
	}
}

/* ---- writing ------------------------------------------------------------- */

static void scalar(struct wg_buf *out, const char *s)
{
	if (wg_scalar_needs_quotes(s, strlen(s)))
		wg_json_quote(out, s, strlen(s));
	else
		wg_buf_addstr(out, s);
}

static void taint_field(struct wg_buf *out, const char *key,
			const struct wg_node *t)
{
	struct wg_arena a = WG_ARENA_INIT;
	const struct wg_node *v = wg_map_get(t, key);

	if (wg_is_scalar(v) && !wg_node_is_null(v) && v->len) {
		wg_buf_addf(out, "    %s: ", key);
		scalar(out, wg_scalar_dup(&a, v));
		wg_buf_addch(out, '\n');
	}
	wg_arena_release(&a);
}

static void write_build(struct init *in, struct wg_buf *out,
			const struct group *g)
{
	size_t unlabelled = 0;

	for (size_t i = 0; i < g->len; i++)
		unlabelled += g->nodes[i]->build_from != WG_BUILD_LABEL;
	wg_buf_addf(out, "    # %s (%s) on %s: %zu %s, %s\n",
		    g->release ? g->release->name : "a build wingen does not "
		    "know", g->build, g->arch, g->len,
		    plural(g->len, "node", "nodes"), where(in, g));
	if (g->runtime)
		wg_buf_addf(out, "    # runtime %s\n", g->runtime);
	if (unlabelled)
		wg_buf_addf(out, "    # %zu of them without the node.kubernetes."
			    "io/windows-build label: not selected by this "
			    "build's RuntimeClass\n", unlabelled);
	if (g->release) {
		wg_buf_addstr(out, "    - release: ");
		scalar(out, g->release->name);
		wg_buf_addstr(out, "\n      build: ");
	} else {
		wg_buf_addstr(out, "    - build: ");
	}
	wg_json_quote(out, g->build, strlen(g->build));
	wg_buf_addstr(out, "\n      arch: ");
	scalar(out, g->arch);
	wg_buf_addstr(out, "\n      handler: ");
	scalar(out, g->handler);
	wg_buf_addstr(out, "\n      runtimeClass: ");
	scalar(out, g->runtime_class);
	wg_buf_addch(out, '\n');
}

/* The name windows.default gives g by: its release when no other build
 * has it, else its RuntimeClass. */
static const char *default_name(const struct init *in, const struct group *g)
{
	if (!g->release)
		return g->build;
	for (size_t i = 0; i < in->ngroups; i++)
		if (&in->groups[i] != g && in->groups[i].release == g->release)
			return g->runtime_class;
	return g->release->name;
}

static void write_profile(struct init *in, struct wg_buf *out,
			  size_t nodes)
{
	const struct group *def = &in->groups[0];

	for (size_t i = 1; i < in->ngroups; i++)
		if (in->groups[i].len >= def->len)
			def = &in->groups[i];	/* a tie: the newer */
	wg_buf_addf(out, "# The profile of a cluster, written by 'wingen init' "
		    "from %zu %s: %zu Windows in %zu %s, %zu Linux",
		    in->c->len, plural(in->c->len, "node", "nodes"), nodes,
		    in->ngroups, plural(in->ngroups, "build", "builds"),
		    in->nlinux);
	if (in->c->len > nodes + in->nlinux)
		wg_buf_addf(out, ", %zu left out (see the warnings)",
			    in->c->len - nodes - in->nlinux);
	wg_buf_addstr(out, ".\n# Review it, then: wingen build profile.yaml "
		      "-f manifests/\n"
		      "apiVersion: wingen.dev/v1alpha1\n"
		      "kind: Profile\n"
		      "metadata:\n"
		      "  name: cluster\n"
		      "windows:\n"
		      "  # One RuntimeClass per build, selecting its nodes by "
		      "the labels\n"
		      "  # kubernetes.io/os, kubernetes.io/arch and "
		      "node.kubernetes.io/windows-build.\n"
		      "  builds:\n");
	for (size_t i = 0; i < in->ngroups; i++)
		write_build(in, out, &in->groups[i]);
	wg_buf_addf(out, "  # The build of a Windows workload that names none "
		    "(annotation\n  # wingen.dev/windows-build): the one with "
		    "the most nodes (%zu).\n  default: ", def->len);
	scalar(out, default_name(in, def));
	wg_buf_addch(out, '\n');
	if (in->taint) {
		wg_buf_addf(out, "  # The taint of the Windows %s: Windows "
			    "workloads get its toleration.\n  taint:\n",
			    plural(nodes, "node", "nodes"));
		taint_field(out, "key", in->taint);
		taint_field(out, "value", in->taint);
		taint_field(out, "effect", in->taint);
	} else {
		wg_buf_addstr(out, "  # No Windows node is tainted.  This is "
			      "the taint to give them, so that\n  # Linux pods "
			      "stay off: kubectl taint nodes -l kubernetes.io/"
			      "os=windows os=windows:NoSchedule\n"
			      "  taint:\n    key: os\n    value: windows\n"
			      "    effect: NoSchedule\n");
	}
	wg_buf_addstr(out, "  # No select: a workload is a Windows workload when "
		      "one of its images is\n  # a Windows base image (the "
		      "default rules; see docs/profile.md to add more).\n"
		      "linux:\n"
		      "  # Every other workload gets nodeSelector "
		      "kubernetes.io/os: linux.\n"
		      "  pin: true\n");
}

int wg_profile_init(struct wg_ctx *ctx, const struct wg_cluster *c,
		    const char *source, struct wg_buf *out)
{
	struct init in = { .ctx = ctx, .c = c };
	size_t nodes = 0;

	wg_arena_init(&in.arena);
	for (size_t i = 0; i < c->len; i++) {
		struct group *g;

		if (!take(&in, &c->nodes[i]))
			continue;
		g = group_of(&in, &c->nodes[i]);
		WG_GROW(g->nodes, g->cap, g->len + 1);
		g->nodes[g->len++] = &c->nodes[i];
		count_taints(&in, &c->nodes[i]);
		nodes++;
	}
	if (!in.ngroups) {
		struct wg_buf why = WG_BUF_INIT;

		if (in.nlinux)
			wg_buf_addf(&why, "%zu Linux", in.nlinux);
		if (in.nwindows)
			wg_buf_addf(&why, "%s%zu Windows left out", why.len
				    ? ", " : "", in.nwindows);
		if (in.nother)
			wg_buf_addf(&why, "%s%zu of another or no operating "
				    "system", why.len ? ", " : "", in.nother);
		wg_report_at(ctx, WG_SEV_ERROR, source, 0, 0,
			     "no Windows node among the %zu %s (%s): a "
			     "profile describes a cluster's Windows nodes; "
			     "run wingen init once the cluster has some",
			     c->len, plural(c->len, "node", "nodes"), why.buf);
		wg_buf_release(&why);
	} else {
		wg_sort(in.groups, in.ngroups, sizeof(*in.groups), cmp_group);
		for (size_t i = 0; i < in.ngroups; i++) {
			in.groups[i].runtime_class = runtime_class(&in,
								   &in.groups[i]);
			pick_handler(&in, &in.groups[i]);
			check_group(&in, &in.groups[i]);
		}
		pick_taint(&in, nodes);
		write_profile(&in, out, nodes);
	}
	for (size_t i = 0; i < in.ngroups; i++)
		free(in.groups[i].nodes);
	free(in.groups);
	free(in.taints);
	wg_arena_release(&in.arena);
	return in.ngroups ? 0 : -1;
}
