/* The string-keyed multimap used to index streams. */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"
#include "wingen/base/index.h"

START_TEST(values_come_back_in_order_per_key)
{
	struct wg_index *ix = wg_index_new();
	int a = 1, b = 2, c = 3;
	void *const *v;
	size_t n;

	wg_index_add(ix, "ns\x1f" "app\x1f" "web", 11, &a);
	wg_index_add(ix, "ns\x1f" "app\x1f" "db", 10, &b);
	wg_index_add(ix, "ns\x1f" "app\x1f" "web", 11, &c);
	v = wg_index_get(ix, "ns\x1f" "app\x1f" "web", 11, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_eq(v[0], &a);
	ck_assert_ptr_eq(v[1], &c);
	v = wg_index_get(ix, "ns\x1f" "app\x1f" "db", 10, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_ptr_eq(v[0], &b);
	/* a prefix of a key is another key */
	ck_assert_ptr_null(wg_index_get(ix, "ns\x1f" "app\x1f" "we", 10, &n));
	ck_assert_uint_eq(n, 0);
	wg_index_free(ix);
}
END_TEST

START_TEST(survives_growth)
{
	struct wg_index *ix = wg_index_new();
	char key[32];
	size_t n;

	for (uintptr_t i = 1; i <= 5000; i++) {
		int len = snprintf(key, sizeof(key), "k%zu", (size_t)(i % 1000));

		wg_index_add(ix, key, (size_t)len, (void *)i);
	}
	for (size_t i = 0; i < 1000; i++) {
		int len = snprintf(key, sizeof(key), "k%zu", i);
		void *const *v = wg_index_get(ix, key, (size_t)len, &n);

		ck_assert_uint_eq(n, 5);
		ck_assert_uint_eq((uintptr_t)v[0], i ? i : 1000);
		ck_assert_uint_eq((uintptr_t)v[4], (i ? i : 1000) + 4000);
	}
	wg_index_free(ix);
}
END_TEST

/* Keys are the index's copies: the caller's buffer may change after. */
START_TEST(keys_are_copied)
{
	struct wg_index *ix = wg_index_new();
	char key[] = "web";
	int a = 1;
	size_t n;

	wg_index_add(ix, key, 3, &a);
	key[0] = 'x';
	ck_assert_ptr_eq(wg_index_get(ix, "web", 3, &n)[0], &a);
	ck_assert_uint_eq(n, 1);
	ck_assert_ptr_null(wg_index_get(ix, "xeb", 3, &n));
	wg_index_free(ix);
}
END_TEST

/* Sized for fewer keys than it gets, and for more: the same answers, a
 * key's first value kept when a second one joins it. */
START_TEST(sized_index_holds_more_than_expected)
{
	static const size_t expect[] = { 0, 10, 100000 };

	for (size_t s = 0; s < sizeof(expect) / sizeof(*expect); s++) {
		struct wg_index *ix = wg_index_new_sized(expect[s]);
		char key[32];
		size_t n;

		for (uintptr_t i = 1; i <= 3000; i++) {
			int len = snprintf(key, sizeof(key), "k%zu",
					   (size_t)i);

			wg_index_add(ix, key, (size_t)len, (void *)i);
			if (i % 3 == 0)	/* a second value, after growth */
				wg_index_add(ix, "k1", 2, (void *)i);
		}
		for (uintptr_t i = 1; i <= 3000; i++) {
			int len = snprintf(key, sizeof(key), "k%zu",
					   (size_t)i);
			void *const *v = wg_index_get(ix, key, (size_t)len,
						      &n);

			ck_assert_uint_eq(n, i == 1 ? 1001 : 1);
			ck_assert_uint_eq((uintptr_t)v[0], i);
		}
		ck_assert_uint_eq(
			(uintptr_t)wg_index_get(ix, "k1", 2, &n)[1000], 3000);
		wg_index_free(ix);
	}
}
END_TEST

static Suite *index_suite(void)
{
	Suite *s = suite_create("index");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, values_come_back_in_order_per_key);
	tcase_add_test(tc, survives_growth);
	tcase_add_test(tc, keys_are_copied);
	tcase_add_test(tc, sized_index_holds_more_than_expected);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(index_suite)
