/*
 * The stream held against the cluster's nodes (core/placement.h): the
 * rules the golden cases check --nodes do not reach one by one.
 */
#include <string.h>

#include "testutil.h"
#include "wingen/core/placement.h"
#include "wingen/profile/profile.h"

static struct wg_ctx ctx;
static struct wg_input nodes_in, stream_in;
static struct wg_resources nlist, slist;
static struct wg_cluster cluster;
static struct wg_profile profile;

static void setup(void)
{
	wg_ctx_init(&ctx);
	wg_resources_init(&nlist);
	wg_resources_init(&slist);
	wg_cluster_init(&cluster);
	memset(&nodes_in, 0, sizeof(nodes_in));
	memset(&stream_in, 0, sizeof(stream_in));
	/* one ltsc2022 amd64 build, os=windows:NoSchedule (a profile of the
	 * user's: the embedded default asks for nodes only for the builds a
	 * stream uses) */
	static const char text[] =
		"apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"
		"windows:\n  builds: [{release: ltsc2022}]\n";

	ck_assert_int_eq(wg_profile_load_data(&ctx, "p.yaml", text,
					      sizeof(text) - 1, NULL,
					      &profile), 0);
}

static void teardown(void)
{
	wg_profile_release(&profile);
	wg_cluster_release(&cluster);
	wg_resources_release(&nlist);
	wg_resources_release(&slist);
	wg_input_release(&nodes_in);
	wg_input_release(&stream_in);
	wg_ctx_release(&ctx);
}

#define NODE(name, labels, rest)					\
	"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " name	\
	"\n  labels: " labels "\n" rest
#define WIN22 "{kubernetes.io/os: windows, kubernetes.io/arch: amd64, " \
	"node.kubernetes.io/windows-build: '10.0.20348'}"
#define LINUX "{kubernetes.io/os: linux, kubernetes.io/arch: amd64}"
#define TAINT(t) "spec:\n  taints: [" t "]\n"
#define OS_TAINT "{key: os, value: windows, effect: NoSchedule}"

/* A pod named name with spec (a flow mapping's insides). */
#define POD(name, spec)							\
	"---\napiVersion: v1\nkind: Pod\nmetadata: {name: " name "}\n"	\
	"spec: {containers: [{name: c, image: i}], " spec "}\n"
#define DAEMONSET(name, spec)						\
	"---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: "	\
	name "}\nspec:\n  selector: {matchLabels: {a: b}}\n"		\
	"  template:\n    metadata: {labels: {a: b}}\n"			\
	"    spec: {containers: [{name: c, image: i}], " spec "}\n"
/* The profile's RuntimeClass, as generated. */
#define RC22								\
	"---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"		\
	"metadata: {name: windows-ltsc2022}\nhandler: runhcs-wcow-process\n" \
	"scheduling:\n  nodeSelector: " WIN22 "\n  tolerations: ["	\
	"{key: os, operator: Equal, value: windows, effect: NoSchedule}]\n"

/* The Windows node every cluster below has: the default profile's build
 * has a node, so the errors counted are the pods'. */
#define W22 NODE("w", WIN22, TAINT(OS_TAINT))

/* Reads nodes and stream, runs the check; its error count. */
static size_t run(const char *nodes, const char *stream)
{
	struct wg_placement pl = { &profile, &cluster, &slist, NULL };

	ck_assert_int_eq(t_read(&ctx, &nodes_in, nodes, &nlist), 0);
	ck_assert_int_eq(wg_cluster_read(&ctx, &cluster, &nlist, "n.yaml"), 0);
	ck_assert_int_eq(t_read(&ctx, &stream_in, stream, &slist), 0);
	return wg_placement_check(&ctx, &pl);
}

/* The message of the first diagnostic of severity sev, or "". */
static const char *message(enum wg_severity sev)
{
	for (size_t i = 0; i < ctx.log.ndiags; i++)
		if (ctx.log.diags[i].severity == sev)
			return ctx.log.diags[i].message;
	return "";
}

/* The message of the first diagnostic about the object named name. */
static const char *about(const char *name)
{
	for (size_t i = 0; i < ctx.log.ndiags; i++)
		if (ctx.log.diags[i].ref.name
		    && strcmp(ctx.log.diags[i].ref.name, name) == 0)
			return ctx.log.diags[i].message;
	return "";
}

START_TEST(fits)
{
	ck_assert_uint_eq(run(NODE("w", WIN22, TAINT(OS_TAINT))
			      NODE("l", LINUX, ""),
			      RC22 POD("win", "runtimeClassName: "
				       "windows-ltsc2022")
			      POD("lin", "nodeSelector: {kubernetes.io/os: "
				  "linux}")), 0);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
}
END_TEST

START_TEST(state_taints_and_soft_taints_do_not_count)
{
	/* a node that is not ready, cordoned, or only steers pods away */
	ck_assert_uint_eq(run(W22 NODE("l", LINUX, TAINT(
			"{key: node.kubernetes.io/not-ready, effect: NoExecute}, "
			"{key: node.kubernetes.io/unschedulable, effect: "
			"NoSchedule}, {key: spot, effect: PreferNoSchedule}")),
			POD("p", "nodeSelector: {kubernetes.io/os: linux}")),
			  0);
}
END_TEST

START_TEST(a_taint_in_the_way)
{
	ck_assert_uint_eq(run(W22 NODE("l", LINUX, TAINT(
			"{key: gpu, value: 'true', effect: NoExecute}")),
			POD("p", "nodeSelector: {kubernetes.io/os: linux}")),
			  1);
	ck_assert_str_eq(message(WG_SEV_ERROR), "cannot be placed: every "
			 "node it fits has a taint it does not tolerate: "
			 "gpu=true:NoExecute on 1 node");
}
END_TEST

START_TEST(exists_with_no_key_tolerates_every_taint)
{
	ck_assert_uint_eq(run(W22 NODE("l", LINUX, TAINT(
			"{key: gpu, value: 'true', effect: NoExecute}")),
			POD("p", "nodeSelector: {kubernetes.io/os: linux}, "
			    "tolerations: [{operator: Exists}]")), 0);
}
END_TEST

START_TEST(spec_os_name_is_a_requirement)
{
	/* no nodeSelector: the kubelet still refuses a Windows pod on a
	 * Linux node */
	ck_assert_uint_eq(run(NODE("l", LINUX, ""),
			      POD("p", "os: {name: windows}")), 2);
	ck_assert_str_eq(about("p"), "cannot be placed: no node "
			 "has kubernetes.io/os=windows (the label comes from "
			 "spec.os.name); the nodes have kubernetes.io/os=linux");
}
END_TEST

START_TEST(the_runtime_class_selects_too)
{
	/* the pod says nothing; its RuntimeClass wants a 2022 node */
	ck_assert_uint_eq(run(NODE("l", LINUX, ""),
			      POD("p", "runtimeClassName: windows-ltsc2022")
			      RC22), 2);
	/* the build's error says it for the RuntimeClass made from it:
	 * one of the same name is not told again */
	ck_assert_ptr_nonnull(strstr(message(WG_SEV_ERROR), "has no node"));
}
END_TEST

START_TEST(an_unknown_runtime_class_is_a_warning_once)
{
	ck_assert_uint_eq(run(W22 NODE("l", LINUX, ""),
			      POD("a", "runtimeClassName: gvisor")
			      POD("b", "runtimeClassName: gvisor")), 0);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_ptr_nonnull(strstr(message(WG_SEV_WARNING), "'gvisor'"));
}
END_TEST

START_TEST(node_name_bypasses_the_scheduler)
{
	ck_assert_uint_eq(run(NODE("w", WIN22, TAINT(OS_TAINT)),
			      POD("p", "nodeName: w, nodeSelector: "
				  "{kubernetes.io/os: linux}")), 0);
}
END_TEST

START_TEST(affinity_fields_and_expressions)
{
	ck_assert_uint_eq(run(NODE("l1", LINUX, "") NODE("l2", LINUX, "")
			      NODE("w", WIN22, TAINT(OS_TAINT)),
		POD("by-name", "affinity: {nodeAffinity: "
		    "{requiredDuringSchedulingIgnoredDuringExecution: "
		    "{nodeSelectorTerms: [{matchFields: [{key: "
		    "metadata.name, operator: In, values: [l2]}]}]}}}")
		POD("nowhere", "nodeSelector: {kubernetes.io/os: linux}, "
		    "affinity: {nodeAffinity: "
		    "{requiredDuringSchedulingIgnoredDuringExecution: "
		    "{nodeSelectorTerms: [{matchExpressions: [{key: zone, "
		    "operator: Exists}]}]}}}")), 1);
	ck_assert_str_eq(message(WG_SEV_ERROR), "cannot be placed: of the 2 "
			 "nodes its node selector fits, none matches its "
			 "required node affinity");
}
END_TEST

START_TEST(a_node_agent_on_no_node_is_a_warning)
{
	ck_assert_uint_eq(run(NODE("w", WIN22, TAINT(OS_TAINT)),
			      DAEMONSET("gpu", "nodeSelector: {gpu: 'true'}")),
			  0);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_ptr_nonnull(strstr(message(WG_SEV_WARNING),
				     "runs on no node: no node has gpu=true"));
}
END_TEST

START_TEST(a_runtime_class_without_scheduling_places_nothing)
{
	ck_assert_uint_eq(run(NODE("w", WIN22, TAINT(OS_TAINT)),
			      "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
			      "metadata: {name: kata}\nhandler: kata\n"), 0);
}
END_TEST

static Suite *placement_suite(void)
{
	Suite *s = suite_create("placement");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fits);
	tcase_add_test(tc, state_taints_and_soft_taints_do_not_count);
	tcase_add_test(tc, a_taint_in_the_way);
	tcase_add_test(tc, exists_with_no_key_tolerates_every_taint);
	tcase_add_test(tc, spec_os_name_is_a_requirement);
	tcase_add_test(tc, the_runtime_class_selects_too);
	tcase_add_test(tc, an_unknown_runtime_class_is_a_warning_once);
	tcase_add_test(tc, node_name_bypasses_the_scheduler);
	tcase_add_test(tc, affinity_fields_and_expressions);
	tcase_add_test(tc, a_node_agent_on_no_node_is_a_warning);
	tcase_add_test(tc, a_runtime_class_without_scheduling_places_nothing);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(placement_suite)
