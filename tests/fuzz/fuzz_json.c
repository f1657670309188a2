/*
 * fuzz_json: the JSON reader (yaml/json_reader.h) against the YAML reader
 * (yaml/reader.h) on any text, under the default limits or (by the first
 * byte) small ones, so that both meet them:
 *
 *  - what the JSON reader reads, the YAML reader reads into the same
 *    trees, node for node (kind, style, flags, text, tag, line, column);
 *  - what the YAML reader refuses, the JSON reader refuses;
 *  - the JSON reader refuses what the YAML reader reads only when it is
 *    not JSON (yajl alone, with no callbacks, refuses it, or leaves an
 *    unfinished last value unread) or a stream with a value that is no
 *    object or array;
 *  - every refusal is an error with a position;
 *  - never a crash, a hang or a leak.
 * A text with a raw NEL, U+2028 or U+2029 is only read (no comparison):
 * libyaml takes them for line breaks, JSON for characters
 * (json_reader.h says so).
 */
#include <string.h>
#include <yajl/yajl_parse.h>

#include "../tools/jsondiff.h"
#include "fuzz_util.h"

static bool has_line_separator(const uint8_t *d, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if ((d[i] == 0xc2 && d[i + 1] == 0x85)
		    || (i + 2 < n && d[i] == 0xe2 && d[i + 1] == 0x80
			&& (d[i + 2] == 0xa8 || d[i + 2] == 0xa9)))
			return true;
	return false;
}

/* What yajl alone makes of the text: the values at the top, and whether
 * one of them is a scalar (a stream of those the JSON reader refuses,
 * json_reader.h, and YAML reads as something else). */
struct top {
	int depth;
	size_t values;
	bool scalar;
};

static int top_scalar(struct top *t)
{
	if (!t->depth) {
		t->values++;
		t->scalar = true;
	}
	return 1;
}

static int cb_null(void *t) { return top_scalar(t); }
static int cb_bool(void *t, int b) { (void)b; return top_scalar(t); }
static int cb_number(void *t, const char *s, size_t n)
{
	(void)s; (void)n;
	return top_scalar(t);
}
static int cb_string(void *t, const unsigned char *s, size_t n)
{
	(void)s; (void)n;
	return top_scalar(t);
}
static int cb_open(void *arg)
{
	struct top *t = arg;

	if (!t->depth++)
		t->values++;
	return 1;
}
static int cb_key(void *t, const unsigned char *s, size_t n)
{
	(void)t; (void)s; (void)n;
	return 1;
}
static int cb_close(void *arg)
{
	((struct top *)arg)->depth--;
	return 1;
}

/* yajl's own verdict: JSON values one after another, or not. */
static bool yajl_reads(const uint8_t *data, size_t size, struct top *t)
{
	static const yajl_callbacks cb = {
		cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
		cb_open, cb_key, cb_close, cb_open, cb_close,
	};
	yajl_handle h;
	bool ok;

	memset(t, 0, sizeof(*t));
	h = yajl_alloc(&cb, NULL, t);
	yajl_config(h, yajl_allow_multiple_values, 1);
	ok = yajl_parse(h, data, size) == yajl_status_ok
	     && yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_limits limits;
	struct wg_input in;
	struct jd_result r;
	struct top top;

	wg_limits_default(&limits);
	/* a first byte of 0x01-0x07 picks small limits (and is whitespace
	 * to neither reader: both refuse it, so skip it) */
	if (size && data[0] >= 1 && data[0] <= 7) {
		limits.max_depth = 2 + (data[0] & 3);
		limits.max_scalar_bytes = 4u << (data[0] & 3);
		limits.max_doc_bytes = 32u << (data[0] >> 1);
		limits.max_documents = 2 + (data[0] & 1);
		data++;
		size--;
	}
	fz_input(&in, "<fuzz>", data, size);
	jd_compare(&in, &limits, &r);
	wg_input_release(&in);
	if (has_line_separator(data, size))
		return 0;
	FZ_CHECK(r.json_ok || r.json_error[0], "the JSON reader failed "
		 "without an error");
	FZ_CHECK(!r.json_ok || r.same, "the readers differ: %s", r.why);
	FZ_CHECK(r.yaml_ok || !r.json_ok, "the YAML reader refuses what the "
		 "JSON reader reads: %s", r.yaml_error);
	FZ_CHECK(!r.yaml_ok || r.json_ok
		 || strstr(r.json_error, "second JSON value")
		 /* yajl alone says ok where it drops an unfinished last
		  * value (json_reader.c, all_read()) */
		 || strstr(r.json_error, "a value that does not end")
		 || !yajl_reads(data, size, &top)
		 || (top.values > 1 && top.scalar),
		 "the JSON reader refuses JSON the YAML reader reads: %s",
		 r.json_error);
	return 0;
}
