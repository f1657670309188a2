#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/podspec.h"

/* Reads one document and locates its pod spec. */
struct one {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_podspec ps;
	bool found;
};

static void one_read(struct one *o, const char *yaml)
{
	wg_ctx_init(&o->ctx);
	wg_resources_init(&o->list);
	ck_assert_int_eq(t_read(&o->ctx, &o->in, yaml, &o->list), 0);
	ck_assert_uint_eq(o->list.len, 1);
	o->found = wg_podspec_find(o->list.items[0], &o->ps);
}

static void one_free(struct one *o)
{
	wg_resources_release(&o->list);
	wg_input_release(&o->in);
	wg_ctx_release(&o->ctx);
}

/* Each kind: where its pod spec is, found by a marker key in it. */
static const struct {
	const char *yaml;
	const char *path;
} kinds[] = {
	{ "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps/v1\nkind: DaemonSet\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps/v1\nkind: ReplicaSet\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: v1\nkind: ReplicationController\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n"
	  "    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: batch/v1\nkind: CronJob\nspec:\n  jobTemplate:\n"
	  "    spec:\n      template:\n        spec: {marker: 1}\n",
	  "spec.jobTemplate.spec.template.spec" },
	{ "apiVersion: v1\nkind: Pod\nspec: {marker: 1}\n", "spec" },
	{ "apiVersion: v1\nkind: PodTemplate\ntemplate:\n  spec: {marker: 1}\n",
	  "template.spec" },
	/* custom resources: each project's own group */
	{ "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nspec:\n"
	  "  jobTargetRef:\n    template:\n      spec: {marker: 1}\n",
	  "spec.jobTargetRef.template.spec" },
	{ "apiVersion: serving.knative.dev/v1\nkind: Service\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: serving.knative.dev/v1\nkind: Configuration\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps.kruise.io/v1beta1\nkind: StatefulSet\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: apps.kruise.io/v1alpha1\nkind: DaemonSet\nspec:\n"
	  "  template:\n    spec: {marker: 1}\n", "spec.template.spec" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec:\n"
	  "  tasks:\n  - template:\n      spec: {marker: 1}\n",
	  "spec.tasks[0].template.spec" },
};

START_TEST(test_every_kind)
{
	struct one o;
	struct wg_buf path = WG_BUF_INIT;

	one_read(&o, kinds[_i].yaml);
	ck_assert(o.found);
	ck_assert(wg_scalar_is(wg_map_get(o.ps.spec, "marker"), "1"));
	ck_assert_str_eq(wg_podspec_path(&path, &o.ps, (const char *)NULL),
			 kinds[_i].path);
	ck_assert_ptr_eq(wg_map_get(o.ps.tmpl, "spec"), o.ps.spec);
	ck_assert_str_eq(wg_podspec_path(&path, &o.ps, "nodeSelector",
					 "kubernetes.io/os",
					 (const char *)NULL),
			 wg_arena_printf(&o.list.arena,
					 "%s.nodeSelector.[kubernetes.io/os]",
					 kinds[_i].path));
	/* The path names the node it was built from. */
	ck_assert_ptr_eq(wg_path_get(o.list.items[0]->root, kinds[_i].path),
			 o.ps.spec);
	wg_buf_release(&path);
	one_free(&o);
}
END_TEST

START_TEST(test_groups)
{
	static const struct {
		const char *yaml;
		bool workload;
	} cases[] = {
		{ "apiVersion: extensions/v1beta1\nkind: DaemonSet\nspec:\n"
		  "  template: {spec: {}}\n", true },
		{ "apiVersion: extensions/v1beta1\nkind: Deployment\nspec:\n"
		  "  template: {spec: {}}\n", true },
		{ "apiVersion: batch/v1beta1\nkind: CronJob\nspec:\n"
		  "  jobTemplate: {spec: {template: {spec: {}}}}\n", true },
		{ "kind: Deployment\nspec:\n  template: {spec: {}}\n", true },
		/* a custom resource of the same kind name */
		{ "apiVersion: example.com/v1\nkind: Job\nspec:\n"
		  "  template: {spec: {}}\n", false },
		{ "apiVersion: apps/v1\nkind: Job\nspec:\n"
		  "  template: {spec: {}}\n", false },
		{ "apiVersion: serving.knative.dev/v1\nkind: Pod\nspec: {}\n",
		  false },
		{ "apiVersion: batch/v1\nkind: StatefulSet\nspec:\n"
		  "  template: {spec: {}}\n", false },
		{ "apiVersion: v1\nkind: Service\nspec: {}\n", false },
		{ "apiVersion: v1\nkind: Service\nspec:\n"
		  "  template: {spec: {}}\n", false },
		/* a custom resource must name its group */
		{ "kind: Rollout\nspec:\n  template: {spec: {}}\n", false },
		{ "kind: Service\nspec:\n  template: {spec: {}}\n", false },
		{ "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nspec:\n"
		  "  workloadRef: {kind: Deployment, name: web}\n", false },
		/* a workload without a pod spec mapping */
		{ "apiVersion: apps/v1\nkind: Deployment\nspec:\n"
		  "  template: {spec: []}\n", false },
		{ "apiVersion: apps/v1\nkind: Deployment\nspec: {}\n", false },
		{ "apiVersion: v1\nkind: Pod\n", false },
		{ "apiVersion: [v1]\nkind: Pod\nspec: {}\n", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct one o;

		one_read(&o, cases[i].yaml);
		ck_assert_msg(o.found == cases[i].workload, "case %zu", i);
		if (!o.found)
			ck_assert_ptr_null(o.ps.spec);
		one_free(&o);
	}
}
END_TEST

START_TEST(test_kind_of)
{
	struct one o;

	one_read(&o, "apiVersion: batch/v1\nkind: CronJob\nspec: {}\n");
	ck_assert(!o.found);	/* no pod spec, but the kind is known */
	ck_assert_ptr_nonnull(wg_kind_of(NULL, o.list.items[0]));
	ck_assert_str_eq(wg_kind_of(NULL, o.list.items[0])->kind,
			 "CronJob");
	one_free(&o);
}
END_TEST

START_TEST(test_containers_in_order)
{
	struct one o;
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_buf path = WG_BUF_INIT;
	const char *want[] = { "i0", "i1", "c0", "c2", "e0" };
	size_t n = 0;

	one_read(&o, "apiVersion: v1\nkind: Pod\nspec:\n"
		     "  ephemeralContainers:\n  - name: e0\n"
		     "  containers:\n  - name: c0\n  - not-a-map\n"
		     "  - name: c2\n"
		     "  initContainers:\n  - name: i0\n  - name: i1\n");
	ck_assert(o.found);
	wg_container_iter_init(&it, o.ps.spec);
	while (wg_container_next(&it, &c)) {
		ck_assert_uint_lt(n, 5);
		ck_assert_str_eq(wg_container_name(&o.list.arena, &c),
				 want[n]);
		n++;
	}
	ck_assert_uint_eq(n, 5);
	/* The skipped item keeps the indexes true to the list. */
	wg_container_iter_init(&it, o.ps.spec);
	for (size_t i = 0; i < 4; i++)
		ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(c.list, "containers");
	ck_assert_uint_eq(c.index, 2);
	ck_assert_str_eq(wg_container_path(&path, &o.ps, &c,
					   "securityContext", "privileged",
					   (const char *)NULL),
			 "spec.containers[2].securityContext.privileged");
	ck_assert_ptr_eq(wg_path_get(o.list.items[0]->root, path.buf), NULL);
	ck_assert_ptr_eq(wg_path_get(o.list.items[0]->root,
				     "spec.containers[2]"), c.node);
	wg_buf_release(&path);
	one_free(&o);
}
END_TEST

START_TEST(test_no_containers)
{
	struct one o;
	struct wg_container_iter it;
	struct wg_container c;

	one_read(&o, "apiVersion: v1\nkind: Pod\nspec:\n  containers: {}\n"
		     "  initContainers: ~\n");
	wg_container_iter_init(&it, o.ps.spec);
	ck_assert(!wg_container_next(&it, &c));
	one_free(&o);
}
END_TEST

START_TEST(test_template_metadata)
{
	struct one o;
	struct wg_container_iter it;
	struct wg_container c;

	one_read(&o, "apiVersion: batch/v1\nkind: CronJob\n"
		     "metadata: {labels: {outer: x}}\nspec:\n  jobTemplate:\n"
		     "    spec:\n      template:\n        metadata:\n"
		     "          labels: {app: web}\n"
		     "          annotations: {a: b}\n"
		     "        spec:\n          containers:\n"
		     "          - image: x\n");
	ck_assert(o.found);
	ck_assert(wg_scalar_is(wg_map_get(wg_podspec_labels(&o.ps), "app"),
			       "web"));
	ck_assert_ptr_null(wg_map_get(wg_podspec_labels(&o.ps), "outer"));
	ck_assert(wg_scalar_is(wg_map_get(wg_podspec_annotations(&o.ps), "a"),
			       "b"));
	wg_container_iter_init(&it, o.ps.spec);
	ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(wg_container_name(&o.list.arena, &c), "#0");
	one_free(&o);

	one_read(&o, "apiVersion: v1\nkind: Pod\nmetadata:\n"
		     "  labels: {app: pod}\nspec: {}\n");
	ck_assert(wg_scalar_is(wg_map_get(wg_podspec_labels(&o.ps), "app"),
			       "pod"));
	ck_assert_ptr_null(wg_podspec_annotations(&o.ps));
	one_free(&o);
}
END_TEST

START_TEST(test_path_escaping)
{
	struct one o;
	struct wg_buf path = WG_BUF_INIT;

	one_read(&o, "apiVersion: v1\nkind: PodTemplate\ntemplate:\n"
		     "  spec:\n    nodeSelector:\n"
		     "      node.kubernetes.io/windows-build: '10.0.20348'\n");
	wg_podspec_path(&path, &o.ps, "nodeSelector",
			"node.kubernetes.io/windows-build", (const char *)NULL);
	ck_assert_str_eq(path.buf, "template.spec.nodeSelector."
				   "[node.kubernetes.io/windows-build]");
	ck_assert(wg_scalar_is(wg_path_get(o.list.items[0]->root, path.buf),
			       "10.0.20348"));
	/* reset between uses */
	wg_podspec_path(&path, &o.ps, (const char *)NULL);
	ck_assert_str_eq(path.buf, "template.spec");
	wg_buf_release(&path);
	one_free(&o);
}
END_TEST

/* A list of templates: one pod spec per item, each with its own path. */
START_TEST(test_template_lists)
{
	struct one o;
	struct wg_podspec *all;
	struct wg_buf path = WG_BUF_INIT;
	size_t n;

	one_read(&o, "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
		     "spec:\n  tasks:\n"
		     "  - {name: a, replicas: 2, template: {spec: {m: a}}}\n"
		     "  - {name: skipped, template: {spec: []}}\n"
		     "  - {name: c, replicas: 5, template: {spec: {m: c}}}\n");
	n = wg_podspec_find_all(&o.list.arena, NULL, o.list.items[0], &all);
	ck_assert_uint_eq(n, 2);
	ck_assert(wg_scalar_is(wg_map_get(all[0].spec, "m"), "a"));
	ck_assert(wg_scalar_is(wg_map_get(all[1].spec, "m"), "c"));
	ck_assert_str_eq(wg_podspec_path(&path, &all[1], "nodeSelector",
					 (const char *)NULL),
			 "spec.tasks[2].template.spec.nodeSelector");
	ck_assert_str_eq(wg_podspec_tmpl_path(&path, &all[1], "metadata",
					      (const char *)NULL),
			 "spec.tasks[2].template.metadata");
	/* the task's own count, by the same indexes */
	ck_assert_str_eq(wg_podspec_expand(&path, &all[1], all[1].kind->pods),
			 "spec.tasks[2].replicas");
	ck_assert(wg_scalar_is(wg_path_get(o.list.items[0]->root, path.buf),
			       "5"));
	/* the first one is what wg_podspec_find gives */
	ck_assert(o.found);
	ck_assert_ptr_eq(o.ps.spec, all[0].spec);
	wg_buf_release(&path);
	one_free(&o);
}
END_TEST

/* A declared kind (the profile's workloads:) with two template paths. */
START_TEST(test_declared_kind)
{
	static const struct wg_kind farm = {
		.kind = "PodFarm", .groups = "example.com",
		.templates = { "spec.template", "spec.pools[].template",
			       NULL },
		.name_max = 253, .origin = WG_KIND_DECLARED,
	};
	const struct wg_kind_set set = { &farm, 1 };
	struct one o;
	struct wg_podspec *all;
	struct wg_buf path = WG_BUF_INIT;

	one_read(&o, "apiVersion: example.com/v2\nkind: PodFarm\nspec:\n"
		     "  template: {spec: {}}\n"
		     "  pools: [{template: {spec: {}}},\n"
		     "          {template: {spec: {}}}]\n");
	ck_assert(!o.found);	/* not a built-in kind */
	ck_assert_ptr_eq(wg_kind_of(&set, o.list.items[0]), &farm);
	ck_assert_uint_eq(wg_podspec_find_all(&o.list.arena, &set,
					      o.list.items[0], &all), 3);
	ck_assert_str_eq(wg_podspec_path(&path, &all[0], (const char *)NULL),
			 "spec.template.spec");
	ck_assert_str_eq(wg_podspec_path(&path, &all[2], (const char *)NULL),
			 "spec.pools[1].template.spec");
	ck_assert_ptr_null(wg_kind_collides("PodFarm", "example.com"));
	ck_assert_ptr_nonnull(wg_kind_collides("Job", "x.io|batch"));
	ck_assert_ptr_null(wg_kind_collides("Job", "x.io"));
	wg_buf_release(&path);
	one_free(&o);
}
END_TEST

/* The one apiVersion parser. */
START_TEST(test_api_groups)
{
	struct wg_arena a = WG_ARENA_INIT;
	const char *g;
	size_t len;

	ck_assert(wg_api_group(wg_node_new_str(&a, "apps/v1"), &g, &len));
	ck_assert_uint_eq(len, 4);
	ck_assert(memcmp(g, "apps", 4) == 0);
	ck_assert(wg_api_group(wg_node_new_str(&a, "v1"), &g, &len));
	ck_assert_uint_eq(len, 0);
	ck_assert(!wg_api_group(wg_node_new_seq(&a), &g, &len));
	ck_assert(wg_api_group_in(NULL, "apps"));
	ck_assert(wg_api_group_in(wg_node_new_str(&a, "v1"), "x|"));
	ck_assert(!wg_api_group_in(wg_node_new_str(&a, "v1"), "apps"));
	ck_assert(wg_api_group_in(wg_node_new_str(&a, "extensions/v1beta1"),
				  "apps|extensions"));
	ck_assert(!wg_api_group_in(wg_node_new_str(&a, "app/v1"), "apps"));
	ck_assert(!wg_api_group_in(wg_node_new_str(&a, "apps.kruise.io/v1"),
				   "apps"));
	wg_arena_release(&a);
}
END_TEST

static Suite *podspec_suite(void)
{
	Suite *s = suite_create("podspec");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_every_kind, 0,
			    sizeof(kinds) / sizeof(kinds[0]));
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_kind_of);
	tcase_add_test(tc, test_containers_in_order);
	tcase_add_test(tc, test_no_containers);
	tcase_add_test(tc, test_template_metadata);
	tcase_add_test(tc, test_path_escaping);
	tcase_add_test(tc, test_template_lists);
	tcase_add_test(tc, test_declared_kind);
	tcase_add_test(tc, test_api_groups);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(podspec_suite)
