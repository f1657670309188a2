#include <string.h>

#include "txtest.h"

#define PLUGIN "windows-security"

#define POD(spec) \
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" spec

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

/* Pod-level fields: (spec text, removed field or NULL when it stays). */
static const struct {
	const char *spec;
	const char *field;
} pod_cases[] = {
	{ "  hostPID: true\n", "spec.hostPID" },
	{ "  hostPID: false\n", NULL },
	{ "  hostIPC: true\n", "spec.hostIPC" },
	{ "  hostIPC: false\n", NULL },
	{ "  hostUsers: false\n", "spec.hostUsers" },
	{ "  shareProcessNamespace: false\n", "spec.shareProcessNamespace" },
	{ "  resources: {limits: {cpu: '1'}}\n", "spec.resources" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    seLinuxOptions: {level: s0}\n",
	  "spec.securityContext.seLinuxOptions" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    seccompProfile: {type: RuntimeDefault}\n",
	  "spec.securityContext.seccompProfile" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    appArmorProfile: {type: RuntimeDefault}\n",
	  "spec.securityContext.appArmorProfile" },
	{ "  securityContext:\n    runAsNonRoot: true\n    fsGroup: 2000\n",
	  "spec.securityContext.fsGroup" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    fsGroupChangePolicy: OnRootMismatch\n",
	  "spec.securityContext.fsGroupChangePolicy" },
	{ "  securityContext:\n    runAsNonRoot: true\n    runAsUser: 0\n",
	  "spec.securityContext.runAsUser" },
	{ "  securityContext:\n    runAsNonRoot: true\n    runAsGroup: 0\n",
	  "spec.securityContext.runAsGroup" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    supplementalGroups: [1, 2]\n",
	  "spec.securityContext.supplementalGroups" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    supplementalGroupsPolicy: Strict\n",
	  "spec.securityContext.supplementalGroupsPolicy" },
	{ "  securityContext:\n    runAsNonRoot: true\n"
	  "    sysctls: [{name: net.core.somaxconn, value: '1024'}]\n",
	  "spec.securityContext.sysctls" },
};

START_TEST(test_pod_field)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;
	char in[1024];

	setup(&tp);
	snprintf(in, sizeof(in), POD("%s  containers: [{image: win/a}]\n"),
		 pod_cases[_i].spec);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	if (!pod_cases[_i].field) {
		ck_assert_str_eq(r.out, in);
		ck_assert_uint_eq(r.ctx.log.nchanges, 0);
		goto out;
	}
	ck_assert_uint_eq(r.ctx.log.nchanges, 1);
	c = tr_change(&r, pod_cases[_i].field);
	ck_assert_msg(c != NULL, "case %d", _i);
	ck_assert_int_eq(c->op, WG_CHANGE_REMOVE);
	ck_assert_ptr_nonnull(c->old_value);
	ck_assert_ptr_null(c->new_value);
	ck_assert_ptr_nonnull(strstr(c->reason, "forbidden on Windows pods: "));
	ck_assert_ptr_nonnull(strstr(c->reason, "; windows.select[0]; build "
				     "ltsc2022 (windows.default)"));
	ck_assert_ptr_null(wg_path_get(r.list.items[0]->root,
				       pod_cases[_i].field));
	/* what else was in securityContext stays */
	if (strstr(pod_cases[_i].field, "securityContext"))
		ck_assert(wg_scalar_is(wg_path_get(r.list.items[0]->root,
			"spec.securityContext.runAsNonRoot"), "true"));
	tr_assert_idempotent(&tp, r.out, PLUGIN);
out:
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static const char *const ctr_fields[] = {
	"seLinuxOptions: {level: s0}", "seccompProfile: {type: Unconfined}",
	"appArmorProfile: {type: Unconfined}",
	"capabilities: {drop: [ALL]}", "readOnlyRootFilesystem: false",
	"privileged: false", "allowPrivilegeEscalation: false",
	"procMount: Default", "runAsUser: 1000", "runAsGroup: 3000",
};

START_TEST(test_container_field)
{
	static const char *const lists[] = {
		"initContainers", "containers", "ephemeralContainers",
	};
	struct tp tp;
	struct tr r;
	char in[1024], field[256];
	size_t klen = strcspn(ctr_fields[_i], ":");

	setup(&tp);
	for (size_t l = 0; l < 3; l++) {
		snprintf(in, sizeof(in), POD("  %s:\n  - image: win/a\n"
			 "    securityContext:\n      %s\n"
			 "      windowsOptions: {runAsUserName: ContainerUser}\n"),
			 lists[l], ctr_fields[_i]);
		tr_run(&r, &tp, in, PLUGIN);
		snprintf(field, sizeof(field), "spec.%s[0].securityContext.%.*s",
			 lists[l], (int)klen, ctr_fields[_i]);
		ck_assert_uint_eq(r.ctx.log.nchanges, 1);
		ck_assert_msg(tr_change(&r, field) != NULL, "%s", field);
		ck_assert_ptr_null(wg_path_get(r.list.items[0]->root, field));
		snprintf(field, sizeof(field), "spec.%s[0].securityContext."
			 "windowsOptions.runAsUserName", lists[l]);
		ck_assert(wg_scalar_is(wg_path_get(r.list.items[0]->root,
						   field), "ContainerUser"));
		ck_assert_uint_eq(r.ctx.log.ndiags, 0);
		tr_free(&r);
	}
	tp_release(&tp);
}
END_TEST

/* A Linux-hardened chart's pod, in full: every Linux field goes, a
 * securityContext the removals empty goes too, one that was empty stays. */
START_TEST(test_hardened_chart)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, POD(
		"  securityContext:\n    runAsUser: 1000\n    runAsGroup: 1000\n"
		"    fsGroup: 1000\n    seccompProfile:\n"
		"      type: RuntimeDefault\n"
		"  initContainers:\n  - name: init\n    image: win/init\n"
		"    securityContext: {}\n"
		"  containers:\n  - name: app\n    image: win/app\n"
		"    securityContext:\n      allowPrivilegeEscalation: false\n"
		"      readOnlyRootFilesystem: true\n      runAsNonRoot: true\n"
		"      capabilities:\n        drop:\n        - ALL\n"
		"  - name: sidecar\n    image: win/side\n"
		"    securityContext:\n      privileged: true\n"), PLUGIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_str_eq(r.out, POD(
		"  initContainers:\n  - name: init\n    image: win/init\n"
		"    securityContext: {}\n"
		"  containers:\n  - name: app\n    image: win/app\n"
		"    securityContext:\n      runAsNonRoot: true\n"
		"  - name: sidecar\n    image: win/side\n"));
	ck_assert_uint_eq(r.ctx.log.nchanges, 10);
	c = tr_change(&r, "spec.securityContext");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->old_value, "{}");
	ck_assert_ptr_nonnull(strstr(c->reason, "left empty by the removals"));
	ck_assert_ptr_nonnull(tr_change(&r, "spec.containers[1]."
					"securityContext"));
	ck_assert_ptr_null(tr_change(&r, "spec.initContainers[0]."
				     "securityContext"));
	/* in the order written */
	ck_assert_str_eq(r.ctx.log.changes[0].field,
			 "spec.securityContext.runAsUser");
	ck_assert_str_eq(r.ctx.log.changes[3].field,
			 "spec.securityContext.seccompProfile");
	ck_assert_uint_eq(r.ctx.log.changes[0].line, 7);
	/* privileged: true is worth a warning: behaviour changes */
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "privileged "
				      "containers do not exist on Windows"));
	ck_assert_uint_eq(tr_count(&r, WG_SEV_WARNING), 1);
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static const struct {
	const char *spec;
	const char *message;	/* NULL: valid */
	const char *field;
} hp_cases[] = {
	{ "  hostNetwork: true\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true, runAsUserName: "
	  "'NT AUTHORITY\\SYSTEM'}\n  containers:\n  - image: win/a\n"
	  "  - image: win/b\n    securityContext:\n"
	  "      windowsOptions: {hostProcess: true}\n", NULL, NULL },
	{ "  hostNetwork: true\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true}\n  containers:\n"
	  "  - image: win/a\n    securityContext:\n"
	  "      windowsOptions: {hostProcess: false}\n",
	  "is false, but the pod's hostProcess is true; they must be "
	  "identical",
	  "spec.containers[0].securityContext.windowsOptions.hostProcess" },
	{ "  hostNetwork: true\n  containers:\n  - name: a\n"
	  "    image: win/a\n    securityContext:\n"
	  "      windowsOptions: {hostProcess: true}\n"
	  "  initContainers:\n  - name: setup\n    image: win/s\n",
	  "container 'setup' is not a HostProcess container, but others in "
	  "the pod are; all containers of a HostProcess pod must be",
	  "spec.initContainers[0]" },
	{ "  securityContext:\n    windowsOptions: {hostProcess: true}\n"
	  "  containers:\n  - image: win/a\n",
	  "must be true in a HostProcess pod", "spec.hostNetwork" },
	{ "  hostNetwork: false\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true}\n"
	  "  containers:\n  - image: win/a\n",
	  "must be true in a HostProcess pod", "spec.hostNetwork" },
	{ "  hostNetwork: true\n  securityContext:\n    runAsNonRoot: true\n"
	  "    windowsOptions: {hostProcess: true}\n"
	  "  containers:\n  - image: win/a\n",
	  "is true, which HostProcess pods do not allow",
	  "spec.securityContext.runAsNonRoot" },
	{ "  hostNetwork: true\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true}\n"
	  "  containers:\n  - image: win/a\n    securityContext:\n"
	  "      runAsNonRoot: true\n",
	  "is true, which HostProcess containers do not allow",
	  "spec.containers[0].securityContext.runAsNonRoot" },
};

START_TEST(test_host_process)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;
	char in[1024];

	setup(&tp);
	snprintf(in, sizeof(in), POD("%s"), hp_cases[_i].spec);
	tr_run(&r, &tp, in, PLUGIN);
	if (!hp_cases[_i].message) {
		ck_assert_ptr_nonnull(r.out);
		ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	} else {
		ck_assert_ptr_null(r.out);
		ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
		d = tr_diag(&r, WG_SEV_ERROR, hp_cases[_i].message);
		ck_assert_msg(d != NULL, "case %d: %s", _i,
			      t_first_message(&r.ctx));
		ck_assert_str_eq(d->field, hp_cases[_i].field);
		ck_assert_uint_gt(d->line, 5);
	}
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_linux_untouched)
{
	struct tp tp;
	struct tr r;
	const char *in = POD("  hostPID: true\n  securityContext:\n"
			     "    runAsUser: 0\n  containers:\n"
			     "  - image: nginx\n    securityContext:\n"
			     "      privileged: true\n");

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *winsec_suite(void)
{
	Suite *s = suite_create("windows_security");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_pod_field, 0,
			    sizeof(pod_cases) / sizeof(pod_cases[0]));
	tcase_add_loop_test(tc, test_container_field, 0,
			    sizeof(ctr_fields) / sizeof(ctr_fields[0]));
	tcase_add_test(tc, test_hardened_chart);
	tcase_add_loop_test(tc, test_host_process, 0,
			    sizeof(hp_cases) / sizeof(hp_cases[0]));
	tcase_add_test(tc, test_linux_untouched);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(winsec_suite)
