/*
 * replace: the filesystem's floor for `wingen migrate --in-place` over a
 * folder.  It replaces files the way migrate's output does
 * (src/base/output.c), with no YAML and no work in between: the least any
 * tool that replaces files atomically, all or none, can spend in the
 * kernel on the same folder.
 *
 *   replace DIR [LIST]
 *
 * For each file of LIST (names in DIR, one a line; without LIST, every
 * regular file of DIR): its mode and size from fstatat(), a temporary
 * ".NAME.replace" made with open(O_CREAT | O_EXCL) and that mode, as many
 * bytes written to it as the file holds, closed.  Then one syncfs() of
 * DIR's filesystem, and every temporary renamed over its file.  That is
 * migrate's sequence for files it changed (migrate also reads each file,
 * which build does too, so it is left out here).  The bytes written are
 * zeros: to the filesystem, a size is a size.
 *
 * bench/run.sh gives it the files migrate changed in its warm-up run, and
 * reports migrate's CPU time less this one's against build's.
 * Exit 0 on success, 1 on a failed system call (named on stderr, with the
 * temporaries made so far removed), 2 on bad usage.
 */
#define _GNU_SOURCE	/* syncfs */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct names {
	char **v;
	size_t len, cap;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("replace: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static void names_add(struct names *n, const char *s, size_t len)
{
	if (n->len == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 1024;
		n->v = xrealloc(n->v, n->cap * sizeof(*n->v));
	}
	n->v[n->len] = xrealloc(NULL, len + 1);
	memcpy(n->v[n->len], s, len);
	n->v[n->len][len] = '\0';
	n->len++;
}

/* The names of LIST, or of DIR's regular files.  Returns 0 or -1. */
static int collect(int dirfd, const char *list, struct names *out)
{
	if (list) {
		FILE *f = fopen(list, "r");
		char line[4096];

		if (!f)
			return -1;
		while (fgets(line, sizeof(line), f)) {
			size_t len = strcspn(line, "\n");

			if (len)
				names_add(out, line, len);
		}
		return fclose(f) == 0 ? 0 : -1;
	}
	DIR *d = fdopendir(dup(dirfd));
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_type == DT_REG
		    || (e->d_type == DT_UNKNOWN && e->d_name[0] != '.'))
			names_add(out, e->d_name, strlen(e->d_name));
	closedir(d);
	return 0;
}

static int write_zeros(int fd, size_t len)
{
	static const char zeros[65536];

	while (len) {
		size_t want = len < sizeof(zeros) ? len : sizeof(zeros);
		ssize_t n = write(fd, zeros, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		len -= (size_t)n;
	}
	return 0;
}

static char *temp_name(const char *name)
{
	size_t len = strlen(name);
	char *t = xrealloc(NULL, len + sizeof(".replace") + 1);

	t[0] = '.';
	memcpy(t + 1, name, len);
	memcpy(t + 1 + len, ".replace", sizeof(".replace"));
	return t;
}

/* Writes the temporary of each name; returns how many exist. */
static size_t write_temps(int dirfd, const struct names *n, char **temps,
			  const char **failed)
{
	for (size_t i = 0; i < n->len; i++) {
		struct stat st;
		int fd;

		temps[i] = temp_name(n->v[i]);
		*failed = n->v[i];
		if (fstatat(dirfd, n->v[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
			return i;
		fd = openat(dirfd, temps[i],
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    st.st_mode & 07777);
		if (fd < 0)
			return i;
		if (write_zeros(fd, (size_t)st.st_size) != 0) {
			int err = errno;

			close(fd);
			errno = err;
			return i + 1;
		}
		if (close(fd) != 0)
			return i + 1;
	}
	*failed = NULL;
	return n->len;
}

int main(int argc, char **argv)
{
	struct names n = { NULL, 0, 0 };
	const char *failed = NULL;
	char **temps;
	size_t made;
	int dirfd, rc = 0;

	if (argc < 2 || argc > 3) {
		fputs("usage: replace DIR [LIST]\n", stderr);
		return 2;
	}
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || collect(dirfd, argc > 2 ? argv[2] : NULL, &n) != 0) {
		fprintf(stderr, "replace: cannot list '%s': %s\n",
			argc > 2 ? argv[2] : argv[1], strerror(errno));
		return 1;
	}
	temps = calloc(n.len ? n.len : 1, sizeof(*temps));
	if (!temps) {
		fputs("replace: out of memory\n", stderr);
		return 1;
	}
	made = write_temps(dirfd, &n, temps, &failed);
	if (failed) {
		fprintf(stderr, "replace: %s/%s: %s\n", argv[1], failed,
			strerror(errno));
		rc = 1;
	} else if (syncfs(dirfd) != 0) {
		fprintf(stderr, "replace: syncfs '%s': %s\n", argv[1],
			strerror(errno));
		rc = 1;
	}
	for (size_t i = 0; i < made; i++) {
		if (rc == 0 && renameat(dirfd, temps[i], dirfd, n.v[i]) != 0) {
			fprintf(stderr, "replace: rename %s/%s: %s\n", argv[1],
				n.v[i], strerror(errno));
			rc = 1;
		}
		if (rc != 0)
			(void)unlinkat(dirfd, temps[i], 0);
	}
	for (size_t i = 0; i < n.len; i++) {
		free(n.v[i]);
		free(temps[i]);
	}
	free(temps);
	free(n.v);
	close(dirfd);
	return rc;
}
