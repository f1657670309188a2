/*
 * wingen help [COMMAND|plugins]: the commands (commands.c's table), one
 * command's options, or the plugins a profile can chain.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/chain/registry.h"
#include "wingen/core/plugin.h"

/* wingen help plugins: what a profile's transforms: may list, in the
 * default chain's order. */
static int help_plugins(void)
{
	puts("plugins (the default chain, in order):");
	for (size_t i = 0; wg_plugins[i]; i++)
		printf("  %-20s %s%s\n", wg_plugins[i]->name,
		       wg_plugins[i]->kind == WG_PLUGIN_GENERATOR
		       ? "(generator) " : "", wg_plugins[i]->summary);
	return WG_EXIT_OK;
}

int wg_cmd_help(int argc, char **argv)
{
	static const struct wg_opt opts[] = { WG_OPT_END };
	struct wg_pathlist args = { 0 };
	int rc = wg_parse_options("help", argc, argv, opts, &args);
	bool named = rc == 0 && args.len;

	if (named && args.len > 1)
		rc = wg_usage_error("help", "unexpected argument '%s'",
				    args.items[1]);
	else if (named)
		rc = strcmp(args.items[0], "plugins") == 0
		     ? help_plugins() : wg_print_help(args.items[0]);
	wg_pathlist_release(&args);
	if (named || rc > 0 || wg_cli_describing())
		return rc > 0 ? rc : WG_EXIT_OK;
	puts("usage: wingen COMMAND [OPTIONS]\n\n"
	     "Render Kubernetes manifests for clusters that mix Linux and "
	     "Windows nodes.\n\ncommands:");
	for (const struct wg_command *c = wg_commands; c->name; c++)
		printf("  %-15s %s\n", c->name, c->summary);
	puts("\nRun 'wingen help COMMAND' or 'wingen COMMAND --help' for a "
	     "command's options,\n'wingen help plugins' for the plugins a "
	     "profile can chain.\nExit status: 0 success, 1 failure, 2 usage "
	     "error.");
	return WG_EXIT_OK;
}
