/* migrate's position index: byte spans, lines, comments, layout, mapping
 * tree nodes to positions. */
#include <string.h>
#include <yaml.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/migrate/migrate.h"
#include "wingen/yaml/reader.h"

static struct wg_pos_index ix;

static void build(const char *text)
{
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&ix, text, strlen(text), &err,
					    &line), 0);
}

static void teardown(void)
{
	wg_pos_index_release(&ix);
}

/* The text of a node's span. */
static char span[256];
static const char *text_of(const struct wg_pos_node *n)
{
	size_t len = n->end - n->start;

	ck_assert_uint_lt(len, sizeof(span));
	memcpy(span, ix.data + n->start, len);
	span[len] = '\0';
	return span;
}

static struct wg_pos_node *value(const struct wg_pos_node *m, const char *key)
{
	for (size_t i = 0; i < m->len; i++) {
		const struct wg_pos_node *k = wg_pos_key(m, i);

		/* text_len bytes, not NUL-terminated (a replay's) */
		if (k->text_len == strlen(key)
		    && memcmp(k->text, key, k->text_len) == 0)
			return wg_pos_value(m, i);
	}
	ck_abort_msg("no key '%s'", key);
	return NULL;
}

START_TEST(spans_are_bytes_not_characters)
{
	struct wg_pos_node *root, *m;

	build("a: \"qé\"  # ü\nb:\n  c: ü-ß\n  d: [1, {e: é}]\nf: x\n");
	root = ix.docs[0].root;
	ck_assert_str_eq(text_of(value(root, "a")), "\"qé\"");
	m = value(root, "b");
	ck_assert_str_eq(text_of(value(m, "c")), "ü-ß");
	ck_assert_str_eq(text_of(value(m, "d")), "[1, {e: é}]");
	/* a block collection ends with its last child, not at "f" */
	ck_assert_str_eq(text_of(m), "c: ü-ß\n  d: [1, {e: é}]");
	ck_assert_uint_eq(m->line, 2);
	ck_assert_uint_eq(m->end_line, 3);
	ck_assert_str_eq(text_of(value(root, "f")), "x");
	ck_assert_ptr_eq(value(m, "c")->parent, m);
}
END_TEST

START_TEST(crlf_bom_and_final_newline)
{
	struct wg_pos_node *root;

	build("\xef\xbb\xbf" "a: 1\r\nb: [x]\r\n");
	root = ix.docs[0].root;
	ck_assert_str_eq(ix.eol, "\r\n");
	ck_assert(ix.final_newline);
	ck_assert_uint_eq(ix.lines[0], 3);
	ck_assert_uint_eq(ix.lines[1], 9);
	ck_assert_str_eq(text_of(value(root, "a")), "1");
	ck_assert_str_eq(text_of(value(root, "b")), "[x]");
	ck_assert_uint_eq(wg_pos_next_line(&ix, 4), 9);
	teardown();

	build("a: 1\nb: 2");
	ck_assert_str_eq(ix.eol, "\n");
	ck_assert(!ix.final_newline);
	ck_assert_uint_eq(wg_pos_next_line(&ix, 6), 9);
	ck_assert_uint_eq(wg_pos_line_of(&ix, 8), 1);
}
END_TEST

START_TEST(empty_values_sit_after_their_indicator)
{
	struct wg_pos_node *root, *seq;

	build("a:   # c\nl:\n-\n- b\n-   # x\n  k: 1\n");
	root = ix.docs[0].root;
	ck_assert_uint_eq(value(root, "a")->start, 2);
	ck_assert_uint_eq(value(root, "a")->text_len, 0);
	seq = value(root, "l");
	ck_assert_uint_eq(seq->len, 3);
	ck_assert_ptr_nonnull(seq->dashes);
	/* the dashes of every item, past comments and empty items */
	ck_assert_uint_eq(seq->dashes[0], 12);
	ck_assert_uint_eq(seq->dashes[1], 14);
	ck_assert_uint_eq(seq->dashes[2], 18);
	ck_assert_uint_eq(seq->items[0]->start, 13);
	ck_assert_str_eq(text_of(seq->items[2]), "k: 1");
}
END_TEST

START_TEST(comment_lines_exclude_scalar_content)
{
	build("# top\na: |\n  # not a comment\n  text\n"
	      "b: \"x\n  # in quotes\"\n  # real\nc: 1\n");
	ck_assert(wg_pos_is_comment_line(&ix, 0));
	ck_assert(!wg_pos_is_comment_line(&ix, 1));
	ck_assert(!wg_pos_is_comment_line(&ix, 2));
	ck_assert(!wg_pos_is_comment_line(&ix, 5));
	ck_assert(wg_pos_is_comment_line(&ix, 6));
	ck_assert(!wg_pos_is_comment_line(&ix, 7));
	/* a block scalar's span ends after its last line */
	ck_assert_str_eq(text_of(value(ix.docs[0].root, "a")),
			 "|\n  # not a comment\n  text\n");
}
END_TEST

START_TEST(layout_is_detected)
{
	build("a:\n    b:\n        c: 1\n    l:\n        - x\n");
	ck_assert_uint_eq(ix.indent, 4);
	ck_assert(!ix.compact_seqs);
	teardown();
	build("a:\n  b: 1\n  l:\n  - x\n  m:\n  - y\n  n:\n    - z\n");
	ck_assert_uint_eq(ix.indent, 2);
	ck_assert(ix.compact_seqs);
	teardown();
	build("a: 1\n");
	ck_assert_uint_eq(ix.indent, 2);
	ck_assert(ix.compact_seqs);
	teardown();
	/* items four past their dash; a sequence's scalar or flow items
	 * do not vote */
	build("l:\n-   a: 1\n    b: 2\n-   c: 3\n- x\n-   [y]\n");
	ck_assert_uint_eq(ix.item_indent, 4);
	teardown();
	/* a collection that starts on its key's line (an anchor) says
	 * nothing of the indentation; the one below its key does */
	build("x: &a\n    b: 1\ny: &c\n    d: 2\nz: &e\n    - f\n"
	      "w:\n    v: 1\n");
	ck_assert_uint_eq(ix.indent, 4);
	ck_assert(ix.compact_seqs);
}
END_TEST

START_TEST(documents_and_flags)
{
	struct wg_pos_node *root;

	build("# c\na: &x {b: 1}\n--- # two\nc: *x\nm:\n  <<: {d: 1}\n"
	      "t: !!str 5\n...\n---\n");
	ck_assert_uint_eq(ix.ndocs, 3);
	ck_assert(!ix.docs[0].explicit_start);
	ck_assert(ix.docs[1].explicit_start);
	ck_assert_uint_eq(ix.docs[1].start, 17);
	/* an empty document holds a null */
	ck_assert_uint_eq(ix.docs[2].root->text_len, 0);
	root = ix.docs[0].root;
	ck_assert_uint_eq(value(root, "a")->flags,
			  WG_POS_ANCHOR | WG_POS_FLOW);
	ck_assert_str_eq(text_of(value(root, "a")), "&x {b: 1}");
	root = ix.docs[1].root;
	ck_assert_int_eq(value(root, "c")->kind, WG_POS_ALIAS);
	ck_assert(value(root, "m")->flags & WG_POS_MERGE);
	ck_assert(value(root, "t")->flags & WG_POS_TAG);
	ck_assert_str_eq(text_of(value(root, "t")), "!!str 5");
}
END_TEST

START_TEST(tree_nodes_map_to_positions)
{
	static const char text[] =
		"base: &b {x: 1}\nm:\n  <<: *b\n  own: [a, b]\nref: *b\n";
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_pos_map map = { NULL, NULL, 0, 0, NULL };
	struct wg_node *root;
	struct wg_pos_node *p;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	build(text);
	root = list.items[0]->root;
	wg_pos_map_add_tree(&map, root, ix.docs[0].root);
	p = wg_pos_map_get(&map, wg_path_get(root, "m.own.[1]"));
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(text_of(p), "b");
	p = wg_pos_map_key(&map, wg_path_get(root, "m"), 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(text_of(p), "own");
	/* x came in through "<<": it has no place of its own */
	ck_assert_ptr_null(wg_pos_map_get(&map, wg_path_get(root, "m.x")));
	/* an alias's copy maps to the alias, its inside to nothing */
	p = wg_pos_map_get(&map, wg_path_get(root, "ref"));
	ck_assert_int_eq(p->kind, WG_POS_ALIAS);
	ck_assert_ptr_null(wg_pos_map_get(&map, wg_path_get(root, "ref.x")));
	ck_assert_ptr_null(wg_pos_map_get(&map, NULL));
	wg_pos_map_release(&map);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(parse_errors_are_reported)
{
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&ix, "a: [1\nb: 2\n", 11, &err,
					    &line), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_ge(line, 1);
}
END_TEST

START_TEST(offsets_from_marks)
{
	build("ab: é\nçd: f\n");
	ck_assert_uint_eq(wg_pos_offset(&ix, 0, 4), 4);
	ck_assert_uint_eq(wg_pos_offset(&ix, 1, 0), 7);
	ck_assert_uint_eq(wg_pos_offset(&ix, 1, 1), 9);
	ck_assert_uint_eq(wg_pos_offset(&ix, 9, 0), ix.len);
}
END_TEST


/* ---- the scan and one document at a time -------------------------------- */

/* Two position trees are the same node for node. */
static void same_nodes(const struct wg_pos_index *wx,
		       const struct wg_pos_node *a, const struct wg_pos_node *b,
		       const char *what)
{
	size_t k;

	if (!a || !b) {
		ck_assert_msg(a == b, "%s: one root is missing", what);
		return;
	}
	ck_assert_msg(a->kind == b->kind && a->style == b->style
		      && a->flags == b->flags && a->len == b->len
		      && a->line == b->line && a->col == b->col
		      && a->end_line == b->end_line && a->start == b->start
		      && a->end == b->end && a->text_len == b->text_len,
		      "%s: node at %u:%u differs (kind %d/%d, span %zu-%zu / "
		      "%zu-%zu, end line %u/%u)", what, a->line, a->col,
		      a->kind, b->kind, a->start, a->end, b->start, b->end,
		      a->end_line, b->end_line);
	/* the line of the last byte, searched for */
	ck_assert_msg(b->end_line == (b->end > b->start
				      ? wg_pos_line_of(wx, b->end - 1)
				      : b->line),
		      "%s: end line of %u:%u", what, b->line, b->col);
	if (a->text_len)
		ck_assert_msg(memcmp(a->text, b->text, a->text_len) == 0,
			      "%s: text at %u:%u differs", what, a->line,
			      a->col);
	ck_assert_msg(!a->dashes == !b->dashes, "%s: dashes at %u:%u", what,
		      a->line, a->col);
	for (size_t i = 0; a->dashes && i < a->len; i++)
		ck_assert_msg(a->dashes[i] == b->dashes[i],
			      "%s: dash %zu at %u:%u", what, i, a->line,
			      a->col);
	k = a->kind == WG_NODE_MAP ? 2 * (size_t)a->len
	    : a->kind == WG_NODE_SEQ ? a->len : 0;
	for (size_t i = 0; i < k; i++) {
		ck_assert_ptr_eq(a->items[i]->parent, a);
		ck_assert_ptr_eq(b->items[i]->parent, b);
		same_nodes(wx, a->items[i], b->items[i], what);
	}
}

/*
 * Reads in as migrate does, the scan observing the reader's events, into
 * sc (released by the caller, as arena and ctx); each document's tree goes
 * to *roots[index] when roots is given (grown here, freed by the caller).
 * Returns the scan's result, or -1 when the reader failed.
 */
/* When set, the reader shares mapping keys through it, as migrate's does:
 * keys then have no position, and the replay takes it from the records. */
static struct wg_resources *sharing;

static int scan_input(const struct wg_input *in, struct wg_ctx *ctx,
		      struct wg_arena *arena, struct wg_pos_index *sc,
		      struct wg_node ***roots, size_t *nroots)
{
	struct wg_pos_scan *scan;
	struct wg_reader r;
	struct wg_node *root;
	size_t cap = 0;
	unsigned index;
	int rc;

	wg_ctx_init(ctx);
	wg_reader_init(&r, ctx, in);
	r.shared_keys = sharing;
	scan = wg_pos_scan_start(sc, in->data, in->len);
	r.observe = wg_pos_scan_event;
	r.observe_arg = scan;
	while ((rc = wg_reader_next(&r, arena, &root, &index)) > 0) {
		if (!roots)
			continue;
		WG_GROW(*roots, cap, (size_t)index + 1);
		while (*nroots <= index)
			(*roots)[(*nroots)++] = NULL;
		(*roots)[index] = root;
	}
	wg_reader_release(&r);
	return wg_pos_scan_finish(scan, NULL) || rc < 0 ? -1 : 0;
}

/* Documents built from a scan's records, over every text compared. */
static size_t replayed_docs;
static size_t stub_docs;	/* documents replayed with a stub */

/*
 * A replay with stubs (wg_pos_index_doc_tree_for) against the whole-text
 * index: every node built is the whole index's, and a stub is its
 * collection's span, position and flow flag, with no items.
 */
static void same_or_stub(const struct wg_pos_index *wx,
			 const struct wg_pos_node *a,
			 const struct wg_pos_node *b, const char *what,
			 size_t *stubs)
{
	size_t k;

	if (!(a->flags & WG_POS_STUB)) {
		ck_assert_msg(a->kind == b->kind && a->flags == b->flags
			      && a->len == b->len && a->start == b->start
			      && a->end == b->end
			      && a->end_line == b->end_line,
			      "%s: built node at %u:%u differs", what, a->line,
			      a->col);
		k = a->kind == WG_NODE_MAP ? 2 * (size_t)a->len
		    : a->kind == WG_NODE_SEQ ? a->len : 0;
		for (size_t i = 0; i < k; i++) {
			ck_assert_ptr_eq(a->items[i]->parent, a);
			same_or_stub(wx, a->items[i], b->items[i], what, stubs);
		}
		return;
	}
	(*stubs)++;
	ck_assert_msg(a->kind == b->kind && a->kind != WG_NODE_SCALAR
		      && a->line == b->line && a->col == b->col
		      && a->start == b->start && a->end == b->end
		      && a->end_line == b->end_line
		      && (a->flags & WG_POS_FLOW) == (b->flags & WG_POS_FLOW)
		      && a->len == 0 && !a->items && !a->dashes,
		      "%s: stub at %u:%u differs (span %zu-%zu / %zu-%zu, end "
		      "line %u/%u)", what, a->line, a->col, a->start, a->end,
		      b->start, b->end, a->end_line, b->end_line);
}

/* The collections of tree, parents first, into *out. */
static void collections(const struct wg_node *n, const struct wg_node ***out,
			size_t *len, size_t *cap)
{
	size_t k;

	if (!n || n->kind == WG_NODE_SCALAR)
		return;
	WG_GROW(*out, *cap, *len + 1);
	(*out)[(*len)++] = n;
	k = n->kind == WG_NODE_MAP ? 2 * (size_t)n->len : n->len;
	for (size_t i = 0; i < k; i++)
		collections(n->u.items[i], out, len, cap);
}

/* Document d of sc as built now: every node the whole index's, no stub. */
static void no_stub(const struct wg_pos_index *sc,
		    const struct wg_pos_index *whole, size_t d,
		    const char *what)
{
	size_t stubs = 0;

	same_or_stub(whole, sc->docs[d].root, whole->docs[d].root, what,
		     &stubs);
	ck_assert_uint_eq(stubs, 0);
}

/*
 * Document d of scan sc replayed with stubs, three ways: nothing expanded
 * but the root, every other collection expanded (in tree order), and
 * every collection expanded; each held against the whole index.
 */
static void stubs_agree(struct wg_pos_index *sc,
			const struct wg_pos_index *whole, size_t d,
			const struct wg_node *tree, const char *what)
{
	const struct wg_node **all = NULL, **some;
	size_t n = 0, cap = 0, nsome = 0;

	if (!tree || !sc->docs[d].recorded)
		return;
	collections(tree, &all, &n, &cap);
	some = wg_xcalloc(n + 1, sizeof(*some));
	for (size_t i = 0; i < n; i += 2)
		some[nsome++] = all[i];
	wg_pos_sort_nodes(some, nsome);
	wg_pos_sort_nodes(all, n);
	for (int round = 0; round < 3; round++) {
		const struct wg_node *const *expand = round == 0 ? some
						      : round == 1 ? some
								   : all;
		size_t nexpand = round == 0 ? 0 : round == 1 ? nsome : n;
		size_t before = sc->replayed, stubs = 0;

		wg_pos_index_drop_nodes(sc);
		sc->docs[d].indexed = false;
		ck_assert_msg(wg_pos_index_doc_tree_for(sc, d, tree, expand,
							nexpand) == 0,
			      "%s: document %zu with stubs does not index",
			      what, d);
		if (sc->replayed == before)
			continue;	/* parsed (a shared key's source) */
		same_or_stub(whole, sc->docs[d].root, whole->docs[d].root,
			     what, &stubs);
		/* the root is always built; with all expanded, no stub */
		ck_assert(!(sc->docs[d].root->flags & WG_POS_STUB));
		if (round == 2)
			ck_assert_uint_eq(stubs, 0);
		if (round == 0) {
			stub_docs += stubs > 0;
			/* asked whole now: built again, with no stub */
			ck_assert_int_eq(wg_pos_index_doc_tree(sc, d, tree), 0);
			no_stub(sc, whole, d, what);
			/* with stubs again, then asked with another expand
			 * set (every collection): built again for it */
			wg_pos_index_drop_nodes(sc);
			sc->docs[d].indexed = false;
			ck_assert_int_eq(wg_pos_index_doc_tree_for(sc, d, tree,
								   some, 0),
					 0);
			ck_assert_int_eq(wg_pos_index_doc_tree_for(sc, d, tree,
								   all, n),
					 0);
			no_stub(sc, whole, d, what);
		}
	}
	wg_pos_index_drop_nodes(sc);
	sc->docs[d].indexed = false;
	free(some);
	free(all);
}

/*
 * Scans the reader's events over in, then builds each document's nodes
 * alone (last to first, then first to last: each drops the one before),
 * by parsing it again and from the scan's records with the reader's tree,
 * and holds all of it against the whole-text index.  Returns false when
 * the text does not parse (nothing to compare).
 */
static bool scan_agrees(const struct wg_input *in, const char *what)
{
	struct wg_pos_index whole, sc;
	struct wg_arena own = WG_ARENA_INIT;
	/* shared keys live as long as the list that shares them */
	struct wg_arena *arena = sharing ? &sharing->arena : &own;
	struct wg_ctx ctx;
	struct wg_node **roots = NULL;
	size_t nroots = 0;
	const char *err;
	size_t err_line;

	if (wg_pos_index_build(&whole, in->data, in->len, &err, &err_line)) {
		wg_pos_index_release(&whole);
		return false;
	}
	if (scan_input(in, &ctx, arena, &sc, &roots, &nroots)) {
		free(roots);
		/* the reader refuses more than libyaml (duplicate keys,
		 * limits) or reads a JSON stream value by value */
		wg_pos_index_release(&sc);
		wg_pos_index_release(&whole);
		wg_arena_release(&own);
		wg_ctx_release(&ctx);
		return false;
	}
	ck_assert_msg(sc.ndocs == whole.ndocs, "%s: %zu documents, not %zu",
		      what, sc.ndocs, whole.ndocs);
	ck_assert_uint_eq(sc.nlines, whole.nlines);
	ck_assert_msg(memcmp(sc.in_scalar, whole.in_scalar, sc.nlines) == 0,
		      "%s: lines inside scalars differ", what);
	ck_assert_str_eq(sc.eol, whole.eol);
	ck_assert(sc.final_newline == whole.final_newline);
	ck_assert_msg(sc.indent == whole.indent
		      && sc.compact_seqs == whole.compact_seqs
		      && sc.item_indent == whole.item_indent,
		      "%s: layout differs", what);
	for (size_t i = 0; i < sc.ndocs; i++) {
		ck_assert_uint_eq(sc.docs[i].start, whole.docs[i].start);
		ck_assert(sc.docs[i].explicit_start
			  == whole.docs[i].explicit_start);
		ck_assert(!sc.docs[i].indexed);
	}
	for (size_t n = 0; n < 2 * sc.ndocs; n++) {
		size_t d = n < sc.ndocs ? sc.ndocs - 1 - n : n - sc.ndocs;

		ck_assert_msg(wg_pos_index_doc(&sc, d) == 0,
			      "%s: document %zu alone does not index", what, d);
		same_nodes(&whole, sc.docs[d].root, whole.docs[d].root, what);
		for (size_t o = 0; o < sc.ndocs; o++)	/* one at a time */
			ck_assert(sc.docs[o].indexed == (o == d));
	}
	{
		size_t replayed = sc.replayed;	/* counted below alone */

		for (size_t d = 0; d < sc.ndocs; d++)
			stubs_agree(&sc, &whole, d,
				    d < nroots ? roots[d] : NULL, what);
		sc.replayed = replayed;
	}
	for (size_t n = 0; n < 2 * sc.ndocs; n++) {
		size_t d = n < sc.ndocs ? sc.ndocs - 1 - n : n - sc.ndocs;
		const struct wg_node *tree = d < nroots ? roots[d] : NULL;
		size_t before = sc.replayed;

		sc.docs[d].indexed = false;	/* built again, from records */
		ck_assert_msg(wg_pos_index_doc_tree(&sc, d, tree) == 0,
			      "%s: document %zu does not index from its tree",
			      what, d);
		/* a recorded document always replays: tree and records are
		 * one event for one (with shared keys, one whose key has
		 * another source is parsed: the callers count) */
		ck_assert_msg(sc.replayed == before + (tree && sc.docs[d].recorded
							? 1 : 0)
			      || (sharing && sc.replayed == before),
			      "%s: document %zu was parsed again, not "
			      "replayed", what, d);
		same_nodes(&whole, sc.docs[d].root, whole.docs[d].root, what);
	}
	replayed_docs += sc.replayed;
	free(roots);
	wg_pos_index_release(&sc);
	wg_pos_index_release(&whole);
	wg_arena_release(&own);
	wg_ctx_release(&ctx);
	return true;
}

static bool scan_agrees_text(const char *text)
{
	struct wg_input in;
	bool ok;

	t_input(&in, "t.yaml", text);
	ok = scan_agrees(&in, text);
	wg_input_release(&in);
	return ok;
}

START_TEST(scan_and_documents_match_the_whole_index)
{
	static const char *const texts[] = {
		"a: 1\n",
		"a: 1",
		"\xef\xbb\xbf" "a: 1\r\nb: [x]\r\n---\r\nc:\r\n  - d\r\n",
		"# c\na: &x {b: 1}\n--- # two\nc: &y [z]\ne: *y\nm:\n"
		"  <<: {d: 1}\n---\n---\n",
		"  a: 1\n  b:\n    - c\n---\nd: 2\n",
		"a: |+\n  keep\n\n\n---\nb: >-\n  folded\n  text\n...\n"
		"---\nc: 3\n...\n",
		"%YAML 1.1\n---\na: !!str 1\n...\n%TAG ! tag:x,2000:\n"
		"--- !t\nb: 2\n",
		"a:\n    b:\n        - x\n        -   k: 1\n            l: 2\n"
		"---\nm:\n- n: 1\n  o: 2\n",
		"l:\n-\n- b\n-   # x\n  k: 1\n- [1, 2]\n- {a: b}\n",
		"a: \"qé\"  # ü\nb:\n  c: ü-ß\n  d: [1, {e: é}]\nf: x\n"
		"---\ng: 'multi\n  line'\nh: \"also\n  here\"\n",
		"a: 1\rb: 2\r---\rc: 3\r",
		"---\n",
		"--- a\n--- b\n",
		"k: v\n# comment\n---\n# only a comment\n---\nx: y\n",
		"a: {b: [1, 2], c: {}}\nd: []\ne: \"x\"\nf: |\n  l1\n  l2\n"
		"g:\n- {h: 'i'}\n- >\n  j\n",
		"k: \"\u00e9\u00e9\u00e9 long line past the column that "
		"saturates in the tree, which holds 255 at most there: "
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxx\" \nl: {m: n, o: [p, q]}\n",
		/* the layout voted with no nodes: mapping items four
		 * columns past their dash; collections anchored on their
		 * key's line are not counted, the one below it is */
		"l:\n-   a: 1\n    b: 2\n-   c: 3\n- x\n-   [y]\n",
		"x: &a\n    b: 1\ny: &c\n    d: 2\nz: &e\n    - f\n"
		"w:\n    v: 1\n",
	};

	replayed_docs = 0;
	stub_docs = 0;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++)
		ck_assert_msg(scan_agrees_text(texts[i]), "text %zu does not "
			      "read", i);
	/* the plain ones were built from records, not parsed again */
	ck_assert_uint_eq(replayed_docs, 2 * 27);	/* 27 documents, twice */
	/* and those with a collection below the root, with stubs too */
	ck_assert_uint_ge(stub_docs, 10);
}
END_TEST

/* scan_agrees_text() with keys shared through a list of the text's own
 * (the keys point into the text); *nkeys: how many were shared. */
static bool shared_agrees(const char *text, size_t *nkeys)
{
	struct wg_resources list;
	bool ok;

	wg_resources_init(&list);
	list.share_keys = true;
	sharing = &list;
	ok = scan_agrees_text(text);
	sharing = NULL;
	*nkeys += list.nkeys;
	wg_resources_release(&list);
	return ok;
}

/*
 * Shared keys (build's and migrate's reader) have no place of their own:
 * a key's start is its recorded end less its source, taken only where the
 * text can have no other source (printable ASCII, nothing to escape).  The
 * nodes must be the parse's either way; the other keys send their document
 * to the parse.
 */
START_TEST(shared_keys_replay_from_their_ends)
{
	static const char *const replayed[] = {
		"a: 1\nbb:\n  'c d': [x]\n  \"e\": {f: g}\n",
		"l:\n- k: 1\n  \"m n\": 2\n---\nk: 3\nl: {k: 4}\n",
		"p: \"\u00e9\u00e9\"\nq:\n  r: \u00e9\n",	/* é a value */
		"m: {x: \"\u00e9\u00e9\", k: 2, 'l': 3}\n",	/* a wide line */
		/* keys read 8 bytes at a time: '~' (0x7e) and ' ' are in */
		"app.kubernetes.io/part-of~x y: 1\nshort: 2\n",
	};
	static const size_t docs[] = { 1, 2, 1, 1, 1 };
	static const char *const parsed[] = {
		"\"a\\tb\": 1\n",		/* an escape */
		"'it''s': 1\n",		/* a quote written twice */
		"caf\u00e9: 1\n",		/* not ASCII */
		"caf\u00e9-and-a-longer-name: 1\n",	/* in the first 8 */
		"a-longer-name-caf\u00e9: 1\n",	/* in the third 8 */
		"? a\n  b\n: 1\n",		/* a plain key on two lines */
	};
	size_t before, nkeys = 0;

	for (size_t i = 0; i < sizeof(replayed) / sizeof(*replayed); i++) {
		before = replayed_docs;
		ck_assert_msg(shared_agrees(replayed[i], &nkeys), "text %zu "
			      "does not read", i);
		/* every document, twice (scan_agrees) */
		ck_assert_msg(replayed_docs == before + 2 * docs[i], "text %zu "
			      "was parsed again, not replayed", i);
	}
	for (size_t i = 0; i < sizeof(parsed) / sizeof(*parsed); i++) {
		before = replayed_docs;
		ck_assert_msg(shared_agrees(parsed[i], &nkeys), "text %zu does "
			      "not read", i);
		ck_assert_msg(replayed_docs == before, "text %zu was replayed",
			      i);
	}
	ck_assert_uint_gt(nkeys, 10);	/* the keys were shared */
}
END_TEST

/* A document with an alias, an anchor, a tag or a "<<" key is not
 * recorded (its tree is not one node an event); the others are. */
START_TEST(scan_records_documents_that_match_their_tree)
{
	static const char text[] = "a: &x 1\nb: *x\n---\nc: !t 1\n---\n"
				   "d:\n  <<: {e: 1}\n---\nf: [g]\n---\n"
				   "h: &y {i: j}\n";
	static const bool recorded[] = { false, false, false, true, false };
	struct wg_input in;
	struct wg_pos_index sc;
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_ctx ctx;

	t_input(&in, "t.yaml", text);
	ck_assert_int_eq(scan_input(&in, &ctx, &arena, &sc, NULL, NULL), 0);
	ck_assert_uint_eq(sc.ndocs, 5);
	for (size_t d = 0; d < sc.ndocs; d++)
		ck_assert_msg(sc.docs[d].recorded == recorded[d],
			      "document %zu", d);
	/* only document 3 holds end offsets: its scalar and flow seq */
	ck_assert_uint_eq(sc.docs[3].rec_end - sc.docs[3].rec_first, 3);
	ck_assert_uint_eq(sc.nends, 3);
	wg_pos_index_release(&sc);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	wg_input_release(&in);
}
END_TEST

/*
 * Ends are 2-byte distances; one of WG_POS_END_FAR or more is in far.  A
 * document that stops being recorded (an anchor) takes its far ends back
 * with its ends, and the replays of the others read the right ones.
 */
START_TEST(far_ends_replay_as_the_parse)
{
	enum { LONG = 70000 };	/* past a 2-byte distance */
	struct wg_buf t = WG_BUF_INIT;
	struct wg_input in;
	struct wg_pos_index sc;
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_ctx ctx;

	wg_buf_addstr(&t, "a: 1\nb: ");
	for (size_t i = 0; i < LONG; i++)
		wg_buf_addch(&t, 'x');
	wg_buf_addstr(&t, "\nc: [d, e]\n---\nf: ");
	for (size_t i = 0; i < LONG; i++)
		wg_buf_addch(&t, 'y');
	wg_buf_addstr(&t, "\ng: &z 1\nh: *z\n---\n");
	for (size_t i = 0; i < LONG; i++)
		wg_buf_addch(&t, i % 2 ? '\n' : ' ');	/* a far first end */
	wg_buf_addstr(&t, "i: \"");
	for (size_t i = 0; i < 2 * LONG; i++)
		wg_buf_addch(&t, 'w');
	wg_buf_addstr(&t, "\"\nj: k\n");
	ck_assert(scan_agrees_text(t.buf));

	t_input(&in, "t.yaml", t.buf);
	ck_assert_int_eq(scan_input(&in, &ctx, &arena, &sc, NULL, NULL), 0);
	ck_assert_uint_eq(sc.ndocs, 3);
	ck_assert(sc.docs[0].recorded && !sc.docs[1].recorded
		  && sc.docs[2].recorded);
	/* b's value; i's key (the first end, past the blank lines) and
	 * value; document 1's went with it */
	ck_assert_uint_eq(sc.nfar, 3);
	ck_assert_uint_eq(sc.docs[0].far_first, 0);
	ck_assert_uint_eq(sc.docs[2].far_first, 1);
	ck_assert_uint_eq(sc.far[0], 8 + LONG);
	ck_assert_uint_eq(sc.ends[sc.docs[0].rec_first + 3], WG_POS_END_FAR);
	ck_assert_uint_eq(sc.ends[sc.docs[0].rec_first + 4], 2);	/* c */
	ck_assert_uint_eq(sc.docs[2].rec_end - sc.docs[2].rec_first, 4);
	wg_pos_index_release(&sc);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	wg_input_release(&in);
	wg_buf_release(&t);
}
END_TEST

static void corpus_file_agrees(const char *path, const struct wg_input *in,
			       void *data)
{
	if (scan_agrees(in, path))
		(*(size_t *)data)++;
}

START_TEST(scan_matches_on_the_corpus)
{
	size_t agreed = 0, files;

	replayed_docs = 0;
	stub_docs = 0;
	files = t_each_corpus_file(corpus_file_agrees, &agreed);
	/* most of the corpus reads (a few files are broken on purpose) */
	ck_assert_uint_ge(agreed * 2, files);
	ck_assert_uint_ge(replayed_docs, agreed);
	ck_assert_uint_ge(stub_docs, agreed);
}
END_TEST

START_TEST(document_that_moved_is_refused)
{
	struct wg_input in;
	struct wg_pos_index sc;
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_ctx ctx;

	t_input(&in, "t.yaml", "a: 1\n---\nb:\n  c: 2\n---\nd: 3\n");
	ck_assert_int_eq(scan_input(&in, &ctx, &arena, &sc, NULL, NULL), 0);
	ck_assert_uint_eq(sc.ndocs, 3);
	ck_assert_int_eq(wg_pos_index_doc(&sc, 1), 0);
	ck_assert_uint_eq(sc.docs[1].root->len, 1);
	ck_assert_uint_eq(sc.docs[1].root->line, 2);
	/* a start the text does not hold there: its text alone is another
	 * document, and that is refused, not indexed */
	sc.docs[2].start = sc.docs[1].start + 4;	/* "  c: 2" */
	ck_assert_int_eq(wg_pos_index_doc(&sc, 1), 0);	/* built already */
	ck_assert_int_eq(wg_pos_index_doc(&sc, 2), -1);
	ck_assert(!sc.docs[2].indexed);
	sc.docs[2].start = sc.docs[1].start + 1;	/* mid-line */
	ck_assert_int_eq(wg_pos_index_doc(&sc, 1), -1);
	ck_assert_int_eq(wg_pos_index_doc(&sc, 7), -1);
	wg_pos_index_release(&sc);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	wg_input_release(&in);
}
END_TEST

START_TEST(json_stream_is_not_scanned)
{
	struct wg_input in;

	t_input(&in, "t.json", "{\"a\": 1}\n{\"b\": 2}\n");
	ck_assert(!scan_agrees(&in, "json"));
	wg_input_release(&in);
}
END_TEST

/* Feeds a parse of text to a scan of pi over text (len bytes told). */
static int scan_with(struct wg_pos_index *pi, const char *text, size_t len,
		     struct wg_arena *keep)
{
	struct wg_pos_scan *scan = wg_pos_scan_start(pi, text, len);
	yaml_parser_t p;
	bool done = false;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text,
				     strlen(text));
	while (!done) {
		yaml_event_t e;

		ck_assert(yaml_parser_parse(&p, &e));
		done = e.type == YAML_STREAM_END_EVENT;
		wg_pos_scan_event(scan, &e);
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	return wg_pos_scan_finish(scan, keep);
}

/* Offsets are 32-bit: a longer text is refused, by the whole index and
 * by the scan (whose events it then ignores), and never read. */
START_TEST(text_of_4_gib_is_refused)
{
	static const char text[] = "a: 1\nb: [x, y]\n";
	struct wg_pos_index pi;
	const char *err = NULL;
	size_t line = 7;

	ck_assert_int_eq(wg_pos_index_build(&pi, text, WG_POS_MAX_TEXT + 1,
					    &err, &line), -1);
	ck_assert_ptr_nonnull(strstr(err, "4 GiB"));
	ck_assert_uint_eq(line, 0);
	wg_pos_index_release(&pi);
	ck_assert_int_eq(scan_with(&pi, text, WG_POS_MAX_TEXT + 1, NULL), -1);
	ck_assert_uint_eq(pi.nlines, 0);
	ck_assert_uint_eq(pi.ndocs, 0);
	wg_pos_index_release(&pi);
}
END_TEST

/* A scan's arrays moved into a caller's arena are the same arrays, and
 * releasing the index leaves them to the arena. */
START_TEST(scan_kept_in_an_arena_is_the_same_index)
{
	static const char text[] = "---\na: 1\nb: |\n  x\n  y\nc: [1, 2]\n"
				   "---\nd: \"\xc3\xa9\"\n";
	struct wg_pos_index heap, kept;
	struct wg_arena keep;

	wg_arena_init(&keep);
	ck_assert_int_eq(scan_with(&heap, text, strlen(text), NULL), 0);
	ck_assert_int_eq(scan_with(&kept, text, strlen(text), &keep), 0);
	ck_assert_uint_eq(heap.on_heap, WG_POS_HEAP_ALL);
	ck_assert_uint_eq(kept.on_heap, 0);
	ck_assert_uint_eq(kept.nlines, heap.nlines);
	ck_assert_uint_eq(kept.ndocs, 2);
	ck_assert_uint_eq(kept.ndocs, heap.ndocs);
	ck_assert_uint_eq(kept.nends, heap.nends);
	ck_assert_mem_eq(kept.lines, heap.lines,
			 heap.nlines * sizeof(*heap.lines));
	ck_assert_mem_eq(kept.in_scalar, heap.in_scalar, heap.nlines);
	ck_assert_mem_eq(kept.ends, heap.ends,
			 heap.nends * sizeof(*heap.ends));
	ck_assert_uint_eq(kept.nfar, heap.nfar);
	for (size_t d = 0; d < heap.ndocs; d++)
		ck_assert_uint_eq(kept.docs[d].start, heap.docs[d].start);
	/* the block scalar's second line, the wide last line */
	ck_assert(kept.in_scalar[4]);
	ck_assert(wg_pos_line_wide(&kept, 7));
	ck_assert(!wg_pos_line_wide(&kept, 1));
	wg_pos_index_release(&heap);
	wg_pos_index_release(&kept);
	wg_arena_release(&keep);	/* the kept arrays go here */
}
END_TEST

/* A large file's arrays stay on the heap, cut to size, and the index
 * frees them; its small ones still go to the arena (ASan and valgrind
 * catch a double free or a leak either way). */
START_TEST(scan_keeps_a_large_array_on_the_heap)
{
	enum { ITEMS = 140000 };	/* 2-byte ends: over WG_POS_KEEP_MAX */
	struct wg_pos_index pi;
	struct wg_arena keep;
	char *text = malloc(4 * ITEMS + 1);

	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < ITEMS; i++)
		memcpy(text + 4 * i, "- 1\n", 4);
	text[4 * ITEMS] = '\0';
	wg_arena_init(&keep);
	ck_assert_int_eq(scan_with(&pi, text, 4 * ITEMS, &keep), 0);
	ck_assert_uint_eq(pi.nlines, ITEMS + 1);
	ck_assert_uint_eq(pi.nends, ITEMS);
	ck_assert_uint_eq(pi.ends_cap, ITEMS);
	ck_assert_uint_eq(pi.on_heap, WG_POS_HEAP_LINES | WG_POS_HEAP_ENDS);
	ck_assert_uint_eq(pi.lines[ITEMS - 1], 4 * (ITEMS - 1));
	/* "- 1" ends at 3, and each item 4 bytes after the one before */
	ck_assert_uint_eq(pi.ends[0], 3);
	ck_assert_uint_eq(pi.ends[ITEMS - 1], 4);
	ck_assert_uint_eq(pi.nfar, 0);
	ck_assert(!pi.in_scalar[ITEMS - 1]);
	ck_assert_uint_eq(pi.docs[0].start, 0);
	wg_pos_index_release(&pi);
	wg_arena_release(&keep);
	free(text);
}
END_TEST

/* A hint only saves the search: any hint, right or wrong or past the
 * last line, gives the line the search gives. */
START_TEST(line_near_is_line_of_whatever_the_hint)
{
	static const char text[] = "a: 1\nbb: 2\n\nc: |\n  x\n  y\nd: e";
	struct wg_pos_index pi;
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&pi, text, strlen(text), &err,
					    &line), 0);
	ck_assert_uint_eq(pi.nlines, 7);
	for (size_t off = 0; off <= pi.len; off++)
		for (size_t hint = 0; hint <= pi.nlines + 1; hint++)
			ck_assert_uint_eq(wg_pos_line_near(&pi, off, hint),
					  wg_pos_line_of(&pi, off));
	ck_assert_uint_eq(wg_pos_line_near(&pi, 5, 0), 1);	/* "bb" */
	ck_assert_uint_eq(wg_pos_line_near(&pi, pi.len, 0), 6);
	wg_pos_index_release(&pi);
}
END_TEST

/* An ASCII text with LF breaks takes memchr's path; one wide character
 * sends the same text to the byte loop, and the lines are the same. */
START_TEST(ascii_lines_are_the_byte_loops_lines)
{
	static const char ascii[] = "a: 1\n\nb: 2 # \t\nl:\n  - c\n\n\n"
				    "d: [e,\n  f]\ng: h  ";
	static const char wide[] = "a: 1\n\nb: 2 # \t\nl:\n  - c\n\n\n"
				   "d: [e,\n  f]\ng: h  #\xc3\xa9";
	struct wg_pos_index fast, slow;
	const char *err = NULL;
	size_t line = 0;

	ck_assert_int_eq(wg_pos_index_build(&fast, ascii, strlen(ascii), &err,
					    &line), 0);
	ck_assert_int_eq(wg_pos_index_build(&slow, wide, strlen(wide), &err,
					    &line), 0);
	ck_assert_uint_eq(fast.nlines, 10);
	ck_assert_uint_eq(slow.nlines, fast.nlines);
	ck_assert_mem_eq(fast.lines, slow.lines,
			 fast.nlines * sizeof(*fast.lines));
	ck_assert_ptr_null(fast.wide);
	ck_assert(wg_pos_line_wide(&slow, 9) && !wg_pos_line_wide(&slow, 8));
	ck_assert(!fast.final_newline && !slow.final_newline);
	ck_assert_str_eq(fast.eol, "\n");
	wg_pos_index_release(&fast);
	wg_pos_index_release(&slow);
}
END_TEST

/* An all-ASCII text has no table of wide lines at all. */
START_TEST(ascii_text_has_no_wide_table)
{
	static const char text[] = "a: 1\nb: x\n";
	struct wg_pos_index pi;
	const char *err;
	size_t line;

	ck_assert_int_eq(wg_pos_index_build(&pi, text, strlen(text), &err,
					    &line), 0);
	ck_assert_ptr_null(pi.wide);
	ck_assert(!wg_pos_line_wide(&pi, 0));
	ck_assert_uint_eq(wg_pos_offset(&pi, 1, 3), 8);
	wg_pos_index_release(&pi);
}
END_TEST

static Suite *posindex_suite(void)
{
	Suite *s = suite_create("posindex");
	TCase *tc = tcase_create("index");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, spans_are_bytes_not_characters);
	tcase_add_test(tc, scan_keeps_a_large_array_on_the_heap);
	tcase_add_test(tc, crlf_bom_and_final_newline);
	tcase_add_test(tc, empty_values_sit_after_their_indicator);
	tcase_add_test(tc, comment_lines_exclude_scalar_content);
	tcase_add_test(tc, layout_is_detected);
	tcase_add_test(tc, documents_and_flags);
	tcase_add_test(tc, tree_nodes_map_to_positions);
	tcase_add_test(tc, parse_errors_are_reported);
	tcase_add_test(tc, offsets_from_marks);
	tcase_add_test(tc, scan_and_documents_match_the_whole_index);
	tcase_add_test(tc, scan_matches_on_the_corpus);
	tcase_add_test(tc, scan_records_documents_that_match_their_tree);
	tcase_add_test(tc, far_ends_replay_as_the_parse);
	tcase_add_test(tc, line_near_is_line_of_whatever_the_hint);
	tcase_add_test(tc, ascii_lines_are_the_byte_loops_lines);
	tcase_add_test(tc, shared_keys_replay_from_their_ends);
	tcase_add_test(tc, document_that_moved_is_refused);
	tcase_add_test(tc, json_stream_is_not_scanned);
	tcase_add_test(tc, text_of_4_gib_is_refused);
	tcase_add_test(tc, scan_kept_in_an_arena_is_the_same_index);
	tcase_add_test(tc, ascii_text_has_no_wide_table);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(posindex_suite)
