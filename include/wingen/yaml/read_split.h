#ifndef WINGEN_READ_SPLIT_H
#define WINGEN_READ_SPLIT_H

#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/resource.h"

/*
 * One large input read on several threads.
 *
 * libyaml's parser is half of what build costs and single-threaded, but a
 * line that starts with "---" begins a new document wherever it stands
 * (YAML ends any scalar or collection there, or the input is broken), and
 * documents share nothing: no anchors, no tags once directives are left
 * out.  So the input is cut at such lines into pieces, each piece is read
 * into a list of its own on its own thread, and the lists are joined in
 * order, document indices and positions as one reader gives them.
 *
 * Whatever is not the plain case is left to one reader over the whole
 * input, so that what is reported is exactly what wg_read_stream()
 * reports: a piece that fails or says anything at all, a document limit
 * reached, JSON, directives ("%YAML", "%TAG") before a cut.
 */

/* Pieces smaller than this are not worth a thread. */
#define WG_READ_SPLIT_MIN_PIECE ((size_t)1 << 20)

/*
 * Reads in into list as wg_read_stream() does, on up to jobs threads
 * (including the caller's), with the same result.  Returns 0 or -1
 * (reported on ctx).
 */
int wg_read_stream_jobs(struct wg_ctx *ctx, const struct wg_input *in,
			struct wg_resources *list, unsigned jobs);

/*
 * Reads n inputs into list, in their order, as wg_read_stream() on each
 * one after another would (list, positions, messages and limits the
 * same), on up to jobs threads (a folder of many files, each a document
 * or two: threads take the next unread input).  An input that fails or
 * says anything is read again on the caller's thread in its turn.  For
 * large inputs wg_read_stream_jobs() is the better split.  Returns 0 or
 * -1 (reported on ctx).
 */
int wg_read_streams_jobs(struct wg_ctx *ctx, const struct wg_input *ins,
			 size_t n, struct wg_resources *list, unsigned jobs);

/* As wg_read_stream_jobs(), cutting pieces of at least min_piece bytes:
 * for tests, which cut small streams. */
int wg_read_stream_split(struct wg_ctx *ctx, const struct wg_input *in,
			 struct wg_resources *list, unsigned jobs,
			 size_t min_piece);

/*
 * The cut nearest at or after from: the first byte of a line that starts
 * with "---" and a blank or the end, and that no directive precedes;
 * 0 when there is none.
 */
size_t wg_read_split_next_cut(const char *data, size_t len, size_t from);

#endif
