#ifndef WINGEN_SCALAR_H
#define WINGEN_SCALAR_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"

/*
 * What a plain scalar means.  YAML 1.1 (libyaml, go-yaml v2 and so kubectl)
 * and YAML 1.2 (core schema) read the same text differently: "yes", "on",
 * "0755", "1_000" and "1:20" are strings in 1.2 but not in 1.1.
 */

enum wg_scalar_type {
	WG_TYPE_STR = 0,
	WG_TYPE_NULL,
	WG_TYPE_BOOL,
	WG_TYPE_INT,
	WG_TYPE_FLOAT,
	WG_TYPE_TIMESTAMP,
	WG_TYPE_MERGE,	/* "<<" */
};

/* Type of a plain scalar under YAML 1.1 (as kubectl/go-yaml v2 read it). */
enum wg_scalar_type wg_resolve_yaml11(const char *s, size_t len);

/* Type of a plain scalar under the YAML 1.2 core schema. */
enum wg_scalar_type wg_resolve_yaml12(const char *s, size_t len);

/*
 * True when s must be quoted to stay a string: either resolver gives a
 * non-string type, or the text cannot be written plain (leading or
 * trailing space, indicators, ": ", " #", control characters...).
 */
bool wg_scalar_needs_quotes(const char *s, size_t len);

/*
 * Appends the JSON form of a plain scalar by YAML 1.1 rules: null, true,
 * false, a JSON number (0755 -> 493, 0x1F -> 31, 1_000 -> 1000, .5 -> 0.5),
 * or a quoted string.  Returns -1 (nothing appended) when the value has no
 * JSON form (.inf, .nan).
 */
int wg_scalar_to_json(struct wg_buf *out, const char *s, size_t len);

/*
 * Appends s as a JSON string literal, quotes included.  s is UTF-8 and
 * passes through; control characters, '"' and '\\' are escaped.
 */
void wg_json_quote(struct wg_buf *out, const char *s, size_t len);

#endif
