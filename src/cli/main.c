/*
 * wingen: render Kubernetes manifests for mixed Linux/Windows clusters.
 * Dispatches to one command per file (cmd_*.c): the entry points are
 * here, above every command, so that what the commands share (the table
 * of what each says of itself, commands.c) calls none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "wingen/base/cleanup.h"
#include "wingen/base/output.h"

/*
 * What printf() left in stdout's buffer is written here, at the latest:
 * a full device or a closed stdout seen only now must still fail the run
 * (help and version print nothing else).  A reader that went away (EPIPE)
 * fails it quietly, as wg_cli_write() does.
 */
static int finish(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (errno != EPIPE)
		fprintf(stderr, "wingen: error: cannot write stdout: %s\n",
			strerror(errno));
	return rc ? rc : WG_EXIT_FAIL;
}

static int run_completion(int argc, char **argv);

static const struct {
	const char *name;
	wg_command_fn run;
} entry_points[] = {
	{ "build", wg_cmd_build },
	{ "post-render", wg_cmd_post_render },
	{ "builds", wg_cmd_builds },
	{ "check", wg_cmd_check },
	{ "fn", wg_cmd_fn },
	{ "fmt", wg_cmd_fmt },
	{ "init", wg_cmd_init },
	{ "migrate", wg_cmd_migrate },
	{ "runtimeclasses", wg_cmd_runtimeclasses },
	{ "completion", run_completion },
	{ "schema", wg_cmd_schema },
	{ "serve", wg_cmd_serve },
	{ "version", wg_cmd_version },
	{ "help", wg_cmd_help },
};

static wg_command_fn entry_point(const char *name)
{
	for (size_t i = 0; i < sizeof(entry_points) / sizeof(*entry_points);
	     i++)
		if (strcmp(entry_points[i].name, name) == 0)
			return entry_points[i].run;
	return NULL;
}

static int run_completion(int argc, char **argv)
{
	return wg_cli_completion(argc, argv, entry_point);
}

static int dispatch(int argc, char **argv)
{
	wg_command_fn run;

	if (argc < 2) {
		/* As kustomize and kpt run an exec function: no arguments,
		 * a ResourceList on stdin. */
		int rc = wg_cli_fn_implicit();

		return rc >= 0 ? rc : wg_usage_error(NULL, "no command given");
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return wg_cmd_help(argc - 1, argv + 1);
	if (strcmp(argv[1], "--version") == 0)
		return wg_cmd_version(argc - 1, argv + 1);
	/* a command is one of the table (help, completion and the usage
	 * errors know it) with an entry point here */
	run = wg_command_find(argv[1]) ? entry_point(argv[1]) : NULL;
	if (!run)
		return wg_unknown_command(argv[1]);
	return run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	/* A diagnostic is written as pieces (file, position, severity, the
	 * object, the message): unbuffered, that was nine write()s a line,
	 * 41,398 system calls for the 2 MB of warnings of build on the
	 * broad 50,000-object stream (4,785 now), and lines of two
	 * processes sharing a log could interleave mid-line.
	 * Line-buffered, a line is one write() (up to the buffer's size),
	 * still written as soon as it ends. */
	static char err_buf[1 << 16];

	setvbuf(stderr, err_buf, _IOLBF, sizeof(err_buf));
	wg_cleanup_install();
	return finish(dispatch(argc, argv));
}
