#include "wingen/base/regex.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"

static const char *error_text(struct wg_arena *arena, int code)
{
	PCRE2_UCHAR msg[256];

	if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0)
		return wg_arena_printf(arena, "PCRE2 error %d", code);
	return wg_arena_strdup(arena, (const char *)msg);
}

int wg_regex_compile(struct wg_regex *re, const char *pattern, bool anchored,
		     uint32_t match_limit, uint32_t depth_limit,
		     struct wg_arena *arena, const char **error, size_t *offset)
{
	struct wg_buf src = WG_BUF_INIT;
	PCRE2_SIZE erroff = 0;
	pcre2_code *code;
	int err = 0;
	size_t bias = 0;

	memset(re, 0, sizeof(*re));
	if (anchored) {
		/* The way kustomize anchors its name/namespace patterns. */
		wg_buf_addstr(&src, "^(?:");
		bias = src.len;
		wg_buf_addstr(&src, pattern);
		wg_buf_addstr(&src, ")$");
	} else {
		wg_buf_addstr(&src, pattern);
	}
	code = pcre2_compile((PCRE2_SPTR)src.buf, src.len, PCRE2_UTF, &err,
			     &erroff, NULL);
	wg_buf_release(&src);
	if (!code) {
		size_t len = strlen(pattern);

		*error = error_text(arena, err);
		/* Report offsets in the pattern as written, not the wrapper. */
		*offset = erroff < bias ? 0 : erroff - bias;
		if (*offset > len)
			*offset = len;
		return -1;
	}
	/* JIT when the platform has it; the interpreter otherwise.  Both
	 * honour the match limit; the depth limit binds the interpreter. */
	(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	re->source = wg_arena_strdup(arena, pattern);
	re->code = code;
	re->match_data = pcre2_match_data_create_from_pattern(code, NULL);
	re->match_ctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(re->match_ctx, match_limit);
	pcre2_set_depth_limit(re->match_ctx, depth_limit);
	return 0;
}

int wg_regex_match(const struct wg_regex *re, const char *s, size_t len)
{
	/* PCRE2's JIT may read a few bytes past the subject's end: within
	 * an allocation, but there perhaps uninitialised (valgrind says so
	 * for a scalar at the end of libyaml's or the arena's block).  The
	 * match runs on a copy with zeroed bytes after it. */
	enum { PAD = 32 };
	char local[256 + PAD], *copy = len <= 256 ? local : NULL;
	int rc;

	if (!copy)
		copy = wg_xmalloc(len + PAD);
	memcpy(copy, s, len);
	memset(copy + len, 0, PAD);
	rc = pcre2_match(re->code, (PCRE2_SPTR)copy, len, 0, 0,
			 re->match_data, re->match_ctx);
	if (copy != local)
		free(copy);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

char *wg_regex_replace(const struct wg_regex *re, const char *s, size_t len,
		       const char *replacement, struct wg_arena *arena,
		       const char **error)
{
	uint32_t opts = PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_EXTENDED
			| PCRE2_SUBSTITUTE_OVERFLOW_LENGTH;
	PCRE2_SIZE outlen = len + strlen(replacement) + 64;
	PCRE2_UCHAR *out;
	int rc;

	for (int tries = 0; tries < 2; tries++) {
		out = wg_arena_alloc(arena, outlen + 1);
		rc = pcre2_substitute(re->code, (PCRE2_SPTR)s, len, 0, opts,
				      re->match_data, re->match_ctx,
				      (PCRE2_SPTR)replacement,
				      PCRE2_ZERO_TERMINATED, out, &outlen);
		if (rc != PCRE2_ERROR_NOMEMORY)
			break;
		/* outlen now holds the length needed (OVERFLOW_LENGTH). */
	}
	if (rc < 0) {
		*error = error_text(arena, rc);
		return NULL;
	}
	out[outlen] = '\0';
	return (char *)out;
}

void wg_regex_release(struct wg_regex *re)
{
	if (!re)
		return;
	pcre2_match_context_free(re->match_ctx);
	pcre2_match_data_free(re->match_data);
	pcre2_code_free(re->code);
	memset(re, 0, sizeof(*re));
}
