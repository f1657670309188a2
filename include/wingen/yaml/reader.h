#ifndef WINGEN_READER_H
#define WINGEN_READER_H

#include <stdbool.h>
#include <yaml.h>

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * YAML (and JSON) stream reader: libyaml parser events -> node trees.
 *
 * One document at a time, so a caller may write each one out and drop it.
 * Aliases are expanded (a copy per use) within limits.max_alias_nodes;
 * "<<" merge keys are resolved as YAML 1.1 readers (kubectl) do; a duplicate
 * key, a recursive alias, a non-scalar key, nesting deeper than
 * limits.max_depth and a scalar over limits.max_scalar_bytes are errors.
 * Input must be UTF-8; a BOM is skipped; CRLF line ends are accepted.
 * JSON is YAML, and a JSON stream (objects one after another, as
 * "kubectl get -o json" and "-o json" write them) is read as one document
 * per object.
 */

/* A 0-based position the reader keeps beside its stack. */
struct wg_read_pos {
	uint32_t line, col;
};

struct wg_reader {
	yaml_parser_t parser;
	struct wg_ctx *ctx;
	const struct wg_input *in;
	unsigned doc_index;	/* index of the next document */
	bool done;
	bool failed;
	/* scratch, reused across documents */
	struct wg_node **stack;
	struct wg_read_pos *pos;	/* where each node on the stack was read */
	size_t stack_len, stack_cap;
	struct wg_frame *frames;
	size_t nframes, frames_cap;
	struct wg_anchor *anchors;
	size_t nanchors, anchors_cap;
	size_t alias_nodes;
	/*
	 * Adopt mode (set before the first wg_reader_next): scalars keep the
	 * parser's own malloc'd string instead of a copy, so a document
	 * written once with wg_yaml_writer_doc_take() costs no string copy
	 * at all.  Every document must then be given back with
	 * wg_reader_release_doc() before the next one is read.  For
	 * streaming (fmt); trees kept for long should not use it.
	 */
	bool adopt;
	/*
	 * Set before the first wg_reader_next to parse on a thread of its
	 * own (event_pipe.h) while the caller builds and writes: for fmt.
	 * Then nothing is adopted (the pipe frees the parser's strings on
	 * its thread; scalars point into the input or the arena).  A JSON
	 * stream is parsed on the caller's thread.
	 */
	bool threaded;
	/*
	 * 0: the doc-bytes limit bounds each document.  N: it bounds each
	 * collection at nesting depth N instead (1 is the root), and the
	 * document only by the input's limit: a KRM ResourceList is one
	 * document and its objects, at depth 3 (root, items, item), are
	 * what the limit is meant for.  Set before the first read.
	 */
	unsigned limit_depth;
	/*
	 * Set before the first read to see every event libyaml gives, as it
	 * gives it (marks relative to the part being parsed, seg_line and
	 * seg_col below), before the reader uses it: for a caller that needs
	 * more of the text than the tree keeps (migrate's position scan)
	 * without parsing it again.  The parse then stays on the caller's
	 * thread (threaded is ignored).
	 */
	void (*observe)(void *arg, const yaml_event_t *event);
	void *observe_arg;
	struct wg_event_pipe *pipe;	/* NULL: parsing on this thread */
	bool pipe_tried;
	/* Set by wg_read_stream() when the list shares keys (resource.h). */
	struct wg_resources *shared_keys;
	/*
	 * With shared_keys: 0 shares every plain mapping key; N only those
	 * inside a sequence at nesting depth N (1 is the root): a KRM
	 * ResourceList's items at 2, so that the keys of its functionConfig
	 * keep their positions for the messages about them.
	 */
	unsigned share_in_seq_depth;
	struct wg_node **owned;	/* nodes holding adopted strings */
	size_t nowned, owned_cap;
	/* The part of the input libyaml is parsing: all of it after a BOM,
	 * or one value of a JSON stream. */
	size_t seg_start, seg_end;
	size_t seg_line, seg_col;	/* 0-based position of seg_start */
	size_t end;	/* where the reader stops: in->len, or a range's end;
			   the start of a document past doc-bytes when
			   big_doc */
	bool json_stream;
	bool sized;	/* the documents were measured (first_big_doc) */
	bool big_doc;	/* one is too large: an error once those before it
			   are read */
	size_t doc_nodes;	/* nodes of the document being read */
};

/* in must outlive the reader and every tree it returns. */
void wg_reader_init(struct wg_reader *r, struct wg_ctx *ctx,
		    const struct wg_input *in);
/*
 * A reader of the documents in [start, end) of in only: start is 0 or the
 * first byte of a line (line: its 0-based number), end the first byte of
 * a "---" line or in->len.  Positions are the input's.  For reading one
 * stream in pieces (read_split.c); the pieces must be cut where every
 * document begins anew.
 */
void wg_reader_init_range(struct wg_reader *r, struct wg_ctx *ctx,
			  const struct wg_input *in, size_t start, size_t end,
			  size_t line);
void wg_reader_release(struct wg_reader *r);

/*
 * Reads the next document into arena.  Returns 1 and sets *root and *index
 * (document index within the input, counting empty ones), 0 at the end of
 * the stream, -1 on error (reported on ctx with file:line:col).
 */
int wg_reader_next(struct wg_reader *r, struct wg_arena *arena,
		   struct wg_node **root, unsigned *index);

/*
 * In adopt mode: frees the adopted strings of the last document that no
 * writer took.  Call once per document returned, after writing it (or
 * deciding to drop it), and after a failed wg_reader_next(); always while
 * the arena holding the document's nodes is still alive.
 */
void wg_reader_release_doc(struct wg_reader *r);

/*
 * Reads every document of in into list (wg_resources_add_document: empty
 * ones dropped, Lists expanded).  Returns 0 or -1.
 */
int wg_read_stream(struct wg_ctx *ctx, const struct wg_input *in,
		   struct wg_resources *list);

#endif
