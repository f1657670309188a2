/*
 * Running a profile's chain (chain/run.h): build, check, fn, migrate and
 * the admission webhook all come here.
 */
#include "wingen/chain/run.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/core/annotations.h"
#include "wingen/core/pipeline.h"
#include "wingen/core/retarget.h"
#include "wingen/gen/runtimeclass.h"
#include "wingen/k8s/identity.h"
#include "wingen/k8s/podspec.h"

/* Runs chain over list after the one check of the stream as a whole
 * that every command makes: no object twice (k8s/identity.h). */
static int run(struct wg_ctx *ctx, const struct wg_profile *p,
	       struct wg_resources *list, const struct wg_chain *chain)
{
	wg_report_duplicates(ctx, list, ctx->keep_duplicates);
	wg_report_annotation_typos(ctx, &p->kinds, list);
	ctx->profile = p;
	return wg_pipeline_run(ctx, list, chain);
}

/* Whether name is the RuntimeClass of one of p's builds (or the one a
 * fan-out makes for several: "<name>-multi"). */
static bool known_runtime_class(const struct wg_profile *p, const char *name,
				size_t len)
{
	static const char multi[] = "-multi";

	for (size_t i = 0; i < p->nbuilds; i++) {
		size_t n = strlen(p->builds[i].runtime_class);

		if (strncmp(p->builds[i].runtime_class, name, n) != 0)
			continue;
		if (n == len || (len == n + sizeof(multi) - 1
				 && memcmp(name + n, multi, len - n) == 0))
			return true;
	}
	return false;
}

/* Whether the chain already reported an error on field of res (the
 * runtime-class-name transform does, for a name that is not the
 * workload's build's): one message per field. */
static bool reported(const struct wg_ctx *ctx, const struct wg_resource *res,
		     const char *field)
{
	for (size_t i = 0; i < ctx->log.ndiags; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		if (d->severity == WG_SEV_ERROR && d->field
		    && strcmp(d->field, field) == 0
		    && d->ref.index == res->index
		    && (d->ref.file == res->file
			|| (d->ref.file && res->file
			    && strcmp(d->ref.file, res->file) == 0)))
			return true;
	}
	return false;
}

/*
 * Post-renderer mode: the release brings no RuntimeClass of its own, so
 * each Windows pod (spec.os.name windows, as the chain leaves it) may
 * only name one the cluster was bootstrapped with, i.e. one of the
 * profile's; any other is rejected at admission when the pod is created.
 */
static void check_runtime_classes(struct wg_ctx *ctx,
				  const struct wg_profile *p,
				  struct wg_resources *list)
{
	struct wg_buf path = WG_BUF_INIT;
	struct wg_arena a;

	wg_arena_init(&a);
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		struct wg_podspec *pods;
		size_t n;

		if (res->flags & WG_RES_DELETED)
			continue;
		/* every pod spec: lists of templates, declared kinds */
		n = wg_podspec_find_all(&a, &p->kinds, res, &pods);
		for (size_t k = 0; k < n; k++) {
			const struct wg_podspec *ps = &pods[k];
			const struct wg_node *rcn, *os;

			rcn = wg_map_get(ps->spec, "runtimeClassName");
			os = wg_path_get(ps->spec, "os.name");
			if (!wg_is_scalar(rcn) || wg_node_is_null(rcn)
			    || !wg_scalar_is(os, "windows")
			    || known_runtime_class(p, rcn->u.str, rcn->len))
				continue;
			wg_podspec_path(&path, ps, "runtimeClassName",
					(const char *)NULL);
			if (reported(ctx, res, path.buf))
				continue;
			wg_error(ctx, res, rcn, path.buf,
				 "RuntimeClass '%.*s' is not one of the "
				 "profile's (%s%s): a post-renderer emits no "
				 "RuntimeClass, and the cluster gets only the "
				 "profile's (wingen runtimeclasses)%s",
				 (int)rcn->len, rcn->u.str,
				 p->builds[0].runtime_class,
				 p->nbuilds > 1 ? ", ..." : "",
				 wg_retarget_hint_rc(&a, p, list, rcn->u.str,
						     rcn->len));
		}
	}
	wg_arena_release(&a);
	wg_buf_release(&path);
}

int wg_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		 struct wg_resources *list, enum wg_rc_mode mode)
{
	struct wg_step *steps;
	struct wg_chain chain;
	size_t n = 0;
	int rc;

	if (mode == WG_RC_ALL) {
		chain = (struct wg_chain){ p->steps, p->nsteps };
		return run(ctx, p, list, &chain);
	}
	steps = wg_xcalloc(p->nsteps + 1, sizeof(*steps));
	for (size_t i = 0; i < p->nsteps; i++)
		if ((p->steps[i].plugin == &wg_gen_runtime_class)
		    == (mode == WG_RC_ONLY))
			steps[n++] = p->steps[i];
	/* --only-runtimeclasses on a chain without the generator: the
	 * profile's RuntimeClasses all the same, they are what is asked. */
	if (mode == WG_RC_ONLY && n == 0)
		steps[n++] = (struct wg_step){ &wg_gen_runtime_class, NULL };
	chain = (struct wg_chain){ steps, n };
	rc = run(ctx, p, list, &chain);
	free(steps);
	if (rc == 0 && mode == WG_RC_NONE)
		check_runtime_classes(ctx, p, list);
	return rc;
}
