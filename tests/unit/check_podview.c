/*
 * The shape walker (kinds.h shapes, podspec.h views): Argo Workflows and
 * Tekton runs as pods, their settings read where each pod reads them,
 * written where the pod's own go, and their references followed.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/podspec.h"

struct many {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_podspec *ps;
	size_t n;
};

/* Reads a stream and finds the pods of its item at (following references
 * into the list when join). */
static void many_read(struct many *m, const char *yaml, size_t at, bool join)
{
	wg_ctx_init(&m->ctx);
	wg_resources_init(&m->list);
	ck_assert_int_eq(t_read(&m->ctx, &m->in, yaml, &m->list), 0);
	ck_assert_uint_gt(m->list.len, at);
	m->n = wg_podspec_find_in(&m->list.arena, NULL, join ? &m->list : NULL,
				  m->list.items[at], &m->ps);
}

static void many_free(struct many *m)
{
	wg_resources_release(&m->list);
	wg_input_release(&m->in);
	wg_ctx_release(&m->ctx);
}

/* The images of ps's containers, space-separated, in order. */
static const char *images(struct wg_arena *a, const struct wg_podspec *ps)
{
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_buf b = WG_BUF_INIT;
	const char *out;

	wg_container_iter_init(&it, ps->spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *img = wg_map_get(c.node, "image");

		wg_buf_addf(&b, "%s%.*s", b.len ? " " : "",
			    wg_is_scalar(img) ? (int)img->len : 1,
			    wg_is_scalar(img) ? img->u.str : "-");
	}
	out = wg_arena_strdup(a, b.buf ? b.buf : "");
	wg_buf_release(&b);
	return out;
}

static const char argo[] =
	"apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
	"metadata: {name: w}\n"
	"spec:\n"
	"  nodeSelector: {pool: ci}\n"
	"  tolerations: [{key: a, operator: Exists}]\n"
	"  templates:\n"
	"  - name: main\n"			/* steps: no pod */
	"    steps:\n"
	"    - - name: s\n"
	"        template: one\n"
	"      - name: i\n"
	"        inline: {container: {image: in}}\n"
	"  - name: one\n"
	"    nodeSelector: {}\n"		/* empty: inherits */
	"    initContainers: [{name: init, image: i0}]\n"
	"    container: {image: c0}\n"
	"    sidecars: [{name: side, image: s0}]\n"
	"  - name: set\n"
	"    containerSet: {containers: [{name: a, image: a0}, "
	"{name: b, image: b0}]}\n"
	"    nodeSelector: {disk: ssd}\n"
	"  - name: res\n"
	"    resource: {action: create}\n"
	"  - name: sus\n"
	"    suspend: {}\n";

START_TEST(test_argo_pods)
{
	struct many m;
	struct wg_buf path = WG_BUF_INIT;
	struct wg_container_iter it;
	struct wg_container c;
	const char *what;

	many_read(&m, argo, 0, false);
	/* one, set, res, and the inline step template: not steps, suspend */
	ck_assert_uint_eq(m.n, 4);
	ck_assert_str_eq(images(&m.list.arena, &m.ps[0]), "i0 c0 s0");
	ck_assert_str_eq(images(&m.list.arena, &m.ps[1]), "a0 b0");
	ck_assert_str_eq(images(&m.list.arena, &m.ps[2]), "");
	ck_assert_str_eq(images(&m.list.arena, &m.ps[3]), "in");
	ck_assert_str_eq(wg_podspec_what(&m.list.arena, &m.ps[0]),
			 "template 'one'");
	/* the container paths are the tree's */
	wg_container_iter_init(&it, m.ps[0].spec);
	ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(c.list, "initContainers");
	ck_assert_str_eq(wg_container_path(&path, &m.ps[0], &c, "image",
					   (const char *)NULL),
			 "spec.templates[1].initContainers[0].image");
	ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(wg_container_path(&path, &m.ps[0], &c,
					   (const char *)NULL),
			 "spec.templates[1].container");
	ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(wg_container_path(&path, &m.ps[0], &c,
					   (const char *)NULL),
			 "spec.templates[1].sidecars[0]");
	ck_assert_ptr_null(wg_container_owner(&m.ps[0], &c));
	wg_container_iter_init(&it, m.ps[3].spec);
	ck_assert(wg_container_next(&it, &c));
	ck_assert_str_eq(wg_container_path(&path, &m.ps[3], &c,
					   (const char *)NULL),
			 "spec.templates[0].steps[0][1].inline.container");
	/* an empty nodeSelector inherits the workflow's (Argo's len > 0) */
	ck_assert(wg_podspec_inherits(&m.ps[0], "nodeSelector"));
	ck_assert(wg_scalar_is(wg_path_get(m.ps[0].spec, "nodeSelector.pool"),
			       "ci"));
	ck_assert_str_eq(wg_podspec_path(&path, &m.ps[0], "nodeSelector",
					 "pool", (const char *)NULL),
			 "spec.nodeSelector.pool");
	ck_assert_str_eq(wg_podspec_own_path(&path, &m.ps[0], "nodeSelector",
					     (const char *)NULL),
			 "spec.templates[1].nodeSelector");
	ck_assert_int_eq(wg_podspec_source(&m.ps[0], "nodeSelector"), 2);
	/* its own: not the workflow's */
	ck_assert(!wg_podspec_inherits(&m.ps[1], "nodeSelector"));
	ck_assert_ptr_null(wg_path_get(m.ps[1].spec, "nodeSelector.pool"));
	ck_assert(wg_scalar_is(wg_path_get(m.ps[1].spec, "nodeSelector.disk"),
			       "ssd"));
	/* no place for these on an Argo template */
	ck_assert(!wg_podspec_has(&m.ps[0], "runtimeClassName"));
	ck_assert(!wg_podspec_has(&m.ps[0], "os"));
	ck_assert(wg_podspec_has(&m.ps[0], "tolerations"));
	ck_assert(!wg_podspec_unresolved(&m.ps[0], &what,
					 &(const struct wg_node *){ NULL },
					 &what));
	wg_buf_release(&path);
	many_free(&m);
}
END_TEST

START_TEST(test_argo_ensure_copies)
{
	struct many m;
	struct wg_node *ns, *seq, *root;
	const struct wg_node *bad;
	const char *bad_path;

	many_read(&m, argo, 0, false);
	root = m.list.items[0]->root;
	/* the pod's own nodeSelector, with the workflow's copied in */
	ns = wg_podspec_ensure(&m.ctx, &m.list.arena, m.list.items[0],
			       &m.ps[0], "nodeSelector", WG_NODE_MAP, "test",
			       &bad, &bad_path);
	ck_assert_ptr_nonnull(ns);
	ck_assert_ptr_eq(ns, wg_path_get(root, "spec.templates[1]."
					 "nodeSelector"));
	ck_assert(wg_scalar_is(wg_map_get(ns, "pool"), "ci"));
	ck_assert_uint_eq(m.ctx.log.nchanges, 1);
	wg_map_insert(&m.list.arena, ns, ns->len, "k", wg_node_new_str(
		&m.list.arena, "v"));
	/* the workflow's is untouched; the view reads the pod's own */
	ck_assert_ptr_null(wg_path_get(root, "spec.nodeSelector.k"));
	ck_assert_uint_eq(wg_path_get(root, "spec.nodeSelector")->len, 1);
	ck_assert(!wg_podspec_inherits(&m.ps[0], "nodeSelector"));
	ck_assert(wg_scalar_is(wg_path_get(m.ps[0].spec, "nodeSelector.k"),
			       "v"));
	/* the other pods still read theirs */
	ck_assert_ptr_null(wg_path_get(m.ps[2].spec, "nodeSelector.k"));
	/* a list the same way */
	seq = wg_podspec_ensure(&m.ctx, &m.list.arena, m.list.items[0],
				&m.ps[1], "tolerations", WG_NODE_SEQ, "test",
				&bad, &bad_path);
	ck_assert_ptr_eq(seq, wg_path_get(root, "spec.templates[2]."
					  "tolerations"));
	ck_assert_uint_eq(seq->len, 1);
	/* no place: nothing written */
	ck_assert_ptr_null(wg_podspec_ensure(&m.ctx, &m.list.arena,
					     m.list.items[0], &m.ps[0], "os",
					     WG_NODE_MAP, "test", &bad,
					     &bad_path));
	ck_assert(!wg_podspec_set(&m.list.arena, &m.ps[0], "runtimeClassName",
				  wg_node_new_str(&m.list.arena, "x")));
	ck_assert_ptr_null(wg_path_get(root,
				       "spec.templates[1].runtimeClassName"));
	many_free(&m);
}
END_TEST

START_TEST(test_argo_shared_write)
{
	struct many m;
	const char *path;
	struct wg_node *ns;

	many_read(&m, "apiVersion: argoproj.io/v1alpha1\nkind: CronWorkflow\n"
		      "metadata: {name: c}\nspec:\n  workflowSpec:\n"
		      "    templates:\n"
		      "    - {name: a, container: {image: x}}\n"
		      "    - {name: b, script: {image: y}}\n", 0, false);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_int_eq(wg_podspec_source(&m.ps[0], "nodeSelector"), -1);
	ns = wg_podspec_ensure_shared(&m.list.arena, m.ps, m.n, 0,
				      "nodeSelector", WG_NODE_MAP, &path);
	ck_assert_ptr_nonnull(ns);
	/* the workflow's, not templateDefaults' */
	ck_assert_str_eq(path, "spec.workflowSpec.nodeSelector");
	wg_map_insert(&m.list.arena, ns, 0, "os", wg_node_new_str(
		&m.list.arena, "linux"));
	wg_podspec_refresh(&m.list.arena, m.ps, m.n);
	ck_assert(wg_scalar_is(wg_path_get(m.ps[1].spec, "nodeSelector.os"),
			       "linux"));
	ck_assert_int_eq(wg_podspec_source(&m.ps[1], "nodeSelector"), 2);
	many_free(&m);
}
END_TEST

static const char tekton[] =
	"apiVersion: tekton.dev/v1\nkind: Task\nmetadata: {name: t}\n"
	"spec:\n  stepTemplate: {image: tmpl}\n"
	"  steps: [{name: a, image: a0}, {name: b}, {name: c, ref: {name: sa}}]\n"
	"  sidecars: [{name: s, image: s0}]\n"
	"---\n"
	"apiVersion: tekton.dev/v1beta1\nkind: StepAction\n"
	"metadata: {name: sa}\nspec: {image: act}\n"
	"---\n"
	"apiVersion: tekton.dev/v1\nkind: TaskRun\nmetadata: {name: r}\n"
	"spec:\n  taskRef: {name: t}\n"
	"---\n"
	"apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: {name: p}\n"
	"spec:\n  tasks:\n  - {name: one, taskRef: {name: t}}\n"
	"  - {name: custom, taskRef: {apiVersion: x.dev/v1, kind: Wait}}\n"
	"  finally:\n  - name: two\n"
	"    taskSpec: {steps: [{name: x, image: f0}]}\n"
	"---\n"
	"apiVersion: tekton.dev/v1\nkind: PipelineRun\nmetadata: {name: pr}\n"
	"spec:\n  pipelineRef: {name: p}\n"
	"  taskRunTemplate: {podTemplate: {nodeSelector: {pool: ci}}}\n"
	"  taskRunSpecs:\n  - pipelineTaskName: two\n"
	"    podTemplate: {runtimeClassName: rc}\n";

START_TEST(test_tekton_task_run)
{
	struct many m;
	struct wg_buf path = WG_BUF_INIT;
	struct wg_container_iter it;
	struct wg_container c;
	const struct wg_node *at, *bad;
	const char *what, *at_path, *bad_path;
	struct wg_node *ns;

	many_read(&m, tekton, 2, true);
	ck_assert_uint_eq(m.n, 1);
	/* the Task's steps (the StepAction's image for the step with ref;
	 * stepTemplate's, since a step has none), then its sidecars */
	ck_assert_str_eq(images(&m.list.arena, &m.ps[0]),
			 "a0 - act s0 tmpl");
	wg_container_iter_init(&it, m.ps[0].spec);
	ck_assert(wg_container_next(&it, &c));
	ck_assert_ptr_eq(wg_container_owner(&m.ps[0], &c), m.list.items[0]);
	ck_assert_str_eq(wg_container_path(&path, &m.ps[0], &c, "image",
					   (const char *)NULL),
			 "Task/t spec.steps[0].image");
	ck_assert(wg_container_next(&it, &c));
	ck_assert(wg_container_next(&it, &c));
	ck_assert_ptr_eq(wg_container_owner(&m.ps[0], &c), m.list.items[1]);
	ck_assert(!wg_podspec_unresolved(&m.ps[0], &what, &at, &at_path));
	ck_assert(wg_podspec_has(&m.ps[0], "runtimeClassName"));
	ck_assert(!wg_podspec_has(&m.ps[0], "os"));
	/* its pod template, made in the run */
	ns = wg_podspec_ensure(&m.ctx, &m.list.arena, m.list.items[2],
			       &m.ps[0], "nodeSelector", WG_NODE_MAP, "t",
			       &bad, &bad_path);
	ck_assert_ptr_eq(ns, wg_path_get(m.list.items[2]->root,
					 "spec.podTemplate.nodeSelector"));
	ck_assert_str_eq(wg_podspec_path(&path, &m.ps[0], "nodeSelector",
					 (const char *)NULL),
			 "spec.podTemplate.nodeSelector");
	/* the Task is untouched */
	ck_assert_ptr_null(wg_path_get(m.list.items[0]->root,
				       "spec.podTemplate"));
	many_free(&m);

	/* without the list, the Task is not followed: unresolved */
	many_read(&m, tekton, 2, false);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_str_eq(images(&m.list.arena, &m.ps[0]), "");
	ck_assert(wg_podspec_unresolved(&m.ps[0], &what, &at, &at_path));
	ck_assert_str_eq(what, "Task 't'");
	ck_assert_str_eq(at_path, "spec.taskRef");
	many_free(&m);
	wg_buf_release(&path);
}
END_TEST

START_TEST(test_tekton_pipeline_run)
{
	struct many m;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *bad;
	const char *bad_path;
	struct wg_node *ns, *root;

	many_read(&m, tekton, 4, true);
	/* one and two; the custom task runs no pod of Tekton's */
	ck_assert_uint_eq(m.n, 2);
	root = m.list.items[4]->root;
	ck_assert_str_eq(wg_podspec_what(&m.list.arena, &m.ps[0]),
			 "task 'one'");
	ck_assert_str_eq(images(&m.list.arena, &m.ps[0]), "a0 - act s0 tmpl");
	ck_assert_str_eq(images(&m.list.arena, &m.ps[1]), "f0");
	/* settings: the entry's, else taskRunTemplate's */
	ck_assert(wg_podspec_inherits(&m.ps[0], "nodeSelector"));
	ck_assert(wg_scalar_is(wg_map_get(m.ps[1].spec, "runtimeClassName"),
			       "rc"));
	ck_assert_str_eq(wg_podspec_own_path(&path, &m.ps[0], "nodeSelector",
					     (const char *)NULL),
			 "spec.taskRunSpecs[1].podTemplate.nodeSelector");
	/* written: an entry of its own, named after the task, with the
	 * inherited nodeSelector copied */
	ns = wg_podspec_ensure(&m.ctx, &m.list.arena, m.list.items[4],
			       &m.ps[0], "nodeSelector", WG_NODE_MAP, "t",
			       &bad, &bad_path);
	ck_assert_ptr_eq(ns, wg_path_get(root, "spec.taskRunSpecs[1]."
					 "podTemplate.nodeSelector"));
	ck_assert(wg_scalar_is(wg_path_get(root, "spec.taskRunSpecs[1]."
					   "pipelineTaskName"), "one"));
	ck_assert(wg_scalar_is(wg_map_get(ns, "pool"), "ci"));
	/* the task with an entry writes in it */
	ck_assert(wg_podspec_set(&m.list.arena, &m.ps[1], "runtimeClassName",
				 wg_node_new_str(&m.list.arena, "other")));
	ck_assert(wg_scalar_is(wg_path_get(root, "spec.taskRunSpecs[0]."
					   "podTemplate.runtimeClassName"),
			       "other"));
	ck_assert_uint_eq(wg_path_get(root, "spec.taskRunSpecs")->len, 2);
	/* nothing in the Pipeline or the Task */
	ck_assert_ptr_null(wg_path_get(m.list.items[3]->root,
				       "spec.taskRunSpecs"));
	wg_buf_release(&path);
	many_free(&m);
}
END_TEST

START_TEST(test_tekton_v1beta1)
{
	struct many m;
	const struct wg_node *bad;
	const char *bad_path;

	many_read(&m, "apiVersion: tekton.dev/v1beta1\nkind: PipelineRun\n"
		      "metadata: {name: old}\nspec:\n"
		      "  podTemplate: {nodeSelector: {pool: ci}}\n"
		      "  pipelineSpec:\n    tasks:\n    - name: t\n"
		      "      taskSpec: {steps: [{name: s, image: x}]}\n",
		      0, true);
	ck_assert_uint_eq(m.n, 1);
	ck_assert(wg_podspec_inherits(&m.ps[0], "nodeSelector"));
	ck_assert_ptr_nonnull(wg_podspec_ensure(&m.ctx, &m.list.arena,
			      m.list.items[0], &m.ps[0], "tolerations",
			      WG_NODE_SEQ, "t", &bad, &bad_path));
	ck_assert_ptr_nonnull(wg_path_get(m.list.items[0]->root,
			      "spec.taskRunSpecs[0].taskPodTemplate."
			      "tolerations"));
	many_free(&m);
}
END_TEST

struct seen {
	size_t n, found, pods;
	char what[8][64];
};

static void on_ref(const struct wg_podspec_ref *r, void *payload)
{
	struct seen *s = payload;

	if (s->n < 8)
		snprintf(s->what[s->n], sizeof(s->what[0]), "%s%s", r->what,
			 r->remote ? " (remote)" : "");
	s->n++;
	s->found += r->target != NULL;
	s->pods += r->pods;
}

START_TEST(test_refs)
{
	struct many m;
	struct seen s = { 0 };
	const char *runners;

	many_read(&m, tekton, 4, true);
	wg_podspec_refs(&m.list.arena, NULL, &m.list, m.list.items[4], on_ref,
			&s);
	/* pipelineRef, task one's taskRef, then its step c's ref */
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.found, 3);
	ck_assert_str_eq(s.what[0], "Pipeline 'p'");
	ck_assert_str_eq(s.what[1], "Task 't'");
	ck_assert_str_eq(s.what[2], "StepAction 'sa'");
	ck_assert(wg_podspec_named_kind(&m.list.arena, m.list.items[0],
					&runners));
	ck_assert_str_eq(runners, "TaskRun or PipelineRun");
	ck_assert(wg_podspec_named_kind(&m.list.arena, m.list.items[3],
					&runners));
	ck_assert_str_eq(runners, "PipelineRun");
	ck_assert(!wg_podspec_named_kind(&m.list.arena, m.list.items[2],
					 &runners));
	many_free(&m);

	memset(&s, 0, sizeof(s));
	many_read(&m, "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
		      "metadata: {name: w}\nspec:\n  templates:\n"
		      "  - name: m\n    dag:\n      tasks:\n"
		      "      - {name: a, templateRef: {name: x, template: y}}\n"
		      "      - {name: b, templateRef: {name: z, template: y, "
		      "clusterScope: true}}\n"
		      "---\napiVersion: tekton.dev/v1\nkind: TaskRun\n"
		      "metadata: {name: r}\nspec:\n"
		      "  taskRef: {resolver: git}\n", 0, true);
	wg_podspec_refs(&m.list.arena, NULL, &m.list, m.list.items[0], on_ref,
			&s);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.found, 0);
	ck_assert_uint_eq(s.pods, 0);
	ck_assert_str_eq(s.what[0], "WorkflowTemplate 'x'");
	ck_assert_str_eq(s.what[1], "ClusterWorkflowTemplate 'z'");
	memset(&s, 0, sizeof(s));
	wg_podspec_refs(&m.list.arena, NULL, &m.list, m.list.items[1], on_ref,
			&s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.pods, 1);
	ck_assert_str_eq(s.what[0], "a Task its resolver fetches (remote)");
	many_free(&m);
}
END_TEST

START_TEST(test_template_kinds_unchanged)
{
	struct many m;

	/* a PodTemplateSpec kind has no view: its spec is the pod spec */
	many_read(&m, "apiVersion: apps/v1\nkind: Deployment\n"
		      "metadata: {name: d}\nspec:\n  template:\n"
		      "    spec: {containers: [{image: x}]}\n", 0, true);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_ptr_null(m.ps[0].view);
	ck_assert_ptr_eq(m.ps[0].spec, wg_path_get(m.list.items[0]->root,
						   "spec.template.spec"));
	ck_assert_ptr_eq(wg_podspec_shape(&m.ps[0]), &wg_pod_template_shape);
	ck_assert(wg_podspec_has(&m.ps[0], "os"));
	ck_assert_ptr_eq(wg_podspec_anchor(&m.ps[0]), m.ps[0].spec);
	many_free(&m);
}
END_TEST

static Suite *podview_suite(void)
{
	Suite *s = suite_create("podview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_argo_pods);
	tcase_add_test(tc, test_argo_ensure_copies);
	tcase_add_test(tc, test_argo_shared_write);
	tcase_add_test(tc, test_tekton_task_run);
	tcase_add_test(tc, test_tekton_pipeline_run);
	tcase_add_test(tc, test_tekton_v1beta1);
	tcase_add_test(tc, test_refs);
	tcase_add_test(tc, test_template_kinds_unchanged);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(podview_suite)
