#ifndef WINGEN_EMIT_STREAM_H
#define WINGEN_EMIT_STREAM_H

#include <stddef.h>

#include "wingen/yaml/resource.h"

/*
 * A resource list written as one YAML stream, the emitting spread over
 * threads.
 *
 * libyaml's emitter is a third of what build costs, and it is single
 * threaded; the documents of a stream are independent, so batches of them
 * go to emitters of their own, one per thread, and the text of the batches
 * reaches the sink in order.  The bytes are those of one emitter writing
 * the whole stream (tests/unit/check_emit_stream.c compares every split):
 * a batch's emitter first writes the document before its batch and drops
 * that text, so it starts from the state one emitter would be in there.
 *
 * The sink runs on the calling thread only, so it may report on a ctx;
 * the workers only read the trees (build's trees are not changed while
 * they are written) and fill their own buffers.
 */

/*
 * Receives the next len bytes of the stream; returns 0, or a positive
 * value to stop (that value is then returned by wg_emit_yaml_stream).
 * Never a negative one: WG_EMIT_REFUSED must mean libyaml refused.
 */
typedef int (*wg_emit_sink)(void *data, const char *bytes, size_t len);

/* Which document could not be written, and libyaml's reason. */
struct wg_emit_failure {
	size_t item;		/* index into list->items */
	const char *problem;	/* static text from libyaml */
};

/* wg_emit_yaml_stream()'s result when libyaml refused a document. */
#define WG_EMIT_REFUSED (-1)

/* Most threads wg_emit_yaml_stream() uses, whatever it is asked for. */
#define WG_EMIT_MAX_JOBS 16

/*
 * Writes every live resource of list (WG_RES_DELETED skipped) through sink,
 * using up to jobs threads including the caller's (0 or 1: the caller's
 * only).  The sink gets at least a megabyte at a time where the stream
 * has that much.  Returns 0; WG_EMIT_REFUSED when libyaml refused a
 * document (*fail says which; nothing of that document or after it
 * reached the sink; *fail is set only then); or the sink's positive value.
 */
int wg_emit_yaml_stream(const struct wg_resources *list, unsigned jobs,
			wg_emit_sink sink, void *data,
			struct wg_emit_failure *fail);

/* As wg_emit_yaml_stream(), with batch_docs documents per batch (0: as
 * wg_emit_batch_docs() says): for tests, which compare every way of
 * cutting a stream. */
int wg_emit_yaml_batches(const struct wg_resources *list, unsigned jobs,
			 size_t batch_docs, wg_emit_sink sink, void *data,
			 struct wg_emit_failure *fail);

/*
 * Documents per batch for a stream of ndocs written on jobs threads:
 * enough batches to keep every thread busy, few enough that writing the
 * document before each batch again costs little.
 */
size_t wg_emit_batch_docs(size_t ndocs, unsigned jobs);

/* The CPUs this process may run on (at least 1). */
unsigned wg_emit_cpus(void);

#endif
