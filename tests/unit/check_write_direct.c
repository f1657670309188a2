/*
 * The direct writer (src/yaml/write_direct.c) writes the bytes libyaml's
 * emitter writes: compared document by document and as streams that mix
 * direct and emitter documents, on crafted texts, on random trees, and on
 * the real-world corpus; and it does write the documents it should (a
 * test that only ever fell back to the emitter would prove nothing).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/arena.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

/* Writes roots (NULL-free) with one writer; libyaml_only as asked.
 * Returns the text (malloc'd); *direct gets the writer's ndirect. */
static char *write_roots(const struct wg_node *const *roots, size_t n,
			 bool libyaml_only, unsigned *direct)
{
	struct wg_buf out = WG_BUF_INIT;
	struct wg_yaml_writer w;

	wg_yaml_writer_init(&w, &out);
	w.libyaml_only = libyaml_only;
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(wg_yaml_writer_doc(&w, roots[i]), 0);
	ck_assert_int_eq(wg_yaml_writer_finish(&w), 0);
	*direct = w.ndirect;
	wg_yaml_writer_release(&w);
	return wg_buf_detach(&out, NULL);
}

/* Both writers give the same bytes for roots; returns how many documents
 * went the direct way. */
static unsigned assert_same(const struct wg_node *const *roots, size_t n,
			    const char *what)
{
	unsigned direct, none;
	char *fast = write_roots(roots, n, false, &direct);
	char *slow = write_roots(roots, n, true, &none);

	ck_assert_uint_eq(none, 0);
	if (strcmp(fast, slow) != 0) {
		size_t at = 0;

		while (fast[at] == slow[at])
			at++;
		at = at > 60 ? at - 60 : 0;
		ck_abort_msg("%s: from byte %zu the direct writer wrote\n%s\n"
			     "and libyaml\n%s", what, at, fast + at, slow + at);
	}
	free(fast);
	free(slow);
	return direct;
}

/* The live roots of a list, in order. */
static size_t roots_of(const struct wg_resources *list,
		       const struct wg_node ***roots)
{
	size_t n = 0;

	*roots = calloc(list->len + 1, sizeof(**roots));
	for (size_t i = 0; i < list->len; i++)
		(*roots)[n++] = list->items[i]->root;
	return n;
}

/* Each document alone, and the whole stream at once; returns the direct
 * documents of the stream. */
static unsigned assert_text_same(const char *text, const char *what)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	const struct wg_node **roots;
	size_t n;
	unsigned direct;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_msg(t_read(&ctx, &in, text, &list) == 0, "%s: %s", what,
		      t_first_message(&ctx));
	n = roots_of(&list, &roots);
	for (size_t i = 0; i < n; i++)
		assert_same(roots + i, 1, what);
	direct = assert_same(roots, n, what);
	free(roots);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return direct;
}

/* Documents the direct writer takes, each a corner of the emitter's rules. */
static const char *const direct_docs[] = {
	"a: 1\nb: [ ]\nc: {}\nd: ''\ne: \"\"\nf:\ng: ~\n",
	"- a\n- - b\n  - c\n- k: v\n  l: w\n- []\n- {}\n- - - deep\n",
	"m:\n  n:\n  - x\n  - y: z\n    w:\n    - - v\n",
	/* plain texts the emitter must quote */
	"a: ': b'\nb: 'x: y'\nc: 'x #y'\nd: '- x'\ne: '-'\nf: '?'\ng: ':'\n"
	"h: '---x'\ni: '...'\nj: '#x'\nk: '&a'\nl: '*a'\nm: '!x'\nn: '|'\n"
	"o: '>'\np: \"'q'\"\nq: '\"'\nr: '%x'\ns: '@x'\nt: '`x'\nu: ' lead'\n"
	"v: 'trail '\nw: 'x:'\nx: '[a]'\ny: '{a}'\nz: 'a,b'\n",
	/* plain texts it keeps plain */
	"a: x:y\nb: x#y\nc: -x\nd: ?x\ne: a b  c\nf: a]b\ng: a?b\nh: http://x/y?q=1\n"
	"i: --x\nj: ..x\nk: 'a''b'\nl: \"a\\\\b\\\"c\"\nm: 'it''s'\n",
	/* keys */
	"'': empty\n~: null\n'a b': 1\n\"q\": 2\n'x: y': 3\n? |-\n  lit\n: 4\n",
	/* literal blocks: clip, strip, keep, leading space or break, blank
	 * lines, one break only */
	"a: |\n  line\n  two\nb: |-\n  strip\nc: |+\n  keep\n\nd: |2\n   lead\n"
	"e: |2\n\n  after break\nf: |\n  x\n\n  y\ng: |+\n\nh: last\n",
	"data:\n  script: |\n    #!/bin/sh\n    echo \"$X\" 'y'\n  k: v\n",
	"seq:\n- |\n  in seq\n- |-\n  strip\n- after\n",
	"last: |+\n  kept at the end\n\n",
	/* flow collections */
	"{flow: map, list: [x, y]}\n",
	"verbs: [\"get\", 'list', watch]\nempty: [[], {}, '', \"\", ~]\n"
	"m: {a: b, 'c d': e, '': x, n: {o: [p, {q: r}]}}\n"
	"q: [':', 'a, b', '[x]', '{y}', 'x?', '#', 'a #b', ' s', 'x:y', a-b]\n",
	"- [a, b]\n- {k: v}\n- [[nested], {}]\n",
	"---x: 1\n",
	/* a 128-byte key is simple */
	"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
	"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: v\n",
};

/* Documents it leaves to the emitter. */
static const char *const emitter_docs[] = {
	"plain root scalar\n",
	"a: [x, !t y]\n",
	"!custom a: 1\n",
	"a: !!str 0755\n",
	"a: >-\n  folded\n",
	"a: \"tab\\there\"\n",
	"a: caf\xc3\xa9\n",
	"a: 'multi\n\n  line'\n",
	"a: \"trailing space\\n \"\n",
	"a: |\n  trailing space \n",
	"? |-\n  two\n  lines\n: key\n",
	/* a 129-byte key is not simple */
	("kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
	 "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: v\n"),
	"k: |+\n  kept, then a tag\n\n!t x: 1\n",
};

START_TEST(crafted_documents)
{
	struct wg_buf all = WG_BUF_INIT;
	size_t nd = sizeof(direct_docs) / sizeof(*direct_docs);
	size_t ne = sizeof(emitter_docs) / sizeof(*emitter_docs);
	unsigned direct;

	for (size_t i = 0; i < nd; i++) {
		char what[32];

		snprintf(what, sizeof(what), "direct_docs[%zu]", i);
		ck_assert_msg(assert_text_same(direct_docs[i], what) == 1,
			      "%s was not written directly", what);
	}
	for (size_t i = 0; i < ne; i++) {
		char what[32];

		snprintf(what, sizeof(what), "emitter_docs[%zu]", i);
		ck_assert_msg(assert_text_same(emitter_docs[i], what) == 0,
			      "%s was written directly", what);
	}
	/* interleaved in one stream, both ways round: the "---" and the
	 * "..." after a kept block at the end follow whoever wrote last */
	for (size_t i = 0; i < nd || i < ne; i++) {
		if (i < nd)
			wg_buf_addf(&all, "---\n%s", direct_docs[i]);
		if (i < ne)
			wg_buf_addf(&all, "---\n%s", emitter_docs[i]);
	}
	direct = assert_text_same(all.buf, "interleaved");
	ck_assert_uint_eq(direct, nd);
	wg_buf_reset(&all);
	for (size_t i = 0; i < nd || i < ne; i++) {
		if (i < ne)
			wg_buf_addf(&all, "---\n%s", emitter_docs[i]);
		if (i < nd)
			wg_buf_addf(&all, "---\n%s", direct_docs[i]);
	}
	direct = assert_text_same(all.buf, "interleaved, emitter first");
	ck_assert_uint_eq(direct, nd);
	wg_buf_release(&all);
}
END_TEST

/* ---- random trees ------------------------------------------------------ */

static uint64_t rng = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A short text of the characters the emitter's rules are about. */
static struct wg_node *random_scalar(struct wg_arena *a)
{
	static const char alphabet[] = "ab0 :#-?'\"\\.,[]{}&*!|>%@`\n~x";
	char text[12];
	size_t len = rnd(8) == 0 ? 0 : 1 + rnd(sizeof(text) - 1);

	for (size_t i = 0; i < len; i++)
		text[i] = alphabet[rnd(sizeof(alphabet) - 1)];
	return wg_node_new_scalar(a, text, len, (enum wg_scalar_style)rnd(4));
}

static struct wg_node *random_node(struct wg_arena *a, int depth)
{
	unsigned kind = depth > 3 ? 0 : rnd(3);
	struct wg_node *n;
	unsigned items = rnd(4);

	if (kind == 0)
		return random_scalar(a);
	if (kind == 1) {
		n = wg_node_new_seq(a);
		for (unsigned i = 0; i < items; i++)
			wg_seq_append(a, n, random_node(a, depth + 1));
		if (rnd(3) == 0)
			n->flags |= WG_NODE_FLOW;
		return n;
	}
	n = wg_node_new_map(a);
	if (rnd(3) == 0)
		n->flags |= WG_NODE_FLOW;
	for (unsigned i = 0; i < items; i++) {
		struct wg_node *key = random_scalar(a);
		char text[16];

		memcpy(text, key->u.str, key->len);
		text[key->len] = '\0';
		wg_map_insert(a, n, n->len, text, random_node(a, depth + 1));
		n->u.items[2 * (n->len - 1)]->style = key->style;
	}
	return n;
}

START_TEST(random_trees)
{
	struct wg_arena arena;
	unsigned direct = 0;
	const struct wg_node *roots[8];

	wg_arena_init(&arena);
	for (int round = 0; round < 3000; round++) {
		size_t n = 1 + rnd(8);

		for (size_t i = 0; i < n; i++)
			roots[i] = random_node(&arena, rnd(2) ? 0 : 1);
		direct += assert_same(roots, n, "random stream");
	}
	/* random texts are often outside the subset, but not mostly */
	ck_assert_uint_gt(direct, 3000);
	wg_arena_release(&arena);
}
END_TEST

/* ---- the corpus --------------------------------------------------------- */

struct corpus_count {
	size_t files, docs, direct;
};

static void corpus_file(const char *path, const struct wg_input *in,
			void *data)
{
	struct corpus_count *c = data;
	struct wg_ctx ctx;
	struct wg_resources list;
	const struct wg_node **roots;
	size_t n;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	if (wg_read_stream(&ctx, in, &list) == 0) {
		n = roots_of(&list, &roots);
		c->direct += assert_same(roots, n, path);
		c->docs += n;
		c->files++;
		free(roots);
	}
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
}

START_TEST(corpus_files)
{
	struct corpus_count c = { 0, 0, 0 };

	if (!t_each_corpus_file(corpus_file, &c))
		return;
	ck_assert_uint_gt(c.files, 100);
	/* most real documents are within the subset */
	ck_assert_uint_gt(c.direct, c.docs / 2);
}
END_TEST

static Suite *write_direct_suite(void)
{
	Suite *s = suite_create("write_direct");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, crafted_documents);
	tcase_add_test(tc, random_trees);
	tcase_add_test(tc, corpus_files);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(write_direct_suite)
