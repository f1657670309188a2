#ifndef WINGEN_TESTS_JSONDIFF_H
#define WINGEN_TESTS_JSONDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"

/*
 * The JSON reader against the YAML reader (tests/unit/check_json_reader.c,
 * tests/fuzz/fuzz_json.c): one text read by both, under the same limits,
 * and what each made of it.
 */
struct jd_result {
	bool yaml_ok, json_ok;		/* read without an error */
	size_t yaml_docs, json_docs;
	bool same;	/* both read it into equal trees, or both refused */
	char why[1024];	/* when not same: the first difference */
	char yaml_error[200], json_error[200];	/* first messages */
};

/*
 * Reads in with wg_reader_next() (every document, none dropped) and with
 * wg_json_read(), each on a context of its own with limits (NULL: the
 * defaults), and compares: the documents one by one with
 * jd_same_tree().
 */
void jd_compare(const struct wg_input *in, const struct wg_limits *limits,
		struct jd_result *out);

/*
 * Whether two trees are the same node for node: kind, style, flags,
 * length, text, tag, line and column, children in order.  Else the first
 * difference in why.
 */
bool jd_same_tree(const struct wg_node *a, const struct wg_node *b,
		  char *why, size_t size);

#endif
