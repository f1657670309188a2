#include "wingen/event_pipe.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "wingen/alloc.h"

/* Events a block holds, and blocks in flight: one lock per block, and at
 * most a few thousand events parsed ahead. */
#define BLOCK_EVENTS 512
#define NBLOCKS 4

struct block {
	yaml_event_t events[BLOCK_EVENTS];
	size_t n;	/* events in it, the pipe's until the block is reused */
	bool last;	/* the stream's end, or the parser failed after n */
	bool failed;
};

/*
 * blocks is a ring: the parser fills blocks[tail] while it is not full
 * (filled < NBLOCKS) and publishes it; the reader takes events from
 * blocks[head] at pos and gives the block back once it is read.
 */
struct wg_event_pipe {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t changed;
	yaml_parser_t *parser;
	struct block blocks[NBLOCKS];
	size_t head, tail, filled, pos;
	bool stop;
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
		/* Freed here, where they were allocated: a free on another
		 * thread takes the allocator's lock, a contended one. */
		for (size_t i = 0; i < b->n; i++)
			yaml_event_delete(&b->events[i]);
		b->n = 0;
		b->last = b->failed = false;
		while (b->n < BLOCK_EVENTS && !b->last) {
			if (!yaml_parser_parse(p->parser, &b->events[b->n])) {
				b->last = b->failed = true;
				break;
			}
			b->last = b->events[b->n++].type == YAML_STREAM_END_EVENT;
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
	struct block *b;

	pthread_mutex_lock(&p->mu);
	b = &p->blocks[p->head];
	if (p->filled && p->pos == b->n && !b->last) {
		/* read through, the last event given out used by now: the
		 * parser may free its events and fill it again */
		p->head = (p->head + 1) % NBLOCKS;
		p->filled--;
		p->pos = 0;
		pthread_cond_broadcast(&p->changed);
	}
	while (p->filled == 0)
		pthread_cond_wait(&p->changed, &p->mu);
	b = &p->blocks[p->head];
	pthread_mutex_unlock(&p->mu);
	if (p->pos == b->n)	/* only a failed block ends before n */
		return 0;
	*e = b->events[p->pos++];
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
	for (size_t k = 0; k < NBLOCKS; k++)
		for (size_t i = 0; i < p->blocks[k].n; i++)
			yaml_event_delete(&p->blocks[k].events[i]);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
