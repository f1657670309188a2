#define _GNU_SOURCE	/* memmem */
#include "wingen/yaml/read_split.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/work.h"
#include "wingen/yaml/reader.h"

/* Most pieces one input is cut into (emit_stream.h caps threads alike). */
#define MAX_PIECES 16

/* One piece of the input and what reading it gave. */
struct piece {
	const struct wg_input *in;
	size_t start, end;
	bool share_keys;
	struct wg_ctx ctx;		/* its own: diagnostics, counters */
	struct wg_resources list;	/* one input cut in pieces: its own */
	size_t first, last;		/* its objects in the list it was read
					   into: [first, last) */
	size_t worker;			/* of a pool: the thread that read it */
	unsigned docs;			/* documents read, empty ones too */
	int rc;
};

static bool is_doc_start(const char *d, size_t len, size_t i)
{
	return i + 3 <= len && d[i] == '-' && d[i + 1] == '-'
	       && d[i + 2] == '-'
	       && (i + 3 == len || d[i + 3] == ' ' || d[i + 3] == '\t'
		   || d[i + 3] == '\r' || d[i + 3] == '\n');
}

/* Whether the nearest line above the line starting at i that is neither
 * blank nor a comment is a directive ("%..."): it belongs to the document
 * of that "---" line, so the cut cannot fall between them. */
static bool after_directive(const char *d, size_t i)
{
	while (i > 0) {
		size_t end = i - 1, b = end, k;

		while (b > 0 && d[b - 1] != '\n')
			b--;
		for (k = b; k < end && (d[k] == ' ' || d[k] == '\t'
					|| d[k] == '\r'); k++)
			;
		if (k < end && d[k] != '#')
			return d[b] == '%';
		i = b;
	}
	return false;
}

size_t wg_read_split_next_cut(const char *data, size_t len, size_t from)
{
	size_t i = from;

	if (i >= len)
		return 0;
	if (i > 0 && data[i - 1] != '\n') {
		const char *nl = memchr(data + i, '\n', len - i);

		if (!nl)
			return 0;
		i = (size_t)(nl - data) + 1;
	}
	while (i < len) {
		const char *next;

		if (is_doc_start(data, len, i) && !after_directive(data, i))
			return i;
		next = memmem(data + i, len - i, "\n---", 4);
		if (!next)
			return 0;
		i = (size_t)(next - data) + 1;
	}
	return 0;
}

/* 0x80 in every byte of w that is c, 0 in the others (exact: no byte
 * carries into its neighbour). */
static uint64_t bytes_equal(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (UINT64_C(0x0101010101010101) * c);
	uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);

	return ~(((x & low7) + low7) | x) & UINT64_C(0x8080808080808080);
}

/*
 * The 0-based line of byte at (a line's start), counted as libyaml counts
 * its marks: a line break is LF, CR LF, a CR alone, or the Unicode NEL,
 * LS and PS.  Every byte before a cut passes through here, so the common
 * input (no CR, and no 0xC2 or 0xE2 lead byte those breaks start with) is
 * counted eight bytes at a time; anything else byte by byte.
 */
static size_t line_of(const char *data, size_t at)
{
	const unsigned char *d = (const unsigned char *)data;
	size_t lines = 0, i = 0;
	uint64_t rare = 0;

	for (; i + 8 <= at; i += 8) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		lines += (size_t)__builtin_popcountll(bytes_equal(w, '\n'));
		rare |= bytes_equal(w, '\r') | bytes_equal(w, 0xc2)
			| bytes_equal(w, 0xe2);
	}
	for (; i < at; i++)
		rare |= d[i] == '\r' || d[i] == 0xc2 || d[i] == 0xe2;
	if (!rare) {
		for (i = at & ~(size_t)7; i < at; i++)
			lines += d[i] == '\n';
		return lines;
	}
	lines = 0;
	for (i = 0; i < at; i++) {
		switch (d[i]) {
		case '\n':
			lines++;
			break;
		case '\r':
			lines += i + 1 >= at || d[i + 1] != '\n';
			break;
		case 0xc2:	/* NEL: C2 85 */
			lines += i + 1 < at && d[i + 1] == 0x85;
			break;
		case 0xe2:	/* LS, PS: E2 80 A8, E2 80 A9 */
			lines += i + 2 < at && d[i + 1] == 0x80
				 && (d[i + 2] == 0xa8 || d[i + 2] == 0xa9);
			break;
		default:
			break;
		}
	}
	return lines;
}

/* Reads piece p into list (its objects are then list's [first, last)). */
static void read_piece_into(struct piece *p, struct wg_resources *list)
{
	struct wg_reader r;
	struct wg_node *root;
	const char *file;
	unsigned index;

	p->first = list->len;
	file = wg_arena_strdup(&list->arena, p->in->name);
	wg_reader_init_range(&r, &p->ctx, p->in, p->start, p->end,
			     p->start ? line_of(p->in->data, p->start) : 0);
	if (p->share_keys)
		r.shared_keys = list;
	while ((p->rc = wg_reader_next(&r, &list->arena, &root, &index)) > 0)
		wg_resources_add_document(list, root, file, index);
	p->docs = r.doc_index;
	p->last = list->len;
	wg_reader_release(&r);
}

static void *read_piece(void *arg)
{
	struct piece *p = arg;

	wg_resources_init(&p->list);
	p->list.share_keys = p->share_keys;
	read_piece_into(p, &p->list);
	return NULL;
}

/* Where to cut in into at most jobs pieces of at least min_piece bytes:
 * starts[0] = 0, starts[n] = in->len.  Returns n (1: not cut). */
static size_t plan(const struct wg_input *in, unsigned jobs, size_t min_piece,
		   size_t *starts)
{
	const char *d = in->data;
	size_t len = in->len, n = 1, want, i = 0;

	starts[0] = 0;
	while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r'
			   || d[i] == '\n'))
		i++;
	/* JSON streams are cut by the reader itself (segments) */
	if (i < len && (d[i] == '{' || d[i] == '['))
		jobs = 1;
	if (min_piece == 0)
		min_piece = 1;
	want = jobs < MAX_PIECES ? jobs : MAX_PIECES;
	if (want > len / min_piece)
		want = len / min_piece;
	for (size_t k = 1; k < want; k++) {
		size_t from = len / want * k, cut;

		if (from < starts[n - 1] + min_piece)
			from = starts[n - 1] + min_piece;
		cut = wg_read_split_next_cut(d, len, from);
		if (!cut)
			break;
		starts[n++] = cut;
	}
	starts[n] = len;
	return n;
}

/* Joins the pieces into list, or says why one reader must do it: a piece
 * failed or said something, or the documents are past the limit. */
static bool join(struct wg_ctx *ctx, struct wg_resources *list,
		 struct piece *pieces, size_t n)
{
	size_t documents = ctx->documents;
	unsigned offset = 0;

	for (size_t k = 0; k < n; k++) {
		if (pieces[k].rc != 0 || pieces[k].ctx.log.ndiags
		    || wg_ctx_failed(&pieces[k].ctx))
			return false;
		documents += pieces[k].ctx.documents;
	}
	if (documents > ctx->limits.max_documents)
		return false;
	ctx->documents = documents;
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < pieces[k].list.len; i++)
			pieces[k].list.items[i]->index += offset;
		offset += pieces[k].docs;
		wg_resources_take(list, &pieces[k].list);
	}
	return true;
}

int wg_read_stream_split(struct wg_ctx *ctx, const struct wg_input *in,
			 struct wg_resources *list, unsigned jobs,
			 size_t min_piece)
{
	size_t starts[MAX_PIECES + 1], n = plan(in, jobs, min_piece, starts);
	struct piece *pieces;
	pthread_t threads[MAX_PIECES];
	bool started[MAX_PIECES] = { false };
	bool joined;

	if (n < 2)
		return wg_read_stream(ctx, in, list);
	pieces = wg_xcalloc(n, sizeof(*pieces));
	for (size_t k = 0; k < n; k++) {
		pieces[k] = (struct piece){ .in = in, .start = starts[k],
					    .end = starts[k + 1],
					    .share_keys = list->share_keys };
		/* here, not on the thread: wg_ctx_init() reads the
		 * environment */
		wg_ctx_init(&pieces[k].ctx);
		pieces[k].ctx.limits = ctx->limits;
	}
	/* The caller reads the first piece; a thread that cannot start
	 * leaves its piece to the caller too. */
	for (size_t k = 1; k < n; k++)
		started[k] = pthread_create(&threads[k], NULL, read_piece,
					    &pieces[k]) == 0;
	read_piece(&pieces[0]);
	for (size_t k = 1; k < n; k++) {
		if (started[k])
			pthread_join(threads[k], NULL);
		else
			read_piece(&pieces[k]);
	}
	joined = join(ctx, list, pieces, n);
	for (size_t k = 0; k < n; k++) {
		wg_resources_release(&pieces[k].list);
		wg_ctx_release(&pieces[k].ctx);
	}
	free(pieces);
	return joined ? 0 : wg_read_stream(ctx, in, list);
}

int wg_read_stream_jobs(struct wg_ctx *ctx, const struct wg_input *in,
			struct wg_resources *list, unsigned jobs)
{
	return wg_read_stream_split(ctx, in, list, jobs,
				    WG_READ_SPLIT_MIN_PIECE);
}

/* ---- many inputs --------------------------------------------------------- */

/*
 * The inputs a pool of threads reads, each taking the next unread one.
 * Each thread reads into a list of its own, not one per input: a list's
 * arena starts with a block of 16 KiB and doubles, so 50,000 small files
 * with an arena each held twice the memory their trees needed (974 MB
 * against 569 MB on one thread, bench/README.md).  The objects are put
 * in input order when the threads are done.
 */
struct pool {
	struct piece *pieces;
	struct wg_work work;	/* the pieces not yet taken */
};

struct worker {
	struct pool *pool;
	size_t id;
	struct wg_resources list;
};

static void *read_pooled(void *arg)
{
	struct worker *w = arg;
	struct pool *pool = w->pool;

	for (size_t k; wg_work_take(&pool->work, &k);) {
		pool->pieces[k].worker = w->id;
		read_piece_into(&pool->pieces[k], &w->list);
	}
	return NULL;
}

int wg_read_streams_jobs(struct wg_ctx *ctx, const struct wg_input *ins,
			 size_t n, struct wg_resources *list, unsigned jobs)
{
	struct pool pool = { .pieces = NULL };
	struct worker workers[MAX_PIECES];
	pthread_t threads[MAX_PIECES];
	bool started[MAX_PIECES] = { false };
	size_t nthreads = jobs < MAX_PIECES ? jobs : MAX_PIECES, documents;
	int rc = 0;

	if (nthreads > n)
		nthreads = n;
	if (nthreads < 2) {
		for (size_t k = 0; k < n; k++)
			if (wg_read_stream_jobs(ctx, &ins[k], list, jobs))
				rc = -1;
		return rc;
	}
	pool.pieces = wg_xcalloc(n, sizeof(*pool.pieces));
	wg_work_init(&pool.work, n);
	for (size_t k = 0; k < n; k++) {
		pool.pieces[k] = (struct piece){ .in = &ins[k], .start = 0,
						 .end = ins[k].len,
						 .share_keys = list->share_keys };
		wg_ctx_init(&pool.pieces[k].ctx);	/* reads the environment */
		pool.pieces[k].ctx.limits = ctx->limits;
	}
	for (size_t t = 0; t < nthreads; t++) {
		workers[t].pool = &pool;
		workers[t].id = t;
		wg_resources_init(&workers[t].list);
		workers[t].list.share_keys = list->share_keys;
	}
	for (size_t t = 1; t < nthreads; t++)
		started[t] = pthread_create(&threads[t], NULL, read_pooled,
					    &workers[t]) == 0;
	read_pooled(&workers[0]);	/* takes what a failed start left */
	for (size_t t = 1; t < nthreads; t++)
		if (started[t])
			pthread_join(threads[t], NULL);
	/* Past the document limit, one reader after another says where. */
	documents = ctx->documents;
	for (size_t k = 0; k < n; k++)
		documents += pool.pieces[k].ctx.documents;
	for (size_t k = 0; k < n; k++) {
		struct piece *p = &pool.pieces[k];
		struct wg_resources *from = &workers[p->worker].list;

		/* an input that said anything is read again here, in its
		 * turn, so every message comes as one reader gives it (what
		 * its thread read of it stays in that arena, unlisted) */
		if (documents > ctx->limits.max_documents || p->rc != 0
		    || p->ctx.log.ndiags || wg_ctx_failed(&p->ctx)) {
			if (wg_read_stream(ctx, p->in, list))
				rc = -1;
		} else {
			ctx->documents += p->ctx.documents;
			for (size_t i = p->first; i < p->last; i++)
				wg_resources_append(list, from->items[i]);
		}
		wg_ctx_release(&p->ctx);
	}
	for (size_t t = 0; t < nthreads; t++) {
		workers[t].list.len = 0;	/* listed above, or dropped */
		wg_resources_take(list, &workers[t].list);
	}
	wg_work_destroy(&pool.work);
	free(pool.pieces);
	return rc;
}
