/*
 * One admission review answered (admit.h).
 */
#include "wingen/serve/admit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/chain/run.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/podspec.h"
#include "wingen/serve/patch.h"
#include "wingen/serve/review.h"
#include "wingen/yaml/resource.h"

/* The largest arena block a worker keeps between requests. */
#define KEEP_BYTES ((size_t)256 << 10)

const char *wg_admit_outcome_name(enum wg_admit_outcome o)
{
	static const char *const names[WG_OUTCOME_COUNT] = {
		"allowed", "patched", "denied", "refused", "bad_request",
		"error",
	};

	return (unsigned)o < WG_OUTCOME_COUNT ? names[o] : "error";
}

void wg_admit_init(struct wg_admit *a)
{
	memset(a, 0, sizeof(*a));
	wg_buf_init(&a->body);
	wg_buf_init(&a->reason);
	wg_buf_init(&a->scratch);
}

void wg_admit_release(struct wg_admit *a)
{
	wg_arena_release(&a->arena);
	wg_buf_release(&a->body);
	wg_buf_release(&a->reason);
	wg_buf_release(&a->scratch);
}

/* Copies s into a buffer of cap bytes, cut at a UTF-8 boundary. */
static void copy_cut(char *dst, size_t cap, const char *s, size_t len)
{
	if (len >= cap) {
		len = cap - 1;
		while (len && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	/* one line in the log whatever the request says */
	for (char *c = dst; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
}

static void copy_str(char *dst, size_t cap, const char *s)
{
	copy_cut(dst, cap, s, strlen(s));
}

/* Cuts b to at most max bytes at a UTF-8 boundary, with "..." then. */
static void cut_utf8(struct wg_buf *b, size_t max)
{
	size_t len;

	if (b->len <= max)
		return;
	len = max - 3;
	while (len && ((unsigned char)b->buf[len] & 0xC0) == 0x80)
		len--;
	b->len = len;
	wg_buf_addstr(b, "...");
}

/* The answer being made: the strings live in arena. */
struct answer {
	struct wg_review_answer r;
	const char *warnings[WG_ADMIT_MAX_WARNINGS + 1];
	size_t nfindings;	/* warnings found, sent or not */
};

static void warn(struct answer *ans, struct wg_arena *arena, const char *s)
{
	if (ans->r.nwarnings < WG_ADMIT_MAX_WARNINGS) {
		struct wg_buf b = WG_BUF_INIT;

		wg_buf_addstr(&b, s);
		cut_utf8(&b, WG_ADMIT_WARNING_BYTES);
		ans->warnings[ans->r.nwarnings++] = wg_arena_strdup(arena,
								    b.buf);
		wg_buf_release(&b);
	}
	ans->nfindings++;
}

static void finish_warnings(struct answer *ans, struct wg_arena *arena)
{
	if (ans->nfindings > ans->r.nwarnings) {
		size_t more = ans->nfindings - ans->r.nwarnings;

		ans->warnings[ans->r.nwarnings++] = wg_arena_printf(
			arena, "wingen: %zu more findings (wingen check "
			"gives them all)", more);
	}
	ans->r.warnings = ans->warnings;
}

/* "field: message" of a diagnostic. */
static void diag_text(struct wg_buf *b, const struct wg_diag *d)
{
	if (d->field)
		wg_buf_addf(b, "%s: ", d->field);
	wg_buf_addstr(b, d->message);
}

static void change_text(struct wg_buf *b, const struct wg_change *c)
{
	wg_buf_addf(b, "%s: %s -> %s (%s)", c->field ? c->field : "?",
		    c->old_value ? c->old_value : "<none>",
		    c->new_value ? c->new_value : "<removed>",
		    c->plugin ? c->plugin : "wingen");
}

/* The request's facts, for the log. */
static void note_request(struct wg_admit *a, const struct wg_review *rv)
{
	const struct wg_node *meta = wg_map_get(rv->object, "metadata");
	const struct wg_node *gen = wg_map_get(meta, "generateName");

	copy_str(a->uid, sizeof(a->uid), rv->uid);
	copy_str(a->kind, sizeof(a->kind), rv->kind);
	copy_str(a->namespace_, sizeof(a->namespace_), rv->namespace_);
	copy_str(a->operation, sizeof(a->operation), rv->operation);
	a->dry_run = rv->dry_run;
	if (*rv->name) {
		copy_str(a->name, sizeof(a->name), rv->name);
	} else if (wg_is_scalar(gen) && gen->len
		   && gen->len < sizeof(a->name) - 1) {
		copy_cut(a->name, sizeof(a->name) - 1, gen->u.str, gen->len);
		strcat(a->name, "*");
	}
}

static bool kind_handled(const struct wg_admit_kinds *k,
			 const struct wg_kind *kind)
{
	static const char *const pods[] = { "Pod" };
	const char *const *names = k && k->n ? k->names : pods;
	size_t n = k && k->n ? k->n : 1;

	if (!kind)
		return false;
	if (k && k->all)
		return true;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], kind->kind) == 0)
			return true;
	return false;
}

/* Whether every pod template of old and now is the same: specs, labels
 * and annotations of the object and of each template. */
static bool templates_same(struct wg_arena *arena, const struct wg_profile *p,
			   struct wg_resources *list, struct wg_resource *now,
			   struct wg_node *old_root)
{
	struct wg_resource *old = wg_resource_new(list, old_root, "<request>",
						  0);
	struct wg_podspec *a, *b;
	size_t na = wg_podspec_find_all(arena, &p->kinds, old, &a);
	size_t nb = wg_podspec_find_all(arena, &p->kinds, now, &b);
	const char *meta[] = { "metadata.labels", "metadata.annotations" };

	if (na != nb)
		return false;
	for (size_t i = 0; i < 2; i++)
		if (!wg_node_equal(wg_path_get(old_root, meta[i]),
				   wg_path_get(now->root, meta[i]))
		    && (wg_path_get(old_root, meta[i])
			|| wg_path_get(now->root, meta[i])))
			return false;
	for (size_t i = 0; i < na; i++) {
		const struct wg_node *pairs[3][2] = {
			{ a[i].spec, b[i].spec },
			{ wg_podspec_labels(&a[i]), wg_podspec_labels(&b[i]) },
			{ wg_podspec_annotations(&a[i]),
			  wg_podspec_annotations(&b[i]) },
		};

		for (size_t k = 0; k < 3; k++) {
			if (!pairs[k][0] && !pairs[k][1])
				continue;
			if (!pairs[k][0] || !pairs[k][1]
			    || !wg_node_equal(pairs[k][0], pairs[k][1]))
				return false;
		}
	}
	return true;
}

static void refuse(struct wg_admit *a, struct answer *ans, int code,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void refuse(struct wg_admit *a, struct answer *ans, int code,
		   const char *fmt, ...)
{
	va_list ap;

	wg_buf_reset(&a->reason);
	va_start(ap, fmt);
	wg_buf_vaddf(&a->reason, fmt, ap);
	va_end(ap);
	a->outcome = WG_OUTCOME_REFUSED;
	ans->r.allowed = false;
	ans->r.code = code;
	ans->r.message = a->reason.buf;
}

/* The reasons of a denial: the errors, then (validate) the changes. */
static void deny_reasons(struct wg_admit *a, const struct wg_ctx *ctx,
			 bool with_changes, long ops)
{
	size_t shown = 0, more = 0;
	struct wg_buf *b = &a->reason;

	wg_buf_reset(b);
	wg_buf_addstr(b, "wingen: ");
	for (size_t i = 0; i < ctx->log.ndiags; i++) {
		if (ctx->log.diags[i].severity != WG_SEV_ERROR)
			continue;
		if (shown++ >= WG_ADMIT_MAX_REASONS) {
			more++;
			continue;
		}
		if (shown > 1)
			wg_buf_addstr(b, "; ");
		diag_text(b, &ctx->log.diags[i]);
	}
	if (with_changes && ops > 0) {
		if (shown)
			wg_buf_addstr(b, "; ");
		wg_buf_addf(b, "the profile's chain would change %s: ",
			    ctx->log.nchanges == 1 ? "one field"
						   : "these fields");
		for (size_t i = 0; i < ctx->log.nchanges; i++) {
			if (i >= WG_ADMIT_MAX_REASONS) {
				more += ctx->log.nchanges - i;
				break;
			}
			if (i)
				wg_buf_addstr(b, ", ");
			change_text(b, &ctx->log.changes[i]);
		}
		if (!ctx->log.nchanges)
			wg_buf_addf(b, "%ld patch operations", ops);
		wg_buf_addstr(b, " (mutate with /mutate, or render with "
			      "wingen build)");
	}
	if (more)
		wg_buf_addf(b, "; %zu more", more);
	cut_utf8(b, 2048);
}

/* Findings as warnings: errors (said to be what would deny), warnings,
 * and (validate) the changes. */
static void findings_as_warnings(struct answer *ans, struct wg_arena *arena,
				 const struct wg_ctx *ctx, bool errors_too,
				 bool changes, struct wg_buf *b)
{
	for (size_t i = 0; i < ctx->log.ndiags; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		if (d->severity == WG_SEV_INFO
		    || (d->severity == WG_SEV_ERROR && !errors_too))
			continue;
		wg_buf_reset(b);
		wg_buf_addstr(b, d->severity == WG_SEV_ERROR
			      ? "wingen would deny: " : "wingen: ");
		diag_text(b, d);
		warn(ans, arena, b->buf);
	}
	for (size_t i = 0; changes && i < ctx->log.nchanges; i++) {
		wg_buf_reset(b);
		wg_buf_addstr(b, "wingen would change ");
		change_text(b, &ctx->log.changes[i]);
		warn(ans, arena, b->buf);
	}
}

/* The chain may make objects of one (a fan-out's copy per build): a
 * webhook answers for the object it was sent, so that is an error. */
static void one_object(struct wg_ctx *ctx, struct wg_resources *list,
		       struct wg_resource *res)
{
	size_t more = 0;

	for (size_t i = 0; i < list->len; i++)
		if (list->items[i] != res
		    && !(list->items[i]->flags & WG_RES_DELETED))
			more++;
	if (more || (res->flags & WG_RES_DELETED))
		wg_error(ctx, res, NULL, NULL, "the profile's chain makes "
			 "%zu more objects of this one (fan-out to several "
			 "builds); a webhook answers for one object: render "
			 "the workload with wingen build", more);
}

/* Runs the chain on the one object and makes the answer. */
static void review(struct wg_admit *a, struct answer *ans,
		   struct wg_ctx *ctx, struct wg_resources *list,
		   const struct wg_profile *p, const struct wg_admit_opts *o,
		   const struct wg_review *rv)
{
	struct wg_arena *arena = &list->arena;
	struct wg_resource *res;
	struct wg_node *meta, *root;
	struct wg_node_journal *journal;
	bool lenient, update_same = false, validate;
	long ops;
	int rc;

	res = wg_resource_new(list, rv->object, "<request>", 0);
	wg_resources_append(list, res);
	meta = wg_map_get(rv->object, "metadata");
	if (!wg_is_map(rv->object) || !wg_is_map(meta)) {
		refuse(a, ans, 400, "wingen: request.object has no metadata");
		return;
	}
	if (!kind_handled(o->kinds, wg_kind_of(&p->kinds, res))) {
		const struct wg_node *k = wg_map_get(rv->object, "kind");

		refuse(a, ans, 400, "wingen: %.*s is not a kind this webhook "
		       "reviews (wingen serve --kinds; the webhook's rules "
		       "should not send it)",
		       wg_is_scalar(k) ? (int)(k->len > 64 ? 64 : k->len) : 7,
		       wg_is_scalar(k) ? k->u.str : "no kind");
		return;
	}
	/* Selection by namespace must see where the object goes; set
	 * before the journal starts, it is in no patch operation. */
	if (*rv->namespace_) {
		const struct wg_node *ns = wg_map_get(meta, "namespace");

		if (!wg_is_scalar(ns) || wg_node_is_null(ns) || !ns->len)
			wg_map_set(arena, meta, "namespace",
				   wg_node_new_str(arena, rv->namespace_));
	}
	if (strcmp(rv->operation, "UPDATE") == 0 && rv->old_object)
		update_same = templates_same(arena, p, list, res,
					     rv->old_object);
	validate = o->endpoint == WG_ADMIT_VALIDATE;
	lenient = o->audit || update_same;
	ctx->skip_changes = !validate && !update_same;
	journal = wg_node_journal_new_sized(16);
	root = res->root;
	wg_node_journal_start(journal);
	rc = wg_run_chain(ctx, p, list, WG_RC_NONE);
	wg_node_journal_stop();
	if (rc != 0 || res->root != root) {
		wg_node_journal_free(journal);
		a->outcome = WG_OUTCOME_ERROR;
		wg_buf_reset(&a->reason);
		wg_buf_addstr(&a->reason, "wingen: the profile's chain could "
			      "not finish on this object");
		ans->r.allowed = false;
		ans->r.code = 500;
		ans->r.message = a->reason.buf;
		return;
	}
	wg_buf_reset(&a->scratch);
	ops = wg_json_patch(ctx, &a->scratch, journal, res, root);
	wg_node_journal_free(journal);
	if (ops < 0) {
		a->outcome = WG_OUTCOME_ERROR;
		wg_buf_reset(&a->reason);
		wg_buf_addstr(&a->reason, "wingen: the change has no JSON form");
		ans->r.allowed = false;
		ans->r.code = 500;
		ans->r.message = a->reason.buf;
		return;
	}
	one_object(ctx, list, res);
	if (ctx->log.counts[WG_SEV_ERROR] || (validate && ops > 0)) {
		deny_reasons(a, ctx, validate, ops);
		if (!lenient) {
			a->outcome = WG_OUTCOME_DENIED;
			ans->r.allowed = false;
			ans->r.code = 403;
			ans->r.message = a->reason.buf;
			findings_as_warnings(ans, arena, ctx, false, false,
					     &a->scratch);
			return;
		}
	}
	/* Admitted: the findings as warnings, the patch unless the chain
	 * failed on the object, or it is an UPDATE that changes no
	 * template, or this is /validate. */
	ans->r.allowed = true;
	a->outcome = WG_OUTCOME_ALLOWED;
	if (!validate && !update_same && ops > 0
	    && !ctx->log.counts[WG_SEV_ERROR]) {
		ans->r.patch = a->scratch.buf;
		ans->r.patch_len = a->scratch.len;
		a->patch_ops = ops;
		a->outcome = WG_OUTCOME_PATCHED;
	} else {
		struct wg_buf w = WG_BUF_INIT;

		findings_as_warnings(ans, arena, ctx, true,
				     validate || (update_same && ops > 0), &w);
		wg_buf_release(&w);
		return;
	}
	{
		struct wg_buf w = WG_BUF_INIT;

		findings_as_warnings(ans, arena, ctx, true, false, &w);
		wg_buf_release(&w);
	}
}

void wg_admit_run(struct wg_admit *a, const struct wg_profile *p,
		  const struct wg_admit_opts *o, const char *body, size_t len)
{
	struct wg_ctx ctx;
	struct wg_resources list;
	struct wg_review rv;
	struct answer ans;
	enum wg_review_error err;
	const char *why;

	wg_buf_reset(&a->body);
	wg_buf_reset(&a->reason);
	wg_buf_reset(&a->scratch);
	a->http_status = 200;
	a->outcome = WG_OUTCOME_ALLOWED;
	a->uid[0] = a->kind[0] = a->namespace_[0] = a->name[0] = '\0';
	a->operation[0] = '\0';
	a->dry_run = false;
	a->patch_ops = 0;
	a->nwarnings = 0;
	memset(&ans, 0, sizeof(ans));
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	list.single = true;
	/* the worker's arena: its block from the last request serves
	 * again (no malloc, no page faults for a typical review) */
	list.arena = a->arena;
	a->arena = (struct wg_arena)WG_ARENA_INIT;
	err = wg_review_decode(&ctx, &list, body, len, &rv, &why);
	if (err != WG_REVIEW_OK) {
		a->http_status = err == WG_REVIEW_TOO_LARGE ? 413 : 400;
		a->outcome = WG_OUTCOME_BAD_REQUEST;
		wg_buf_addf(&a->reason, "%s: %s", wg_review_error_name(err),
			    why);
		cut_utf8(&a->reason, 512);
		wg_buf_addf(&a->body, "wingen: %s\n", a->reason.buf);
		goto out;
	}
	note_request(a, &rv);
	if (strcmp(rv.operation, "DELETE") == 0
	    || strcmp(rv.operation, "CONNECT") == 0) {
		/* nothing is created or changed: nothing to review */
		ans.r.allowed = true;
		wg_buf_addf(&a->reason, "%s: no object to review",
			    rv.operation);
	} else if (*rv.sub_resource) {
		refuse(a, &ans, 400, "wingen: subresource %.64s is not "
		       "reviewed (the webhook's rules should name the "
		       "resource alone)", rv.sub_resource);
	} else if (!rv.object) {
		refuse(a, &ans, 400, "wingen: the request has no object");
	} else if (rv.object_bytes > WG_REVIEW_MAX_OBJECT
		   || rv.old_object_bytes > WG_REVIEW_MAX_OBJECT) {
		refuse(a, &ans, 413, "wingen: the object is %zu bytes, over "
		       "the API server's limit of %zu",
		       rv.object_bytes > rv.old_object_bytes
		       ? rv.object_bytes : rv.old_object_bytes,
		       WG_REVIEW_MAX_OBJECT);
	} else {
		review(a, &ans, &ctx, &list, p, o, &rv);
	}
	finish_warnings(&ans, &list.arena);
	a->nwarnings = ans.nfindings;
	if (wg_review_encode(&a->body, rv.uid, &ans.r) != 0) {
		/* a patch that cannot be encoded: say no */
		wg_buf_reset(&a->body);
		ans.r.allowed = false;
		ans.r.patch = NULL;
		ans.r.code = 500;
		ans.r.message = "wingen: the patch could not be encoded";
		a->outcome = WG_OUTCOME_ERROR;
		a->patch_ops = 0;
		wg_review_encode(&a->body, rv.uid, &ans.r);
	}
out:
	a->arena = list.arena;
	list.arena = (struct wg_arena)WG_ARENA_INIT;
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
	/* one block is kept, unless a large request made it large */
	if (a->arena.head && a->arena.head->size > KEEP_BYTES)
		wg_arena_release(&a->arena);
	else
		wg_arena_clear(&a->arena);
}
