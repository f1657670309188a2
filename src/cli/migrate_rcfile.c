/*
 * The RuntimeClass file migrate writes: what it held before is kept
 * unless this run generates it again (cmd_migrate.c runtimeclasses()).
 */
#include "migrate_rcfile.h"

#include <string.h>

#include "wingen/base/arena.h"
#include "wingen/yaml/reader.h"

/* The API group of an apiVersion ("" for the core group's "v1"). */
static size_t group_len(const char *api_version)
{
	const char *slash = api_version ? strchr(api_version, '/') : NULL;

	return slash ? (size_t)(slash - api_version) : 0;
}

/* The same object in a cluster: API group, kind, namespace and name. */
static bool same_object(struct wg_arena *a, const struct wg_resource *x,
			const struct wg_resource *y)
{
	struct wg_ref rx, ry;
	size_t gx, gy;

	wg_resource_ref(a, x, &rx);
	wg_resource_ref(a, y, &ry);
	gx = group_len(rx.api_version);
	gy = group_len(ry.api_version);
	return gx == gy && (!gx || memcmp(rx.api_version, ry.api_version,
					  gx) == 0)
	       && strcmp(wg_resource_label(a, x), wg_resource_label(a, y)) == 0;
}

long wg_rcfile_keep_earlier(struct wg_ctx *ctx, const struct wg_input *in,
			    struct wg_resources *gen, struct wg_resources *old,
			    struct wg_buf *names)
{
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_ctx scratch;
	size_t generated = gen->len;
	long kept = 0;

	wg_ctx_init(&scratch);
	scratch.limits = ctx->limits;
	if (wg_read_stream(&scratch, in, old) || wg_ctx_failed(&scratch)) {
		const struct wg_diag *d = NULL;

		for (size_t i = 0; i < scratch.log.ndiags && !d; i++)
			if (scratch.log.diags[i].severity == WG_SEV_ERROR)
				d = &scratch.log.diags[i];
		wg_report_at(ctx, WG_SEV_ERROR, d ? d->file : in->name,
			     d ? d->line : 0, d ? d->col : 0,
			     "%s; migrate writes its RuntimeClasses to this "
			     "file and keeps what it holds, so it must read "
			     "(fix it, remove it, or give --runtimeclass-file)",
			     d ? d->message : "cannot be read");
		wg_ctx_release(&scratch);
		return -1;
	}
	wg_ctx_release(&scratch);
	for (size_t i = 0; i < old->len; i++) {
		struct wg_resource *res = old->items[i];
		bool again = false;

		for (size_t g = 0; g < generated && !again; g++)
			again = same_object(&a, gen->items[g], res);
		if (again)
			continue;
		wg_resources_append(gen, res);
		if (kept < WG_RCFILE_NAMED)
			wg_buf_addf(names, "%s%s", kept ? ", " : "",
				    wg_resource_label(&a, res));
		kept++;
	}
	if (kept > WG_RCFILE_NAMED)
		wg_buf_addf(names, " and %ld more", kept - WG_RCFILE_NAMED);
	wg_arena_release(&a);
	return kept;
}
