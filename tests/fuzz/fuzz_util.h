#ifndef WINGEN_FUZZ_UTIL_H
#define WINGEN_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * Shared by the libFuzzer targets.  A broken invariant is a finding: it is
 * printed with the reason and the process aborts, so libFuzzer keeps the
 * input as a crash artifact.
 */

__attribute__((noreturn, format(printf, 1, 2)))
void fz_fail(const char *fmt, ...);

#define FZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fz_fail(__VA_ARGS__);				\
	} while (0)

/* An input holding a copy of data (NUL-terminated); release it. */
void fz_input(struct wg_input *in, const char *name, const uint8_t *data,
	      size_t size);

/* True when ctx holds an error with a file and a line. */
bool fz_has_positioned_error(const struct wg_ctx *ctx);

/* Prints ctx's diagnostics to stderr (for the message of a finding). */
void fz_dump_log(const struct wg_ctx *ctx);

/*
 * Compares a tree read from input (a) with the tree read back from
 * wingen's output for it (b).  Checks kind, tag, key order, scalar text
 * and, where libyaml's emitter may change a style (a plain scalar it
 * cannot write plain, a block scalar with trailing spaces, a block
 * collection inside a flow one or empty), that the change keeps the
 * scalar's type under YAML 1.1 and 1.2.  Returns NULL when they agree,
 * else a static description of the first difference; *line is a's line.
 */
const char *fz_tree_diff(const struct wg_node *a, const struct wg_node *b,
			 unsigned *line);

/*
 * Whether a and b hold the same data for a YAML 1.1 reader (kubectl):
 * mappings by key set, sequences in order, scalars by text, tag and type
 * (nulls of any spelling are equal).  Layout and quoting that keep the
 * type do not matter.
 */
bool fz_same_value(const struct wg_node *a, const struct wg_node *b);

/* A fresh folder for the target's files, made once (mkdtemp). */
const char *fz_tmpdir(void);

/* Writes data to path (truncating).  Aborts on failure. */
void fz_write_file(const char *path, const void *data, size_t len);

/* Reads a whole file into a malloc'd buffer. */
char *fz_read_file(const char *path, size_t *len);

#endif
