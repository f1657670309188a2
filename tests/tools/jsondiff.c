/* The JSON reader against the YAML reader (jsondiff.h). */
#include "jsondiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/yaml/json_reader.h"
#include "wingen/yaml/reader.h"

bool jd_same_tree(const struct wg_node *a, const struct wg_node *b,
		  char *why, size_t size)
{
	const char *ta = wg_node_tag(a), *tb = wg_node_tag(b);
	size_t kids;

	if (a->kind != b->kind || a->style != b->style
	    || a->flags != b->flags || a->len != b->len
	    || wg_node_line(a) != wg_node_line(b)
	    || wg_node_col(a) != wg_node_col(b)
	    || (!ta != !tb) || (ta && strcmp(ta, tb))
	    || (a->kind == WG_NODE_SCALAR
		&& memcmp(a->u.str, b->u.str, a->len))) {
		snprintf(why, size, "yaml node kind %d style %d flags %d len "
			 "%u at %u:%u '%.*s'; json node kind %d style %d "
			 "flags %d len %u at %u:%u '%.*s'",
			 a->kind, a->style, a->flags, a->len,
			 wg_node_line(a) + 1, wg_node_col(a) + 1,
			 a->kind == WG_NODE_SCALAR ? (int)(a->len > 40 ? 40
							   : a->len) : 0,
			 a->kind == WG_NODE_SCALAR ? a->u.str : "",
			 b->kind, b->style, b->flags, b->len,
			 wg_node_line(b) + 1, wg_node_col(b) + 1,
			 b->kind == WG_NODE_SCALAR ? (int)(b->len > 40 ? 40
							   : b->len) : 0,
			 b->kind == WG_NODE_SCALAR ? b->u.str : "");
		return false;
	}
	if (a->kind == WG_NODE_SCALAR)
		return true;
	kids = a->kind == WG_NODE_MAP ? 2 * (size_t)a->len : a->len;
	for (size_t i = 0; i < kids; i++)
		if (!jd_same_tree(a->u.items[i], b->u.items[i], why, size))
			return false;
	return true;
}

static void first_message(const struct wg_ctx *ctx, char *out, size_t size)
{
	out[0] = '\0';
	if (ctx->log.ndiags)
		snprintf(out, size, "%u:%u: %s", ctx->log.diags[0].line,
			 ctx->log.diags[0].col, ctx->log.diags[0].message);
}

void jd_compare(const struct wg_input *in, const struct wg_limits *limits,
		struct jd_result *out)
{
	struct wg_ctx yctx, jctx;
	struct wg_arena arena;
	struct wg_reader r;
	struct wg_node **yroots = NULL, **jroots = NULL, *root;
	size_t cap = 0;
	unsigned index;
	long n;
	int rc;

	memset(out, 0, sizeof(*out));
	wg_ctx_init(&yctx);
	wg_ctx_init(&jctx);
	if (limits)
		yctx.limits = jctx.limits = *limits;
	wg_arena_init(&arena);
	wg_reader_init(&r, &yctx, in);
	while ((rc = wg_reader_next(&r, &arena, &root, &index)) > 0) {
		if (out->yaml_docs == cap) {
			cap = cap ? 2 * cap : 8;
			yroots = realloc(yroots, cap * sizeof(*yroots));
		}
		yroots[out->yaml_docs++] = root;
	}
	wg_reader_release(&r);
	out->yaml_ok = rc == 0;
	n = wg_json_read(&jctx, in, &arena, NULL, &jroots);
	out->json_ok = n >= 0;
	out->json_docs = n > 0 ? (size_t)n : 0;
	first_message(&yctx, out->yaml_error, sizeof(out->yaml_error));
	first_message(&jctx, out->json_error, sizeof(out->json_error));
	if (!out->json_ok && wg_ctx_failed(&jctx) == false)
		snprintf(out->why, sizeof(out->why), "the JSON reader "
			 "failed without an error");
	else if (out->yaml_ok != out->json_ok)
		snprintf(out->why, sizeof(out->why), "the YAML reader %s (%s), "
			 "the JSON reader %s (%s)",
			 out->yaml_ok ? "reads it" : "refuses it",
			 out->yaml_error, out->json_ok ? "reads it"
			 : "refuses it", out->json_error);
	else if (out->yaml_ok && out->yaml_docs != out->json_docs)
		snprintf(out->why, sizeof(out->why), "the YAML reader reads %zu "
			 "documents, the JSON reader %zu", out->yaml_docs,
			 out->json_docs);
	else
		out->same = true;
	for (size_t i = 0; out->same && out->yaml_ok && i < out->yaml_docs;
	     i++) {
		char why[400];

		if (!jd_same_tree(yroots[i], jroots[i], why, sizeof(why))) {
			snprintf(out->why, sizeof(out->why), "document %zu: %s",
				 i, why);
			out->same = false;
		}
	}
	free(yroots);
	wg_arena_release(&arena);
	wg_ctx_release(&yctx);
	wg_ctx_release(&jctx);
}
