/*
 * The command table, and the two commands too small for a file of their
 * own (version, help).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const struct wg_command wg_commands[] = {
	{
		"build", wg_cmd_build,
		"build [PROFILE] [-f PATH]... [-o FILE] [--output-format "
		"yaml|json] [--explain] [--strict] [--print-profile]",
		"Render manifests for a mixed Linux/Windows cluster.",
		"Reads manifests from the profile's resources: and every -f PATH\n"
		"(a file, a folder of *.yaml, *.yml and *.json files, or - for\n"
		"stdin), and from stdin when there are none; runs the profile's\n"
		"chain of generators and transforms, and writes the result as one\n"
		"stream.  On any error nothing is written and the exit status is 1.\n"
		"Without PROFILE (or with -) the embedded default profile is used:\n"
		"ltsc2022, amd64, taint os=windows:NoSchedule, Windows workloads\n"
		"picked by their Windows base images.\n\n"
		"options:\n"
		"  -f, --filename PATH      input file, folder or - (repeatable)\n"
		"  -o, --output FILE        write to FILE atomically (default: stdout)\n"
		"      --output-format FMT  yaml (default) or json (one object a line)\n"
		"      --explain            print every change and why on stderr\n"
		"      --strict             treat warnings as errors\n"
		"      --print-profile      print the profile in effect and exit\n"
		"      --templates DIR      templates overriding the embedded ones\n"
		"      --load-restrictor R  rootonly (default): the profile's files\n"
		"                           must lie in its folder; none: anywhere\n"
		"  -h, --help               show this help\n",
	},
	{
		"builds", wg_cmd_builds, "builds [-o table|json]",
		"Print the catalog of Windows Server builds wingen knows.",
		"One row per release: build number (the node.kubernetes.io/\n"
		"windows-build label), the names a profile may use, base-image\n"
		"tags, the releases whose images a host of it runs with process\n"
		"isolation, and whether Kubernetes supports it.\n\n"
		"options:\n"
		"  -o, --output-format FMT  table (default) or json\n"
		"  -h, --help               show this help\n",
	},
	{
		"fmt", wg_cmd_fmt,
		"fmt [-f PATH]... [-o FILE] [--output-format yaml|json]",
		"Read manifests and write them back unchanged (no plugins).",
		"Empty documents are dropped and Lists expanded; everything else\n"
		"comes out semantically equal, in the style it went in with.\n\n"
		"options:\n"
		"  -f, --filename PATH      input file, folder or - (repeatable)\n"
		"  -o, --output FILE        write to FILE atomically (default: stdout)\n"
		"      --output-format FMT  yaml (default) or json (one object a line)\n"
		"  -h, --help               show this help\n",
	},
	{
		"version", wg_cmd_version, "version",
		"Print the version of wingen and of the libraries it uses.", "",
	},
	{
		"help", wg_cmd_help, "help [COMMAND]",
		"Show the commands, or one command's options.", "",
	},
	{ NULL, NULL, NULL, NULL, NULL },
};

int wg_cmd_version(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0
			 || strcmp(argv[1], "-h") == 0))
		return wg_print_help("version");
	if (argc > 1)
		return wg_usage_error("version", "unexpected argument '%s'",
				      argv[1]);
	printf("wingen %s\n", WINGEN_VERSION);
	return WG_EXIT_OK;
}

int wg_cmd_help(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") != 0
	    && strcmp(argv[1], "-h") != 0)
		return wg_print_help(argv[1]);
	puts("usage: wingen COMMAND [OPTIONS]\n\n"
	     "Render Kubernetes manifests for clusters that mix Linux and "
	     "Windows nodes.\n\ncommands:");
	for (const struct wg_command *c = wg_commands; c->name; c++)
		printf("  %-10s %s\n", c->name, c->summary);
	puts("\nRun 'wingen help COMMAND' or 'wingen COMMAND --help' for a "
	     "command's options.\nExit status: 0 success, 1 failure, 2 usage "
	     "error.");
	return WG_EXIT_OK;
}
