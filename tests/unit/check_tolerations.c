#include <string.h>

#include "txtest.h"

#define PLUGIN "tolerations"

#define POD(name, spec) \
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: " name "\nspec:\n" \
	"  containers:\n  - image: win/app\n" spec

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

START_TEST(test_adds_equal_toleration)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, POD("p", "  tolerations:\n  - key: gpu\n"
			    "    operator: Exists\n"), PLUGIN);
	ck_assert_str_eq(r.out, POD("p", "  tolerations:\n  - key: gpu\n"
		"    operator: Exists\n  - key: os\n    operator: Equal\n"
		"    value: windows\n    effect: NoSchedule\n"));
	c = tr_change(&r, "spec.tolerations[1]");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->op, WG_CHANGE_ADD);
	ck_assert_str_eq(c->new_value, "{key: os, operator: Equal, value: "
			 "windows, effect: NoSchedule}");
	ck_assert_str_eq(c->reason,
			 "windows.select[0]; build ltsc2022 (windows.default)");
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);

	/* none yet: the list is made */
	tr_run(&r, &tp, POD("p", ""), PLUGIN);
	ck_assert_str_eq(r.out, POD("p", "  tolerations:\n  - key: os\n"
		"    operator: Equal\n    value: windows\n"
		"    effect: NoSchedule\n"));
	ck_assert_ptr_nonnull(tr_change(&r, "spec.tolerations[0]"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Tolerations already there that cover the taint: nothing added. */
static const char *const covered[] = {
	"  tolerations:\n  - {key: os, operator: Equal, value: windows, "
	"effect: NoSchedule}\n",
	"  tolerations:\n  - key: \"os\"\n    value: \"windows\"\n"
	"    effect: \"NoSchedule\"\n",
	"  tolerations:\n  - {key: os, operator: Exists}\n",
	"  tolerations:\n  - {key: os, operator: Exists, effect: NoSchedule}\n",
	"  tolerations:\n  - operator: Exists\n",
	"  tolerations:\n  - {operator: Exists, effect: NoSchedule}\n",
	"  tolerations:\n  - {key: os, operator: Equal, value: windows}\n",
	"  tolerations: [{key: a, operator: Exists}, {operator: Exists}]\n",
};

START_TEST(test_covered)
{
	struct tp tp;
	struct tr r;
	char in[1024];

	setup(&tp);
	snprintf(in, sizeof(in), POD("p", "%s"), covered[_i]);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_msg(r.out && strcmp(r.out, in) == 0, "case %d", _i);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Tolerations that look close but do not cover it: ours is added. */
static const char *const not_covered[] = {
	/* taint values are case-sensitive */
	"  tolerations:\n  - {key: os, operator: Equal, value: Windows, "
	"effect: NoSchedule}\n",
	"  tolerations:\n  - {key: os, operator: Equal, value: windows, "
	"effect: NoExecute}\n",
	"  tolerations:\n  - {key: node.kubernetes.io/os, operator: Exists}\n",
	"  tolerations:\n  - {operator: Exists, effect: PreferNoSchedule}\n",
	"  tolerations: ~\n",
	"  tolerations: []\n",
};

START_TEST(test_not_covered)
{
	struct tp tp;
	struct tr r;
	const struct wg_node *seq, *last;
	char in[1024];

	setup(&tp);
	snprintf(in, sizeof(in), POD("p", "%s"), not_covered[_i]);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_msg(r.ctx.log.nchanges == 1, "case %d", _i);
	seq = wg_path_get(r.list.items[0]->root, "spec.tolerations");
	ck_assert(wg_is_seq(seq) && seq->len > 0);
	last = wg_seq_item(seq, seq->len - 1);
	ck_assert(wg_scalar_is(wg_map_get(last, "key"), "os"));
	ck_assert(wg_scalar_is(wg_map_get(last, "operator"), "Equal"));
	ck_assert(wg_scalar_is(wg_map_get(last, "value"), "windows"));
	ck_assert(wg_scalar_is(wg_map_get(last, "effect"), "NoSchedule"));
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_taint_variants)
{
	struct tp tp;
	struct tr r;

	/* a taint without a value: tolerated with Exists */
	setup(&tp);
	tp.p.taint.key = "node.kubernetes.io/os";
	tp.p.taint.value = NULL;
	tr_run(&r, &tp, POD("p", "  tolerations:\n"
			    "  - {key: node.kubernetes.io/os, operator: Equal,"
			    " value: windows, effect: NoSchedule}\n"), PLUGIN);
	ck_assert_str_eq(r.out, POD("p", "  tolerations:\n"
		"  - {key: node.kubernetes.io/os, operator: Equal, value: "
		"windows, effect: NoSchedule}\n"
		"  - key: node.kubernetes.io/os\n    operator: Exists\n"
		"    effect: NoSchedule\n"));
	tr_free(&r);

	/* NoExecute: a toleration with tolerationSeconds covers less */
	tp.p.taint.key = "os";
	tp.p.taint.value = "windows";
	tp.p.taint.effect = "NoExecute";
	tr_run(&r, &tp, POD("p", "  tolerations:\n"
			    "  - {key: os, operator: Exists, effect: NoExecute,"
			    " tolerationSeconds: 30}\n"), PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	ck_assert_ptr_nonnull(strstr(r.out, "effect: NoExecute\n"));
	tr_free(&r);

	/* a value YAML would retype is quoted */
	tp.p.taint.value = "true";
	tr_run(&r, &tp, POD("p", ""), PLUGIN);
	ck_assert_ptr_nonnull(strstr(r.out, "    value: \"true\"\n"));
	tr_free(&r);

	/* no taint in the profile: nothing to tolerate */
	tp.p.taint.key = NULL;
	tr_run(&r, &tp, POD("p", ""), PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_not_a_list)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	setup(&tp);
	tr_run(&r, &tp, POD("p", "  tolerations: {key: os}\n"), PLUGIN);
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "is not a list");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.tolerations");
	ck_assert_uint_eq(d->line, 8);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_daemonset_and_linux)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, "apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: d}\nspec:\n  template:\n    spec:\n"
		"      containers: [{image: win/agent}]\n---\n"
		"apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: l}\nspec:\n  template:\n    spec:\n"
		"      containers: [{image: fluentd}]\n", PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	ck_assert_str_eq(r.ctx.log.changes[0].ref.name, "d");
	ck_assert_ptr_nonnull(strstr(r.ctx.log.changes[0].reason,
				     "DaemonSet controller ignores "
				     "RuntimeClass scheduling"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *tolerations_suite(void)
{
	Suite *s = suite_create("tolerations");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_adds_equal_toleration);
	tcase_add_loop_test(tc, test_covered, 0,
			    sizeof(covered) / sizeof(covered[0]));
	tcase_add_loop_test(tc, test_not_covered, 0,
			    sizeof(not_covered) / sizeof(not_covered[0]));
	tcase_add_test(tc, test_taint_variants);
	tcase_add_test(tc, test_not_a_list);
	tcase_add_test(tc, test_daemonset_and_linux);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(tolerations_suite)
