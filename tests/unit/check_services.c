/* services: which Services front Windows pods, each rule with and
 * without fixes, backend counts, positions. */
#include "txtest.h"

#define CHAIN "node-selector tolerations runtime-class-name pod-os " \
	      "windows-security linux-pin services"

static void profile(struct tp *tp, bool fix)
{
	tp_init(tp);
	tp_build(tp, "ltsc2019", "amd64");
	tp_select_image(tp, "^mcr\\.microsoft\\.com/windows/");
	tp->svc.fix = fix;
}

#define WIN(name, labels, replicas, image) \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " name "}\n" \
	"spec:\n  replicas: " replicas "\n  selector: {matchLabels: " \
	labels "}\n  template:\n    metadata: {labels: " labels "}\n" \
	"    spec: {containers: [{name: c, image: '" image "'}]}\n---\n"
#define CORE22 "mcr.microsoft.com/windows/servercore:ltsc2022"
#define CORE19 "mcr.microsoft.com/windows/servercore:ltsc2019"
#define SVC(name, spec) \
	"apiVersion: v1\nkind: Service\nmetadata: {name: " name "}\n" \
	"spec:\n  selector: {app: web}\n" spec

/* The warnings about Services (not the profile's unmatched entries). */
static size_t svc_warnings(const struct tr *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ctx.log.ndiags; i++)
		n += r->ctx.log.diags[i].severity == WG_SEV_WARNING
		     && r->ctx.log.diags[i].ref.kind
		     && !strcmp(r->ctx.log.diags[i].ref.kind, "Service");
	return n;
}

START_TEST(test_what_fronts_windows)
{
	struct tp tp;
	struct tr r;

	profile(&tp, false);
	tr_run(&r, &tp,
	       WIN("web", "{app: web}", "1", CORE22)
	       /* a PodTemplate runs no pods */
	       "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: t}\n"
	       "template:\n  metadata: {labels: {app: tmpl}}\n  spec: "
	       "{containers: [{name: c, image: '" CORE22 "'}]}\n---\n"
	       SVC("a", "  loadBalancerSourceRanges: [10.0.0.0/8]\n") "---\n"
	       /* no selector, an empty one, another app, ExternalName */
	       "apiVersion: v1\nkind: Service\nmetadata: {name: b}\nspec:\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       "apiVersion: v1\nkind: Service\nmetadata: {name: c}\nspec:\n"
	       "  selector: {}\n  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       "apiVersion: v1\nkind: Service\nmetadata: {name: d}\nspec:\n"
	       "  selector: {app: tmpl}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       SVC("e", "  type: ExternalName\n  externalName: x.example\n"
		   "  loadBalancerSourceRanges: [10.0.0.0/8]\n") "---\n"
	       /* a Service of another API group is not a Service */
	       "apiVersion: example.com/v1\nkind: Service\nmetadata: "
	       "{name: f}\nspec:\n  selector: {app: web}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n", CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(svc_warnings(&r), 1);
	ck_assert_str_eq(tr_diag(&r, WG_SEV_WARNING, "")->ref.name, "a");
	ck_assert_str_eq(tr_diag(&r, WG_SEV_WARNING, "")->field,
			 "spec.loadBalancerSourceRanges");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* An opted-out workload whose pods target Windows anyway counts as a
 * Windows backend; a selector key missing from the pods does not match. */
START_TEST(test_pods_already_windows)
{
	struct tp tp;
	struct tr r;

	profile(&tp, false);
	tr_run(&r, &tp,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	       "  labels: {app: web}\n  annotations: {wingen.dev/windows: "
	       "'false'}\nspec:\n  nodeSelector: {kubernetes.io/os: windows}\n"
	       "  containers: [{name: c, image: app}]\n---\n"
	       SVC("a", "  sessionAffinityConfig: {clientIP: "
		   "{timeoutSeconds: 30}}\n  sessionAffinity: ClientIP\n")
	       "---\napiVersion: v1\nkind: Service\nmetadata: {name: b}\n"
	       "spec:\n  selector: {app: web, tier: x}\n"
	       "  sessionAffinityConfig: {clientIP: {timeoutSeconds: 30}}\n"
	       "  sessionAffinity: ClientIP\n", CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(svc_warnings(&r), 1);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "is set: the Windows "
				      "kube-proxy has no session-affinity "
				      "timeout; windows.services.fix: true "
				      "removes it (fronts Pod/p)"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_timeout_fix_keeps_siblings)
{
	struct tp tp;
	struct tr r;

	profile(&tp, true);
	tr_run(&r, &tp, WIN("web", "{app: web}", "1", CORE22)
	       SVC("a", "  sessionAffinity: ClientIP\n"
		   "  sessionAffinityConfig:\n    clientIP:\n"
		   "      timeoutSeconds: 30\n      x-other: 1\n"), CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(svc_warnings(&r), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "  sessionAffinityConfig:\n"
				     "    clientIP:\n      x-other: 1\n"));
	ck_assert_ptr_nonnull(tr_change(&r, "spec.sessionAffinityConfig."
					"clientIP.timeoutSeconds"));
	ck_assert_ptr_null(tr_change(&r, "spec.sessionAffinityConfig"));
	ck_assert_str_eq(tr_change(&r, "spec.sessionAffinityConfig.clientIP."
				   "timeoutSeconds")->plugin, "services");
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_client_ip_builds)
{
	struct tp tp;
	struct tr r;

	profile(&tp, true);
	tr_run(&r, &tp, WIN("old", "{app: web, v: a}", "1", CORE19)
	       WIN("new", "{app: web, v: b}", "1", CORE22)
	       SVC("a", "  sessionAffinity: ClientIP\n"), CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "is 'ClientIP': "
				      "ClientIP session affinity needs Windows"
				      " Server 2022 or later, but these pods "
				      "run on an older build: Deployment/old "
				      "(ltsc2019); no safe fix"));
	ck_assert_ptr_null(tr_change(&r, "spec.sessionAffinity"));
	ck_assert_uint_eq(tr_diag(&r, WG_SEV_WARNING, "ClientIP")->line, 26);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_local_and_dsr)
{
	struct tp tp;
	struct tr r;

	profile(&tp, true);
	tp.svc.dsr = true;
	tr_run(&r, &tp, WIN("web", "{app: web}", "1", CORE22)
	       SVC("a", "  type: NodePort\n  externalTrafficPolicy: Local\n"),
	       CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_uint_eq(r.ctx.log.ndiags, 0);
	ck_assert_ptr_null(tr_change(&r, "spec.externalTrafficPolicy"));
	tr_free(&r);
	tp.svc.dsr = false;
	tr_run(&r, &tp, WIN("web", "{app: web}", "1", CORE22)
	       SVC("a", "  type: NodePort\n  externalTrafficPolicy: Local\n"),
	       CHAIN);
	ck_assert_ptr_nonnull(strstr(r.out, "externalTrafficPolicy: Cluster"));
	ck_assert_str_eq(tr_change(&r, "spec.externalTrafficPolicy")->old_value,
			 "Local");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_families)
{
	struct tp tp;
	struct tr r;

	profile(&tp, true);
	/* a secondary IPv6 cluster IP goes with the fix */
	tr_run(&r, &tp, WIN("web", "{app: web}", "1", CORE22)
	       SVC("a", "  ipFamilyPolicy: RequireDualStack\n"
		   "  clusterIPs: [10.96.0.10, 'fd00::10']\n") "---\n"
	       /* a primary IPv6 cluster IP: no fix */
	       SVC("b", "  ipFamilyPolicy: PreferDualStack\n"
		   "  clusterIP: 'fd00::11'\n"), CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "  ipFamilyPolicy: SingleStack\n"
				     "  ipFamilies: [IPv4]\n"
				     "  clusterIPs: [10.96.0.10]\n"));
	ck_assert_ptr_nonnull(tr_change(&r, "spec.clusterIPs[1]"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "is 'PreferDualStack'"
				      ": Windows has no dual-stack networking "
				      "on overlay networks (windows.network."
				      "mode: overlay); no fix: its cluster IP "
				      "is IPv6"));
	ck_assert_uint_eq(svc_warnings(&r), 1);
	tr_assert_idempotent(&tp, r.out, CHAIN);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* Fixes change what Linux pods get too: none on mixed Services. */
START_TEST(test_mixed_not_fixed)
{
	struct tp tp;
	struct tr r;

	profile(&tp, true);
	tr_run(&r, &tp, WIN("web", "{app: web, os: w}", "1", CORE22)
	       WIN("lin", "{app: web, os: l}", "1", "nginx")
	       SVC("a", "  ipFamilies: [IPv6]\n"
		   "  sessionAffinityConfig: {clientIP: {timeoutSeconds: 9}}\n"
		   "  sessionAffinity: ClientIP\n"), CHAIN);
	ck_assert_ptr_nonnull(r.out);
	ck_assert_ptr_null(tr_change(&r, "spec.ipFamilies"));
	ck_assert_ptr_null(tr_change(&r, "spec.sessionAffinityConfig.clientIP."
				     "timeoutSeconds"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "is IPv6 only: "
				      "Windows has no single-stack IPv6; not "
				      "fixed: the Service also fronts Linux "
				      "pods (fronts Deployment/web)"));
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "selects Linux pods "
				      "(Deployment/lin) and Windows pods "
				      "(Deployment/web)"));
	ck_assert_uint_eq(svc_warnings(&r), 3);
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

/* A Service matches pods with every label of its selector, whichever of
 * them is looked up first (the one with the fewest candidates). */
START_TEST(test_every_selector_label_counts)
{
	struct tp tp;
	struct tr r;
	const struct wg_diag *d;

	profile(&tp, false);
	tr_run(&r, &tp, WIN("w1", "{app: web, inst: one}", "1", CORE22)
	       WIN("w2", "{app: web, inst: two}", "1", "nginx")
	       "apiVersion: v1\nkind: Service\nmetadata: {name: s1}\nspec:\n"
	       "  selector: {app: web, inst: one}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       "apiVersion: v1\nkind: Service\nmetadata: {name: s2}\nspec:\n"
	       "  selector: {inst: two, app: web}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       "apiVersion: v1\nkind: Service\nmetadata: {name: s3}\nspec:\n"
	       "  selector: {app: web}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       "apiVersion: v1\nkind: Service\nmetadata: {name: s4}\nspec:\n"
	       "  selector: {app: web, inst: three}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n---\n"
	       /* each label has candidates, no pod has both */
	       WIN("w3", "{app: api, tier: front}", "1", CORE22)
	       WIN("w4", "{app: api2, tier: front}", "1", "nginx")
	       "apiVersion: v1\nkind: Service\nmetadata: {name: s5}\nspec:\n"
	       "  selector: {app: web, tier: front}\n"
	       "  loadBalancerSourceRanges: [10.0.0.0/8]\n", CHAIN);
	ck_assert_ptr_nonnull(r.out);
	/* s1: Windows only; s2: Linux only; s3: both; s4, s5: nothing */
	ck_assert_uint_eq(svc_warnings(&r), 3);
	d = tr_diag(&r, WG_SEV_WARNING, "selects Linux pods (Deployment/w2) "
		    "and Windows pods (Deployment/w1)");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->ref.name, "s3");
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

START_TEST(test_backend_counts)
{
	struct tp tp;
	struct tr r;

	profile(&tp, false);
	tr_run(&r, &tp,
	       /* 30 + a CronJob's parallelism 20 + a Pod + 14 = 65 */
	       WIN("a", "{app: web}", "30", CORE22)
	       "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\n"
	       "spec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n"
	       "      parallelism: 20\n      template:\n"
	       "        metadata: {labels: {app: web}}\n"
	       "        spec: {containers: [{name: c, image: '" CORE22 "'}]}\n"
	       "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: "
	       "{app: web}}\nspec: {containers: [{name: c, image: '" CORE22
	       "'}]}\n---\n"
	       WIN("b", "{app: web}", "14", CORE22)
	       SVC("s", ""), CHAIN);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_WARNING, "selects 65 backend "
				      "pods (Deployment/a 30, CronJob/c 20, "
				      "Pod/p 1 and 1 more): the Windows "
				      "kube-proxy supports at most 64"));
	tr_free(&r);
	/* 64 is fine; a count that is not a number is unknown */
	tr_run(&r, &tp, WIN("a", "{app: web}", "64", CORE22)
	       WIN("b", "{app: web}", "'{{ .Values.n }}'", CORE22)
	       SVC("s", ""), CHAIN);
	ck_assert_uint_eq(svc_warnings(&r), 0);
	ck_assert_ptr_nonnull(tr_diag(&r, WG_SEV_INFO, "selects an unknown "
				      "number of backend pods (Deployment/a "
				      "64, Deployment/b not a number): the "
				      "Windows kube-proxy supports at most 64 "
				      "backend pods per Service"));
	tr_free(&r);
	tp_release(&tp);
}
END_TEST

static Suite *services_suite(void)
{
	Suite *s = suite_create("services");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_what_fronts_windows);
	tcase_add_test(tc, test_every_selector_label_counts);
	tcase_add_test(tc, test_pods_already_windows);
	tcase_add_test(tc, test_timeout_fix_keeps_siblings);
	tcase_add_test(tc, test_client_ip_builds);
	tcase_add_test(tc, test_local_and_dsr);
	tcase_add_test(tc, test_families);
	tcase_add_test(tc, test_mixed_not_fixed);
	tcase_add_test(tc, test_backend_counts);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(services_suite)
