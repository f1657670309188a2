/* dirent.d_type (a BSD and glibc extension, where POSIX has none): a
 * folder walk that need not stat() every regular file. */
#define _DEFAULT_SOURCE

#include "wingen/base/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"
#include "wingen/base/buf.h"

static int fail(struct wg_ctx *ctx, const char *path, const char *what,
		int err)
{
	if (err)
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "%s: %s",
				    what, strerror(err));
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "%s", what);
}

/*
 * A large regular file is mapped, not read: read() copies it from the
 * page cache into fresh memory, and on a virtual machine the first touch
 * of fresh memory costs more than the parse of it (bench/README.md).
 * The mapping is private and writable (copy on write: nothing reaches
 * the file).  It needs the byte after the end to be the zero that fills
 * the mapping's last page: a file whose size is a whole number of pages
 * is read instead.  (As with any reader of a mapped file, a file another
 * process truncates meanwhile ends the run with SIGBUS; wingen itself
 * only ever replaces files by rename.)
 */
static bool map_file(int fd, const struct stat *st, struct wg_input *in)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)st->st_size;
	void *p;

	if (len < WG_LARGE_MIN || page <= 0 || len % (size_t)page == 0)
		return false;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return false;
	in->data = p;
	in->len = len;
	in->mapped = len;
	return true;
}

/*
 * A regular file's text read straight into arena, in one exact
 * allocation with a probe byte: 1 when it is all there (in->data and
 * in->len set), 0 when the file grew meanwhile (what was read is in b,
 * for the caller's loop to go on), -1 on a read error (errno set).
 */
static int read_into_arena(int fd, size_t size, struct wg_arena *arena,
			   struct wg_input *in, struct wg_buf *b)
{
	char *text = wg_arena_alloc_str(arena, size + 2);
	size_t len = 0;

	for (;;) {
		ssize_t n = read(fd, text + len, size + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == size + 1) {	/* grown: on with a buffer */
			wg_buf_add(b, text, len);
			return 0;
		}
	}
	text[len] = '\0';
	in->data = text;
	in->len = len;
	return 1;
}

/* The end of a read that succeeded: over the limit is an error (in is
 * then empty); else in takes its name, in arena when there is one. */
static int read_done(struct wg_ctx *ctx, const char *name,
		     struct wg_arena *arena, struct wg_input *in)
{
	if (in->len > ctx->limits.max_input_bytes) {
		wg_input_release(in);
		return wg_report_at(ctx, WG_SEV_ERROR, name, 0, 0,
				    "input is larger than the limit of %zu "
				    "bytes", ctx->limits.max_input_bytes);
	}
	if (!arena) {
		in->name = wg_xstrdup(name);
		return 0;
	}
	if (!in->mapped && in->data && !in->borrowed) {
		/* stdin, a pipe, a file that grew: read as a buffer */
		char *copy = wg_arena_strndup(arena, in->data, in->len);

		free(in->data);
		in->data = copy;
	}
	in->name = wg_arena_strdup(arena, name);
	in->borrowed = true;
	return 0;
}

void wg_file_meta_of(struct wg_file_meta *meta, const struct stat *st)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	meta->known = true;
	meta->mode = (unsigned)(st->st_mode & 07777);
	meta->dev = (uint64_t)st->st_dev;
	meta->ino = (uint64_t)st->st_ino;
	meta->size = (uint64_t)st->st_size;
	meta->nlink = (uint64_t)st->st_nlink;
	meta->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000
			 + st->st_mtim.tv_nsec;
	meta->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000
			 + st->st_ctim.tv_nsec;
	meta->read_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/*
 * Room for the next read of a stream, doubling but never past the limit
 * and two bytes (doubling from a 2 GiB limit would ask for 4 GiB).
 */
static void grow_within(struct wg_buf *b, size_t max)
{
	size_t cap = b->cap < 32768 ? 65536 : 2 * b->cap;

	if (cap > max + 2)
		cap = max + 2;
	if (cap <= b->cap)
		cap = b->cap + 2;
	b->buf = wg_xrealloc(b->cap ? b->buf : NULL, cap);
	b->cap = cap;
}

/* Whether text (len bytes) starts with a UTF-16 byte order mark: the
 * reader says so, in its own words. */
static bool utf16_bom(const char *text, size_t len)
{
	const unsigned char *d = (const unsigned char *)text;

	return len >= 2 && ((d[0] == 0xff && d[1] == 0xfe)
			    || (d[0] == 0xfe && d[1] == 0xff));
}

/* Reads fd; known is its fstat() when the caller made it (NULL: made
 * here; one system call a file fewer over a folder of small files). */
static int read_fd(struct wg_ctx *ctx, int fd, const char *name,
		   const struct stat *known, struct wg_arena *arena,
		   struct wg_input *in)
{
	struct wg_buf b = WG_BUF_INIT;
	struct stat st;

	memset(in, 0, sizeof(*in));
	if (known)
		st = *known;
	if ((!known && fstat(fd, &st) != 0) || !S_ISREG(st.st_mode)) {
		st.st_size = 0;		/* a pipe or a terminal: read it */
	} else {
		wg_file_meta_of(&in->meta, &st);
	}
	if ((size_t)st.st_size <= ctx->limits.max_input_bytes
	    && map_file(fd, &st, in))
		return read_done(ctx, name, arena, in);
	/* A regular file is read into one exact allocation (+1 probe byte to
	 * see the end without growing). */
	if (st.st_size > 0 && arena) {
		int got = read_into_arena(fd, (size_t)st.st_size, arena, in,
					  &b);

		if (got < 0)
			return fail(ctx, name, "cannot read", errno);
		if (got > 0) {
			in->borrowed = true;	/* the text only, so far */
			return read_done(ctx, name, arena, in);
		}
	} else if (st.st_size > 0) {
		b.buf = wg_xmalloc((size_t)st.st_size + 2);
		b.cap = (size_t)st.st_size + 2;
		b.buf[0] = '\0';
	}
	for (;;) {
		size_t max = ctx->limits.max_input_bytes;
		ssize_t n;

		if (b.cap - b.len < 2)
			grow_within(&b, max);
		n = read(fd, b.buf + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			wg_buf_release(&b);
			return fail(ctx, name, "cannot read", err);
		}
		if (n == 0)
			break;
		/* a stream is text: a NUL byte says at once that it is not
		 * (/dev/zero, a binary file piped in), before the limit */
		if (!in->meta.known && !utf16_bom(b.buf, b.len + (size_t)n)
		    && memchr(b.buf + b.len, '\0', (size_t)n)) {
			size_t at = (size_t)((char *)memchr(b.buf + b.len,
							    '\0', (size_t)n)
					     - b.buf);

			wg_buf_release(&b);
			return wg_report_at(ctx, WG_SEV_ERROR, name, 0, 0,
					    "input holds a NUL byte at offset "
					    "%zu: it is not YAML text (binary "
					    "data? wingen reads UTF-8)", at);
		}
		b.len += (size_t)n;
		b.buf[b.len] = '\0';
		if (b.len > max)
			break;	/* read_done says so */
	}
	in->data = wg_buf_detach(&b, &in->len);
	return read_done(ctx, name, arena, in);
}

int wg_input_read_fd(struct wg_ctx *ctx, int fd, const char *name,
		     struct wg_input *in)
{
	return read_fd(ctx, fd, name, NULL, NULL, in);
}

/* "a FIFO", "a character device", ...: what a file that is not a
 * regular one or a folder is. */
static const char *kind_of(const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a file";
}

bool wg_path_names_fd(const char *path)
{
	const char *slash = strrchr(path, '/');
	char real[PATH_MAX], *dir;
	bool r = false;

	if (!slash)
		return false;
	dir = wg_xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (realpath(dir, real)) {
		size_t n = strlen(real);

		if (strcmp(real, "/dev") == 0)
			r = strncmp(slash + 1, "std", 3) == 0;
		else if (strncmp(real, "/proc/", 6) == 0)
			r = n > 3 && strcmp(real + n - 3, "/fd") == 0;
	}
	free(dir);
	return r;
}

static int read_path(struct wg_ctx *ctx, const char *path,
		     struct wg_arena *arena, struct wg_input *in)
{
	struct stat st;
	bool known;
	int fd, rc;

	memset(in, 0, sizeof(*in));
	if (strcmp(path, "-") == 0)
		return read_fd(ctx, STDIN_FILENO, WG_STDIN_NAME, NULL, arena,
			       in);
	/* O_NONBLOCK: opening a FIFO with no writer must not wait (it is
	 * refused below); a regular file reads the same with it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fail(ctx, path, "cannot open", errno);
	known = fstat(fd, &st) == 0;
	if (known && S_ISDIR(st.st_mode)) {
		close(fd);
		return fail(ctx, path, "is a folder, not a file", 0);
	}
	if (known && !S_ISREG(st.st_mode)) {
		if (!wg_path_names_fd(path)) {
			close(fd);
			return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
					    "is %s, not a regular file: wingen "
					    "reads files, folders and stdin "
					    "(-f -, or -f /dev/stdin for what "
					    "a pipe gives)", kind_of(&st));
		}
		/* a descriptor's name (/dev/stdin, <(...)): read it as the
		 * stream it is, waiting for its writer */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	}
	rc = read_fd(ctx, fd, path, known ? &st : NULL, arena, in);
	close(fd);
	return rc;
}

int wg_input_read(struct wg_ctx *ctx, const char *path, struct wg_input *in)
{
	return read_path(ctx, path, NULL, in);
}

int wg_input_read_in(struct wg_ctx *ctx, const char *path,
		     struct wg_arena *arena, struct wg_input *in)
{
	return read_path(ctx, path, arena, in);
}

enum wg_stdin_kind wg_stdin_kind(void)
{
	struct stat st;
	int waiting = 0;

	if (isatty(STDIN_FILENO))
		return WG_STDIN_TERMINAL;
	if (fstat(STDIN_FILENO, &st) != 0)
		return WG_STDIN_EMPTY;
	if (S_ISREG(st.st_mode)) {
		off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);

		return at >= 0 && st.st_size > at ? WG_STDIN_DATA
						  : WG_STDIN_EMPTY;
	}
	if ((S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
	    && ioctl(STDIN_FILENO, FIONREAD, &waiting) == 0 && waiting > 0)
		return WG_STDIN_DATA;
	return WG_STDIN_EMPTY;
}

void wg_input_release(struct wg_input *in)
{
	if (!in->borrowed)
		free(in->name);
	/* mapped == len for a mapping (map_file): a hand-filled input that
	 * left mapped unset is then still freed, not unmapped */
	if (in->mapped && in->mapped == in->len && in->data)
		munmap(in->data, in->mapped);
	else if (!in->borrowed)
		free(in->data);
	memset(in, 0, sizeof(*in));
}

char *wg_input_take_data(struct wg_input *in)
{
	char *data = in->data;

	if (in->mapped && in->mapped == in->len && data) {
		data = wg_xstrndup(in->data, in->len);
		munmap(in->data, in->mapped);
	} else if (in->borrowed && data) {
		data = wg_xstrndup(in->data, in->len);
	}
	in->data = NULL;	/* borrowed still tells of the name */
	in->mapped = 0;
	return data;
}

void wg_pathlist_add(struct wg_pathlist *list, const char *path)
{
	WG_GROW(list->items, list->cap, list->len + 1);
	list->items[list->len++] = wg_xstrdup(path);
}

void wg_pathlist_release(struct wg_pathlist *list)
{
	for (size_t i = 0; i < list->len; i++)
		free(list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

static bool has_manifest_ext(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0)
	       || (n > 4 && strcmp(name + n - 4, ".yml") == 0)
	       || (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

/* A folder's entry: its name, and its type as readdir() gave it
 * (DT_UNKNOWN where the filesystem does not say).  A regular file known
 * as one needs no stat(): one system call a file fewer over a folder of
 * 50,000 manifests. */
struct entry {
	char *name;
	unsigned char type;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* Folders being walked, by device and inode, to stop symlink loops. */
struct visit {
	dev_t dev;
	ino_t ino;
	const struct visit *up;
};

/* Whether real (a resolved path) is root (resolved) or lies in it. */
static bool within(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return true;
	return strncmp(real, root, n) == 0
	       && (real[n] == '\0' || real[n] == '/');
}

/* Under a load restrictor (root set): a symbolic link may not lead out.
 * type is the entry's from readdir(): a link is DT_LNK or DT_UNKNOWN. */
static int check_link(struct wg_ctx *ctx, const char *path, const char *root,
		      unsigned char type)
{
	char real[PATH_MAX];
	struct stat st;

	if (!root || (type != DT_LNK && type != DT_UNKNOWN)
	    || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)
	    || !realpath(path, real) || within(root, real))
		return 0;
	return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "symbolic link "
			    "leads outside the profile's folder '%s' (allow it "
			    "with --load-restrictor none)", root);
}

static int walk_dir(struct wg_ctx *ctx, const char *dir, const struct visit *up,
		    const char *root, struct wg_pathlist *out, unsigned depth)
{
	struct entry *names = NULL;
	size_t nnames = 0, cap = 0;
	struct visit here;
	struct stat st;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (stat(dir, &st) != 0)
		return fail(ctx, dir, "cannot read folder", errno);
	for (const struct visit *v = up; v; v = v->up)
		if (v->dev == st.st_dev && v->ino == st.st_ino)
			return fail(ctx, dir, "symbolic link loop", 0);
	if (depth > 64)
		return fail(ctx, dir, "folders nested more than 64 deep", 0);
	here.dev = st.st_dev;
	here.ino = st.st_ino;
	here.up = up;
	d = opendir(dir);
	if (!d)
		return fail(ctx, dir, "cannot read folder", errno);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			WG_GROW(names, cap, nnames + 1);
			names[nnames].name = wg_xstrdup(e->d_name);
			names[nnames++].type = e->d_type;
		}
	closedir(d);
	wg_sort(names, nnames, sizeof(*names), cmp_entry);
	for (size_t i = 0; i < nnames && rc == 0; i++) {
		struct wg_buf path = WG_BUF_INIT;
		const struct entry *n = &names[i];

		wg_buf_addstr(&path, dir);
		if (path.len && path.buf[path.len - 1] != '/')
			wg_buf_addch(&path, '/');
		wg_buf_addstr(&path, n->name);
		if (path.len >= PATH_MAX) {
			rc = fail(ctx, path.buf, "path is too long", 0);
		} else if (check_link(ctx, path.buf, root, n->type)) {
			rc = -1;
		} else if (n->type == DT_REG) {
			if (has_manifest_ext(n->name))
				wg_pathlist_add(out, path.buf);
		} else if (stat(path.buf, &st) != 0) {
			/* A dangling link is not a manifest: skip it. */
			if (lstat(path.buf, &st) != 0)
				rc = fail(ctx, path.buf, "cannot read", errno);
		} else if (S_ISDIR(st.st_mode)) {
			rc = walk_dir(ctx, path.buf, &here, root, out,
				      depth + 1);
		} else if (S_ISREG(st.st_mode) && has_manifest_ext(n->name)) {
			wg_pathlist_add(out, path.buf);
		}
		wg_buf_release(&path);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i].name);
	free(names);
	return rc;
}

int wg_collect_files_within(struct wg_ctx *ctx, const char *path,
			    const char *root, struct wg_pathlist *out)
{
	struct stat st;

	if (strcmp(path, "-") == 0) {
		wg_pathlist_add(out, path);
		return 0;
	}
	if (strlen(path) >= PATH_MAX)
		return fail(ctx, path, "path is too long", 0);
	if (stat(path, &st) != 0)
		return fail(ctx, path, "cannot open", errno);
	if (S_ISDIR(st.st_mode))
		return walk_dir(ctx, path, NULL, root, out, 0);
	wg_pathlist_add(out, path);
	return 0;
}

int wg_collect_files(struct wg_ctx *ctx, const char *path,
		     struct wg_pathlist *out)
{
	return wg_collect_files_within(ctx, path, NULL, out);
}

void wg_offset_position(const char *data, size_t len, size_t offset,
			unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;

	size_t i = 0;

	if (offset > len)
		offset = len;
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		i = 3;	/* a BOM is not a column */
	for (; i < offset; i++) {
		unsigned char ch = (unsigned char)data[i];

		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xc0) != 0x80) {
			c++;	/* count characters, not continuation bytes */
		}
	}
	*line = l;
	*col = c;
}
