/*
 * What every command that runs the chain does with its PROFILE argument:
 * load it (or the embedded default), and work out which inputs to read.
 */
#include <string.h>

#include "cli.h"
#include "wingen/core/chain.h"
#include "wingen/profile/profile.h"

int wg_cli_load_profile(struct wg_ctx *ctx, const char *path,
			const struct wg_profile_opts *opts,
			struct wg_profile *out)
{
	struct wg_profile_opts with_chain;

	/* the chain is resolved as the profile loads (core/chain.h) */
	opts = wg_chain_opts(opts, &with_chain);
	/* "-" is DESIGN.md's "wingen build -": no profile, manifests on
	 * stdin; a profile itself never comes from stdin. */
	if (!path || strcmp(path, "-") == 0)
		return wg_profile_load_default(ctx, opts, out);
	return wg_profile_load(ctx, path, opts, out);
}

void wg_cli_input_paths(const struct wg_profile *p, const char *profile_arg,
			const struct wg_pathlist *extra,
			struct wg_pathlist *out)
{
	for (size_t i = 0; p && i < p->nresources; i++)
		wg_pathlist_add(out, p->resource_paths[i]);
	for (size_t i = 0; extra && i < extra->len; i++)
		wg_pathlist_add(out, extra->items[i]);
	if (!out->len || (profile_arg && strcmp(profile_arg, "-") == 0))
		wg_pathlist_add(out, "-");
}

int wg_parse_load_restrictor(const char *cmd, const char *arg, bool *none)
{
	/* kustomize's spellings are accepted too. */
	if (strcmp(arg, "none") == 0
	    || strcmp(arg, "LoadRestrictionsNone") == 0) {
		*none = true;
		return 0;
	}
	if (strcmp(arg, "rootonly") == 0
	    || strcmp(arg, "LoadRestrictionsRootOnly") == 0) {
		*none = false;
		return 0;
	}
	return wg_usage_error(cmd, "--load-restrictor must be 'rootonly' or "
			      "'none', not '%s'", arg);
}

int wg_cli_print_profile(struct wg_ctx *ctx, const struct wg_profile *p,
			 const char *path)
{
	struct wg_buf out = WG_BUF_INIT;
	int rc = wg_cli_report(ctx, false);

	if (rc == WG_EXIT_OK) {
		wg_profile_write(p, &out);
		rc = wg_cli_write(ctx, path, &out);
	}
	wg_buf_release(&out);
	return rc;
}
