#ifndef WINGEN_SERVE_ADMIT_H
#define WINGEN_SERVE_ADMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"
#include "wingen/profile/profile.h"

/*
 * One admission review answered: the request decoded (review.h), the
 * profile's chain run on its one object by wg_run_chain() (chain/run.h,
 * the code build runs, without the RuntimeClass generator as a
 * post-renderer runs it), and the answer written.  No HTTP here
 * (server.c) and no printing: the caller gets the body to send and the
 * facts for its log line and metrics.
 *
 * What the webhook does that build does not:
 *  - it sees one object, not a stream: no RuntimeClass is generated, and
 *    a Windows pod may name only one of the profile's (as --no-
 *    runtimeclasses);
 *  - an object without metadata.namespace is in request.namespace (set
 *    before the chain runs, so selection by namespace sees it; no patch
 *    operation writes it);
 *  - an UPDATE that leaves every pod template as it was (specs, labels,
 *    annotations) gets no patch and no denial: what the chain finds is
 *    a warning.  A Pod's scheduling fields cannot change after creation,
 *    nor can a Job's template; an object made before wingen was
 *    installed is not rewritten behind its owner's back on an unrelated
 *    change;
 *  - DELETE and CONNECT carry no object to review: admitted, said in the
 *    log.
 * Never admitted by accident: a body that is no review is an HTTP error
 * (400, 413); a review of a kind it does not handle, of a subresource,
 * without an object or with one over 3 MiB is answered allowed: false
 * with the reason; a chain that could not finish is allowed: false.
 */

/* Which kinds are reviewed. */
struct wg_admit_kinds {
	bool all;	/* every workload kind: the kinds table and the
			   profile's workloads: */
	const char *const *names;	/* else these kind names; none: Pod */
	size_t n;
};

enum wg_admit_endpoint {
	WG_ADMIT_MUTATE = 0,	/* answer with a patch */
	WG_ADMIT_VALIDATE,	/* deny what the chain would change */
};

struct wg_admit_opts {
	enum wg_admit_endpoint endpoint;
	bool audit;	/* warn, never deny a finding */
	const struct wg_admit_kinds *kinds;
};

/* How a request ended, for the log and the metrics. */
enum wg_admit_outcome {
	WG_OUTCOME_ALLOWED = 0,	/* admitted as it is */
	WG_OUTCOME_PATCHED,	/* admitted with a patch */
	WG_OUTCOME_DENIED,	/* allowed: false: a conflict, or (/validate)
				   a change the object needs */
	WG_OUTCOME_REFUSED,	/* allowed: false: a request it does not
				   handle (kind, subresource, size) */
	WG_OUTCOME_BAD_REQUEST,	/* HTTP 400 or 413: no review to answer */
	WG_OUTCOME_ERROR,	/* allowed: false: the chain gave up */
	WG_OUTCOME_COUNT
};

const char *wg_admit_outcome_name(enum wg_admit_outcome o);

/* Bounds of what an answer carries, so none grows with the object. */
#define WG_ADMIT_MAX_WARNINGS 10	/* and one "N more" */
#define WG_ADMIT_WARNING_BYTES 256	/* the API server may cut longer */
#define WG_ADMIT_MAX_REASONS 5		/* in a denial's message */

/*
 * An answer, and the facts of the request for the log (copies, cut to
 * their buffers; none is a secret or the object).  Reused from one
 * request to the next on one thread: wg_admit_run() resets it.
 */
struct wg_admit {
	int http_status;	/* 200, or 400/413 (body is then text) */
	struct wg_buf body;	/* the response AdmissionReview (JSON) */
	enum wg_admit_outcome outcome;
	char uid[129];
	char kind[64];
	char namespace_[64];
	char name[254];		/* request.name, or generateName + "*" */
	char operation[16];
	bool dry_run;
	long patch_ops;		/* operations in the patch sent */
	size_t nwarnings;	/* findings sent as warnings */
	struct wg_buf reason;	/* why denied or refused, one line */
	struct wg_buf scratch;
	struct wg_arena arena;	/* a request's tree; its block is kept for
				   the next request (up to KEEP_BYTES) */
};

void wg_admit_init(struct wg_admit *a);
void wg_admit_release(struct wg_admit *a);

/*
 * Answers the review in body (len bytes, body[len] == '\0') under
 * profile p (read only; one profile per thread at a time: its PCRE2
 * match data is its own) and o.  Fills a.
 */
void wg_admit_run(struct wg_admit *a, const struct wg_profile *p,
		  const struct wg_admit_opts *o, const char *body, size_t len);

#endif
