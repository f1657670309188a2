/* The RuntimeClass of a workload on several builds (fan-out's multi). */
#include <string.h>
#include "txtest.h"
#include "wingen/gen/runtimeclass.h"

/* A pod that names a RuntimeClass of the profile's: a stream without
 * one gets none. */
#define POD "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n" \
	"spec: {runtimeClassName: windows-ltsc2022}\n"

static void run_gen(struct tr *r, struct tp *tp, const char *yaml)
{
	tr_run(r, tp, yaml, "runtime-class");
}

static char *written(struct tr *r)
{
	return t_write(&r->ctx, &r->list);
}

START_TEST(test_made_once_after_generated)
{
	struct tp tp;
	struct tr r;
	const char *name;
	char *out;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	run_gen(&r, &tp, POD);
	r.ctx.plugin = "fan-out";
	name = wg_runtime_class_multi(&r.ctx, &r.list, &tp.builds[0], false);
	ck_assert_str_eq(name, "windows-ltsc2022-multi");
	/* a second workload on the same builds: the same one */
	ck_assert_str_eq(wg_runtime_class_multi(&r.ctx, &r.list,
						&tp.builds[0], false), name);
	ck_assert_uint_eq(r.list.len, 4);
	out = written(&r);
	ck_assert_str_eq(out,
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n"
		"  name: windows-ltsc2022\nhandler: runhcs-wcow-process\n"
		"scheduling:\n  nodeSelector:\n"
		"    kubernetes.io/os: 'windows'\n"
		"    kubernetes.io/arch: 'amd64'\n"
		"    node.kubernetes.io/windows-build: '10.0.20348'\n"
		"  tolerations:\n  - key: os\n    operator: Equal\n"
		"    value: windows\n    effect: NoSchedule\n"
		"---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata:\n  name: windows-ltsc2025\n"
		"handler: runhcs-wcow-process\nscheduling:\n  nodeSelector:\n"
		"    kubernetes.io/os: 'windows'\n"
		"    kubernetes.io/arch: 'amd64'\n"
		"    node.kubernetes.io/windows-build: '10.0.26100'\n"
		"  tolerations:\n  - key: os\n    operator: Equal\n"
		"    value: windows\n    effect: NoSchedule\n"
		"---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata:\n  name: windows-ltsc2022-multi\n"
		"handler: runhcs-wcow-process\nscheduling:\n  nodeSelector:\n"
		"    kubernetes.io/os: 'windows'\n"
		"    kubernetes.io/arch: 'amd64'\n"
		"  tolerations:\n  - key: os\n    operator: Equal\n"
		"    value: windows\n    effect: NoSchedule\n"
		"---\n" POD);
	ck_assert(r.list.items[2]->flags & WG_RES_GENERATED);
	ck_assert_uint_eq(wg_runtime_class_validate(&r.ctx, r.list.items[2]),
			  0);
	ck_assert_uint_eq(r.ctx.log.nchanges, 3);
	ck_assert_str_eq(r.ctx.log.changes[2].reason, "windows.builds[0] on "
			 "several builds (fan-out): ltsc2022 amd64, handler "
			 "runhcs-wcow-process, no windows-build label");
	ck_assert_str_eq(r.ctx.log.changes[2].plugin, "fan-out");
	free(out);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

#define MULTI_RC(arch) \
	"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n" \
	"  name: windows-ltsc2022-multi\nhandler: runhcs-wcow-process\n" \
	"scheduling:\n  nodeSelector:\n    kubernetes.io/os: windows\n" \
	"    kubernetes.io/arch: " arch "\n  tolerations:\n" \
	"  - {key: os, operator: Equal, value: windows, effect: NoSchedule}\n"

/* A node agent on amd64 and arm64 builds: -multiarch, with neither the
 * build nor the arch key, beside the -multi of one arch. */
START_TEST(test_multiarch)
{
	struct tr r;
	struct tp tp;
	char *out;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "arm64");
	run_gen(&r, &tp, POD);
	r.ctx.plugin = "fan-out";
	ck_assert_str_eq(wg_runtime_class_multi(&r.ctx, &r.list,
						&tp.builds[0], true),
			 "windows-ltsc2022-multiarch");
	ck_assert_str_eq(wg_runtime_class_multi(&r.ctx, &r.list,
						&tp.builds[0], false),
			 "windows-ltsc2022-multi");
	ck_assert_uint_eq(r.list.len, 5);
	out = written(&r);
	ck_assert_msg(strstr(out, "metadata:\n  name: windows-ltsc2022-"
			     "multiarch\nhandler: runhcs-wcow-process\n"
			     "scheduling:\n  nodeSelector:\n"
			     "    kubernetes.io/os: 'windows'\n"
			     "  tolerations:\n") != NULL, "%s", out);
	ck_assert_uint_eq(wg_runtime_class_validate(&r.ctx, r.list.items[2]),
			  0);
	ck_assert_str_eq(r.ctx.log.changes[2].reason, "windows.builds[0] on "
			 "several builds and arches (fan-out): ltsc2022 amd64, "
			 "handler runhcs-wcow-process, no windows-build label, "
			 "no arch label");
	free(out);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_input_kept_or_conflict)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	run_gen(&r, &tp, POD "---\n" MULTI_RC("amd64"));
	ck_assert_str_eq(wg_runtime_class_multi(&r.ctx, &r.list,
						&tp.builds[0], false),
			 "windows-ltsc2022-multi");
	ck_assert_uint_eq(r.list.len, 3);	/* one generated, two input */
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);

	run_gen(&r, &tp, MULTI_RC("arm64"));
	wg_runtime_class_multi(&r.ctx, &r.list, &tp.builds[0], false);
	ck_assert_msg(r.ctx.log.ndiags, "no diagnostic");
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "differs from the "
				      "RuntimeClass the profile makes for "
				      "windows.builds[0] on several builds "
				      "(fan-out): arm64 here, amd64 from "
				      "the profile"));
	ck_assert_str_eq(r.ctx.log.diags[0].field,
			 "scheduling.nodeSelector.[kubernetes.io/arch]");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_name_taken_by_a_build)
{
	struct tp tp;
	struct tr r;
	struct wg_build *b;

	tp_init(&tp);
	b = tp_build(&tp, "ltsc2025", "amd64");
	b->runtime_class = "windows-ltsc2022-multi";
	run_gen(&r, &tp, POD);
	ck_assert_ptr_null(wg_runtime_class_multi(&r.ctx, &r.list,
						  &tp.builds[0], false));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "windows.builds[1]."
				      "runtimeClass: 'windows-ltsc2022-multi' "
				      "is the name fan-out gives"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *runtimeclass_multi_suite(void)
{
	Suite *s = suite_create("runtimeclass_multi");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_made_once_after_generated);
	tcase_add_test(tc, test_multiarch);
	tcase_add_test(tc, test_input_kept_or_conflict);
	tcase_add_test(tc, test_name_taken_by_a_build);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(runtimeclass_multi_suite)
