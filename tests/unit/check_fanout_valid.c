/*
 * What fan-out and the Services check write is what the API server
 * accepts: every expected output of the fan-* and svc-* golden cases goes
 * through Kubernetes' rules (k8svalid.h for pod specs, the RuntimeClass
 * validation, and the object rules below, after pkg/apis/{apps,batch,
 * core,autoscaling}/validation): names, labels and selectors, selectors
 * that match their own pods and no other copy's, node affinity, the
 * Service fields the fixes touch, HPA targets, one object per name.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "wingen/k8s/k8svalid.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/reader.h"
#include "wingen/gen/runtimeclass.h"

struct check {
	const char *file;
	struct wg_arena arena;
	struct wg_resources *list;
	size_t bad;
};

__attribute__((format(printf, 3, 4)))
static void bad(struct check *c, const struct wg_resource *res,
		const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", c->file,
		wg_resource_label(&c->arena, res));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->bad++;
}

static const char *text(struct check *c, const struct wg_node *n)
{
	return wg_is_scalar(n) ? wg_scalar_dup(&c->arena, n) : NULL;
}

static const char *ns(struct check *c, const struct wg_resource *res)
{
	const char *s = text(c, wg_resource_namespace_node(res));

	return s ? s : "";
}

/* Keys and values of a label map (values may be anything for
 * annotations). */
static void labels(struct check *c, const struct wg_resource *res,
		   const struct wg_node *m, const char *what, bool values)
{
	if (!m)
		return;
	if (!wg_is_map(m)) {
		bad(c, res, "%s is not a mapping", what);
		return;
	}
	for (size_t i = 0; i < m->len; i++) {
		const char *k = text(c, wg_map_key(m, i));
		const char *v = text(c, wg_map_value(m, i));

		if (!k || !wg_is_label_key(k))
			bad(c, res, "%s: '%s' is not a label key", what,
			    k ? k : "(not text)");
		if (!v || (values && !wg_is_label_value(v)))
			bad(c, res, "%s: '%s' is not a label value", what,
			    v ? v : "(not text)");
	}
}

static size_t name_limit(const struct wg_resource *res)
{
	if (wg_resource_kind_is(res, "CronJob"))
		return 52;
	if (wg_resource_kind_is(res, "Job")
	    || wg_resource_kind_is(res, "StatefulSet"))
		return 63;
	return 253;
}

/* The selector of a workload as a label selector; false when it has none
 * (Jobs with generated selectors, Pods, PodTemplates). */
static bool selector_of(struct check *c, const struct wg_resource *res,
			struct wg_label_selector *ls)
{
	const struct wg_node *sel = wg_path_get(res->root, "spec.selector");

	if (wg_resource_kind_is(res, "CronJob"))
		sel = wg_path_get(res->root, "spec.jobTemplate.spec.selector");
	if (!wg_is_map(sel))
		return false;
	if (wg_label_selector_from_node(&c->arena, sel,
					!wg_resource_kind_is(res,
						"ReplicationController"), ls)) {
		bad(c, res, "spec.selector is not a valid selector");
		return false;
	}
	return true;
}

static void workload(struct check *c, const struct wg_resource *res,
		     const struct wg_podspec *ps)
{
	struct wg_ctx ctx;
	struct wg_label_selector ls;
	const struct wg_node *terms = wg_path_get(ps->spec,
		"affinity.nodeAffinity."
		"requiredDuringSchedulingIgnoredDuringExecution."
		"nodeSelectorTerms");

	wg_ctx_init(&ctx);
	if (wg_k8s_check_pod_spec(&ctx, res, ps)) {
		wg_log_print(stderr, &ctx.log, WG_SEV_ERROR);
		bad(c, res, "its pod spec is invalid");
	}
	wg_ctx_release(&ctx);
	labels(c, res, wg_podspec_labels(ps), "pod labels", true);
	if (selector_of(c, res, &ls)) {
		if (!ls.len)
			bad(c, res, "an empty selector");
		for (size_t i = 0; i < ls.len; i++)
			if (!wg_is_label_key(ls.reqs[i].key))
				bad(c, res, "selector key '%s'",
				    ls.reqs[i].key);
		/* apps validation: "selector does not match template
		 * labels" */
		if (!wg_label_selector_matches(&ls, wg_podspec_labels(ps)))
			bad(c, res, "its selector does not match its pods");
	}
	for (size_t t = 0; wg_is_seq(terms) && t < terms->len; t++) {
		const struct wg_node *ex = wg_map_get(wg_seq_item(terms, t),
						      "matchExpressions");

		for (size_t i = 0; wg_is_seq(ex) && i < ex->len; i++) {
			const struct wg_node *e = wg_seq_item(ex, i);
			const char *key = text(c, wg_map_get(e, "key"));
			const char *op = text(c, wg_map_get(e, "operator"));
			const struct wg_node *v = wg_map_get(e, "values");

			if (!key || !wg_is_label_key(key) || !op)
				bad(c, res, "node affinity term %zu: %s", t,
				    key ? key : "no key");
			else if ((!strcmp(op, "In") || !strcmp(op, "NotIn"))
				 && (!wg_is_seq(v) || !v->len))
				bad(c, res, "node affinity %s %s: no values",
				    key, op);
			for (size_t j = 0; wg_is_seq(v) && j < v->len; j++)
				if (!text(c, wg_seq_item(v, j))
				    || !wg_is_label_value(text(c,
						wg_seq_item(v, j))))
					bad(c, res, "affinity value");
		}
	}
}

static void service(struct check *c, const struct wg_resource *res)
{
	const struct wg_node *spec = wg_map_get(res->root, "spec");
	const char *type = text(c, wg_map_get(spec, "type"));
	const char *etp = text(c, wg_map_get(spec, "externalTrafficPolicy"));
	const char *policy = text(c, wg_map_get(spec, "ipFamilyPolicy"));
	const struct wg_node *fam = wg_map_get(spec, "ipFamilies");
	bool external = type && (!strcmp(type, "NodePort")
				 || !strcmp(type, "LoadBalancer"));

	if (!type)
		type = "ClusterIP";
	labels(c, res, wg_map_get(spec, "selector"), "spec.selector", true);
	if (wg_map_get(spec, "sessionAffinityConfig")
	    && !wg_scalar_is(wg_map_get(spec, "sessionAffinity"), "ClientIP"))
		bad(c, res, "sessionAffinityConfig without ClientIP");
	if (etp && (!external || (strcmp(etp, "Local")
				  && strcmp(etp, "Cluster"))))
		bad(c, res, "externalTrafficPolicy '%s' on %s", etp, type);
	if (wg_map_get(spec, "healthCheckNodePort")
	    && (strcmp(type, "LoadBalancer") || !etp
		|| strcmp(etp, "Local")))
		bad(c, res, "healthCheckNodePort without a Local "
			    "LoadBalancer");
	if (fam && (!wg_is_seq(fam) || !fam->len || fam->len > 2))
		bad(c, res, "ipFamilies must list one or two families");
	for (size_t i = 0; wg_is_seq(fam) && i < fam->len; i++)
		if (!wg_scalar_is(wg_seq_item(fam, i), "IPv4")
		    && !wg_scalar_is(wg_seq_item(fam, i), "IPv6"))
			bad(c, res, "ipFamilies[%zu] is not IPv4 or IPv6", i);
	if (wg_is_seq(fam) && fam->len == 2
	    && wg_node_equal(wg_seq_item(fam, 0), wg_seq_item(fam, 1)))
		bad(c, res, "ipFamilies lists a family twice");
	if (policy && !strcmp(policy, "SingleStack") && wg_is_seq(fam)
	    && fam->len > 1)
		bad(c, res, "SingleStack with two ipFamilies");
	if (policy && strcmp(policy, "SingleStack")
	    && strcmp(policy, "PreferDualStack")
	    && strcmp(policy, "RequireDualStack"))
		bad(c, res, "ipFamilyPolicy '%s'", policy);
}

/* A workload of list called kind/name in namespace ns, or NULL. */
static const struct wg_resource *find(struct check *c, const char *kind,
				      const char *name, const char *space)
{
	for (size_t i = 0; i < c->list->len; i++) {
		const struct wg_resource *r = c->list->items[i];

		if (wg_resource_kind_is(r, kind)
		    && wg_scalar_is(wg_resource_name_node(r), name)
		    && !strcmp(ns(c, r), space))
			return r;
	}
	return NULL;
}

static void autoscaler(struct check *c, const struct wg_resource *res)
{
	const struct wg_node *ref = wg_path_get(res->root,
						"spec.scaleTargetRef");
	const char *kind = text(c, wg_map_get(ref, "kind"));
	const char *name = text(c, wg_map_get(ref, "name"));

	if (!kind || !name || !find(c, kind, name, ns(c, res)))
		bad(c, res, "scaleTargetRef names no workload of the stream");
}

/* Two workloads of one kind and namespace must not select each other's
 * pods: the copies' selectors stay apart. */
static void disjoint(struct check *c, const struct wg_resource *a,
		     const struct wg_resource *b)
{
	struct wg_podspec pb;
	struct wg_label_selector ls;
	const char *ka = wg_resource_kind(&c->arena, a);

	if (!ka || !wg_resource_kind_is(b, ka) || strcmp(ns(c, a), ns(c, b))
	    || !wg_podspec_find(b, &pb) || !selector_of(c, a, &ls))
		return;
	if (wg_label_selector_matches(&ls, wg_podspec_labels(&pb)))
		bad(c, a, "selects the pods of %s",
		    wg_resource_label(&c->arena, b));
}

static size_t check_file(const char *path, size_t *objects, size_t *copies)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct check c = { path, WG_ARENA_INIT, &list, 0 };

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
	ck_assert_int_eq(wg_read_stream(&ctx, &in, &list), 0);
	for (size_t i = 0; i < list.len; i++) {
		const struct wg_resource *res = list.items[i];
		const char *name = text(&c, wg_resource_name_node(res));
		struct wg_podspec ps;

		(*objects)++;
		if (!name || !wg_is_dns_subdomain(name)
		    || strlen(name) > name_limit(res))
			bad(&c, res, "metadata.name '%s'", name);
		labels(&c, res, wg_path_get(res->root, "metadata.labels"),
		       "metadata.labels", true);
		labels(&c, res, wg_path_get(res->root, "metadata.annotations"),
		       "metadata.annotations", false);
		if (wg_path_get(res->root, "metadata.annotations.[wingen.dev/"
				"windows-build]"))
			(*copies)++;
		for (size_t j = 0; j < i; j++) {
			const struct wg_resource *o = list.items[j];
			const char *k = wg_resource_kind(&c.arena, res);

			if (k && wg_resource_kind_is(o, k)
			    && wg_node_equal(wg_resource_name_node(o),
					     wg_resource_name_node(res))
			    && !strcmp(ns(&c, o), ns(&c, res)))
				bad(&c, res, "is in the stream twice");
			if (j != i) {
				disjoint(&c, res, o);
				disjoint(&c, o, res);
			}
		}
		if (wg_resource_kind_is(res, "RuntimeClass")
		    && wg_runtime_class_validate(&ctx, res))
			bad(&c, res, "invalid RuntimeClass");
		if (wg_podspec_find(res, &ps))
			workload(&c, res, &ps);
		if (wg_resource_kind_is(res, "Service"))
			service(&c, res);
		if (wg_resource_kind_is(res, "HorizontalPodAutoscaler"))
			autoscaler(&c, res);
	}
	wg_arena_release(&c.arena);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return c.bad;
}

static void golden_root(char *root, size_t size)
{
	snprintf(root, size, "%s", __FILE__);
	*strrchr(root, '/') = '\0';
	snprintf(root + strlen(root), size - strlen(root), "/../golden");
}

START_TEST(test_golden_outputs_valid)
{
	char root[1024];
	DIR *d;
	struct dirent *e;
	size_t files = 0, objects = 0, copies = 0;

	golden_root(root, sizeof(root));
	d = opendir(root);
	ck_assert_msg(d != NULL, "%s", root);
	while ((e = readdir(d))) {
		char path[1200];
		FILE *f;
		long size;

		if (strncmp(e->d_name, "fan-", 4) != 0
		    && strncmp(e->d_name, "svc-", 4) != 0)
			continue;
		ck_assert_int_lt(snprintf(path, sizeof(path),
					  "%s/%s/expected.yaml", root,
					  e->d_name),
				 (int)sizeof(path));
		f = fopen(path, "r");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
		if (size <= 0)
			continue;	/* a case that fails on purpose */
		files++;
		ck_assert_msg(check_file(path, &objects, &copies) == 0, "%s",
			      path);
	}
	closedir(d);
	ck_assert_uint_ge(files, 20);
	ck_assert_uint_ge(objects, 120);
	ck_assert_uint_ge(copies, 20);
}
END_TEST

/* The checks above catch what they are meant to. */
START_TEST(test_checks_catch)
{
	static const char *const broken[] = {
		/* copies selecting each other's pods */
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"
		"spec:\n  selector: {matchLabels: {app: x}}\n  template:\n"
		"    metadata: {labels: {app: x, wingen.dev/windows-build: "
		"ltsc2019}}\n    spec: {containers: [{name: c, image: i}]}\n"
		"---\napiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: b}\nspec:\n  selector: {matchLabels: "
		"{app: x, wingen.dev/windows-build: ltsc2022}}\n  template:\n"
		"    metadata: {labels: {app: x, wingen.dev/windows-build: "
		"ltsc2022}}\n    spec: {containers: [{name: c, image: i}]}\n",
		/* a selector that misses its own pods */
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"
		"spec:\n  selector: {matchLabels: {app: x, "
		"wingen.dev/windows-build: ltsc2019}}\n  template:\n"
		"    metadata: {labels: {app: x}}\n"
		"    spec: {containers: [{name: c, image: i}]}\n",
		/* two objects of one name */
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		/* a CronJob name too long for its Jobs */
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: "
		"abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij}\n",
		/* the Service fields the fixes touch */
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n"
		"  healthCheckNodePort: 30000\n  externalTrafficPolicy: Cluster"
		"\n  type: LoadBalancer\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n"
		"  ipFamilyPolicy: SingleStack\n  ipFamilies: [IPv4, IPv6]\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n"
		"  sessionAffinityConfig: {clientIP: {timeoutSeconds: 1}}\n",
		/* an HPA without its workload */
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: h}\nspec:\n  scaleTargetRef: {kind: "
		"Deployment, name: gone}\n",
		/* node affinity In without values */
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
		"  affinity: {nodeAffinity: {requiredDuringSchedulingIgnored"
		"DuringExecution: {nodeSelectorTerms: [{matchExpressions: "
		"[{key: k, operator: In}]}]}}}\n"
		"  containers: [{name: c, image: i}]\n",
	};
	char path[] = "/tmp/wg-fanout-valid-XXXXXX";

	for (size_t i = 0; i < sizeof(broken) / sizeof(*broken); i++) {
		int fd = mkstemp(path);
		size_t objects = 0, copies = 0;
		FILE *f;

		ck_assert_int_ge(fd, 0);
		f = fdopen(fd, "w");
		fputs(broken[i], f);
		fclose(f);
		ck_assert_msg(check_file(path, &objects, &copies) > 0,
			      "case %zu passed", i);
		unlink(path);
		strcpy(path + strlen(path) - 6, "XXXXXX");
	}
}
END_TEST

static Suite *fanout_valid_suite(void)
{
	Suite *s = suite_create("fanout_valid");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_golden_outputs_valid);
	tcase_add_test(tc, test_checks_catch);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(fanout_valid_suite)
