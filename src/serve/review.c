/*
 * The AdmissionReview codec (review.h): a request body read with
 * wingen's JSON reader, the response written with its JSON quoting and
 * GnuTLS's base64.
 */
#include "wingen/serve/review.h"

#include <gnutls/gnutls.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"
#include "wingen/base/input.h"
#include "wingen/yaml/json_reader.h"
#include "wingen/yaml/scalar.h"

static const char review_api[] = "admission.k8s.io/v1";

/* A uid is a UUID; a longer one is no API server's. */
#define UID_MAX 128

/*
 * The JSON text's size of each collection at depth 3 (root, request, its
 * members): request.object and request.oldObject among them, found by
 * node once the tree is whole.  A request has a handful.
 */
struct sized {
	const struct wg_node *node;
	size_t size;
};

struct sizer {
	struct sized *items;
	size_t n, cap;
};

static void sizer_close(void *arg, const struct wg_node *node, unsigned depth,
			size_t start, size_t end)
{
	struct sizer *s = arg;

	if (depth == 3) {
		WG_GROW(s->items, s->cap, s->n + 1);
		s->items[s->n++] = (struct sized){ node, end - start };
	}
}

/* The size of node's text: 0 for a scalar or none. */
static size_t sized(const struct sizer *s, const struct wg_node *node)
{
	for (size_t i = 0; node && i < s->n; i++)
		if (s->items[i].node == node)
			return s->items[i].size;
	return 0;
}

/* The scalar under key in m as a NUL-terminated copy, "" when absent or
 * not a scalar. */
static const char *str_at(struct wg_arena *a, const struct wg_node *m,
			  const char *key)
{
	const struct wg_node *n = wg_map_get(m, key);

	if (!wg_is_scalar(n) || wg_node_is_null(n))
		return "";
	return wg_scalar_dup(a, n);
}

static struct wg_node *object_at(const struct wg_node *m, const char *key)
{
	struct wg_node *n = wg_map_get(m, key);

	return n && !wg_node_is_null(n) ? n : NULL;
}

/* A uid is printable text of a UUID's order of size (the API server
 * sends a UUID): one that is not would reach the log and the answer. */
static bool uid_like(const struct wg_node *n)
{
	if (n->len > UID_MAX)
		return false;
	for (size_t i = 0; i < n->len; i++)
		if ((unsigned char)n->u.str[i] < 0x20
		    || n->u.str[i] == 0x7f)
			return false;
	return true;
}

/* The first error on ctx from index from, as "line:col: message". */
static const char *parse_error(struct wg_ctx *ctx, struct wg_arena *a,
			       size_t from)
{
	for (size_t i = from; i < ctx->log.ndiags; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		if (d->severity != WG_SEV_ERROR)
			continue;
		if (d->line)
			return wg_arena_printf(a, "%u:%u: %s", d->line, d->col,
					       d->message);
		return wg_arena_strdup(a, d->message);
	}
	return "not JSON";
}

enum wg_review_error wg_review_decode(struct wg_ctx *ctx,
				      struct wg_resources *list,
				      const char *body, size_t len,
				      struct wg_review *out,
				      const char **why)
{
	struct wg_arena *a = &list->arena;
	struct wg_input in = { .name = (char *)"<request>",
			       .data = (char *)body, .len = len,
			       .borrowed = true };
	struct sizer sz;
	struct wg_json_opts jo = { sizer_close, &sz, true };
	struct wg_node **roots, *root, *req;
	const struct wg_node *n;
	size_t from = ctx->log.ndiags;
	long docs;

	memset(out, 0, sizeof(*out));
	*why = "";
	if (len > WG_REVIEW_MAX_BODY) {
		*why = wg_arena_printf(a, "the body is %zu bytes, over %zu",
				       len, WG_REVIEW_MAX_BODY);
		return WG_REVIEW_TOO_LARGE;
	}
	memset(&sz, 0, sizeof(sz));
	docs = wg_json_read(ctx, &in, a, &jo, &roots);
	if (docs == 1) {
		req = wg_map_get(roots[0], "request");
		out->object_bytes = sized(&sz, object_at(req, "object"));
		out->old_object_bytes = sized(&sz, object_at(req,
							     "oldObject"));
	}
	free(sz.items);
	if (docs != 1) {
		*why = docs == 0 ? "the body is empty"
		       : docs > 1 ? "more than one document"
				  : parse_error(ctx, a, from);
		return WG_REVIEW_MALFORMED;
	}
	root = roots[0];
	if (!wg_is_map(root) || !wg_scalar_is(wg_map_get(root, "kind"),
					      "AdmissionReview")) {
		*why = "not an AdmissionReview";
		return WG_REVIEW_NOT_REVIEW;
	}
	if (!wg_scalar_is(wg_map_get(root, "apiVersion"), review_api)) {
		*why = wg_arena_printf(a, "apiVersion is not %s (the webhook's "
				       "admissionReviewVersions must be [v1])",
				       review_api);
		return WG_REVIEW_NOT_REVIEW;
	}
	req = wg_map_get(root, "request");
	if (!wg_is_map(req)) {
		*why = "the review has no request";
		return WG_REVIEW_NOT_REVIEW;
	}
	n = wg_map_get(req, "uid");
	if (!wg_is_scalar(n) || wg_node_is_null(n) || n->len == 0) {
		*why = "request.uid is missing";
		return WG_REVIEW_NO_UID;
	}
	if (!uid_like(n)) {
		*why = "request.uid is no UID";
		return WG_REVIEW_NO_UID;
	}
	out->uid = wg_scalar_dup(a, n);
	n = wg_map_get(req, "kind");
	out->kind_group = str_at(a, n, "group");
	out->kind_version = str_at(a, n, "version");
	out->kind = str_at(a, n, "kind");
	out->resource = str_at(a, wg_map_get(req, "resource"), "resource");
	out->sub_resource = str_at(a, req, "subResource");
	out->name = str_at(a, req, "name");
	out->namespace_ = str_at(a, req, "namespace");
	out->operation = str_at(a, req, "operation");
	out->dry_run = wg_node_bool(wg_map_get(req, "dryRun")) == WG_BOOL_TRUE;
	out->object = object_at(req, "object");
	out->old_object = object_at(req, "oldObject");
	return WG_REVIEW_OK;
}

const char *wg_review_error_name(enum wg_review_error e)
{
	switch (e) {
	case WG_REVIEW_OK:
		return "ok";
	case WG_REVIEW_MALFORMED:
		return "malformed JSON";
	case WG_REVIEW_NOT_REVIEW:
		return "not an admission.k8s.io/v1 AdmissionReview";
	case WG_REVIEW_NO_UID:
		return "no request.uid";
	case WG_REVIEW_TOO_LARGE:
		return "request too large";
	}
	return "bad request";
}

static void add_key(struct wg_buf *out, const char *key)
{
	wg_buf_addch(out, ',');
	wg_json_quote(out, key, strlen(key));
	wg_buf_addch(out, ':');
}

int wg_review_encode(struct wg_buf *out, const char *uid,
		     const struct wg_review_answer *ans)
{
	wg_buf_addstr(out, "{\"apiVersion\":\"");
	wg_buf_addstr(out, review_api);
	wg_buf_addstr(out, "\",\"kind\":\"AdmissionReview\",\"response\":{"
		      "\"uid\":");
	wg_json_quote(out, uid, strlen(uid));
	add_key(out, "allowed");
	wg_buf_addstr(out, ans->allowed ? "true" : "false");
	if (ans->code || ans->message) {
		add_key(out, "status");
		wg_buf_addch(out, '{');
		if (ans->code)
			wg_buf_addf(out, "\"code\":%d%s", ans->code,
				    ans->message ? "," : "");
		if (ans->message) {
			wg_buf_addstr(out, "\"message\":");
			wg_json_quote(out, ans->message,
				      strlen(ans->message));
		}
		wg_buf_addch(out, '}');
	}
	if (ans->patch && ans->patch_len) {
		gnutls_datum_t raw = { (unsigned char *)ans->patch,
				       (unsigned)ans->patch_len };
		gnutls_datum_t b64 = { NULL, 0 };

		if (ans->patch_len > UINT32_MAX / 2
		    || gnutls_base64_encode2(&raw, &b64) < 0)
			return -1;
		add_key(out, "patchType");
		wg_buf_addstr(out, "\"JSONPatch\"");
		add_key(out, "patch");
		wg_buf_addch(out, '"');
		wg_buf_add(out, b64.data, b64.size);
		wg_buf_addch(out, '"');
		gnutls_free(b64.data);
	}
	if (ans->nwarnings) {
		add_key(out, "warnings");
		wg_buf_addch(out, '[');
		for (size_t i = 0; i < ans->nwarnings; i++) {
			if (i)
				wg_buf_addch(out, ',');
			wg_json_quote(out, ans->warnings[i],
				      strlen(ans->warnings[i]));
		}
		wg_buf_addch(out, ']');
	}
	wg_buf_addstr(out, "}}");
	return 0;
}
