/*
 * Where a profile's problem is and how it is said: the node at a key path
 * (or its nearest parent that was written) and one diagnostic at its
 * position.  Every file of the loader reports through here; this file
 * calls none of them.
 */
#include <stdarg.h>
#include <string.h>

#include "profile_internal.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"

const struct wg_node *wg_profile_node(const struct wg_profile_loader *L,
				      const char *field)
{
	return wg_profile_nearest(L->root, field);
}

const struct wg_node *wg_profile_nearest(const struct wg_node *root,
					 const char *field)
{
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *n = NULL;

	if (!field)
		return root;
	wg_buf_addstr(&path, field);
	/* Drop trailing steps until something is there: a default that was
	 * not written is reported at its parent. */
	while (path.len && !(n = wg_path_get(root, path.buf))) {
		char *cut = strrchr(path.buf, '.');
		char *br = strrchr(path.buf, '[');

		if (br && (!cut || br > cut))
			cut = br;
		if (!cut)
			cut = path.buf;
		*cut = '\0';
		path.len = (size_t)(cut - path.buf);
	}
	wg_buf_release(&path);
	return n ? n : root;
}

int wg_profile_report(struct wg_profile_loader *L, enum wg_severity sev,
		       const struct wg_node *node, const char *field,
		       const char *fmt, ...)
{
	struct wg_buf msg = WG_BUF_INIT;
	struct wg_diag d = { .severity = sev, .file = L->file, .field = field };
	va_list ap;

	if (!node)
		node = wg_profile_node(L, field);
	if (node && wg_node_has_pos(node)) {
		d.line = wg_node_line(node) + 1;
		d.col = wg_node_col(node) + 1;
	}
	va_start(ap, fmt);
	wg_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	d.message = msg.buf;
	wg_log_add_diag(&L->ctx->log, &d);
	wg_buf_release(&msg);
	return sev == WG_SEV_ERROR ? -1 : 0;
}

int wg_profile_report_setting(struct wg_ctx *ctx, const struct wg_profile *p,
			      enum wg_severity sev, const struct wg_node *node,
			      const char *field, const char *fmt, ...)
{
	struct wg_buf msg = WG_BUF_INIT;
	struct wg_diag d = { .severity = sev, .file = p->path, .field = field };
	va_list ap;

	if (!node)
		node = wg_profile_nearest(p->root, field);
	if (node && wg_node_has_pos(node)) {
		d.line = wg_node_line(node) + 1;
		d.col = wg_node_col(node) + 1;
	}
	va_start(ap, fmt);
	wg_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	d.message = msg.buf;
	wg_log_add_diag(&ctx->log, &d);
	wg_buf_release(&msg);
	return sev == WG_SEV_ERROR ? -1 : 0;
}
