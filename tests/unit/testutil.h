#ifndef WINGEN_TESTUTIL_H
#define WINGEN_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/resource.h"

/*
 * Helpers shared by the unit suites.  Each suite file defines
 * "Suite *<module>_suite(void)" and uses WG_TEST_MAIN to get a main().
 */

/* An input made from a string literal (data copied; release it). */
void t_input(struct wg_input *in, const char *name, const char *text);

/* Parses text into list; returns the reader's status (0 or -1). */
int t_read(struct wg_ctx *ctx, struct wg_input *in, const char *text,
	   struct wg_resources *list);

/* Writes list as YAML into a malloc'd string. */
char *t_write(struct wg_ctx *ctx, const struct wg_resources *list);

/* fmt of a string: read + write; returns malloc'd output or NULL. */
char *t_roundtrip(const char *text);

/* The first diagnostic message, or "" when none. */
const char *t_first_message(const struct wg_ctx *ctx);

/*
 * The next *.yaml or *.yml file of d, a folder opened on WG_CORPUS (the
 * real-world manifests): its path written to path; 0 when there is none.
 */
int t_corpus_next(DIR *d, char *path, size_t size);

/*
 * Calls fn for every *.yaml or *.yml file of WG_CORPUS, read into in.
 * Returns how many files there were: 0 when there is no corpus here (the
 * shell suites report that skip).
 */
size_t t_each_corpus_file(void (*fn)(const char *path,
				     const struct wg_input *in, void *data),
			  void *data);

/*
 * A fresh folder under /tmp named for tag, its path in dir (at least 64
 * bytes), for a fixture's setup; t_tmpdir_remove() removes it and all in
 * it, for its teardown.  Both fail the test when they fail.
 */
void t_tmpdir(char *dir, size_t size, const char *tag);
void t_tmpdir_remove(const char *dir);

#define WG_TEST_MAIN(suite_fn)						\
	int main(void)							\
	{								\
		SRunner *sr = srunner_create(suite_fn());		\
		int failed;						\
		srunner_run_all(sr, CK_NORMAL);				\
		failed = srunner_ntests_failed(sr);			\
		srunner_free(sr);					\
		return failed ? 1 : 0;					\
	}

#endif
