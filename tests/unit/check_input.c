/* Input files and folders: wg_collect_files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"
#include "wingen/base/input.h"

static char dir[64];

static void setup(void)
{
	t_tmpdir(dir, sizeof(dir), "input");
}

static void teardown(void)
{
	t_tmpdir_remove(dir);
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

/* A file of size bytes: "k: v\n" lines, the last one cut to fit. */
static void write_sized(const char *path, size_t size)
{
	FILE *f = fopen(path, "w");
	char line[] = "key: value\n";

	ck_assert_ptr_nonnull(f);
	for (size_t n = 0; n < size; n += sizeof(line) - 1)
		fwrite(line, 1, size - n < sizeof(line) - 1 ? size - n
			      : sizeof(line) - 1, f);
	fclose(f);
}

/* Large files are mapped, others read, and either way the content is the
 * file's, NUL-terminated; taking the data gives a malloc'd copy. */
START_TEST(large_files_mapped_with_the_same_content)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t sizes[] = { 100, WG_LARGE_MIN + 7, WG_LARGE_MIN + (size_t)page,
			   WG_LARGE_MIN - 1 };
	bool mapped[] = { false, true, false, false };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		char path[128];
		struct wg_ctx ctx;
		struct wg_input in;
		char *taken;

		snprintf(path, sizeof(path), "%s/f%zu.yaml", dir, i);
		write_sized(path, sizes[i]);
		wg_ctx_init(&ctx);
		ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
		ck_assert_uint_eq(in.len, sizes[i]);
		ck_assert_int_eq(in.mapped != 0, mapped[i]);
		ck_assert_int_eq(in.data[in.len], '\0');
		ck_assert_int_eq(memcmp(in.data, "key: value\nkey", 14), 0);
		ck_assert_int_eq(in.data[in.len - 1],
				 "key: value\n"[(sizes[i] - 1) % 11]);
		in.data[0] = 'K';	/* private: the file keeps its text */
		taken = wg_input_take_data(&in);
		ck_assert_ptr_null(in.data);
		ck_assert_int_eq(taken[0], 'K');
		ck_assert_int_eq(taken[sizes[i]], '\0');
		free(taken);
		wg_input_release(&in);
		ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
		ck_assert_int_eq(in.data[0], 'k');
		wg_input_release(&in);
		wg_ctx_release(&ctx);
		unlink(path);
	}
}
END_TEST

/* In an arena, a read file's name and text live in the arena (borrowed:
 * release frees neither, which ASan and valgrind would catch), the text
 * is the file's, and taking it gives a malloc'd copy; a file over the
 * limit is refused as by wg_input_read(). */
START_TEST(read_in_an_arena_is_borrowed)
{
	struct wg_arena arena = WG_ARENA_INIT;
	char path[128];
	struct wg_ctx ctx;
	struct wg_input in;
	size_t before;
	char *taken;

	snprintf(path, sizeof(path), "%s/a.yaml", dir);
	write_sized(path, 1000);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_input_read_in(&ctx, path, &arena, &in), 0);
	ck_assert(in.borrowed);
	ck_assert_uint_eq(in.mapped, 0);
	ck_assert_str_eq(in.name, path);
	ck_assert_uint_eq(in.len, 1000);
	ck_assert_int_eq(in.data[in.len], '\0');
	ck_assert_int_eq(memcmp(in.data, "key: value\nkey", 14), 0);
	before = arena.used;
	ck_assert_uint_ge(before, 1000 + strlen(path));
	taken = wg_input_take_data(&in);
	ck_assert_ptr_null(in.data);
	ck_assert_int_eq(memcmp(taken, "key: value\n", 11), 0);
	ck_assert_int_eq(taken[1000], '\0');
	free(taken);
	wg_input_release(&in);

	ck_assert_int_eq(wg_input_read_in(&ctx, path, &arena, &in), 0);
	ck_assert_uint_gt(arena.used, before);
	wg_input_release(&in);	/* frees nothing of the arena's */
	ck_assert_ptr_null(in.data);

	ctx.limits.max_input_bytes = 999;
	ck_assert_int_eq(wg_input_read_in(&ctx, path, &arena, &in), -1);
	ck_assert_ptr_null(in.data);
	ck_assert(wg_ctx_failed(&ctx));
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[ctx.log.ndiags - 1].message,
				     "larger than the limit of 999 bytes"));
	wg_ctx_release(&ctx);
	wg_arena_release(&arena);
	unlink(path);
}
END_TEST

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
	tcase_add_test(tc, large_files_mapped_with_the_same_content);
	tcase_add_test(tc, read_in_an_arena_is_borrowed);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(input_suite)
