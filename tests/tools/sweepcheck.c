/*
 * sweepcheck: the one rule's invariants over what `wingen build` wrote
 * (tests/sh/sweep.sh runs it over the corpus).
 *
 *   sweepcheck PROFILE|- INPUT OUTPUT [INPUT OUTPUT]...
 *
 * Each OUTPUT is wingen's build of INPUT under PROFILE ("-": the embedded
 * default).  The builds of the profile are taken as the cluster's nodes.
 *  image-on-linux  no pod with an image that names Windows (images.h) is
 *                  pinned to Linux, unless opted out by annotation
 *                  wingen.dev/windows: "false";
 *  misfit          no Windows pod admits a build of the profile whose
 *                  hosts cannot run one of its images, with the isolation
 *                  of the handler of its RuntimeClass (HostProcess pods
 *                  excepted: they need not match the host);
 *  agent-narrowed  a DaemonSet whose input admitted every build of the
 *                  profile, with images that name no release, admits
 *                  every build in the output (node agents keep their
 *                  reach); under the embedded default, every arch too
 *                  unless an image names one;
 *  api             every workload passes the API server's rules
 *                  (k8svalid.h: validateWindows, validateLinux,
 *                  windowsOptions, HostProcess), and its nodeSelector
 *                  agrees with its RuntimeClass's (RuntimeClass
 *                  admission); a RuntimeClass of the profile it names is
 *                  in the output.
 * One line per violation: "VIOLATION RULE: OUTPUT: Kind/name: message",
 * then "sweepcheck: N objects, W Windows pods, A node agents kept every
 * build, O opted out, V violations".  Exit 0 without violations, 1 with,
 * 2 when a file or the profile cannot be read.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "wingen/base/input.h"
#include "wingen/chain/chain.h"
#include "wingen/k8s/images.h"
#include "wingen/k8s/k8svalid.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/podspec.h"
#include "wingen/k8s/sched.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"

struct counts {
	size_t objects, windows, agents, opted, violations;
};

struct file {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
};

static int open_file(struct file *f, const char *path)
{
	wg_ctx_init(&f->ctx);
	wg_resources_init(&f->list);
	if (wg_input_read(&f->ctx, path, &f->in)
	    || wg_read_stream(&f->ctx, &f->in, &f->list)) {
		wg_log_print(stderr, &f->ctx.log, WG_SEV_ERROR);
		return -1;
	}
	return 0;
}

static void close_file(struct file *f)
{
	wg_resources_release(&f->list);
	wg_input_release(&f->in);
	wg_ctx_release(&f->ctx);
}

static void violation(struct counts *n, const char *rule, const char *out,
		      struct wg_arena *a, const struct wg_resource *res,
		      const char *msg)
{
	printf("VIOLATION %s: %s: %s: %s\n", rule, out,
	       wg_resource_label(a, res), msg);
	n->violations++;
}

static const char *const os_keys[] = { WG_LABEL_OS, WG_LABEL_OS_BETA };

static bool pod_says_os(const struct wg_node *spec, const char *os)
{
	const struct wg_node *ns = wg_map_get(spec, "nodeSelector");

	for (size_t i = 0; i < 2; i++)
		if (wg_scalar_is(wg_map_get(ns, os_keys[i]), os)
		    || wg_affinity_requires(spec, os_keys[i], os))
			return true;
	return wg_scalar_is(wg_path_get(spec, "os.name"), os);
}

static bool opted_out(const struct wg_resource *res,
		      const struct wg_podspec *ps)
{
	const char *key = WG_ANNOTATION_WINDOWS;

	return wg_scalar_is(wg_map_get(wg_path_get(res->root,
				"metadata.annotations"), key), "false")
	       || wg_scalar_is(wg_map_get(wg_podspec_annotations(ps), key),
			       "false");
}

static bool host_process(const struct wg_node *spec)
{
	const struct wg_node *pod = wg_path_get(spec,
		"securityContext.windowsOptions.hostProcess");
	struct wg_container_iter it;
	struct wg_container c;
	size_t n = 0;

	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *hp = wg_path_get(c.node,
			"securityContext.windowsOptions.hostProcess");

		if (!wg_node_true(wg_node_is_null(hp) ? pod : hp))
			return false;
		n++;
	}
	return n > 0;
}

/* What an image of a pod must say for image_that. */
enum says { SAYS_WINDOWS, SAYS_RELEASE, SAYS_ARCH };

/* The first image of the pod that says it (images.h), or NULL. */
static const struct wg_node *image_that(const struct wg_node *spec,
					enum says says)
{
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_image_ref ref;

	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *img = wg_map_get(c.node, "image");

		if (!wg_is_scalar(img))
			continue;
		wg_image_parse(img->u.str, img->len, &ref);
		if (says == SAYS_RELEASE ? ref.release != NULL
		    : says == SAYS_ARCH ? ref.arch != NULL : ref.windows)
			return img;
	}
	return NULL;
}

static const struct wg_resource *runtime_class(struct wg_resources *list,
					       const struct wg_node *name)
{
	for (size_t i = 0; wg_is_scalar(name) && i < list->len; i++) {
		const struct wg_resource *r = list->items[i];

		if (wg_is_kind(r, WG_KIND_RUNTIME_CLASS)
		    && wg_node_equal(wg_resource_name_node(r), name))
			return r;
	}
	return NULL;
}

/* Whether a node of build b (with the labels the kubelet gives it) passes
 * the pod's nodeSelector, its required affinity and the scheduling of its
 * RuntimeClass rc (may be NULL). */
static bool admits(const struct wg_node *spec, const struct wg_resource *rc,
		   const struct wg_build *b)
{
	const struct wg_label labels[] = {
		{ WG_LABEL_OS, "windows" }, { WG_LABEL_OS_BETA, "windows" },
		{ WG_LABEL_ARCH, b->arch }, { WG_LABEL_ARCH_BETA, b->arch },
		{ WG_LABEL_WINDOWS_BUILD, b->release->build },
	};
	const struct wg_node *sels[2] = {
		wg_map_get(spec, "nodeSelector"),
		rc ? wg_path_get(rc->root, "scheduling.nodeSelector") : NULL,
	};

	for (size_t s = 0; s < 2; s++) {
		for (size_t i = 0; wg_is_map(sels[s]) && i < 5; i++) {
			const struct wg_node *v = wg_map_get(sels[s],
							     labels[i].key);

			if (v && !wg_scalar_is(v, labels[i].value))
				return false;
		}
	}
	return wg_affinity_judge(spec, labels, 5, NULL)
	       != WG_AFFINITY_EXCLUDES;
}

/* The handler of the pod's RuntimeClass (NULL: containerd's default). */
static const char *handler_of(const struct wg_resource *rc)
{
	const struct wg_node *h = rc ? wg_map_get(rc->root, "handler") : NULL;
	static char buf[128];

	if (!wg_is_scalar(h) || h->len >= sizeof(buf))
		return NULL;
	memcpy(buf, h->u.str, h->len);
	buf[h->len] = '\0';
	return buf;
}

static void check_misfit(struct counts *n, const char *out,
			 struct wg_arena *a, const struct wg_profile *p,
			 struct wg_resources *list,
			 const struct wg_resource *res,
			 const struct wg_node *spec)
{
	const struct wg_resource *rc = runtime_class(list,
		wg_map_get(spec, "runtimeClassName"));
	const char *handler = handler_of(rc);
	struct wg_container_iter it;
	struct wg_container c;

	if (host_process(spec))
		return;
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];

		if (!admits(spec, rc, b))
			continue;
		wg_container_iter_init(&it, spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *img = wg_map_get(c.node,
							       "image");
			struct wg_image_ref ref;
			enum wg_image_fit fit;

			if (!wg_is_scalar(img))
				continue;
			wg_image_parse(img->u.str, img->len, &ref);
			fit = wg_image_fit(&ref, b->release, b->arch,
					   handler);
			if (fit == WG_FIT_RELEASE || fit == WG_FIT_ARCH)
				violation(n, "misfit", out, a, res,
					  wg_arena_printf(a, "'%.*s' on build "
					  "%s/%s (handler %s)", (int)img->len,
					  img->u.str, b->release->name,
					  b->arch, handler ? handler
					  : "default"));
		}
	}
}

/* RuntimeClass admission: the pod's nodeSelector and the class's. */
static void check_admission(struct counts *n, const char *out,
			    struct wg_arena *a, const struct wg_profile *p,
			    struct wg_resources *list,
			    const struct wg_resource *res,
			    const struct wg_node *spec)
{
	const struct wg_node *name = wg_map_get(spec, "runtimeClassName");
	const struct wg_resource *rc = runtime_class(list, name);
	const struct wg_node *mine = wg_map_get(spec, "nodeSelector");
	const struct wg_node *theirs;

	if (!wg_is_scalar(name) || wg_node_is_null(name))
		return;
	if (!rc) {
		for (size_t i = 0; i < p->nbuilds; i++)
			if (wg_scalar_is(name, p->builds[i].runtime_class))
				violation(n, "api", out, a, res, wg_arena_printf(
					a, "names RuntimeClass '%.*s', which "
					"the output does not hold",
					(int)name->len, name->u.str));
		return;
	}
	theirs = wg_path_get(rc->root, "scheduling.nodeSelector");
	for (size_t i = 0; wg_is_map(theirs) && wg_is_map(mine)
			   && i < theirs->len; i++) {
		const struct wg_node *k = wg_map_key(theirs, i);
		const struct wg_node *v = wg_map_get(mine,
			wg_scalar_dup(a, k));

		if (v && !wg_node_equal(v, wg_map_value(theirs, i)))
			violation(n, "api", out, a, res, wg_arena_printf(a,
				  "RuntimeClass admission: nodeSelector "
				  "'%.*s' differs from RuntimeClass '%.*s'",
				  (int)k->len, k->u.str, (int)name->len,
				  name->u.str));
	}
}

/* The input object of the same kind, namespace and name, or NULL. */
static const struct wg_resource *same_in(struct wg_resources *in,
					 const struct wg_resource *res)
{
	for (size_t i = 0; i < in->len; i++) {
		const struct wg_resource *r = in->items[i];

		if (wg_node_equal(wg_map_get(r->root, "kind"),
				  wg_map_get(res->root, "kind"))
		    && wg_node_equal(wg_resource_name_node(r),
				     wg_resource_name_node(res))
		    && wg_node_equal(wg_resource_namespace_node(r),
				     wg_resource_namespace_node(res)))
			return r;
	}
	return NULL;
}

static bool admits_all(const struct wg_profile *p, struct wg_resources *list,
		       const struct wg_node *spec, size_t *which)
{
	const struct wg_resource *rc = runtime_class(list,
		wg_map_get(spec, "runtimeClassName"));

	for (size_t i = 0; i < p->nbuilds; i++) {
		if (!admits(spec, rc, &p->builds[i])) {
			*which = i;
			return false;
		}
	}
	return true;
}

/* The arch key of the pod's nodeSelector, or NULL. */
static const struct wg_node *arch_key(const struct wg_node *spec)
{
	const struct wg_node *ns = wg_map_get(spec, "nodeSelector");
	const struct wg_node *v = wg_map_get(ns, WG_LABEL_ARCH);

	return v ? v : wg_map_get(ns, WG_LABEL_ARCH_BETA);
}

/* A node agent (a DaemonSet) that reached every build in the input (its
 * images naming no release) reaches every build in the output; under the
 * embedded default, whose amd64 is a route and not the cluster's, every
 * arch too unless an image names one. */
static void check_agent(struct counts *n, const char *out,
			struct wg_arena *a, const struct wg_profile *p,
			struct wg_resources *in, struct wg_resources *list,
			const struct wg_resource *res,
			const struct wg_podspec *ps)
{
	const struct wg_resource *orig = same_in(in, res);
	struct wg_podspec *ips;
	size_t which = 0;

	if (!ps->kind || !ps->kind->node_agent || !orig
	    || wg_podspec_find_all(a, NULL, orig, &ips) != 1
	    || image_that(ips[0].spec, SAYS_RELEASE)
	    || !admits_all(p, in, ips[0].spec, &which)
	    || !pod_says_os(ps->spec, "windows"))
		return;
	if (p->path && strcmp(p->path, "<default>") == 0
	    && !arch_key(ips[0].spec) && !image_that(ips[0].spec, SAYS_ARCH)
	    && arch_key(ps->spec))
		violation(n, "agent-narrowed", out, a, res, "reached every "
			  "arch in its input, no longer does (a "
			  "kubernetes.io/arch key)");
	else if (admits_all(p, list, ps->spec, &which))
		n->agents++;
	else
		violation(n, "agent-narrowed", out, a, res, wg_arena_printf(a,
			  "reached every build in its input, no longer "
			  "reaches %s/%s", p->builds[which].release->name,
			  p->builds[which].arch));
}

static int check_pair(struct counts *n, const struct wg_profile *p,
		      const char *inpath, const char *outpath)
{
	struct file in, out;
	struct wg_arena a = WG_ARENA_INIT;

	if (open_file(&in, inpath)) {
		close_file(&in);
		return -1;
	}
	if (open_file(&out, outpath)) {
		close_file(&in);
		close_file(&out);
		return -1;
	}
	for (size_t i = 0; i < out.list.len; i++) {
		const struct wg_resource *res = out.list.items[i];
		struct wg_podspec *ps;
		/* a TaskRun's pods run the steps of the Task it names */
		size_t nps = wg_podspec_find_in(&a, &p->kinds, &out.list, res,
						&ps);
		struct wg_ctx v;

		n->objects++;
		for (size_t k = 0; k < nps; k++) {
			const struct wg_node *img = image_that(ps[k].spec,
							       SAYS_WINDOWS);

			if (img && pod_says_os(ps[k].spec, "linux")) {
				if (opted_out(res, &ps[k]))
					n->opted++;
				else
					violation(n, "image-on-linux",
						  outpath, &a, res,
						  wg_arena_printf(&a, "'%.*s' "
						  "names Windows",
						  (int)img->len, img->u.str));
			}
			if (!pod_says_os(ps[k].spec, "windows"))
				continue;
			n->windows++;
			check_misfit(n, outpath, &a, p, &out.list, res,
				     ps[k].spec);
			check_admission(n, outpath, &a, p, &out.list, res,
					ps[k].spec);
			check_agent(n, outpath, &a, p, &in.list, &out.list,
				    res, &ps[k]);
		}
		wg_ctx_init(&v);
		if (nps && wg_k8s_check_workload(&v, &p->kinds, res)) {
			for (size_t d = 0; d < v.log.ndiags; d++)
				if (v.log.diags[d].severity == WG_SEV_ERROR)
					violation(n, "api", outpath, &a, res,
						  wg_arena_printf(&a, "%s: %s",
						  v.log.diags[d].field ?
						  v.log.diags[d].field : "",
						  v.log.diags[d].message));
		}
		wg_ctx_release(&v);
	}
	wg_arena_release(&a);
	close_file(&in);
	close_file(&out);
	return 0;
}

int main(int argc, char **argv)
{
	struct wg_ctx ctx;
	struct wg_profile p;
	struct counts n = { 0 };
	int rc = 0;

	if (argc < 4 || (argc - 2) % 2) {
		fprintf(stderr, "usage: sweepcheck PROFILE|- INPUT OUTPUT "
			"[INPUT OUTPUT]...\n");
		return 2;
	}
	wg_ctx_init(&ctx);
	if ((strcmp(argv[1], "-") == 0
	     ? wg_profile_load_default(&ctx, WG_CHAIN_OPTS, &p)
	     : wg_profile_load(&ctx, argv[1], WG_CHAIN_OPTS, &p))) {
		wg_log_print(stderr, &ctx.log, WG_SEV_ERROR);
		wg_ctx_release(&ctx);
		return 2;
	}
	for (int i = 2; i + 1 < argc; i += 2)
		if (check_pair(&n, &p, argv[i], argv[i + 1]))
			rc = 2;
	printf("sweepcheck: %zu objects, %zu Windows pods, %zu node agents "
	       "kept every build, %zu opted out, %zu violations\n",
	       n.objects, n.windows, n.agents, n.opted, n.violations);
	wg_profile_release(&p);
	wg_ctx_release(&ctx);
	return rc ? rc : n.violations ? 1 : 0;
}
