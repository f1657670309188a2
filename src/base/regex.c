#include "wingen/base/regex.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"

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
	re->match_limit = match_limit;
	pcre2_set_match_limit(re->match_ctx, match_limit);
	pcre2_set_depth_limit(re->match_ctx, depth_limit);
	return 0;
}

/* pcre2_match()'s own answer, within match_limit steps. */
static int match_raw(const struct wg_regex *re, const char *s, size_t len,
		     uint32_t match_limit)
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
	pcre2_set_match_limit(re->match_ctx, match_limit);
	rc = pcre2_match(re->code, (PCRE2_SPTR)copy, len, 0, 0,
			 re->match_data, re->match_ctx);
	if (copy != local)
		free(copy);
	return rc;
}

int wg_regex_match(const struct wg_regex *re, const char *s, size_t len)
{
	int rc = match_raw(re, s, len, re->match_limit);

	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

/* The CPU time of this thread, in ns. */
static uint64_t cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int wg_regex_match_within(struct wg_ctx *ctx, const struct wg_regex *re,
			  const char *s, size_t len)
{
	/* Every match a profile's pattern makes on a Kubernetes name or
	 * image ends within a few thousand steps; only a slower one is
	 * timed (a clock read costs microseconds on some hosts) and
	 * counted against the budget. */
	enum { QUICK = 10000 };
	uint64_t start;
	int rc;

	if (ctx->regex_spent)
		return -2;
	rc = match_raw(re, s, len, QUICK < re->match_limit ? QUICK
							   : re->match_limit);
	if (rc == PCRE2_ERROR_MATCHLIMIT && QUICK < re->match_limit) {
		start = cpu_ns();
		rc = match_raw(re, s, len, re->match_limit);
		ctx->regex_ns += cpu_ns() - start;
		if (ctx->regex_ns / 1000000000u >= ctx->limits.regex_seconds) {
			ctx->regex_spent = true;
			return -2;
		}
	}
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

	pcre2_set_match_limit(re->match_ctx, re->match_limit);
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
