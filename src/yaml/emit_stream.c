#define _GNU_SOURCE	/* sched_getaffinity */
#include "wingen/yaml/emit_stream.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/writer.h"

/* Text handed to the sink at a time, when one thread writes. */
enum { CHUNK = 1 << 20 };

enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

/* One batch's text, from its emitter to the sink. */
struct batch_slot {
	struct wg_buf text;
	enum slot_state state;
	bool failed;
	struct wg_emit_failure fail;
};

/*
 * The shared state of one stream.  Batches are claimed in order and each
 * goes to slot (batch % nslots); a slot is free again once the caller has
 * passed its text to the sink, so at most nslots batches of text exist at
 * once and the caller, which alone writes, never waits for itself.
 */
struct emit_run {
	const struct wg_resources *list;
	size_t *docs;		/* indices of the live items of list */
	size_t ndocs, batch_docs, nbatches;
	pthread_mutex_t mu;
	pthread_cond_t changed;
	size_t next_claim, next_write;
	bool stop;
	struct batch_slot *slots;
	size_t nslots;
};

unsigned wg_emit_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

size_t wg_emit_batch_docs(size_t ndocs, unsigned jobs)
{
	size_t per;

	if (jobs <= 1)
		return ndocs ? ndocs : 1;
	/* about eight batches a thread; 16..256 documents each (the
	 * text of 2 x jobs batches is held at once: at 512, 4 MB more peak
	 * RSS on a 23 MB stream) */
	per = ndocs / ((size_t)jobs * 8);
	if (per < 16)
		per = 16;
	if (per > 256)
		per = 256;
	return per;
}

static const struct wg_node *doc_root(const struct emit_run *run, size_t i)
{
	return run->list->items[run->docs[i]]->root;
}

static int doc_failed(const struct emit_run *run, size_t i,
		      const struct wg_yaml_writer *w,
		      struct wg_emit_failure *fail)
{
	fail->item = run->docs[i];
	fail->problem = w->error ? w->error : "cannot write YAML";
	return WG_EMIT_REFUSED;
}

/*
 * Emits batch b into text.  With a sink, text is passed on whenever it
 * holds a chunk (one thread, one batch); without, the batch stays in text.
 * Returns 0, -1 (*fail set) or the sink's non-zero value.
 */
static int emit_batch(const struct emit_run *run, size_t b,
		      struct wg_buf *text, struct wg_emit_failure *fail,
		      wg_emit_sink sink, void *data)
{
	size_t from = b * run->batch_docs;
	size_t to = from + run->batch_docs < run->ndocs
		    ? from + run->batch_docs : run->ndocs;
	struct wg_yaml_writer w;
	int rc = 0;

	wg_yaml_writer_init(&w, text);
	if (from > 0) {
		/*
		 * The document before the batch, written and dropped: it
		 * leaves this emitter as one emitter would be after it, and
		 * makes the batch's first document a second one ("---").
		 */
		if (wg_yaml_writer_doc(&w, doc_root(run, from - 1))
		    || wg_yaml_writer_flush(&w))
			rc = doc_failed(run, from - 1, &w, fail);
		wg_buf_reset(text);
	}
	for (size_t i = from; i < to && rc == 0; i++) {
		if (wg_yaml_writer_doc_headed(&w, doc_root(run, i),
			run->list->items[run->docs[i]]->source_comment)) {
			rc = doc_failed(run, i, &w, fail);
		} else if (sink && text->len >= CHUNK) {
			rc = sink(data, text->buf, text->len);
			wg_buf_reset(text);
		}
	}
	/* Only the stream's end is written as one ("..." may follow a block
	 * scalar kept open); a batch before it just flushes. */
	if (rc == 0 && (to == run->ndocs ? wg_yaml_writer_finish(&w) != 0
					 : wg_yaml_writer_flush(&w) != 0))
		rc = doc_failed(run, to - 1, &w, fail);
	wg_yaml_writer_release(&w);
	return rc;
}

/* With run->mu held: the next batch's slot, marked busy, or NULL when
 * there is none left or the run stops.  wait: block until its slot is
 * free (workers); else NULL when it is not (the caller must not wait on
 * slots only it can free). */
static struct batch_slot *claim(struct emit_run *run, bool wait, size_t *b)
{
	while (!run->stop && run->next_claim < run->nbatches) {
		struct batch_slot *s =
			&run->slots[run->next_claim % run->nslots];

		if (s->state == SLOT_FREE) {
			s->state = SLOT_BUSY;
			*b = run->next_claim++;
			return s;
		}
		if (!wait)
			return NULL;
		pthread_cond_wait(&run->changed, &run->mu);
	}
	return NULL;
}

/* Emits the claimed batch b into s; called and returns with run->mu
 * held, which it drops while it works. */
static void fill(struct emit_run *run, struct batch_slot *s, size_t b)
{
	int rc;

	pthread_mutex_unlock(&run->mu);
	rc = emit_batch(run, b, &s->text, &s->fail, NULL, NULL);
	pthread_mutex_lock(&run->mu);
	s->failed = rc != 0;
	s->state = SLOT_DONE;
	pthread_cond_broadcast(&run->changed);
}

static void *worker(void *arg)
{
	struct emit_run *run = arg;
	struct batch_slot *s;
	size_t b;

	pthread_mutex_lock(&run->mu);
	while ((s = claim(run, true, &b)))
		fill(run, s, b);
	pthread_mutex_unlock(&run->mu);
	return NULL;
}

/* The caller's part: passes batches to the sink in order, and emits one
 * itself whenever the next to pass on is not ready. */
static int drive(struct emit_run *run, wg_emit_sink sink, void *data,
		 struct wg_emit_failure *fail)
{
	int rc = 0;

	pthread_mutex_lock(&run->mu);
	while (rc == 0 && run->next_write < run->nbatches) {
		struct batch_slot *s =
			&run->slots[run->next_write % run->nslots];
		size_t b;

		if (s->state == SLOT_DONE) {
			pthread_mutex_unlock(&run->mu);
			if (s->failed) {
				*fail = s->fail;
				rc = WG_EMIT_REFUSED;
			} else {
				rc = sink(data, s->text.buf, s->text.len);
			}
			pthread_mutex_lock(&run->mu);
			wg_buf_reset(&s->text);
			s->state = SLOT_FREE;
			run->next_write++;
			pthread_cond_broadcast(&run->changed);
			continue;
		}
		if ((s = claim(run, false, &b)))
			fill(run, s, b);
		else
			pthread_cond_wait(&run->changed, &run->mu);
	}
	run->stop = true;
	pthread_cond_broadcast(&run->changed);
	pthread_mutex_unlock(&run->mu);
	return rc;
}

int wg_emit_yaml_batches(const struct wg_resources *list, unsigned jobs,
			 size_t batch_docs, wg_emit_sink sink, void *data,
			 struct wg_emit_failure *fail)
{
	struct emit_run run = { .list = list };
	pthread_t threads[WG_EMIT_MAX_JOBS];
	unsigned started = 0;
	int rc;

	run.docs = wg_xmalloc((list->len ? list->len : 1) * sizeof(*run.docs));
	for (size_t i = 0; i < list->len; i++)
		if (!(list->items[i]->flags & WG_RES_DELETED))
			run.docs[run.ndocs++] = i;
	run.batch_docs = batch_docs ? batch_docs
				    : wg_emit_batch_docs(run.ndocs, jobs);
	run.nbatches = (run.ndocs + run.batch_docs - 1) / run.batch_docs;
	if (jobs > WG_EMIT_MAX_JOBS)
		jobs = WG_EMIT_MAX_JOBS;
	if (jobs > run.nbatches)
		jobs = (unsigned)run.nbatches;
	if (jobs <= 1) {
		/* One thread: each batch goes out as it is written. */
		struct wg_buf text = WG_BUF_INIT;

		rc = 0;
		for (size_t b = 0; b < run.nbatches && rc == 0; b++) {
			rc = emit_batch(&run, b, &text, fail, sink, data);
			if (rc == 0 && text.len)
				rc = sink(data, text.buf, text.len);
			wg_buf_reset(&text);
		}
		wg_buf_release(&text);
		free(run.docs);
		return rc;
	}
	run.nslots = 2 * (size_t)jobs;
	run.slots = wg_xcalloc(run.nslots, sizeof(*run.slots));
	for (size_t i = 0; i < run.nslots; i++)
		wg_buf_init(&run.slots[i].text);
	pthread_mutex_init(&run.mu, NULL);
	pthread_cond_init(&run.changed, NULL);
	/* A thread that cannot start leaves its share to the others. */
	while (started + 1 < jobs
	       && pthread_create(&threads[started], NULL, worker, &run) == 0)
		started++;
	rc = drive(&run, sink, data, fail);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_cond_destroy(&run.changed);
	pthread_mutex_destroy(&run.mu);
	for (size_t i = 0; i < run.nslots; i++)
		wg_buf_release(&run.slots[i].text);
	free(run.slots);
	free(run.docs);
	return rc;
}

int wg_emit_yaml_stream(const struct wg_resources *list, unsigned jobs,
			wg_emit_sink sink, void *data,
			struct wg_emit_failure *fail)
{
	return wg_emit_yaml_batches(list, jobs, 0, sink, data, fail);
}
