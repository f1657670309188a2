/*
 * Running the chain (chain/run.h does it) and the session that build and
 * check share: the profile loaded, the inputs read.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wingen/chain/run.h"
#include "wingen/profile/profile.h"

int wg_cli_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		     struct wg_resources *list)
{
	return wg_run_chain(ctx, p, list, WG_RC_ALL);
}

int wg_cli_run_chain_mode(struct wg_ctx *ctx, const struct wg_profile *p,
			  struct wg_resources *list, enum wg_rc_mode mode)
{
	return wg_run_chain(ctx, p, list, mode);
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
	if (profile_arg && strcmp(profile_arg, "-") == 0
	    && wg_cli_reads_stdin(&s->paths))
		return wg_report_at(&s->ctx, WG_SEV_ERROR, WG_STDIN_NAME, 0, 0,
				    "resources: names - (stdin), which holds "
				    "the profile itself");
	return 0;
}

/*
 * An input with no object at all (nothing, comments, empty documents) is
 * what a failed generator in front of a pipe leaves: `helm template` that
 * printed its error on stderr and nothing on stdout.  Exiting 0 would
 * look like success (and with the RuntimeClasses alone it once wrote
 * objects nobody asked for into kubectl apply), so it is an error:
 * nothing is written.  `wingen runtimeclasses` prints the RuntimeClasses
 * alone.  `wingen fn` does not come here: an empty items list is an
 * ordinary ResourceList in KRM (a package with no objects yet, or one a
 * filter emptied), given back as it came.
 */
static void refuse_empty(struct wg_session *s)
{
	const char *name;

	name = s->inputs.len == 1 && s->inputs.items[0].name
		? s->inputs.items[0].name : "input";
	wg_report_at(&s->ctx, WG_SEV_ERROR, name, 0, 0, "no object was read "
		     "(%s), so nothing is written; if a command feeds this one "
		     "(helm template, kustomize build), check that it "
		     "succeeded; wingen runtimeclasses prints the "
		     "RuntimeClasses alone", s->inputs.len > 1
		     ? "every input is empty" : "the input is empty");
}

/* Helm's "# Source:" comments, kept on the objects they head (the YAML
 * writer puts them back: helm template --show-only with a Helm 3
 * post-renderer splits on them).  The list holds each input's objects
 * in the inputs' order. */
static void source_comments(struct wg_session *s)
{
	size_t i = 0;

	for (size_t k = 0; k < s->inputs.len; k++) {
		const struct wg_input *in = &s->inputs.items[k];
		size_t from = i;

		while (i < s->list.len && s->list.items[i]->file && in->name
		       && strcmp(s->list.items[i]->file, in->name) == 0)
			i++;
		wg_resources_source_comments(&s->list, from, i, in, NULL);
	}
}

int wg_session_read(struct wg_session *s)
{
	int rc = wg_cli_read(&s->ctx, &s->paths, &s->inputs, &s->list,
			     s->jobs);

	if (rc == 0 && !s->list.len && !s->allow_empty) {
		refuse_empty(s);
		rc = -1;
	} else if (rc == 0) {
		source_comments(s);
	}
	return rc;
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
