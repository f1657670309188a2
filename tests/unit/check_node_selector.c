#include <string.h>

#include "txtest.h"

#define PLUGIN "node-selector"

/* A Windows Deployment (selected by its image) with extra pod spec text. */
#define WIN(spec) \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" \
	"spec:\n  template:\n    spec:\n" spec \
	"      containers:\n      - image: win/app\n"

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

START_TEST(test_adds_after_existing_keys)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, WIN("      nodeSelector:\n        disk: ssd\n"
			    "        zone: \"a\"\n"), PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_str_eq(r.out, WIN("      nodeSelector:\n        disk: ssd\n"
		"        zone: \"a\"\n        kubernetes.io/os: windows\n"
		"        kubernetes.io/arch: amd64\n"
		"        node.kubernetes.io/windows-build: \"10.0.20348\"\n"));
	ck_assert_uint_eq(r.ctx.log.nchanges, 3);
	c = tr_change(&r, "spec.template.spec.nodeSelector."
		      "[node.kubernetes.io/windows-build]");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->op, WG_CHANGE_ADD);
	ck_assert_ptr_null(c->old_value);
	ck_assert_str_eq(c->new_value, "\"10.0.20348\"");
	ck_assert_str_eq(c->plugin, PLUGIN);
	ck_assert_str_eq(c->reason,
			 "windows.select[0]; build ltsc2022 (windows.default)");
	ck_assert_uint_eq(c->line, 9);	/* the nodeSelector mapping */
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_creates_selector)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, WIN("      nodeSelector: {}\n"), PLUGIN);
	ck_assert_str_eq(r.out, WIN("      nodeSelector: {kubernetes.io/os: "
		"windows, kubernetes.io/arch: amd64, "
		"node.kubernetes.io/windows-build: \"10.0.20348\"}\n"));
	tr_free(&r);

	tr_run(&r, &tp, WIN(""), PLUGIN);
	ck_assert_str_eq(r.out, WIN("") "      nodeSelector:\n"
		"        kubernetes.io/os: windows\n"
		"        kubernetes.io/arch: amd64\n"
		"        node.kubernetes.io/windows-build: \"10.0.20348\"\n");
	/* a change in a new mapping is placed at the pod spec */
	ck_assert_uint_eq(r.ctx.log.changes[0].line, 8);
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);

	tr_run(&r, &tp, WIN("      nodeSelector: ~\n"), PLUGIN);
	ck_assert_ptr_nonnull(strstr(r.out, "node.kubernetes.io/windows-build"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_already_right_unchanged)
{
	struct tp tp;
	struct tr r;
	const char *in = WIN("      nodeSelector:\n"
			     "        node.kubernetes.io/windows-build: "
			     "'10.0.20348'\n        kubernetes.io/arch: amd64\n"
			     "        kubernetes.io/os: windows\n"
			     "        beta.kubernetes.io/os: windows\n");

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static const struct {
	const char *spec;
	const char *field;
	const char *message;
	unsigned line;
} conflicts[] = {
	{ "      nodeSelector: {kubernetes.io/os: linux}\n",
	  "spec.template.spec.nodeSelector.[kubernetes.io/os]",
	  "is 'linux', but this is a Windows workload (windows.select[0]) "
	  "that needs 'windows' for build ltsc2022; wingen does not "
	  "overwrite it", 8 },
	{ "      nodeSelector:\n        beta.kubernetes.io/os: linux\n",
	  "spec.template.spec.nodeSelector.[beta.kubernetes.io/os]",
	  "is 'linux', but", 9 },
	{ "      nodeSelector:\n        kubernetes.io/arch: arm64\n",
	  "spec.template.spec.nodeSelector.[kubernetes.io/arch]",
	  "is 'arm64', but this is a Windows workload (windows.select[0]) "
	  "that needs 'amd64'", 9 },
	{ "      nodeSelector:\n        beta.kubernetes.io/arch: arm\n",
	  "spec.template.spec.nodeSelector.[beta.kubernetes.io/arch]",
	  "is 'arm', but", 9 },
	{ "      nodeSelector:\n"
	  "        node.kubernetes.io/windows-build: 10.0.17763\n",
	  "spec.template.spec.nodeSelector.[node.kubernetes.io/windows-build]",
	  "is '10.0.17763', but this is a Windows workload "
	  "(windows.select[0]) that needs '10.0.20348' for build ltsc2022",
	  9 },
	{ "      affinity:\n        nodeAffinity:\n"
	  "          requiredDuringSchedulingIgnoredDuringExecution:\n"
	  "            nodeSelectorTerms:\n"
	  "            - matchExpressions:\n"
	  "              - key: kubernetes.io/os\n"
	  "                operator: In\n                values: [linux]\n",
	  "spec.template.spec.affinity.nodeAffinity."
	  "requiredDuringSchedulingIgnoredDuringExecution",
	  "rules out the Windows nodes of build ltsc2022 "
	  "(kubernetes.io/os=windows, kubernetes.io/arch=amd64, "
	  "node.kubernetes.io/windows-build=10.0.20348) in every term, but "
	  "this is a Windows workload (windows.select[0]); wingen does not "
	  "overwrite it", 13 },
	{ "      affinity:\n        nodeAffinity:\n"
	  "          requiredDuringSchedulingIgnoredDuringExecution:\n"
	  "            nodeSelectorTerms:\n"
	  "            - matchExpressions:\n"
	  "              - {key: kubernetes.io/os, operator: NotIn, "
	  "values: [windows]}\n"
	  "            - matchExpressions:\n"
	  "              - {key: kubernetes.io/arch, operator: In, "
	  "values: [arm64]}\n",
	  "spec.template.spec.affinity.nodeAffinity."
	  "requiredDuringSchedulingIgnoredDuringExecution",
	  "rules out the Windows nodes", 13 },
	{ "      nodeSelector: [a]\n", "spec.template.spec.nodeSelector",
	  "is not a mapping", 8 },
};

START_TEST(test_conflict)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;
	char in[2048];

	setup(&tp);
	snprintf(in, sizeof(in), WIN("%s"), conflicts[_i].spec);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_ptr_null(r.out);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	d = tr_diag(&r, WG_SEV_ERROR, conflicts[_i].message);
	ck_assert_msg(d != NULL, "case %d: %s", _i, t_first_message(&r.ctx));
	ck_assert_str_eq(d->field, conflicts[_i].field);
	ck_assert_str_eq(d->file, "test.yaml");
	ck_assert_str_eq(d->ref.kind, "Deployment");
	ck_assert_str_eq(d->ref.name, "web");
	ck_assert_uint_eq(d->line, conflicts[_i].line);
	/* never a partial edit */
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_affinity_that_admits)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, WIN("      affinity:\n        nodeAffinity:\n"
		"          requiredDuringSchedulingIgnoredDuringExecution:\n"
		"            nodeSelectorTerms:\n"
		"            - matchExpressions:\n"
		"              - {key: kubernetes.io/os, operator: In, "
		"values: [linux]}\n"
		"            - matchExpressions:\n"
		"              - {key: kubernetes.io/os, operator: In, "
		"values: [windows]}\n"), PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(r.ctx.log.nchanges, 3);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_daemonset_reason)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, "apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: d}\nspec:\n  template:\n    spec:\n"
		"      containers: [{image: win/agent}]\n", PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 3);
	ck_assert_ptr_nonnull(strstr(r.ctx.log.changes[0].reason,
		"written on the DaemonSet itself, because the DaemonSet "
		"controller ignores RuntimeClass scheduling"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_host_process_no_build_key)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp, WIN("      hostNetwork: true\n"
		"      securityContext:\n        windowsOptions:\n"
		"          hostProcess: true\n"
		"      nodeSelector:\n"
		"        node.kubernetes.io/windows-build: '10.0.17763'\n"),
		PLUGIN);
	/* no build key added, and another build's key is not a conflict */
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(r.ctx.log.nchanges, 2);
	ck_assert_ptr_null(tr_change(&r, "spec.template.spec.nodeSelector."
				     "[node.kubernetes.io/windows-build]"));
	ck_assert_ptr_nonnull(strstr(r.ctx.log.changes[0].reason,
				     "HostProcess"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_arm64_build)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp.builds[0].arch = "arm64";
	tp_select_image(&tp, "^win/");
	tr_run(&r, &tp, WIN(""), PLUGIN);
	ck_assert_ptr_nonnull(strstr(r.out, "kubernetes.io/arch: arm64\n"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_not_selected_untouched)
{
	struct tp tp;
	struct tr r;
	const char *in = "apiVersion: apps/v1\nkind: Deployment\n"
			 "metadata: {name: l}\nspec:\n  template:\n"
			 "    spec:\n      containers: [{image: nginx}]\n"
			 "---\napiVersion: v1\nkind: ConfigMap\n"
			 "metadata: {name: c}\n";

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *node_selector_suite(void)
{
	Suite *s = suite_create("node_selector");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_adds_after_existing_keys);
	tcase_add_test(tc, test_creates_selector);
	tcase_add_test(tc, test_already_right_unchanged);
	tcase_add_loop_test(tc, test_conflict, 0,
			    sizeof(conflicts) / sizeof(conflicts[0]));
	tcase_add_test(tc, test_affinity_that_admits);
	tcase_add_test(tc, test_daemonset_reason);
	tcase_add_test(tc, test_host_process_no_build_key);
	tcase_add_test(tc, test_arm64_build);
	tcase_add_test(tc, test_not_selected_untouched);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(node_selector_suite)
