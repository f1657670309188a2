#ifndef WINGEN_REGEX_H
#define WINGEN_REGEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/arena.h"

/*
 * PCRE2 patterns from the profile: compiled once at load, matched with the
 * match and depth limits of wg_limits so a catastrophic pattern stops
 * instead of hanging.
 */

struct wg_regex {
	const char *source;	/* the pattern as written */
	void *code;		/* pcre2_code * */
	void *match_data;	/* pcre2_match_data *, reused by every match */
	void *match_ctx;	/* pcre2_match_context * with the limits */
	uint32_t match_limit;	/* the match limit it was compiled with */
};

/*
 * Compiles pattern (UTF-8).  anchored wraps it as ^(?:pattern)$ the way
 * kustomize anchors its selectors.  On failure returns -1 and fills
 * *error (in arena) and *offset (byte offset in pattern, as PCRE2 reports).
 * The regex must be released with wg_regex_release().
 */
int wg_regex_compile(struct wg_regex *re, const char *pattern, bool anchored,
		     uint32_t match_limit, uint32_t depth_limit,
		     struct wg_arena *arena, const char **error, size_t *offset);

/* 1 match, 0 no match, -1 a limit was hit (or another PCRE2 error). */
int wg_regex_match(const struct wg_regex *re, const char *s, size_t len);

/*
 * wg_regex_match() within the run's budget of matching time: the CPU
 * time of every slow match made through ctx (one past a first try of
 * 10,000 steps, where a pattern meant for a name or an image ends) adds
 * up in ctx->regex_ns; once it reaches limits.regex_seconds, that match
 * and every later one return -2 (ctx->regex_spent), so that slow
 * patterns over many objects end instead of running for hours, each
 * match within the limits.  The caller says so, naming the pattern.
 */
struct wg_ctx;
int wg_regex_match_within(struct wg_ctx *ctx, const struct wg_regex *re,
			  const char *s, size_t len);

/*
 * Substitutes every match of re in s by replacement, where $1..$9, ${name}
 * refer to groups (PCRE2 extended substitution).  Returns the result in
 * arena, or NULL on error with *error set.
 */
char *wg_regex_replace(const struct wg_regex *re, const char *s, size_t len,
		       const char *replacement, struct wg_arena *arena,
		       const char **error);

void wg_regex_release(struct wg_regex *re);

#endif
