#include "wingen/k8s/kinds.h"

#include <string.h>

/*
 * Each row is written from the kind's own API reference: the Kubernetes
 * API (k8s.io/api apps/v1, batch/v1, core/v1), and for custom resources
 * the project's Go types (named in each row's note).
 *
 * Name limits: a Job's pods carry its name in the job-name label (63), a
 * StatefulSet's pods carry it in their host name (63), and a CronJob's
 * Jobs add 11 characters (a timestamp suffix) to its name (52); any other
 * name is a DNS subdomain (253).
 *
 * extensions/v1beta1 served Deployments, DaemonSets and ReplicaSets until
 * 1.16; old manifests still say so.
 */
#define TEMPLATE { "spec.template", NULL }

const struct wg_kind wg_kinds[] = {
	/* ---- Kubernetes ---- */
	{ .kind = "Deployment", .groups = "apps|extensions",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .pods = "spec.replicas",
	  .name_max = 253 },
	{ .kind = "StatefulSet", .groups = "apps", .templates = TEMPLATE,
	  .selector = "spec.selector", .selector_shape = WG_SELECTOR_LABELS,
	  .pods = "spec.replicas", .claims = "spec.volumeClaimTemplates",
	  .name_max = 63 },
	{ .kind = "DaemonSet", .groups = "apps|extensions",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .name_max = 253,
	  .node_agent = true },
	{ .kind = "ReplicaSet", .groups = "apps|extensions",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .pods = "spec.replicas",
	  .name_max = 253 },
	{ .kind = "ReplicationController", .groups = "",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_MAP, .pods = "spec.replicas",
	  .name_max = 253 },
	{ .kind = "Job", .groups = "batch", .templates = TEMPLATE,
	  .selector = "spec.selector", .selector_shape = WG_SELECTOR_LABELS,
	  .manual_selector = "spec.manualSelector",
	  .pods = "spec.parallelism", .name_max = 63 },
	{ .kind = "CronJob", .groups = "batch",
	  .templates = { "spec.jobTemplate.spec.template", NULL },
	  .selector = "spec.jobTemplate.spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS,
	  .manual_selector = "spec.jobTemplate.spec.manualSelector",
	  .pods = "spec.jobTemplate.spec.parallelism", .name_max = 52 },
	{ .kind = "Pod", .groups = "", .templates = { "", NULL }, .pods = "",
	  .name_max = 253 },
	{ .kind = "PodTemplate", .groups = "",
	  .templates = { "template", NULL },
	  .name_max = 253, .no_pods = true },

	/* ---- custom resources ---- */
	{ .kind = "Rollout", .groups = "argoproj.io", .templates = TEMPLATE,
	  .selector = "spec.selector", .selector_shape = WG_SELECTOR_LABELS,
	  .pods = "spec.replicas", .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Argo Rollouts",
	  .note = "pkg/apis/rollouts/v1alpha1 RolloutSpec; a Rollout with "
		  "spec.workloadRef instead of spec.template runs the pods "
		  "of the Deployment it names: that Deployment is rewritten "
		  "as a Deployment, the Rollout has no pod template" },
	{ .kind = "ScaledJob", .groups = "keda.sh",
	  .templates = { "spec.jobTargetRef.template", NULL },
	  .name_max = 253, .origin = WG_KIND_CUSTOM, .project = "KEDA",
	  .note = "apis/keda/v1alpha1 ScaledJobSpec: jobTargetRef is a "
		  "batch/v1 JobSpec; KEDA makes the Jobs as events come, so "
		  "the count of pods is KEDA's; no selector" },
	{ .kind = "Service", .groups = "serving.knative.dev",
	  .templates = TEMPLATE, .name_max = 63,
	  .origin = WG_KIND_CUSTOM, .project = "Knative Serving",
	  .note = "pkg/apis/serving/v1 ServiceSpec (ConfigurationSpec "
		  "inline): spec.template is a RevisionTemplateSpec whose "
		  "spec holds the pod spec inline; no selector, and "
		  "Knative scales the pods; nodeSelector, tolerations and "
		  "runtimeClassName need the kubernetes.podspec-* features "
		  "of config-features; Knative names Revisions after it, a "
		  "DNS label" },
	{ .kind = "Configuration", .groups = "serving.knative.dev",
	  .templates = TEMPLATE, .name_max = 63,
	  .origin = WG_KIND_CUSTOM, .project = "Knative Serving",
	  .note = "pkg/apis/serving/v1 ConfigurationSpec: as Service" },
	{ .kind = "CloneSet", .groups = "apps.kruise.io",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .pods = "spec.replicas",
	  .claims = "spec.volumeClaimTemplates", .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "OpenKruise",
	  .note = "apis/apps/v1alpha1 CloneSetSpec" },
	{ .kind = "StatefulSet", .groups = "apps.kruise.io",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .pods = "spec.replicas",
	  .claims = "spec.volumeClaimTemplates", .name_max = 63,
	  .origin = WG_KIND_CUSTOM, .project = "OpenKruise",
	  .note = "Advanced StatefulSet, apis/apps/v1beta1 (and v1alpha1) "
		  "StatefulSetSpec: the apps/v1 fields and more" },
	{ .kind = "DaemonSet", .groups = "apps.kruise.io",
	  .templates = TEMPLATE, .selector = "spec.selector",
	  .selector_shape = WG_SELECTOR_LABELS, .name_max = 253,
	  .node_agent = true, .origin = WG_KIND_CUSTOM,
	  .project = "OpenKruise",
	  .note = "Advanced DaemonSet, apis/apps/v1alpha1 DaemonSetSpec: "
		  "the apps/v1 fields and more" },
	{ .kind = "Job", .groups = "batch.volcano.sh",
	  .templates = { "spec.tasks[].template", NULL },
	  .pods = "spec.tasks[].replicas", .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Volcano",
	  .note = "pkg/apis/batch/v1alpha1 JobSpec: one pod template per "
		  "task, each task its own replicas; Volcano labels the pods "
		  "(no selector)" },
	{ .kind = NULL },
};

const struct wg_known wg_known_kinds[WG_KIND_KNOWN_COUNT] = {
	[WG_KIND_SERVICE] = { "Service", "", NULL },
	[WG_KIND_HPA] = { "HorizontalPodAutoscaler", "autoscaling", NULL },
	[WG_KIND_PDB] = { "PodDisruptionBudget", "policy", NULL },
	/* node.k8s.io/v1 since Kubernetes 1.20; v1beta1 was removed in
	 * 1.25 (the Kubernetes "Deprecated API Migration Guide") */
	[WG_KIND_RUNTIME_CLASS] = { "RuntimeClass", "node.k8s.io",
				    "node.k8s.io/v1" },
};

/* ---- API groups ---------------------------------------------------------- */

bool wg_api_group(const struct wg_node *api, const char **group, size_t *len)
{
	const char *slash;

	if (!wg_is_scalar(api))
		return false;
	slash = memchr(api->u.str, '/', api->len);
	*group = api->u.str;
	*len = slash ? (size_t)(slash - api->u.str) : 0;
	return true;
}

bool wg_group_listed(const char *group, size_t len, const char *groups)
{
	for (const char *g = groups;;) {
		size_t n = strcspn(g, "|");

		if (n == len && memcmp(g, group, n) == 0)
			return true;
		if (!g[n])
			return false;
		g += n + 1;
	}
}

bool wg_api_group_in(const struct wg_node *api, const char *groups)
{
	const char *g;
	size_t len;

	if (!api)
		return true;	/* no apiVersion: trust the kind */
	return wg_api_group(api, &g, &len) && wg_group_listed(g, len, groups);
}

/* ---- lookups ------------------------------------------------------------- */

static bool kind_fits(const struct wg_kind *k, const struct wg_node *kind,
		      const struct wg_node *api)
{
	if (!wg_scalar_is(kind, k->kind))
		return false;
	if (!api && k->origin != WG_KIND_KUBERNETES)
		return false;	/* a custom resource names its group */
	return wg_api_group_in(api, k->groups);
}

const struct wg_kind *wg_kind_of(const struct wg_kind_set *extra,
				 const struct wg_resource *res)
{
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	const struct wg_node *api = wg_map_get(res->root, "apiVersion");

	if (!wg_is_scalar(kind))
		return NULL;
	for (const struct wg_kind *k = wg_kinds; k->kind; k++)
		if (kind_fits(k, kind, api))
			return k;
	for (size_t i = 0; extra && i < extra->len; i++)
		if (kind_fits(&extra->items[i], kind, api))
			return &extra->items[i];
	return NULL;
}

const struct wg_kind *wg_kind_named(const struct wg_kind_set *extra,
				    const char *name, size_t len)
{
	for (const struct wg_kind *k = wg_kinds; k->kind; k++)
		if (strlen(k->kind) == len && memcmp(k->kind, name, len) == 0)
			return k;
	for (size_t i = 0; extra && i < extra->len; i++) {
		const struct wg_kind *k = &extra->items[i];

		if (strlen(k->kind) == len && memcmp(k->kind, name, len) == 0)
			return k;
	}
	return NULL;
}

static bool named(const char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

static void add_name(const char **names, size_t cap, size_t *n,
		     const char *name)
{
	if (named(names, *n < cap ? *n : cap, name))
		return;
	if (*n < cap)
		names[*n] = name;
	(*n)++;
}

size_t wg_kind_names(const struct wg_kind_set *extra, const char **names,
		     size_t cap)
{
	size_t n = 0;

	for (const struct wg_kind *k = wg_kinds; k->kind; k++)
		add_name(names, cap, &n, k->kind);
	for (size_t i = 0; extra && i < extra->len; i++)
		add_name(names, cap, &n, extra->items[i].kind);
	return n;
}

const struct wg_kind *wg_kind_collides(const char *kind, const char *groups)
{
	for (const struct wg_kind *k = wg_kinds; k->kind; k++) {
		if (strcmp(k->kind, kind) != 0)
			continue;
		for (const char *g = groups;;) {
			size_t n = strcspn(g, "|");

			if (wg_group_listed(g, n, k->groups))
				return k;
			if (!g[n])
				break;
			g += n + 1;
		}
	}
	return NULL;
}

bool wg_is_kind(const struct wg_resource *res, enum wg_known_kind k)
{
	const struct wg_known *w = &wg_known_kinds[k];

	return wg_scalar_is(wg_map_get(res->root, "kind"), w->kind)
	       && wg_api_group_in(wg_map_get(res->root, "apiVersion"),
				  w->group);
}
