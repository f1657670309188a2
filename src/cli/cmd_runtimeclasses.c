/*
 * wingen runtimeclasses: the profile's RuntimeClasses alone, the one-time
 * bootstrap of a cluster whose releases are post-rendered.  A
 * RuntimeClass is cluster-scoped: rendered into a Helm release it belongs
 * to that release, and a second release rendering it fails Helm's
 * ownership check, so post-renderers emit none (build
 * --no-runtimeclasses) and the cluster admin applies these once.
 */
#include <stdio.h>

#include "cli.h"
#include "options.h"
#include "wingen/profile/profile.h"

int wg_cmd_runtimeclasses(int argc, char **argv)
{
	static const char *const formats[] = { "yaml", "json", NULL };
	struct wg_pathlist args = { 0 };
	struct wg_profile_opts popts = { 0 };
	const char *output = NULL;
	int format = WG_FORMAT_YAML;
	const struct wg_opt opts[] = {
		WG_OPTS_OUTPUT(&format, formats, &output),
		WG_OPTS_PROFILE(&popts),
		WG_OPT_END,
	};
	struct wg_session ss;
	struct wg_ctx *ctx = &ss.ctx;
	int rc = wg_parse_options("runtimeclasses", argc, argv, opts, &args);

	if (rc == 0 && args.len > 1)
		rc = wg_usage_error("runtimeclasses",
				    "unexpected argument '%s'", args.items[1]);
	if (rc == 0 && args.len)
		rc = wg_cli_profile_stdin_usage("runtimeclasses",
						args.items[0], NULL, NULL);
	if (rc) {
		wg_pathlist_release(&args);
		return rc < 0 ? wg_print_help("runtimeclasses") : rc;
	}
	wg_session_init(&ss);
	if (wg_session_load(&ss, args.len ? args.items[0] : NULL, &popts,
			    NULL) == 0)
		wg_cli_run_chain_mode(ctx, &ss.profile, &ss.list, WG_RC_ONLY);
	rc = wg_cli_report(ctx, false);
	if (rc == WG_EXIT_OK)
		rc = wg_cli_emit(ctx, output, &ss.list,
				 (enum wg_format)format, 1);
	wg_session_release(&ss);
	wg_pathlist_release(&args);
	return rc;
}
