/*
 * fuzz_review: the admission webhook's request decoder and answer
 * (serve/admit.h), on any body, with the embedded default profile.
 *
 *  - the status is 200, 400 or 413; a 200 answers an AdmissionReview
 *    (admission.k8s.io/v1) for the request's own uid, and reads back as
 *    one JSON document; 400 and 413 say so in text and admit nothing;
 *  - "allowed":true only for the outcomes that admit (allowed, patched),
 *    and a patch only with "patched";
 *  - a patch reads back as a JSON array of operations, each with op and
 *    a path that is a JSON Pointer;
 *  - the same body gets the same answer (nothing is kept from one
 *    request to the next);
 *  - never a crash, a hang or a leak.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "wingen/base/buf.h"
#include "wingen/chain/chain.h"
#include "wingen/serve/admit.h"
#include "wingen/yaml/reader.h"

static struct wg_profile profile;
static bool loaded;

/* Reads text as one JSON document into list; the root, or NULL. */
static struct wg_node *read_json(struct wg_resources *list,
				 struct wg_input *in, const char *text,
				 size_t len)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	fz_input(in, "<answer>", (const uint8_t *)text, len);
	if (wg_read_stream(&ctx, in, list) || list->len != 1) {
		fz_dump_log(&ctx);
		wg_ctx_release(&ctx);
		return NULL;
	}
	wg_ctx_release(&ctx);
	return list->items[0]->root;
}

static void check_patch(const struct wg_admit *a)
{
	struct wg_resources list;
	struct wg_input in;
	struct wg_node *ops;

	wg_resources_init(&list);
	ops = read_json(&list, &in, a->scratch.buf, a->scratch.len);
	FZ_CHECK(wg_is_seq(ops) && ops->len == (size_t)a->patch_ops,
		 "the patch is no JSON array of %ld operations: %s",
		 a->patch_ops, a->scratch.buf);
	for (size_t i = 0; i < ops->len; i++) {
		const struct wg_node *op = wg_seq_item(ops, i);
		const struct wg_node *path = wg_map_get(op, "path");

		FZ_CHECK(wg_is_scalar(wg_map_get(op, "op")) && wg_is_scalar(path)
			 && path->len && path->u.str[0] == '/',
			 "patch operation %zu is not an operation with a "
			 "JSON Pointer: %s", i, a->scratch.buf);
	}
	wg_resources_release(&list);
	wg_input_release(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_admit_opts o = { WG_ADMIT_MUTATE, false, NULL };
	struct wg_admit a;
	char *body = malloc(size + 1), *first;
	bool admits;

	if (!loaded) {
		struct wg_ctx ctx;
		struct wg_profile_opts po;

		wg_ctx_init(&ctx);
		FZ_CHECK(wg_profile_load_default(&ctx, wg_chain_opts(NULL, &po),
						 &profile) == 0,
			 "the default profile does not load");
		wg_ctx_release(&ctx);
		loaded = true;
	}
	memcpy(body, data, size);
	body[size] = '\0';
	if (size > 1 && (data[0] & 1))
		o.endpoint = WG_ADMIT_VALIDATE;
	wg_admit_init(&a);
	wg_admit_run(&a, &profile, &o, body, size);
	FZ_CHECK(a.http_status == 200 || a.http_status == 400
		 || a.http_status == 413, "HTTP status %d", a.http_status);
	admits = strstr(a.body.buf, "\"allowed\":true") != NULL;
	if (a.http_status != 200) {
		FZ_CHECK(a.outcome == WG_OUTCOME_BAD_REQUEST && !admits
			 && strncmp(a.body.buf, "wingen: ", 8) == 0,
			 "an HTTP error that is not text: %s", a.body.buf);
	} else {
		struct wg_resources list;
		struct wg_input in;
		struct wg_node *root;

		wg_resources_init(&list);
		root = read_json(&list, &in, a.body.buf, a.body.len);
		FZ_CHECK(root, "the answer is no JSON: %s", a.body.buf);
		FZ_CHECK(wg_scalar_is(wg_map_get(root, "apiVersion"),
				      "admission.k8s.io/v1")
			 && wg_scalar_is(wg_path_get(root, "response.uid"),
					 a.uid),
			 "the answer is not a review for uid %s: %s", a.uid,
			 a.body.buf);
		wg_resources_release(&list);
		wg_input_release(&in);
		FZ_CHECK(admits == (a.outcome == WG_OUTCOME_ALLOWED
				    || a.outcome == WG_OUTCOME_PATCHED),
			 "allowed does not follow the outcome %s: %s",
			 wg_admit_outcome_name(a.outcome), a.body.buf);
		FZ_CHECK((strstr(a.body.buf, "\"patch\":") != NULL)
			 == (a.outcome == WG_OUTCOME_PATCHED),
			 "a patch without 'patched', or none with it");
		if (a.outcome == WG_OUTCOME_PATCHED)
			check_patch(&a);
	}
	first = strdup(a.body.buf);
	wg_admit_run(&a, &profile, &o, body, size);
	FZ_CHECK(strcmp(first, a.body.buf) == 0,
		 "a second answer differs:\n%s\n%s", first, a.body.buf);
	free(first);
	wg_admit_release(&a);
	free(body);
	return 0;
}
