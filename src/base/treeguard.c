/* O_PATH, readlinkat() with an empty name: Linux. */
#define _GNU_SOURCE

#include "wingen/base/treeguard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
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
};

static void drop_slashes(char *p)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
}

struct wg_tree_guard *wg_tree_guard_open(struct wg_ctx *ctx,
					 char *const *paths, size_t n)
{
	(void)ctx;
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
	return g;
}

void wg_tree_guard_free(struct wg_tree_guard *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		free(g->roots[i].path);
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
