/*
 * wingen: render Kubernetes manifests for mixed Linux/Windows clusters.
 * Dispatches to one command per file (cmd_*.c).
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

static int dispatch(int argc, char **argv)
{
	const struct wg_command *cmd;

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
	cmd = wg_command_find(argv[1]);
	if (!cmd)
		return wg_unknown_command(argv[1]);
	return cmd->run(argc - 1, argv + 1);
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
