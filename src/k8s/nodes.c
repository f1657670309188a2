#include "wingen/k8s/nodes.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/labelsel.h"
#include "k8s_internal.h"

/*
 * Facts: docs/windows-facts.md.  The kubelet labels a node with
 * kubernetes.io/os and kubernetes.io/arch (Go's GOOS and GOARCH) and, on
 * Windows, node.kubernetes.io/windows-build "major.minor.build"; it
 * reports status.nodeInfo.kernelVersion as "10.0.<build>.<revision>" and
 * osImage as "Windows Server 2022 Datacenter" there.
 */

const struct wg_runtime wg_runtimes[] = {
	/* containerd's default Windows runtime (config_windows.go) */
	{ "containerd", "runhcs-wcow-process", NULL },
	/* dockershim accepted only its own name as a handler */
	{ "docker", "docker",
	  "dockershim was removed in Kubernetes 1.24; these nodes need "
	  "containerd before the cluster can be upgraded" },
	{ NULL, NULL, NULL },
};

const char *const wg_pool_label_keys[] = {
	"kubernetes.azure.com/agentpool",	/* AKS */
	"agentpool",				/* AKS, older */
	"eks.amazonaws.com/nodegroup",		/* EKS managed node groups */
	"alpha.eksctl.io/nodegroup-name",	/* eksctl */
	"cloud.google.com/gke-nodepool",	/* GKE */
	"karpenter.sh/nodepool",		/* Karpenter */
	"kops.k8s.io/instancegroup",		/* kops */
	NULL,
};

/*
 * Taints that come and go with a node's state: pkg/apis/core
 * well_known_taints.go in Kubernetes, the cloud-provider ones
 * (k8s.io/cloud-provider api/well_known_taints.go) and the cluster
 * autoscaler's.
 */
static const char *const condition_taints[] = {
	"node.kubernetes.io/not-ready",
	"node.kubernetes.io/unreachable",
	"node.kubernetes.io/unschedulable",
	"node.kubernetes.io/memory-pressure",
	"node.kubernetes.io/disk-pressure",
	"node.kubernetes.io/network-unavailable",
	"node.kubernetes.io/pid-pressure",
	"node.kubernetes.io/out-of-service",
	"node.cloudprovider.kubernetes.io/uninitialized",
	"node.cloudprovider.kubernetes.io/shutdown",
	"ToBeDeletedByClusterAutoscaler",
	"DeletionCandidateOfClusterAutoscaler",
	NULL,
};

void wg_cluster_init(struct wg_cluster *c)
{
	memset(c, 0, sizeof(*c));
	wg_arena_init(&c->arena);
}

void wg_cluster_release(struct wg_cluster *c)
{
	free(c->nodes);
	wg_arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

const struct wg_runtime *wg_runtime_of(const char *version)
{
	const char *sep = version ? strstr(version, "://") : NULL;

	for (const struct wg_runtime *r = wg_runtimes; sep && r->scheme; r++)
		if (strlen(r->scheme) == (size_t)(sep - version)
		    && strncmp(version, r->scheme, (size_t)(sep - version)) == 0)
			return r;
	return NULL;
}

bool wg_is_node_object(const struct wg_resource *res)
{
	const struct wg_node *v = wg_map_get(res->root, "apiVersion");

	return wg_resource_kind_is(res, "Node")
	       && (!v || wg_scalar_is(v, "v1"));
}

/* ---- reading a Node ----------------------------------------------------- */

/* The text of a scalar, or NULL for anything else (null included). */
static const char *text(struct wg_cluster *c, const struct wg_node *n)
{
	if (!wg_is_scalar(n) || wg_node_is_null(n))
		return NULL;
	return wg_scalar_dup(&c->arena, n);
}

const char *wg_cluster_node_label(const struct wg_cluster_node *n,
				  const char *key)
{
	for (size_t i = 0; i < n->nlabels; i++)
		if (strcmp(n->labels[i].key, key) == 0)
			return n->labels[i].value;
	return NULL;
}

/* "10.0.NNNNN" then the end or (when rev) ".REV...": the length of the
 * "10.0.NNNNN" part, else 0. */
static size_t build_prefix(const char *s, bool rev)
{
	size_t n;

	if (!s || strncmp(s, "10.0.", 5) != 0)
		return 0;
	n = strspn(s + 5, "0123456789");
	if (n == 0 || n > 5)
		return 0;
	if (s[5 + n] == '\0' || (rev && s[5 + n] == '.'))
		return 5 + n;
	return 0;
}

/* The release an osImage names ("Windows Server 2022 Datacenter"), by the
 * year the catalogue knows as an alias. */
static const struct wg_release *release_of_image(const char *image)
{
	const char *p = image ? strstr(image, "Windows Server ") : NULL;
	char year[5];

	if (!p)
		return NULL;
	p += strlen("Windows Server ");
	if (strspn(p, "0123456789") != 4)
		return NULL;
	memcpy(year, p, 4);
	year[4] = '\0';
	return wg_release_find(year);
}

/* Reads the Windows build of n: the label, else nodeInfo. */
static void read_build(struct wg_ctx *ctx, struct wg_cluster *c,
		       struct wg_cluster_node *n, const struct wg_node *info)
{
	const char *label = wg_cluster_node_label(n, WG_LABEL_WINDOWS_BUILD);
	const char *kernel = text(c, wg_map_get(info, "kernelVersion"));
	const struct wg_release *r;
	size_t len;

	if (label && build_prefix(label, false)) {
		n->build = label;
		n->build_from = WG_BUILD_LABEL;
	} else if (label) {
		wg_warning(ctx, n->res, wg_map_get(n->labels_node, WG_LABEL_WINDOWS_BUILD),
			   "metadata.labels.[" WG_LABEL_WINDOWS_BUILD "]",
			   "'%s' is not a Windows build number like "
			   "10.0.20348; the build is read from nodeInfo",
			   label);
	}
	if (!n->build && (len = build_prefix(kernel, true))) {
		n->build = wg_arena_strndup(&c->arena, kernel, len);
		n->build_from = WG_BUILD_KERNEL;
	}
	if (!n->build
	    && (r = release_of_image(text(c, wg_map_get(info, "osImage"))))) {
		n->build = r->build;
		n->build_from = WG_BUILD_OS_IMAGE;
	}
	n->release = n->build ? wg_release_find(n->build) : NULL;
}

static int read_labels(struct wg_ctx *ctx, struct wg_cluster *c,
		       struct wg_cluster_node *n)
{
	const struct wg_node *m = n->labels_node;

	if (!m || wg_node_is_null(m))
		return 0;
	if (!wg_is_map(m))
		return wg_error(ctx, n->res, m, "metadata.labels",
				"expected a mapping of label keys to values");
	n->labels = wg_arena_zalloc(&c->arena, (m->len + 1)
						* sizeof(*n->labels));
	for (size_t i = 0; i < m->len; i++) {
		const struct wg_node *v = wg_map_value(m, i);
		const char *value = wg_node_is_null(v) ? ""
				    : text(c, v);

		if (!value)
			return wg_error(ctx, n->res, v, "metadata.labels",
					"label '%s': expected a string",
					wg_scalar_dup(&c->arena,
						      wg_map_key(m, i)));
		n->labels[n->nlabels].key = wg_scalar_dup(&c->arena,
							  wg_map_key(m, i));
		n->labels[n->nlabels++].value = value;
	}
	return 0;
}

static int read_taints(struct wg_ctx *ctx, struct wg_cluster *c,
		       struct wg_cluster_node *n)
{
	const struct wg_node *t = n->taints;

	if (!t || wg_node_is_null(t)) {
		n->taints = NULL;
		return 0;
	}
	if (!wg_is_seq(t))
		return wg_error(ctx, n->res, t, "spec.taints",
				"expected a list of taints");
	for (size_t i = 0; i < t->len; i++) {
		const struct wg_node *e = wg_seq_item(t, i);

		const struct wg_node *key, *value;

		if (!wg_is_map(e) || !wg_is_scalar(wg_map_get(e, "key"))
		    || !wg_is_scalar(wg_map_get(e, "effect")))
			return wg_error(ctx, n->res, e, "spec.taints",
					"taint %zu: expected a mapping with "
					"key and effect", i);
		/* the API server's rules for a taint: a node that breaks
		 * them exists in no cluster, and a profile made of it
		 * (init) would not load */
		key = wg_map_get(e, "key");
		value = wg_map_get(e, "value");
		if (!wg_is_label_key(wg_scalar_dup(&c->arena, key)))
			return wg_error(ctx, n->res, key, "spec.taints",
					"taint %zu: '%s' is not a valid taint "
					"key", i, wg_scalar_dup(&c->arena, key));
		if (value && !wg_node_is_null(value)
		    && (!wg_is_scalar(value)
			|| !wg_is_label_value(wg_scalar_dup(&c->arena,
							    value))))
			return wg_error(ctx, n->res, value, "spec.taints",
					"taint %zu: the value is not a valid "
					"taint value (63 characters at most: "
					"letters, digits, '-', '_', '.')", i);
	}
	return 0;
}

int wg_cluster_add(struct wg_ctx *ctx, struct wg_cluster *c,
		   const struct wg_resource *res)
{
	struct wg_cluster_node n = { .res = res };
	const struct wg_node *info = wg_path_get(res->root, "status.nodeInfo");
	const char *s;

	n.name = text(c, wg_path_get(res->root, "metadata.name"));
	if (!n.name)
		n.name = "";
	n.labels_node = wg_path_get(res->root, "metadata.labels");
	n.taints = wg_path_get(res->root, "spec.taints");
	if (read_labels(ctx, c, &n) || read_taints(ctx, c, &n))
		return -1;
	if (!wg_is_map(info))
		info = NULL;
	n.os = wg_cluster_node_label(&n, WG_LABEL_OS);
	if (!n.os)
		n.os = text(c, wg_map_get(info, "operatingSystem"));
	if (!n.os)
		n.os = wg_cluster_node_label(&n, WG_LABEL_OS_BETA);
	n.arch = wg_cluster_node_label(&n, WG_LABEL_ARCH);
	if (!n.arch)
		n.arch = text(c, wg_map_get(info, "architecture"));
	if (!n.arch)
		n.arch = wg_cluster_node_label(&n, WG_LABEL_ARCH_BETA);
	if (n.os && strcmp(n.os, "windows") == 0)
		read_build(ctx, c, &n, info);
	n.runtime_version = text(c, wg_map_get(info,
					       "containerRuntimeVersion"));
	n.runtime = wg_runtime_of(n.runtime_version);
	for (size_t i = 0; !n.pool && wg_pool_label_keys[i]; i++)
		if ((s = wg_cluster_node_label(&n, wg_pool_label_keys[i]))
		    && *s)
			n.pool = s;
	WG_GROW(c->nodes, c->cap, c->len + 1);
	c->nodes[c->len++] = n;
	return 0;
}

int wg_cluster_read(struct wg_ctx *ctx, struct wg_cluster *c,
		    const struct wg_resources *list, const char *source)
{
	const struct wg_resource *first = NULL;
	size_t others = 0;
	int rc = 0;

	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];

		if (!wg_is_node_object(res)) {
			if (!first)
				first = res;
			else
				others++;
			continue;
		}
		if (wg_cluster_add(ctx, c, res))
			rc = -1;
	}
	if (first) {
		struct wg_arena a = WG_ARENA_INIT;

		wg_error(ctx, first, NULL, NULL,
			 "not a v1 Node: the nodes are read as 'kubectl get "
			 "nodes -o json' prints them%s",
			 others == 1 ? " (and 1 more object that is not a "
			 "Node)" : others ? wg_arena_printf(&a, " (and %zu "
			 "more objects that are not Nodes)", others) : "");
		wg_arena_release(&a);
		rc = -1;
	}
	if (!list->len)
		rc = wg_report_at(ctx, WG_SEV_ERROR, source, 0, 0,
				  "no Node in the input: give it 'kubectl "
				  "get nodes -o json'");
	return rc;
}

/* ---- taints and tolerations --------------------------------------------- */

bool wg_taint_repels(const struct wg_node *taint)
{
	return wg_k8s_field_is(taint, "effect", "NoSchedule")
	       || wg_k8s_field_is(taint, "effect", "NoExecute");
}

bool wg_taint_is_condition(const struct wg_node *taint)
{
	for (size_t i = 0; condition_taints[i]; i++)
		if (wg_k8s_field_is(taint, "key", condition_taints[i]))
			return true;
	return false;
}

const char *wg_taint_text(struct wg_arena *arena, const struct wg_node *taint)
{
	size_t kl, vl, el;
	const char *k = wg_k8s_field(taint, "key", &kl), *v = wg_k8s_field(taint, "value",
							     &vl);
	const char *e = wg_k8s_field(taint, "effect", &el);

	if (vl)
		return wg_arena_printf(arena, "%.*s=%.*s:%.*s", (int)kl, k,
				       (int)vl, v, (int)el, e);
	return wg_arena_printf(arena, "%.*s:%.*s", (int)kl, k, (int)el, e);
}

bool wg_toleration_tolerates(const struct wg_node *tol,
			     const struct wg_node *taint)
{
	size_t len;

	if (!wg_is_map(tol) || !wg_is_map(taint))
		return false;
	wg_k8s_field(tol, "effect", &len);
	if (len && !wg_k8s_field_eq(tol, taint, "effect"))
		return false;
	wg_k8s_field(tol, "key", &len);
	if (len && !wg_k8s_field_eq(tol, taint, "key"))
		return false;
	if (wg_k8s_field_is(tol, "operator", "Exists"))
		return true;
	if (wg_k8s_field_is(tol, "operator", "Equal") || wg_k8s_field_is(tol, "operator", ""))
		return wg_k8s_field_eq(tol, taint, "value");
	return false;
}

/* ---- placing a pod ------------------------------------------------------ */

bool wg_node_has_labels(const struct wg_cluster_node *n,
			const struct wg_pod_needs *needs)
{
	for (size_t i = 0; i < needs->nselector; i++) {
		const char *v = wg_cluster_node_label(n, needs->selector[i].key);

		if (!v || strcmp(v, needs->selector[i].value) != 0)
			return false;
	}
	return true;
}

/* Whether requirement e holds for a node whose value of e's key is v
 * (NULL: the node has no such label or field). */
static bool requirement_holds(const struct wg_node *e, const char *v)
{
	const struct wg_node *op = wg_map_get(e, "operator");
	const struct wg_node *values = wg_map_get(e, "values");

	if (wg_scalar_is(op, "In"))
		return v && wg_k8s_values_has(values, v);
	if (wg_scalar_is(op, "NotIn"))
		return !v || !wg_k8s_values_has(values, v);
	if (wg_scalar_is(op, "Exists"))
		return v != NULL;
	if (wg_scalar_is(op, "DoesNotExist"))
		return v == NULL;
	if (wg_scalar_is(op, "Gt"))
		return wg_k8s_compare(values, v, true);
	if (wg_scalar_is(op, "Lt"))
		return wg_k8s_compare(values, v, false);
	return false;	/* an operator validation rejects */
}

static bool term_holds(const struct wg_cluster_node *n,
		       const struct wg_node *term)
{
	const struct wg_node *exprs = wg_map_get(term, "matchExpressions");
	const struct wg_node *fields = wg_map_get(term, "matchFields");
	size_t count = 0;
	struct wg_arena a = WG_ARENA_INIT;
	bool holds = true;

	for (size_t i = 0; holds && wg_is_seq(exprs) && i < exprs->len; i++) {
		const struct wg_node *e = wg_seq_item(exprs, i);
		const char *key = wg_scalar_dup(&a, wg_map_get(e, "key"));

		holds = key && requirement_holds(e, wg_cluster_node_label(n,
									  key));
		count++;
	}
	for (size_t i = 0; holds && wg_is_seq(fields) && i < fields->len;
	     i++) {
		const struct wg_node *e = wg_seq_item(fields, i);

		/* metadata.name is the one field a term may name */
		holds = wg_scalar_is(wg_map_get(e, "key"), "metadata.name")
			&& requirement_holds(e, n->name);
		count++;
	}
	wg_arena_release(&a);
	return holds && count > 0;	/* an empty term selects no node */
}

bool wg_node_affinity_admits(const struct wg_cluster_node *n,
			     const struct wg_pod_needs *needs)
{
	const struct wg_node *terms = wg_path_get(needs->spec,
		"affinity.nodeAffinity."
		"requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms");

	if (!wg_is_seq(terms))
		return true;
	for (size_t t = 0; t < terms->len; t++)
		if (term_holds(n, wg_seq_item(terms, t)))
			return true;
	return false;
}

const struct wg_node *wg_node_untolerated(const struct wg_cluster_node *n,
					  const struct wg_pod_needs *needs)
{
	for (size_t i = 0; n->taints && i < n->taints->len; i++) {
		const struct wg_node *taint = wg_seq_item(n->taints, i);
		bool ok = !wg_taint_repels(taint);

		for (size_t k = 0; !ok && k < needs->ntolerations; k++)
			ok = wg_toleration_tolerates(needs->tolerations[k],
						     taint);
		if (!ok)
			return taint;
	}
	return NULL;
}

bool wg_node_admits(const struct wg_cluster_node *n,
		    const struct wg_pod_needs *needs)
{
	return wg_node_has_labels(n, needs) && wg_node_affinity_admits(n, needs)
	       && !wg_node_untolerated(n, needs);
}
