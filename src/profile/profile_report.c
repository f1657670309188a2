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

/* One diagnostic of the profile file at node, or at the nearest node
 * below root on field's path. */
static int report(struct wg_ctx *ctx, const char *file,
		  const struct wg_node *root, enum wg_severity sev,
		  const struct wg_node *node, const char *field,
		  const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

static int report(struct wg_ctx *ctx, const char *file,
		  const struct wg_node *root, enum wg_severity sev,
		  const struct wg_node *node, const char *field,
		  const char *fmt, va_list ap)
{
	struct wg_buf msg = WG_BUF_INIT;
	struct wg_diag d = { .severity = sev, .file = file, .field = field };

	if (!node)
		node = wg_profile_nearest(root, field);
	if (node && wg_node_has_pos(node)) {
		d.line = wg_node_line(node) + 1;
		d.col = wg_node_col(node) + 1;
	}
	wg_buf_vaddf(&msg, fmt, ap);
	d.message = msg.buf;
	wg_log_add_diag(&ctx->log, &d);
	wg_buf_release(&msg);
	return sev == WG_SEV_ERROR ? -1 : 0;
}

int wg_profile_report(struct wg_profile_loader *L, enum wg_severity sev,
		       const struct wg_node *node, const char *field,
		       const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = report(L->ctx, L->file, L->root, sev, node, field, fmt, ap);
	va_end(ap);
	return rc;
}

int wg_profile_report_setting(struct wg_ctx *ctx, const struct wg_profile *p,
			      enum wg_severity sev, const struct wg_node *node,
			      const char *field, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = report(ctx, p->path, p->root, sev, node, field, fmt, ap);
	va_end(ap);
	return rc;
}
