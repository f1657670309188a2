/* Which file a path names, as a hashable key (fileid.h). */
#include "wingen/base/fileid.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The three kinds of key never compare equal: their first byte. */
enum { KEY_INODE = 'i', KEY_REAL = 'r', KEY_TEXT = 't' };

bool wg_file_id(const char *path, struct wg_buf *key)
{
	struct stat st;
	char *real;

	wg_buf_reset(key);
	if (stat(path, &st) != 0) {
		wg_buf_addch(key, KEY_TEXT);
		wg_buf_addstr(key, path);
		return false;
	}
	if (st.st_nlink <= 1 || S_ISDIR(st.st_mode)) {
		uint64_t id[2] = { (uint64_t)st.st_dev, (uint64_t)st.st_ino };

		wg_buf_addch(key, KEY_INODE);
		wg_buf_add(key, id, sizeof(id));
		return true;
	}
	real = realpath(path, NULL);
	wg_buf_addch(key, real ? KEY_REAL : KEY_TEXT);
	wg_buf_addstr(key, real ? real : path);
	free(real);
	return true;
}
