#include <string.h>

#include "txtest.h"

#define PLUGIN "runtime-class-name"

#define POD(spec) \
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" \
	"  containers:\n  - image: win/app\n" spec

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

START_TEST(test_sets_name)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, POD(""), PLUGIN);
	ck_assert_str_eq(r.out, POD("  runtimeClassName: windows-ltsc2022\n"));
	c = tr_change(&r, "spec.runtimeClassName");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->op, WG_CHANGE_SET);
	ck_assert_ptr_null(c->old_value);
	ck_assert_str_eq(c->new_value, "windows-ltsc2022");
	ck_assert_str_eq(c->plugin, PLUGIN);
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);

	/* a null value is replaced where it is */
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		"spec:\n  runtimeClassName: ~\n  containers: [{image: win/a}]\n",
		PLUGIN);
	ck_assert_str_eq(r.out, "apiVersion: v1\nkind: Pod\nmetadata: "
		"{name: p}\nspec:\n  runtimeClassName: windows-ltsc2022\n"
		"  containers: [{image: win/a}]\n");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_build_runtime_class)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tp_build(&tp, "ltsc2025", "arm64");
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
		"  annotations: {wingen.dev/windows-build: ltsc2025}\n"
		"spec:\n  containers: [{image: win/a}]\n", PLUGIN);
	ck_assert_ptr_nonnull(strstr(r.out,
				     "runtimeClassName: windows-ltsc2025-arm64"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_conflict)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	setup(&tp);
	tr_run(&r, &tp, POD("  runtimeClassName: kata\n"), PLUGIN);
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "is 'kata', but this Windows workload "
		    "(windows.select[0]) needs RuntimeClass 'windows-ltsc2022' "
		    "of build ltsc2022; wingen does not overwrite it");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.runtimeClassName");
	ck_assert_uint_eq(d->line, 8);
	ck_assert_str_eq(d->ref.kind, "Pod");
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);

	/* the same name: nothing to do */
	tr_run(&r, &tp, POD("  runtimeClassName: windows-ltsc2022\n"),
	       PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* The RuntimeClass admission rule: same key, different value. */
START_TEST(test_admission_nodeselector)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	setup(&tp);
	/* the RuntimeClass of the stream has a key of its own */
	tr_run(&r, &tp, "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata: {name: windows-ltsc2022}\nhandler: runhcs-wcow-process\n"
		"scheduling:\n  nodeSelector:\n    kubernetes.io/os: windows\n"
		"    pool: win\n---\n"
		POD("  nodeSelector: {pool: gpu}\n"), PLUGIN);
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "conflicts with RuntimeClass "
		    "'windows-ltsc2022' scheduling.nodeSelector[pool] = 'win': "
		    "the RuntimeClass admission plugin rejects the pod");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.nodeSelector.pool");
	ck_assert_uint_eq(d->line, 17);
	tr_free(&r);

	/* without node-selector in the chain, against the expected
	 * RuntimeClass: a forced workload pinned to Linux */
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
		"  annotations: {wingen.dev/windows: \"true\"}\nspec:\n"
		"  nodeSelector: {kubernetes.io/os: linux}\n"
		"  containers: [{image: nginx}]\n", PLUGIN);
	d = tr_diag(&r, WG_SEV_ERROR, "scheduling.nodeSelector"
		    "[kubernetes.io/os] = 'windows'");
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	tr_free(&r);

	/* node-selector reported it already: not twice */
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
		"  annotations: {wingen.dev/windows: \"true\"}\nspec:\n"
		"  nodeSelector: {kubernetes.io/os: linux}\n"
		"  containers: [{image: nginx}]\n",
		"node-selector " PLUGIN);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "is 'linux', but"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_overhead)
{
	struct tp tp;
	struct tr r;
	struct tr fixed;
	const struct wg_diag *d;

	setup(&tp);
	tr_run(&r, &tp, POD("  overhead: {cpu: 250m}\n"), PLUGIN);
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "is set, but RuntimeClass "
		    "'windows-ltsc2022' defines no overhead");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.overhead");
	tr_free(&r);

	/* the build's overhead, equal: a warning, and never written */
	tr_run(&fixed, &tp, "podFixed: {cpu: 250m}\n", "pod-os");
	tp.builds[0].overhead = wg_map_get(fixed.list.items[0]->root,
					   "podFixed");
	tr_run(&r, &tp, POD("  overhead: {cpu: 250m}\n"), PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "fills it in"));
	tr_free(&r);
	tr_run(&r, &tp, POD(""), PLUGIN);
	ck_assert_ptr_null(strstr(r.out, "overhead"));
	tr_free(&r);
	tr_run(&r, &tp, POD("  overhead: {cpu: 1}\n"), PLUGIN);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "defines a different "
				      "overhead"));
	tr_free(&r);
	tr_free(&fixed);
	tp_release(&tp);
}
END_TEST

START_TEST(test_host_process)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run_strict(&r, &tp, POD("  hostNetwork: true\n  securityContext:\n"
				   "    windowsOptions: {hostProcess: true}\n"),
		      PLUGIN, false);
	ck_assert_ptr_null(strstr(r.out, "runtimeClassName"));
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_INFO, "HostProcess"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* With the RuntimeClass generator in front: what it writes agrees. */
START_TEST(test_with_generator)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, POD("  nodeSelector: {disk: ssd}\n"),
	       "runtime-class node-selector " PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "kind: RuntimeClass"));
	ck_assert_ptr_nonnull(strstr(r.out, "runtimeClassName: windows-ltsc2022"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *rcn_suite(void)
{
	Suite *s = suite_create("runtime_class_name");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sets_name);
	tcase_add_test(tc, test_build_runtime_class);
	tcase_add_test(tc, test_conflict);
	tcase_add_test(tc, test_admission_nodeselector);
	tcase_add_test(tc, test_overhead);
	tcase_add_test(tc, test_host_process);
	tcase_add_test(tc, test_with_generator);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(rcn_suite)
