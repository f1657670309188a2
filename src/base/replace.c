/*
 * Files replaced in sets (migrate, chart migrate): each file's new text
 * goes to a temporary beside it, written ahead (wg_temp) or here; the
 * renames happen only when every temporary is written and synced, with
 * SIGINT, SIGTERM and SIGHUP held, so a run ends with its files all as
 * they were or all replaced (output.h, SECURITY.md "Output").
 */
/* syncfs() is a Linux extension (many files are made durable with one
 * filesystem sync, not one fsync each). */
#define _GNU_SOURCE

#include "wingen/base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/cleanup.h"

/* The path of place p's file, for messages and for a later rename. */
static char *place_path(const struct wg_place *p, const char *given)
{
	struct wg_buf b = WG_BUF_INIT;

	if (p->guarded)
		return wg_xstrdup(given);
	if (strcmp(p->dir, "/") != 0)
		wg_buf_addstr(&b, p->dir);
	wg_buf_addch(&b, '/');
	wg_buf_addstr(&b, p->leaf);
	return wg_buf_detach(&b, NULL);
}

/* Removes a temporary (closed or not) by its registered name. */
static void remove_temp(char *tmp)
{
	if (tmp) {
		unlink(tmp);
		wg_cleanup_untrack(tmp);
	}
}

/* A file with other names: the rename would give this name the new text
 * and leave the others with the old (splitting them silently). */
static int hard_links(struct wg_ctx *ctx, const char *path, uint64_t n)
{
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "has %llu hard "
			    "links: wingen replaces a file by renaming a new "
			    "one over it, which would leave its other names "
			    "with the old text; nothing is written (give it "
			    "a file of its own: cp FILE FILE.new && mv "
			    "FILE.new FILE)", (unsigned long long)n);
}

int wg_temp_open(struct wg_ctx *ctx, struct wg_temp *t, const char *path,
		 const struct wg_file_meta *meta)
{
	struct wg_place p;

	t->failed = true;
	t->target = NULL;
	t->tmp = NULL;
	t->fd = -1;
	t->meta = meta ? *meta : (struct wg_file_meta)WG_FILE_META_NONE;
	if (wg_place_open(ctx, path, &p))
		return -1;
	if (p.guarded && meta && meta->known && meta->nlink > 1) {
		hard_links(ctx, path, meta->nlink);
		wg_place_close(&p);
		return -1;
	}
	t->fd = wg_temp_create(ctx, &p, path, meta, &t->tmp);
	if (t->fd >= 0) {
		t->target = place_path(&p, path);
		t->failed = false;
	}
	wg_place_close(&p);
	return t->fd >= 0 ? 0 : -1;
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

/* Closes a temporary written ahead, unsynced: the caller syncs its
 * filesystem before any rename (sync_filesystems).  (Starting each
 * file's writeback at once with sync_file_range cost a device kick per
 * file: 5% of a 10,000-file run.) */
int wg_temp_close(struct wg_ctx *ctx, struct wg_temp *t)
{
	if (t->failed || !t->tmp)
		return -1;
	if (close(t->fd) != 0) {
		wg_report_at(ctx, WG_SEV_ERROR, t->target, 0, 0,
			     "cannot write: %s", strerror(errno));
		t->fd = -1;
		wg_temp_drop(t);
		t->failed = true;
		return -1;
	}
	t->fd = -1;
	return 0;
}

void wg_temp_drop(struct wg_temp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	remove_temp(t->tmp);
	free(t->target);
	t->target = NULL;
	t->tmp = NULL;
	t->fd = -1;
}

/* fsync of a temporary written and closed ahead: through a new
 * descriptor, which Linux allows read-only. */
static int sync_closed_temp(struct wg_ctx *ctx, const char *path,
			    const char *tmp)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), err;

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

/*
 * Makes the temporaries durable with one syncfs() per filesystem they are
 * on, instead of one fsync() each: 5,000 fsyncs (a journal commit each)
 * took 4 s of system time, one sync of the same data a few ms.  Returns
 * 0, or -1 (reported) when a sync fails.
 */
static int sync_filesystems(struct wg_ctx *ctx, char **tmps,
			    const struct wg_file_meta *metas, size_t n)
{
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
		fd = open(tmps[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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
}

/* Writes data to a new temporary beside path, synced when sync (else the
 * caller syncs its filesystem).  *target: the path it replaces. */
static int write_temp(struct wg_ctx *ctx, const char *path, const void *data,
		      size_t len, bool sync, char **tmp, char **target)
{
	struct wg_place p;
	int fd, err = 0;

	*tmp = NULL;
	if (wg_place_open(ctx, path, &p))
		return -1;
	fd = wg_temp_create(ctx, &p, path, NULL, tmp);
	if (fd >= 0) {
		*target = place_path(&p, path);
		if (wg_write_all(fd, data, len) != 0 || (sync && fsync(fd)))
			err = errno;
		if (close(fd) != 0 && !err)
			err = errno;
	}
	wg_place_close(&p);
	if (fd < 0)
		return -1;
	if (!err)
		return 0;
	remove_temp(*tmp);
	*tmp = NULL;
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(err));
}

static int64_t ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* Whether st is the file m told of: inode, size and times. */
static bool same_stamp(const struct wg_file_meta *m, const struct stat *st)
{
	return m->dev == (uint64_t)st->st_dev && m->ino == (uint64_t)st->st_ino
	       && m->size == (uint64_t)st->st_size
	       && m->mtime_ns == ns(&st->st_mtim)
	       && m->ctime_ns == ns(&st->st_ctim);
}

/* Whether fd reads exactly old (len bytes). */
static bool same_bytes(int fd, const char *old, size_t len)
{
	static char buf[1 << 16];
	size_t at = 0;

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0)
			return at == len;
		if ((size_t)n > len - at || memcmp(buf, old + at, (size_t)n))
			return false;
		at += (size_t)n;
	}
}

/* A file's times are as fine as the kernel's tick, or a second on some
 * filesystems: a change made in the same tick as the read may keep
 * them, so within this of the read the bytes are compared too. */
#define RACY_NS INT64_C(2000000000)

/*
 * 0 when the file at p is still what the run read (u: check, old, and m
 * its meta); else -1 with an error naming it.  A changed file is the
 * user's edit, or another program's: it is left as it is, with the rest.
 */
static int unchanged(struct wg_ctx *ctx, const struct wg_place *p,
		     const struct wg_file_update *u,
		     const struct wg_file_meta *m)
{
	static const char again[] = "; nothing is written: run wingen again";
	struct stat st;
	bool same;
	int fd;

	if (fstatat(p->dirfd, p->leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT && !u->old)
			return 0;
		if (errno == ENOENT)
			return wg_report_at(ctx, WG_SEV_ERROR, u->path, 0, 0,
					    "was removed while wingen ran%s",
					    again);
		return wg_report_at(ctx, WG_SEV_ERROR, u->path, 0, 0,
				    "cannot read: %s", strerror(errno));
	}
	if (!u->old)
		return wg_report_at(ctx, WG_SEV_ERROR, u->path, 0, 0,
				    "was created while wingen ran (it did not "
				    "exist when the run read the tree)%s",
				    again);
	if (p->guarded && st.st_nlink > 1)
		return hard_links(ctx, u->path, (uint64_t)st.st_nlink);
	same = !m->known || same_stamp(m, &st);
	if (same && (!m->known || m->read_ns - ns(&st.st_ctim) < RACY_NS)) {
		fd = openat(p->dirfd, p->leaf, O_RDONLY | O_NOFOLLOW
			    | O_NONBLOCK | O_CLOEXEC);
		same = fd >= 0 && S_ISREG(st.st_mode)
		       && same_bytes(fd, u->old, u->old_len);
		if (fd >= 0)
			close(fd);
	}
	if (!same)
		return wg_report_at(ctx, WG_SEV_ERROR, u->path, 0, 0,
				    "changed since wingen read it (another "
				    "program wrote it during the run); its "
				    "new text is kept%s", again);
	return 0;
}

/* "a, b, c and N more": the files a failed rename phase had replaced. */
static void say_replaced(struct wg_ctx *ctx, char *const *done, size_t n)
{
	struct wg_buf b = WG_BUF_INIT;

	for (size_t i = 0; i < n && i < 5; i++)
		wg_buf_addf(&b, "%s%s", i ? ", " : "", done[i]);
	if (n > 5)
		wg_buf_addf(&b, " and %zu more", n - 5);
	wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0, "the run stopped after "
		     "replacing %zu file%s, which now hold the new text: %s",
		     n, n == 1 ? "" : "s", b.buf);
	wg_buf_release(&b);
}

/* Whether path is still what the run read (unchanged()); 0 or -1. */
static int check_one(struct wg_ctx *ctx, const char *path,
		     const struct wg_file_update *u,
		     const struct wg_file_meta *m)
{
	struct wg_place p;
	int rc;

	if (wg_place_open(ctx, path, &p))
		return -1;
	rc = unchanged(ctx, &p, u, m);
	wg_place_close(&p);
	return rc;
}

/* Renames tmp over path (or removes path when remove): 0, or -1
 * reported.  m: the file as read, looked at once more (when known). */
static int replace_one(struct wg_ctx *ctx, const char *path, const char *tmp,
		       bool remove, const struct wg_file_meta *m)
{
	struct wg_place p;
	struct stat st;
	int rc = 0;

	if (wg_place_open(ctx, path, &p))
		return -1;
	if (m && m->known
	    && (fstatat(p.dirfd, p.leaf, &st, AT_SYMLINK_NOFOLLOW) != 0
		|| !same_stamp(m, &st))) {
		rc = wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "changed "
				  "since wingen read it (another program "
				  "wrote it during the run); its new text is "
				  "kept");
		wg_place_close(&p);
		return rc;
	}
	if (remove ? unlinkat(p.dirfd, p.leaf, 0) != 0
		   : renameat(p.dirfd, wg_temp_leaf(tmp), p.dirfd, p.leaf)
		     != 0)
		rc = wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				  remove ? "cannot remove: %s"
					 : "cannot replace the file: %s",
				  strerror(errno));
	wg_place_close(&p);
	return rc;
}

int wg_output_replace_all(struct wg_ctx *ctx,
			  const struct wg_file_update *files, size_t n)
{
	char **tmps = wg_xcalloc(n ? n : 1, sizeof(*tmps));
	char **targets = wg_xcalloc(n ? n : 1, sizeof(*targets));
	char **done = wg_xcalloc(n ? n : 1, sizeof(*done));
	struct wg_file_meta *metas = wg_xcalloc(n ? n : 1, sizeof(*metas));
	size_t ndone = 0;
	sigset_t old;
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
		} else if (files[i].remove) {
			targets[i] = wg_xstrdup(files[i].path);
		} else {
			rc = write_temp(ctx, files[i].path, files[i].data,
					files[i].len, n == 1, &tmps[i],
					&targets[i]);
		}
	}
	if (rc == 0 && n > 1)
		rc = sync_filesystems(ctx, tmps, metas, n);
	/* every file still as read, before the first rename (each one
	 * that changed is named) */
	for (size_t i = 0, ok = rc == 0; i < n; i++) {
		if (!files[i].temp)
			metas[i] = files[i].meta;
		if (ok && files[i].check
		    && check_one(ctx, targets[i], &files[i], &metas[i]))
			rc = -1;
	}
	/* the renames, then the removals (a failed write above leaves every
	 * file as it was), with the signals held: all or, once begun, all */
	wg_cleanup_hold_signals(&old);
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!files[i].remove) {
			rc = replace_one(ctx, targets[i], tmps[i], false,
					 files[i].check ? &metas[i] : NULL);
			if (rc == 0) {
				wg_cleanup_untrack(tmps[i]);
				tmps[i] = NULL;
				done[ndone++] = targets[i];
			}
		}
	for (size_t i = 0; i < n && rc == 0; i++)
		if (files[i].remove) {
			rc = replace_one(ctx, targets[i], NULL, true,
					 files[i].check ? &metas[i] : NULL);
			if (rc == 0)
				done[ndone++] = targets[i];
		}
	if (rc && ndone)
		say_replaced(ctx, done, ndone);
	for (size_t i = 0; i < n; i++)
		remove_temp(tmps[i]);
	wg_cleanup_release_signals(&old);
	for (size_t i = 0; i < n; i++)
		free(targets[i]);
	free(tmps);
	free(targets);
	free(done);
	free(metas);
	return rc ? -1 : 0;
}
