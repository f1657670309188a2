#include "wingen/core/pipeline.h"

#include <string.h>

static int run_group(struct wg_ctx *ctx, struct wg_resources *list,
		     const struct wg_step *steps, size_t n)
{
	for (size_t s = 0; s < n; s++) {
		const struct wg_plugin *p = steps[s].plugin;

		if (!p->prepare)
			continue;
		ctx->plugin = p->name;
		if (p->prepare(ctx, list, steps[s].config))
			return -1;
	}
	/* One walk: each resource goes through every plugin of the group. */
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];

		for (size_t s = 0; s < n; s++) {
			if (res->flags & WG_RES_DELETED)
				break;
			ctx->plugin = steps[s].plugin->name;
			if (steps[s].plugin->run_one(ctx, list, res,
						     steps[s].config))
				return -1;
		}
	}
	return 0;
}

int wg_pipeline_run(struct wg_ctx *ctx, struct wg_resources *list,
		    const struct wg_chain *chain)
{
	size_t i = 0;
	int rc = 0;

	while (i < chain->len && rc == 0) {
		const struct wg_plugin *p = chain->steps[i].plugin;

		if (p->run_one) {
			size_t j = i + 1;

			while (j < chain->len && chain->steps[j].plugin->run_one)
				j++;
			rc = run_group(ctx, list, chain->steps + i, j - i);
			i = j;
			continue;
		}
		ctx->plugin = p->name;
		if (p->prepare && p->prepare(ctx, list, chain->steps[i].config))
			rc = -1;
		else
			rc = p->run_list(ctx, list, chain->steps[i].config);
		i++;
	}
	ctx->plugin = NULL;
	wg_pipeline_drop_changes_of_errors(ctx);
	return rc;
}

void wg_pipeline_drop_changes_of_errors(struct wg_ctx *ctx)
{
	struct wg_log *log = &ctx->log;
	size_t n = 0;

	for (size_t i = 0; i < log->nchanges; i++) {
		const struct wg_resource *res = log->changes[i].subject;

		if (!res || !(res->flags & WG_RES_ERROR))
			log->changes[n++] = log->changes[i];
	}
	log->nchanges = n;
}

bool wg_profile_runs(const struct wg_profile *p, const char *name)
{
	for (size_t i = 0; i < p->nsteps; i++)
		if (p->steps[i].plugin
		    && strcmp(p->steps[i].plugin->name, name) == 0)
			return true;
	return false;
}
