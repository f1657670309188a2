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

const char *const wg_pod_field_keys[WG_POD_NFIELDS] = {
	[WG_POD_NODE_SELECTOR] = "nodeSelector",
	[WG_POD_TOLERATIONS] = "tolerations",
	[WG_POD_AFFINITY] = "affinity",
	[WG_POD_RUNTIME_CLASS] = "runtimeClassName",
	[WG_POD_OS] = "os",
	[WG_POD_SECURITY_CONTEXT] = "securityContext",
	[WG_POD_HOST_NETWORK] = "hostNetwork",
};

int wg_pod_field_of(const char *key)
{
	for (int f = 0; f < WG_POD_NFIELDS; f++)
		if (strcmp(wg_pod_field_keys[f], key) == 0)
			return f;
	return -1;
}

#define POD_FIELDS { \
	[WG_POD_NODE_SELECTOR] = "nodeSelector", \
	[WG_POD_TOLERATIONS] = "tolerations", \
	[WG_POD_AFFINITY] = "affinity", \
	[WG_POD_RUNTIME_CLASS] = "runtimeClassName", \
	[WG_POD_OS] = "os", \
	[WG_POD_SECURITY_CONTEXT] = "securityContext", \
	[WG_POD_HOST_NETWORK] = "hostNetwork", \
}

const struct wg_pod_shape wg_pod_template_shape = {
	.root = "", .pods = { NULL },	/* the kind's templates */
	.body = "spec",
	.containers = { "initContainers[]", "containers[]",
			"ephemeralContainers[]", NULL },
	.init_containers = "initContainers[]",
	.own = "spec", .fields = POD_FIELDS,
};

/*
 * Argo Workflows (pkg/apis/workflow/v1alpha1 WorkflowSpec and Template;
 * workflow/controller/workflowpod.go): every template that holds a
 * container, script, containerSet, resource or data runs one pod, and so
 * does a step's or a DAG task's inline template.  Its nodeSelector,
 * affinity, tolerations and securityContext are the template's when it
 * sets them (non-empty), else the workflow's (spec.templateDefaults is
 * merged into every template first); a Template has no runtimeClassName
 * and no os (podSpecPatch, a string, is the only way to them).  Templates
 * of one workflow run Linux and Windows pods alike (Argo's own "hybrid"
 * example), so each is decided on its own.  A templateRef runs a template
 * of another WorkflowTemplate, with that template's own settings.
 */
#define ARGO_REF(path) { .at = path, .kind = "WorkflowTemplate", \
	.cluster_kind = "ClusterWorkflowTemplate", .cluster = "clusterScope", \
	.groups = "argoproj.io", .body = "spec" }
#define ARGO_SHAPE(rootpath, ...) { \
	.root = rootpath, \
	.pods = { "templates[]", "templates[].steps[][].inline", \
		  "templates[].dag.tasks[].inline", NULL }, \
	.runs = "container|script|containerSet|resource|data", \
	.body = "", \
	.containers = { "initContainers[]", "container", "script", \
			"containerSet.containers[]", "sidecars[]", NULL }, \
	.init_containers = "initContainers[]", \
	.own = "", \
	.shared = { __VA_ARGS__, NULL }, \
	.fields = { [WG_POD_NODE_SELECTOR] = "nodeSelector", \
		    [WG_POD_TOLERATIONS] = "tolerations", \
		    [WG_POD_AFFINITY] = "affinity", \
		    [WG_POD_SECURITY_CONTEXT] = "securityContext", \
		    [WG_POD_HOST_NETWORK] = "hostNetwork" }, \
	.empty_inherits = true, .apart = true, .callers = "steps|dag", \
	.checks = { ARGO_REF("workflowTemplateRef"), \
		    ARGO_REF("templates[].steps[][].templateRef"), \
		    ARGO_REF("templates[].dag.tasks[].templateRef"), \
		    { 0 } }, \
}

static const struct wg_pod_shape argo_workflow =
	ARGO_SHAPE("spec", "spec.templateDefaults", "spec");
static const struct wg_pod_shape argo_cron_workflow =
	ARGO_SHAPE("spec.workflowSpec", "spec.workflowSpec.templateDefaults",
		   "spec.workflowSpec");

/*
 * Tekton Pipelines (pkg/apis/pipeline/v1 and v1beta1; pod/template.go):
 * a TaskRun runs one pod, the steps and sidecars of its Task (taskSpec
 * inline, or the Task taskRef names) with its spec.podTemplate; a
 * PipelineRun runs one pod per task of its Pipeline (pipelineSpec inline,
 * or pipelineRef), each with the podTemplate of its taskRunSpecs entry
 * (v1beta1: taskPodTemplate), a field it leaves unset taken from
 * spec.taskRunTemplate.podTemplate (v1beta1: spec.podTemplate).  A pod
 * template has no os.  A step without an image takes stepTemplate's; a
 * step with ref runs a StepAction.  A Pipeline may hold Linux and
 * Windows tasks (Tekton's docs/windows.md): each is decided on its own.
 */
#define TEKTON_REF(path, k, ck) { .at = path, .kind = k, \
	.cluster_kind = ck, .groups = "tekton.dev", .body = "spec", \
	.remote = "resolver|bundle" }
#define TEKTON_FIELDS { \
	[WG_POD_NODE_SELECTOR] = "nodeSelector", \
	[WG_POD_TOLERATIONS] = "tolerations", \
	[WG_POD_AFFINITY] = "affinity", \
	[WG_POD_RUNTIME_CLASS] = "runtimeClassName", \
	[WG_POD_SECURITY_CONTEXT] = "securityContext", \
	[WG_POD_HOST_NETWORK] = "hostNetwork", \
}
#define TEKTON_TASK_BODY \
	.body = "taskSpec", \
	.body_ref = TEKTON_REF("taskRef", "Task", "ClusterTask"), \
	.containers = { "steps[]", "sidecars[]", NULL }, \
	.container_defaults = "stepTemplate", \
	.container_ref = TEKTON_REF("ref", "StepAction", NULL)

static const struct wg_pod_shape tekton_task_run = {
	.root = "spec", .pods = { "", NULL },
	TEKTON_TASK_BODY,
	.own = "podTemplate", .fields = TEKTON_FIELDS,
};

#define TEKTON_PIPELINE_RUN(own_at, shared_at) { \
	.root = "spec.pipelineSpec", \
	.root_ref = TEKTON_REF("spec.pipelineRef", "Pipeline", NULL), \
	.pods = { "tasks[]", "finally[]", NULL }, \
	.runs = "taskSpec|taskRef", \
	TEKTON_TASK_BODY, \
	.own = own_at, .own_list = "spec.taskRunSpecs", \
	.own_key = "pipelineTaskName", \
	.shared = { shared_at, NULL }, \
	.fields = TEKTON_FIELDS, .apart = true, \
}

static const struct wg_pod_shape tekton_pipeline_run =
	TEKTON_PIPELINE_RUN("podTemplate", "spec.taskRunTemplate.podTemplate");
static const struct wg_pod_shape tekton_pipeline_run_v1beta1 =
	TEKTON_PIPELINE_RUN("taskPodTemplate", "spec.podTemplate");

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
	{ .kind = "Workflow", .groups = "argoproj.io",
	  .shape = &argo_workflow, .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Argo Workflows",
	  .note = "pkg/apis/workflow/v1alpha1 WorkflowSpec: one pod per "
		  "template that runs a container, script, containerSet, "
		  "resource or data; the template's scheduling, else the "
		  "workflow's; no runtimeClassName, no os" },
	{ .kind = "WorkflowTemplate", .groups = "argoproj.io",
	  .shape = &argo_workflow, .name_max = 253, .no_pods = true,
	  .origin = WG_KIND_CUSTOM, .project = "Argo Workflows",
	  .note = "a WorkflowSpec the workflows that name it run" },
	{ .kind = "ClusterWorkflowTemplate", .groups = "argoproj.io",
	  .shape = &argo_workflow, .name_max = 253, .no_pods = true,
	  .origin = WG_KIND_CUSTOM, .project = "Argo Workflows",
	  .note = "a cluster-scoped WorkflowTemplate" },
	{ .kind = "CronWorkflow", .groups = "argoproj.io",
	  .shape = &argo_cron_workflow, .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Argo Workflows",
	  .note = "CronWorkflowSpec: spec.workflowSpec is a WorkflowSpec" },
	{ .kind = "TaskRun", .groups = "tekton.dev",
	  .shape = &tekton_task_run, .pods = "", .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Tekton Pipelines",
	  .note = "pkg/apis/pipeline/v1 TaskRunSpec: the steps and "
		  "sidecars of its Task, spec.podTemplate (no os)" },
	{ .kind = "PipelineRun", .groups = "tekton.dev", .versions = "v1",
	  .shape = &tekton_pipeline_run, .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Tekton Pipelines",
	  .note = "pkg/apis/pipeline/v1 PipelineRunSpec: one pod per task "
		  "of its Pipeline, spec.taskRunSpecs[].podTemplate over "
		  "spec.taskRunTemplate.podTemplate" },
	{ .kind = "PipelineRun", .groups = "tekton.dev",
	  .versions = "v1beta1",
	  .shape = &tekton_pipeline_run_v1beta1, .name_max = 253,
	  .origin = WG_KIND_CUSTOM, .project = "Tekton Pipelines",
	  .note = "pkg/apis/pipeline/v1beta1 PipelineRunSpec: "
		  "spec.taskRunSpecs[].taskPodTemplate over "
		  "spec.podTemplate" },
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

/* Whether api's version ("v1" of "tekton.dev/v1") is one of versions. */
static bool version_listed(const struct wg_node *api, const char *versions)
{
	const char *slash;

	if (!wg_is_scalar(api))
		return false;
	slash = memchr(api->u.str, '/', api->len);
	if (!slash)
		return wg_group_listed(api->u.str, api->len, versions);
	slash++;
	return wg_group_listed(slash, api->len
			       - (size_t)(slash - api->u.str), versions);
}

static bool kind_fits(const struct wg_kind *k, const struct wg_node *kind,
		      const struct wg_node *api)
{
	if (!wg_scalar_is(kind, k->kind))
		return false;
	if (!api && k->origin != WG_KIND_KUBERNETES)
		return false;	/* a custom resource names its group */
	return wg_api_group_in(api, k->groups)
	       && (!k->versions || version_listed(api, k->versions));
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
