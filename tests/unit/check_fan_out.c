/* fan-out: image rules, the built-in base-image rule, copies or one
 * workload, names, selectors, HPAs and PDBs, errors, idempotence. */
#include "txtest.h"

#define CHAIN "runtime-class fan-out node-selector tolerations " \
	"runtime-class-name pod-os windows-security linux-pin services"

static struct wg_step chain_steps[16];

/* The profile's chain is the default one (selection and fan-out ask
 * whether fan-out and runtime-class are in it). */
static void with_chain(struct tp *tp)
{
	size_t n = 0;

	for (size_t i = 0; wg_plugins[i] && n < 16; i++) {
		chain_steps[n].plugin = wg_plugins[i];
		chain_steps[n++].config = NULL;
	}
	tp->p.steps = chain_steps;
	tp->p.nsteps = n;
}

/* ltsc2019, ltsc2022 (default), ltsc2025; no select entries. */
static void three(struct tp *tp)
{
	tp_init(tp);
	tp_build(tp, "ltsc2019", "amd64");
	tp_build(tp, "ltsc2025", "amd64");
	tp_select_image(tp, "^mcr\\.microsoft\\.com/windows/");
	with_chain(tp);
}

/* The catalog's 23H2, with the RuntimeClass name the loader gives it. */
static void tp_23h2(struct tp *tp)
{
	tp_build(tp, "23H2", "amd64")->runtime_class = "windows-23h2";
}

static struct wg_image_rule rules[TP_MAX];

static void tp_image_rule(struct tp *tp, const char *match,
			  const char *replace, uint32_t limit)
{
	struct wg_image_rule *r = &rules[tp->p.nimages];
	const char *err = NULL;
	size_t off = 0;

	ck_assert_int_eq(wg_regex_compile(&r->match, match, false,
					  limit ? limit : 1000000, 10000,
					  &tp->p.arena, &err, &off), 0);
	r->replace = replace;
	tp->p.images = rules;
	tp->p.nimages++;
}

static void tp_rules_release(struct tp *tp)
{
	for (size_t i = 0; i < tp->p.nimages; i++)
		wg_regex_release(&rules[i].match);
	tp->p.nimages = 0;
}

#define POD(name, builds, image) \
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: " name "\n" \
	"  annotations: {wingen.dev/windows: 'true', " \
	"wingen.dev/windows-builds: '" builds "'}\nspec:\n  containers:\n" \
	"  - name: c\n    image: '" image "'\n"

/* The image of the first container of resource i, as written. */
static const char *image_of(struct tr *r, size_t i)
{
	const struct wg_node *n;

	ck_assert_uint_lt(i, r->list.len);
	n = wg_path_get(r->list.items[i]->root, "spec.containers[0].image");
	ck_assert_ptr_nonnull(n);
	return wg_scalar_dup(&r->list.arena, n);
}

static const char *name_of(struct tr *r, size_t i)
{
	ck_assert_uint_lt(i, r->list.len);
	return wg_scalar_dup(&r->list.arena,
			     wg_resource_name_node(r->list.items[i]));
}

/* index of the first resource that is not a RuntimeClass */
static size_t first_object(struct tr *r)
{
	size_t i = 0;

	while (i < r->list.len
	       && wg_resource_kind_is(r->list.items[i], "RuntimeClass"))
		i++;
	return i;
}

/* ---- the built-in rule ------------------------------------------------- */

START_TEST(test_builtin_rule)
{
	static const struct {
		const char *builds;
		const char *image;
		const char *want[2];	/* per target; NULL: error */
	} cases[] = {
		{ "ltsc2019,ltsc2022", "mcr.microsoft.com/windows/servercore:"
		  "ltsc2019", { "mcr.microsoft.com/windows/servercore:ltsc2019",
				"mcr.microsoft.com/windows/servercore:ltsc2022"
		  } },
		/* nanoserver's 2019 tag is 1809 */
		{ "ltsc2022,ltsc2019", "mcr.microsoft.com/windows/nanoserver:"
		  "ltsc2022", { "mcr.microsoft.com/windows/nanoserver:ltsc2022",
				"mcr.microsoft.com/windows/nanoserver:1809" } },
		/* the architecture suffix stays */
		{ "ltsc2019,ltsc2022", "mcr.microsoft.com/windows/servercore:"
		  "1809-amd64", { "mcr.microsoft.com/windows/servercore:"
				  "1809-amd64", "mcr.microsoft.com/windows/"
				  "servercore:ltsc2022-amd64" } },
		/* 2025 hosts run 2022 images: not rewritten; 2019 hosts
		 * cannot */
		{ "ltsc2025,ltsc2019", "mcr.microsoft.com/windows/server:"
		  "ltsc2022", { "mcr.microsoft.com/windows/server:ltsc2022",
				NULL } },
		/* a digest pins the image; a full version pins a patch */
		{ "ltsc2019,ltsc2022", "mcr.microsoft.com/windows/servercore:"
		  "ltsc2019@sha256:0123", { "mcr.microsoft.com/windows/"
		  "servercore:ltsc2019@sha256:0123", NULL } },
		{ "ltsc2019,ltsc2022", "mcr.microsoft.com/windows/servercore:"
		  "10.0.17763.5458", { "mcr.microsoft.com/windows/servercore:"
				       "10.0.17763.5458", NULL } },
		/* the full windows image ends with 20H2: windows/server
		 * carries it on; a mirror is of its family */
		{ "ltsc2019,ltsc2022", "mcr.microsoft.com/windows:1809",
		  { "mcr.microsoft.com/windows:1809",
		    "mcr.microsoft.com/windows/server:ltsc2022" } },
		{ "ltsc2019,ltsc2022", "registry.local/windows/servercore:"
		  "ltsc2019", { "registry.local/windows/servercore:ltsc2019",
				"registry.local/windows/servercore:"
				"ltsc2022" } },
		/* a version tag of another repository names no release */
		{ "ltsc2019,ltsc2022", "registry.local/app:1809",
		  { "registry.local/app:1809", "registry.local/app:1809" } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct tp tp;
		struct tr r;
		char yaml[1024];
		size_t first;

		three(&tp);
		snprintf(yaml, sizeof(yaml), POD("p", "%s", "%s"),
			 cases[i].builds, cases[i].image);
		tr_run(&r, &tp, yaml, CHAIN);
		if (!cases[i].want[1]) {
			ck_assert_msg(r.out == NULL, "case %zu", i);
			ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR,
						      "hosts cannot run"));
			ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
		} else {
			ck_assert_msg(r.out != NULL, "case %zu: %s", i,
				      t_first_message(&r.ctx));
			first = first_object(&r);
			for (size_t k = 0; k < 2; k++) {
				if (first + k >= r.list.len)
					break;	/* one workload for all */
				ck_assert_str_eq(image_of(&r, first + k),
						 cases[i].want[k]);
			}
			tr_assert_idempotent(&tp, r.out, CHAIN);
		}
		tr_free(&r);
		tp_release(&tp);
	}
}
END_TEST

/* 23H2 has no base images: its hosts get the newest tag they run. */
START_TEST(test_builtin_newest)
{
	struct tp tp;
	struct tr r;
	size_t first;

	tp_init(&tp);
	tp_build(&tp, "ltsc2019", "amd64");
	tp_23h2(&tp);
	with_chain(&tp);
	tr_run(&r, &tp, POD("p", "ltsc2019,23H2", "mcr.microsoft.com/windows/"
			    "nanoserver:1809"), CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_str_eq(name_of(&r, first + 1), "p-23h2");
	ck_assert_str_eq(image_of(&r, first + 1),
			 "mcr.microsoft.com/windows/nanoserver:ltsc2022");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* ---- profile rules ------------------------------------------------------ */

START_TEST(test_rules_in_order)
{
	struct tp tp;
	struct tr r;
	size_t first;

	three(&tp);
	/* the first rule that matches wins, before the built-in one */
	tp_image_rule(&tp, "^(app):(.*)-ltsc\\d{4}$", "$1:$2-$release-$arch",
		      0);
	tp_image_rule(&tp, "^app:", "never:", 0);
	tp_image_rule(&tp, "servercore:ltsc2019$",
		      "servercore:${release}-b${build}-$$release", 0);
	tr_run(&r, &tp,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	       "  annotations: {wingen.dev/windows: 'true', "
	       "wingen.dev/windows-builds: 'ltsc2019,ltsc2025'}\nspec:\n"
	       "  containers:\n  - name: a\n    image: app:1.0-ltsc2019\n"
	       "  - name: b\n    image: mcr.microsoft.com/windows/servercore:"
	       "ltsc2019\n  - name: c\n    image: nginx\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_str_eq(image_of(&r, first + 1),
			 "app:1.0-ltsc2025-amd64");
	ck_assert_str_eq(wg_scalar_dup(&r.list.arena, wg_path_get(
		r.list.items[first + 1]->root, "spec.containers[1].image")),
		"mcr.microsoft.com/windows/servercore:ltsc2025-b10.0.26100-"
		"$release");
	ck_assert_str_eq(wg_scalar_dup(&r.list.arena, wg_path_get(
		r.list.items[first + 1]->root, "spec.containers[2].image")),
		"nginx");
	/* the first copy's images are recorded changes */
	ck_assert_ptr_nonnull(tr_change(&r, "spec.containers[0].image"));
	tr_free(&r);
	tp_rules_release(&tp);
	tp_release(&tp);
}
END_TEST

START_TEST(test_rule_gives_up)
{
	struct tp tp;
	struct tr r;

	three(&tp);
	tp_image_rule(&tp, "^(a+)+$", "x", 50);
	tr_run(&r, &tp, POD("p", "ltsc2019,ltsc2022",
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), CHAIN);
	ck_assert_ptr_null(r.out);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "windows.images[0]."
				      "match: pattern '^(a+)+$' gave up on"));
	ck_assert_str_eq(tr_diag(&r, WG_SEV_ERROR, "gave up")->field,
			 "spec.containers[0].image");
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	tr_free(&r);
	tp_rules_release(&tp);
	tp_release(&tp);
}
END_TEST

/* ---- copies or one workload --------------------------------------------- */

START_TEST(test_one_or_copies)
{
	struct tp tp;
	struct tr r;
	struct wg_build *arm;
	size_t first;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	arm = tp_build(&tp, "ltsc2025", "arm64");
	tp_23h2(&tp);
	with_chain(&tp);
	/* the same image everywhere, one RuntimeClass fits: one workload */
	tr_run(&r, &tp, POD("p", "ltsc2022,23H2,ltsc2025", "app:1"), CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_uint_eq(r.list.len, first + 1);
	ck_assert_str_eq(name_of(&r, first), "p");
	ck_assert_str_eq(wg_scalar_dup(&r.list.arena, wg_path_get(
		r.list.items[first]->root, "spec.runtimeClassName")),
		"windows-ltsc2022-multi");
	ck_assert_ptr_null(wg_path_get(r.list.items[first]->root,
		"spec.nodeSelector.[node.kubernetes.io/windows-build]"));
	{
		const struct wg_node *e = wg_path_get(r.list.items[first]->root,
			"spec.affinity.nodeAffinity.requiredDuringScheduling"
			"IgnoredDuringExecution.nodeSelectorTerms[0]."
			"matchExpressions[0]");
		const struct wg_node *v = wg_map_get(e, "values");

		ck_assert(wg_scalar_is(wg_map_get(e, "key"),
				       "node.kubernetes.io/windows-build"));
		ck_assert(wg_scalar_is(wg_map_get(e, "operator"), "In"));
		ck_assert_uint_eq(v->len, 3);
		ck_assert(wg_scalar_is(wg_seq_item(v, 0), "10.0.20348"));
		ck_assert(wg_scalar_is(wg_seq_item(v, 1), "10.0.25398"));
		ck_assert(wg_scalar_is(wg_seq_item(v, 2), "10.0.26100"));
	}
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);

	/* two architectures: copies, named <release>-<arch> */
	tr_run(&r, &tp, POD("p", "windows-ltsc2025,windows-ltsc2025-arm64",
			    "app:1"), CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_str_eq(name_of(&r, first), "p-ltsc2025-amd64");
	ck_assert_str_eq(name_of(&r, first + 1), "p-ltsc2025-arm64");
	ck_assert_str_eq(wg_scalar_dup(&r.list.arena, wg_path_get(
		r.list.items[first + 1]->root, "metadata.annotations."
		"[wingen.dev/windows-build]")), "windows-ltsc2025-arm64");
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);

	/* another handler: another RuntimeClass, so copies */
	arm->arch = "amd64";
	arm->handler = "runhcs-wcow-hypervisor";
	tr_run(&r, &tp, POD("p", "windows-ltsc2025,windows-ltsc2025-arm64",
			    "app:1"), CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_str_eq(name_of(&r, first), "p-windows-ltsc2025");
	ck_assert_str_eq(name_of(&r, first + 1), "p-windows-ltsc2025-arm64");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Without the runtime-class generator in the chain, the multi
 * RuntimeClass is named but not made (the user provides them). */
START_TEST(test_multi_without_generator)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	with_chain(&tp);
	/* drop runtime-class, after retarget in the registry */
	ck_assert_str_eq(tp.p.steps[1].plugin->name, "runtime-class");
	tp.p.steps[1] = tp.p.steps[0];
	tp.p.steps++;
	tp.p.nsteps--;
	tr_run(&r, &tp, POD("p", "ltsc2022,ltsc2025", "app:1"),
	       "fan-out node-selector tolerations runtime-class-name pod-os");
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	ck_assert_uint_eq(r.list.len, 1);
	ck_assert_ptr_nonnull(strstr(r.out, "runtimeClassName: "
				     "windows-ltsc2022-multi\n"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_affinity_conflict)
{
	struct tp tp;
	struct tr r;

	tp_init(&tp);
	tp_build(&tp, "ltsc2025", "amd64");
	with_chain(&tp);
	tr_run(&r, &tp,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	       "  annotations: {wingen.dev/windows: 'true', "
	       "wingen.dev/windows-builds: 'ltsc2022,ltsc2025'}\nspec:\n"
	       "  affinity:\n    nodeAffinity:\n"
	       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	       "        nodeSelectorTerms:\n        - matchExpressions:\n"
	       "          - {key: node.kubernetes.io/windows-build, "
	       "operator: In, values: ['10.0.20348']}\n"
	       "  containers: [{name: c, image: app}]\n", CHAIN);
	ck_assert_ptr_null(r.out);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "already constrains "
				      "node.kubernetes.io/windows-build, but "
				      "the workload runs on builds 10.0.20348,"
				      " 10.0.26100"));
	ck_assert_str_eq(r.ctx.log.diags[0].field, "spec.affinity."
			 "nodeAffinity.requiredDuringSchedulingIgnoredDuring"
			 "Execution.nodeSelectorTerms[0].matchExpressions[0]");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* ---- what copies carry --------------------------------------------------- */

START_TEST(test_copy_identity)
{
	struct tp tp;
	struct tr r;
	size_t first;
	const struct wg_node *a0, *a1;

	three(&tp);
	tr_run(&r, &tp,
	       "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
	       "  name: web\n  annotations:\n"
	       "    wingen.dev/windows-builds: ltsc2019,ltsc2022\n"
	       "    config.k8s.io/id: '1'\n"
	       "    kustomize.config.k8s.io/id: abc\n"
	       "    config.kubernetes.io/index: '0'\n"
	       "spec:\n  selector:\n    matchExpressions:\n"
	       "    - {key: app, operator: In, values: [web]}\n"
	       "  template:\n    metadata: {labels: {app: web}}\n"
	       "    spec: {containers: [{name: c, image: "
	       "'mcr.microsoft.com/windows/servercore:ltsc2019'}]}\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	a0 = wg_path_get(r.list.items[first]->root, "metadata.annotations");
	a1 = wg_path_get(r.list.items[first + 1]->root,
			 "metadata.annotations");
	/* the original keeps its identity; the copy is a new object */
	ck_assert_ptr_nonnull(wg_map_get(a0, "config.k8s.io/id"));
	ck_assert_ptr_null(wg_map_get(a1, "config.k8s.io/id"));
	ck_assert_ptr_null(wg_map_get(a1, "kustomize.config.k8s.io/id"));
	ck_assert_ptr_nonnull(wg_map_get(a1, "config.kubernetes.io/index"));
	ck_assert(wg_scalar_is(wg_map_get(a1, "wingen.dev/windows-build"),
			       "ltsc2022"));
	/* matchLabels joins matchExpressions */
	ck_assert(wg_scalar_is(wg_path_get(r.list.items[first + 1]->root,
		"spec.selector.matchLabels.[wingen.dev/windows-build]"),
		"ltsc2022"));
	/* where they came from, for messages and migrate */
	ck_assert_ptr_eq(r.list.items[first + 1]->file,
			 r.list.items[first]->file);
	ck_assert_uint_eq(r.ctx.log.counts[WG_SEV_ERROR], 0);
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* kpt refuses two objects at one path and index: a copy gets the next
 * free index of its file, for each kind of annotation it carries. */
START_TEST(test_krm_index)
{
	struct tp tp;
	struct tr r;
	size_t first;
	const struct wg_node *a1, *h1;

	three(&tp);
	tr_run(&r, &tp,
	       "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
	       "  name: web\n  annotations:\n"
	       "    wingen.dev/windows-builds: ltsc2019,ltsc2022\n"
	       "    internal.config.kubernetes.io/path: a.yaml\n"
	       "    internal.config.kubernetes.io/index: '0'\n"
	       "    config.kubernetes.io/path: a.yaml\n"
	       "    config.kubernetes.io/index: '0'\n"
	       "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
	       "    metadata: {labels: {app: web}}\n    spec: {containers: "
	       "[{name: c, image: 'mcr.microsoft.com/windows/servercore:"
	       "ltsc2019'}]}\n---\n"
	       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	       "  annotations: {internal.config.kubernetes.io/path: a.yaml, "
	       "internal.config.kubernetes.io/index: '7'}\n---\n"
	       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n"
	       "  annotations: {internal.config.kubernetes.io/path: b.yaml, "
	       "internal.config.kubernetes.io/index: '9'}\n---\n"
	       "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	       "metadata:\n  name: web\n  annotations: {internal.config."
	       "kubernetes.io/path: a.yaml, internal.config.kubernetes.io/"
	       "index: '1'}\nspec:\n  scaleTargetRef: {kind: Deployment, "
	       "name: web}\n  maxReplicas: 2\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	a1 = wg_path_get(r.list.items[first + 1]->root, "metadata.annotations");
	ck_assert(wg_scalar_is(wg_map_get(a1, "internal.config.kubernetes.io/"
					  "index"), "8"));
	ck_assert(wg_scalar_is(wg_map_get(a1, "config.kubernetes.io/index"),
			       "1"));
	ck_assert(wg_scalar_is(wg_path_get(r.list.items[first]->root,
		"metadata.annotations.[internal.config.kubernetes.io/index]"),
		"0"));
	h1 = wg_path_get(r.list.items[first + 5]->root,
			 "metadata.annotations");
	ck_assert(wg_scalar_is(wg_path_get(r.list.items[first + 5]->root,
					   "metadata.name"), "web-ltsc2022"));
	ck_assert(wg_scalar_is(wg_map_get(h1, "internal.config.kubernetes.io/"
					  "index"), "9"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_name_limits)
{
	struct tp tp;
	struct tr r;

	three(&tp);
	/* a Job's name is a label value of its pods: 63 at most */
	tr_run(&r, &tp,
	       "apiVersion: batch/v1\nkind: Job\nmetadata:\n"
	       "  name: abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij"
	       "-abc\n  annotations: {wingen.dev/windows-builds: "
	       "'ltsc2019,ltsc2022'}\nspec:\n  template:\n    spec:\n"
	       "      containers: [{name: c, image: 'mcr.microsoft.com/"
	       "windows/servercore:ltsc2019'}]\n", CHAIN);
	ck_assert_ptr_null(r.out);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_ERROR, "is not a valid Job "
				      "name (a DNS subdomain of at most 63 "
				      "characters)"));
	ck_assert_uint_eq(tr_count(&r, WG_SEV_ERROR), 1);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* ---- HPAs and PDBs ------------------------------------------------------- */

#define WEB \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" \
	"  annotations: {wingen.dev/windows-builds: 'ltsc2019,ltsc2022'}\n" \
	"spec:\n  selector: {matchLabels: {app: web}}\n  template:\n" \
	"    metadata: {labels: {app: web}}\n    spec: {containers: [{name: " \
	"c, image: 'mcr.microsoft.com/windows/servercore:ltsc2019'}]}\n"

START_TEST(test_autoscalers_and_budgets)
{
	struct tp tp;
	struct tr r;
	size_t hpas = 0;

	three(&tp);
	tr_run(&r, &tp, WEB
	       /* scales web: copied */
	       "---\napiVersion: autoscaling/v1\nkind: "
	       "HorizontalPodAutoscaler\nmetadata: {name: a}\nspec:\n"
	       "  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, "
	       "name: web}\n  maxReplicas: 3\n"
	       /* another kind, another group, another namespace: not */
	       "---\napiVersion: autoscaling/v2\nkind: "
	       "HorizontalPodAutoscaler\nmetadata: {name: b}\nspec:\n"
	       "  scaleTargetRef: {kind: StatefulSet, name: web}\n"
	       "  maxReplicas: 3\n"
	       "---\napiVersion: autoscaling/v2\nkind: "
	       "HorizontalPodAutoscaler\nmetadata: {name: c}\nspec:\n"
	       "  scaleTargetRef: {apiVersion: example.com/v1, kind: "
	       "Deployment, name: web}\n  maxReplicas: 3\n"
	       "---\napiVersion: autoscaling/v2\nkind: "
	       "HorizontalPodAutoscaler\nmetadata: {name: d, namespace: x}\n"
	       "spec:\n  scaleTargetRef: {kind: Deployment, name: web}\n"
	       "  maxReplicas: 3\n"
	       /* PDBs: null selector selects nothing, {} everything */
	       "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	       "metadata: {name: none}\nspec: {maxUnavailable: 1}\n"
	       "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	       "metadata: {name: all}\nspec: {maxUnavailable: 1, "
	       "selector: {}}\n"
	       "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	       "metadata: {name: min}\nspec: {minAvailable: 50%, selector: "
	       "{matchExpressions: [{key: app, operator: Exists}]}}\n"
	       "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	       "metadata: {name: other}\nspec: {minAvailable: 1, selector: "
	       "{matchLabels: {app: api}}}\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	for (size_t i = 0; i < r.list.len; i++)
		hpas += wg_resource_kind_is(r.list.items[i],
					    "HorizontalPodAutoscaler");
	ck_assert_uint_eq(hpas, 5);
	ck_assert_ptr_nonnull(strstr(r.out, "name: a-ltsc2022}\nspec:\n"
				     "  scaleTargetRef: {apiVersion: apps/v1, "
				     "kind: Deployment, name: web-ltsc2022}"));
	ck_assert_ptr_nonnull(strstr(r.out, "metadata: {name: b}"));
	ck_assert_ptr_nonnull(strstr(r.out, "metadata: {name: c}"));
	ck_assert_ptr_nonnull(strstr(r.out, "metadata: {name: d, "));
	ck_assert_uint_eq(tr_count(&r, WG_SEV_INFO), 1);
	ck_assert_uint_eq(tr_count(&r, WG_SEV_WARNING), 1);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_INFO, "the budget stays "
				      "shared by the builds, and "
				      "maxUnavailable"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "so minAvailable "
				      "can be met by one build's pods alone"));
	ck_assert_str_eq(tr_diag(&r, WG_SEV_WARNING, "minAvailable")->ref.name,
			 "min");
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* A profile entry's builds fan out too, and copies stay Windows
 * workloads though their new names no longer match the entry. */
START_TEST(test_entry_by_name)
{
	struct tp tp;
	struct tr r;
	struct wg_select *s;
	size_t first;

	three(&tp);
	s = tp_select(&tp);
	s->name = tp_re(&tp, "web", true);
	tp_entry_builds(&tp, s, &tp.builds[1]);
	tp_entry_builds(&tp, s, &tp.builds[0]);
	tr_run(&r, &tp,
	       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
	       "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
	       "    metadata: {labels: {app: web}}\n    spec: {containers: "
	       "[{name: c, image: app}]}\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	/* the same image and RuntimeClass would fit: one workload ... */
	ck_assert_uint_eq(r.list.len, first + 1);
	tr_free(&r);
	/* ... unless an image rule tells the builds apart */
	tp_image_rule(&tp, "^app$", "app:$release", 0);
	tr_run(&r, &tp,
	       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
	       "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
	       "    metadata: {labels: {app: web}}\n    spec: {containers: "
	       "[{name: c, image: app}]}\n", CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	first = first_object(&r);
	ck_assert_str_eq(name_of(&r, first), "web-ltsc2019");
	ck_assert_str_eq(name_of(&r, first + 1), "web-ltsc2022");
	for (size_t k = 0; k < 2; k++) {
		const struct wg_node *os = wg_path_get(
			r.list.items[first + k]->root,
			"spec.template.spec.nodeSelector.[kubernetes.io/os]");

		ck_assert(wg_scalar_is(os, "windows"));
	}
	ck_assert(wg_scalar_is(wg_path_get(r.list.items[first + 1]->root,
		"spec.template.spec.containers[0].image"), "app:ltsc2022"));
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);
	tp_rules_release(&tp);
	tp_release(&tp);
}
END_TEST


/* Many fanned workloads, each with its HPA, in three namespaces: every
 * copy lands right after its original and every HPA copy scales its own
 * workload's copy (the walk keeps its place in the list, and HPAs find
 * their workload by namespace and name). */
START_TEST(test_many_workloads_keep_their_places)
{
	enum { N = 120 };
	struct wg_buf in = WG_BUF_INIT;
	struct tp tp;
	struct tr r;
	size_t i;

	three(&tp);
	for (size_t k = 0; k < N; k++)
		wg_buf_addf(&in, "%sapiVersion: apps/v1\nkind: Deployment\n"
			    "metadata:\n  name: w%zu\n  namespace: n%zu\n"
			    "  annotations: {wingen.dev/windows-builds: "
			    "'ltsc2019,ltsc2022'}\nspec:\n  selector: "
			    "{matchLabels: {app: w%zu}}\n  template:\n"
			    "    metadata: {labels: {app: w%zu}}\n    spec: "
			    "{containers: [{name: c, image: 'mcr.microsoft.com"
			    "/windows/servercore:ltsc2019'}]}\n---\n"
			    "apiVersion: autoscaling/v2\nkind: "
			    "HorizontalPodAutoscaler\nmetadata: {name: h%zu, "
			    "namespace: n%zu}\nspec:\n  scaleTargetRef: {kind: "
			    "Deployment, name: w%zu}\n  maxReplicas: 3\n",
			    k ? "---\n" : "", k, k % 3, k, k, k, k % 3,
			    (k + 3) % N);
	tr_run(&r, &tp, in.buf, CHAIN);
	ck_assert_msg(r.out != NULL, "%s", t_first_message(&r.ctx));
	i = first_object(&r);
	ck_assert_uint_eq(r.list.len - i, 4 * N);
	for (size_t k = 0; k < N; k++, i += 4) {
		char want[64];
		const struct wg_node *target;

		snprintf(want, sizeof(want), "w%zu-ltsc2019", k);
		ck_assert_str_eq(name_of(&r, i), want);
		snprintf(want, sizeof(want), "w%zu-ltsc2022", k);
		ck_assert_str_eq(name_of(&r, i + 1), want);
		/* h(k) scales w(k+3), in the same namespace: copied */
		snprintf(want, sizeof(want), "h%zu-ltsc2022", k);
		ck_assert_str_eq(name_of(&r, i + 3), want);
		target = wg_path_get(r.list.items[i + 3]->root,
				     "spec.scaleTargetRef.name");
		snprintf(want, sizeof(want), "w%zu-ltsc2022", (k + 3) % N);
		ck_assert(wg_scalar_is(target, want));
	}
	tr_free(&r);
	tp_release(&tp);
	wg_buf_release(&in);
}
END_TEST

static Suite *fan_out_suite(void)
{
	Suite *s = suite_create("fan_out");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_builtin_rule);
	tcase_add_test(tc, test_builtin_newest);
	tcase_add_test(tc, test_rules_in_order);
	tcase_add_test(tc, test_rule_gives_up);
	tcase_add_test(tc, test_one_or_copies);
	tcase_add_test(tc, test_multi_without_generator);
	tcase_add_test(tc, test_affinity_conflict);
	tcase_add_test(tc, test_copy_identity);
	tcase_add_test(tc, test_krm_index);
	tcase_add_test(tc, test_name_limits);
	tcase_add_test(tc, test_autoscalers_and_budgets);
	tcase_add_test(tc, test_many_workloads_keep_their_places);
	tcase_add_test(tc, test_entry_by_name);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(fan_out_suite)
