/* The arena: alignment, strings, large trees in huge-page blocks. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/base/arena.h"

/* Small requests are 8-aligned, strings packed, and every byte handed
 * out is the caller's: what was written reads back after many blocks. */
START_TEST(small_requests_aligned_and_kept)
{
	struct wg_arena a = WG_ARENA_INIT;
	char *s[2000];

	for (int i = 0; i < 2000; i++) {
		uint64_t *p = wg_arena_alloc(&a, 24);

		ck_assert_uint_eq((uintptr_t)p % 8, 0);
		p[0] = (uint64_t)i;
		s[i] = wg_arena_printf(&a, "item-%d", i);
	}
	for (int i = 0; i < 2000; i++) {
		char want[16];

		snprintf(want, sizeof(want), "item-%d", i);
		ck_assert_str_eq(s[i], want);
	}
	wg_arena_release(&a);
	ck_assert_ptr_null(a.head);
}
END_TEST

/* Past WG_LARGE_MIN, small requests come from 4 MiB blocks that start
 * on a 2 MiB boundary: what lets the kernel back them with huge pages
 * (arena.c).  A block whose data were not so placed would cost 1,024
 * page faults where two do. */
START_TEST(large_tree_blocks_on_huge_page_boundaries)
{
	struct wg_arena a = WG_ARENA_INIT;
	size_t large = 0;

	while (a.used < WG_LARGE_MIN + ((size_t)16 << 20))
		memset(wg_arena_alloc(&a, 1000), 0xab, 1000);
	for (const struct wg_arena_block *b = a.head; b; b = b->next) {
		if (b->size + sizeof(*b) != ((size_t)4 << 20))
			continue;
		large++;
		ck_assert_uint_eq((uintptr_t)b % ((size_t)2 << 20), 0);
	}
	ck_assert_uint_ge(large, 4);
	wg_arena_release(&a);
}
END_TEST

static Suite *arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("blocks");

	tcase_add_test(tc, small_requests_aligned_and_kept);
	tcase_add_test(tc, large_tree_blocks_on_huge_page_boundaries);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(arena_suite)
