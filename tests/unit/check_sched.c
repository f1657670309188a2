#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/sched.h"

/* Parses "[ss, t]" (two tolerations in flow YAML) and asks the rule. */
static bool superset(const char *pair)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *seq;
	bool r;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, pair, &list), 0);
	seq = list.items[0]->root;
	ck_assert(wg_is_seq(seq) && seq->len == 2);
	r = wg_toleration_superset(wg_seq_item(seq, 0), wg_seq_item(seq, 1));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return r;
}

#define T "{key: os, operator: Equal, value: windows, effect: NoSchedule}"

/* The API server's isSuperset, case by case (windows.md 1.2). */
static const struct {
	const char *pair;
	bool want;
} cases[] = {
	/* identical */
	{ "[" T ", " T "]", true },
	/* empty operator means Equal */
	{ "[{key: os, value: windows, effect: NoSchedule}, " T "]", true },
	/* different value, different key */
	{ "[{key: os, operator: Equal, value: linux, effect: NoSchedule}, "
	  T "]", false },
	{ "[{key: node.kubernetes.io/os, operator: Equal, value: windows, "
	  "effect: NoSchedule}, " T "]", false },
	/* Exists on the key: any value */
	{ "[{key: os, operator: Exists, effect: NoSchedule}, " T "]", true },
	{ "[{key: os, operator: Exists}, " T "]", true },
	/* empty key needs Exists to match every key */
	{ "[{operator: Exists}, " T "]", true },
	{ "[{key: '', operator: Exists, effect: NoSchedule}, " T "]", true },
	{ "[{operator: Exists, effect: NoExecute}, " T "]", false },
	{ "[{operator: Equal, value: windows, effect: NoSchedule}, " T "]",
	  false },
	/* empty effect covers all effects; a set one only itself */
	{ "[{key: os, operator: Equal, value: windows}, " T "]", true },
	{ "[{key: os, operator: Equal, value: windows, effect: NoExecute}, "
	  T "]", false },
	{ "[" T ", {key: os, operator: Equal, value: windows}]", false },
	/* Equal never covers Exists; Exists covers Equal */
	{ "[" T ", {key: os, operator: Exists, effect: NoSchedule}]", false },
	/* NoExecute with tolerationSeconds: t needs a smaller or equal one */
	{ "[{key: os, operator: Exists, effect: NoExecute, "
	  "tolerationSeconds: 60}, {key: os, operator: Exists, "
	  "effect: NoExecute}]", false },
	{ "[{key: os, operator: Exists, effect: NoExecute, "
	  "tolerationSeconds: 60}, {key: os, operator: Exists, "
	  "effect: NoExecute, tolerationSeconds: 30}]", true },
	{ "[{key: os, operator: Exists, effect: NoExecute, "
	  "tolerationSeconds: 60}, {key: os, operator: Exists, "
	  "effect: NoExecute, tolerationSeconds: 90}]", false },
	{ "[{key: os, operator: Exists, effect: NoExecute}, {key: os, "
	  "operator: Exists, effect: NoExecute, tolerationSeconds: 90}]",
	  true },
	/* an empty-effect superset with seconds is not the NoExecute rule */
	{ "[{key: os, operator: Exists, tolerationSeconds: 5}, " T "]", true },
	/* unknown operator: never a superset */
	{ "[{key: os, operator: Gt, value: '1'}, " T "]", false },
	/* not a mapping */
	{ "[x, " T "]", false },
};

START_TEST(test_superset)
{
	ck_assert_msg(superset(cases[_i].pair) == cases[_i].want,
		      "case %d: %s", _i, cases[_i].pair);
}
END_TEST

START_TEST(test_find_superset)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *root, *seq, *t;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in,
		"tols:\n- {key: a, operator: Exists}\n- {operator: Exists}\n"
		"t: " T "\nnone: ~\n", &list), 0);
	root = list.items[0]->root;
	seq = wg_map_get(root, "tols");
	t = wg_map_get(root, "t");
	ck_assert_int_eq(wg_tolerations_find_superset(seq, t), 1);
	ck_assert_int_eq(wg_tolerations_find_superset(wg_map_get(root, "none"),
						      t), -1);
	ck_assert_int_eq(wg_tolerations_find_superset(NULL, t), -1);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

static const struct wg_label win[] = {
	{ "kubernetes.io/os", "windows" },
	{ "beta.kubernetes.io/os", "windows" },
	{ "kubernetes.io/arch", "amd64" },
	{ "node.kubernetes.io/windows-build", "10.0.20348" },
};

#define AFF(terms) "affinity:\n  nodeAffinity:\n" \
	"    requiredDuringSchedulingIgnoredDuringExecution:\n" \
	"      nodeSelectorTerms:\n" terms

#define EXPR(k, op, v) "      - matchExpressions:\n" \
	"        - {key: " k ", operator: " op ", values: " v "}\n"

static const struct {
	const char *spec;
	enum wg_affinity want;
} aff_cases[] = {
	{ "containers: []\n", WG_AFFINITY_NONE },
	{ AFF("        []\n"), WG_AFFINITY_NONE },
	{ AFF(EXPR("kubernetes.io/os", "In", "[linux]")),
	  WG_AFFINITY_EXCLUDES },
	{ AFF(EXPR("kubernetes.io/os", "In", "[linux, windows]")),
	  WG_AFFINITY_ADMITS },
	{ AFF(EXPR("kubernetes.io/os", "NotIn", "[windows]")),
	  WG_AFFINITY_EXCLUDES },
	{ AFF(EXPR("beta.kubernetes.io/os", "NotIn", "[windows]")),
	  WG_AFFINITY_EXCLUDES },
	{ AFF(EXPR("kubernetes.io/os", "NotIn", "[linux]")),
	  WG_AFFINITY_ADMITS },
	{ AFF(EXPR("kubernetes.io/os", "DoesNotExist", "[]")),
	  WG_AFFINITY_EXCLUDES },
	{ AFF(EXPR("kubernetes.io/os", "Exists", "[]")), WG_AFFINITY_ADMITS },
	/* terms are OR'ed: one admitting term is enough */
	{ AFF(EXPR("kubernetes.io/os", "In", "[linux]")
	      EXPR("kubernetes.io/os", "In", "[windows]")),
	  WG_AFFINITY_ADMITS },
	/* expressions are AND'ed */
	{ AFF("      - matchExpressions:\n"
	      "        - {key: kubernetes.io/os, operator: In, "
	      "values: [windows]}\n"
	      "        - {key: kubernetes.io/arch, operator: In, "
	      "values: [arm64]}\n"), WG_AFFINITY_EXCLUDES },
	{ AFF(EXPR("node.kubernetes.io/windows-build", "In",
		   "['10.0.17763']")), WG_AFFINITY_EXCLUDES },
	/* keys the target labels do not name are not judged */
	{ AFF(EXPR("topology.kubernetes.io/zone", "In", "[a]")),
	  WG_AFFINITY_ADMITS },
	/* Gt/Lt need integers on both sides */
	{ AFF(EXPR("kubernetes.io/os", "Gt", "['1']")),
	  WG_AFFINITY_EXCLUDES },
	{ AFF("      - matchFields:\n"
	      "        - {key: metadata.name, operator: In, values: [n1]}\n"),
	  WG_AFFINITY_ADMITS },
	/* an empty term selects no node (nodeaffinity: "nil or empty term
	 * selects no objects"), alone or with matchExpressions: [] */
	{ AFF("      - {}\n"), WG_AFFINITY_EXCLUDES },
	{ AFF("      - matchExpressions: []\n"), WG_AFFINITY_EXCLUDES },
	/* ... and does not stop another term from admitting */
	{ AFF("      - {}\n" EXPR("kubernetes.io/os", "In", "[windows]")),
	  WG_AFFINITY_ADMITS },
};

START_TEST(test_affinity_judge)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *where = NULL;
	enum wg_affinity got;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, aff_cases[_i].spec, &list), 0);
	got = wg_affinity_judge(list.items[0]->root, win, 4, &where);
	ck_assert_msg(got == aff_cases[_i].want, "case %d: got %d", _i,
		      (int)got);
	if (got == WG_AFFINITY_EXCLUDES)
		ck_assert(wg_is_map(where) && (wg_map_get(where, "operator")
					       || !wg_map_get(where, "matchFields")));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(test_affinity_gt)
{
	static const struct wg_label n[] = { { "rank", "5" } };
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in,
		AFF(EXPR("rank", "Gt", "['4']")) "---\n"
		AFF(EXPR("rank", "Lt", "['4']")), &list), 0);
	ck_assert_int_eq(wg_affinity_judge(list.items[0]->root, n, 1, NULL),
			 WG_AFFINITY_ADMITS);
	ck_assert_int_eq(wg_affinity_judge(list.items[1]->root, n, 1, NULL),
			 WG_AFFINITY_EXCLUDES);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(test_affinity_requires_mentions)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node *a, *b, *c, *where = NULL;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in,
		AFF(EXPR("kubernetes.io/os", "In", "[windows]")
		    EXPR("kubernetes.io/os", "In", "[windows, windows]"))
		"---\n"
		AFF(EXPR("kubernetes.io/os", "In", "[windows]")
		    EXPR("kubernetes.io/arch", "In", "[amd64]"))
		"---\n"
		AFF(EXPR("kubernetes.io/os", "In", "[windows, linux]"))
		"---\n"
		AFF(EXPR("node.kubernetes.io/windows-build", "Exists", "[]"))
		"---\n"
		AFF(EXPR("node.kubernetes.io/windows-build", "In", "[]")),
		&list), 0);
	a = list.items[0]->root;
	b = list.items[1]->root;
	c = list.items[2]->root;
	ck_assert(wg_affinity_requires(a, "kubernetes.io/os", "windows"));
	ck_assert(!wg_affinity_requires(b, "kubernetes.io/os", "windows"));
	ck_assert(!wg_affinity_requires(c, "kubernetes.io/os", "windows"));
	ck_assert(!wg_affinity_requires(a, "kubernetes.io/os", "linux"));
	/* value NULL: the label at all (In with values, or Exists) */
	ck_assert(wg_affinity_requires(c, "kubernetes.io/os", NULL));
	ck_assert(!wg_affinity_requires(b, "kubernetes.io/arch", NULL));
	ck_assert(wg_affinity_requires(list.items[3]->root,
				       "node.kubernetes.io/windows-build", NULL));
	ck_assert(!wg_affinity_requires(list.items[4]->root,
					"node.kubernetes.io/windows-build", NULL));
	ck_assert(wg_affinity_mentions(b, "kubernetes.io/arch", &where));
	ck_assert(wg_scalar_is(wg_map_get(where, "key"),
			       "kubernetes.io/arch"));
	ck_assert(!wg_affinity_mentions(c, "beta.kubernetes.io/os", NULL));
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *sched_suite(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_superset, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_find_superset);
	tcase_add_loop_test(tc, test_affinity_judge, 0,
			    sizeof(aff_cases) / sizeof(aff_cases[0]));
	tcase_add_test(tc, test_affinity_gt);
	tcase_add_test(tc, test_affinity_requires_mentions);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(sched_suite)
