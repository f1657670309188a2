#ifndef WINGEN_CLEANUP_H
#define WINGEN_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * What a run leaves behind if it dies of SIGINT, SIGTERM or SIGHUP, or
 * exits, and must not: temporary files (output.h), temporary folders
 * (chart migrate's copy of a chart), and a running helm.  The handler
 * removes them and then lets the signal kill wingen.  This is the one
 * piece of global state in wingen: a signal handler must find it.
 *
 * A name is registered BEFORE the file or folder is created, so a signal
 * between the two leaves nothing (the handler's unlink of a name not yet
 * made does nothing).  Registered names are removed in the handler with
 * async-signal-safe calls only (unlink, and a folder's tree with
 * openat/getdents64/unlinkat), never with malloc or stdio.
 */

/* Installs the handlers of SIGINT, SIGTERM and SIGHUP, the atexit
 * cleanup, and ignores SIGPIPE (a closed pipe is EPIPE, an error wingen
 * sees).  Once, from main. */
void wg_cleanup_install(void);

/*
 * Registers path, a file about to be created, for removal.  Returns the
 * name callers hold (a copy; give it back to wg_cleanup_untrack()), or
 * NULL with errno EMFILE when 4M temporaries stand already.
 */
char *wg_cleanup_track(const char *path);

/* name (from wg_cleanup_track()) no longer needs removing (it was renamed,
 * or removed already); name is freed. */
void wg_cleanup_untrack(char *name);

/*
 * Registers path, a folder about to be created, for removal with all it
 * holds (at most 8 at once; 0, or -1 when full).  wg_cleanup_untrack_dir()
 * forgets it once the caller removed it.
 */
int wg_cleanup_track_dir(const char *path);
void wg_cleanup_untrack_dir(const char *path);
/* Removes the registered folder path with all it holds, and forgets it. */
void wg_cleanup_remove_dir(const char *path);

/* A child, leader of its own process group, to kill (SIGKILL, the whole
 * group) if wingen dies of a signal; 0: none. */
void wg_cleanup_child(pid_t pid);

/*
 * Holds SIGINT, SIGTERM and SIGHUP (they stay pending) while a set of
 * renames runs, so the tree ends either as it was or finished, never
 * half renamed; wg_cleanup_release_signals() lets a pending one act.
 */
void wg_cleanup_hold_signals(sigset_t *old);
void wg_cleanup_release_signals(const sigset_t *old);

#endif
