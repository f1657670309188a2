#ifndef WINGEN_FILEID_H
#define WINGEN_FILEID_H

#include <stdbool.h>

#include "wingen/base/buf.h"

/*
 * Which file a path names, as a key to hash: two paths get equal keys
 * exactly when realpath() would make them equal (the same file reached
 * through a symbolic link, "./", "..", or a folder named twice), so a
 * file listed twice is read, or migrated, once.
 *
 * It costs one stat() where realpath() costs a system call per path
 * component (getcwd, a readlink each): at 50,000 files that is most of
 * the system time of reading a folder.  The key is the device and inode,
 * except for a file with more than one hard link: each of its names is a
 * file of its own to a user (migrate replaces each by rename), so those
 * key on their real path, as before.  A path that cannot be stat()ed
 * keys on its own text (reading it then says why it failed).
 *
 * The key is written to key (emptied first), binary; compare it by
 * length and bytes.  Returns false when the path does not exist (the key
 * is then its text).
 */
bool wg_file_id(const char *path, struct wg_buf *key);

#endif
