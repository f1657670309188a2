#include "wingen/yaml/event_pipe.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

/* Events a block holds, and blocks in flight: one lock per block, and at
 * most a few thousand events parsed ahead. */
#define BLOCK_EVENTS 512
#define NBLOCKS 4
#define TEXT_MIN (64u * 1024)

/*
 * The scalars' text of a block is copied into one buffer of the block and
 * libyaml's strings freed at once, on the parsing thread: the reader then
 * reads the text in one run instead of from scattered allocations, and
 * nothing made on one thread is freed on the other (both cost dearly
 * between cores; fmt with text handed over string by string ran at 1.5x
 * the CPU of one thread, and some runs at twice the time).
 */
struct block {
	yaml_event_t events[BLOCK_EVENTS];
	size_t n;	/* events in it, the pipe's until the block is reused */
	bool last;	/* the stream's end, or the parser failed after n */
	char *text;	/* scalars' values, NUL-terminated one after another */
	size_t text_cap, text_used;
	bool overflowed;	/* a value did not fit: kept as it was */
};

static bool in_text(const struct block *b, const yaml_char_t *s)
{
	return (const char *)s >= b->text
	       && (const char *)s < b->text + b->text_cap;
}

/* Frees what an event of b still owns. */
static void release_event(const struct block *b, yaml_event_t *e)
{
	if (e->type == YAML_SCALAR_EVENT && in_text(b, e->data.scalar.value)) {
		free(e->data.scalar.tag);
		free(e->data.scalar.anchor);
		return;
	}
	yaml_event_delete(e);
}

/* Empties b for the parser to fill again. */
static void reset_block(struct block *b)
{
	for (size_t i = 0; i < b->n; i++)
		release_event(b, &b->events[i]);
	b->n = 0;
	b->last = false;
	if (!b->text || b->overflowed) {
		b->text_cap = b->text_cap ? 2 * b->text_cap : TEXT_MIN;
		free(b->text);
		b->text = wg_xmalloc(b->text_cap);
	}
	b->text_used = 0;
	b->overflowed = false;
}

/* Moves a scalar's value into b's text when it fits. */
static void compact(struct block *b, yaml_event_t *e)
{
	size_t len = e->data.scalar.length;

	if (b->text_cap - b->text_used <= len) {
		b->overflowed = true;
		return;
	}
	memcpy(b->text + b->text_used, e->data.scalar.value, len);
	b->text[b->text_used + len] = '\0';
	free(e->data.scalar.value);
	e->data.scalar.value = (yaml_char_t *)b->text + b->text_used;
	b->text_used += len + 1;
}

/*
 * blocks is a ring: the parser fills blocks[tail] while it is not full
 * (filled < NBLOCKS) and publishes it; the reader takes events from
 * blocks[head] (cur, at pos) without the lock, and gives the block back
 * when it asks for the event after its last one.
 */
struct wg_event_pipe {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t changed;
	yaml_parser_t *parser;
	struct block blocks[NBLOCKS];
	size_t head, tail, filled;
	bool stop;
	/* the reader's own: no lock */
	const struct block *cur;
	size_t pos;
};

static void *parse_blocks(void *arg)
{
	struct wg_event_pipe *p = arg;
	bool last = false;

	while (!last) {
		struct block *b;

		pthread_mutex_lock(&p->mu);
		while (p->filled == NBLOCKS && !p->stop)
			pthread_cond_wait(&p->changed, &p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		b = &p->blocks[p->tail];
		pthread_mutex_unlock(&p->mu);
		reset_block(b);
		while (b->n < BLOCK_EVENTS && !b->last) {
			yaml_event_t *e = &b->events[b->n];

			if (!yaml_parser_parse(p->parser, e)) {
				b->last = true;
				break;
			}
			if (e->type == YAML_SCALAR_EVENT)
				compact(b, e);
			b->last = e->type == YAML_STREAM_END_EVENT;
			b->n++;
		}
		last = b->last;
		pthread_mutex_lock(&p->mu);
		p->tail = (p->tail + 1) % NBLOCKS;
		p->filled++;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

struct wg_event_pipe *wg_event_pipe_start(yaml_parser_t *parser)
{
	struct wg_event_pipe *p = wg_xcalloc(1, sizeof(*p));

	p->parser = parser;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (pthread_create(&p->thread, NULL, parse_blocks, p) != 0) {
		pthread_cond_destroy(&p->changed);
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	return p;
}

int wg_event_pipe_next(struct wg_event_pipe *p, yaml_event_t *e)
{
	if (!p->cur || p->pos == p->cur->n) {
		if (p->cur && p->cur->last)
			return 0;	/* failed here (or asked past the end) */
		pthread_mutex_lock(&p->mu);
		if (p->cur) {
			/* read through, its last event used by now: the
			 * parser may free its events and fill it again */
			p->head = (p->head + 1) % NBLOCKS;
			p->filled--;
			pthread_cond_broadcast(&p->changed);
		}
		while (p->filled == 0)
			pthread_cond_wait(&p->changed, &p->mu);
		p->cur = &p->blocks[p->head];
		p->pos = 0;
		pthread_mutex_unlock(&p->mu);
		if (p->cur->n == 0)
			return 0;	/* the parser failed first thing */
	}
	*e = p->cur->events[p->pos++];
	return 1;
}

void wg_event_pipe_stop(struct wg_event_pipe *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	/* every event parsed is still the pipe's */
	for (size_t k = 0; k < NBLOCKS; k++) {
		struct block *b = &p->blocks[k];

		for (size_t i = 0; i < b->n; i++)
			release_event(b, &b->events[i]);
		free(b->text);
	}
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
