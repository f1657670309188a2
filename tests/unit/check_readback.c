/*
 * migrate's read-back check: the streaming compare of the edited text's
 * events with the expected trees (wg_readback_same) must never say "same"
 * where a full read says otherwise, and wg_migrate_reads_back() must give
 * exactly the full read's answer.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/migrate.h"

static struct wg_ctx ctx;
static struct wg_input in;
static struct wg_resources list;
static const struct wg_node *want[8];
static size_t nwant;

/* The expected trees: the objects text reads as. */
static void setup_want(const char *text)
{
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	ck_assert_uint_le(list.len, 8);
	nwant = list.len;
	for (size_t i = 0; i < list.len; i++)
		want[i] = list.items[i]->root;
}

static void teardown(void)
{
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}

/* The reference answer, as migrate had it before the streaming compare:
 * the text read in full, its objects compared one by one. */
static bool full_read_same(const char *text, const struct wg_limits *limits)
{
	struct wg_ctx scratch;
	struct wg_input tin;
	struct wg_resources got;
	bool same;

	wg_ctx_init(&scratch);
	scratch.limits = *limits;
	wg_resources_init(&got);
	same = t_read(&scratch, &tin, text, &got) == 0
	       && !wg_ctx_failed(&scratch) && got.len == nwant;
	for (size_t i = 0; same && i < got.len; i++)
		same = wg_tree_same(want[i], got.items[i]->root);
	wg_resources_release(&got);
	wg_input_release(&tin);
	wg_ctx_release(&scratch);
	return same;
}

/* Checks text against the expected trees with limits: the streaming
 * compare says fast, the whole check (and the reference) say same. */
static void check_limits(const char *text, const struct wg_limits *limits,
			 bool fast, bool same)
{
	bool got_fast = wg_readback_same(text, strlen(text), want, nwant,
					 limits);
	bool got_same = wg_migrate_reads_back(limits, "test.yaml", text,
					      strlen(text), want, nwant);
	bool ref = full_read_same(text, limits);

	ck_assert_msg(ref == same, "reference %d for:\n%s", ref, text);
	ck_assert_msg(got_same == ref, "reads_back %d, full read %d for:\n%s",
		      got_same, ref, text);
	ck_assert_msg(!got_fast || ref, "fast path says same for:\n%s", text);
	ck_assert_msg(got_fast == fast, "fast path %d for:\n%s", got_fast,
		      text);
}

static void check(const char *text, bool fast, bool same)
{
	check_limits(text, &ctx.limits, fast, same);
}

START_TEST(same_text_is_same)
{
	setup_want("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n"
		   "spec:\n  containers:\n  - name: c\n    image: i\n"
		   "    args: [\"1\", x]\n");
	/* comments, quoting of strings, flow or block: all the same */
	check("# head\napiVersion: v1\nkind: Pod  # trailing\nmetadata:\n"
	      "  name: 'a'\nspec:\n  containers:\n  - name: \"c\"\n"
	      "    image: i\n    args:\n    - '1'\n    - x\n", true, true);
	check("---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
	      "spec:\n  containers: [{name: c, image: i, args: ['1', x]}]\n"
	      "...\n", true, true);
}
END_TEST

START_TEST(differences_are_never_same)
{
	setup_want("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'}\n"
		   "spec:\n  hostNetwork: yes\n  items: [a, b]\n");
	/* one scalar */
	check("kind: Pod\nmetadata:\n  name: b\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	/* key order */
	check("metadata:\n  name: a\n  labels: {x: '1'}\nkind: Pod\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	/* quoting that changes the type: 'yes' is a string, yes a bool;
	 * and plain 1 is an int where '1' was a string */
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: 'yes'\n  items: [a, b]\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: 1}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	/* an extra key, a missing one, an extra item, a missing item */
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1', y: z}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b, c]\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a]\n", false, false);
	/* a collection for a scalar, a sequence for a mapping */
	check("kind: Pod\nmetadata:\n  name: [a]\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n  labels: [x]\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
	/* a second document, none, invalid YAML */
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n---\nkind: X\n",
	      false, false);
	check("# nothing\n", false, false);
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: '1'\n",
	      false, false);
	/* a tag the tree does not have */
	check("kind: Pod\nmetadata:\n  name: a\n  labels: {x: !!str 1}\n"
	      "spec:\n  hostNetwork: yes\n  items: [a, b]\n", false, false);
}
END_TEST

START_TEST(tags_anchors_merges_fall_back)
{
	setup_want("a: {b: 1, c: '2'}\nd: {b: 1, c: '2'}\ne: '3'\n");
	/* an alias, a merge, a tag: unsure, and the full read decides */
	check("a: &x {b: 1, c: '2'}\nd: *x\ne: '3'\n", false, true);
	check("a: &x {b: 1, c: '2'}\nd:\n  <<: *x\ne: '3'\n", false, true);
	check("a: {b: 1, c: '2'}\nd: {b: 1, c: '2'}\ne: !!str 3\n", false,
	      false);
	check("a: {b: 1, c: '2'}\nd: &y {b: 1, c: '2'}\ne: '3'\n", false,
	      true);
	/* an alias that reads as something else */
	check("a: &x {b: 1, c: '2'}\nd: *x\ne: *x\n", false, false);
}
END_TEST

START_TEST(plain_merge_key_is_never_same)
{
	struct wg_node *k;

	/* a tree with a plain "<<" key (made, not read: a read one merges) */
	setup_want("d: {'<<': {b: 1}}\n");
	check("d: {'<<': {b: 1}}\n", true, true);
	k = wg_map_key(wg_map_get(list.items[0]->root, "d"), 0);
	k->style = WG_STYLE_PLAIN;
	/* the text's plain "<<" merges: d reads as {b: 1} */
	check("d: {<<: {b: 1}}\n", false, false);
}
END_TEST

START_TEST(documents_lists_and_limits)
{
	struct wg_limits small;

	setup_want("kind: A\n---\nkind: B\n");
	check("kind: A\n---\n# between\nkind: B\n", true, true);
	check("kind: B\n---\nkind: A\n", false, false);
	/* an empty document is skipped by the reader: unsure, then same */
	check("kind: A\n---\n---\nkind: B\n", false, true);
	/* a List reads as its items: unsure, then the full read */
	check("kind: List\nitems:\n- kind: A\n- kind: B\n", false, true);
	/* a JSON value first, a BOM: the reader treats them apart */
	check("{\"kind\": \"A\"}\n---\nkind: B\n", false, true);
	check("\xef\xbb\xbfkind: A\n---\nkind: B\n", false, true);
	/* the limits hold for the read back as for any read */
	small = ctx.limits;
	small.max_documents = 1;
	check_limits("kind: A\n---\nkind: B\n", &small, false, false);
	small = ctx.limits;
	small.max_doc_bytes = 4;
	check_limits("kind: A\n---\nkind: B\n", &small, false, false);
	small = ctx.limits;
	small.max_scalar_bytes = 1;
	check_limits("kind: A\n---\nkind: B\n", &small, false, false);
}
END_TEST

START_TEST(repeated_keys_are_never_same)
{
	struct wg_node *k;

	setup_want("kind: A\nspec:\n  x: 1\n  y: 1\n");
	check("kind: A\nspec:\n  x: 1\n  y: 1\n", true, true);
	/* a tree with a key twice: the text that has it is refused */
	k = wg_map_key(wg_map_get(list.items[0]->root, "spec"), 1);
	k->u.str = "x";
	check("kind: A\nspec:\n  x: 1\n  x: 1\n", false, false);
}
END_TEST

START_TEST(deep_nesting_falls_back)
{
	char doc[256];
	size_t n = 0;

	/* past the compare's own depth: unsure, and the full read decides */
	n += (size_t)snprintf(doc, sizeof(doc), "a: ");
	for (int i = 0; i < 70; i++)
		doc[n++] = '[';
	for (int i = 0; i < 70; i++)
		doc[n++] = ']';
	doc[n++] = '\n';
	doc[n] = '\0';
	setup_want(doc);
	check(doc, false, true);
}
END_TEST

static Suite *readback_suite(void)
{
	Suite *s = suite_create("readback");
	TCase *tc = tcase_create("readback");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, same_text_is_same);
	tcase_add_test(tc, differences_are_never_same);
	tcase_add_test(tc, tags_anchors_merges_fall_back);
	tcase_add_test(tc, plain_merge_key_is_never_same);
	tcase_add_test(tc, documents_lists_and_limits);
	tcase_add_test(tc, repeated_keys_are_never_same);
	tcase_add_test(tc, deep_nesting_falls_back);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(readback_suite)
