/*
 * The JSON reader (yaml/json_reader.h) against the YAML reader: every
 * corpus file converted to JSON (compact, indented with spaces, with
 * tabs and CR LF, with CR alone; one value a document and all of a
 * file's documents as one JSON stream) and the webhook's test pods as
 * written and inside a review are read into the same trees, node for
 * node, positions included; texts both refuse, texts only YAML
 * reads, the limits, and the one known difference.
 */
#include <ftw.h>
#include <string.h>

#include "../tools/jsondiff.h"
#include "testutil.h"
#include "wingen/yaml/json_reader.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/scalar.h"
#include "wingen/yaml/writer.h"

static void input_of(struct wg_input *in, const char *text, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->name = strdup("test.json");
	in->data = malloc(len + 1);
	memcpy(in->data, text, len);
	in->data[len] = '\0';
	in->len = len;
}

static struct jd_result compare_n(const char *text, size_t len,
				  const struct wg_limits *limits)
{
	struct wg_input in;
	struct jd_result res;

	input_of(&in, text, len);
	jd_compare(&in, limits, &res);
	wg_input_release(&in);
	return res;
}

static struct jd_result compare(const char *text)
{
	return compare_n(text, strlen(text), NULL);
}

/* Both read it, into the same trees. */
static void agree(const char *text, size_t docs)
{
	struct jd_result r = compare(text);

	ck_assert_msg(r.same && r.json_ok, "'%s': %s %s", text, r.why,
		      r.json_error);
	ck_assert_uint_eq(r.json_docs, docs);
}

/* Both refuse it; the JSON reader's message has what, and is the YAML
 * reader's, position included, when that one says what too. */
static void both_refuse(const char *text, size_t len, const char *what)
{
	struct jd_result r = compare_n(text, len, NULL);

	ck_assert_msg(r.same && !r.json_ok && !r.yaml_ok, "'%s': %s", text,
		      r.why);
	ck_assert_msg(strstr(r.json_error, what), "'%s': message '%s' lacks "
		      "'%s'", text, r.json_error, what);
	/* where both name the same fault (encoding, tab, duplicate key),
	 * the same message at the same line and column */
	if (strstr(r.yaml_error, what))
		ck_assert_str_eq(r.json_error, r.yaml_error);
}

START_TEST(test_reads_as_yaml_does)
{
	static const char *const one[] = {
		"{}", "[]", "5", "-0.5e+10", "\"abc\"", "\"\"", "null",
		"true", "{\"a\":{\"b\":[{\"c\":null}],\"d\":false}}",
		"{\"a\":\"x\\/y\"}", "{\"a\":\"x\\u0000y\"}",
		"{\"a\":\"\\\"\\\\\\b\\f\\n\\r\\t\\u00e9\\u2028\"}",
		"{\"a\":\n1}", "{\"a\":1}\t", "{\t\"a\":\t1}",
		"{\"a\":1,\r\n\"b\":2}\r\n", "{\"a\":1,\r\"b\":[\r2]}\r",
		"{\n\"a\":\n1,\n\"b\":[\n1\n]\n}", "{\"a\" : 1}",
		"  \n {\"a\":1}  \n\n", "5\n\t", "\"a\"\t", "true\n\t",
		"[1]\n  \n", "\r\n {}", "\xef\xbb\xbf{\"a\":[1]}",
		"{\"\xc3\xa9\":\"\xc3\xbc\xf0\x9f\x98\x80\",\"k\":[1,"
		"\"\xe6\x97\xa5\xe6\x9c\xac\"]}",
		"{\"\xc3\xa9\xc3\xa9\":\n  [\"\xe6\x97\xa5\", {\"x\": 1}],\n"
		"  \"b\": \"\xf0\x9f\x98\x80\" }",
		"[1, -2, 3.5, 1e9, 1E-2, -0]",
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(*one); i++)
		agree(one[i], 1);
	agree("", 0);
	agree("  \n\r\n ", 0);
	agree("{\"a\":1}{\"b\":2}", 2);
	agree("[1,2]\n[3]\n  {\"a\":\n1}", 3);
	agree("{}\n{}\n\t", 2);
	agree("{\"a\":1}\r{\"b\":\r2}", 2);
}
END_TEST

START_TEST(test_refuses_as_yaml_does)
{
	both_refuse("{\"a\":\"\\ud83d\\ude00\"}", 20, "surrogate");
	both_refuse("{\"a\":\"\\udc00\"}", 14, "surrogate");
	both_refuse("{\"a\"\n:1}", 8, "later line");
	both_refuse("\t{\"a\":1}", 8, "tab");
	both_refuse("{\"a\":1}\n\t", 9, "tab");
	both_refuse("{\"a\":1}\n\t\n", 10, "tab");
	both_refuse("\"a\"\n\t", 5, "tab");
	both_refuse("{} \t{}", 6, "tab");
	both_refuse("{}\n\t{}", 6, "tab");
	both_refuse("\t{}\n{}", 6, "tab");
	both_refuse("{\"a\":\"x\x7fy\"}", 12, "control characters");
	both_refuse("{\"a\":\"x\xc2\x80y\"}", 13, "control characters");
	both_refuse("{\"a\":\"x\xef\xbf\xbey\"}", 14, "control characters");
	both_refuse("{\"a\":\"x\0y\"}", 11, "control characters");
	both_refuse("{\"a\":\"\xc0\xaf\"}", 10, "length");
	both_refuse("{\"a\":\"\xed\xa0\x80\"}", 11, "Unicode");
	both_refuse("{\"a\":\"\xe6\x97\"}", 10, "trailing");
	both_refuse("{\"a\":1} 5", 9, "second JSON value");
	both_refuse("{\"a\":1,\"b\":2,\"a\":3}", 19, "duplicate mapping key 'a'");
	both_refuse("{\"a\":1", 6, "not JSON");
	both_refuse("\xff\xfe{", 3, "UTF-16");
	/* found by fuzz/json: a separator at the top, which the reader's
	 * skip between tokens had passed over, and a last value yajl
	 * dropped unfinished (an unclosed string) while saying ok */
	both_refuse(":", 1, "not JSON");
	both_refuse("{} ,", 4, "not JSON");
	both_refuse("{\"a\":1} \"b", 10, "not JSON");
}
END_TEST

/* A key of n characters before its ':': YAML's 1024 from the key's
 * start to the ':', escapes counted as written. */
START_TEST(test_long_keys)
{
	char text[4096];
	struct jd_result r;

	for (int n = 1018; n <= 1026; n++) {
		snprintf(text, sizeof(text), "{\"%0*d\":1}", n, 0);
		r = compare(text);
		ck_assert_msg(r.same, "key of %d: %s", n, r.why);
		ck_assert_int_eq(r.json_ok, n <= 1022);
	}
	/* the spaces before the ':' count */
	snprintf(text, sizeof(text), "{\"%0*d\"  :1}", 1020, 0);
	r = compare(text);
	ck_assert_msg(r.same && r.json_ok, "%s", r.why);
	snprintf(text, sizeof(text), "{\"%0*d\"   :1}", 1020, 0);
	r = compare(text);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	strcpy(text, "{\"");
	for (int i = 0; i < 200; i++)
		strcat(text, "\\u00e9");	/* 1200 characters written */
	strcat(text, "\":1}");
	r = compare(text);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	/* a long value is no key */
	snprintf(text, sizeof(text), "{\"a\":\"%0*d\"}", 3000, 0);
	r = compare(text);
	ck_assert_msg(r.same && r.json_ok, "%s", r.why);
}
END_TEST

/* Not JSON, read by YAML: the JSON reader refuses it. */
START_TEST(test_only_yaml)
{
	static const char *const texts[] = {
		"{a: 1}", "a: b", "{\"a\":'x'}", "{\"a\":\"x\ty\"}",
		"{}{} 5", "{\"a\":1,}", "[01]", "{\"a\":1} # c",
		"{\"a\":1,\n\xef\xbb\xbf\"b\":2}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		struct jd_result r = compare(texts[i]);

		ck_assert_msg(r.yaml_ok && !r.json_ok, "'%s': yaml %d (%s), "
			      "json %d", texts[i], r.yaml_ok, r.yaml_error,
			      r.json_ok);
	}
}
END_TEST

START_TEST(test_limits)
{
	struct wg_limits l;
	struct jd_result r;

	wg_limits_default(&l);
	l.max_depth = 3;
	r = compare_n("[[[1]]]", 7, &l);
	ck_assert_msg(r.same && r.json_ok, "%s", r.why);
	r = compare_n("[[[[1]]]]", 9, &l);
	ck_assert_msg(r.same && !r.json_ok && strstr(r.json_error, "nesting"),
		      "%s %s", r.why, r.json_error);
	wg_limits_default(&l);
	l.max_scalar_bytes = 4;
	r = compare_n("[\"1234\",1234]", 13, &l);
	ck_assert_msg(r.same && r.json_ok, "%s", r.why);
	r = compare_n("[\"12345\"]", 9, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	r = compare_n("[12345]", 7, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	wg_limits_default(&l);
	l.max_doc_bytes = 10;
	r = compare_n("{\"a\":\"1234\"}", 12, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	/* one value: its document runs to the end of the text */
	r = compare_n("{\"a\":1}   ", 10, &l);
	ck_assert_msg(r.same && r.json_ok, "%s", r.why);
	r = compare_n("{\"a\":1}    ", 11, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	/* a stream longer than the limit: the YAML reader measures it
	 * whole (no "---" in it) before reading */
	r = compare_n("{\"a\":1}    \n{\"b\":2}  ", 21, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
	wg_limits_default(&l);
	l.max_documents = 1;
	r = compare_n("{}{}", 4, &l);
	ck_assert_msg(r.same && !r.json_ok, "%s", r.why);
}
END_TEST

/* The one known difference: a raw NEL, U+2028 or U+2029 in a string is
 * the character JSON says (libyaml folds the string there). */
START_TEST(test_line_separators_kept)
{
	static const char *const texts[] = {
		"{\"a\":\"x\xc2\x85y\"}", "{\"a\":\"x\xe2\x80\xa8y\"}",
		"{\"a\":\"x \xe2\x80\xa9 y\"}",
	};

	for (size_t i = 0; i < 3; i++) {
		struct wg_ctx ctx;
		struct wg_arena arena;
		struct wg_input in;
		struct wg_node **roots;
		const struct wg_node *v;
		const char *s = strchr(texts[i], 'x');

		wg_ctx_init(&ctx);
		wg_arena_init(&arena);
		input_of(&in, texts[i], strlen(texts[i]));
		ck_assert_int_eq(wg_json_read(&ctx, &in, &arena, NULL, &roots),
				 1);
		v = wg_map_get(roots[0], "a");
		ck_assert_uint_eq(v->len, strlen(s) - 2);
		ck_assert(memcmp(v->u.str, s, v->len) == 0);
		wg_input_release(&in);
		wg_arena_release(&arena);
		wg_ctx_release(&ctx);
	}
}
END_TEST

/* The collection hook: depth and byte span of each. */
struct span {
	unsigned depth;
	size_t start, end;
	int n;
};

static void on_close(void *arg, const struct wg_node *node, unsigned depth,
		     size_t start, size_t end)
{
	struct span *s = arg;

	(void)node;
	if (depth == 2) {
		s->depth = depth;
		s->start = start;
		s->end = end;
		s->n++;
	}
}

START_TEST(test_close_hook)
{
	const char *text = "\xef\xbb\xbf {\"a\": 1, \"o\": { \"x\": [1] } }";
	struct span s = { 0 };
	struct wg_json_opts o = { on_close, &s, false };
	struct wg_ctx ctx;
	struct wg_arena arena;
	struct wg_input in;
	struct wg_node **roots;

	wg_ctx_init(&ctx);
	wg_arena_init(&arena);
	input_of(&in, text, strlen(text));
	ck_assert_int_eq(wg_json_read(&ctx, &in, &arena, &o, &roots), 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(s.end - s.start, strlen("{ \"x\": [1] }"));
	ck_assert(memcmp(text + s.start, "{ \"x\"", 5) == 0);
	wg_input_release(&in);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
}
END_TEST

/* int64_or_double: what a 64-bit decoder holds, and nothing else. */
static int read_numbers(const char *text)
{
	struct wg_json_opts o = { NULL, NULL, true };
	struct wg_ctx ctx;
	struct wg_arena arena;
	struct wg_input in;
	struct wg_node **roots;
	long n;

	wg_ctx_init(&ctx);
	wg_arena_init(&arena);
	input_of(&in, text, strlen(text));
	n = wg_json_read(&ctx, &in, &arena, &o, &roots);
	ck_assert_msg(n == 1 || (n == -1 && ctx.log.ndiags
				 && strstr(ctx.log.diags[0].message,
					   "out of range")), "%s: %ld", text, n);
	wg_input_release(&in);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	return n == 1;
}

START_TEST(test_int64_or_double)
{
	static const char *const fit[] = {
		"[0]", "[-0]", "[9223372036854775807]",
		"[-9223372036854775808]", "[922337203685477580]",
		"[1e308]", "[-1.7976931348623157e308]", "[1e-400]",
		"[0.000000000000000000000000000000000000000000000001]",
		"[123456789012345678901234567890.5]",
	};
	static const char *const beyond[] = {
		"[9223372036854775808]", "[-9223372036854775809]",
		"[10000000000000000000]", "[1e309]", "[-1E+400]",
		"{\"a\":[1,{\"b\":99999999999999999999999}]}",
	};

	for (size_t i = 0; i < sizeof(fit) / sizeof(*fit); i++)
		ck_assert_msg(read_numbers(fit[i]), "%s", fit[i]);
	for (size_t i = 0; i < sizeof(beyond) / sizeof(*beyond); i++)
		ck_assert_msg(!read_numbers(beyond[i]), "%s", beyond[i]);
	/* the YAML reader has no such rule, nor the JSON reader without it */
	ck_assert(compare("[1e309]").json_ok);
}
END_TEST

/* ---- the corpus, converted ----------------------------------------------- */

/* JSON of a tree with a line per member, indent a level deeper (tabs
 * when tab), lines ended with nl. */
static int pretty(struct wg_buf *o, const struct wg_node *n, unsigned depth,
		  bool tab, const char *nl)
{
	size_t len = n->kind == WG_NODE_SCALAR ? 0 : n->len;

	if (n->kind == WG_NODE_SCALAR)
		return wg_json_write_node(NULL, o, NULL, n);
	wg_buf_addch(o, n->kind == WG_NODE_MAP ? '{' : '[');
	for (size_t i = 0; i < len; i++) {
		wg_buf_addstr(o, i ? "," : "");
		wg_buf_addstr(o, nl);
		for (unsigned k = 0; k <= depth; k++)
			wg_buf_addstr(o, tab ? "\t" : "  ");
		if (n->kind == WG_NODE_MAP) {
			const struct wg_node *key = wg_map_key(n, i);

			wg_json_quote(o, key->u.str, key->len);
			wg_buf_addstr(o, ": ");
			if (pretty(o, wg_map_value(n, i), depth + 1, tab, nl))
				return -1;
		} else if (pretty(o, wg_seq_item(n, i), depth + 1, tab, nl)) {
			return -1;
		}
	}
	if (len) {
		wg_buf_addstr(o, nl);
		for (unsigned k = 0; k < depth; k++)
			wg_buf_addstr(o, tab ? "\t" : "  ");
	}
	wg_buf_addch(o, n->kind == WG_NODE_MAP ? '}' : ']');
	return 0;
}

struct tally {
	size_t files, texts, docs;
};

static void check_text(const char *path, const char *variant,
		       const struct wg_buf *b, size_t docs, struct tally *t)
{
	struct jd_result r = compare_n(b->buf, b->len, NULL);

	ck_assert_msg(r.same && r.json_ok, "%s (%s): %s %s", path, variant,
		      r.why, r.json_error);
	ck_assert_msg(r.json_docs == docs, "%s (%s): %zu documents of %zu",
		      path, variant, r.json_docs, docs);
	t->texts++;
}

static struct tally *corpus_tally;

static int each_file(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	static const struct { const char *name, *nl; bool tab, compact; }
	variants[] = {
		{ "compact", "\n", false, true },
		{ "indented", "\n", false, false },
		{ "tabs, CR LF", "\r\n", true, false },
		{ "CR", "\r", false, false },
	};
	size_t n = strlen(path);
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_arena arena;
	struct wg_reader r;
	struct wg_node *root, *roots[4096];
	size_t nroots = 0;
	unsigned index;

	(void)st, (void)ftw;
	if (type != FTW_F || !((n > 5 && !strcmp(path + n - 5, ".yaml"))
			       || (n > 4 && !strcmp(path + n - 4, ".yml"))
			       || (n > 5 && !strcmp(path + n - 5, ".json"))))
		return 0;
	wg_ctx_init(&ctx);
	wg_arena_init(&arena);
	if (wg_input_read(&ctx, path, &in) == 0) {
		if (n > 5 && !strcmp(path + n - 5, ".json")) {
			/* as written, and inside a review as the API
			 * server sends it */
			struct wg_buf raw = WG_BUF_INIT;

			wg_buf_add(&raw, in.data, in.len);
			check_text(path, "as written", &raw, 1, corpus_tally);
			wg_buf_reset(&raw);
			wg_buf_addstr(&raw, "{\"apiVersion\":\"admission.k8s.io/"
				      "v1\",\"kind\":\"AdmissionReview\","
				      "\"request\":{\"uid\":\"u\",\"object\":");
			wg_buf_add(&raw, in.data, in.len);
			wg_buf_addstr(&raw, ",\"oldObject\":null}}\n");
			check_text(path, "in a review", &raw, 1, corpus_tally);
			wg_buf_release(&raw);
		}
		wg_reader_init(&r, &ctx, &in);
		while (wg_reader_next(&r, &arena, &root, &index) > 0)
			if (nroots < 4096 && (wg_is_map(root)
					      || wg_is_seq(root)))
				roots[nroots++] = root;
		wg_reader_release(&r);
		/* a file YAML refuses (a test case's broken input) is
		 * taken as far as it reads */
		for (size_t v = 0; v < 4; v++) {
			struct wg_buf stream = WG_BUF_INIT;
			size_t ok = 0;

			for (size_t i = 0; i < nroots; i++) {
				struct wg_buf one = WG_BUF_INIT;
				int rc = variants[v].compact
					 ? wg_json_write_node(NULL, &one, NULL,
							      roots[i])
					 : pretty(&one, roots[i], 0,
						  variants[v].tab,
						  variants[v].nl);

				if (rc == 0) {
					check_text(path, variants[v].name,
						   &one, 1, corpus_tally);
					wg_buf_add(&stream, one.buf, one.len);
					wg_buf_addstr(&stream,
						      variants[v].nl);
					ok++;
				}
				wg_buf_release(&one);
			}
			if (ok > 1)
				check_text(path, variants[v].name, &stream, ok,
					   corpus_tally);
			corpus_tally->docs += ok;
			wg_buf_release(&stream);
		}
		wg_input_release(&in);
		corpus_tally->files++;
	}
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
	return 0;
}

START_TEST(test_corpus)
{
	static const char *const dirs[] = { WG_CORPUS, WG_CORPUS "/../more" };
	struct tally t = { 0 };

	corpus_tally = &t;
	/* the webhook's test pods (JSON as the API server writes it) */
	nftw(WG_TEST_DATA "/serve", each_file, 16, FTW_PHYS);
	ck_assert_uint_ge(t.texts, 8);
	for (size_t i = 0; i < 2; i++)
		nftw(dirs[i], each_file, 16, FTW_PHYS);
	if (!t.files) {
		fprintf(stderr, "check_json_reader: SKIP the corpus: none at "
			"%s\n", WG_CORPUS);
		return;
	}
	fprintf(stderr, "check_json_reader: %zu corpus files, %zu documents "
		"in 4 forms, %zu texts read alike\n", t.files, t.docs / 4,
		t.texts);
	ck_assert_uint_gt(t.docs, 1000);
}
END_TEST

static Suite *json_reader_suite(void)
{
	Suite *s = suite_create("json_reader");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_reads_as_yaml_does);
	tcase_add_test(tc, test_refuses_as_yaml_does);
	tcase_add_test(tc, test_long_keys);
	tcase_add_test(tc, test_only_yaml);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_line_separators_kept);
	tcase_add_test(tc, test_close_hook);
	tcase_add_test(tc, test_int64_or_double);
	tcase_add_test(tc, test_corpus);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(json_reader_suite)
