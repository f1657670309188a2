/*
 * Diagnostics and changes about an object of the stream: wg_report() and
 * wg_record_change() of ctx.h, here because they read the object's identity
 * (resource.c) and render values as flow YAML (writer.c).  Keeping them out of
 * base/ctx.c keeps the context below the YAML engine.
 */
#include "wingen/base/ctx.h"

#include <stdarg.h>

#include "wingen/base/buf.h"
#include "wingen/yaml/resource.h"
#include "wingen/yaml/flow.h"

int wg_report(struct wg_ctx *ctx, enum wg_severity sev,
	      const struct wg_resource *res, const struct wg_node *node,
	      const char *field, const char *fmt, ...)
{
	struct wg_diag d = { .severity = sev, .field = field };
	struct wg_arena scratch = WG_ARENA_INIT;
	va_list ap;
	int rc;

	if (res) {
		/*
		 * The object is marked: an object with an error is edited by
		 * no plugin as far as anyone can see (wg_pipeline_run drops
		 * its changes; a run with an error writes no object).  The
		 * flag is bookkeeping on an object the caller owns mutably;
		 * only the reporting interface takes it as const.
		 */
		if (sev == WG_SEV_ERROR)
			((struct wg_resource *)res)->flags |= WG_RES_ERROR;
		wg_resource_ref(&scratch, res, &d.ref);
		d.file = res->file;
		if (res->root && wg_node_has_pos(res->root)) {
			d.line = wg_node_line(res->root) + 1;
			d.col = wg_node_col(res->root) + 1;
		}
	}
	if (node && wg_node_has_pos(node)) {
		d.line = wg_node_line(node) + 1;
		d.col = wg_node_col(node) + 1;
	}
	va_start(ap, fmt);
	rc = wg_vreport_diag(ctx, &d, fmt, ap);
	va_end(ap);
	wg_arena_release(&scratch);
	return rc;
}

void wg_record_change(struct wg_ctx *ctx, enum wg_change_op op,
		      const struct wg_resource *res, const struct wg_node *node,
		      const char *field, const struct wg_node *old_value,
		      const struct wg_node *new_value, const char *reason)
{
	struct wg_change c = {
		.op = op, .field = field, .plugin = ctx->plugin,
		.reason = reason, .subject = res,
	};
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_buf oldb = WG_BUF_INIT, newb = WG_BUF_INIT;

	if (ctx->skip_changes)
		return;

	if (res) {
		wg_resource_ref(&scratch, res, &c.ref);
		c.file = res->file;
		if (res->root && wg_node_has_pos(res->root)) {
			c.line = wg_node_line(res->root) + 1;
			c.col = wg_node_col(res->root) + 1;
		}
	}
	if (node && wg_node_has_pos(node)) {
		c.line = wg_node_line(node) + 1;
		c.col = wg_node_col(node) + 1;
	}
	/* a log that keeps objects only needs no values written */
	if (old_value && !ctx->log.refs_only) {
		wg_node_to_flow(&oldb, old_value);
		c.old_value = oldb.buf;
	}
	if (new_value && !ctx->log.refs_only) {
		wg_node_to_flow(&newb, new_value);
		c.new_value = newb.buf;
	}
	wg_log_add_change(&ctx->log, &c);
	wg_buf_release(&oldb);
	wg_buf_release(&newb);
	wg_arena_release(&scratch);
}
