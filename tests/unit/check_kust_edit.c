/* An entry added to a kustomization's resources: as a text edit. */
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/kust_edit.h"

#define RC "00-runtimeclasses.yaml"

static struct wg_ctx ctx;
static struct wg_buf out;

static void setup(void)
{
	wg_ctx_init(&ctx);
	wg_buf_init(&out);
}

static void teardown(void)
{
	wg_buf_release(&out);
	wg_ctx_release(&ctx);
}

/* The kustomization text with RC added; NULL when it was listed already
 * or could not be edited. */
static const char *add(const char *text)
{
	int rc = wg_kust_add_resource(&ctx, "k.yaml", text, strlen(text), RC,
				      &out);

	return rc == 1 ? out.buf : NULL;
}

START_TEST(block_list_gets_a_last_item_comments_kept)
{
	ck_assert_str_eq(add("# the app\nresources:\n- web.yaml  # IIS\n"
			     "# more to come\n- api.yaml\nnamespace: shop\n"),
			 "# the app\nresources:\n- web.yaml  # IIS\n"
			 "# more to come\n- api.yaml\n- " RC "\n"
			 "namespace: shop\n");
	/* indented items keep their column; a comment after the last one
	 * stays on its line */
	ck_assert_str_eq(add("resources:\n    - ../../base # shared\n"),
			 "resources:\n    - ../../base # shared\n    - " RC
			 "\n");
	ck_assert_uint_eq(ctx.log.ndiags, 0);
}
END_TEST

START_TEST(flow_list_and_missing_key)
{
	ck_assert_str_eq(add("resources: [a.yaml, b.yaml]\n"),
			 "resources: [a.yaml, b.yaml, " RC "]\n");
	ck_assert_str_eq(add("resources: []\n"), "resources: [" RC "]\n");
	ck_assert_str_eq(add("namespace: x\npatches:\n- path: p.yaml\n"),
			 "namespace: x\npatches:\n- path: p.yaml\nresources:\n- "
			 RC "\n");
	/* no final line break: none added */
	ck_assert_str_eq(add("kind: Component\nnamespace: x"),
			 "kind: Component\nnamespace: x\nresources:\n- " RC);
	ck_assert_str_eq(add("resources:\nnamespace: x\n"),
			 "resources: [" RC "]\nnamespace: x\n");
	ck_assert_str_eq(add("resources: ~ # none yet\n"),
			 "resources: [" RC "] # none yet\n");
}
END_TEST

START_TEST(crlf_kept)
{
	ck_assert_str_eq(add("resources:\r\n- a.yaml\r\n"),
			 "resources:\r\n- a.yaml\r\n- " RC "\r\n");
}
END_TEST

START_TEST(listed_already)
{
	ck_assert_ptr_null(add("resources:\n- " RC "\n"));
	ck_assert_ptr_null(add("resources: [./" RC "]\n"));
	ck_assert_uint_eq(ctx.log.ndiags, 0);
}
END_TEST

START_TEST(refused_with_a_message)
{
	ck_assert_ptr_null(add("resources: {a: b}\n"));
	ck_assert(wg_ctx_failed(&ctx));
	ck_assert_ptr_nonnull(strstr(ctx.log.diags[0].message,
				     "its resources: is not a list"));
	ck_assert_str_eq(ctx.log.diags[0].file, "k.yaml");
	ck_assert_ptr_null(add("{resources: [a]}\n"));
	ck_assert_ptr_null(add("resources: [\n"));
	ck_assert_ptr_null(add("- a\n"));
	ck_assert_uint_eq(ctx.log.ndiags, 4);
}
END_TEST

static Suite *kust_edit_suite(void)
{
	Suite *s = suite_create("kust_edit");
	TCase *tc = tcase_create("add_resource");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, block_list_gets_a_last_item_comments_kept);
	tcase_add_test(tc, flow_list_and_missing_key);
	tcase_add_test(tc, crlf_kept);
	tcase_add_test(tc, listed_already);
	tcase_add_test(tc, refused_with_a_message);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(kust_edit_suite)
