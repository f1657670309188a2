/* Selection of fan-out targets: wingen.dev/windows-builds, entries with
 * several builds, the singular annotation winning, copies. */
#include "txtest.h"

/* A stand-in for the fan-out plugin: selection only asks whether the
 * profile's chain has a step of that name. */
static const struct wg_plugin fake_fan_out = {
	.name = "fan-out",
	.kind = WG_PLUGIN_TRANSFORM,
};
static struct wg_step fan_out_step = { &fake_fan_out, NULL };

static void sel_run(struct tr *r, struct tp *tp, const char *yaml)
{
	wg_ctx_init(&r->ctx);
	r->ctx.profile = &tp->p;
	wg_resources_init(&r->list);
	r->out = NULL;
	ck_assert_int_eq(t_read(&r->ctx, &r->in, yaml, &r->list), 0);
	ck_assert_int_eq(wg_select_prepare(&r->ctx, &r->list), 0);
}

static struct wg_selection *sel_of(struct tr *r, size_t i)
{
	ck_assert_uint_lt(i, r->list.len);
	return wg_select(&r->ctx, &r->list, r->list.items[i]);
}

/* ltsc2019, ltsc2022 (default), ltsc2025; select Windows base images. */
static void three(struct tp *tp, bool fan_out)
{
	tp_init(tp);
	tp_build(tp, "ltsc2019", "amd64");
	tp_build(tp, "ltsc2025", "amd64");
	tp_select_image(tp, "^mcr\\.microsoft\\.com/windows/");
	if (fan_out) {
		tp->p.steps = &fan_out_step;
		tp->p.nsteps = 1;
	}
}

#define POD(name, anns, image) \
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: " name "\n" \
	"  annotations: {" anns "}\nspec:\n  containers:\n" \
	"  - image: " image "\n"
#define CORE "mcr.microsoft.com/windows/servercore:"

START_TEST(test_annotation_targets)
{
	struct tp tp;
	struct tr r;
	struct wg_selection *s;

	three(&tp, true);
	sel_run(&r, &tp,
		POD("a", "wingen.dev/windows-builds: 'ltsc2019, 2022'",
		    CORE "ltsc2022") "---\n"
		/* release names, aliases, build numbers, RuntimeClasses */
		POD("b", "wingen.dev/windows-builds: '10.0.26100,"
		    "windows-ltsc2019'", CORE "ltsc2019") "---\n"
		/* one build listed: that build, no fan-out */
		POD("c", "wingen.dev/windows-builds: ltsc2025",
		    CORE "ltsc2022"));
	s = sel_of(&r, 0);
	ck_assert(s->windows);
	ck_assert_uint_eq(s->ntargets, 2);
	ck_assert_ptr_eq(s->targets[0], &tp.builds[1]);
	ck_assert_ptr_eq(s->targets[1], &tp.builds[0]);
	/* the first target the pod spec agrees with: its image is 2022 */
	ck_assert_ptr_eq(s->build, &tp.builds[0]);
	ck_assert_str_eq(s->targets_why,
			 "annotation wingen.dev/windows-builds");
	ck_assert_str_eq(s->reason, "windows.select[0]; build ltsc2022 "
			 "(annotation wingen.dev/windows-builds)");
	s = sel_of(&r, 1);
	ck_assert_uint_eq(s->ntargets, 2);
	ck_assert_ptr_eq(s->targets[0], &tp.builds[2]);
	ck_assert_ptr_eq(s->targets[1], &tp.builds[1]);
	ck_assert_ptr_eq(s->build, &tp.builds[1]);
	s = sel_of(&r, 2);
	ck_assert_uint_eq(s->ntargets, 0);
	ck_assert_ptr_null(s->targets);
	ck_assert_ptr_eq(s->build, &tp.builds[2]);
	/* fan-out is in the chain: it checks the images, not selection */
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_annotation_errors)
{
	struct tp tp;
	struct tr r;

	three(&tp, true);
	sel_run(&r, &tp,
		POD("a", "wingen.dev/windows-builds: 'ltsc2019,ltsc2023'",
		    CORE "ltsc2022") "---\n"
		POD("b", "wingen.dev/windows-builds: 'ltsc2019,,ltsc2022'",
		    CORE "ltsc2022") "---\n"
		POD("c", "wingen.dev/windows-builds: '2019,ltsc2019'",
		    CORE "ltsc2022") "---\n"
		POD("d", "wingen.dev/windows-builds: [ltsc2019]",
		    CORE "ltsc2022") "---\n"
		/* the singular annotation must be one of the plural's */
		POD("e", "wingen.dev/windows-builds: 'ltsc2019,ltsc2022', "
		    "wingen.dev/windows-build: ltsc2025", CORE "ltsc2022")
		"---\n"
		/* no effect on a workload that is not a Windows one */
		POD("f", "wingen.dev/windows-builds: 'ltsc2019,ltsc2022'",
		    "nginx"));
	for (size_t i = 0; i < 5; i++) {
		ck_assert_msg(sel_of(&r, i)->failed, "%zu", i);
		ck_assert(!sel_of(&r, i)->windows);
	}
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "'ltsc2023' is not a "
				      "build of the profile (builds: "
				      "ltsc2022, ltsc2019, ltsc2025)"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "'ltsc2019,,ltsc2022'"
				      " has an empty entry"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "'ltsc2019' names "
				      "build ltsc2019 twice"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "is not a string"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "'ltsc2025' is not one"
				      " of the builds annotation "
				      "wingen.dev/windows-builds lists"));
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 5);
	ck_assert(!sel_of(&r, 5)->windows);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "annotation "
				      "'wingen.dev/windows-builds' has no "
				      "effect"));
	/* positions: the annotation's line */
	ck_assert_str_eq(r.ctx.log.diags[0].field, "metadata.annotations."
			 "[wingen.dev/windows-builds]");
	ck_assert_uint_eq(r.ctx.log.diags[0].line, 5);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_singular_wins)
{
	struct tp tp;
	struct tr r;
	struct wg_selection *s;

	three(&tp, true);
	/* what fan-out's copies carry: both annotations */
	sel_run(&r, &tp,
		POD("a-ltsc2019", "wingen.dev/windows-builds: 'ltsc2019,"
		    "ltsc2022', wingen.dev/windows-build: ltsc2019",
		    CORE "ltsc2019"));
	s = sel_of(&r, 0);
	ck_assert(s->windows && !s->failed);
	ck_assert_uint_eq(s->ntargets, 0);
	ck_assert_ptr_eq(s->build, &tp.builds[1]);
	ck_assert_str_eq(s->build_why, "annotation wingen.dev/windows-build");
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_entry_targets)
{
	struct tp tp;
	struct tr r;
	struct wg_selection *s;

	three(&tp, true);
	tp_entry_builds(&tp, &tp.sel[0], &tp.builds[1]);
	tp_entry_builds(&tp, &tp.sel[0], &tp.builds[0]);
	sel_run(&r, &tp, POD("a", "x: z", CORE "ltsc2022") "---\n"
			 POD("b", "wingen.dev/windows-build: ltsc2019",
			     CORE "ltsc2019"));
	s = sel_of(&r, 0);
	ck_assert_uint_eq(s->ntargets, 2);
	ck_assert_ptr_eq(s->targets[0], &tp.builds[1]);
	ck_assert_ptr_eq(s->build, &tp.builds[0]);
	ck_assert_str_eq(s->targets_why, "windows.select[0].builds");
	ck_assert_uint_eq(sel_of(&r, 1)->ntargets, 0);
	ck_assert_ptr_eq(sel_of(&r, 1)->build, &tp.builds[1]);
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Without a fan-out step the first build is used, the images are checked
 * for it, and a warning says that the other targets are not. */
START_TEST(test_no_fan_out_step)
{
	struct tp tp;
	struct tr r;

	three(&tp, false);
	sel_run(&r, &tp,
		POD("a", "wingen.dev/windows-builds: 'ltsc2019,ltsc2022'",
		    CORE "ltsc2025"));
	ck_assert(sel_of(&r, 0)->windows);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "targets 2 builds "
				      "(annotation wingen.dev/windows-builds),"
				      " but the profile's transforms have no "
				      "fan-out step: only build ltsc2019 is "
				      "used"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "is built for "
				      "ltsc2025, which ltsc2019 hosts cannot "
				      "run"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_as_copy)
{
	struct tp tp;
	struct tr r;
	struct wg_selection *from, *s;
	struct wg_resource *copy;

	three(&tp, true);
	sel_run(&r, &tp,
		POD("a", "wingen.dev/windows-builds: 'ltsc2019,ltsc2022'",
		    CORE "ltsc2022"));
	from = sel_of(&r, 0);
	copy = wg_resource_new(&r.list, wg_node_clone(&r.list.arena,
						      r.list.items[0]->root),
			       "x.yaml", 0);
	s = wg_select_as_copy(&r.list, copy, from, &tp.builds[1]);
	ck_assert_ptr_eq(copy->sel, s);
	ck_assert_ptr_eq(wg_select(&r.ctx, &r.list, copy), s);
	ck_assert(s->windows && s->workload);
	ck_assert_ptr_eq(s->build, &tp.builds[1]);
	ck_assert_uint_eq(s->ntargets, 0);
	/* its pod spec, not the original's */
	ck_assert_ptr_eq(s->pod.spec, wg_path_get(copy->root, "spec"));
	ck_assert_str_eq(s->reason, "windows.select[0]; build ltsc2019 "
			 "(fan-out of annotation wingen.dev/windows-builds)");
	/* the original keeps its own */
	ck_assert_uint_eq(from->ntargets, 2);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *select_targets_suite(void)
{
	Suite *s = suite_create("select_targets");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_annotation_targets);
	tcase_add_test(tc, test_annotation_errors);
	tcase_add_test(tc, test_singular_wins);
	tcase_add_test(tc, test_entry_targets);
	tcase_add_test(tc, test_no_fan_out_step);
	tcase_add_test(tc, test_as_copy);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(select_targets_suite)
