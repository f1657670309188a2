#define _GNU_SOURCE	/* F_SETPIPE_SZ */
/*
 * Running helm: the one place wingen starts a program (SECURITY.md, "chart
 * migration runs helm").  fork + execvp with an argv built by the caller:
 * no shell, so nothing in a chart, a values file or an argument is ever
 * interpreted as a command line.  The binary is the one the user named
 * (--helm, $WINGEN_HELM) or "helm" on PATH; nothing read from input picks
 * it.  stdout and stderr are read through pipes with poll(), so a chatty
 * stderr cannot block a large render.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wingen/migrate/chart.h"

const char *wg_helm_binary(const char *opt)
{
	const char *env = getenv("WINGEN_HELM");

	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	return "helm";
}

/* The first few lines of stderr, for the message. */
static void first_lines(struct wg_buf *err, unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < err->len; i++)
		if (err->buf[i] == '\n' && ++n == max) {
			err->len = i;
			break;
		}
	while (err->len && (err->buf[err->len - 1] == '\n'
			    || err->buf[err->len - 1] == '\r'))
		err->len--;
	err->buf[err->len] = '\0';
}

static void child(char *const argv[], int out, int err, int status)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	if (null < 0 || dup2(null, STDIN_FILENO) < 0
	    || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	/* the parent reads why exec failed from the status pipe */
	if (write(status, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int wg_helm_run(struct wg_ctx *ctx, char *const argv[], struct wg_buf *out)
{
	int po[2], pe[2], ps[2];
	struct wg_buf err = WG_BUF_INIT;
	struct pollfd fds[2];
	bool too_big = false;
	int exec_errno = 0, status = 0;
	pid_t pid;
	static char chunk[1 << 20];

	wg_buf_reset(out);
	if (pipe(po) || pipe(pe) || pipe(ps))
		return wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
				    "cannot run %s: %s", argv[0],
				    strerror(errno));
	fcntl(ps[1], F_SETFD, FD_CLOEXEC);
	pid = fork();
	if (pid < 0) {
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		close(ps[0]), close(ps[1]);
		return wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
				    "cannot run %s: %s", argv[0],
				    strerror(errno));
	}
	if (pid == 0) {
		close(po[0]), close(pe[0]), close(ps[0]);
		child(argv, po[1], pe[1], ps[1]);
	}
	close(po[1]), close(pe[1]), close(ps[1]);
#ifdef F_SETPIPE_SZ
	/* a render is megabytes: fewer, larger reads */
	fcntl(po[0], F_SETPIPE_SZ, 1 << 20);
#endif
	wg_buf_grow(out, 1 << 20);
	fds[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			n = read(fds[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				continue;
			}
			if (i == 1) {
				if (err.len < 65536)
					wg_buf_add(&err, chunk, (size_t)n);
			} else if (out->len + (size_t)n
				   > ctx->limits.max_input_bytes) {
				too_big = true;
			} else {
				wg_buf_add(out, chunk, (size_t)n);
			}
		}
	}
	if (read(ps[0], &exec_errno, sizeof(exec_errno))
	    != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;
	close(ps[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	first_lines(&err, 6);
	if (exec_errno) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "cannot run helm '%s': %s (chart migration renders "
			     "the chart with the real Helm: give --helm PATH, "
			     "set WINGEN_HELM, or put helm on PATH)", argv[0],
			     strerror(exec_errno));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "'%s %s' failed (%s %d)%s%s", argv[0],
			     argv[1] ? argv[1] : "",
			     WIFEXITED(status) ? "exit status" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status)
					       : WTERMSIG(status),
			     err.len ? ": " : "", err.len ? err.buf : "");
	} else if (too_big) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "'%s %s' wrote more than the input size limit "
			     "(%zu bytes; WINGEN_LIMITS input-bytes)", argv[0],
			     argv[1] ? argv[1] : "",
			     ctx->limits.max_input_bytes);
	} else {
		wg_buf_release(&err);
		return 0;
	}
	wg_buf_release(&err);
	return -1;
}
