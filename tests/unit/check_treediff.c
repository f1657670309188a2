/* migrate's tree diff: changes between a tree and its edited copy. */
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/migrate.h"

static struct wg_ctx ctx;
static struct wg_input in;
static struct wg_resources list;
static struct wg_node *before, *after;
static struct wg_tdiff_list changes;

/* Reads text; after is the tree, before a copy of it. */
static void setup_text(const char *text)
{
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	after = list.items[0]->root;
	before = wg_node_clone(&list.arena, after);
}

static void teardown(void)
{
	wg_tdiff_list_release(&changes);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}

static size_t diff(void)
{
	wg_tdiff_list_release(&changes);
	return wg_tree_diff(&list.arena, before, after, &changes);
}

static struct wg_node *get(const char *path)
{
	struct wg_node *n = wg_path_get(after, path);

	ck_assert_msg(n != NULL, "no '%s'", path);
	return n;
}

static struct wg_node *str(const char *s)
{
	return wg_node_new_str(&list.arena, s);
}

START_TEST(no_change_no_diff)
{
	setup_text("a: 1\nb: [x, {c: d}]\ne:\n- f: g\n");
	ck_assert_uint_eq(diff(), 0);
	/* a style change that keeps the type is no change */
	get("a")->style = WG_STYLE_SINGLE;
	get("a")->u.str = "1";
	ck_assert_uint_eq(diff(), 1);	/* '1' is a string, 1 an int */
	get("e.[0].f")->style = WG_STYLE_DOUBLE;
	ck_assert_uint_eq(diff(), 1);	/* "g" is g */
}
END_TEST

START_TEST(keys_added_removed_replaced)
{
	const struct wg_tdiff *c;

	setup_text("spec:\n  a: 1\n  b: 2\n  c: 3\n");
	wg_map_set(&list.arena, get("spec"), "z", str("new"));
	wg_map_insert(&list.arena, get("spec"), 0, "first", str("x"));
	wg_map_delete(get("spec"), "b");
	wg_map_set(&list.arena, get("spec"), "c", str("three"));
	ck_assert_uint_eq(diff(), 4);
	/* removals first, then in after order */
	c = &changes.items[0];
	ck_assert_int_eq(c->kind, WG_TDIFF_REMOVE);
	ck_assert_str_eq(c->path, "spec.b");
	ck_assert_uint_eq(c->index, 1);
	ck_assert_ptr_eq(c->parent, wg_path_get(before, "spec"));
	c = &changes.items[1];
	ck_assert_int_eq(c->kind, WG_TDIFF_ADD);
	ck_assert_str_eq(c->path, "spec.first");
	ck_assert_int_eq(c->prev_kept, -1);
	ck_assert_int_eq(c->next_kept, 0);
	ck_assert(wg_scalar_is(c->new_key, "first"));
	c = &changes.items[2];
	ck_assert_int_eq(c->kind, WG_TDIFF_REPLACE);
	ck_assert_str_eq(c->path, "spec.c");
	ck_assert_uint_eq(c->index, 2);
	ck_assert(wg_scalar_is(c->old_value, "3"));
	ck_assert(wg_scalar_is(c->new_value, "three"));
	c = &changes.items[3];
	ck_assert_int_eq(c->kind, WG_TDIFF_ADD);
	ck_assert_str_eq(c->path, "spec.z");
	ck_assert_int_eq(c->prev_kept, 2);
	ck_assert_int_eq(c->next_kept, -1);
}
END_TEST

/* Whether n is among the collections the last diff walked. */
static bool walked(const struct wg_node *n)
{
	for (size_t i = 0; i < changes.nwalked; i++)
		if (changes.walked[i] == n)
			return true;
	return false;
}

START_TEST(walks_only_what_the_edits_touched)
{
	struct wg_node_journal *j = wg_node_journal_new();
	struct wg_node *spec;

	setup_text("spec:\n  tpl:\n    pod:\n      c: [x, y]\n      d: 1\n"
		   "  other:\n    deep: {e: f}\nlist:\n- g: h\n");
	spec = get("spec");
	/* the before-tree of a journal, as migrate makes it: what the
	 * edits did not touch is shared with after */
	wg_node_journal_start(j);
	wg_map_set(&list.arena, get("spec.tpl.pod"), "sel", str("win"));
	wg_node_journal_stop();
	before = (struct wg_node *)wg_node_journal_before(j, &list.arena,
							 after);
	ck_assert_uint_eq(diff(), 1);
	ck_assert_ptr_eq(changes.items[0].parent,
			 wg_path_get(before, "spec.tpl.pod"));
	/* the change's parent and every collection above it */
	ck_assert_uint_eq(changes.nwalked, 4);
	ck_assert(walked(before));
	ck_assert(walked(wg_path_get(before, "spec")));
	ck_assert(walked(wg_path_get(before, "spec.tpl")));
	ck_assert(walked(wg_path_get(before, "spec.tpl.pod")));
	/* shared subtrees are not walked: other, list, pod.c */
	ck_assert_ptr_eq(wg_path_get(before, "spec.other"),
			 wg_map_get(spec, "other"));
	ck_assert(!walked(wg_map_get(spec, "other")));
	ck_assert(!walked(get("list")));
	ck_assert(!walked(get("spec.tpl.pod.c")));
	/* a deep copy shares nothing: every block collection is walked
	 * (a flow one is compared whole) */
	wg_map_delete(get("spec.tpl.pod"), "sel");
	before = wg_node_clone(&list.arena, after);
	ck_assert_uint_eq(diff(), 0);
	ck_assert_uint_eq(changes.nwalked, 7);
	ck_assert(walked(wg_path_get(before, "list.[0]")));
	ck_assert(!walked(wg_path_get(before, "spec.other.deep")));
	wg_node_journal_free(j);
}
END_TEST

START_TEST(sequences_by_item_identity)
{
	const struct wg_tdiff *c;

	setup_text("l:\n- name: a\n  x: 1\n- name: b\n- name: c\n");
	/* b edited in place, a removed, d appended: b still matches by
	 * where it was read from */
	wg_map_set(&list.arena, get("l.[1]"), "x", str("2"));
	wg_seq_delete_at(get("l"), 0);
	wg_seq_append(&list.arena, get("l"), str("d"));
	ck_assert_uint_eq(diff(), 3);
	c = &changes.items[0];
	ck_assert_int_eq(c->kind, WG_TDIFF_REMOVE);
	ck_assert_str_eq(c->path, "l[0]");
	c = &changes.items[1];
	ck_assert_int_eq(c->kind, WG_TDIFF_ADD);
	ck_assert_str_eq(c->path, "l[0].x");
	ck_assert_ptr_eq(c->parent, wg_path_get(before, "l.[1]"));
	c = &changes.items[2];
	ck_assert_int_eq(c->kind, WG_TDIFF_ADD);
	ck_assert_str_eq(c->path, "l[2]");
	ck_assert_int_eq(c->prev_kept, 2);
}
END_TEST

START_TEST(equal_new_items_match_old_ones)
{
	setup_text("l: [x]\nm:\n- a\n- b\n");
	/* the same value built anew is the same item */
	wg_seq_delete_at(get("m"), 0);
	wg_seq_insert(&list.arena, get("m"), 0, str("a"));
	wg_seq_insert(&list.arena, get("m"), 1, str("new"));
	ck_assert_uint_eq(diff(), 1);
	ck_assert_int_eq(changes.items[0].kind, WG_TDIFF_ADD);
	ck_assert_int_eq(changes.items[0].prev_kept, 0);
	ck_assert_int_eq(changes.items[0].next_kept, 1);
}
END_TEST

START_TEST(collections_replaced_whole)
{
	setup_text("flow: {a: 1}\nblock:\n  a: 1\n  b: 2\ngone:\n  a: 1\n"
		   "seq:\n- 1\n");
	/* flow text is rewritten as a unit */
	wg_map_set(&list.arena, get("flow"), "b", str("2"));
	ck_assert_uint_eq(diff(), 1);
	ck_assert_int_eq(changes.items[0].kind, WG_TDIFF_REPLACE);
	ck_assert_str_eq(changes.items[0].path, "flow");
	ck_assert_ptr_eq(changes.items[0].parent, before);
	ck_assert_uint_eq(changes.items[0].index, 0);
	teardown();

	setup_text("block:\n  a: 1\n  b: 2\ngone:\n  a: 1\nseq:\n- 1\n");
	{	/* kept keys that change order */
		struct wg_node *b = get("block");
		struct wg_node *one = wg_map_delete(b, "a");

		wg_map_set(&list.arena, b, "a", one);
	}
	wg_map_delete(get("gone"), "a");	/* emptied */
	wg_seq_delete_at(get("seq"), 0);
	/* nothing kept */
	wg_seq_append(&list.arena, get("seq"), str("2"));
	ck_assert_uint_eq(diff(), 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(changes.items[i].kind, WG_TDIFF_REPLACE);
	ck_assert_str_eq(changes.items[0].path, "block");
	ck_assert_str_eq(changes.items[1].path, "gone");
	ck_assert_str_eq(changes.items[2].path, "seq");
}
END_TEST

START_TEST(kind_and_tag_changes)
{
	setup_text("a: x\nb: !!str 5\nc: [1]\n");
	wg_map_set(&list.arena, after, "a", wg_node_new_map(&list.arena));
	wg_map_set(&list.arena, after, "b",
		   wg_node_new_plain(&list.arena, "5"));
	ck_assert_uint_eq(diff(), 2);
	ck_assert_str_eq(changes.items[0].path, "a");
	ck_assert_str_eq(changes.items[1].path, "b");
	/* the whole root */
	ck_assert_uint_eq(wg_tree_diff(&list.arena, before,
				       wg_node_new_seq(&list.arena),
				       &changes), 1);
	ck_assert_ptr_null(changes.items[2].parent);
	ck_assert_str_eq(changes.items[2].path, "");
}
END_TEST

START_TEST(keys_with_dots_in_paths)
{
	setup_text("metadata:\n  labels:\n    app.kubernetes.io/name: x\n");
	wg_map_set(&list.arena, get("metadata.labels"), "kubernetes.io/os",
		   str("windows"));
	ck_assert_uint_eq(diff(), 1);
	ck_assert_str_eq(changes.items[0].path,
			 "metadata.labels.[kubernetes.io/os]");
}
END_TEST

START_TEST(strict_sameness)
{
	setup_text("a: {x: 1, y: 2}\nb: {y: 2, x: 1}\nc: '1'\nd: \"1\"\n"
		   "e: 1\nf: !!int 1\ng: ~\nh: null\n");
	ck_assert(!wg_tree_same(get("a"), get("b")));	/* key order */
	ck_assert(wg_node_equal(get("a"), get("b")));
	ck_assert(wg_tree_same(get("c"), get("d")));
	ck_assert(!wg_tree_same(get("c"), get("e")));
	ck_assert(!wg_tree_same(get("e"), get("f")));	/* tag */
	ck_assert(!wg_tree_same(get("g"), get("h")));	/* text */
	ck_assert(wg_tree_same(NULL, NULL));
	ck_assert(!wg_tree_same(get("a"), NULL));
}
END_TEST

static Suite *treediff_suite(void)
{
	Suite *s = suite_create("treediff");
	TCase *tc = tcase_create("diff");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, no_change_no_diff);
	tcase_add_test(tc, keys_added_removed_replaced);
	tcase_add_test(tc, walks_only_what_the_edits_touched);
	tcase_add_test(tc, sequences_by_item_identity);
	tcase_add_test(tc, equal_new_items_match_old_ones);
	tcase_add_test(tc, collections_replaced_whole);
	tcase_add_test(tc, kind_and_tag_changes);
	tcase_add_test(tc, keys_with_dots_in_paths);
	tcase_add_test(tc, strict_sameness);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(treediff_suite)
