/* The runtime-class generator and the RuntimeClass validation. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/base/buf.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"
#include "wingen/gen/runtimeclass.h"
#include "wingen/yaml/writer.h"

#define HEAD "apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"

static char dir[64];
static struct wg_ctx ctx;
static struct wg_profile prof;
static bool prof_loaded;
static struct wg_resources list;
static struct wg_input in;
static bool in_read;

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void setup(void)
{
	strcpy(dir, "/tmp/wingen-rc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	prof_loaded = in_read = false;
}

static void teardown(void)
{
	wg_resources_release(&list);
	if (in_read)
		wg_input_release(&in);
	if (prof_loaded)
		wg_profile_release(&prof);
	wg_ctx_release(&ctx);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (strchr(name, '/')) {
		char sub[256];

		snprintf(sub, sizeof(sub), "%s/%.*s", dir,
			 (int)(strchr(name, '/') - name), name);
		mkdir(sub, 0755);
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void profile(const char *text)
{
	char path[256];

	put("profile.yaml", text);
	snprintf(path, sizeof(path), "%s/profile.yaml", dir);
	ck_assert_msg(wg_profile_load(&ctx, path, WG_CHAIN_OPTS, &prof) == 0, "%s",
		      t_first_message(&ctx));
	prof_loaded = true;
	ctx.profile = &prof;
}

/* Runs the generator alone over manifests; returns the output YAML. */
static char *run(const char *manifests)
{
	static const struct wg_step step = { &wg_gen_runtime_class, NULL };
	struct wg_chain chain = { &step, 1 };

	if (!in_read) {
		ck_assert_int_eq(t_read(&ctx, &in, manifests, &list), 0);
		in_read = true;
	}
	ck_assert_int_eq(wg_pipeline_run(&ctx, &list, &chain), 0);
	return t_write(&ctx, &list);
}

static const struct wg_diag *find_diag(const char *s)
{
	for (size_t i = 0; i < ctx.log.ndiags; i++)
		if (strstr(ctx.log.diags[i].message, s))
			return &ctx.log.diags[i];
	ck_abort_msg("no diagnostic '%s'; first: %s", s, t_first_message(&ctx));
	return NULL;
}

/* A Windows workload: a stream without one gets no RuntimeClass. */
#define DEPLOYMENT \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" \
	"spec:\n  template:\n    spec:\n      containers:\n" \
	"      - image: mcr.microsoft.com/windows/nanoserver\n"
static const char deployment[] = DEPLOYMENT;

START_TEST(one_build_exact_output)
{
	char *out;

	profile(HEAD);
	out = run(deployment);
	ck_assert_str_eq(out,
		"apiVersion: node.k8s.io/v1\n"
		"kind: RuntimeClass\n"
		"metadata:\n"
		"  name: windows-ltsc2022\n"
		"handler: runhcs-wcow-process\n"
		"scheduling:\n"
		"  nodeSelector:\n"
		"    kubernetes.io/os: 'windows'\n"
		"    kubernetes.io/arch: 'amd64'\n"
		"    node.kubernetes.io/windows-build: '10.0.20348'\n"
		"  tolerations:\n"
		"  - key: os\n"
		"    operator: Equal\n"
		"    value: windows\n"
		"    effect: NoSchedule\n"
		"---\n"
		DEPLOYMENT);
	ck_assert_uint_eq(list.len, 2);
	ck_assert(list.items[0]->flags & WG_RES_GENERATED);
	ck_assert_ptr_null(list.items[0]->file);
	ck_assert(!(list.items[1]->flags & WG_RES_GENERATED));
	ck_assert_uint_eq(ctx.log.nchanges, 1);
	ck_assert_int_eq(ctx.log.changes[0].op, WG_CHANGE_CREATE);
	ck_assert_str_eq(ctx.log.changes[0].plugin, "runtime-class");
	ck_assert_str_eq(ctx.log.changes[0].ref.name, "windows-ltsc2022");
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	free(out);
}
END_TEST

START_TEST(three_builds_first_in_build_order)
{
	char *out;

	profile(HEAD "windows:\n  builds:\n"
		"    - release: ltsc2025\n"
		"    - release: ltsc2022\n      arch: arm64\n"
		"      handler: runhcs-wcow-hypervisor\n"
		"    - build: 10.0.17763\n      runtimeClass: win.2019\n"
		"  taint: {key: node.kubernetes.io/os, value: windows}\n");
	out = run(deployment);
	ck_assert_uint_eq(list.len, 4);
	ck_assert_str_eq(wg_scalar_dup(&list.arena, wg_path_get(
		list.items[0]->root, "metadata.name")), "windows-ltsc2025");
	ck_assert_str_eq(wg_scalar_dup(&list.arena, wg_path_get(
		list.items[1]->root, "metadata.name")),
		"windows-ltsc2022-arm64");
	ck_assert(wg_scalar_is(wg_path_get(list.items[1]->root, "handler"),
			       "runhcs-wcow-hypervisor"));
	ck_assert(wg_scalar_is(wg_path_get(list.items[1]->root,
		"scheduling.nodeSelector.[kubernetes.io/arch]"), "arm64"));
	ck_assert(wg_scalar_is(wg_path_get(list.items[2]->root,
		"scheduling.nodeSelector.[node.kubernetes.io/windows-build]"),
		"10.0.17763"));
	ck_assert(wg_scalar_is(wg_path_get(list.items[2]->root,
					   "metadata.name"), "win.2019"));
	ck_assert(wg_resource_kind_is(list.items[3], "Deployment"));
	ck_assert_ptr_nonnull(strstr(out, "  - key: node.kubernetes.io/os\n"
				     "    operator: Equal\n"));
	ck_assert_uint_eq(ctx.log.nchanges, 3);
	/* Every generated object passes the API server's rules. */
	for (size_t i = 0; i < 3; i++)
		ck_assert_uint_eq(wg_runtime_class_validate(&ctx,
							    list.items[i]), 0);
	free(out);
}
END_TEST

START_TEST(taint_without_value_tolerates_with_exists)
{
	char *out;

	profile(HEAD "windows:\n  taint: {key: os, effect: NoExecute}\n");
	out = run(deployment);
	ck_assert_ptr_nonnull(strstr(out, "  tolerations:\n  - key: os\n"
				     "    operator: Exists\n"
				     "    effect: NoExecute\n"));
	ck_assert_ptr_null(strstr(out, "value:"));
	free(out);
}
END_TEST

START_TEST(overhead_only_when_set)
{
	char *out;

	profile(HEAD "windows:\n  builds:\n"
		"    - release: ltsc2022\n"
		"      overhead: {podFixed: {cpu: 100m, memory: '128Mi'}}\n"
		"    - release: ltsc2025\n");
	out = run("");
	ck_assert_ptr_nonnull(strstr(out, "overhead:\n  podFixed: {cpu: 100m, "
				     "memory: '128Mi'}\n---\n"));
	/* The second build sets none: no overhead key at all. */
	ck_assert_ptr_null(strstr(strstr(out, "---"), "overhead"));
	free(out);
}
END_TEST

START_TEST(input_runtime_class_kept_when_equal)
{
	char *first, *second;

	profile(HEAD);
	first = run(deployment);
	/* Feed the output back: nothing new is generated, bytes equal. */
	wg_resources_release(&list);
	wg_resources_init(&list);
	wg_input_release(&in);
	ctx.log.nchanges = 0;
	ck_assert_int_eq(t_read(&ctx, &in, first, &list), 0);
	second = run(NULL);
	ck_assert_str_eq(first, second);
	ck_assert_uint_eq(list.len, 2);
	ck_assert_uint_eq(ctx.log.nchanges, 0);
	free(first);
	free(second);
}
END_TEST

START_TEST(input_equal_in_another_order_and_with_krm_annotations)
{
	char *out;

	profile(HEAD);
	out = run(
		"kind: ConfigMap\napiVersion: v1\nmetadata: {name: c}\n---\n"
		"kind: RuntimeClass\n"
		"apiVersion: node.k8s.io/v1\n"
		"handler: runhcs-wcow-process\n"
		"metadata:\n  name: windows-ltsc2022\n  annotations:\n"
		"    config.kubernetes.io/index: '1'\n"
		"    internal.config.kubernetes.io/path: rc.yaml\n"
		"scheduling:\n"
		"  tolerations: [{effect: NoSchedule, key: os, operator: "
		"Equal, value: windows}]\n"
		"  nodeSelector:\n    node.kubernetes.io/windows-build: "
		"\"10.0.20348\"\n    kubernetes.io/os: windows\n"
		"    kubernetes.io/arch: amd64\n");
	/* Kept where it is; nothing generated in front of the ConfigMap. */
	ck_assert_uint_eq(list.len, 2);
	ck_assert(wg_resource_kind_is(list.items[0], "ConfigMap"));
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	ck_assert_uint_eq(ctx.log.nchanges, 0);
	free(out);
}
END_TEST

START_TEST(input_runtime_class_that_differs_is_an_error)
{
	const struct wg_diag *d;
	char *out;

	profile(HEAD);
	out = run(
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata:\n  name: windows-ltsc2022\n"
		"handler: runhcs-wcow-hypervisor\n"
		"scheduling:\n  nodeSelector:\n"
		"    kubernetes.io/os: 'windows'\n"
		"    kubernetes.io/arch: 'amd64'\n"
		"    node.kubernetes.io/windows-build: '10.0.20348'\n"
		"  tolerations:\n  - key: os\n    operator: Equal\n"
		"    value: windows\n    effect: NoSchedule\n");
	d = find_diag("differs from the RuntimeClass the profile makes for "
		      "windows.builds[0]: runhcs-wcow-hypervisor here, "
		      "runhcs-wcow-process from the profile");
	ck_assert_str_eq(d->field, "handler");
	ck_assert_uint_eq(d->line, 5);
	ck_assert_str_eq(d->ref.name, "windows-ltsc2022");
	ck_assert(wg_ctx_failed(&ctx));
	ck_assert_uint_eq(list.len, 1);	/* no duplicate generated */
	free(out);
}
END_TEST

START_TEST(custom_template)
{
	char *out;

	put("t/runtimeclass.yaml",
	    "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
	    "metadata:\n  name: $runtimeClass\n  labels:\n"
	    "    wingen.dev/release: $release\n    team: windows\n"
	    "    wingen.dev/profile: $profile\n"
	    "  annotations:\n    note: \"$arch $build\"\n"
	    "handler: '$handler'\n"
	    "scheduling:\n  nodeSelector:\n    kubernetes.io/os: windows\n"
	    "    node.kubernetes.io/windows-build: \"$build\"\n"
	    "  tolerations: [$toleration, {key: extra, operator: Exists}]\n"
	    "overhead:\n  podFixed: $overhead\n");
	profile(HEAD "metadata: {name: fleet}\ntemplates: t\n");
	out = run("");
	ck_assert_str_eq(out,
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata:\n  name: windows-ltsc2022\n  labels:\n"
		"    wingen.dev/release: ltsc2022\n    team: windows\n"
		"    wingen.dev/profile: fleet\n"
		/* Only whole scalars are placeholders. */
		"  annotations:\n    note: \"$arch $build\"\n"
		"handler: 'runhcs-wcow-process'\n"
		"scheduling:\n  nodeSelector:\n    kubernetes.io/os: windows\n"
		"    node.kubernetes.io/windows-build: \"10.0.20348\"\n"
		"  tolerations: [{key: os, operator: Equal, value: windows, "
		"effect: NoSchedule}, {key: extra, operator: Exists}]\n");
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	free(out);
}
END_TEST

START_TEST(bad_templates)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		  "metadata: {name: $runtimeClass}\nhandler: $handlr\n",
		  "unknown placeholder '$handlr'" },
		{ "- a\n", "the template must be a mapping" },
		{ "a: [\n", "" },
		{ "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		  "metadata: {name: fixed}\nhandler: $handler\n",
		  "the template must name the RuntimeClass $runtimeClass" },
		{ "apiVersion: node.k8s.io/v1beta1\nkind: RuntimeClass\n"
		  "metadata: {name: $runtimeClass}\nhandler: $handler\n",
		  "not a node.k8s.io/v1 RuntimeClass" },
		{ "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		  "metadata: {name: $runtimeClass}\nhandler: $handler\n"
		  "scheduling:\n  tolerations: [$toleration, $toleration]\n",
		  "toleration 'os' is listed twice" },
		{ "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		  "metadata: {name: $runtimeClass, labels: {Bad Key: x}}\n"
		  "handler: $handler\n", "'Bad Key' is not a valid label key" },
		{ "a: 1\n---\nb: 2\n", "a template is one YAML document" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		static const struct wg_step step = { &wg_gen_runtime_class,
						     NULL };
		struct wg_chain chain = { &step, 1 };
		struct wg_resources l;

		put("t/runtimeclass.yaml", bad[i].text);
		if (!prof_loaded)
			profile(HEAD "templates: t\n");
		wg_ctx_release(&ctx);
		wg_ctx_init(&ctx);
		ctx.profile = &prof;
		wg_resources_init(&l);
		wg_pipeline_run(&ctx, &l, &chain);
		ck_assert_msg(wg_ctx_failed(&ctx), "template %zu passed", i);
		find_diag(bad[i].msg);
		/* Nothing half-made is added. */
		ck_assert_msg(l.len == 0, "template %zu added something", i);
		wg_resources_release(&l);
	}
}
END_TEST

START_TEST(values_never_become_yaml)
{
	char *out;

	profile(HEAD);
	/* Bypass the profile check to hand the generator a hostile value:
	 * it must come out as one scalar, and fail validation. */
	prof.builds[0].handler = "x: {y: z}\n- injected";
	out = run("");
	ck_assert_ptr_null(out == NULL ? NULL : strstr(out, "\n- injected"));
	find_diag("is not a DNS label");
	ck_assert_uint_eq(list.len, 0);
	free(out);
}
END_TEST

static size_t validate(const char *text)
{
	struct wg_resources l;
	struct wg_input i;
	size_t n;

	wg_resources_init(&l);
	ck_assert_int_eq(t_read(&ctx, &i, text, &l), 0);
	n = wg_runtime_class_validate(&ctx, l.items[0]);
	wg_resources_release(&l);
	wg_input_release(&i);
	return n;
}

START_TEST(validation_rules)
{
	static const char good[] =
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata: {name: a.b-c}\nhandler: h1\n"
		"scheduling:\n  nodeSelector: {kubernetes.io/os: windows, "
		"empty: ''}\n"
		"  tolerations:\n  - {operator: Exists}\n"
		"  - {key: a, operator: Equal, value: b, effect: NoExecute}\n"
		"  - {key: a, operator: Equal, value: b, effect: NoSchedule}\n"
		"overhead: {podFixed: {cpu: 1}}\n";

	ck_assert_uint_eq(validate(good), 0);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	ck_assert_uint_eq(validate(
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
		"metadata: {name: Bad}\nhandler: a.b\n"
		"scheduling:\n  nodeSelector: {os: 'a b', -x: y}\n"
		"  tolerations:\n  - {key: k, operator: In}\n"
		"  - {key: k, operator: Exists, value: v}\n"
		"  - {key: '', operator: Equal}\n"
		"  - {key: k, effect: Never}\n"
		"  - {key: k, operator: Equal, value: 'a b'}\n"
		"  - {key: d, value: v}\n  - {key: d, value: v}\n"
		"overhead: {podFixed: 1}\n"), 11);
	find_diag("'Bad' is not a DNS subdomain");
	find_diag("'a.b' is not a DNS label");
	find_diag("'a b' is not a valid label value");
	find_diag("'-x' is not a valid label key");
	find_diag("'In' is not an operator");
	find_diag("operator Exists takes no value");
	find_diag("an empty key needs operator Exists");
	find_diag("'Never' is not a taint effect");
	find_diag("'a b' is not a valid toleration value");
	find_diag("toleration 'd' is listed twice");
	find_diag("expected a mapping of resource quantities");
	ck_assert_uint_eq(validate("apiVersion: v1\nkind: Pod\n"
				   "metadata: {name: p}\nhandler: h\n"), 1);
}
END_TEST

static Suite *runtimeclass_suite(void)
{
	Suite *s = suite_create("runtimeclass");
	TCase *tc = tcase_create("runtimeclass");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_build_exact_output);
	tcase_add_test(tc, three_builds_first_in_build_order);
	tcase_add_test(tc, taint_without_value_tolerates_with_exists);
	tcase_add_test(tc, overhead_only_when_set);
	tcase_add_test(tc, input_runtime_class_kept_when_equal);
	tcase_add_test(tc,
		       input_equal_in_another_order_and_with_krm_annotations);
	tcase_add_test(tc, input_runtime_class_that_differs_is_an_error);
	tcase_add_test(tc, custom_template);
	tcase_add_test(tc, bad_templates);
	tcase_add_test(tc, values_never_become_yaml);
	tcase_add_test(tc, validation_rules);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(runtimeclass_suite)
