/*
 * fuzz_tgz: the readers of a chart's packed subcharts (migrate/chart.h):
 * wg_tgz_read(), which unpacks a charts/NAME.tgz in memory, and
 * wg_tgz_check_size(), which streams one (and the packed charts inside
 * it) to hold it to chart-bytes before helm sees it.
 *
 *  - wg_tgz_read: 0 with files whose bytes add up to no more than the
 *    limit, each with a name and its data NUL-terminated; or -1 with a
 *    reason and no file;
 *  - wg_tgz_check_size: 0, or -1 with a reason; a limit too small for
 *    the archive's own unpacked bytes is refused whenever wg_tgz_read
 *    refuses them as too many (both count every gzip member);
 *  - the same input gives the same answer;
 *  - memory stays within the limit (libFuzzer's -rss_limit_mb), never a
 *    crash, a hang or a leak.
 */
#include <string.h>

#include "fuzz_util.h"
#include "wingen/migrate/chart.h"

#define LIMIT (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct wg_tgz t, again;
	const char *why = NULL, *why2 = NULL, *size_why = NULL;
	size_t total = 0;
	int rc = wg_tgz_read(in, size, LIMIT, &t, &why);
	int rc2 = wg_tgz_read(in, size, LIMIT, &again, &why2);
	int size_rc = wg_tgz_check_size(in, size, LIMIT, &size_why);

	FZ_CHECK(rc == 0 || rc == -1, "wg_tgz_read returned %d", rc);
	FZ_CHECK(rc == rc2 && again.len == t.len,
		 "wg_tgz_read answered twice differently");
	if (rc) {
		FZ_CHECK(why && *why && t.len == 0,
			 "wg_tgz_read failed without a reason, or kept files");
		if (strstr(why, "more than"))
			FZ_CHECK(size_rc == -1, "wg_tgz_read found it too "
				 "large (%s), wg_tgz_check_size let it pass",
				 why);
	}
	for (size_t i = 0; i < t.len; i++) {
		const struct wg_tgz_file *f = &t.files[i];

		FZ_CHECK(f->path && f->data && f->data[f->len] == '\0',
			 "file %zu: no name, or data not NUL-terminated", i);
		FZ_CHECK(strcmp(f->path, again.files[i].path) == 0
			 && f->len == again.files[i].len
			 && memcmp(f->data, again.files[i].data, f->len) == 0,
			 "file %zu read twice differently", i);
		total += f->len;
	}
	FZ_CHECK(total <= LIMIT, "files of %zu bytes within a limit of %u",
		 total, LIMIT);
	FZ_CHECK(size_rc == 0 || (size_rc == -1 && size_why && *size_why),
		 "wg_tgz_check_size returned %d (reason %s)", size_rc,
		 size_why ? size_why : "none");
	wg_tgz_release(&t);
	wg_tgz_release(&again);
	return 0;
}
