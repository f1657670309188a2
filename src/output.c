#include "wingen/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wingen/alloc.h"
#include "wingen/buf.h"

/*
 * Temporary files not yet renamed.  A signal handler must be able to find
 * them, so this is the one piece of global state in wingen.  Slots are
 * filled before the count is raised, so the handler never sees a half-made
 * entry.
 */
#define MAX_TEMPS 4096
static char *temps[MAX_TEMPS];
static volatile sig_atomic_t ntemps;

static void unlink_temps(void)
{
	for (sig_atomic_t i = 0; i < ntemps; i++)
		if (temps[i])
			unlink(temps[i]);
}

static void on_signal(int sig)
{
	unlink_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

void wg_output_install_cleanup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(unlink_temps);
	/* A closed pipe must be an error we can see (EPIPE), not a kill. */
	signal(SIGPIPE, SIG_IGN);
}

static int track(const char *path)
{
	if (ntemps >= MAX_TEMPS)
		return -1;
	temps[ntemps] = wg_xstrdup(path);
	ntemps++;
	return 0;
}

static void untrack(const char *path)
{
	for (sig_atomic_t i = 0; i < ntemps; i++) {
		if (temps[i] && strcmp(temps[i], path) == 0) {
			char *p = temps[i];

			temps[i] = NULL;
			free(p);
			return;
		}
	}
}

int wg_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len > (1u << 30) ? (1u << 30) : len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_fd(struct wg_ctx *ctx, int fd, const char *name,
		    const void *data, size_t len)
{
	if (wg_write_all(fd, data, len) == 0)
		return WG_OUT_OK;
	if (errno == EPIPE)
		return WG_OUT_EPIPE;
	wg_report_at(ctx, WG_SEV_ERROR, name, 0, 0, "cannot write: %s",
		     strerror(errno));
	return WG_OUT_ERROR;
}

/* Resolves a symlink so the rename replaces its target, not the link. */
static char *final_path(const char *path)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		if (real)
			return real;
	}
	return wg_xstrdup(path);
}

/*
 * Writes data to a new temporary file next to path, with path's mode (or
 * the umask default for a new file).  On success *tmp is the temp file's
 * name (caller frees, and it is tracked for cleanup).
 */
static int write_temp(struct wg_ctx *ctx, const char *path, const void *data,
		      size_t len, char **tmp)
{
	struct wg_buf name = WG_BUF_INIT;
	char *copy = wg_xstrdup(path), *base;
	char *dir = wg_xstrdup(path);
	struct stat st;
	mode_t mode;
	int fd, err;

	base = basename(copy);
	wg_buf_addf(&name, "%s/.%s.wingen-XXXXXX", dirname(dir), base);
	free(copy);
	free(dir);
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	fd = mkstemp(name.buf);
	if (fd < 0) {
		err = errno;
		wg_buf_release(&name);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot create a temporary file: %s",
				    strerror(err));
	}
	if (track(name.buf) != 0) {
		close(fd);
		unlink(name.buf);
		wg_buf_release(&name);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "too many files open for writing");
	}
	if (fchmod(fd, mode) != 0 || wg_write_all(fd, data, len) != 0
	    || fsync(fd) != 0) {
		err = errno;
		close(fd);
		unlink(name.buf);
		untrack(name.buf);
		wg_buf_release(&name);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot write: %s", strerror(err));
	}
	if (close(fd) != 0) {
		err = errno;
		unlink(name.buf);
		untrack(name.buf);
		wg_buf_release(&name);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot write: %s", strerror(err));
	}
	*tmp = wg_buf_detach(&name, NULL);
	return 0;
}

static int commit_temp(struct wg_ctx *ctx, const char *path, char *tmp)
{
	int rc = 0;

	if (rename(tmp, path) != 0) {
		rc = wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				  "cannot replace the file: %s",
				  strerror(errno));
		unlink(tmp);
	}
	untrack(tmp);
	free(tmp);
	return rc;
}

/* True when path exists and is not a regular file (or a link to one). */
static bool special_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int wg_output_write(struct wg_ctx *ctx, const char *path, const void *data,
		    size_t len)
{
	char *target, *tmp;
	int fd, rc;

	if (!path || strcmp(path, "-") == 0)
		return write_fd(ctx, STDOUT_FILENO, "stdout", data, len);
	if (special_file(path)) {
		/* /dev/stdout, /dev/full, a FIFO: write in place. */
		fd = open(path, O_WRONLY | O_CLOEXEC | O_APPEND);
		if (fd < 0) {
			wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				     "cannot open: %s", strerror(errno));
			return WG_OUT_ERROR;
		}
		rc = write_fd(ctx, fd, path, data, len);
		if (close(fd) != 0 && rc == WG_OUT_OK) {
			wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				     "cannot write: %s", strerror(errno));
			rc = WG_OUT_ERROR;
		}
		return rc;
	}
	target = final_path(path);
	rc = write_temp(ctx, target, data, len, &tmp);
	if (rc == 0)
		rc = commit_temp(ctx, target, tmp);
	free(target);
	return rc ? WG_OUT_ERROR : WG_OUT_OK;
}

int wg_output_replace_all(struct wg_ctx *ctx,
			  const struct wg_file_update *files, size_t n)
{
	char **tmps = wg_xcalloc(n ? n : 1, sizeof(*tmps));
	char **targets = wg_xcalloc(n ? n : 1, sizeof(*targets));
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		targets[i] = final_path(files[i].path);
		rc = write_temp(ctx, targets[i], files[i].data, files[i].len,
				&tmps[i]);
	}
	for (size_t i = 0; i < n; i++) {
		if (tmps[i] && rc == 0) {
			rc = commit_temp(ctx, targets[i], tmps[i]);
		} else if (tmps[i]) {
			unlink(tmps[i]);
			untrack(tmps[i]);
			free(tmps[i]);
		}
		free(targets[i]);
	}
	free(tmps);
	free(targets);
	return rc ? -1 : 0;
}
