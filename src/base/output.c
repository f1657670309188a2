/* syncfs() is a Linux extension (many files are made durable with one
 * filesystem sync, not one fsync each). */
#define _GNU_SOURCE

#include "wingen/base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"

/*
 * Temporary files not yet renamed.  A signal handler must be able to find
 * them, so this is the one piece of global state in wingen.  migrate
 * writes every file's temporary before it renames any (all or nothing),
 * so tens of thousands may stand at once: slots come in blocks that never
 * move once published, a slot is filled before the count is raised past
 * it, and the handler never sees a half-made entry.  A temporary's name
 * carries its slot (struct temp_name), so dropping one is O(1).
 */
#define TEMP_BLOCK 4096
#define TEMP_BLOCKS 1024	/* 4M temporaries at once */

struct temp_name {
	size_t slot;
	char name[];		/* what callers hold (temp_free() frees) */
};

static char *volatile *temp_blocks[TEMP_BLOCKS];
static volatile sig_atomic_t ntemps;	/* slots ever used */
static size_t *free_slots;	/* slots to reuse (the handler skips
				   them: they hold NULL) */
static size_t nfree, free_cap;

static void unlink_temps(void)
{
	for (sig_atomic_t i = 0; i < ntemps; i++) {
		char *volatile *block = temp_blocks[i / TEMP_BLOCK];
		char *name = block ? block[i % TEMP_BLOCK] : NULL;

		if (name)
			unlink(name);
	}
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

static struct temp_name *temp_of(const char *name)
{
	return (struct temp_name *)(void *)(name
					    - offsetof(struct temp_name, name));
}

/*
 * Registers path as a temporary to remove on a signal or at exit.
 * Returns the name callers hold (free it with temp_free()), or NULL with
 * errno EMFILE when 4M temporaries stand already.
 */
static char *track(const char *path)
{
	size_t len = strlen(path), slot;
	struct temp_name *t = wg_xmalloc(sizeof(*t) + len + 1);

	memcpy(t->name, path, len + 1);
	if (nfree) {
		slot = free_slots[--nfree];
	} else {
		slot = (size_t)ntemps;
		if (slot / TEMP_BLOCK >= TEMP_BLOCKS) {
			free(t);
			errno = EMFILE;
			return NULL;
		}
		if (!temp_blocks[slot / TEMP_BLOCK])
			temp_blocks[slot / TEMP_BLOCK] =
				wg_xcalloc(TEMP_BLOCK, sizeof(char *));
	}
	t->slot = slot;
	temp_blocks[slot / TEMP_BLOCK][slot % TEMP_BLOCK] = t->name;
	if (slot == (size_t)ntemps)
		ntemps = (sig_atomic_t)(slot + 1);
	return t->name;
}

/* No longer a temporary to remove (renamed or removed already). */
static void untrack(const char *name)
{
	size_t slot = temp_of(name)->slot;

	temp_blocks[slot / TEMP_BLOCK][slot % TEMP_BLOCK] = NULL;
	WG_GROW(free_slots, free_cap, nfree + 1);
	free_slots[nfree++] = slot;
}

static void temp_free(char *name)
{
	if (name)
		free(temp_of(name));
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

/* The process's umask, read once (reading it means setting it). */
static mode_t process_umask(void)
{
	static bool known;
	static mode_t mask;

	if (!known) {
		mask = umask(0);
		umask(mask);
		known = true;
	}
	return mask;
}

/*
 * A name for a temporary next to path: ".NAME.wingen-" and six characters
 * from a per-process random seed and a counter, so names cannot be
 * guessed ahead and each try is new (O_EXCL refuses a name that exists,
 * a symlink included).
 */
static void temp_name(struct wg_buf *name, const char *path)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	static uint64_t seed, count;
	char *copy = wg_xstrdup(path), *dir = wg_xstrdup(path);
	char tail[7];
	uint64_t x;

	if (!seed) {
		if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK)
		    != (ssize_t)sizeof(seed))
			seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		seed |= 1;
	}
	/* splitmix64 of seed and counter: each name its own */
	x = seed + 0x9e3779b97f4a7c15ull * ++count;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	for (size_t i = 0; i < 6; i++, x /= 36)
		tail[i] = digits[x % 36];
	tail[6] = '\0';
	wg_buf_reset(name);
	wg_buf_addf(name, "%s/.%s.wingen-%s", dirname(dir), basename(copy),
		    tail);
	free(copy);
	free(dir);
}

/*
 * Creates a temporary file next to path, with path's mode (meta's when
 * known, else stat's; the umask default for a new file).  It is made
 * with that mode at once, and chmod'ed only when the umask would take
 * bits from it.  On success returns its fd and sets *tmp (the caller
 * frees it; it is tracked for cleanup).
 */
static int create_temp(struct wg_ctx *ctx, const char *path,
		       const struct wg_file_meta *meta, char **tmp)
{
	struct wg_buf name = WG_BUF_INIT;
	mode_t mask = process_umask(), mode;
	struct stat st;
	char *t = NULL;
	int fd = -1, err = 0;

	if (meta && meta->known)
		mode = (mode_t)meta->mode;
	else if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else
		mode = 0666 & ~mask;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		temp_name(&name, path);
		fd = open(name.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  mode & 0777);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd >= 0)
		t = track(name.buf);
	if (fd < 0 || !t
	    || (((mode & ~mask) != mode || (mode & ~(mode_t)0777))
		&& fchmod(fd, mode) != 0)) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(name.buf);
		}
		if (t) {
			untrack(t);
			temp_free(t);
		}
		wg_buf_release(&name);
		wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
			     "cannot create a temporary file: %s",
			     strerror(err));
		return -1;
	}
	wg_buf_release(&name);
	*tmp = t;
	return fd;
}

/*
 * Syncs (sync) and closes a temporary file; on failure removes it.
 * Without sync, the caller syncs its filesystem before any rename
 * (sync_filesystems).  (Starting each file's writeback at once with
 * sync_file_range cost a device kick per file: 5% of a 10,000-file run.)
 */
static int finish_temp(struct wg_ctx *ctx, const char *path, int fd,
		       char *tmp, bool sync)
{
	if ((sync && fsync(fd) != 0) || close(fd) != 0) {
		int err = errno;

		unlink(tmp);
		untrack(tmp);
		temp_free(tmp);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot write: %s", strerror(err));
	}
	return 0;
}

static void drop_temp(int fd, char *tmp)
{
	close(fd);
	unlink(tmp);
	untrack(tmp);
	temp_free(tmp);
}

/* Writes data to a new temporary file next to path (see create_temp),
 * synced unless the caller syncs its filesystem (finish_temp). */
static int write_temp(struct wg_ctx *ctx, const char *path, const void *data,
		      size_t len, char **tmp, bool sync)
{
	int fd = create_temp(ctx, path, NULL, tmp);

	if (fd < 0)
		return -1;
	if (wg_write_all(fd, data, len) != 0) {
		int err = errno;

		drop_temp(fd, *tmp);
		*tmp = NULL;
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot write: %s", strerror(err));
	}
	if (finish_temp(ctx, path, fd, *tmp, sync)) {
		*tmp = NULL;
		return -1;
	}
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
	temp_free(tmp);
	return rc;
}

/*
 * Whether path names an open file descriptor: /dev/stdout (stdin,
 * stderr), /dev/fd/N, /proc/PID/fd/N.
 */
static bool fd_alias(const char *path)
{
	char *c1 = wg_xstrdup(path), *c2 = wg_xstrdup(path);
	const char *base = basename(c1);
	char real[PATH_MAX];
	bool r = false;

	if (realpath(dirname(c2), real)) {
		size_t n = strlen(real);

		if (strcmp(real, "/dev") == 0)
			r = strncmp(base, "std", 3) == 0;
		else if (strncmp(real, "/proc/", 6) == 0)
			r = n > 3 && strcmp(real + n - 3, "/fd") == 0;
	}
	free(c1);
	free(c2);
	return r;
}

/*
 * True when path must be written in place: it exists and is not a regular
 * file, or it reaches one through a file descriptor's name (/dev/stdout
 * redirected to a file, maybe through symbolic links of its own).  Renaming
 * over such a file would drop what the shell opened, e.g. a log appended
 * to with >>.
 */
static bool special_file(const char *path)
{
	char cur[PATH_MAX], link[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return true;
	if (strlen(path) >= sizeof(cur))
		return false;
	strcpy(cur, path);
	for (int hop = 0; hop < 40; hop++) {
		ssize_t n;

		if (fd_alias(cur))
			return true;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return false;
		link[n] = '\0';
		if (link[0] != '/') {
			char *copy = wg_xstrdup(cur);
			int len = snprintf(cur, sizeof(cur), "%s/%s",
					   dirname(copy), link);

			free(copy);
			if (len < 0 || (size_t)len >= sizeof(cur))
				return false;
		} else {
			memcpy(cur, link, (size_t)n + 1);
		}
	}
	return false;
}

int wg_out_open(struct wg_ctx *ctx, struct wg_out *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!path || strcmp(path, "-") == 0) {
		out->fd = STDOUT_FILENO;
		out->name = "stdout";
		return WG_OUT_OK;
	}
	out->name = path;
	if (special_file(path)) {
		/* /dev/stdout, /dev/full, a FIFO: write in place. */
		out->fd = open(path, O_WRONLY | O_CLOEXEC | O_APPEND);
		if (out->fd < 0) {
			wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				     "cannot open: %s", strerror(errno));
			return out->status = WG_OUT_ERROR;
		}
		return WG_OUT_OK;
	}
	out->path = final_path(path);
	out->fd = create_temp(ctx, out->path, NULL, &out->tmp);
	if (out->fd < 0) {
		free(out->path);
		out->path = NULL;
		return out->status = WG_OUT_ERROR;
	}
	return WG_OUT_OK;
}

int wg_out_write(struct wg_ctx *ctx, struct wg_out *out, const void *data,
		 size_t len)
{
	if (out->status)
		return out->status;
	out->status = write_fd(ctx, out->fd, out->name, data, len);
	return out->status;
}

int wg_out_commit(struct wg_ctx *ctx, struct wg_out *out)
{
	int rc = out->status;

	if (rc) {
		wg_out_abort(out);
		return rc;
	}
	if (out->tmp) {
		if (finish_temp(ctx, out->path, out->fd, out->tmp, true)
		    || commit_temp(ctx, out->path, out->tmp))
			rc = WG_OUT_ERROR;
		out->tmp = NULL;
	} else if (out->fd != STDOUT_FILENO && close(out->fd) != 0) {
		wg_report_at(ctx, WG_SEV_ERROR, out->name, 0, 0,
			     "cannot write: %s", strerror(errno));
		rc = WG_OUT_ERROR;
	}
	out->fd = -1;
	free(out->path);
	out->path = NULL;
	return rc;
}

void wg_out_abort(struct wg_out *out)
{
	if (out->tmp)
		drop_temp(out->fd, out->tmp);
	else if (out->fd > STDOUT_FILENO)
		close(out->fd);
	out->tmp = NULL;
	out->fd = -1;
	free(out->path);
	out->path = NULL;
}

int wg_output_write(struct wg_ctx *ctx, const char *path, const void *data,
		    size_t len)
{
	struct wg_out out;

	if (wg_out_open(ctx, &out, path))
		return out.status;
	wg_out_write(ctx, &out, data, len);
	return wg_out_commit(ctx, &out);
}

/*
 * Makes the temporaries durable with one syncfs() per filesystem they are
 * on, instead of one fsync() each: 5,000 fsyncs (a journal commit each)
 * took 4 s of system time, one sync of the same data a few ms.  Returns
 * 0, or -1 (reported) when a sync fails.
 */
static int sync_filesystems(struct wg_ctx *ctx, char **tmps,
			    const struct wg_file_meta *metas, size_t n)
{
#ifdef __linux__
	uint64_t devs[16];
	size_t ndevs = 0;

	for (size_t i = 0; i < n; i++) {
		struct stat st;
		uint64_t dev;
		size_t k;
		int fd;

		/* a temporary stands beside the file it replaces: the
		 * file's filesystem, when a read of it told, is its own */
		if (!tmps[i])
			continue;
		if (metas[i].known)
			dev = metas[i].dev;
		else if (stat(tmps[i], &st) == 0)
			dev = (uint64_t)st.st_dev;
		else
			continue;	/* the rename reports what is wrong */
		for (k = 0; k < ndevs && devs[k] != dev; k++)
			;
		if (k < ndevs)
			continue;
		fd = open(tmps[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) != 0) {
			int err = errno;

			if (fd >= 0)
				close(fd);
			return wg_report_at(ctx, WG_SEV_ERROR, tmps[i], 0, 0,
					    "cannot write: %s", strerror(err));
		}
		close(fd);
		if (ndevs < sizeof(devs) / sizeof(devs[0]))
			devs[ndevs++] = dev;
	}
	return 0;
#else
	(void)metas;
	for (size_t i = 0; i < n; i++) {
		int fd = tmps[i] ? open(tmps[i], O_RDONLY) : -1;

		if (fd >= 0 && fsync(fd) != 0) {
			int err = errno;

			close(fd);
			return wg_report_at(ctx, WG_SEV_ERROR, tmps[i], 0, 0,
					    "cannot write: %s", strerror(err));
		}
		if (fd >= 0)
			close(fd);
	}
	return 0;
#endif
}

int wg_temp_open(struct wg_ctx *ctx, struct wg_temp *t, const char *path,
		 const struct wg_file_meta *meta)
{
	t->failed = false;
	t->target = final_path(path);
	t->fd = create_temp(ctx, t->target, meta, &t->tmp);
	t->meta = meta ? *meta : (struct wg_file_meta)WG_FILE_META_NONE;
	if (t->fd >= 0)
		return 0;
	free(t->target);
	t->target = NULL;
	t->tmp = NULL;
	t->failed = true;
	return -1;
}

int wg_temp_write(struct wg_ctx *ctx, struct wg_temp *t, const void *data,
		  size_t len)
{
	if (t->failed || !t->tmp)
		return -1;
	if (wg_write_all(t->fd, data, len) == 0)
		return 0;
	wg_report_at(ctx, WG_SEV_ERROR, t->target, 0, 0, "cannot write: %s",
		     strerror(errno));
	wg_temp_drop(t);
	t->failed = true;
	return -1;
}

int wg_temp_close(struct wg_ctx *ctx, struct wg_temp *t)
{
	if (t->failed || !t->tmp)
		return -1;
	if (finish_temp(ctx, t->target, t->fd, t->tmp, false)) {
		t->tmp = NULL;	/* finish_temp removed it */
		wg_temp_drop(t);
		t->failed = true;
		return -1;
	}
	t->fd = -1;
	return 0;
}

void wg_temp_drop(struct wg_temp *t)
{
	if (t->tmp && t->fd >= 0) {
		drop_temp(t->fd, t->tmp);
	} else if (t->tmp) {
		unlink(t->tmp);
		untrack(t->tmp);
		temp_free(t->tmp);
	}
	free(t->target);
	t->target = NULL;
	t->tmp = NULL;
	t->fd = -1;
}

/* fsync of a temporary written and closed ahead (wg_temp): through a new
 * descriptor, which Linux allows read-only. */
static int sync_closed_temp(struct wg_ctx *ctx, const char *path,
			    const char *tmp)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
	} else if (fsync(fd) != 0) {
		err = errno;	/* the fsync's error, not close's */
		close(fd);
	} else if (close(fd) != 0) {
		err = errno;
	} else {
		return 0;
	}
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(err));
}

int wg_output_replace_all(struct wg_ctx *ctx,
			  const struct wg_file_update *files, size_t n)
{
	char **tmps = wg_xcalloc(n ? n : 1, sizeof(*tmps));
	char **targets = wg_xcalloc(n ? n : 1, sizeof(*targets));
	struct wg_file_meta *metas = wg_xcalloc(n ? n : 1, sizeof(*metas));
	int rc = 0;

	/* the temporaries written ahead are ours from here on */
	for (size_t i = 0; i < n; i++) {
		struct wg_temp *t = files[i].temp;

		if (!t)
			continue;
		targets[i] = t->target;
		tmps[i] = t->tmp;
		metas[i] = t->meta;
		if (!t->failed && (!t->tmp || t->fd >= 0))
			wg_report_at(ctx, WG_SEV_ERROR, files[i].path, 0, 0,
				     "internal error: a temporary not written "
				     "and closed ahead");
		rc = t->failed || !t->tmp || t->fd >= 0 ? -1 : rc;
		if (t->fd >= 0)
			close(t->fd);
		t->target = NULL;
		t->tmp = NULL;
		t->fd = -1;
	}
	/* one file: its own fsync; more: one sync of their filesystems */
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (files[i].temp) {
			if (n == 1)
				rc = sync_closed_temp(ctx, targets[i],
						      tmps[i]);
			continue;
		}
		targets[i] = final_path(files[i].path);
		if (!files[i].remove)
			rc = write_temp(ctx, targets[i], files[i].data,
					files[i].len, &tmps[i], n == 1);
	}
	if (rc == 0 && n > 1)
		rc = sync_filesystems(ctx, tmps, metas, n);
	for (size_t i = 0; i < n; i++) {
		if (tmps[i] && rc == 0) {
			rc = commit_temp(ctx, targets[i], tmps[i]);
		} else if (tmps[i]) {
			unlink(tmps[i]);
			untrack(tmps[i]);
			temp_free(tmps[i]);
		}
	}
	/* removals last: a failed write above leaves every file as it was */
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (files[i].remove && unlink(targets[i]) != 0) {
			wg_report_at(ctx, WG_SEV_ERROR, files[i].path, 0, 0,
				     "cannot remove: %s", strerror(errno));
			rc = -1;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(targets[i]);
	free(tmps);
	free(targets);
	free(metas);
	return rc ? -1 : 0;
}
