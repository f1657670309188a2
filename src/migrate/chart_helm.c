#define _GNU_SOURCE	/* F_SETPIPE_SZ, close_range */
/*
 * Running helm: the one place wingen starts a program (SECURITY.md, "chart
 * migration runs helm").  fork + execve of a file found here, with an
 * argv built here: no shell (execve, unlike execvp, never hands a file it
 * cannot execute to /bin/sh), so nothing in a chart, a values file or an
 * argument is ever interpreted as a command line.  It runs within a time
 * limit, a memory limit and the input-size limit on what it writes.  The binary is the one
 * the user named (--helm, $WINGEN_HELM) or "helm" in an absolute folder
 * of PATH; nothing read from input picks it.  Every path in the argv is
 * unambiguous: a relative one starts with "./" and the operands follow
 * "--", so a chart folder named "--post-renderer=sh" is a folder, not a
 * flag.  stdout and stderr are read through pipes with poll(), so a
 * chatty stderr cannot block a large render.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/cleanup.h"
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

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode)
	       && access(path, X_OK) == 0;
}

/*
 * The file to run for bin: bin itself when it holds a '/', else the first
 * runnable DIR/bin for the absolute folders DIR of $PATH (the system's
 * default path when PATH is unset).  An empty or relative entry of PATH
 * names the current folder, which may be the repository under review: it
 * is skipped, as a shell's hash of a program there would be a surprise.
 * NULL (errno ENOENT) when there is none.
 */
static char *find_program(const char *bin)
{
	const char *path = getenv("PATH");
	char def[PATH_MAX];
	struct wg_buf b = WG_BUF_INIT;

	if (strchr(bin, '/'))
		return wg_xstrdup(bin);
	if (!path) {
		size_t n = confstr(_CS_PATH, def, sizeof(def));

		path = n && n <= sizeof(def) ? def : "/bin:/usr/bin";
	}
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");

		if (n && p[0] == '/') {
			wg_buf_reset(&b);
			wg_buf_add(&b, p, n);
			wg_buf_addch(&b, '/');
			wg_buf_addstr(&b, bin);
			if (runnable(b.buf))
				return wg_buf_detach(&b, NULL);
		}
		p += n + (p[n] == ':');
	}
	wg_buf_release(&b);
	errno = ENOENT;
	return NULL;
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

/*
 * In the child, between fork and exec: async-signal-safe calls only.
 * Only stdin (/dev/null), stdout, stderr and the status pipe (closed by
 * the exec) stay open: no descriptor of wingen's (a temporary, the lock
 * on a tree) reaches helm.  The signals wingen handles, ignores or holds
 * are helm's again (a signal before the exec must not run wingen's
 * cleanup in the child).  helm gets a process group of its own, killed
 * whole at the time limit, and its memory (RLIMIT_DATA: Go's heap is
 * private writable memory; RLIMIT_AS would count what Go only reserves)
 * and CPU time limited.
 */
static void child(const char *file, char *const argv[], char *const envp[],
		  int out, int err, int status, const struct wg_limits *lim)
{
	int null = open("/dev/null", O_RDONLY);
	struct rlimit mem = { lim->helm_memory, lim->helm_memory };
	struct rlimit cpu = { lim->helm_seconds + 1, lim->helm_seconds + 2 };
	sigset_t none;
	int e;

	if (null < 0 || dup2(null, STDIN_FILENO) < 0
	    || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	if (status > STDERR_FILENO + 1)
		close_range(STDERR_FILENO + 1, (unsigned)status - 1, 0);
	close_range((unsigned)status + 1, ~0u, 0);
	setpgid(0, 0);
	if (setrlimit(RLIMIT_DATA, &mem) || setrlimit(RLIMIT_CPU, &cpu))
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(file, argv, envp);
	e = errno;
	/* the parent reads why exec failed from the status pipe */
	if (write(status, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * helm's environment: wingen's, with GOMEMLIMIT at three quarters of the
 * memory limit unless the user set one, so Go's collector works harder
 * before the hard limit, not after.  Made before forking (no malloc
 * between fork and exec).
 */
static char **helm_env(const struct wg_limits *lim, char **gomem)
{
	extern char **environ;
	size_t n = 0;
	char **env;

	while (environ[n])
		n++;
	env = wg_xcalloc(n + 2, sizeof(*env));
	memcpy(env, environ, n * sizeof(*env));
	*gomem = NULL;
	if (!getenv("GOMEMLIMIT")) {
		struct wg_buf b = WG_BUF_INIT;

		wg_buf_addf(&b, "GOMEMLIMIT=%zu", lim->helm_memory / 4 * 3);
		env[n] = *gomem = wg_buf_detach(&b, NULL);
	}
	return env;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Why a run ended badly, for the message. */
enum helm_end { HELM_OK, HELM_EXEC, HELM_TIME, HELM_BIG };

int wg_helm_run(struct wg_ctx *ctx, char *const argv[], struct wg_buf *out)
{
	const struct wg_limits *lim = &ctx->limits;
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, ps[2] = { -1, -1 };
	struct wg_buf err = WG_BUF_INIT;
	struct pollfd fds[2];
	enum helm_end end = HELM_OK;
	int exec_errno = 0, status = 0;
	char *file = find_program(argv[0]), *gomem = NULL, **env = NULL;
	long long deadline = now_ms() + (long long)lim->helm_seconds * 1000;
	sigset_t hold, old;
	pid_t pid;
	static char chunk[1 << 20];

	wg_buf_reset(out);
	if (!file)
		exec_errno = errno;
	else if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)
		 || pipe2(ps, O_CLOEXEC))
		exec_errno = errno;
	if (exec_errno) {
		for (int i = 0; i < 2; i++) {
			if (po[i] >= 0)
				close(po[i]);
			if (pe[i] >= 0)
				close(pe[i]);
			if (ps[i] >= 0)
				close(ps[i]);
		}
		free(file);
		end = HELM_EXEC;
		goto report;
	}
	env = helm_env(lim, &gomem);
	/* held over the fork: a signal before the child is registered
	 * would leave helm running (cleanup.h kills it) */
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	pid = fork();
	if (pid == 0) {
		close(po[0]), close(pe[0]), close(ps[0]);
		child(file, argv, env, po[1], pe[1], ps[1], lim);
	}
	if (pid > 0)
		wg_cleanup_child(pid);
	exec_errno = pid < 0 ? errno : 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(file);
	free(env);
	free(gomem);
	close(po[1]), close(pe[1]), close(ps[1]);
	if (pid < 0) {
		close(po[0]), close(pe[0]), close(ps[0]);
		end = HELM_EXEC;
		goto report;
	}
#ifdef F_SETPIPE_SZ
	/* a render is megabytes: fewer, larger reads */
	fcntl(po[0], F_SETPIPE_SZ, 1 << 20);
#endif
	wg_buf_grow(out, 1 << 20);
	fds[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		long long left = deadline - now_ms();
		int n = left > 0 ? poll(fds, 2, left > INT_MAX ? INT_MAX
							: (int)left)
				 : 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the time limit (or poll failed): helm and all it
			 * started go */
			end = n == 0 ? HELM_TIME : end;
			kill(-pid, SIGKILL);
			break;
		}
		for (int i = 0; i < 2; i++) {
			ssize_t got;

			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			got = read(fds[i].fd, chunk, sizeof(chunk));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				continue;
			}
			if (i == 1) {
				if (err.len < 65536)
					wg_buf_add(&err, chunk, (size_t)got);
			} else if (out->len + (size_t)got
				   > lim->max_input_bytes) {
				end = HELM_BIG;
				kill(-pid, SIGKILL);
			} else {
				wg_buf_add(out, chunk, (size_t)got);
			}
		}
		if (end == HELM_BIG)
			break;
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	if (read(ps[0], &exec_errno, sizeof(exec_errno))
	    != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;
	else
		end = HELM_EXEC;
	close(ps[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	wg_cleanup_child(0);
report:
	if (err.buf)
		first_lines(&err, 6);
	if (end == HELM_EXEC) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "cannot run helm '%s': %s (chart migration renders "
			     "the chart with the real Helm: give --helm PATH, "
			     "set WINGEN_HELM, or put helm in a folder of PATH "
			     "given as an absolute path)", argv[0],
			     strerror(exec_errno));
	} else if (end == HELM_TIME) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "'%s %s' did not finish within %zu s, and was "
			     "stopped (WINGEN_LIMITS helm-seconds)", argv[0],
			     argv[1] ? argv[1] : "", lim->helm_seconds);
	} else if (end == HELM_BIG) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "'%s %s' wrote more than the input size limit "
			     "(%zu bytes; WINGEN_LIMITS input-bytes), and was "
			     "stopped", argv[0], argv[1] ? argv[1] : "",
			     lim->max_input_bytes);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		bool oom = err.len && (strstr(err.buf, "out of memory")
				       || strstr(err.buf, "cannot allocate"));

		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "'%s %s' failed (%s %d)%s%s%s", argv[0],
			     argv[1] ? argv[1] : "",
			     WIFEXITED(status) ? "exit status" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status)
					       : WTERMSIG(status),
			     err.len ? ": " : "", err.len ? err.buf : "",
			     oom || (WIFSIGNALED(status)
				     && WTERMSIG(status) == SIGXCPU)
			     ? " (helm runs within WINGEN_LIMITS helm-memory "
			       "and helm-seconds)" : "");
	} else {
		wg_buf_release(&err);
		return 0;
	}
	wg_buf_release(&err);
	return -1;
}

char *wg_helm_path_arg(const char *prefix, const char *path)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addstr(&b, prefix);
	if (path[0] != '/' && strncmp(path, "./", 2) != 0
	    && strncmp(path, "../", 3) != 0)
		wg_buf_addstr(&b, "./");
	wg_buf_addstr(&b, path);
	return wg_buf_detach(&b, NULL);
}

int wg_helm_template(struct wg_ctx *ctx, const char *helm, const char *chart,
		     const char *first_values, char *const *args,
		     size_t nargs, const char *last_values,
		     struct wg_buf *out)
{
	char **argv = wg_xcalloc(nargs + 10, sizeof(*argv));
	char *owned[3] = { NULL, NULL, NULL };
	size_t n = 0;
	int rc;

	argv[n++] = (char *)helm;
	argv[n++] = (char *)"template";
	if (first_values)
		argv[n++] = owned[0] = wg_helm_path_arg("--values=",
							first_values);
	for (size_t i = 0; i < nargs; i++)
		argv[n++] = args[i];
	if (last_values)
		argv[n++] = owned[1] = wg_helm_path_arg("--values=",
							last_values);
	/* the operands: nothing after "--" is a flag */
	argv[n++] = (char *)"--";
	argv[n++] = (char *)"wingen";
	argv[n++] = owned[2] = wg_helm_path_arg("", chart);
	argv[n] = NULL;
	rc = wg_helm_run(ctx, argv, out);
	for (size_t i = 0; i < 3; i++)
		free(owned[i]);
	free(argv);
	return rc;
}
