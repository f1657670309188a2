/*
 * Running the chain: the one place where a profile becomes a pipeline.
 * build, check, fn and migrate all go through it; build and check also
 * share the session that loads the profile and reads the inputs.
 */
#include <string.h>

#include "cli.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"

int wg_cli_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		     struct wg_resources *list)
{
	struct wg_chain chain = { p->steps, p->nsteps };

	ctx->profile = p;
	return wg_pipeline_run(ctx, list, &chain);
}

void wg_session_init(struct wg_session *s)
{
	memset(s, 0, sizeof(*s));
	wg_ctx_init(&s->ctx);
	wg_resources_init(&s->list);
}

int wg_session_load(struct wg_session *s, const char *profile_arg,
		    const struct wg_profile_opts *popts,
		    const struct wg_pathlist *extra)
{
	if (wg_cli_load_profile(&s->ctx, profile_arg, popts, &s->profile))
		return -1;
	s->have_profile = true;
	s->ctx.profile = &s->profile;
	wg_cli_input_paths(&s->profile, profile_arg, extra, &s->paths);
	return 0;
}

int wg_session_read(struct wg_session *s)
{
	return wg_cli_read(&s->ctx, &s->paths, &s->inputs, &s->list,
			   s->jobs);
}

void wg_session_release(struct wg_session *s)
{
	wg_resources_release(&s->list);
	wg_inputs_release(&s->inputs);
	if (s->have_profile)
		wg_profile_release(&s->profile);
	wg_pathlist_release(&s->paths);
	wg_ctx_release(&s->ctx);
}
