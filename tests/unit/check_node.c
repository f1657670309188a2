/* Node tree: construction, lookup, paths, editing, equality, walking. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/flow.h"

static struct wg_arena arena;

static void setup(void)
{
	wg_arena_init(&arena);
}

static void teardown(void)
{
	wg_arena_release(&arena);
}

static struct wg_node *parse(const char *text, struct wg_input *in,
			     struct wg_resources *list, struct wg_ctx *ctx)
{
	wg_ctx_init(ctx);
	wg_resources_init(list);
	ck_assert_int_eq(t_read(ctx, in, text, list), 0);
	ck_assert_uint_ge(list->len, 1);
	return list->items[0]->root;
}

static void done(struct wg_input *in, struct wg_resources *list,
		 struct wg_ctx *ctx)
{
	wg_resources_release(list);
	wg_input_release(in);
	wg_ctx_release(ctx);
}

static char *flow(const struct wg_node *n)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_node_to_flow(&b, n);
	return wg_buf_detach(&b, NULL);
}

START_TEST(new_str_quotes_what_would_retype)
{
	static const char *const quoted[] = {
		"yes", "on", "Off", "y", "N", "true", "null", "~", "", "0755",
		"1.10", "12345678901234567890", "1e3", ".inf", "0x1F", "1_000",
		"1:20", "2024-01-01", "10.0.20348", "-1", "+1", "<<", "=",
		" lead", "trail ", "a: b", "a #b", "- x", "*alias", "&a", "!tag",
		"%x", "@x", "`x", "{x}", "[x]", "key:", "multi\nline", NULL,
	};
	static const char *const plain[] = {
		"windows", "amd64", "ltsc2022", "runhcs-wcow-process",
		"kubernetes.io/os", "os=windows", "NoSchedule", "a:b", "a#b",
		"mcr.microsoft.com/windows/servercore:ltsc2022", "10.0.x",
		"v1", "1.2.3-alpha", NULL,
	};

	for (const char *const *s = quoted; *s; s++) {
		struct wg_node *n = wg_node_new_str(&arena, *s);

		ck_assert_msg(n->style == WG_STYLE_DOUBLE, "'%s' not quoted", *s);
		ck_assert_uint_eq(n->len, strlen(*s));
	}
	for (const char *const *s = plain; *s; s++) {
		struct wg_node *n = wg_node_new_str(&arena, *s);

		ck_assert_msg(n->style == WG_STYLE_PLAIN, "'%s' quoted", *s);
	}
}
END_TEST

START_TEST(map_get_set_insert_delete_keep_order)
{
	struct wg_node *m = wg_node_new_map(&arena);
	char *s;

	wg_map_set(&arena, m, "b", wg_node_new_str(&arena, "2"));
	wg_map_set(&arena, m, "d", wg_node_new_str(&arena, "4"));
	wg_map_insert(&arena, m, 0, "a", wg_node_new_plain(&arena, "1"));
	wg_map_insert(&arena, m, 2, "c", wg_node_new_plain(&arena, "3"));
	/* set on an existing key replaces in place */
	wg_map_set(&arena, m, "b", wg_node_new_plain(&arena, "two"));
	s = flow(m);
	ck_assert_str_eq(s, "{a: 1, b: two, c: 3, d: \"4\"}");
	free(s);
	ck_assert_ptr_nonnull(wg_map_delete(m, "c"));
	ck_assert_ptr_null(wg_map_delete(m, "zz"));
	ck_assert_int_eq(wg_map_find(m, "d"), 2);
	ck_assert_int_eq(wg_map_find(m, "c"), -1);
	ck_assert_ptr_null(wg_map_get(m, "c"));
	ck_assert(wg_scalar_is(wg_map_get(m, "a"), "1"));
}
END_TEST

START_TEST(grow_keeps_child_pointers_valid)
{
	struct wg_node *m = wg_node_new_map(&arena);
	struct wg_node *sel = wg_map_ensure_map(&arena, m, "nodeSelector");
	char key[16];

	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		wg_map_set(&arena, m, key, wg_node_new_plain(&arena, "v"));
	}
	/* sel still refers to the same node as the map holds */
	ck_assert_ptr_eq(wg_map_get(m, "nodeSelector"), sel);
	ck_assert_uint_eq(m->len, 101);
	ck_assert(wg_scalar_is(wg_map_get(m, "k99"), "v"));
}
END_TEST

START_TEST(ensure_replaces_null_but_not_scalars)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a:\nb: 1\nc: ~\n", &in, &list, &ctx);

	ck_assert(wg_is_map(wg_map_ensure_map(&arena, root, "a")));
	ck_assert_ptr_null(wg_map_ensure_map(&arena, root, "b"));
	ck_assert(wg_is_seq(wg_map_ensure_seq(&arena, root, "c")));
	ck_assert(wg_is_seq(wg_map_ensure_seq(&arena, root, "d")));
	ck_assert_uint_eq(root->len, 4);
	done(&in, &list, &ctx);
}
END_TEST

START_TEST(path_get_handles_indexes_and_dotted_keys)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse(
		"spec:\n  template:\n    metadata:\n      labels:\n"
		"        app.kubernetes.io/name: web\n"
		"    spec:\n      containers:\n      - name: a\n"
		"        image: x\n      - name: b\n        image: y\n",
		&in, &list, &ctx);

	ck_assert(wg_scalar_is(wg_path_get(root, "spec.template.spec."
					   "containers[1].image"), "y"));
	ck_assert(wg_scalar_is(wg_path_get(root, "spec.template.metadata."
					   "labels.[app.kubernetes.io/name]"),
			       "web"));
	ck_assert_ptr_null(wg_path_get(root, "spec.template.spec."
				       "containers[2]"));
	ck_assert_ptr_null(wg_path_get(root, "spec.nope.x"));
	ck_assert_ptr_null(wg_path_get(root, "spec.template[0]"));
	ck_assert_ptr_eq(wg_path_get(root, ""), root);
	done(&in, &list, &ctx);
}
END_TEST

START_TEST(sequence_insert_and_delete)
{
	struct wg_node *s = wg_node_new_seq(&arena);
	char *f;

	for (int i = 0; i < 10; i++) {
		char v[4];

		snprintf(v, sizeof(v), "%d", i);
		wg_seq_append(&arena, s, wg_node_new_plain(&arena, v));
	}
	wg_seq_insert(&arena, s, 0, wg_node_new_plain(&arena, "first"));
	ck_assert(wg_scalar_is(wg_seq_delete_at(s, 5), "4"));
	f = flow(s);
	ck_assert_str_eq(f, "[first, 0, 1, 2, 3, 5, 6, 7, 8, 9]");
	free(f);
}
END_TEST

START_TEST(equal_ignores_key_order_and_style_only)
{
	struct wg_ctx c1, c2;
	struct wg_input i1, i2;
	struct wg_resources l1, l2;
	struct wg_node *a = parse("a: 1\nb: [x, 'y']\n", &i1, &l1, &c1);
	struct wg_node *b = parse("b: [\"x\", y]\na: 1\n", &i2, &l2, &c2);
	struct wg_node *c;

	ck_assert(wg_node_equal(a, b));
	c = wg_node_clone(&arena, b);
	ck_assert(wg_node_equal(a, c));
	wg_map_set(&arena, c, "a", wg_node_new_plain(&arena, "2"));
	ck_assert(!wg_node_equal(a, c));
	/* the clone is deep: b is untouched */
	ck_assert(wg_scalar_is(wg_map_get(b, "a"), "1"));
	wg_seq_append(&arena, wg_map_get(c, "b"), wg_node_new_plain(&arena, "z"));
	ck_assert_uint_eq(wg_map_get(b, "b")->len, 2);
	done(&i1, &l1, &c1);
	done(&i2, &l2, &c2);
}
END_TEST

START_TEST(clone_keeps_tags_and_styles)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a: !!str 12\nb: 'q'\nc: {x: 1}\n",
				     &in, &list, &ctx);
	struct wg_node *c = wg_node_clone(&arena, root);

	ck_assert_str_eq(wg_node_tag(wg_map_get(c, "a")),
			 "tag:yaml.org,2002:str");
	ck_assert_int_eq(wg_map_get(c, "b")->style, WG_STYLE_SINGLE);
	ck_assert(wg_map_get(c, "c")->flags & WG_NODE_FLOW);
	ck_assert_ptr_null(wg_node_tag(wg_map_get(c, "b")));
	done(&in, &list, &ctx);
}
END_TEST

/* The journal's before-tree is the tree as it was when the journal
 * started, whatever this header's edits did after; it shares each
 * subtree nothing changed, and an untouched tree is itself. */
START_TEST(journal_rebuilds_the_tree_before_edits)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a: 1\nb: [x, !t y, w]\nc: {d: {e: f}}\n"
				     "g: {h: i}\nk: [1]\nn: ~\n",
				     &in, &list, &ctx);
	struct wg_node_journal *j = wg_node_journal_new();
	struct wg_node *b = wg_map_get(root, "b");
	struct wg_node *g = wg_map_get(root, "g");
	struct wg_node *k = wg_map_get(root, "k");
	struct wg_node *fresh;
	const struct wg_node *snap, *sb;

	wg_node_journal_start(j);
	wg_map_set(&arena, root, "a", wg_node_new_plain(&arena, "2"));
	wg_seq_delete_at(b, 0);
	wg_seq_append(&arena, b, wg_node_new_plain(&arena, "z"));
	wg_map_delete(wg_map_get(wg_map_get(root, "c"), "d"), "e");
	wg_map_set(&arena, root, "new", wg_node_new_map(&arena));
	/* appends alone, past the array's capacity: no copy needed */
	for (int i = 0; i < 9; i++)
		wg_seq_append(&arena, k, wg_node_new_plain(&arena, "9"));
	wg_map_ensure_map(&arena, root, "n");
	/* a node made during the edits is not journaled */
	fresh = wg_map_ensure_map(&arena, root, "made");
	wg_map_set(&arena, fresh, "x", wg_node_new_plain(&arena, "1"));
	wg_node_journal_stop();
	/* after the stop, edits of new trees are not recorded */
	wg_map_set(&arena, wg_node_new_map(&arena), "y",
		   wg_node_new_plain(&arena, "1"));

	snap = wg_node_journal_before(j, &arena, root);
	ck_assert_ptr_ne(snap, root);
	ck_assert_uint_eq(snap->len, 6);
	ck_assert(wg_scalar_is(wg_map_get(snap, "a"), "1"));
	sb = wg_map_get(snap, "b");
	ck_assert_uint_eq(sb->len, 3);
	ck_assert(wg_scalar_is(wg_seq_item(sb, 0), "x"));
	ck_assert(wg_scalar_is(wg_seq_item(sb, 2), "w"));
	ck_assert_str_eq(wg_node_tag(wg_seq_item(sb, 1)), "!t");
	ck_assert(wg_scalar_is(wg_path_get(snap, "c.d.e"), "f"));
	ck_assert_uint_eq(wg_node_line(wg_map_get(snap, "c")),
			  wg_node_line(wg_map_get(root, "c")));
	ck_assert_uint_eq(wg_map_get(snap, "k")->len, 1);
	ck_assert(wg_node_is_null(wg_map_get(snap, "n")));
	ck_assert_ptr_null(wg_map_get(snap, "new"));
	ck_assert_ptr_null(wg_map_get(snap, "made"));
	/* what nothing changed is shared, scalars and subtrees alike */
	ck_assert_ptr_eq(wg_map_get(snap, "g"), g);
	ck_assert_ptr_eq(wg_seq_item(sb, 1), wg_seq_item(b, 0));
	ck_assert_ptr_eq(wg_node_journal_before(j, &arena, g), g);
	/* collections saved: root, b, d, k (the new map is not one) */
	ck_assert_uint_eq(wg_node_journal_size(j), 4);
	/* the tree itself is as edited */
	ck_assert(wg_scalar_is(wg_map_get(root, "a"), "2"));
	ck_assert_uint_eq(b->len, 3);
	ck_assert_uint_eq(k->len, 10);
	wg_node_journal_free(j);
	done(&in, &list, &ctx);
}
END_TEST

/* Many saved collections: the journal's table grows and still finds
 * each one. */
START_TEST(journal_keeps_many_collections)
{
	struct wg_node_journal *j = wg_node_journal_new();
	struct wg_node *seqs[3000];
	struct wg_node *top;
	const struct wg_node *snap;

	top = wg_node_new_seq(&arena);
	for (size_t i = 0; i < 3000; i++) {
		seqs[i] = wg_node_new_seq(&arena);
		wg_seq_append(&arena, seqs[i], wg_node_new_plain(&arena, "0"));
		seqs[i]->flags &= ~(unsigned)WG_NODE_NEW;	/* as read */
		wg_seq_append(&arena, top, seqs[i]);
	}
	top->flags &= ~(unsigned)WG_NODE_NEW;
	wg_node_journal_start(j);
	for (size_t i = 0; i < 3000; i += 2)
		wg_seq_delete_at(seqs[i], 0);
	wg_node_journal_stop();
	ck_assert_uint_eq(wg_node_journal_size(j), 1500);
	snap = wg_node_journal_before(j, &arena, top);
	ck_assert_ptr_ne(snap, top);
	for (size_t i = 0; i < 3000; i++) {
		const struct wg_node *s = wg_seq_item(snap, i);

		ck_assert_uint_eq(s->len, 1);
		if (i % 2)
			ck_assert_ptr_eq(s, seqs[i]);
		else
			ck_assert_ptr_ne(s, seqs[i]);
	}
	wg_node_journal_free(j);
}
END_TEST

struct walk_log {
	struct wg_buf paths;
};

static int record(struct wg_node *n, struct wg_node *key, const char *path,
		  void *payload)
{
	struct walk_log *log = payload;

	(void)key;
	wg_buf_addf(&log->paths, "%s%s;", path,
		    n->kind == WG_NODE_SCALAR ? "=s" : "");
	return wg_scalar_is(n, "stop") ? 7 : 0;
}

START_TEST(walk_visits_in_order_with_paths)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a: {b.c: 1}\nl: [x, {y: 2}]\nz: stop\n"
				     "after: 1\n", &in, &list, &ctx);
	struct walk_log log = { WG_BUF_INIT };

	ck_assert_int_eq(wg_node_walk(root, record, &log), 7);
	ck_assert_str_eq(log.paths.buf, ";a;a.[b.c]=s;l;l[0]=s;l[1];"
			 "l[1].y=s;z=s;");
	wg_buf_release(&log.paths);
	done(&in, &list, &ctx);
}
END_TEST

START_TEST(null_detection)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a:\nb: ~\nc: null\nd: 'null'\ne: !!null ''\n"
				     "f: Null\ng: x\n", &in, &list, &ctx);

	ck_assert(wg_node_is_null(wg_map_get(root, "a")));
	ck_assert(wg_node_is_null(wg_map_get(root, "b")));
	ck_assert(wg_node_is_null(wg_map_get(root, "c")));
	ck_assert(!wg_node_is_null(wg_map_get(root, "d")));
	ck_assert(wg_node_is_null(wg_map_get(root, "e")));
	ck_assert(wg_node_is_null(wg_map_get(root, "f")));
	ck_assert(!wg_node_is_null(wg_map_get(root, "g")));
	ck_assert(wg_node_is_null(NULL));
	done(&in, &list, &ctx);
}
END_TEST

/* Booleans as kubectl reads them (YAML 1.1), through the one helper. */
START_TEST(booleans_read_as_kubectl_reads_them)
{
	static const char *const yes[] = { "y", "Y", "yes", "Yes", "YES", "on",
		"On", "ON", "true", "True", "TRUE", NULL };
	static const char *const no[] = { "n", "N", "no", "No", "NO", "off",
		"Off", "OFF", "false", "False", "FALSE", NULL };
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_node *root = parse("a: 'true'\nb: 1\nc: [true]\nd: ~\n"
				     "e: !!bool yes\nf: \"on\"\n",
				     &in, &list, &ctx);

	for (size_t i = 0; yes[i]; i++) {
		struct wg_arena a = WG_ARENA_INIT;

		ck_assert_msg(wg_node_true(wg_node_new_plain(&a, yes[i])),
			      "%s", yes[i]);
		ck_assert_int_eq(wg_node_bool(wg_node_new_plain(&a, no[i])),
				 WG_BOOL_FALSE);
		wg_arena_release(&a);
	}
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "a")), WG_BOOL_INVALID);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "b")), WG_BOOL_INVALID);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "c")), WG_BOOL_INVALID);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "d")), WG_BOOL_ABSENT);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "x")), WG_BOOL_ABSENT);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "e")), WG_BOOL_TRUE);
	ck_assert_int_eq(wg_node_bool(wg_map_get(root, "f")), WG_BOOL_INVALID);
	done(&in, &list, &ctx);
}
END_TEST

START_TEST(path_append_key_escapes_dots)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_path_append_key(&b, "spec", 4);
	wg_path_append_key(&b, "kubernetes.io/os", 16);
	ck_assert_str_eq(b.buf, "spec.[kubernetes.io/os]");
	wg_buf_release(&b);
}
END_TEST

static Suite *node_suite(void)
{
	Suite *s = suite_create("node");
	TCase *tc = tcase_create("node");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, new_str_quotes_what_would_retype);
	tcase_add_test(tc, map_get_set_insert_delete_keep_order);
	tcase_add_test(tc, grow_keeps_child_pointers_valid);
	tcase_add_test(tc, ensure_replaces_null_but_not_scalars);
	tcase_add_test(tc, path_get_handles_indexes_and_dotted_keys);
	tcase_add_test(tc, sequence_insert_and_delete);
	tcase_add_test(tc, equal_ignores_key_order_and_style_only);
	tcase_add_test(tc, clone_keeps_tags_and_styles);
	tcase_add_test(tc, journal_rebuilds_the_tree_before_edits);
	tcase_add_test(tc, journal_keeps_many_collections);
	tcase_add_test(tc, walk_visits_in_order_with_paths);
	tcase_add_test(tc, null_detection);
	tcase_add_test(tc, booleans_read_as_kubectl_reads_them);
	tcase_add_test(tc, path_append_key_escapes_dots);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(node_suite)
