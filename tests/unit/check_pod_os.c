#include <string.h>

#include "txtest.h"

#define PLUGIN "pod-os"

#define JOB(spec) \
	"apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n" \
	"spec:\n  schedule: '@daily'\n  jobTemplate:\n    spec:\n" \
	"      template:\n        spec:\n" spec \
	"          containers: [{image: win/app}]\n"

static void setup(struct tp *tp)
{
	tp_init(tp);
	tp_select_image(tp, "^win/");
}

START_TEST(test_sets_os)
{
	struct tp tp;
	struct tr r;
	const struct wg_change *c;

	setup(&tp);
	tr_run(&r, &tp, JOB(""), PLUGIN);
	ck_assert_str_eq(r.out, JOB("") "          os:\n"
					"            name: windows\n");
	c = tr_change(&r, "spec.jobTemplate.spec.template.spec.os.name");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->new_value, "windows");
	ck_assert_uint_eq(c->line, 11);	/* the pod spec */
	tr_assert_idempotent(&tp, r.out, PLUGIN);
	tr_free(&r);

	/* an os mapping without a name gets one */
	tr_run(&r, &tp, JOB("          os: {}\n"), PLUGIN);
	ck_assert_str_eq(r.out, JOB("          os: {name: windows}\n"));
	tr_free(&r);

	/* already windows: unchanged */
	tr_run(&r, &tp, JOB("          os:\n            name: windows\n"),
	       PLUGIN);
	ck_assert_str_eq(r.out, JOB("          os:\n"
				    "            name: windows\n"));
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_conflicts)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	setup(&tp);
	tr_run(&r, &tp, JOB("          os:\n            name: linux\n"),
	       PLUGIN);
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "is 'linux', but this is a Windows "
		    "workload (windows.select[0]); wingen does not overwrite "
		    "it");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field,
			 "spec.jobTemplate.spec.template.spec.os.name");
	ck_assert_uint_eq(d->line, 12);
	ck_assert_str_eq(d->ref.kind, "CronJob");
	ck_assert_str_eq(d->ref.name, "nightly");
	tr_free(&r);

	tr_run(&r, &tp, JOB("          os: windows\n"), PLUGIN);
	d = tr_diag(&r, WG_SEV_ERROR, "is not a mapping");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.jobTemplate.spec.template.spec.os");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_linux_untouched)
{
	struct tp tp;
	struct tr r;
	const char *in = "apiVersion: v1\nkind: Pod\nmetadata: {name: l}\n"
			 "spec:\n  containers: [{image: nginx}]\n";

	setup(&tp);
	tr_run(&r, &tp, in, PLUGIN);
	ck_assert_str_eq(r.out, in);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *pod_os_suite(void)
{
	Suite *s = suite_create("pod_os");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sets_os);
	tcase_add_test(tc, test_conflicts);
	tcase_add_test(tc, test_linux_untouched);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(pod_os_suite)
