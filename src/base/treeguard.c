/* O_PATH, readlinkat() with an empty name: Linux. */
#define _GNU_SOURCE

#include "wingen/base/treeguard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"

struct root {
	char *path;	/* as given, trailing slashes dropped ("/" kept) */
	size_t len;
	bool file;	/* a file PATH: only that file is in it */
};

struct wg_tree_guard {
	struct root *roots;
	size_t n;
	int *locks;	/* descriptors holding the locks */
	size_t nlocks;
};

/* A file or folder to lock: a tree (exclusive to write it, shared to
 * read it) or a folder above one (shared). */
struct lock {
	char *real;	/* its resolved path */
	dev_t dev;	/* which file it is: two names of one (hard */
	ino_t ino;	/* links, bind mounts) are locked once */
	bool exclusive;
};

static int cmp_lock(const void *a, const void *b)
{
	const struct lock *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void add_lock(struct lock **l, size_t *n, size_t *cap,
		     const char *real, size_t len, bool exclusive)
{
	char *path = len ? wg_xstrndup(real, len) : wg_xstrdup("/");
	struct stat st;

	if (stat(path, &st) != 0) {
		free(path);
		return;
	}
	WG_GROW(*l, *cap, *n + 1);
	(*l)[*n].real = path;
	(*l)[*n].dev = st.st_dev;
	(*l)[*n].ino = st.st_ino;
	(*l)[(*n)++].exclusive = exclusive;
}

/*
 * Takes the advisory locks (flock) of the trees: each tree exclusive when
 * the run writes, shared when it only reads, and every folder above a
 * tree shared, so two runs conflict exactly when one writes a tree the
 * other reads or writes (the same folder, one inside the other).  A
 * lock held elsewhere is an error at once, not a wait.  A filesystem
 * that has no flock (some network ones) is not locked.  0, or -1
 * reported.
 */
static int take_locks(struct wg_ctx *ctx, struct wg_tree_guard *g,
		      char *const *paths, size_t n, bool write)
{
	struct lock *l = NULL;
	size_t nl = 0, cap = 0, k = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		char *real = realpath(paths[i], NULL);

		if (!real)
			continue;	/* reading it says why */
		for (char *s = strchr(real + 1, '/'); s; s = strchr(s + 1, '/'))
			add_lock(&l, &nl, &cap, real, (size_t)(s - real),
				 false);
		if (strcmp(real, "/") != 0)
			add_lock(&l, &nl, &cap, "/", 0, false);
		add_lock(&l, &nl, &cap, real, strlen(real), write);
		free(real);
	}
	/* one lock a file, the strongest asked: two descriptors of one
	 * file in one process would conflict with each other */
	wg_sort(l, nl, sizeof(*l), cmp_lock);
	g->locks = wg_xcalloc(nl ? nl : 1, sizeof(*g->locks));
	for (size_t i = 0; i < nl; i = k) {
		bool ex = false;
		int fd;

		for (k = i; k < nl && cmp_lock(&l[k], &l[i]) == 0; k++)
			ex |= l[k].exclusive;
		if (rc)
			continue;
		fd = open(l[i].real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;	/* a folder we may not read: no lock */
		if (flock(fd, (ex ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0
		    || errno != EWOULDBLOCK) {
			g->locks[g->nlocks++] = fd;
			continue;
		}
		close(fd);
		rc = wg_report_at(ctx, WG_SEV_ERROR, l[i].real, 0, 0,
				  "another process holds a lock on it (a "
				  "wingen migrate over this tree, or over one "
				  "inside or around it): one migrate at a time "
				  "over a tree; run this one when it has "
				  "ended");
	}
	for (size_t i = 0; i < nl; i++)
		free(l[i].real);
	free(l);
	return rc;
}

static void drop_slashes(char *p)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
}

struct wg_tree_guard *wg_tree_guard_open(struct wg_ctx *ctx,
					 char *const *paths, size_t n,
					 bool write)
{
	struct wg_tree_guard *g = wg_xcalloc(1, sizeof(*g));

	g->roots = wg_xcalloc(n ? n : 1, sizeof(*g->roots));
	for (size_t i = 0; i < n; i++) {
		struct root *r = &g->roots[g->n];
		struct stat st;

		/* a missing path holds nothing to write (reading it says
		 * so) */
		if (stat(paths[i], &st) != 0)
			continue;
		r->path = wg_xstrdup(paths[i]);
		drop_slashes(r->path);
		r->len = strlen(r->path);
		r->file = !S_ISDIR(st.st_mode);
		g->n++;
	}
	if (take_locks(ctx, g, paths, n, write)) {
		wg_tree_guard_free(g);
		return NULL;
	}
	return g;
}

void wg_tree_guard_free(struct wg_tree_guard *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->roots[i].path);
	for (size_t i = 0; i < g->nlocks; i++)
		close(g->locks[i]);	/* the lock goes with it */
	free(g->locks);
	free(g->roots);
	free(g);
}

/* The tree that holds path (the longest PATH it is under), or NULL. */
static const struct root *root_of(const struct wg_tree_guard *g,
				  const char *path)
{
	const struct root *best = NULL;

	for (size_t i = 0; g && i < g->n; i++) {
		const struct root *r = &g->roots[i];
		bool in;

		if (r->file)
			in = strcmp(path, r->path) == 0;
		else if (strcmp(r->path, "/") == 0)
			in = path[0] == '/';
		else
			in = strncmp(path, r->path, r->len) == 0
			     && path[r->len] == '/';
		if (in && (!best || r->len > best->len))
			best = r;
	}
	return best;
}

/* "error: X is a symbolic link (to T): ..." for the link name (len
 * bytes of path) met at dirfd/comp. */
static int link_error(struct wg_ctx *ctx, const char *path, size_t len,
		      int dirfd, const char *comp)
{
	char to[PATH_MAX];
	ssize_t n = readlinkat(dirfd, comp, to, sizeof(to) - 1);

	to[n > 0 ? n : 0] = '\0';
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "'%.*s' is a "
			    "symbolic link (to '%s'): wingen writes only inside "
			    "the paths it was given, never through a link; "
			    "give the target's own path, or replace the link "
			    "with a copy", (int)len, path, to);
}

int wg_tree_guard_place(struct wg_ctx *ctx, const struct wg_tree_guard *g,
			const char *path, int *dirfd, const char **leaf)
{
	const struct root *r = root_of(g, path);
	const char *rel, *slash;
	struct stat st;
	int fd;

	*dirfd = -1;
	*leaf = NULL;
	if (!r)
		return 0;
	if (r->file) {
		/* a file PATH: its folder as given, the file no link */
		char *dir = wg_xstrdup(path), *s = strrchr(dir, '/');

		if (s)
			*(s == dir ? s + 1 : s) = '\0';
		fd = open(s ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		free(dir);
		rel = s ? path + (strrchr(path, '/') - path) + 1 : path;
	} else {
		fd = open(r->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		rel = path + r->len;
		while (*rel == '/')
			rel++;
	}
	if (fd < 0)
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "cannot open its folder: %s",
				    strerror(errno));
	/* every folder below the PATH, one at a time, no link followed */
	while ((slash = strchr(rel, '/'))) {
		size_t n = (size_t)(slash - rel);
		char comp[NAME_MAX + 1];
		int next;

		if (n > NAME_MAX) {
			close(fd);
			return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
					    "path is too long");
		}
		memcpy(comp, rel, n);
		comp[n] = '\0';
		if (strcmp(comp, "..") == 0) {
			close(fd);
			return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
					    "'..' leads out of the folder "
					    "given: wingen writes only inside "
					    "the paths it was given");
		}
		if (n && strcmp(comp, ".") != 0) {
			next = openat(fd, comp, O_PATH | O_DIRECTORY
				      | O_NOFOLLOW | O_CLOEXEC);
			if (next < 0) {
				int err = errno;
				int rc = fstatat(fd, comp, &st,
						 AT_SYMLINK_NOFOLLOW) == 0
					 && S_ISLNK(st.st_mode)
					 ? link_error(ctx, path,
						      (size_t)(slash - path),
						      fd, comp)
					 : wg_report_at(ctx, WG_SEV_ERROR,
							path, 0, 0,
							"cannot open its "
							"folder: %s",
							strerror(err));

				close(fd);
				return rc;
			}
			close(fd);
			fd = next;
		}
		rel = slash + 1;
		while (*rel == '/')
			rel++;
	}
	if (!*rel || strcmp(rel, ".") == 0 || strcmp(rel, "..") == 0) {
		close(fd);
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
				    "is not a file name");
	}
	if (fstatat(fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0
	    && S_ISLNK(st.st_mode)) {
		int rc = link_error(ctx, path, strlen(path), fd, rel);

		close(fd);
		return rc;
	}
	*dirfd = fd;
	*leaf = rel;
	return 1;
}
