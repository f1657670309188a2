/* O_PATH: Linux. */
#define _GNU_SOURCE

#include "output_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/cleanup.h"
#include "wingen/base/output.h"
#include "wingen/base/treeguard.h"

/* A symbolic link resolved, so the rename replaces its target and the
 * link stays (the user's own file: --output-file). */
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

/* path split at its last '/': the folder ("." for none) and the name. */
static void split(const char *path, char **dir, char **leaf)
{
	const char *s = strrchr(path, '/');

	if (!s) {
		*dir = wg_xstrdup(".");
		*leaf = wg_xstrdup(path);
	} else {
		*dir = s == path ? wg_xstrdup("/")
				 : wg_xstrndup(path, (size_t)(s - path));
		*leaf = wg_xstrdup(s + 1);
	}
}

int wg_place_open(struct wg_ctx *ctx, const char *path, struct wg_place *p)
{
	const char *leaf;
	int fd, rc = wg_tree_guard_place(ctx, ctx->guard, path, &fd, &leaf);
	char *target;

	memset(p, 0, sizeof(*p));
	p->dirfd = -1;
	if (rc < 0)
		return -1;
	if (rc > 0) {
		split(path, &p->dir, &p->leaf);
		free(p->leaf);
		p->leaf = wg_xstrdup(leaf);
		p->dirfd = fd;
		p->guarded = true;
		return 0;
	}
	target = final_path(path);
	split(target, &p->dir, &p->leaf);
	free(target);
	p->dirfd = open(p->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd >= 0)
		return 0;
	rc = wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
			  "cannot create a temporary file: %s",
			  strerror(errno));
	wg_place_close(p);
	return rc;
}

void wg_place_close(struct wg_place *p)
{
	if (p->dirfd >= 0)
		close(p->dirfd);
	free(p->dir);
	free(p->leaf);
	memset(p, 0, sizeof(*p));
	p->dirfd = -1;
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
 * Six characters from a per-process random seed and a counter, so names
 * cannot be guessed ahead and each try is new (O_EXCL, or mkdir, refuses
 * a name that exists, a symlink included).
 */
static void random_tail(char tail[7])
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	static uint64_t seed, count;
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
}

/* A name for a temporary in p's folder: ".NAME.wingen-XXXXXX". */
static void temp_name(struct wg_buf *name, const struct wg_place *p)
{
	char tail[7];

	random_tail(tail);
	wg_buf_reset(name);
	if (strcmp(p->dir, "/") == 0)
		wg_buf_addf(name, "/.%s.wingen-%s", p->leaf, tail);
	else
		wg_buf_addf(name, "%s/.%s.wingen-%s", p->dir, p->leaf, tail);
}

const char *wg_temp_leaf(const char *tmp)
{
	const char *s = strrchr(tmp, '/');

	return s ? s + 1 : tmp;
}

int wg_temp_create(struct wg_ctx *ctx, const struct wg_place *p,
		   const char *path, const struct wg_file_meta *meta,
		   char **tmp)
{
	struct wg_buf name = WG_BUF_INIT;
	mode_t mask = process_umask(), mode;
	struct stat st;
	char *t = NULL;
	int fd = -1, err = 0;

	if (meta && meta->known)
		mode = (mode_t)meta->mode;
	else if (fstatat(p->dirfd, p->leaf, &st, 0) == 0)
		mode = st.st_mode & 07777;
	else
		mode = 0666 & ~mask;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		temp_name(&name, p);
		/* registered first: a signal before the open removes a name
		 * not made yet, never leaves one made */
		t = wg_cleanup_track(name.buf);
		if (!t) {
			err = errno;
			break;
		}
		fd = openat(p->dirfd, wg_temp_leaf(t),
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    mode & 0777);
		if (fd >= 0)
			break;
		err = errno;
		wg_cleanup_untrack(t);
		t = NULL;
		if (err != EEXIST)
			break;
	}
	if (fd >= 0 && ((mode & ~mask) != mode || (mode & ~(mode_t)0777))
	    && fchmod(fd, mode) != 0) {
		err = errno;
		close(fd);
		unlinkat(p->dirfd, wg_temp_leaf(t), 0);
		wg_cleanup_untrack(t);
		fd = -1;
	}
	if (fd < 0) {
		wg_buf_release(&name);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot create a temporary file: %s",
				    strerror(err ? err : EEXIST));
	}
	wg_buf_release(&name);
	*tmp = t;
	return fd;
}

/* TMPDIR/PREFIX-XXXXXX, the name of a try. */
static void scratch_name(struct wg_buf *b, const char *prefix)
{
	const char *dir = getenv("TMPDIR");
	char tail[7];

	random_tail(tail);
	wg_buf_reset(b);
	wg_buf_addf(b, "%s/%s-%s", dir && *dir ? dir : "/tmp", prefix, tail);
}

char *wg_scratch_dir_make(struct wg_ctx *ctx, const char *prefix)
{
	struct wg_buf b = WG_BUF_INIT;
	int err = 0;

	for (int tries = 0; tries < 100; tries++) {
		scratch_name(&b, prefix);
		/* registered first: a signal before the mkdir removes a
		 * name not made yet, never leaves one made */
		if (wg_cleanup_track_dir(b.buf)) {
			err = errno;
			break;
		}
		if (mkdir(b.buf, 0700) == 0)
			return wg_buf_detach(&b, NULL);
		err = errno;
		wg_cleanup_untrack_dir(b.buf);
		if (err != EEXIST)
			break;
	}
	wg_report_at(ctx, WG_SEV_ERROR, b.buf, 0, 0, "cannot make a "
		     "temporary folder: %s", strerror(err));
	wg_buf_release(&b);
	return NULL;
}

void wg_scratch_dir_remove(char *path)
{
	if (!path)
		return;
	wg_cleanup_remove_dir(path);
	free(path);
}

char *wg_scratch_file_write(struct wg_ctx *ctx, const char *prefix,
			    const void *data, size_t len)
{
	struct wg_buf b = WG_BUF_INIT;
	char *t = NULL;
	int fd = -1, err = 0;

	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		scratch_name(&b, prefix);
		t = wg_cleanup_track(b.buf);
		if (!t) {
			err = errno;
			break;
		}
		fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		err = errno;
		wg_cleanup_untrack(t);
		t = NULL;
		if (err != EEXIST)
			break;
	}
	if (fd >= 0 && (wg_write_all(fd, data, len) != 0 || close(fd) != 0)) {
		err = errno;
		fd = -1;
		wg_scratch_file_remove(t);
	}
	if (fd < 0) {
		wg_report_at(ctx, WG_SEV_ERROR, b.buf, 0, 0, "cannot write a "
			     "temporary file: %s", strerror(err));
		wg_buf_release(&b);
		return NULL;
	}
	wg_buf_release(&b);
	return t;
}

void wg_scratch_file_remove(char *path)
{
	if (!path)
		return;
	unlink(path);
	wg_cleanup_untrack(path);
}
