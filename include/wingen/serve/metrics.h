#ifndef WINGEN_SERVE_METRICS_H
#define WINGEN_SERVE_METRICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "wingen/base/buf.h"
#include "wingen/serve/admit.h"

/*
 * The webhook's metrics, in the Prometheus text format (version 0.0.4):
 * requests by endpoint and outcome, a latency histogram per endpoint,
 * reloads and their failures, requests in flight, requests turned away
 * (busy).  Counters are atomics updated by the worker threads.
 */

enum wg_serve_endpoint {
	WG_EP_MUTATE = 0,
	WG_EP_VALIDATE,
	WG_EP_COUNT
};

/* What is reloaded. */
enum wg_serve_asset {
	WG_ASSET_PROFILE = 0,
	WG_ASSET_CERTIFICATE,
	WG_ASSET_COUNT
};

/* Upper bounds of the latency buckets, in seconds (then +Inf). */
#define WG_METRICS_NBUCKETS 12

struct wg_serve_metrics {
	atomic_uint_fast64_t requests[WG_EP_COUNT][WG_OUTCOME_COUNT];
	atomic_uint_fast64_t buckets[WG_EP_COUNT][WG_METRICS_NBUCKETS + 1];
	atomic_uint_fast64_t sum_ns[WG_EP_COUNT];
	atomic_uint_fast64_t reloads[WG_ASSET_COUNT];
	atomic_uint_fast64_t reload_failures[WG_ASSET_COUNT];
	atomic_uint_fast64_t busy;	/* turned away: over the memory
					   budget, or shutting down */
	atomic_int_fast64_t in_flight;
};

void wg_metrics_init(struct wg_serve_metrics *m);

/* One review answered on ep after ns nanoseconds. */
void wg_metrics_request(struct wg_serve_metrics *m, enum wg_serve_endpoint ep,
			enum wg_admit_outcome outcome, uint64_t ns);

/* A reload of what, successful or not. */
void wg_metrics_reload(struct wg_serve_metrics *m, enum wg_serve_asset what,
		       bool ok);

/* Appends every metric in the Prometheus text format. */
void wg_metrics_write(const struct wg_serve_metrics *m, struct wg_buf *out);

#endif
