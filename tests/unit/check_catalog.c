/* The catalog of Windows builds: facts of windows.md section 2. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/images.h"

START_TEST(builds_match_the_fact_sheet)
{
	static const struct {
		const char *name, *build;
	} want[] = {
		{ "ltsc2016", "10.0.14393" }, { "1709", "10.0.16299" },
		{ "1803", "10.0.17134" }, { "ltsc2019", "10.0.17763" }, { "1903", "10.0.18362" },
		{ "1909", "10.0.18363" }, { "2004", "10.0.19041" },
		{ "20H2", "10.0.19042" }, { "ltsc2022", "10.0.20348" },
		{ "23H2", "10.0.25398" }, { "ltsc2025", "10.0.26100" },
	};
	size_t n = 0;

	for (const struct wg_release *r = wg_releases; r->name; r++, n++) {
		ck_assert_uint_lt(n, sizeof(want) / sizeof(*want));
		ck_assert_str_eq(r->name, want[n].name);
		ck_assert_str_eq(r->build, want[n].build);
		ck_assert_uint_eq(r->number,
				  (unsigned)atoi(strrchr(r->build, '.') + 1));
		/* oldest first */
		if (n)
			ck_assert_uint_gt(r->number, r[-1].number);
	}
	ck_assert_uint_eq(n, sizeof(want) / sizeof(*want));
}
END_TEST

START_TEST(status_and_tags)
{
	const struct wg_release *r2019 = wg_release_find("ltsc2019");
	const struct wg_release *r2022 = wg_release_find("ltsc2022");
	const struct wg_release *r2025 = wg_release_find("ltsc2025");
	const struct wg_release *r23h2 = wg_release_find("23H2");

	/* Current docs list only LTSC 2022 and 2025. */
	for (const struct wg_release *r = wg_releases; r->name; r++)
		ck_assert_int_eq(r->supported, r == r2022 || r == r2025);
	ck_assert(!r2019->end_of_life);	/* legacy, still serviced */
	ck_assert(wg_release_find("1903")->end_of_life);
	ck_assert(wg_release_find("20H2")->end_of_life);
	ck_assert(r2019->ltsc && r2022->ltsc && r2025->ltsc && !r23h2->ltsc);
	/* Nano Server 2019 is tagged 1809 only; there is no server image
	 * before 2022; 23H2 has no base images of its own. */
	ck_assert_str_eq(r2019->servercore, "ltsc2019");
	ck_assert_str_eq(r2019->nanoserver, "1809");
	ck_assert_ptr_null(r2019->server);
	ck_assert_str_eq(r2022->server, "ltsc2022");
	ck_assert_ptr_null(r23h2->servercore);
	ck_assert_ptr_null(r23h2->nanoserver);
}
END_TEST

START_TEST(find_by_name_alias_or_build)
{
	const struct wg_release *r2019 = wg_release_find("ltsc2019");

	ck_assert_ptr_nonnull(r2019);
	ck_assert_ptr_eq(wg_release_find("1809"), r2019);
	ck_assert_ptr_eq(wg_release_find("2019"), r2019);
	ck_assert_ptr_eq(wg_release_find("10.0.17763"), r2019);
	ck_assert_ptr_eq(wg_release_find("LTSC2019"), r2019);
	ck_assert_ptr_eq(wg_release_find("2022"), wg_release_find("ltsc2022"));
	ck_assert_ptr_eq(wg_release_find("20h2"), wg_release_find("20H2"));
	ck_assert_ptr_eq(wg_release_find("10.0.26100"),
			 wg_release_find("ltsc2025"));
	ck_assert_ptr_eq(wg_release_find("10.0.14393"),
			 wg_release_find("ltsc2016"));
	ck_assert(wg_release_find("ltsc2016")->end_of_life);
	ck_assert(wg_release_find("1709")->end_of_life);
	ck_assert(wg_release_find("1803")->end_of_life);
	ck_assert_ptr_null(wg_release_find("ltsc2012"));
	ck_assert_ptr_null(wg_release_find("10.0.20348.1"));
	ck_assert_ptr_null(wg_release_find("10.0."));
	ck_assert_ptr_null(wg_release_find("20348"));
	ck_assert_ptr_null(wg_release_find(""));
	ck_assert_ptr_null(wg_release_find(NULL));
}
END_TEST

START_TEST(process_isolation_compatibility)
{
	const struct wg_release *r2019 = wg_release_find("ltsc2019");
	const struct wg_release *r1909 = wg_release_find("1909");
	const struct wg_release *r2022 = wg_release_find("ltsc2022");
	const struct wg_release *r23h2 = wg_release_find("23H2");
	const struct wg_release *r2025 = wg_release_find("ltsc2025");

	/* Before 2022: the exact build only. */
	ck_assert(wg_release_can_run(r2019, r2019));
	ck_assert(!wg_release_can_run(r2019, r1909));
	ck_assert(!wg_release_can_run(r1909, r2019));
	ck_assert(!wg_release_can_run(r2019, r2022));
	/* 2022 on: own build and ltsc2022 images. */
	ck_assert(wg_release_can_run(r2022, r2022));
	ck_assert(!wg_release_can_run(r2022, r2025));
	ck_assert(wg_release_can_run(r23h2, r2022));
	ck_assert(wg_release_can_run(r2025, r2022));
	ck_assert(wg_release_can_run(r2025, r2025));
	ck_assert(!wg_release_can_run(r23h2, r2025));
	/* ltsc2019 images never run process-isolated on 2022+ hosts. */
	ck_assert(!wg_release_can_run(r2022, r2019));
	ck_assert(!wg_release_can_run(r23h2, r2019));
	ck_assert(!wg_release_can_run(r2025, r2019));
	ck_assert(!wg_release_can_run(NULL, r2022));
}
END_TEST

START_TEST(release_for_tag)
{
	ck_assert_str_eq(wg_release_for_tag("ltsc2019")->name, "ltsc2019");
	ck_assert_str_eq(wg_release_for_tag("1809")->name, "ltsc2019");
	ck_assert_str_eq(wg_release_for_tag("ltsc2022")->name, "ltsc2022");
	ck_assert_str_eq(wg_release_for_tag("ltsc2022-amd64")->name,
			 "ltsc2022");
	ck_assert_str_eq(wg_release_for_tag("20H2")->name, "20H2");
	ck_assert_str_eq(wg_release_for_tag("windowsservercore-ltsc2025")
			 ->name, "ltsc2025");
	ck_assert_str_eq(wg_release_for_tag("nanoserver-1809")->name,
			 "ltsc2019");
	ck_assert_str_eq(wg_release_for_tag("10.0.20348.2227")->name,
			 "ltsc2022");
	ck_assert_str_eq(wg_release_for_tag("10.0.17763")->name, "ltsc2019");
	/* "2019" and "23H2" are not Microsoft image tags. */
	ck_assert_ptr_null(wg_release_for_tag("2019"));
	ck_assert_ptr_null(wg_release_for_tag("23H2"));
	ck_assert_ptr_null(wg_release_for_tag("latest"));
	ck_assert_ptr_null(wg_release_for_tag("1.25-alpine"));
	ck_assert_ptr_null(wg_release_for_tag(NULL));
}
END_TEST

static Suite *catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = tcase_create("catalog");

	tcase_add_test(tc, builds_match_the_fact_sheet);
	tcase_add_test(tc, status_and_tags);
	tcase_add_test(tc, find_by_name_alias_or_build);
	tcase_add_test(tc, process_isolation_compatibility);
	tcase_add_test(tc, release_for_tag);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(catalog_suite)
