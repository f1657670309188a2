/*
 * All of a buffer to a file descriptor: what every writer of output,
 * temporaries and replaced files shares, calling none of them.
 */
#include "wingen/base/output.h"

#include <errno.h>
#include <unistd.h>

int wg_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len > (1u << 30) ? (1u << 30) : len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
