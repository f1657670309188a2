#include "wingen/ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wingen/buf.h"
#include "wingen/resource.h"
#include "wingen/writer.h"

void wg_limits_default(struct wg_limits *l)
{
	l->max_depth = 512;
	l->max_alias_nodes = 100000;
	l->max_doc_bytes = 64u << 20;
	l->max_scalar_bytes = 16u << 20;
	l->max_documents = 1000000;
	l->max_input_bytes = (size_t)2 << 30;
	l->regex_match_limit = 1000000;
	l->regex_depth_limit = 10000;
}

void wg_ctx_init(struct wg_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	wg_limits_default(&ctx->limits);
	wg_log_init(&ctx->log);
}

void wg_ctx_release(struct wg_ctx *ctx)
{
	wg_log_release(&ctx->log);
}

bool wg_ctx_failed(const struct wg_ctx *ctx)
{
	return ctx->log.counts[WG_SEV_ERROR] > 0
	       || (ctx->strict && ctx->log.counts[WG_SEV_WARNING] > 0);
}

__attribute__((format(printf, 3, 0)))
static int add(struct wg_ctx *ctx, struct wg_diag *d, const char *fmt,
	       va_list ap)
{
	struct wg_buf msg = WG_BUF_INIT;

	wg_buf_vaddf(&msg, fmt, ap);
	d->message = msg.buf;
	wg_log_add_diag(&ctx->log, d);
	wg_buf_release(&msg);
	return d->severity == WG_SEV_ERROR ? -1 : 0;
}

int wg_report(struct wg_ctx *ctx, enum wg_severity sev,
	      const struct wg_resource *res, const struct wg_node *node,
	      const char *field, const char *fmt, ...)
{
	struct wg_diag d = { .severity = sev, .field = field };
	struct wg_arena scratch = WG_ARENA_INIT;
	va_list ap;
	int rc;

	if (res) {
		wg_resource_ref(&scratch, res, &d.ref);
		d.file = res->file;
		if (res->root && !(res->root->flags & WG_NODE_NEW)) {
			d.line = res->root->line + 1;
			d.col = res->root->col + 1;
		}
	}
	if (node && !(node->flags & WG_NODE_NEW)) {
		d.line = node->line + 1;
		d.col = node->col + 1;
	}
	va_start(ap, fmt);
	rc = add(ctx, &d, fmt, ap);
	va_end(ap);
	wg_arena_release(&scratch);
	return rc;
}

int wg_vreport_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		  uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	struct wg_diag d = {
		.severity = sev, .file = file, .line = line, .col = col,
	};

	return add(ctx, &d, fmt, ap);
}

int wg_report_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		 uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wg_vreport_at(ctx, sev, file, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

void wg_record_change(struct wg_ctx *ctx, enum wg_change_op op,
		      const struct wg_resource *res, const struct wg_node *node,
		      const char *field, const struct wg_node *old_value,
		      const struct wg_node *new_value, const char *reason)
{
	struct wg_change c = {
		.op = op, .field = field, .plugin = ctx->plugin,
		.reason = reason,
	};
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_buf oldb = WG_BUF_INIT, newb = WG_BUF_INIT;

	if (res) {
		wg_resource_ref(&scratch, res, &c.ref);
		c.file = res->file;
		if (res->root && !(res->root->flags & WG_NODE_NEW)) {
			c.line = res->root->line + 1;
			c.col = res->root->col + 1;
		}
	}
	if (node && !(node->flags & WG_NODE_NEW)) {
		c.line = node->line + 1;
		c.col = node->col + 1;
	}
	if (old_value) {
		wg_node_to_flow(&oldb, old_value);
		c.old_value = oldb.buf;
	}
	if (new_value) {
		wg_node_to_flow(&newb, new_value);
		c.new_value = newb.buf;
	}
	wg_log_add_change(&ctx->log, &c);
	wg_buf_release(&oldb);
	wg_buf_release(&newb);
	wg_arena_release(&scratch);
}
