#include <stdlib.h>
#include <string.h>

#include "txtest.h"
#include "wingen/k8s/images.h"

/* Selects every resource of yaml with tp; r keeps the list. */
static void sel_run(struct tr *r, struct tp *tp, const char *yaml)
{
	wg_ctx_init(&r->ctx);
	r->ctx.profile = tp ? &tp->p : NULL;
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

#define DEPLOY(name, extra_meta, image) \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n" \
	"  name: " name "\n" extra_meta "spec:\n  template:\n" \
	"    metadata:\n      labels: {tier: pod-only}\n" \
	"    spec:\n      containers:\n      - name: c\n" \
	"        image: " image "\n"

START_TEST(test_image_any_container)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_select_image(&tp, "^mcr\\.microsoft\\.com/windows/");
	sel_run(&r, &tp,
		DEPLOY("linux", "", "nginx:1.25")
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: init}\n"
		"spec:\n  initContainers:\n"
		"  - image: mcr.microsoft.com/windows/servercore:ltsc2022\n"
		"  containers:\n  - image: busybox\n"
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: eph}\n"
		"spec:\n  containers:\n  - image: busybox\n"
		"  ephemeralContainers:\n"
		"  - image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n"
		"---\napiVersion: v1\nkind: Service\nmetadata: {name: svc}\n"
		"spec: {}\n");
	ck_assert(sel_of(&r, 0)->workload);
	ck_assert(!sel_of(&r, 0)->windows);
	ck_assert(sel_of(&r, 1)->windows);
	ck_assert_int_eq(sel_of(&r, 1)->by, WG_SEL_ENTRY);
	ck_assert_str_eq(sel_of(&r, 1)->why, "windows.select[0]");
	ck_assert(sel_of(&r, 2)->windows);
	ck_assert(!sel_of(&r, 3)->workload);
	ck_assert(!sel_of(&r, 3)->windows);
	ck_assert_ptr_eq(sel_of(&r, 1)->build, &tp.builds[0]);
	ck_assert_str_eq(sel_of(&r, 1)->reason,
			 "windows.select[0]; build ltsc2022 (windows.default)");
	/* the result is cached */
	ck_assert_ptr_eq(sel_of(&r, 1), r.list.items[1]->sel);
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_entry_fields_and)
{
	static const char *kinds[] = { "StatefulSet", "Deployment" };
	struct tp tp;
	struct tr r;
	struct wg_select *s;

	tp_init(&tp);
	s = tp_select(&tp);
	s->kinds = kinds;
	s->nkinds = 2;
	s->namespace_ = tp_re(&tp, "win-.*", true);
	s->name = tp_re(&tp, ".*-win", true);
	s->labels = tp_ls(&tp, "app.kubernetes.io/os=windows");
	sel_run(&r, &tp,
		/* 0: everything matches */
		DEPLOY("web-win", "  namespace: win-apps\n  labels: "
		       "{app.kubernetes.io/os: windows}\n", "x")
		/* 1: name anchored: "web-win2" does not end in -win */
		"---\n" DEPLOY("web-win2", "  namespace: win-apps\n  labels: "
			       "{app.kubernetes.io/os: windows}\n", "x")
		/* 2: namespace anchored: "prod-win-apps" does not start */
		"---\n" DEPLOY("web-win", "  namespace: prod-win-apps\n"
			       "  labels: {app.kubernetes.io/os: windows}\n",
			       "x")
		/* 3: label missing */
		"---\n" DEPLOY("web-win", "  namespace: win-apps\n", "x")
		/* 4: kind not listed */
		"---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n"
		"  name: ds-win\n  namespace: win-apps\n"
		"  labels: {app.kubernetes.io/os: windows}\n"
		"spec: {template: {spec: {containers: []}}}\n"
		/* 5: no namespace at all: matches against "" */
		"---\n" DEPLOY("web-win", "  labels: "
			       "{app.kubernetes.io/os: windows}\n", "x"));
	ck_assert(sel_of(&r, 0)->windows);
	for (size_t i = 1; i <= 5; i++)
		ck_assert_msg(!sel_of(&r, i)->windows, "resource %zu", i);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_object_labels_not_template)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_select(&tp)->labels = tp_ls(&tp, "tier=pod-only");
	tp_select(&tp)->annotations = tp_ls(&tp, "team in (win, windows)");
	sel_run(&r, &tp,
		/* pod template labels do not count */
		DEPLOY("a", "", "x")
		"---\n" DEPLOY("b", "  annotations: {team: windows}\n", "x")
		/* a Pod's metadata is its own */
		"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
		"  labels: {tier: pod-only}\nspec: {containers: []}\n");
	ck_assert(!sel_of(&r, 0)->windows);
	ck_assert(sel_of(&r, 1)->windows);
	ck_assert_str_eq(sel_of(&r, 1)->why, "windows.select[1]");
	ck_assert(sel_of(&r, 2)->windows);
	ck_assert_str_eq(sel_of(&r, 2)->why, "windows.select[0]");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_first_entry_named)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_select_image(&tp, "nothing-matches-this");
	tp_select_image(&tp, "servercore");
	tp_select_image(&tp, "windows");
	sel_run(&r, &tp, DEPLOY("a", "", "mcr.microsoft.com/windows/"
					 "servercore:ltsc2022"));
	ck_assert_str_eq(sel_of(&r, 0)->why, "windows.select[1]");
	ck_assert_uint_eq(sel_of(&r, 0)->entry, 1);
	/* entry 0 matched nothing; 2 matched (though not first) */
	ck_assert_uint_eq(tr_count(&r, WG_SEV_WARNING), 1);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING,
				      "windows.select[0] matches no workload"));
	ck_assert_str_eq(r.ctx.log.diags[0].file, "profile.yaml");
	ck_assert_uint_eq(r.ctx.log.diags[0].line, tp.sel[0].pos.line);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_unmatched_once_and_strict)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_select_image(&tp, "^never");
	sel_run(&r, &tp, DEPLOY("a", "", "x"));
	/* several plugins prepare: still one warning */
	wg_select_prepare(&r.ctx, &r.list);
	wg_select_prepare(&r.ctx, &r.list);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_WARNING), 1);
	ck_assert(!wg_ctx_failed(&r.ctx));
	r.ctx.strict = true;
	ck_assert(wg_ctx_failed(&r.ctx));
	tr_free(&r);

	/* entries of the embedded default are not the user's: no warning */
	tp.sel[0].pos.line = 0;
	sel_run(&r, &tp, DEPLOY("a", "", "x"));
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp.sel[0].pos.line = 3;
	tp.p.path = "<default>";
	sel_run(&r, &tp, DEPLOY("a", "", "x"));
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_annotation_force)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	tp_init(&tp);
	tp_select_image(&tp, "windows");
	sel_run(&r, &tp,
		DEPLOY("in", "  annotations: {wingen.dev/windows: \"true\"}\n",
		       "nginx")
		"---\n" DEPLOY("out", "  annotations:\n"
			       "    wingen.dev/windows: \"false\"\n",
			       "mcr.microsoft.com/windows/servercore:ltsc2022")
		"---\n" DEPLOY("bad", "  annotations:\n"
			       "    wingen.dev/windows: \"yes\"\n",
			       "mcr.microsoft.com/windows/servercore:ltsc2022"));
	ck_assert(sel_of(&r, 0)->windows);
	ck_assert_int_eq(sel_of(&r, 0)->by, WG_SEL_ANNOTATION);
	ck_assert_str_eq(sel_of(&r, 0)->why, "annotation wingen.dev/windows");
	ck_assert(!sel_of(&r, 1)->windows);
	ck_assert(sel_of(&r, 1)->opted_out);
	ck_assert(!sel_of(&r, 2)->windows);
	ck_assert(sel_of(&r, 2)->failed);
	d = tr_diag(&r, WG_SEV_ERROR, "'yes' is not \"true\" or \"false\"");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field,
			 "metadata.annotations.[wingen.dev/windows]");
	ck_assert_str_eq(d->ref.name, "bad");
	ck_assert_uint_eq(d->line, 35);	/* the annotation's value */
	ck_assert_str_eq(d->file, "test.yaml");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_already_windows)
{
	struct tp tp;
	struct tr r;
	static const char *const pods[] = {
		"  nodeSelector: {kubernetes.io/os: windows}\n",
		"  nodeSelector: {beta.kubernetes.io/os: windows}\n",
		"  os: {name: windows}\n",
		"  affinity:\n    nodeAffinity:\n"
		"      requiredDuringSchedulingIgnoredDuringExecution:\n"
		"        nodeSelectorTerms:\n        - matchExpressions:\n"
		"          - {key: kubernetes.io/os, operator: In, "
		"values: [windows]}\n",
		"  runtimeClassName: windows-ltsc2022\n",
		"  runtimeClassName: win-rc\n",
	};
	static const char *const why[] = {
		"spec.nodeSelector.[kubernetes.io/os]",
		"spec.nodeSelector.[beta.kubernetes.io/os]",
		"spec.os.name",
		"spec.affinity.nodeAffinity",
		"spec.runtimeClassName",
		"spec.runtimeClassName",
	};

	tp_init(&tp);
	for (size_t i = 0; i < sizeof(pods) / sizeof(pods[0]); i++) {
		char yaml[1024];
		const char *want;

		ck_assert_int_gt(snprintf(yaml, sizeof(yaml),
			"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
			"metadata: {name: win-rc}\nhandler: x\nscheduling:\n"
			"  nodeSelector: {kubernetes.io/os: windows}\n---\n"
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			"spec:\n  containers: []\n%s", pods[i]), 0);
		sel_run(&r, &tp, yaml);
		ck_assert_msg(sel_of(&r, 1)->windows, "case %zu", i);
		ck_assert(sel_of(&r, 1)->pod_windows);
		ck_assert_int_eq(sel_of(&r, 1)->by, WG_SEL_POD);
		want = wg_arena_printf(&r.list.arena,
				       "already a Windows pod (%s)", why[i]);
		ck_assert_str_eq(sel_of(&r, 1)->why, want);
		tr_free(&r);
	}
	/* Linux-looking pods are not */
	sel_run(&r, &tp, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		"spec:\n  nodeSelector: {kubernetes.io/os: linux}\n"
		"  runtimeClassName: kata\n  os: {name: linux}\n");
	ck_assert(!sel_of(&r, 0)->windows);
	ck_assert(!sel_of(&r, 0)->pod_windows);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_build_annotation)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	tp_select_image(&tp, "windows");
	sel_run(&r, &tp,
		DEPLOY("a", "  annotations:\n"
		       "    wingen.dev/windows-build: ltsc2025\n",
		       "mcr.microsoft.com/windows/nanoserver:ltsc2022")
		"---\n" DEPLOY("b", "  annotations:\n"
			       "    wingen.dev/windows-build: '10.0.26100'\n",
			       "mcr.microsoft.com/windows/x")
		"---\n" DEPLOY("c", "  annotations:\n"
			       "    wingen.dev/windows-build: ltsc2019\n",
			       "mcr.microsoft.com/windows/x")
		"---\n" DEPLOY("d", "  annotations:\n"
			       "    wingen.dev/windows-build: ltsc2025\n",
			       "nginx"));
	ck_assert_ptr_eq(sel_of(&r, 0)->build, &tp.builds[1]);
	ck_assert_str_eq(sel_of(&r, 0)->reason, "windows.select[0]; build "
			 "ltsc2025 (annotation wingen.dev/windows-build)");
	ck_assert_ptr_eq(sel_of(&r, 1)->build, &tp.builds[1]);
	ck_assert(sel_of(&r, 2)->failed);
	ck_assert(!sel_of(&r, 2)->windows);
	d = tr_diag(&r, WG_SEV_ERROR, "'ltsc2019' is not a build of the "
		    "profile (builds: ltsc2022, ltsc2025)");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field,
			 "metadata.annotations.[wingen.dev/windows-build]");
	ck_assert_uint_eq(d->line, 36);
	/* on a workload that is not a Windows workload: a warning */
	d = tr_diag(&r, WG_SEV_WARNING, "has no effect");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->ref.name, "d");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_build_from_pod_spec)
{
	struct tp tp;
	struct tr r;
	struct wg_select *s;

	tp_init(&tp);
	tp_build(&tp, "ltsc2019", "amd64");
	tp_build(&tp, "ltsc2022", "arm64");
	tp_select_image(&tp, "app");
	sel_run(&r, &tp,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n"
		"  nodeSelector: {node.kubernetes.io/windows-build: "
		"'10.0.17763'}\n  containers: [{image: app}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n"
		"  nodeSelector: {kubernetes.io/arch: arm64}\n"
		"  containers: [{image: app}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec:\n"
		"  runtimeClassName: windows-ltsc2019\n"
		"  containers: [{image: app}]\n---\n"
		/* the image's base release decides */
		"apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec:\n"
		"  containers: [{image: app}, {image: 'mcr.microsoft.com/"
		"windows/servercore:ltsc2019'}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: e}\nspec:\n"
		"  containers: [{image: app}]\n");
	ck_assert_ptr_eq(sel_of(&r, 0)->build, &tp.builds[1]);
	ck_assert_str_eq(sel_of(&r, 0)->build_why,
			 "the build its pod spec names");
	ck_assert_ptr_eq(sel_of(&r, 1)->build, &tp.builds[2]);
	ck_assert_ptr_eq(sel_of(&r, 2)->build, &tp.builds[1]);
	ck_assert_ptr_eq(sel_of(&r, 3)->build, &tp.builds[1]);
	ck_assert_ptr_eq(sel_of(&r, 4)->build, &tp.builds[0]);
	ck_assert_str_eq(sel_of(&r, 4)->build_why, "windows.default");
	ck_assert_str_eq(sel_of(&r, 1)->reason, "windows.select[0]; build "
			 "ltsc2022/arm64 (the build its pod spec names)");
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);

	/* an entry's builds bound the choice */
	s = &tp.sel[0];
	tp_entry_builds(&tp, s, &tp.builds[2]);
	tp_entry_builds(&tp, s, &tp.builds[1]);
	sel_run(&r, &tp,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: e}\nspec:\n"
		"  containers: [{image: app}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: f}\nspec:\n"
		"  nodeSelector: {kubernetes.io/arch: amd64}\n"
		"  containers: [{image: app}]\n");
	ck_assert_ptr_eq(sel_of(&r, 0)->build, &tp.builds[2]);
	ck_assert_str_eq(sel_of(&r, 0)->build_why,
			 "windows.select[0].builds");
	ck_assert_ptr_eq(sel_of(&r, 1)->build, &tp.builds[1]);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_image_release)
{
	static const struct {
		const char *image;
		const char *release;
	} cases[] = {
		{ "mcr.microsoft.com/windows/servercore:ltsc2019", "ltsc2019" },
		{ "mcr.microsoft.com/windows/servercore:1809", "ltsc2019" },
		{ "mcr.microsoft.com/windows/nanoserver:ltsc2022@sha256:ab",
		  "ltsc2022" },
		{ "mcr.microsoft.com/windows:1809", "ltsc2019" },
		{ "microsoft/nanoserver:1809", "ltsc2019" },
		{ "mcr.microsoft.com/dotnet/framework/aspnet:"
		  "4.8-windowsservercore-ltsc2022", "ltsc2022" },
		{ "golang:1.22-nanoserver-ltsc2025", "ltsc2025" },
		{ "mcr.microsoft.com/windows/servercore", NULL },
		{ "myapp:1809", NULL },	/* a version, not a Windows tag */
		{ "registry:5000/microsoft/nanoserver", NULL },
		{ "nginx", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wg_release *r =
			wg_image_release(cases[i].image,
					 strlen(cases[i].image));

		if (!cases[i].release)
			ck_assert_msg(!r, "%s", cases[i].image);
		else
			ck_assert_msg(r && !strcmp(r->name, cases[i].release),
				      "%s", cases[i].image);
	}
}
END_TEST

START_TEST(test_image_cannot_run)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	tp_init(&tp);
	tp_select_image(&tp, "windows");
	sel_run(&r, &tp,
		DEPLOY("old", "", "mcr.microsoft.com/windows/servercore:1809")
		/* HostProcess containers need not match the host */
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: hp}\n"
		"spec:\n  hostNetwork: true\n  securityContext:\n"
		"    windowsOptions: {hostProcess: true}\n  containers:\n"
		"  - image: mcr.microsoft.com/windows/servercore:1809\n");
	d = tr_diag(&r, WG_SEV_ERROR, "is built for ltsc2019, which ltsc2022 "
		    "hosts cannot run");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.template.spec.containers[0].image");
	ck_assert_str_eq(d->ref.name, "old");
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	ck_assert(sel_of(&r, 1)->host_process);
	ck_assert(sel_of(&r, 1)->windows);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_regex_limit)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	tp_init(&tp);
	tp_select(&tp)->image = tp_re_limit(&tp, "^(a+)+$", false, 1000);
	sel_run(&r, &tp, DEPLOY("a", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"));
	d = tr_diag(&r, WG_SEV_ERROR, "windows.select[0].image: pattern "
		    "'^(a+)+$' gave up");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->field, "spec.template.spec.containers[0].image");
	ck_assert(sel_of(&r, 0)->failed);
	ck_assert(!sel_of(&r, 0)->windows);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_host_process)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	sel_run(&r, &tp,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n"
		"  containers:\n  - securityContext:\n"
		"      windowsOptions: {hostProcess: true}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n"
		"  securityContext: {windowsOptions: {hostProcess: true}}\n"
		"  containers:\n  - securityContext:\n"
		"      windowsOptions: {hostProcess: false}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec:\n"
		"  securityContext: {windowsOptions: {hostProcess: true}}\n"
		"  containers: [{name: x}]\n---\n"
		/* YAML 1.1 spellings count, as kubectl reads them */
		"apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec:\n"
		"  securityContext: {windowsOptions: {hostProcess: yes}}\n"
		"  containers: [{name: x, image: nginx}]\n---\n"
		/* one HostProcess container of two: not by itself */
		"apiVersion: v1\nkind: Pod\nmetadata: {name: e}\nspec:\n"
		"  containers:\n  - image: nginx\n    securityContext:\n"
		"      windowsOptions: {hostProcess: On}\n  - image: nginx\n"
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: f}\n"
		"spec:\n  securityContext: {windowsOptions: {hostProcess: "
		"'true'}}\n  containers: [{name: x}]\n");
	ck_assert(sel_of(&r, 0)->host_process);
	ck_assert(!sel_of(&r, 1)->host_process);
	ck_assert(sel_of(&r, 2)->host_process);
	/* a HostProcess pod (pod or every container) is a Windows pod,
	 * whatever its images; one container of two is not enough */
	ck_assert(sel_of(&r, 0)->windows);
	ck_assert(!sel_of(&r, 1)->windows);
	ck_assert(sel_of(&r, 2)->windows);
	ck_assert(sel_of(&r, 3)->windows);
	ck_assert(strstr(sel_of(&r, 3)->why, "HostProcess pod"));
	ck_assert(sel_of(&r, 4)->host_process);
	ck_assert(!sel_of(&r, 4)->windows);
	ck_assert(!sel_of(&r, 5)->windows);	/* a string, not a bool */
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_no_profile)
{
	struct tr r;

	sel_run(&r, NULL, DEPLOY("a", "  annotations: "
				 "{wingen.dev/windows: \"true\"}\n", "x"));
	ck_assert(sel_of(&r, 0)->workload);
	ck_assert(!sel_of(&r, 0)->windows);
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	tr_free(&r);
}
END_TEST

static Suite *select_suite(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_image_any_container);
	tcase_add_test(tc, test_entry_fields_and);
	tcase_add_test(tc, test_object_labels_not_template);
	tcase_add_test(tc, test_first_entry_named);
	tcase_add_test(tc, test_unmatched_once_and_strict);
	tcase_add_test(tc, test_annotation_force);
	tcase_add_test(tc, test_already_windows);
	tcase_add_test(tc, test_build_annotation);
	tcase_add_test(tc, test_build_from_pod_spec);
	tcase_add_test(tc, test_image_release);
	tcase_add_test(tc, test_image_cannot_run);
	tcase_add_test(tc, test_regex_limit);
	tcase_add_test(tc, test_host_process);
	tcase_add_test(tc, test_no_profile);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(select_suite)
