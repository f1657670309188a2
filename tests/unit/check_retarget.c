/* retarget: the names and hints of core/retarget.h, and the transform's
 * edits on hand-built profiles (each test says what it retires). */
#include "txtest.h"
#include "wingen/core/retarget.h"

static struct wg_retarget rts[4];

/* tp with release from retired towards its build b. */
static void tp_retarget(struct tp *tp, const char *from,
			const struct wg_build *b)
{
	struct wg_retarget *r = &rts[tp->p.nretarget];

	r->from = wg_release_find(from);
	ck_assert_ptr_nonnull(r->from);
	r->to = b;
	r->why = wg_arena_printf(&tp->p.arena, "windows.retarget.%s", from);
	r->at = NULL;
	tp->p.retarget = rts;
	tp->p.nretarget++;
}

START_TEST(rc_names_say_their_release)
{
	const char *arch;

	ck_assert_str_eq(wg_retarget_rc_release("windows-ltsc2019", 16,
						&arch)->name, "ltsc2019");
	ck_assert_ptr_null(arch);
	ck_assert_str_eq(wg_retarget_rc_release("windows-2019", 12, NULL)->name,
			 "ltsc2019");
	ck_assert_str_eq(wg_retarget_rc_release("windows-1809-arm64", 18,
						&arch)->name, "ltsc2019");
	ck_assert_str_eq(arch, "arm64");
	/* other names, build numbers and prefixes alone name nothing */
	ck_assert_ptr_null(wg_retarget_rc_release("windows-", 8, NULL));
	ck_assert_ptr_null(wg_retarget_rc_release("win-ltsc2019", 12, NULL));
	ck_assert_ptr_null(wg_retarget_rc_release("windows-10.0.17763", 18,
						  NULL));
	ck_assert_ptr_null(wg_retarget_rc_release("windows-ltsc2019-multi",
						  22, NULL));
}
END_TEST

START_TEST(hint_names_the_way_out_only_upwards)
{
	struct tp tp;
	const char *h;

	tp_init(&tp);	/* ltsc2022 */
	h = wg_retarget_hint(&tp.p.arena, &tp.p, wg_release_find("ltsc2019"));
	ck_assert_ptr_nonnull(strstr(h, "--retarget ltsc2019=ltsc2022"));
	ck_assert_ptr_nonnull(strstr(h, "windows.retarget: {ltsc2019: "
				     "ltsc2022}"));
	/* a newer release is not retired by moving down; a build of the
	 * profile is not retired; none named, no hint */
	ck_assert_str_eq(wg_retarget_hint(&tp.p.arena, &tp.p,
					  wg_release_find("ltsc2025")), "");
	ck_assert_str_eq(wg_retarget_hint(&tp.p.arena, &tp.p,
					  wg_release_find("ltsc2022")), "");
	ck_assert_str_eq(wg_retarget_hint(&tp.p.arena, &tp.p, NULL), "");
	ck_assert_ptr_nonnull(strstr(wg_retarget_hint_word(&tp.p.arena, &tp.p,
							   "10.0.17763", 10),
				     "ltsc2019=ltsc2022"));
	/* retargeted already: the hint would say nothing new */
	tp_retarget(&tp, "ltsc2019", &tp.builds[0]);
	ck_assert_str_eq(wg_retarget_hint(&tp.p.arena, &tp.p,
					  wg_release_find("1809")), "");
	tp_release(&tp);
}
END_TEST

#define OLD_POD(rc, build, image)					\
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"	\
	"  runtimeClassName: " rc "\n"					\
	"  nodeSelector: {kubernetes.io/os: windows, "			\
	"node.kubernetes.io/windows-build: '" build "'}\n"		\
	"  containers: [{name: c, image: '" image "'}]\n"

START_TEST(pod_spec_moves_to_the_target)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_retarget(&tp, "ltsc2019", &tp.builds[0]);
	tr_run(&r, &tp, OLD_POD("windows-2019", "10.0.17763",
				"mcr.microsoft.com/windows/servercore:1809"),
	       "retarget");
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	ck_assert_ptr_nonnull(strstr(r.out, "runtimeClassName: "
				     "windows-ltsc2022\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "windows-build: \"10.0.20348\""));
	ck_assert_ptr_null(strstr(r.out, "17763"));
	ck_assert_ptr_nonnull(strstr(r.out, "servercore:ltsc2022"));
	ck_assert_ptr_nonnull(tr_change(&r, "spec.runtimeClassName"));
	ck_assert_ptr_nonnull(strstr(tr_change(&r,
		"spec.runtimeClassName")->reason, "windows.retarget.ltsc2019"));
	tr_assert_idempotent(&tp, r.out, "retarget");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(other_releases_and_opted_out_stay)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	tp_retarget(&tp, "ltsc2019", &tp.builds[1]);
	/* an ltsc2022 workload is not the retired build's */
	tr_run(&r, &tp, OLD_POD("windows-ltsc2022", "10.0.20348",
				"mcr.microsoft.com/windows/servercore:ltsc2022"),
	       "retarget");
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	       "  annotations: {wingen.dev/windows: 'false'}\nspec:\n"
	       "  containers: [{name: c, image: "
	       "'mcr.microsoft.com/windows/servercore:ltsc2019'}]\n",
	       "retarget");
	ck_assert_uint_eq(r.ctx.log.nchanges, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(no_known_rewrite_is_an_error_with_a_rule)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	tp_init(&tp);
	tp_retarget(&tp, "ltsc2019", &tp.builds[0]);
	tr_run(&r, &tp, OLD_POD("windows-2019", "10.0.17763",
				"mcr.microsoft.com/windows/servercore:"
				"1809-KB4493509"), "retarget");
	ck_assert_ptr_null(r.out);
	d = tr_diag(&r, WG_SEV_ERROR, "no known rewrite");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(strstr(d->message, "windows.images: [{match:"));
	ck_assert_str_eq(d->field, "spec.containers[0].image");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(affinity_and_annotations_keep_no_build_twice)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_retarget(&tp, "ltsc2019", &tp.builds[0]);
	tr_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	       "  annotations: {wingen.dev/windows-builds: 'ltsc2019,ltsc2022'}"
	       "\nspec:\n  affinity:\n    nodeAffinity:\n"
	       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	       "        nodeSelectorTerms:\n        - matchExpressions:\n"
	       "          - {key: node.kubernetes.io/windows-build, operator: "
	       "In, values: ['10.0.17763', '10.0.20348']}\n"
	       "  containers: [{name: c, image: app}]\n", "retarget");
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	ck_assert_ptr_nonnull(strstr(r.out, "values: ["));
	ck_assert_ptr_null(strstr(r.out, "17763"));
	/* once: the old build became the one already listed */
	ck_assert_ptr_nonnull(strstr(r.out, "10.0.20348"));
	ck_assert_ptr_null(strstr(strstr(r.out, "10.0.20348") + 1,
				  "10.0.20348"));
	ck_assert_ptr_nonnull(strstr(r.out, "wingen.dev/windows-builds: "
				     "ltsc2022"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

#define RC(name, build)							\
	"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"		\
	"metadata: {name: " name "}\nhandler: runhcs-wcow-process\n"	\
	"scheduling: {nodeSelector: "					\
	"{node.kubernetes.io/windows-build: '" build "'}}\n---\n"

START_TEST(old_runtime_classes_go_unless_named)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_retarget(&tp, "ltsc2019", &tp.builds[0]);
	/* pool-a: named by the Pod, which moves, so it goes; pool-b: named
	 * by nothing, goes; pool-c: named by an opted-out Pod, stays */
	tr_run(&r, &tp, RC("pool-a", "10.0.17763") RC("pool-b", "10.0.17763")
	       RC("pool-c", "10.0.17763") RC("new", "10.0.20348")
	       OLD_POD("pool-a", "10.0.17763", "app") "---\n"
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\n"
	       "  annotations: {wingen.dev/windows: 'false'}\nspec:\n"
	       "  runtimeClassName: pool-c\n  containers: [{name: c, "
	       "image: app}]\n", "retarget");
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	ck_assert_ptr_null(strstr(r.out, "name: pool-a}"));
	ck_assert_ptr_null(strstr(r.out, "name: pool-b}"));
	ck_assert_ptr_nonnull(strstr(r.out, "name: pool-c}"));
	ck_assert_ptr_nonnull(strstr(r.out, "name: new}"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "still names it"));
	ck_assert_uint_eq(tr_count(&r, WG_SEV_INFO), 2);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *retarget_suite(void)
{
	Suite *s = suite_create("retarget");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rc_names_say_their_release);
	tcase_add_test(tc, hint_names_the_way_out_only_upwards);
	tcase_add_test(tc, pod_spec_moves_to_the_target);
	tcase_add_test(tc, other_releases_and_opted_out_stay);
	tcase_add_test(tc, no_known_rewrite_is_an_error_with_a_rule);
	tcase_add_test(tc, affinity_and_annotations_keep_no_build_twice);
	tcase_add_test(tc, old_runtime_classes_go_unless_named);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(retarget_suite)
