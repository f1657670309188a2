/*
 * The cluster's nodes: reading Node objects (k8s/nodes.c), placing pods
 * on them, and the profile written from them (profile/init.h).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/nodes.h"
#include "wingen/profile/init.h"
#include "wingen/profile/profile.h"

static struct wg_ctx ctx;
static struct wg_input in;
static struct wg_resources list;
static struct wg_cluster cluster;

static void setup(void)
{
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	wg_cluster_init(&cluster);
	memset(&in, 0, sizeof(in));
}

static void teardown(void)
{
	wg_cluster_release(&cluster);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}

/* Reads text as nodes; the status of wg_cluster_read(). */
static int nodes(const char *text)
{
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	return wg_cluster_read(&ctx, &cluster, &list, "nodes.yaml");
}

#define NODE(name, labels, rest)					\
	"- apiVersion: v1\n  kind: Node\n  metadata:\n    name: " name	\
	"\n    labels: " labels "\n" rest
#define LIST(items) "apiVersion: v1\nkind: List\nitems:\n" items
#define WIN22 "{kubernetes.io/os: windows, kubernetes.io/arch: amd64, " \
	"node.kubernetes.io/windows-build: '10.0.20348'}"
#define TAINTED "  spec:\n    taints: [{key: os, value: windows, " \
	"effect: NoSchedule}]\n"

/* ---- reading ------------------------------------------------------------- */

START_TEST(reads_what_the_kubelet_reports)
{
	ck_assert_int_eq(nodes(LIST(
		NODE("w0", WIN22, TAINTED
		     "  status:\n    nodeInfo: {containerRuntimeVersion: "
		     "'containerd://1.7.20', kernelVersion: 10.0.20348.2849}\n")
		NODE("w1", "{kubernetes.io/os: windows, agentpool: npwin}",
		     "  status:\n    nodeInfo: {architecture: arm64, "
		     "kernelVersion: 10.0.26100.2314, "
		     "containerRuntimeVersion: 'docker://20.10.9'}\n")
		NODE("w2", "{eks.amazonaws.com/nodegroup: ng}",
		     "  status:\n    nodeInfo: {operatingSystem: windows, "
		     "architecture: amd64, osImage: Windows Server 2019 "
		     "Datacenter}\n")
		NODE("l0", "{kubernetes.io/os: linux}", ""))), 0);
	ck_assert_uint_eq(cluster.len, 4);

	ck_assert_str_eq(cluster.nodes[0].name, "w0");
	ck_assert_str_eq(cluster.nodes[0].os, "windows");
	ck_assert_str_eq(cluster.nodes[0].arch, "amd64");
	ck_assert_str_eq(cluster.nodes[0].build, "10.0.20348");
	ck_assert_int_eq(cluster.nodes[0].build_from, WG_BUILD_LABEL);
	ck_assert_str_eq(cluster.nodes[0].release->name, "ltsc2022");
	ck_assert_str_eq(cluster.nodes[0].runtime->handler,
			 "runhcs-wcow-process");
	ck_assert_ptr_null(cluster.nodes[0].pool);
	ck_assert_uint_eq(cluster.nodes[0].taints->len, 1);

	/* no build label: the kernel version, its revision cut off */
	ck_assert_str_eq(cluster.nodes[1].build, "10.0.26100");
	ck_assert_int_eq(cluster.nodes[1].build_from, WG_BUILD_KERNEL);
	ck_assert_str_eq(cluster.nodes[1].arch, "arm64");
	ck_assert_str_eq(cluster.nodes[1].runtime->handler, "docker");
	ck_assert_ptr_nonnull(cluster.nodes[1].runtime->removed);
	ck_assert_str_eq(cluster.nodes[1].pool, "npwin");

	/* no labels at all: nodeInfo for the OS, the image for the build */
	ck_assert_str_eq(cluster.nodes[2].os, "windows");
	ck_assert_str_eq(cluster.nodes[2].build, "10.0.17763");
	ck_assert_int_eq(cluster.nodes[2].build_from, WG_BUILD_OS_IMAGE);
	ck_assert_str_eq(cluster.nodes[2].pool, "ng");
	ck_assert_ptr_null(cluster.nodes[2].runtime);

	ck_assert_str_eq(cluster.nodes[3].os, "linux");
	ck_assert_ptr_null(cluster.nodes[3].build);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
}
END_TEST

START_TEST(a_bad_build_label_is_a_warning)
{
	ck_assert_int_eq(nodes(LIST(NODE("w", "{kubernetes.io/os: windows, "
		"node.kubernetes.io/windows-build: '2022'}", ""))), 0);
	ck_assert_ptr_null(cluster.nodes[0].build);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "'2022' is not "
				     "a Windows build number"));
	ck_assert_uint_eq(ctx.log.diags[0].line, 8);	/* the label */
}
END_TEST

START_TEST(not_nodes_are_errors_counted_once)
{
	ck_assert_int_eq(nodes("apiVersion: v1\nkind: Pod\nmetadata: {name: a}"
			       "\n---\napiVersion: v1\nkind: Pod\nmetadata: "
			       "{name: b}\n---\napiVersion: example.com/v1\n"
			       "kind: Node\nmetadata: {name: c}\n"), -1);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 1);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "not a v1 Node"));
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "(and 2 more "
				     "objects that are not Nodes)"));
	ck_assert_uint_eq(ctx.log.diags[0].line, 1);
}
END_TEST

START_TEST(malformed_nodes_are_positioned_errors)
{
	ck_assert_int_eq(nodes(LIST(
		NODE("a", "[windows]", "")
		NODE("b", "{x: {y: z}}", "")
		NODE("c", "{}", "  spec: {taints: [{key: os}]}\n")
		NODE("d", "{}", "  spec: {taints: os}\n"))), -1);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 4);
	ck_assert_uint_eq(cluster.len, 0);
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[0].message, "expected a "
				     "mapping of label keys"));
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[1].message, "label 'x': "
				     "expected a string"));
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[2].message, "taint 0: "
				     "expected a mapping with key and effect"));
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[3].message, "expected a "
				     "list of taints"));
	ck_assert_uint_eq(ctx.log.diags[1].line, 13);	/* its value */
}
END_TEST

START_TEST(an_empty_input_is_an_error)
{
	ck_assert_int_eq(nodes("# nothing\n"), -1);
	ck_assert_str_eq(ctx.log.diags[0].file, "nodes.yaml");
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "no Node"));
}
END_TEST

START_TEST(runtimes_by_scheme)
{
	ck_assert_str_eq(wg_runtime_of("containerd://2.0.0")->handler,
			 "runhcs-wcow-process");
	ck_assert_str_eq(wg_runtime_of("docker://19.3.14")->handler,
			 "docker");
	ck_assert_ptr_null(wg_runtime_of("cri-o://1.30"));
	ck_assert_ptr_null(wg_runtime_of("containerd"));
	ck_assert_ptr_null(wg_runtime_of("containerd:/1.7"));
	ck_assert_ptr_null(wg_runtime_of(NULL));
}
END_TEST

/* ---- taints and placing -------------------------------------------------- */

/* The items of the flow sequence text, parsed into list. */
static const struct wg_node *seq(const char *text)
{
	const struct wg_node *s;

	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	s = list.items[0]->root;
	ck_assert(wg_is_seq(s));
	return s;
}

START_TEST(toleration_rules)
{
	/* [taint, toleration, want (a scalar)] triples */
	const struct wg_node *s = seq(
		"[[{key: os, value: windows, effect: NoSchedule},"
		"  {key: os, operator: Equal, value: windows}, y],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {key: os, value: linux}, n],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {key: os, operator: Exists, effect: NoSchedule}, y],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {key: os, operator: Exists, effect: NoExecute}, n],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {operator: Exists}, y],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {key: node.kubernetes.io/os, operator: Exists}, n],"
		" [{key: dedicated, effect: NoSchedule},"
		"  {key: dedicated, operator: Exists}, y],"
		" [{key: dedicated, effect: NoSchedule},"
		"  {key: dedicated}, y],"
		" [{key: os, value: windows, effect: NoSchedule},"
		"  {key: os, operator: Gt, value: windows}, n]]");

	for (size_t i = 0; i < s->len; i++) {
		const struct wg_node *c = wg_seq_item(s, i);

		ck_assert_msg(wg_toleration_tolerates(wg_seq_item(c, 1),
						      wg_seq_item(c, 0))
			      == wg_scalar_is(wg_seq_item(c, 2), "y"),
			      "case %zu", i);
	}
}
END_TEST

START_TEST(taint_kinds)
{
	const struct wg_node *s = seq(
		"[{key: os, value: windows, effect: NoSchedule},"
		" {key: os, value: windows, effect: PreferNoSchedule},"
		" {key: node.kubernetes.io/not-ready, effect: NoExecute},"
		" {key: gpu, effect: NoExecute}]");
	struct wg_arena a = WG_ARENA_INIT;

	ck_assert(wg_taint_repels(wg_seq_item(s, 0)));
	ck_assert(!wg_taint_repels(wg_seq_item(s, 1)));
	ck_assert(wg_taint_is_condition(wg_seq_item(s, 2)));
	ck_assert(!wg_taint_is_condition(wg_seq_item(s, 0)));
	ck_assert_str_eq(wg_taint_text(&a, wg_seq_item(s, 0)),
			 "os=windows:NoSchedule");
	ck_assert_str_eq(wg_taint_text(&a, wg_seq_item(s, 3)),
			 "gpu:NoExecute");
	wg_arena_release(&a);
}
END_TEST

/* A pod spec (flow YAML) against node 0 of the nodes read. */
static bool admits(const char *spec_text, const struct wg_label *sel,
		   size_t nsel)
{
	struct wg_input in2;
	struct wg_resources l2;
	struct wg_pod_needs needs = { sel, nsel, NULL, NULL, 0 };
	const struct wg_node *spec, *tols, *items[8];
	bool r;

	wg_resources_init(&l2);
	ck_assert_int_eq(t_read(&ctx, &in2, spec_text, &l2), 0);
	spec = l2.items[0]->root;
	tols = wg_map_get(spec, "tolerations");
	for (size_t i = 0; wg_is_seq(tols) && i < tols->len && i < 8; i++)
		items[needs.ntolerations++] = wg_seq_item(tols, i);
	needs.spec = spec;
	needs.tolerations = items;
	r = wg_node_admits(&cluster.nodes[0], &needs);
	wg_resources_release(&l2);
	wg_input_release(&in2);
	return r;
}

#define REQ(terms)							\
	"{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuring" \
	"Execution: {nodeSelectorTerms: " terms "}}}, tolerations: "	\
	"[{operator: Exists}]}"

START_TEST(placing_a_pod)
{
	static const struct wg_label win[] = {
		{ "kubernetes.io/os", "windows" },
		{ "node.kubernetes.io/windows-build", "10.0.20348" },
	};
	static const struct wg_label old[] = {
		{ "node.kubernetes.io/windows-build", "10.0.17763" },
	};

	ck_assert_int_eq(nodes(LIST(NODE("w0", WIN22, TAINTED))), 0);
	/* labels */
	ck_assert(admits(REQ("[{matchExpressions: [{key: a, operator: "
			     "DoesNotExist}]}]"), win, 2));
	ck_assert(!admits(REQ("[{matchExpressions: [{key: a, operator: "
			      "DoesNotExist}]}]"), old, 1));
	/* the taint: only with a toleration */
	ck_assert(!admits("{}", win, 2));
	ck_assert(admits("{tolerations: [{key: os, operator: Equal, value: "
			 "windows, effect: NoSchedule}]}", win, 2));
	ck_assert(!admits("{tolerations: [{key: os, operator: Equal, value: "
			  "Windows, effect: NoSchedule}]}", win, 2));
	/* required affinity, with every label of the node known */
	ck_assert(admits(REQ("[{matchExpressions: [{key: kubernetes.io/arch, "
			     "operator: In, values: [arm64]}]}, "
			     "{matchExpressions: [{key: kubernetes.io/os, "
			     "operator: In, values: [windows]}]}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchExpressions: [{key: kubernetes.io/arch, "
			      "operator: In, values: [arm64]}]}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchExpressions: [{key: gpu, operator: "
			      "Exists}]}]"), NULL, 0));
	ck_assert(admits(REQ("[{matchExpressions: [{key: gpu, operator: "
			     "NotIn, values: [a]}]}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchExpressions: [{key: kubernetes.io/os, "
			      "operator: NotIn, values: [windows]}]}]"),
			  NULL, 0));
	/* an empty term selects no node; matchFields on the name */
	ck_assert(!admits(REQ("[{}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchExpressions: []}]"), NULL, 0));
	ck_assert(admits(REQ("[{matchFields: [{key: metadata.name, operator: "
			     "In, values: [w0]}]}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchFields: [{key: metadata.name, operator: "
			      "NotIn, values: [w0]}]}]"), NULL, 0));
	/* Gt and Lt compare integers: a build number is not one */
	ck_assert(admits(REQ("[{matchExpressions: [{key: node.kubernetes.io/"
			     "windows-build, operator: Exists}]}]"), NULL, 0));
	ck_assert(!admits(REQ("[{matchExpressions: [{key: node.kubernetes.io/"
			      "windows-build, operator: Gt, values: ['1']}]}]"),
			  NULL, 0));
}
END_TEST

/* ---- the profile written ------------------------------------------------- */

/* wg_profile_init() of the nodes read, loaded back as a profile. */
static char *init_and_load(struct wg_profile *p)
{
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx lctx;
	char *text;

	ck_assert_int_eq(wg_profile_init(&ctx, &cluster, "nodes.yaml", &out),
			 0);
	text = wg_buf_detach(&out, NULL);
	wg_ctx_init(&lctx);
	ck_assert_msg(wg_profile_load_data(&lctx, "profile.yaml", text,
					   strlen(text), NULL, p) == 0,
		      "%s\n%s", t_first_message(&lctx), text);
	wg_ctx_release(&lctx);
	return text;
}

START_TEST(profile_groups_builds_and_picks_the_default)
{
	struct wg_profile p;
	char *text;

	ck_assert_int_eq(nodes(LIST(
		NODE("a", "{kubernetes.io/os: windows, kubernetes.io/arch: "
		     "amd64, node.kubernetes.io/windows-build: '10.0.17763'}",
		     TAINTED)
		NODE("b", WIN22, TAINTED)
		NODE("c", WIN22, TAINTED)
		NODE("d", "{kubernetes.io/os: windows, kubernetes.io/arch: "
		     "arm64, node.kubernetes.io/windows-build: '10.0.26100'}",
		     TAINTED)
		NODE("e", "{kubernetes.io/os: windows, kubernetes.io/arch: "
		     "arm64, node.kubernetes.io/windows-build: '10.0.26100'}",
		     TAINTED)
		NODE("l", "{kubernetes.io/os: linux}", ""))), 0);
	text = init_and_load(&p);
	ck_assert_uint_eq(p.nbuilds, 3);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2019");
	ck_assert_str_eq(p.builds[1].release->name, "ltsc2022");
	ck_assert_str_eq(p.builds[2].release->name, "ltsc2025");
	ck_assert_str_eq(p.builds[2].arch, "arm64");
	ck_assert_str_eq(p.builds[2].runtime_class, "windows-ltsc2025-arm64");
	/* 2022 and 2025 have two nodes each: the newer wins the tie */
	ck_assert_ptr_eq(p.default_build, &p.builds[2]);
	ck_assert_str_eq(p.taint.key, "os");
	ck_assert_str_eq(p.taint.value, "windows");
	ck_assert_ptr_nonnull(strstr(text, "from 6 nodes: 5 Windows in 3 "
				     "builds, 1 Linux"));
	ck_assert_ptr_nonnull(strstr(text, "# ltsc2022 (10.0.20348) on amd64: "
				     "2 nodes, b and c\n"));
	/* no runtime reported: the default handler, with a warning */
	ck_assert_str_eq(p.builds[0].handler, "runhcs-wcow-process");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 3);
	wg_profile_release(&p);
	free(text);
}
END_TEST

START_TEST(profile_taints_that_differ)
{
	struct wg_profile p;
	char *text;

	ck_assert_int_eq(nodes(LIST(
		NODE("a", WIN22, TAINTED
		     "  status: {nodeInfo: {containerRuntimeVersion: "
		     "'containerd://1.7'}}\n")
		NODE("b", WIN22, "  spec:\n    taints: [{key: os, value: "
		     "windows, effect: NoSchedule}, {key: node.kubernetes.io/"
		     "unreachable, effect: NoExecute}]\n  status: {nodeInfo: "
		     "{containerRuntimeVersion: 'containerd://1.7'}}\n")
		NODE("c", WIN22, "  spec:\n    taints: [{key: gpu, effect: "
		     "NoSchedule}]\n  status: {nodeInfo: "
		     "{containerRuntimeVersion: 'containerd://1.7'}}\n"))), 0);
	text = init_and_load(&p);
	ck_assert_str_eq(p.taint.key, "os");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_ptr_nonnull(strstr(t_first_message(&ctx), "tolerates "
				     "os=windows:NoSchedule, which 2 of the 3 "
				     "carry; 1 has another taint instead "
				     "(gpu:NoSchedule)"));
	wg_profile_release(&p);
	free(text);
}
END_TEST

START_TEST(profile_without_windows_nodes_fails)
{
	struct wg_buf out = WG_BUF_INIT;

	ck_assert_int_eq(nodes(LIST(NODE("l", "{kubernetes.io/os: linux}", "")
				    NODE("x", "{}", ""))), 0);
	ck_assert_int_eq(wg_profile_init(&ctx, &cluster, "nodes.yaml", &out),
			 -1);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[ctx.log.ndiags - 1].message,
				     "no Windows node among the 2 nodes (1 "
				     "Linux, 1 of another or no operating "
				     "system)"));
	wg_buf_release(&out);
}
END_TEST

static Suite *nodes_suite(void)
{
	Suite *s = suite_create("nodes");
	TCase *tc = tcase_create("nodes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, reads_what_the_kubelet_reports);
	tcase_add_test(tc, a_bad_build_label_is_a_warning);
	tcase_add_test(tc, not_nodes_are_errors_counted_once);
	tcase_add_test(tc, malformed_nodes_are_positioned_errors);
	tcase_add_test(tc, an_empty_input_is_an_error);
	tcase_add_test(tc, runtimes_by_scheme);
	tcase_add_test(tc, toleration_rules);
	tcase_add_test(tc, taint_kinds);
	tcase_add_test(tc, placing_a_pod);
	tcase_add_test(tc, profile_groups_builds_and_picks_the_default);
	tcase_add_test(tc, profile_taints_that_differ);
	tcase_add_test(tc, profile_without_windows_nodes_fails);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(nodes_suite)
