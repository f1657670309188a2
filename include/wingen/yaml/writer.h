#ifndef WINGEN_WRITER_H
#define WINGEN_WRITER_H

#include <stdbool.h>
#include <yaml.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * Writers: node trees -> YAML stream (through libyaml emitter events) or
 * JSON stream.
 *
 * YAML: "---" between documents, none before the first; width unlimited,
 * unicode on, two-space indent, sequences in mappings written compactly
 * ("- " at the key's indent, as kubectl does).  Scalars keep their text,
 * style and tag, collections their flow or block style.  (libyaml's emitter
 * may still pick a quoted style where the original style cannot carry the
 * text, e.g. a literal block with trailing spaces on a line; the value is
 * unchanged.)
 */

/*
 * Where a writer may pass its text on as it goes: the next len bytes;
 * returns 0, or nonzero to stop writing (the writer then fails with
 * "cannot write the output").
 */
typedef int (*wg_yaml_sink)(void *data, const char *bytes, size_t len);

/* Output sink: everything is appended to buf (and, with a sink, handed
 * on from there a quarter of a megabyte at a time). */
struct wg_yaml_writer {
	yaml_emitter_t emitter;
	struct wg_buf *out;
	wg_yaml_sink sink;	/* NULL: out keeps everything */
	void *sink_data;
	bool sink_failed;
	unsigned ndocs;
	bool open;
	bool take;		/* inside wg_yaml_writer_doc_take() */
	const char *error;	/* libyaml's problem, after a failure */
	/* Documents within the direct writer's subset (src/yaml/
	 * yaml_internal.h: block collections, untagged ASCII scalars) are
	 * written without libyaml's emitter, with the bytes it would write;
	 * the rest go through it. */
	bool libyaml_only;	/* every document through the emitter (for
				   tests that compare the two) */
	unsigned ndirect;	/* documents written directly */
	bool last_direct;	/* the last document was */
	bool emitter_docs;	/* the emitter has begun a document */
	int open_ended;		/* the emitter's open_ended after it */
};

void wg_yaml_writer_init(struct wg_yaml_writer *w, struct wg_buf *out);
/*
 * Streams instead of keeping: out becomes a staging buffer that sink
 * empties whenever it holds 256 KiB, and at wg_yaml_writer_finish().
 * For one large document (a KRM ResourceList) written without holding its
 * text.  What reached the sink cannot be taken back: check the tree
 * first (wg_yaml_unwritable).
 */
void wg_yaml_writer_set_sink(struct wg_yaml_writer *w, wg_yaml_sink sink,
			     void *data);

/*
 * The first node of the tree whose text or tag libyaml's emitter would
 * refuse (text wingen generated that is not UTF-8: libyaml checks it;
 * parsed text was checked by the parser), or NULL: a tree it returns NULL
 * for is refused by no emitter event.
 */
const struct wg_node *wg_yaml_unwritable(const struct wg_node *root);
/* Appends one document.  Returns 0 or -1 (w->error set). */
int wg_yaml_writer_doc(struct wg_yaml_writer *w, const struct wg_node *root);
/*
 * As wg_yaml_writer_doc(), with comment (one line, no line break; NULL:
 * none) on a line of its own right after the document's "---" (before
 * its first line when it is the stream's first): Helm's "# Source:"
 * line, resource.h.  Not with a sink (the text may be gone).
 */
int wg_yaml_writer_doc_headed(struct wg_yaml_writer *w,
			      const struct wg_node *root, const char *comment);
/* Both: wg_yaml_writer_doc_take() with a comment. */
int wg_yaml_writer_doc_take_headed(struct wg_yaml_writer *w,
				   struct wg_node *root, const char *comment);

/*
 * As wg_yaml_writer_doc(), and, when the document goes through libyaml's
 * emitter, hands it the strings the reader adopted (WG_NODE_OWNED,
 * reader.h) instead of copying them: those scalars are empty afterwards.
 * For a tree written once and dropped.
 */
int wg_yaml_writer_doc_take(struct wg_yaml_writer *w, struct wg_node *root);

/*
 * One document written a piece at a time, for a document too large to
 * hold as one tree (a KRM ResourceList whose results are made one by one
 * and dropped once written).  Between wg_yaml_writer_begin_doc() and
 * wg_yaml_writer_end_doc() the calls must make one well-formed node: a
 * block mapping (begin_map, then key + node or key + a nested collection
 * per entry, end_map) or block sequence (begin_seq, nodes, end_seq).
 * wg_yaml_writer_node() writes a whole tree in that place; the tree may
 * be dropped as soon as it returns.  Each returns 0 or -1 (w->error set).
 */
int wg_yaml_writer_begin_doc(struct wg_yaml_writer *w);
int wg_yaml_writer_begin_map(struct wg_yaml_writer *w);
int wg_yaml_writer_begin_seq(struct wg_yaml_writer *w);
/* A plain mapping key (text the caller chose: ASCII, no quoting needed). */
int wg_yaml_writer_key(struct wg_yaml_writer *w, const char *key);
int wg_yaml_writer_node(struct wg_yaml_writer *w, const struct wg_node *n);
int wg_yaml_writer_end_map(struct wg_yaml_writer *w);
int wg_yaml_writer_end_seq(struct wg_yaml_writer *w);
int wg_yaml_writer_end_doc(struct wg_yaml_writer *w);

/* Passes on all text the emitter holds, without ending the stream (a
 * stream written in batches: emit_stream.h).  Returns 0 or -1. */
int wg_yaml_writer_flush(struct wg_yaml_writer *w);

/* Ends the stream (no output for an empty stream).  Returns 0 or -1. */
int wg_yaml_writer_finish(struct wg_yaml_writer *w);
void wg_yaml_writer_release(struct wg_yaml_writer *w);


/*
 * Appends one resource as one line of compact JSON plus "\n".  Plain
 * scalars are typed by YAML 1.1 rules, as kubectl reads them (yes -> true,
 * 0755 -> 493, ~ -> null); quoted and block scalars are strings; integers
 * too large for 64 bits are written with all their digits.  A value JSON
 * cannot hold (.inf, .nan) is an error reported on ctx against res.
 * Returns 0 or -1.
 */
int wg_json_write(struct wg_ctx *ctx, struct wg_buf *out,
		  const struct wg_resource *res);

/*
 * Appends a tree wingen built (a report, a schema) as one JSON text and a
 * line break, typed as wg_json_write() types a resource: plain scalars by
 * YAML 1.1 rules (wg_node_new_plain("3") is a number, "true" a boolean),
 * every other scalar a string (wg_node_new_str() quotes what would read
 * as another type).  indent 0: on one line, as wg_json_write() writes;
 * else each member and item on a line of its own, indent spaces a level
 * ("[]", "{}" and a sequence of scalars alone stay on one).  Returns -1 when a plain scalar has no JSON
 * form (.inf, .nan); out then holds a partial text.
 */
int wg_json_write_tree(struct wg_buf *out, const struct wg_node *root,
		       unsigned indent);

/*
 * One JSON text written a piece at a time (json_writer.c), for a text too
 * large to hold as one tree (check's report: a tree an entry, dropped once
 * written): wg_json_open() an object ('{') or an array ('['), and in an
 * object wg_json_key() before each member's value; wg_json_value() writes
 * a whole tree as a value, typed and laid out as wg_json_write_tree()
 * lays it out at that depth; wg_json_close() the innermost; wg_json_end()
 * adds the final line break and returns 0, or -1 when a value had no JSON
 * form or the opens and closes did not pair (out then holds a partial
 * text).
 */
#define WG_JSON_MAX_DEPTH 16

struct wg_json_out {
	struct wg_buf *out;
	unsigned indent;
	unsigned depth;
	char open[WG_JSON_MAX_DEPTH];		/* '{' or '[' */
	size_t items[WG_JSON_MAX_DEPTH];	/* written in each */
	bool after_key;
	bool failed;
};

void wg_json_begin(struct wg_json_out *j, struct wg_buf *out, unsigned indent);
void wg_json_open(struct wg_json_out *j, char bracket);
void wg_json_close(struct wg_json_out *j);
void wg_json_key(struct wg_json_out *j, const char *key);
void wg_json_value(struct wg_json_out *j, const struct wg_node *n);
int wg_json_end(struct wg_json_out *j);

/*
 * Appends one node of res's tree (any subtree) as compact JSON, typed as
 * wg_json_write() types it, without a newline: for the value of an
 * RFC 6902 patch operation (serve/).  Returns 0 or -1 (reported on ctx
 * against res, which may be NULL).
 */
int wg_json_write_node(struct wg_ctx *ctx, struct wg_buf *out,
		       const struct wg_resource *res, const struct wg_node *n);

/*
 * Writes every live resource of list (WG_RES_DELETED skipped) as a YAML or
 * JSON stream into out.  Returns 0 or -1 (reported on ctx).
 */
enum wg_format { WG_FORMAT_YAML = 0, WG_FORMAT_JSON };
int wg_write_resources(struct wg_ctx *ctx, struct wg_buf *out,
		       const struct wg_resources *list, enum wg_format format);

#endif
