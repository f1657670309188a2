/*
 * migrate over many files on threads (migrate.h, wg_migrate_pool_load()).
 * Loading is most of migrate's work: reading each file, parsing it and
 * scanning its positions.  Files are independent until the chain runs, so
 * threads take the next unread file each, into lists of their own (one
 * list a thread, not one a file: a list's arena starts with a block of its
 * own, as src/yaml/read_split.c says for build), and the caller puts them
 * in order afterwards.
 */
#include "wingen/migrate/migrate.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/diag.h"
#include "wingen/base/work.h"

/* As many threads as build reads with at most (emit_stream.h). */
#define MAX_THREADS 16

/* What loading one file on a thread gave. */
struct loaded {
	size_t first, last;	/* its objects in its thread's list */
	size_t documents;	/* documents read, toward the limit */
	unsigned worker;	/* the thread that loaded it */
	int rc;			/* wg_migrate_load()'s */
	bool said;		/* its load reported something */
};

struct worker {
	struct wg_migrate_pool *pool;
	unsigned id;		/* 0: the calling thread */
	struct wg_resources list;
};

struct wg_migrate_pool {
	struct wg_ctx *ctx;
	struct wg_ctx proto;	/* a file's context as it starts: ctx's
				   limits and strictness, an empty log */
	struct wg_migrate_file *files;
	char *const *paths;
	size_t n;
	struct wg_resources *list;
	/* NULL: loaded serially, as taken; else every file was loaded (the
	 * calling thread takes what a thread that did not start left) */
	struct loaded *loaded;
	struct worker workers[MAX_THREADS];
	unsigned nworkers;
	struct wg_work work;	/* the files not yet loaded */
	size_t taken;		/* files the caller has taken */
	void (*progress)(void *arg, size_t i);
	void *progress_arg;
};

static void *load_files(void *arg)
{
	struct worker *w = arg;
	struct wg_migrate_pool *p = w->pool;

	for (size_t k; wg_work_take(&p->work, &k);) {
		struct loaded *l;
		struct wg_ctx ctx;

		if (w->id == 0 && p->progress)
			p->progress(p->progress_arg, k);
		/* a copy of the pool's empty context owns nothing yet */
		ctx = p->proto;
		l = &p->loaded[k];
		l->worker = w->id;
		l->first = w->list.len;
		l->rc = wg_migrate_load(&ctx, &p->files[k], p->paths[k],
					&w->list);
		l->last = w->list.len;
		l->documents = ctx.documents;
		l->said = ctx.log.ndiags > 0 || wg_ctx_failed(&ctx);
		wg_ctx_release(&ctx);
	}
	return NULL;
}

struct wg_migrate_pool *wg_migrate_pool_load(
	struct wg_ctx *ctx, struct wg_migrate_file *files,
	char *const *paths, size_t n, struct wg_resources *list,
	unsigned jobs, void (*progress)(void *arg, size_t i), void *arg)
{
	struct wg_migrate_pool *p = wg_xcalloc(1, sizeof(*p));
	pthread_t threads[MAX_THREADS];
	bool started[MAX_THREADS] = { false };

	p->ctx = ctx;
	p->files = files;
	p->paths = paths;
	p->n = n;
	p->list = list;
	p->progress = progress;
	p->progress_arg = arg;
	p->nworkers = jobs < MAX_THREADS ? jobs : MAX_THREADS;
	if (p->nworkers > n)
		p->nworkers = (unsigned)n;
	if (p->nworkers < 2) {
		p->nworkers = 0;
		return p;	/* each file loaded as it is taken */
	}
	/* not wg_ctx_init(): the limits are ctx's, already read from the
	 * environment, and the log must stay empty (each file's context
	 * is a copy of this one) */
	wg_log_init(&p->proto.log);
	p->proto.limits = ctx->limits;
	p->proto.strict = ctx->strict;
	p->proto.profile = ctx->profile;
	p->proto.skip_changes = ctx->skip_changes;
	p->loaded = wg_xcalloc(n, sizeof(*p->loaded));
	wg_work_init(&p->work, n);
	for (unsigned t = 0; t < p->nworkers; t++) {
		p->workers[t].pool = p;
		p->workers[t].id = t;
		wg_resources_init(&p->workers[t].list);
		p->workers[t].list.share_keys = list->share_keys;
	}
	for (unsigned t = 1; t < p->nworkers; t++)
		started[t] = pthread_create(&threads[t], NULL, load_files,
					    &p->workers[t]) == 0;
	load_files(&p->workers[0]);	/* takes what a failed start left */
	for (unsigned t = 1; t < p->nworkers; t++)
		if (started[t])
			pthread_join(threads[t], NULL);
	wg_work_destroy(&p->work);
	return p;
}

int wg_migrate_pool_take(struct wg_migrate_pool *p, size_t i)
{
	const struct loaded *l = p->loaded ? &p->loaded[i] : NULL;
	struct wg_ctx *ctx = p->ctx;

	p->taken = i + 1;
	if (!l) {
		if (p->progress)
			p->progress(p->progress_arg, i);
		return wg_migrate_load(ctx, &p->files[i], p->paths[i],
				       p->list);
	}
	if (l->rc == 0 && !l->said
	    && ctx->documents <= ctx->limits.max_documents
	    && l->documents <= ctx->limits.max_documents - ctx->documents) {
		const struct wg_resources *from = &p->workers[l->worker].list;

		ctx->documents += l->documents;
		for (size_t k = l->first; k < l->last; k++)
			wg_resources_append(p->list, from->items[k]);
		return 0;
	}
	/* Again here, in its turn, so its messages are the caller's.  What
	 * its thread made of it stays in that thread's arena, unlisted. */
	wg_migrate_file_release(&p->files[i]);
	return wg_migrate_load(ctx, &p->files[i], p->paths[i], p->list);
}

void wg_migrate_pool_end(struct wg_migrate_pool *p)
{
	if (!p)
		return;
	/* loaded on a thread, never taken (the caller stopped before) */
	for (size_t i = p->taken; p->loaded && i < p->n; i++)
		wg_migrate_file_release(&p->files[i]);
	for (unsigned t = 0; t < p->nworkers; t++) {
		p->workers[t].list.len = 0;	/* taken above, or dropped */
		wg_resources_take(p->list, &p->workers[t].list);
	}
	free(p->loaded);
	free(p);
}
