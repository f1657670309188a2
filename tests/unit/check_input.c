/* Input files and folders: wg_collect_files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "wingen/base/input.h"

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/wingen-input-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void touch(const char *name)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
}

/* Regression: an empty folder passed qsort() a NULL array (UBSan). */
START_TEST(empty_folder_gives_no_files)
{
	struct wg_pathlist files = { 0 };
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_collect_files(&ctx, dir, &files), 0);
	ck_assert_uint_eq(files.len, 0);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	wg_pathlist_release(&files);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(folder_files_sorted_and_filtered)
{
	struct wg_pathlist files = { 0 };
	struct wg_ctx ctx;
	char sub[128];

	touch("b.yml");
	touch("a.yaml");
	touch("c.json");
	touch("notes.txt");
	touch(".hidden.yaml");
	snprintf(sub, sizeof(sub), "%s/empty", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_collect_files(&ctx, dir, &files), 0);
	ck_assert_uint_eq(files.len, 3);
	ck_assert_str_eq(strrchr(files.items[0], '/'), "/a.yaml");
	ck_assert_str_eq(strrchr(files.items[1], '/'), "/b.yml");
	ck_assert_str_eq(strrchr(files.items[2], '/'), "/c.json");
	wg_pathlist_release(&files);
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("collect");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, empty_folder_gives_no_files);
	tcase_add_test(tc, folder_files_sorted_and_filtered);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(input_suite)
