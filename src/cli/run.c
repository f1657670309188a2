/*
 * Running the chain: the one place where a profile becomes a pipeline.
 * build, check, fn and migrate all go through it.
 */
#include "cli.h"
#include "wingen/pipeline.h"
#include "wingen/profile.h"

int wg_cli_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		     struct wg_resources *list)
{
	struct wg_chain chain = { p->steps, p->nsteps };

	ctx->profile = p;
	return wg_pipeline_run(ctx, list, &chain);
}
