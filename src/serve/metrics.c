/*
 * Prometheus metrics of the webhook (metrics.h).
 */
#include "wingen/serve/metrics.h"

#include <string.h>

static const double bucket_le[WG_METRICS_NBUCKETS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 1,
};

static const char *const endpoint_names[WG_EP_COUNT] = { "mutate",
							   "validate" };
static const char *const asset_names[WG_ASSET_COUNT] = { "profile",
							   "certificate" };

void wg_metrics_init(struct wg_serve_metrics *m)
{
	memset(m, 0, sizeof(*m));
}

void wg_metrics_request(struct wg_serve_metrics *m, enum wg_serve_endpoint ep,
			enum wg_admit_outcome outcome, uint64_t ns)
{
	size_t b = 0;

	while (b < WG_METRICS_NBUCKETS && (double)ns > bucket_le[b] * 1e9)
		b++;
	atomic_fetch_add_explicit(&m->requests[ep][outcome], 1,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&m->buckets[ep][b], 1,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&m->sum_ns[ep], ns, memory_order_relaxed);
}

void wg_metrics_reload(struct wg_serve_metrics *m, enum wg_serve_asset what,
		       bool ok)
{
	atomic_fetch_add_explicit(ok ? &m->reloads[what]
				     : &m->reload_failures[what], 1,
				  memory_order_relaxed);
}

static uint64_t get(const atomic_uint_fast64_t *v)
{
	return (uint64_t)atomic_load_explicit(v, memory_order_relaxed);
}

void wg_metrics_write(const struct wg_serve_metrics *m, struct wg_buf *out)
{
	wg_buf_addstr(out,
		"# HELP wingen_serve_requests_total Admission reviews "
		"answered, by endpoint and outcome.\n"
		"# TYPE wingen_serve_requests_total counter\n");
	for (int e = 0; e < WG_EP_COUNT; e++)
		for (int o = 0; o < WG_OUTCOME_COUNT; o++)
			wg_buf_addf(out, "wingen_serve_requests_total{endpoint="
				    "\"%s\",outcome=\"%s\"} %llu\n",
				    endpoint_names[e],
				    wg_admit_outcome_name(
					    (enum wg_admit_outcome)o),
				    (unsigned long long)get(
					    &m->requests[e][o]));
	wg_buf_addstr(out,
		"# HELP wingen_serve_request_duration_seconds Time from a "
		"review's arrival to its answer.\n"
		"# TYPE wingen_serve_request_duration_seconds histogram\n");
	for (int e = 0; e < WG_EP_COUNT; e++) {
		uint64_t cum = 0;

		for (int b = 0; b <= WG_METRICS_NBUCKETS; b++) {
			cum += get(&m->buckets[e][b]);
			if (b < WG_METRICS_NBUCKETS)
				wg_buf_addf(out, "wingen_serve_request_duration"
					    "_seconds_bucket{endpoint=\"%s\","
					    "le=\"%g\"} %llu\n",
					    endpoint_names[e], bucket_le[b],
					    (unsigned long long)cum);
			else
				wg_buf_addf(out, "wingen_serve_request_duration"
					    "_seconds_bucket{endpoint=\"%s\","
					    "le=\"+Inf\"} %llu\n",
					    endpoint_names[e],
					    (unsigned long long)cum);
		}
		wg_buf_addf(out, "wingen_serve_request_duration_seconds_sum"
			    "{endpoint=\"%s\"} %.9f\n", endpoint_names[e],
			    (double)get(&m->sum_ns[e]) / 1e9);
		wg_buf_addf(out, "wingen_serve_request_duration_seconds_count"
			    "{endpoint=\"%s\"} %llu\n", endpoint_names[e],
			    (unsigned long long)cum);
	}
	wg_buf_addstr(out,
		"# HELP wingen_serve_reloads_total Profile and certificate "
		"reloads that took effect.\n"
		"# TYPE wingen_serve_reloads_total counter\n");
	for (int a = 0; a < WG_ASSET_COUNT; a++)
		wg_buf_addf(out, "wingen_serve_reloads_total{what=\"%s\"} "
			    "%llu\n", asset_names[a],
			    (unsigned long long)get(&m->reloads[a]));
	wg_buf_addstr(out,
		"# HELP wingen_serve_reload_failures_total Reloads that "
		"failed (the old profile or certificate stays).\n"
		"# TYPE wingen_serve_reload_failures_total counter\n");
	for (int a = 0; a < WG_ASSET_COUNT; a++)
		wg_buf_addf(out, "wingen_serve_reload_failures_total{what="
			    "\"%s\"} %llu\n", asset_names[a],
			    (unsigned long long)get(&m->reload_failures[a]));
	wg_buf_addf(out,
		"# HELP wingen_serve_busy_total Requests turned away (memory "
		"budget spent, or shutting down).\n"
		"# TYPE wingen_serve_busy_total counter\n"
		"wingen_serve_busy_total %llu\n"
		"# HELP wingen_serve_in_flight_requests Requests being "
		"received or answered.\n"
		"# TYPE wingen_serve_in_flight_requests gauge\n"
		"wingen_serve_in_flight_requests %lld\n",
		(unsigned long long)get(&m->busy),
		(long long)atomic_load_explicit(&m->in_flight,
						memory_order_relaxed));
}
