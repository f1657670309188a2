/* Which file a path names: wg_file_id keys agree with realpath(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "wingen/base/buf.h"
#include "wingen/base/fileid.h"

static char dir[64];

static void setup(void)
{
	t_tmpdir(dir, sizeof(dir), "fileid");
}

static void teardown(void)
{
	t_tmpdir_remove(dir);
}

/* dir/name, in a static buffer of its own per slot. */
static const char *at(int slot, const char *name)
{
	static char paths[4][160];

	snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", dir, name);
	return paths[slot];
}

static void make_file(const char *name)
{
	FILE *f = fopen(at(3, name), "w");

	ck_assert_ptr_nonnull(f);
	fputs("a: b\n", f);
	fclose(f);
}

/* Whether the keys of paths a and b are equal. */
static bool same(const char *a, const char *b)
{
	struct wg_buf ka = WG_BUF_INIT, kb = WG_BUF_INIT;
	bool eq;

	wg_file_id(a, &ka);
	wg_file_id(b, &kb);
	eq = ka.len == kb.len && memcmp(ka.buf, kb.buf, ka.len) == 0;
	wg_buf_release(&ka);
	wg_buf_release(&kb);
	return eq;
}

/* One file reached by other spellings and through a symbolic link to it
 * or to its folder: one key, as realpath() would give one path. */
START_TEST(one_file_many_spellings)
{
	make_file("a.yaml");
	ck_assert_int_eq(mkdir(at(0, "sub"), 0700), 0);
	ck_assert_int_eq(symlink("a.yaml", at(0, "link.yaml")), 0);
	ck_assert_int_eq(symlink(dir, at(0, "sub/up")), 0);
	ck_assert(same(at(0, "a.yaml"), at(1, "./a.yaml")));
	ck_assert(same(at(0, "a.yaml"), at(1, "sub/../a.yaml")));
	ck_assert(same(at(0, "a.yaml"), at(1, "link.yaml")));
	ck_assert(same(at(0, "a.yaml"), at(1, "sub/up/a.yaml")));
}
END_TEST

/* Two files, even with the same content, are two keys. */
START_TEST(two_files_two_keys)
{
	make_file("a.yaml");
	make_file("b.yaml");
	ck_assert(!same(at(0, "a.yaml"), at(1, "b.yaml")));
}
END_TEST

/* A hard link is a name of its own: migrate replaces each name by
 * rename, so each must be migrated; through a symbolic link it is still
 * the one name. */
START_TEST(hard_links_are_names_of_their_own)
{
	make_file("a.yaml");
	ck_assert_int_eq(link(at(0, "a.yaml"), at(1, "hard.yaml")), 0);
	ck_assert_int_eq(symlink("hard.yaml", at(0, "soft.yaml")), 0);
	ck_assert(!same(at(0, "a.yaml"), at(1, "hard.yaml")));
	ck_assert(same(at(0, "hard.yaml"), at(1, "soft.yaml")));
	ck_assert(same(at(0, "a.yaml"), at(1, "./a.yaml")));
}
END_TEST

/* A missing path keys on its text, never as an existing file. */
START_TEST(missing_path_keys_on_its_text)
{
	struct wg_buf k = WG_BUF_INIT;

	make_file("a.yaml");
	ck_assert(!wg_file_id(at(0, "nope.yaml"), &k));
	ck_assert_ptr_nonnull(strstr(k.buf, "/nope.yaml"));
	ck_assert(wg_file_id(at(0, "a.yaml"), &k));
	ck_assert(same(at(0, "nope.yaml"), at(1, "nope.yaml")));
	ck_assert(!same(at(0, "nope.yaml"), at(1, "a.yaml")));
	wg_buf_release(&k);
}
END_TEST

static Suite *fileid_suite(void)
{
	Suite *s = suite_create("fileid");
	TCase *tc = tcase_create("keys");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_file_many_spellings);
	tcase_add_test(tc, two_files_two_keys);
	tcase_add_test(tc, hard_links_are_names_of_their_own);
	tcase_add_test(tc, missing_path_keys_on_its_text);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(fileid_suite)
