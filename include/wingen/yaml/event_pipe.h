#ifndef WINGEN_EVENT_PIPE_H
#define WINGEN_EVENT_PIPE_H

#include <yaml.h>

/*
 * libyaml's parser on a thread of its own, its events handed over in
 * blocks: fmt builds and writes one document while the next is parsed,
 * and still holds only one document's tree (a few blocks of events wait
 * in between, not trees).
 *
 * The events come in the parser's order, exactly as yaml_parser_parse()
 * gives them, but they stay the pipe's: an event and its strings live
 * until the next wg_event_pipe_next() call, and are freed by the parsing
 * thread (freeing on the other thread contends for the allocator's lock).
 * Copy what must live longer; never free an event taken.  After a failure
 * the parser's error fields (problem, marks, context) are those of
 * yaml_parser_parse() and may be read.
 */

struct wg_event_pipe;

/*
 * Starts parsing parser (set up with its input) on a new thread, until the
 * stream's end or an error.  The caller must not touch parser until
 * wg_event_pipe_stop() or until wg_event_pipe_next() failed.  NULL when
 * no thread can be started: then parse on this one.
 */
struct wg_event_pipe *wg_event_pipe_start(yaml_parser_t *parser);

/* The next event into *e (valid until the next call): 1, or 0 when the
 * parser failed there. */
int wg_event_pipe_next(struct wg_event_pipe *pipe, yaml_event_t *e);

/* Stops and joins the thread and frees the events not taken. */
void wg_event_pipe_stop(struct wg_event_pipe *pipe);

#endif
