#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/k8s/k8svalid.h"
#include "wingen/k8s/placeholder.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"

/* Checks one Pod with spec text; returns the violations, first message
 * in *msg (static storage of the ctx is gone after: copied). */
static size_t check_pod(const char *spec, char *msg, size_t msglen,
			char *field, size_t fieldlen)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char yaml[2048];
	size_t n;

	snprintf(yaml, sizeof(yaml), "apiVersion: v1\nkind: Pod\n"
		 "metadata: {name: p}\nspec:\n%s", spec);
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, yaml, &list), 0);
	n = wg_k8s_check_resource(&ctx, list.items[0]);
	ck_assert_uint_eq(n, ctx.log.counts[WG_SEV_ERROR]);
	snprintf(msg, msglen, "%s", t_first_message(&ctx));
	snprintf(field, fieldlen, "%s", ctx.log.ndiags && ctx.log.diags[0].field
		 ? ctx.log.diags[0].field : "");
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return n;
}

static const struct {
	const char *spec;
	size_t bad;
	const char *message;
	const char *field;
} cases[] = {
	/* valid */
	{ "  nodeSelector:\n    kubernetes.io/os: windows\n"
	  "    node.kubernetes.io/windows-build: '10.0.20348'\n"
	  "  tolerations:\n  - {key: os, operator: Equal, value: windows, "
	  "effect: NoSchedule}\n  - operator: Exists\n"
	  "  - {key: a, operator: Exists, effect: NoExecute, "
	  "tolerationSeconds: 30}\n  - {key: b, value: c}\n"
	  "  runtimeClassName: windows-ltsc2022\n  os: {name: windows}\n"
	  "  securityContext:\n    runAsNonRoot: true\n"
	  "    windowsOptions: {runAsUserName: ContainerUser}\n"
	  "  hostPID: false\n  containers:\n  - image: x\n", 0, "", "" },
	/* nodeSelector */
	{ "  nodeSelector:\n    node.kubernetes.io/version: 1.5\n",
	  1, "must be a string",
	  "spec.nodeSelector.[node.kubernetes.io/version]" },
	/* kubectl reads 10.0.20348 as a string (no float parses it) */
	{ "  nodeSelector:\n    node.kubernetes.io/windows-build: 10.0.20348\n",
	  0, "", "" },
	{ "  nodeSelector: {enabled: true}\n", 1, "must be a string",
	  "spec.nodeSelector.enabled" },
	{ "  nodeSelector: {'bad key!': x}\n", 1, "is not a valid label key",
	  "spec.nodeSelector.bad key!" },
	{ "  nodeSelector: {a: 'has space'}\n", 1,
	  "is not a valid label value", "spec.nodeSelector.a" },
	{ "  nodeSelector: [a]\n", 1, "must be a mapping",
	  "spec.nodeSelector" },
	/* tolerations */
	{ "  tolerations:\n  - {operator: Equal, value: x}\n", 1,
	  "operator must be Exists when key is empty", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Exists, value: windows}\n",
	  1, "value must be empty when operator is Exists",
	  "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Gt, value: '1'}\n", 1,
	  "operator must be Equal or Exists", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Exists, effect: NoRun}\n",
	  1, "effect must be NoSchedule", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Exists, effect: NoSchedule,"
	  " tolerationSeconds: 5}\n", 1,
	  "effect must be NoExecute when tolerationSeconds is set",
	  "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Exists, effect: NoExecute,"
	  " tolerationSeconds: soon}\n", 1,
	  "tolerationSeconds must be an integer", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: 'a b', operator: Exists}\n", 1,
	  "key is not a valid label key", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, value: 'not valid'}\n", 1,
	  "value is not a valid label value", "spec.tolerations[0]" },
	{ "  tolerations:\n  - {key: os, operator: Exists, effect: true}\n",
	  1, "must be a string", "spec.tolerations[0].effect" },
	{ "  tolerations: {key: os}\n", 1, "must be a list",
	  "spec.tolerations" },
	{ "  tolerations: [x]\n", 1, "must be a mapping",
	  "spec.tolerations[0]" },
	/* runtimeClassName */
	{ "  runtimeClassName: Windows_2022\n", 1, "must be a DNS subdomain",
	  "spec.runtimeClassName" },
	/* os */
	{ "  os: {name: macos}\n", 1, "must be linux or windows",
	  "spec.os.name" },
	{ "  os: {}\n", 1, "is required", "spec.os.name" },
	/* windows pods: each forbidden field */
	{ "  os: {name: windows}\n  hostPID: true\n", 1,
	  "cannot be set for a windows pod", "spec.hostPID" },
	{ "  os: {name: windows}\n  hostIPC: true\n", 1,
	  "cannot be set for a windows pod", "spec.hostIPC" },
	{ "  os: {name: windows}\n  hostUsers: false\n", 1,
	  "cannot be set for a windows pod", "spec.hostUsers" },
	{ "  os: {name: windows}\n  shareProcessNamespace: false\n", 1,
	  "cannot be set for a windows pod", "spec.shareProcessNamespace" },
	{ "  os: {name: windows}\n  resources: {}\n", 1,
	  "cannot be set for a windows pod", "spec.resources" },
	{ "  os: {name: windows}\n  securityContext:\n    fsGroup: 1\n"
	  "    runAsUser: 1\n    runAsGroup: 1\n    supplementalGroups: [1]\n"
	  "    supplementalGroupsPolicy: Merge\n    sysctls: []\n"
	  "    seLinuxOptions: {}\n    seccompProfile: {}\n"
	  "    appArmorProfile: {}\n    fsGroupChangePolicy: Always\n", 10,
	  "cannot be set for a windows pod", "spec.securityContext.seLinuxOptions" },
	{ "  os: {name: windows}\n  ephemeralContainers:\n"
	  "  - securityContext:\n      privileged: false\n"
	  "      capabilities: {}\n      readOnlyRootFilesystem: false\n"
	  "      allowPrivilegeEscalation: false\n      procMount: Default\n"
	  "      runAsUser: 1\n      runAsGroup: 1\n      seLinuxOptions: {}\n"
	  "      seccompProfile: {}\n      appArmorProfile: {}\n", 10,
	  "cannot be set for a windows pod",
	  "spec.ephemeralContainers[0].securityContext.seLinuxOptions" },
	/* HostProcess */
	{ "  os: {name: windows}\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true}\n  containers: [{}]\n", 1,
	  "must be true in a HostProcess pod", "spec.hostNetwork" },
	{ "  os: {name: windows}\n  hostNetwork: true\n  containers:\n"
	  "  - securityContext: {windowsOptions: {hostProcess: true}}\n"
	  "  - name: b\n", 1, "container 'b' is not a HostProcess container",
	  "spec.containers[1]" },
	{ "  os: {name: windows}\n  hostNetwork: true\n  securityContext:\n"
	  "    windowsOptions: {hostProcess: true}\n  containers:\n"
	  "  - securityContext: {windowsOptions: {hostProcess: false}}\n", 1,
	  "they must be identical",
	  "spec.containers[0].securityContext.windowsOptions.hostProcess" },
	/* linux pods */
	{ "  os: {name: linux}\n  securityContext:\n"
	  "    windowsOptions: {runAsUserName: x}\n", 1,
	  "windows options cannot be set for a linux pod",
	  "spec.securityContext.windowsOptions" },
	{ "  os: {name: linux}\n  initContainers:\n  - securityContext:\n"
	  "      windowsOptions: {}\n", 1,
	  "windows options cannot be set for a linux pod",
	  "spec.initContainers[0].securityContext.windowsOptions" },
	/* a placeholder is judged once substituted (envsubst, clusterctl) */
	{ "  nodeSelector: {pool: '${POOL}'}\n  runtimeClassName: ${RC}\n"
	  "  tolerations:\n  - {key: os, value: '${OS_VALUE:-windows}'}\n"
	  "  securityContext:\n    windowsOptions:\n"
	  "      gmsaCredentialSpecName: ${CREDSPECRESOURCE}\n"
	  "      runAsUserName: '${USER}'\n", 0, "not checked until it is "
	  "substituted",
	  "spec.securityContext.windowsOptions.gmsaCredentialSpecName" },
	{ "  runtimeClassName: $RC\n", 1, "must be a DNS subdomain",
	  "spec.runtimeClassName" },
	/* without os.name, none of those rules apply */
	{ "  hostPID: true\n  securityContext:\n"
	  "    windowsOptions: {runAsUserName: x}\n    runAsUser: 0\n", 0, "",
	  "" },
};

START_TEST(test_rules)
{
	char msg[512], field[512];
	size_t n = check_pod(cases[_i].spec, msg, sizeof(msg), field,
			     sizeof(field));

	ck_assert_msg(n == cases[_i].bad, "case %d: %zu violations (%s)", _i,
		      n, msg);
	ck_assert_msg(strstr(msg, cases[_i].message), "case %d: %s", _i, msg);
	ck_assert_str_eq(field, cases[_i].field);
}
END_TEST

START_TEST(test_placeholders)
{
	static const struct {
		const char *text;
		bool placeholder;
	} texts[] = {
		{ "${CREDSPECRESOURCE}", true }, { "x-${NAME}-y", true },
		{ "${KUBERNETES_VERSION/+/_}", true }, { "${A:=b}", true },
		{ "${_x1}", true }, { "$NAME", false }, { "${}", false },
		{ "${1A}", false }, { "${NAME", false }, { "{{ .Values.x }}", false },
		{ "plain", false }, { "${a b}", false },
	};
	struct wg_arena a = WG_ARENA_INIT;

	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		struct wg_node *n = wg_node_new_str(&a, texts[i].text);

		ck_assert_msg(wg_k8s_placeholder(n) == texts[i].placeholder,
			      "%s", texts[i].text);
	}
	ck_assert(!wg_k8s_placeholder(wg_node_new_map(&a)));
	wg_arena_release(&a);
}
END_TEST

START_TEST(test_not_a_workload)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "apiVersion: v1\nkind: Service\n"
				"spec: {nodeSelector: [x]}\n", &list), 0);
	ck_assert_uint_eq(wg_k8s_check_resource(&ctx, list.items[0]), 0);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* ---- what the transforms write -------------------------------------------- */

/* Validates every workload of a file; returns the violations. */
static size_t check_file(const char *path, size_t *workloads)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	size_t bad = 0;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
	ck_assert_int_eq(wg_read_stream(&ctx, &in, &list), 0);
	for (size_t i = 0; i < list.len; i++) {
		struct wg_podspec ps;

		if (!wg_podspec_find(list.items[i], &ps))
			continue;
		(*workloads)++;
		bad += wg_k8s_check_pod_spec(&ctx, list.items[i], &ps);
	}
	if (bad)
		wg_log_print(stderr, &ctx.log, WG_SEV_ERROR);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return bad;
}

/* Every workload in every transform golden case's expected output. */
START_TEST(test_golden_outputs_valid)
{
	char root[1024];
	DIR *d;
	struct dirent *e;
	size_t files = 0, workloads = 0;

	/* tests/golden, next to this file's folder (CMake compiles it by
	 * its absolute path) */
	snprintf(root, sizeof(root), "%s", __FILE__);
	*strrchr(root, '/') = '\0';
	snprintf(root + strlen(root), sizeof(root) - strlen(root),
		 "/../golden");
	d = opendir(root);
	ck_assert_msg(d != NULL, "%s", root);
	while ((e = readdir(d))) {
		char path[1024];
		FILE *f;

		if (strncmp(e->d_name, "tx-", 3) != 0)
			continue;
		ck_assert_int_lt(snprintf(path, sizeof(path),
					  "%s/%s/expected.yaml", root,
					  e->d_name),
				 (int)sizeof(path));
		f = fopen(path, "r");
		if (!f)
			continue;
		fclose(f);
		files++;
		ck_assert_msg(check_file(path, &workloads) == 0, "%s", path);
	}
	closedir(d);
	ck_assert_uint_gt(files, 10);
	ck_assert_uint_gt(workloads, 30);
}
END_TEST

/* ---- nothing changed that no change record names --------------------- */

struct leaves {
	const struct wg_node *after;
	const struct wg_log *log;
	const struct wg_ref *ref;	/* the object's identity */
	size_t stray;
};

static bool same_ref(const struct wg_ref *a, const struct wg_ref *b)
{
	return a->kind && b->kind && !strcmp(a->kind, b->kind) && a->name
	       && b->name && !strcmp(a->name, b->name)
	       && !a->namespace_ == !b->namespace_
	       && (!a->namespace_ || !strcmp(a->namespace_, b->namespace_));
}

/* Whether a recorded change of this object covers path. */
static bool explained(const struct leaves *l, const char *path)
{
	for (size_t i = 0; i < l->log->nchanges; i++) {
		const struct wg_change *c = &l->log->changes[i];
		size_t n = c->field ? strlen(c->field) : 0;

		if (n && same_ref(&c->ref, l->ref) && !strncmp(path, c->field, n)
		    && (path[n] == '\0' || path[n] == '.' || path[n] == '['))
			return true;
	}
	return false;
}

static int leaf(struct wg_node *n, struct wg_node *key, const char *path,
		void *payload)
{
	struct leaves *l = payload;
	const struct wg_node *now;

	(void)key;
	if (!wg_is_scalar(n))
		return 0;
	now = wg_path_get(l->after, path);
	if (!wg_node_equal(now, n) || (now && now->style != n->style)) {
		if (!explained(l, path)) {
			fprintf(stderr, "%s/%s: %s changed with no change "
				"recorded\n", l->ref->kind, l->ref->name, path);
			l->stray++;
		}
	}
	return 0;
}

/* The checker itself: a change nobody recorded is caught. */
START_TEST(test_stray_detector)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *before, *root;
	struct wg_ref ref;
	struct leaves l;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "apiVersion: v1\nkind: Pod\n"
		"metadata: {name: p}\nspec:\n  hostPID: true\n"
		"  dnsPolicy: 'Default'\n  containers: [{image: a}]\n",
		&list), 0);
	root = list.items[0]->root;
	before = wg_node_clone(&list.arena, root);
	wg_resource_ref(&list.arena, list.items[0], &ref);
	/* a removal, a restyled scalar, an added key */
	wg_map_delete(wg_map_get(root, "spec"), "hostPID");
	wg_map_get(wg_map_get(root, "spec"), "dnsPolicy")->style =
		WG_STYLE_PLAIN;
	wg_map_set(&list.arena, wg_map_get(root, "spec"), "new",
		   wg_node_new_str(&list.arena, "x"));
	l = (struct leaves){ root, &ctx.log, &ref, 0 };
	wg_node_walk(before, leaf, &l);
	ck_assert_uint_eq(l.stray, 2);
	/* recorded: explained */
	wg_record_change(&ctx, WG_CHANGE_REMOVE, list.items[0], NULL,
			 "spec.hostPID", NULL, NULL, "test");
	l.stray = 0;
	wg_node_walk(before, leaf, &l);
	ck_assert_uint_eq(l.stray, 1);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/*
 * A profile that makes every workload of the corpus a Windows workload:
 * real charts' Linux security contexts, selectors and tolerations all go
 * through the transforms (the conflicts it meets are expected; this test
 * only checks what was changed).
 */
static const char everything[] =
	"apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"
	"metadata: {name: everything}\nwindows:\n  builds:\n"
	"  - release: ltsc2022\n  - release: ltsc2025\n    arch: arm64\n"
	"  default: ltsc2022\n"
	"  taint: {key: node.kubernetes.io/os, value: windows, "
	"effect: NoExecute}\n"
	"  select:\n  - name: '.*'\n";

/*
 * The default chain over every real manifest, with the embedded default
 * profile and with "everything": every object it changed still passes the
 * rules, and every value of it that changed has a change record saying
 * why.  (Which files fail, and why, is tests/sh/corpus_build.sh's
 * business.)
 */
START_TEST(test_corpus_touched_valid)
{
	DIR *d = opendir(WG_CORPUS);
	char path[1024];
	size_t files = 0, touched = 0;

	if (!d)
		return;	/* no corpus here: corpus_build.sh reports the skip */
	while (t_corpus_next(d, path, sizeof(path))) {
		struct wg_ctx ctx;
		struct wg_input in;
		struct wg_resources list;
		struct wg_profile p;
		struct wg_chain chain;
		struct wg_node **before;
		struct wg_resource **orig;
		size_t n, bad = 0;

		wg_ctx_init(&ctx);
		wg_resources_init(&list);
		if (_i == 0)
			ck_assert_int_eq(wg_profile_load_default(&ctx, WG_CHAIN_OPTS, &p),
					 0);
		else
			ck_assert_int_eq(wg_profile_load_data(&ctx,
				"everything.yaml", everything,
				sizeof(everything) - 1, WG_CHAIN_OPTS, &p), 0);
		ctx.profile = &p;
		chain.steps = p.steps;
		chain.len = p.nsteps;
		ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
		ck_assert_int_eq(wg_read_stream(&ctx, &in, &list), 0);
		/* each input object with its text before the run; paired
		 * after it by identity, since fan-out inserts copies */
		n = list.len;
		orig = calloc(n + 1, sizeof(*orig));
		before = calloc(n + 1, sizeof(*before));
		for (size_t i = 0; i < n; i++) {
			orig[i] = list.items[i];
			before[i] = wg_node_clone(&list.arena,
						  list.items[i]->root);
		}
		ck_assert_int_eq(wg_pipeline_run(&ctx, &list, &chain), 0);
		for (size_t i = 0; i < list.len; i++) {
			struct wg_resource *res = list.items[i];
			struct wg_node *was = NULL;

			if (res->flags & WG_RES_GENERATED)
				continue;
			/* an object with an error reports no change and is
			 * never written (pipeline.h): nothing to explain */
			if (res->flags & WG_RES_ERROR)
				continue;
			for (size_t k = 0; k < n && !was; k++)
				if (orig[k] == res)
					was = before[k];
			/* a copy fan-out made (the per-arch DaemonSets of
			 * the two-arch profile) has no input object: it is
			 * held to the rules, its creation is its record */
			if (!was) {
				touched++;
				bad += wg_k8s_check_resource(&ctx, res);
				continue;
			}
			if (!wg_node_equal(was, res->root)) {
				struct leaves l = { res->root, &ctx.log, NULL,
						    0 };
				struct wg_ref ref;

				wg_resource_ref(&list.arena, res, &ref);
				l.ref = &ref;
				touched++;
				bad += wg_k8s_check_resource(&ctx, res);
				/* every value that was there is still there,
				 * in its style, unless a change says why */
				wg_node_walk(was, leaf, &l);
				bad += l.stray;
			}
		}
		if (bad)
			wg_log_print(stderr, &ctx.log, WG_SEV_ERROR);
		ck_assert_msg(bad == 0, "%s: %zu violations", path, bad);
		files++;
		free(before);
		free(orig);
		wg_profile_release(&p);
		wg_resources_release(&list);
		wg_input_release(&in);
		wg_ctx_release(&ctx);
	}
	closedir(d);
	ck_assert_uint_gt(files, 50);
	ck_assert_uint_gt(touched, 50);
}
END_TEST

static Suite *k8svalid_suite(void)
{
	Suite *s = suite_create("k8svalid");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_rules, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_placeholders);
	tcase_add_test(tc, test_not_a_workload);
	tcase_add_test(tc, test_golden_outputs_valid);
	tcase_add_test(tc, test_stray_detector);
	tcase_add_loop_test(tc, test_corpus_touched_valid, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(k8svalid_suite)
