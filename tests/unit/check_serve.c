/* The admission webhook without HTTP: the review codec, the patch from
 * the change journal, and the answer to each kind of request. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/serve/admit.h"
#include "wingen/serve/patch.h"
#include "wingen/serve/review.h"

#define WIN_IMAGE "mcr.microsoft.com/windows/servercore/iis:" \
	"windowsservercore-ltsc2022"

/* An AdmissionReview around an object (JSON text), as the API server
 * sends it (the documentation's example, for a Pod). */
static char *review(const char *op, const char *ns, const char *object,
		    const char *old)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addf(&b, "{\"apiVersion\":\"admission.k8s.io/v1\","
		    "\"kind\":\"AdmissionReview\",\"request\":{"
		    "\"uid\":\"705ab4f5-6393-11e8-b7cc-42010a800002\","
		    "\"kind\":{\"group\":\"\",\"version\":\"v1\","
		    "\"kind\":\"Pod\"},\"resource\":{\"group\":\"\","
		    "\"version\":\"v1\",\"resource\":\"pods\"},"
		    "\"namespace\":\"%s\",\"operation\":\"%s\","
		    "\"userInfo\":{\"username\":\"admin\"},\"object\":%s",
		    ns, op, object);
	if (old)
		wg_buf_addf(&b, ",\"oldObject\":%s", old);
	wg_buf_addstr(&b, ",\"dryRun\":false}}");
	return wg_buf_detach(&b, NULL);
}

/* The pods made for a test, freed with its fixture. */
static char *made[256];
static size_t nmade;

static char *pod(const char *image, const char *spec_extra)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addf(&b, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
		    "\"metadata\":{\"generateName\":\"web-\"},\"spec\":{"
		    "\"containers\":[{\"name\":\"c\",\"image\":\"%s\"}]%s}}",
		    image, spec_extra);
	ck_assert_uint_lt(nmade, sizeof(made) / sizeof(*made));
	return made[nmade++] = wg_buf_detach(&b, NULL);
}

struct fx {
	struct wg_ctx ctx;
	struct wg_profile p;
	struct wg_admit a;
};

static void fx_init(struct fx *f, const char *profile)
{
	struct wg_profile_opts po;

	wg_ctx_init(&f->ctx);
	if (profile)
		ck_assert_int_eq(wg_profile_load_data(
			&f->ctx, "<p>", profile, strlen(profile),
			wg_chain_opts(NULL, &po), &f->p), 0);
	else
		ck_assert_int_eq(wg_profile_load_default(
			&f->ctx, wg_chain_opts(NULL, &po), &f->p), 0);
	wg_admit_init(&f->a);
}

static void fx_release(struct fx *f)
{
	while (nmade)
		free(made[--nmade]);
	wg_admit_release(&f->a);
	wg_profile_release(&f->p);
	wg_ctx_release(&f->ctx);
}

static void run(struct fx *f, enum wg_admit_endpoint ep, bool audit,
		const struct wg_admit_kinds *kinds, char *body)
{
	struct wg_admit_opts o = { ep, audit, kinds };

	wg_admit_run(&f->a, &f->p, &o, body, strlen(body));
	free(body);
}

/* The patch of the answer: admit's scratch keeps the JSON it encoded
 * (the shell suite decodes and applies what goes over the wire). */
static char *patch_of(const struct wg_admit *a)
{
	if (!strstr(a->body.buf, "\"patch\":\""))
		return strdup("");
	return strdup(a->scratch.buf);
}

START_TEST(test_pointer_escapes)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_json_pointer_add(&b, "kubernetes.io/os", 16);
	wg_json_pointer_add(&b, "a~b/c", 5);
	wg_json_pointer_add(&b, "", 0);
	ck_assert_str_eq(b.buf, "/kubernetes.io~1os/a~0b~1c/");
	wg_buf_release(&b);
}
END_TEST

START_TEST(test_windows_pod_patched)
{
	struct fx f;
	char *patch;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ",\"nodeSelector\":"
					"{\"disk\":\"ssd\"}"), NULL));
	ck_assert_int_eq(f.a.http_status, 200);
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"uid\":\"705ab4f5-6393-"
				     "11e8-b7cc-42010a800002\",\"allowed\":"
				     "true,\"patchType\":\"JSONPatch\""));
	patch = patch_of(&f.a);
	/* keys added to the map that was there, escaped */
	ck_assert_ptr_nonnull(strstr(patch, "{\"op\":\"add\",\"path\":"
				     "\"/spec/nodeSelector/kubernetes.io~1os\","
				     "\"value\":\"windows\"}"));
	ck_assert_ptr_nonnull(strstr(patch, "\"path\":\"/spec/nodeSelector/"
				     "node.kubernetes.io~1windows-build\","
				     "\"value\":\"10.0.20348\""));
	ck_assert_ptr_nonnull(strstr(patch, "{\"op\":\"add\",\"path\":"
				     "\"/spec/tolerations\",\"value\":[{"));
	ck_assert_ptr_nonnull(strstr(patch, "\"path\":\"/spec/os\",\"value\":"
				     "{\"name\":\"windows\"}"));
	/* nothing of the namespace filled in from the request */
	ck_assert_ptr_null(strstr(patch, "namespace"));
	ck_assert_str_eq(f.a.namespace_, "web");
	ck_assert_str_eq(f.a.name, "web-*");
	free(patch);
	fx_release(&f);
}
END_TEST

/* A pod its ReplicaSet's template already made right: no patch. */
START_TEST(test_rendered_pod_unchanged)
{
	struct fx f;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE,
		",\"nodeSelector\":{\"kubernetes.io/os\":\"windows\","
		"\"kubernetes.io/arch\":\"amd64\","
		"\"node.kubernetes.io/windows-build\":\"10.0.20348\"},"
		"\"tolerations\":[{\"key\":\"os\",\"operator\":\"Equal\","
		"\"value\":\"windows\",\"effect\":\"NoSchedule\"}],"
		"\"runtimeClassName\":\"windows-ltsc2022\","
		"\"os\":{\"name\":\"windows\"}"), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_null(strstr(f.a.body.buf, "patch"));
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"allowed\":true"));
	fx_release(&f);
}
END_TEST

START_TEST(test_linux_pod_pinned)
{
	struct fx f;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", pod("nginx:1.27", ""), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
	ck_assert_str_eq(f.a.scratch.buf, "[{\"op\":\"add\",\"path\":"
			 "\"/spec/nodeSelector\",\"value\":"
			 "{\"kubernetes.io/os\":\"linux\"}}]");
	ck_assert_int_eq(f.a.patch_ops, 1);
	fx_release(&f);
}
END_TEST

/* A Windows image pinned to Linux: denied, naming the field; --audit
 * admits it with the finding as a warning. */
START_TEST(test_conflict)
{
	struct fx f;
	const char *obj = ",\"nodeSelector\":{\"kubernetes.io/os\":"
			  "\"linux\"}";

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, obj), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_DENIED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"allowed\":false,"
				     "\"status\":{\"code\":403,"));
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf, "spec.nodeSelector"));
	ck_assert_ptr_null(strstr(f.a.body.buf, "patch"));
	run(&f, WG_ADMIT_MUTATE, true, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, obj), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"allowed\":true"));
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"warnings\":[\"wingen "
				     "would deny: spec.nodeSelector"));
	ck_assert_ptr_null(strstr(f.a.body.buf, "patch"));
	fx_release(&f);
}
END_TEST

/* /validate: what mutate would change is denied; what it would leave
 * passes. */
START_TEST(test_validate)
{
	struct fx f;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_VALIDATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ""), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_DENIED);
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf, "would change"));
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf,
				     "spec.runtimeClassName"));
	ck_assert_ptr_null(strstr(f.a.body.buf, "patch"));
	run(&f, WG_ADMIT_VALIDATE, true, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ""), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "wingen would change "));
	run(&f, WG_ADMIT_VALIDATE, false, NULL,
	    review("CREATE", "web", pod("nginx", ",\"nodeSelector\":{"
					"\"kubernetes.io/os\":\"linux\"}"),
		   NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_null(strstr(f.a.body.buf, "warnings"));
	fx_release(&f);
}
END_TEST

/* Bodies that are no review: HTTP errors, never an answer. */
START_TEST(test_bad_requests)
{
	static const char *const bodies[] = {
		"{\"apiVersion\":",
		"",
		"[1, 2]",
		"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":"
		"\"AdmissionReview\",\"request\":{\"object\":{}}}",
		"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":"
		"\"AdmissionReview\",\"request\":{\"uid\":\"\"}}",
		"{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":"
		"\"AdmissionReview\",\"request\":{\"uid\":\"x\"}}",
		"{\"a\":1}\n{\"b\":2}",
		"{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":"
		"\"AdmissionReview\",\"request\":{\"uid\":\"x\",\"uid\":\"y\"}}",
	};
	struct fx f;

	fx_init(&f, NULL);
	for (size_t i = 0; i < sizeof(bodies) / sizeof(*bodies); i++) {
		run(&f, WG_ADMIT_MUTATE, true, NULL, strdup(bodies[i]));
		ck_assert_msg(f.a.http_status == 400, "%zu: %d", i,
			      f.a.http_status);
		ck_assert_int_eq(f.a.outcome, WG_OUTCOME_BAD_REQUEST);
		ck_assert_ptr_null(strstr(f.a.body.buf, "allowed"));
	}
	fx_release(&f);
}
END_TEST

/* A review whose object the webhook cannot read as the API server would:
 * a 400 that says why at line:col, never an answer (and so never
 * allowed).  Each is a pod that would be allowed and patched but for
 * the one fault. */
START_TEST(test_unreadable_objects)
{
	static const struct { const char *extra, *why; } cases[] = {
		{ ",\"priority\":1,\"priority\":2", "duplicate mapping key" },
		{ ",\"priority\":9223372036854775808", "out of range" },
		{ ",\"priority\":-9223372036854775809", "out of range" },
		{ ",\"priority\":123456789012345678901234567890",
		  "out of range" },
		{ ",\"x\":{\"cpu\":1e999}", "out of range" },
		{ ",\"x\":{\"cpu\":-2.5E+400}", "out of range" },
		{ ",\"hostname\":\"a\xff\"", "UTF-8" },
		{ ",\"hostname\":\"a\xc0\xaf" "b\"", "UTF-8" },
		{ ",\"hostname\":\"a\xed\xa0\x80\"", "Unicode" },
		{ ",\"hostname\":\"a\x01\"", "control characters" },
		{ ",\"hostname\":\"\\ud83d\\ude00\"", "surrogate" },
		{ ",\"hostname\":\"a\"\"b\"", "not JSON" },
		{ ",\"hostname\":'a'", "not JSON" },
		{ ",hostname:\"a\"", "not JSON" },
		{ ",\"priority\":01", "not JSON" },
		{ ",\"priority\":NaN", "not JSON" },
		{ ",\"hostname\":\"a\",", "not JSON" },
	};
	struct fx f;
	struct wg_buf deep = WG_BUF_INIT;

	fx_init(&f, NULL);
	/* the same pod without a fault: patched, so each 400 is the fault's */
	run(&f, WG_ADMIT_MUTATE, true, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ",\"priority\":"
					"9223372036854775807"), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
	run(&f, WG_ADMIT_MUTATE, true, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ",\"x\":{\"cpu\":"
					"-1.5e300}"), NULL));
	ck_assert_msg(f.a.outcome == WG_OUTCOME_PATCHED, "%s", f.a.body.buf);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		run(&f, WG_ADMIT_MUTATE, true, NULL,
		    review("CREATE", "web", pod(WIN_IMAGE, cases[i].extra),
			   NULL));
		ck_assert_msg(f.a.http_status == 400, "%s: %d", cases[i].extra,
			      f.a.http_status);
		ck_assert_int_eq(f.a.outcome, WG_OUTCOME_BAD_REQUEST);
		ck_assert_msg(!strstr(f.a.body.buf, "\"allowed\""), "%s: %s",
			      cases[i].extra, f.a.body.buf);
		ck_assert_msg(strstr(f.a.reason.buf, cases[i].why),
			      "%s: '%s' lacks '%s'", cases[i].extra,
			      f.a.reason.buf, cases[i].why);
		ck_assert_msg(strstr(f.a.reason.buf, "1:"), "%s: no position "
			      "in '%s'", cases[i].extra, f.a.reason.buf);
	}
	/* nesting past the reader's depth limit (512) */
	wg_buf_addstr(&deep, ",\"x\":");
	for (int i = 0; i < 600; i++)
		wg_buf_addch(&deep, '[');
	for (int i = 0; i < 600; i++)
		wg_buf_addch(&deep, ']');
	run(&f, WG_ADMIT_VALIDATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, deep.buf), NULL));
	ck_assert_int_eq(f.a.http_status, 400);
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf, "nesting deeper"));
	wg_buf_release(&deep);
	fx_release(&f);
}
END_TEST

/* Reviews it does not handle: allowed false with the reason. */
START_TEST(test_refused)
{
	struct fx f;
	char *big, *body;
	size_t n = WG_REVIEW_MAX_OBJECT + 10;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, true, NULL,
	    review("CREATE", "web", "{\"apiVersion\":\"v1\",\"kind\":"
		   "\"Service\",\"metadata\":{\"name\":\"s\"},\"spec\":{}}",
		   NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_REFUSED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"allowed\":false"));
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf, "Service is not a kind"));
	/* a Deployment only with --kinds */
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", "{\"apiVersion\":\"apps/v1\",\"kind\":"
		   "\"Deployment\",\"metadata\":{\"name\":\"d\"},\"spec\":{"
		   "\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
		   "\"image\":\"" WIN_IMAGE "\"}]}}}}", NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_REFUSED);
	{
		const char *names[] = { "Deployment" };
		struct wg_admit_kinds k = { false, names, 1 };

		run(&f, WG_ADMIT_MUTATE, false, &k,
		    review("CREATE", "web", "{\"apiVersion\":\"apps/v1\","
			   "\"kind\":\"Deployment\",\"metadata\":{\"name\":"
			   "\"d\"},\"spec\":{\"template\":{\"spec\":{"
			   "\"containers\":[{\"name\":\"c\",\"image\":\""
			   WIN_IMAGE "\"}]}}}}", NULL));
		ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
		ck_assert_ptr_nonnull(strstr(f.a.scratch.buf,
					     "/spec/template/spec/os"));
	}
	/* over the API server's limit */
	big = malloc(n + 1);
	memset(big, 'a', n);
	big[n] = '\0';
	body = malloc(n + 200);
	snprintf(body, n + 200, "{\"metadata\":{\"annotations\":{\"a\":"
		 "\"%s\"}}}", big);
	run(&f, WG_ADMIT_MUTATE, false, NULL, review("CREATE", "web", body,
						     NULL));
	free(body);
	free(big);
	ck_assert_msg(f.a.outcome == WG_OUTCOME_REFUSED, "%s", f.a.reason.buf);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"code\":413"));
	/* a subresource */
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web\",\"subResource\":\"status",
		   pod("nginx", ""), NULL));
	ck_assert_ptr_nonnull(strstr(f.a.reason.buf, "subresource status"));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_REFUSED);
	/* DELETE: nothing to review */
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("DELETE", "web", "null", pod(WIN_IMAGE, "")));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "\"allowed\":true"));
	fx_release(&f);
}
END_TEST

/* Selection by namespace sees request.namespace; an UPDATE that keeps
 * the pod template gets no patch. */
START_TEST(test_namespace_and_update)
{
	static const char profile[] =
		"apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"
		"metadata: {name: t}\nwindows:\n  builds: [{release: "
		"ltsc2022}]\n  select:\n  - namespace: '^win-.*'\n";
	struct fx f;

	fx_init(&f, profile);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "win-apps", pod("contoso/app:1", ""), NULL));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
	ck_assert_ptr_nonnull(strstr(f.a.scratch.buf, "\"kubernetes.io/os\":"
				     "\"windows\""));
	ck_assert_ptr_null(strstr(f.a.scratch.buf, "namespace"));
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "apps", pod("contoso/app:1", ""), NULL));
	ck_assert_ptr_nonnull(strstr(f.a.scratch.buf, "\"kubernetes.io/os\":"
				     "\"linux\""));
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("UPDATE", "win-apps", pod("contoso/app:1", ""),
		   pod("contoso/app:1", "")));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_ALLOWED);
	ck_assert_ptr_null(strstr(f.a.body.buf, "patch"));
	ck_assert_ptr_nonnull(strstr(f.a.body.buf, "wingen would change"));
	/* an UPDATE that changes the template is reviewed as a CREATE */
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("UPDATE", "win-apps", pod("contoso/app:2", ""),
		   pod("contoso/app:1", "")));
	ck_assert_int_eq(f.a.outcome, WG_OUTCOME_PATCHED);
	fx_release(&f);
}
END_TEST

/* The same profile answers the same way on and on (no state kept from
 * one request to the next). */
START_TEST(test_repeatable)
{
	struct fx f;
	char *first;

	fx_init(&f, NULL);
	run(&f, WG_ADMIT_MUTATE, false, NULL,
	    review("CREATE", "web", pod(WIN_IMAGE, ""), NULL));
	first = strdup(f.a.body.buf);
	for (int i = 0; i < 50; i++) {
		run(&f, WG_ADMIT_MUTATE, false, NULL,
		    review("CREATE", "web", pod(WIN_IMAGE, ""), NULL));
		ck_assert_str_eq(f.a.body.buf, first);
	}
	free(first);
	fx_release(&f);
}
END_TEST

static Suite *serve_suite(void)
{
	Suite *s = suite_create("serve");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pointer_escapes);
	tcase_add_test(tc, test_windows_pod_patched);
	tcase_add_test(tc, test_rendered_pod_unchanged);
	tcase_add_test(tc, test_linux_pod_pinned);
	tcase_add_test(tc, test_conflict);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_unreadable_objects);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_namespace_and_update);
	tcase_add_test(tc, test_repeatable);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(serve_suite)
