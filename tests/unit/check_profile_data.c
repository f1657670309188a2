/* wg_profile_load_data: a profile from memory (a KRM functionConfig). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/profile/profile.h"

START_TEST(loads_from_memory)
{
	static const char text[] =
		"apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"
		"metadata:\n  name: fn\nwindows:\n  builds:\n"
		"    - release: ltsc2019\n  default: ltsc2019\n";
	struct wg_ctx ctx;
	struct wg_profile p;
	char *copy = strdup(text);

	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_profile_load_data(&ctx, "<fn>", copy,
					      strlen(copy), WG_CHAIN_OPTS, &p), 0);
	/* The text may go away: the profile keeps what it needs. */
	memset(copy, 'x', strlen(copy));
	free(copy);
	ck_assert_str_eq(p.name, "fn");
	ck_assert_uint_eq(p.nbuilds, 1);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2019");
	ck_assert_str_eq(p.builds[0].runtime_class, "windows-ltsc2019");
	ck_assert_str_eq(p.dir, ".");
	wg_profile_release(&p);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(errors_name_the_given_name_and_position)
{
	static const char text[] =
		"apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"
		"windows:\n  builds:\n    - release: ltsc2033\n";
	struct wg_ctx ctx;
	struct wg_profile p;

	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_profile_load_data(&ctx, "<fn>", text,
					      strlen(text), WG_CHAIN_OPTS, &p), -1);
	ck_assert_uint_ge(ctx.log.counts[WG_SEV_ERROR], 1);
	ck_assert_str_eq(ctx.log.diags[0].file, "<fn>");
	ck_assert_uint_eq(ctx.log.diags[0].line, 5);
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[0].message, "ltsc2033"));
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *profile_data_suite(void)
{
	Suite *s = suite_create("profile_data");
	TCase *tc = tcase_create("profile_data");

	tcase_add_test(tc, loads_from_memory);
	tcase_add_test(tc, errors_name_the_given_name_and_position);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(profile_data_suite)
