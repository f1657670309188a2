/* getdents64(): Linux, for a folder's removal inside a signal handler. */
#define _GNU_SOURCE

#include "wingen/base/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "wingen/base/alloc.h"

/*
 * Temporary files not yet renamed.  migrate writes every file's temporary
 * before it renames any (all or nothing), so tens of thousands may stand
 * at once: slots come in blocks that never move once published, a slot
 * is filled before the count is raised past it, and the handler never
 * sees a half-made entry.  A name carries its slot (struct temp_name), so
 * dropping one is O(1).
 */
#define TEMP_BLOCK 4096
#define TEMP_BLOCKS 1024	/* 4M temporaries at once */
#define MAX_DIRS 8

struct temp_name {
	size_t slot;
	char name[];		/* what callers hold */
};

static char *volatile *temp_blocks[TEMP_BLOCKS];
static volatile sig_atomic_t ntemps;	/* slots ever used */
static size_t *free_slots;	/* slots to reuse (the handler skips
				   them: they hold NULL) */
static size_t nfree, free_cap;
static char *volatile dirs[MAX_DIRS];
static volatile pid_t child;
/* renames under way: a signal waits for them (held_sig) */
static volatile sig_atomic_t holding, held_sig;

/*
 * Removes name (in the folder dfd) and, when it is a folder, all it
 * holds, with async-signal-safe calls only.  Entries removed while a
 * folder is read may make getdents64 skip others: it is read again from
 * the start until a pass finds nothing.  Depth is bounded (the folders
 * registered are wingen's own copies, 32 levels at most).
 */
static void remove_tree_at(int dfd, const char *name, unsigned depth)
{
	char buf[1024];
	bool again = true;
	int fd;

	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT || depth > 40)
		return;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
		    | O_CLOEXEC);
	if (fd < 0)
		return;
	while (again) {
		ssize_t n;

		again = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *d = (void *)(buf + off);

				off += d->d_reclen;
				if (strcmp(d->d_name, ".") == 0
				    || strcmp(d->d_name, "..") == 0)
					continue;
				remove_tree_at(fd, d->d_name, depth + 1);
				again = true;
			}
		}
	}
	close(fd);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

static void remove_all(void)
{
	for (sig_atomic_t i = 0; i < ntemps; i++) {
		char *volatile *block = temp_blocks[i / TEMP_BLOCK];
		char *name = block ? block[i % TEMP_BLOCK] : NULL;

		if (name)
			unlink(name);
	}
	for (size_t i = 0; i < MAX_DIRS; i++)
		if (dirs[i])
			remove_tree_at(AT_FDCWD, dirs[i], 0);
}

static void on_signal(int sig)
{
	if (holding) {
		held_sig = sig;	/* after the renames */
		return;
	}
	if (child > 0)
		kill(-child, SIGKILL);	/* helm's process group */
	remove_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	remove_all();
}

void wg_cleanup_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* one handler at a time: the others wait while it cleans */
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(at_exit);
	/* A closed pipe must be an error we can see (EPIPE), not a kill. */
	signal(SIGPIPE, SIG_IGN);
}

static struct temp_name *temp_of(const char *name)
{
	return (struct temp_name *)(void *)(name
					    - offsetof(struct temp_name, name));
}

char *wg_cleanup_track(const char *path)
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

void wg_cleanup_untrack(char *name)
{
	size_t slot;

	if (!name)
		return;
	slot = temp_of(name)->slot;
	temp_blocks[slot / TEMP_BLOCK][slot % TEMP_BLOCK] = NULL;
	WG_GROW(free_slots, free_cap, nfree + 1);
	free_slots[nfree++] = slot;
	free(temp_of(name));
}

int wg_cleanup_track_dir(const char *path)
{
	for (size_t i = 0; i < MAX_DIRS; i++)
		if (!dirs[i]) {
			dirs[i] = wg_xstrdup(path);
			return 0;
		}
	errno = EMFILE;
	return -1;
}

void wg_cleanup_untrack_dir(const char *path)
{
	for (size_t i = 0; i < MAX_DIRS; i++)
		if (dirs[i] && strcmp(dirs[i], path) == 0) {
			char *d = dirs[i];

			dirs[i] = NULL;
			free(d);
			return;
		}
}

void wg_cleanup_remove_dir(const char *path)
{
	remove_tree_at(AT_FDCWD, path, 0);
	wg_cleanup_untrack_dir(path);
}

void wg_cleanup_child(pid_t pid)
{
	child = pid;
}

void wg_cleanup_hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
	holding = 1;
}

void wg_cleanup_release_signals(const sigset_t *old)
{
	int sig = held_sig;

	holding = 0;
	held_sig = 0;
	pthread_sigmask(SIG_SETMASK, old, NULL);
	/* one that reached another thread meanwhile */
	if (sig)
		raise(sig);
}
