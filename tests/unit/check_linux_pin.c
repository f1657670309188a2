#include <string.h>

#include "txtest.h"

#define PLUGIN "linux-pin"

#define DEPLOY(meta, spec) \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n" \
	meta "spec:\n  template:\n    spec:\n" spec \
	"      containers: [{image: nginx}]\n"

#define DS(spec) \
	"apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\n" \
	"spec:\n  template:\n    spec:\n" spec \
	"      containers: [{image: fluentd}]\n"

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

START_TEST(test_pins)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, DEPLOY("", "") "---\n"
		DEPLOY("", "      nodeSelector: {disk: ssd}\n"), PLUGIN);
	ck_assert_str_eq(r.out, DEPLOY("", "") "      nodeSelector:\n"
		"        kubernetes.io/os: linux\n---\n"
		DEPLOY("", "      nodeSelector: {disk: ssd, "
		       "kubernetes.io/os: linux}\n"));
	c = tr_change(&r, "spec.template.spec.nodeSelector.[kubernetes.io/os]");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->op, WG_CHANGE_ADD);
	ck_assert_str_eq(c->new_value, "linux");
	ck_assert_str_eq(c->reason, "linux.pin: not a Windows workload; "
			 "without an OS selector it could land on a Windows "
			 "node");
	ck_assert_uint_eq(r.ctx.log.nchanges, 2);
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Pod specs that already name an OS, or are Windows: left alone. */
static const char *const named[] = {
	"      nodeSelector: {kubernetes.io/os: linux}\n",
	"      nodeSelector: {beta.kubernetes.io/os: linux}\n",
	"      affinity:\n        nodeAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            nodeSelectorTerms:\n            - matchExpressions:\n"
	"              - {key: kubernetes.io/os, operator: NotIn, "
	"values: [windows]}\n",
	"      affinity:\n        nodeAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"            nodeSelectorTerms:\n            - matchExpressions:\n"
	"              - {key: beta.kubernetes.io/os, operator: In, "
	"values: [linux]}\n",
};

START_TEST(test_names_os)
{
	struct tp tp;
	struct tr r;
	char in[1024];

	setup(&tp);
	snprintf(in, sizeof(in), DEPLOY("", "%s"), named[_i]);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_windows_and_others_untouched)
{
	struct tp tp;
	struct tr r;
	const char *in =
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\n"
		"spec:\n  template:\n    spec:\n"
		"      containers: [{image: win/app}]\n---\n"
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"
		"spec: {selector: {app: x}}\n---\n"
		"apiVersion: example.com/v1\nkind: Job\nmetadata: {name: j}\n"
		"spec:\n  template:\n    spec: {containers: []}\n";

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_opted_out)
{
	struct tp tp;
	struct tr r;
	const char *pod_windows = DEPLOY("  annotations: "
					 "{wingen.dev/windows: \"false\"}\n",
					 "      os: {name: windows}\n");

	setup(&tp);
	tr_run(&r, &tp, DEPLOY("  annotations: {wingen.dev/windows: "
			       "\"false\"}\n", ""), PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	ck_assert_str_eq(r.ctx.log.changes[0].reason,
			 "linux.pin: opted out of Windows by annotation "
			 "wingen.dev/windows; without an OS selector it could "
			 "land on a Windows node");
	tr_free(&r);

	/* its pod template says windows: pinning would contradict it */
	tr_run(&r, &tp, pod_windows, PLUGIN);
	ck_assert_str_eq(r.out, pod_windows);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_daemonset_blanket)
{
	struct tp tp;
	struct tr r;
	const char *in = DS("      tolerations:\n      - operator: Exists\n");

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	ck_assert_str_eq(r.ctx.log.changes[0].reason,
			 "linux.pin: not a Windows workload; the DaemonSet "
			 "tolerates every taint (operator Exists, no key), so "
			 "the Windows taint cannot keep it off Windows nodes");
	tr_free(&r);

	/* pinned even without linux.pin */
	tp.pin.pin = false;
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, DS("      tolerations:\n"
				   "      - operator: Exists\n")
			 "      nodeSelector:\n"
			 "        kubernetes.io/os: linux\n");
	ck_assert_str_eq(r.ctx.log.changes[0].reason,
			 "not a Windows workload; the DaemonSet tolerates "
			 "every taint (operator Exists, no key), so the "
			 "Windows taint cannot keep it off Windows nodes");
	tr_free(&r);

	/* a blanket for NoSchedule covers the os=windows:NoSchedule taint */
	tr_run(&r, &tp, DS("      tolerations:\n"
			   "      - {operator: Exists, effect: NoSchedule}\n"),
	       PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	tr_free(&r);

	/* these do not get past the Windows taint: left alone */
	tr_run(&r, &tp, DS("      tolerations:\n"
			   "      - {operator: Exists, effect: NoExecute}\n"
			   "      - {key: CriticalAddonsOnly, operator: "
			   "Exists}\n"), PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tr_run(&r, &tp, DEPLOY("", "      tolerations:\n"
			       "      - operator: Exists\n"), PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	/* a DaemonSet that names its OS (kube-proxy) is fine */
	tr_run(&r, &tp, DS("      nodeSelector:\n"
			   "        beta.kubernetes.io/os: linux\n"
			   "      tolerations:\n      - operator: Exists\n"),
	       PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_windows_options_on_linux)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	setup(&tp);
	/* pinned to Linux without os.name: the API server accepts it, so a
	 * warning, and the output is written */
	tr_run(&r, &tp, DEPLOY("", "      securityContext:\n"
			       "        windowsOptions: {runAsUserName: x}\n"),
	       PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 0);
	d = tr_diag(&r, WG_SEV_WARNING, "is set on a pod that runs on Linux");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field,
			 "spec.template.spec.securityContext.windowsOptions");
	ck_assert_uint_eq(d->line, 9);
	tr_free(&r);

	/* a Linux pod by its own selector, without linux.pin */
	tp.pin.pin = false;
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		"spec:\n  nodeSelector: {kubernetes.io/os: linux}\n"
		"  containers:\n  - image: nginx\n    securityContext:\n"
		"      windowsOptions: {runAsUserName: x}\n", PLUGIN);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 0);
	d = tr_diag(&r, WG_SEV_WARNING, "is set on a pod that runs on Linux");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field,
			 "spec.containers[0].securityContext.windowsOptions");
	tr_free(&r);

	/* os.name linux: the API server refuses it (validateLinux) */
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		"spec:\n  os: {name: linux}\n  securityContext:\n"
		"    windowsOptions: {runAsUserName: x}\n"
		"  containers: [{image: nginx}]\n", PLUGIN);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR,
				      "windows options cannot be set for a "
				      "linux pod"));
	ck_assert_ptr_null(r.out);
	tr_free(&r);

	/* no OS anywhere and no pin: nothing to say */
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		"spec:\n  securityContext:\n"
		"    windowsOptions: {runAsUserName: x}\n"
		"  containers: [{image: nginx}]\n", PLUGIN);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_every_kind)
{
	struct tp tp;
	struct tr r;

	setup(&tp);
	tr_run(&r, &tp,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
		"spec: {containers: []}\n---\n"
		"apiVersion: v1\nkind: PodTemplate\nmetadata: {name: b}\n"
		"template: {spec: {containers: []}}\n---\n"
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\n"
		"spec: {jobTemplate: {spec: {template: {spec: "
		"{containers: []}}}}}\n", PLUGIN);
	ck_assert_uint_eq(r.ctx.log.nchanges, 3);
	ck_assert_str_eq(r.ctx.log.changes[0].field,
			 "spec.nodeSelector.[kubernetes.io/os]");
	ck_assert_str_eq(r.ctx.log.changes[1].field,
			 "template.spec.nodeSelector.[kubernetes.io/os]");
	ck_assert_str_eq(r.ctx.log.changes[2].field,
			 "spec.jobTemplate.spec.template.spec.nodeSelector."
			 "[kubernetes.io/os]");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *linux_pin_suite(void)
{
	Suite *s = suite_create("linux_pin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pins);
	tcase_add_loop_test(tc, test_names_os, 0,
			    sizeof(named) / sizeof(named[0]));
	tcase_add_test(tc, test_windows_and_others_untouched);
	tcase_add_test(tc, test_opted_out);
	tcase_add_test(tc, test_daemonset_blanket);
	tcase_add_test(tc, test_windows_options_on_linux);
	tcase_add_test(tc, test_every_kind);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(linux_pin_suite)
