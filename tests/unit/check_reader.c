/* Reader: events -> trees, stream rules, aliases, merges, errors. */
#include <string.h>

#include "testutil.h"
#include "wingen/yaml/reader.h"

struct fixture {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	int rc;
};

static void load(struct fixture *f, const char *text)
{
	wg_ctx_init(&f->ctx);
	wg_resources_init(&f->list);
	f->rc = t_read(&f->ctx, &f->in, text, &f->list);
}

static void load_bytes(struct fixture *f, const char *data, size_t len)
{
	wg_ctx_init(&f->ctx);
	wg_resources_init(&f->list);
	f->in.name = strdup("test.yaml");
	f->in.data = malloc(len + 1);
	memcpy(f->in.data, data, len);
	f->in.data[len] = '\0';
	f->in.len = len;
	f->in.mapped = 0;
	f->in.borrowed = false;
	f->rc = wg_read_stream(&f->ctx, &f->in, &f->list);
}

static void unload(struct fixture *f)
{
	wg_resources_release(&f->list);
	wg_input_release(&f->in);
	wg_ctx_release(&f->ctx);
}

/* Asserts one error at line:col whose message contains what. */
static void expect_error(struct fixture *f, unsigned line, unsigned col,
			 const char *what)
{
	const struct wg_diag *d;

	ck_assert_int_eq(f->rc, -1);
	ck_assert_uint_ge(f->ctx.log.ndiags, 1);
	d = &f->ctx.log.diags[0];
	ck_assert_int_eq(d->severity, WG_SEV_ERROR);
	ck_assert_str_eq(d->file, "test.yaml");
	ck_assert_msg(strstr(d->message, what), "message '%s' lacks '%s'",
		      d->message, what);
	if (line)
		ck_assert_uint_eq(d->line, line);
	if (col)
		ck_assert_uint_eq(d->col, col);
}

START_TEST(documents_empty_ones_dropped_index_kept)
{
	struct fixture f;

	load(&f, "---\n---\na: 1\n---\n# only a comment\n---\n~\n---\nb: 2\n"
		 "--- \nnull\n...\n");
	ck_assert_int_eq(f.rc, 0);
	ck_assert_uint_eq(f.list.len, 2);
	ck_assert_uint_eq(f.list.items[0]->index, 1);
	ck_assert_uint_eq(f.list.items[1]->index, 4);
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[1]->root, "b"), "2"));
	unload(&f);
}
END_TEST

START_TEST(lists_expanded)
{
	struct fixture f;

	load(&f, "apiVersion: v1\nkind: List\nitems:\n- kind: A\n- ~\n"
		 "- kind: B\n---\nkind: ConfigMapList\nitems:\n---\n"
		 "kind: NotAList\nitems:\nspec: {}\n---\n"
		 "items: [{kind: C}]\nkind: RoleList\n");
	ck_assert_int_eq(f.rc, 0);
	ck_assert_uint_eq(f.list.len, 4);
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[0]->root, "kind"), "A"));
	ck_assert(f.list.items[0]->flags & WG_RES_LIST_ITEM);
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[1]->root, "kind"), "B"));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[2]->root, "kind"),
			       "NotAList"));
	ck_assert(!(f.list.items[2]->flags & WG_RES_LIST_ITEM));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[3]->root, "kind"), "C"));
	ck_assert_uint_eq(f.list.items[3]->index, 3);
	unload(&f);
	/* Lists among the items are expanded too, in order */
	load(&f, "kind: List\nitems:\n- kind: List\n  items:\n  - kind: A\n"
		 "  - kind: PodList\n    items: [{kind: B}]\n- kind: C\n");
	ck_assert_int_eq(f.rc, 0);
	ck_assert_uint_eq(f.list.len, 3);
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[0]->root, "kind"), "A"));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[1]->root, "kind"), "B"));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[2]->root, "kind"), "C"));
	ck_assert(f.list.items[1]->flags & WG_RES_LIST_ITEM);
	unload(&f);
}
END_TEST

START_TEST(styles_tags_and_marks_kept)
{
	struct fixture f;
	struct wg_node *r, *n;

	load(&f, "a: plain\nb: 'single'\nc: \"double\"\nd: |\n  lit\n"
		 "e: >\n  fold\nf: !!str 1\ng: {x: 1}\nh: [1]\n");
	ck_assert_int_eq(f.rc, 0);
	r = f.list.items[0]->root;
	ck_assert_int_eq(wg_map_get(r, "a")->style, WG_STYLE_PLAIN);
	ck_assert_int_eq(wg_map_get(r, "b")->style, WG_STYLE_SINGLE);
	ck_assert_int_eq(wg_map_get(r, "c")->style, WG_STYLE_DOUBLE);
	ck_assert_int_eq(wg_map_get(r, "d")->style, WG_STYLE_LITERAL);
	ck_assert_int_eq(wg_map_get(r, "e")->style, WG_STYLE_FOLDED);
	ck_assert_str_eq(wg_node_tag(wg_map_get(r, "f")),
			 "tag:yaml.org,2002:str");
	ck_assert(wg_map_get(r, "g")->flags & WG_NODE_FLOW);
	ck_assert(wg_map_get(r, "h")->flags & WG_NODE_FLOW);
	n = wg_map_get(r, "c");
	ck_assert_uint_eq(n->line, 2);
	ck_assert_uint_eq(n->col, 3);
	ck_assert(wg_scalar_is(wg_map_get(r, "d"), "lit\n"));
	unload(&f);
}
END_TEST

START_TEST(plain_ascii_scalars_are_not_copied)
{
	struct fixture f;
	struct wg_node *v;

	load(&f, "key: value\nq: 'quoted'\nesc: \"a\\tb\"\n");
	v = wg_map_get(f.list.items[0]->root, "key");
	ck_assert_ptr_eq(v->u.str, f.in.data + 5);
	v = wg_map_get(f.list.items[0]->root, "q");
	ck_assert_ptr_eq(v->u.str, f.in.data + 15);
	/* an escape sequence cannot point into the input */
	v = wg_map_get(f.list.items[0]->root, "esc");
	ck_assert(wg_scalar_is(v, "a\tb"));
	ck_assert(v->u.str < f.in.data || v->u.str > f.in.data + f.in.len);
	unload(&f);
}
END_TEST

START_TEST(aliases_are_copies)
{
	struct fixture f;
	struct wg_node *r, *a, *b;

	load(&f, "a: &x {k: [1, 2]}\nb: *x\n");
	ck_assert_int_eq(f.rc, 0);
	r = f.list.items[0]->root;
	a = wg_map_get(r, "a");
	b = wg_map_get(r, "b");
	ck_assert_ptr_ne(a, b);
	ck_assert(wg_node_equal(a, b));
	wg_seq_append(&f.list.arena, wg_map_get(b, "k"),
		      wg_node_new_plain(&f.list.arena, "3"));
	ck_assert_uint_eq(wg_map_get(a, "k")->len, 2);
	unload(&f);
}
END_TEST

START_TEST(alias_bomb_is_an_error)
{
	struct fixture f;

	load(&f, "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
		 "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		 "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		 "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		 "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		 "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
		 "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
		 "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
		 "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n");
	expect_error(&f, 0, 0, "the alias budget");
	ck_assert_uint_le(f.ctx.log.diags[0].line, 9);
	ck_assert_uint_ge(f.ctx.log.diags[0].line, 5);
	unload(&f);
}
END_TEST

START_TEST(recursive_and_unknown_alias)
{
	struct fixture f;

	load(&f, "a: &a\n  b: *a\n");
	expect_error(&f, 2, 6, "refers to a node that contains it");
	unload(&f);
	load(&f, "a: 1\nb: *nope\n");
	ck_assert_int_eq(f.rc, -1);
	ck_assert_uint_eq(f.ctx.log.diags[0].line, 2);
	unload(&f);
}
END_TEST

START_TEST(merge_keys_resolved)
{
	struct fixture f;
	struct wg_node *m;

	load(&f, "base: &b {x: 1, y: 2}\nmore: &m {z: 3, x: 9}\n"
		 "m:\n  y: own\n  <<: [*b, *m]\n  w: 4\n"
		 "q:\n  '<<': quoted-is-a-plain-key\n");
	ck_assert_int_eq(f.rc, 0);
	m = wg_map_get(f.list.items[0]->root, "m");
	ck_assert_uint_eq(m->len, 4);
	ck_assert(wg_scalar_is(wg_map_key(m, 0), "y"));
	ck_assert(wg_scalar_is(wg_map_value(m, 0), "own"));
	ck_assert(wg_scalar_is(wg_map_key(m, 1), "x"));
	ck_assert(wg_scalar_is(wg_map_value(m, 1), "1"));
	ck_assert(wg_scalar_is(wg_map_key(m, 2), "z"));
	ck_assert(wg_scalar_is(wg_map_key(m, 3), "w"));
	m = wg_map_get(f.list.items[0]->root, "q");
	ck_assert(wg_scalar_is(wg_map_key(m, 0), "<<"));
	unload(&f);
	load(&f, "a:\n  <<: 3\n");
	expect_error(&f, 2, 7, "merge key");
	unload(&f);
}
END_TEST

START_TEST(duplicate_keys_are_errors)
{
	struct fixture f;
	struct wg_buf big = WG_BUF_INIT;

	load(&f, "metadata:\n  name: a\n  labels: {}\n  name: b\n");
	expect_error(&f, 4, 3, "duplicate mapping key 'name'");
	unload(&f);
	/* the sorted path for large mappings reports the later key */
	for (int i = 0; i < 40; i++)
		wg_buf_addf(&big, "k%d: %d\n", i, i);
	wg_buf_addstr(&big, "k7: again\n");
	load(&f, big.buf);
	expect_error(&f, 41, 1, "duplicate mapping key 'k7'");
	unload(&f);
	wg_buf_release(&big);
}
END_TEST

START_TEST(bom_crlf_and_json)
{
	struct fixture f;

	load(&f, "\xef\xbb\xbf" "a: b\r\nc:\r\n  - d\r\n");
	ck_assert_int_eq(f.rc, 0);
	ck_assert(wg_scalar_is(wg_path_get(f.list.items[0]->root, "c[0]"), "d"));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[0]->root, "a"), "b"));
	unload(&f);
	load(&f, "{\n\t\"kind\":\"Pod\",\"spec\":{\"a\":[1,2.5,true,null]}\n}\n");
	ck_assert_msg(f.rc == 0, "%s", t_first_message(&f.ctx));
	ck_assert(wg_scalar_is(wg_path_get(f.list.items[0]->root,
					   "spec.a[1]"), "2.5"));
	ck_assert_int_eq(wg_map_get(f.list.items[0]->root, "kind")->style,
			 WG_STYLE_DOUBLE);
	unload(&f);
}
END_TEST

START_TEST(json_stream_is_one_document_per_object)
{
	struct fixture f;

	load(&f, "{\"kind\": \"A\", \"s\": \"}{\"}\n{\"kind\":\"B\"}[{\"kind\":\"C\"}]\n");
	ck_assert_msg(f.rc == 0, "%s", t_first_message(&f.ctx));
	ck_assert_uint_eq(f.list.len, 3);
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[0]->root, "s"), "}{"));
	ck_assert(wg_scalar_is(wg_map_get(f.list.items[1]->root, "kind"), "B"));
	ck_assert_uint_eq(f.list.items[1]->root->line, 1);
	ck_assert_uint_eq(f.list.items[1]->root->col, 0);
	ck_assert_uint_eq(wg_map_get(f.list.items[1]->root, "kind")->col, 8);
	ck_assert(wg_is_seq(f.list.items[2]->root));
	ck_assert_uint_eq(f.list.items[2]->index, 2);
	/* plain ASCII strings of later objects still point into the input */
	ck_assert(wg_map_get(f.list.items[1]->root, "kind")->u.str
		  == f.in.data + 34);
	unload(&f);
	/* an error in the second object has the position in the file */
	load(&f, "{\"a\": 1}\n{\"b\": 1,\n \"b\": 2}\n");
	expect_error(&f, 3, 2, "duplicate mapping key 'b'");
	unload(&f);
}
END_TEST

START_TEST(encoding_errors_have_positions)
{
	struct fixture f;

	load(&f, "a: ok\nb: \xff\xfe\n");
	expect_error(&f, 2, 4, "UTF-8");
	unload(&f);
	/* UTF-16 with a BOM: not UTF-8 */
	load_bytes(&f, "\xff\xfe" "a\0:\0 \0b\0\n\0", 12);
	expect_error(&f, 1, 1, "UTF-16");
	unload(&f);
}
END_TEST

START_TEST(syntax_errors_have_positions)
{
	struct fixture f;

	load(&f, "a: 1\nb:\n\tc: 2\n");
	expect_error(&f, 3, 1, "tab character");
	unload(&f);
	load(&f, "a: \"unclosed\nb: 2\n");
	expect_error(&f, 3, 0, "found unexpected end of stream");
	unload(&f);
	load(&f, "a: [1, 2\n");
	ck_assert_int_eq(f.rc, -1);
	ck_assert_uint_eq(f.ctx.log.diags[0].line, 2);
	unload(&f);
	load(&f, "? [a]\n: b\n");
	expect_error(&f, 1, 3, "mapping key is not a scalar");
	unload(&f);
}
END_TEST

START_TEST(depth_limit)
{
	struct fixture f;
	struct wg_buf deep = WG_BUF_INIT;

	for (int i = 0; i < 10000; i++)
		wg_buf_addch(&deep, '[');
	load(&f, deep.buf);
	expect_error(&f, 1, 513, "nesting deeper than 512 levels");
	unload(&f);
	wg_buf_release(&deep);
}
END_TEST

START_TEST(size_limits)
{
	struct fixture f;

	wg_ctx_init(&f.ctx);
	wg_resources_init(&f.list);
	f.ctx.limits.max_scalar_bytes = 8;
	f.rc = t_read(&f.ctx, &f.in, "a: short\nb: this-is-too-long\n",
		      &f.list);
	expect_error(&f, 2, 4, "scalar is larger than the size limit");
	unload(&f);
	wg_ctx_init(&f.ctx);
	wg_resources_init(&f.list);
	f.ctx.limits.max_documents = 2;
	f.rc = t_read(&f.ctx, &f.in, "a: 1\n---\nb: 2\n---\nc: 3\n", &f.list);
	expect_error(&f, 4, 1, "more documents than the limit");
	unload(&f);
}
END_TEST

START_TEST(shared_keys_one_node_per_key_positions_kept)
{
	struct fixture f;
	struct wg_node *a, *b;

	wg_ctx_init(&f.ctx);
	wg_resources_init(&f.list);
	f.list.share_keys = true;
	f.rc = t_read(&f.ctx, &f.in, "name: x\nspec: {name: y}\nq: {'name': q}\n"
		      "---\nname: z\nbase: &b {k: 1}\nm:\n  <<: *b\n  name: w\n",
		      &f.list);
	ck_assert_msg(f.rc == 0, "%s", t_first_message(&f.ctx));
	a = wg_map_key(f.list.items[0]->root, 0);
	b = wg_map_key(f.list.items[1]->root, 0);
	ck_assert_ptr_eq(a, b);	/* one node for every plain 'name' */
	ck_assert_ptr_eq(wg_map_key(wg_map_get(f.list.items[0]->root, "spec"),
				    0), a);
	/* another style is another key node */
	ck_assert_ptr_ne(wg_map_key(wg_map_get(f.list.items[0]->root, "q"), 0),
			 a);
	ck_assert(!wg_node_has_pos(a));
	ck_assert(wg_node_has_pos(wg_map_value(f.list.items[0]->root, 0)));
	/* merges and aliases still resolve */
	ck_assert(wg_scalar_is(wg_path_get(f.list.items[1]->root, "m.k"), "1"));
	ck_assert(wg_scalar_is(wg_path_get(f.list.items[1]->root, "m.name"),
			       "w"));
	unload(&f);
	/* a duplicate is still reported where the second key is */
	wg_ctx_init(&f.ctx);
	wg_resources_init(&f.list);
	f.list.share_keys = true;
	f.rc = t_read(&f.ctx, &f.in, "a: 1\nb:\n  c: 2\n  a: 3\n  c: 4\n",
		      &f.list);
	expect_error(&f, 5, 3, "duplicate mapping key 'c'");
	unload(&f);
}
END_TEST

static Suite *reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, documents_empty_ones_dropped_index_kept);
	tcase_add_test(tc, lists_expanded);
	tcase_add_test(tc, styles_tags_and_marks_kept);
	tcase_add_test(tc, plain_ascii_scalars_are_not_copied);
	tcase_add_test(tc, aliases_are_copies);
	tcase_add_test(tc, alias_bomb_is_an_error);
	tcase_add_test(tc, recursive_and_unknown_alias);
	tcase_add_test(tc, merge_keys_resolved);
	tcase_add_test(tc, duplicate_keys_are_errors);
	tcase_add_test(tc, bom_crlf_and_json);
	tcase_add_test(tc, json_stream_is_one_document_per_object);
	tcase_add_test(tc, encoding_errors_have_positions);
	tcase_add_test(tc, syntax_errors_have_positions);
	tcase_add_test(tc, depth_limit);
	tcase_add_test(tc, size_limits);
	tcase_add_test(tc, shared_keys_one_node_per_key_positions_kept);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(reader_suite)
