#ifndef WINGEN_SERVE_SERVER_H
#define WINGEN_SERVE_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/ctx.h"
#include "wingen/serve/admit.h"

/*
 * wingen serve: the admission webhook over HTTPS.  libmicrohttpd serves
 * HTTP/1.1 (keep-alive) on its own thread pool with epoll, GnuTLS does
 * the TLS; nothing here parses HTTP or TLS.
 *
 *   POST /mutate     AdmissionReview -> allowed, patch, warnings
 *   POST /validate   the same findings, no patch; what the chain would
 *                    change is denied (admit.h)
 *   GET  /healthz    200 while the process serves
 *   GET  /readyz     200 once profile and certificate are loaded, 503
 *                    while shutting down
 *   GET  /metrics    Prometheus text (metrics.h)
 *
 * Reload without a restart: on SIGHUP, and when a file of the profile or
 * of the certificate changes (inotify on their folders, where a kubelet
 * swaps a mounted ConfigMap or Secret through its "..data" link): a
 * profile or certificate that does not load leaves the old one serving,
 * is logged and counted.  SIGTERM (and SIGINT) stop taking connections
 * after shutdown_delay, let the requests in flight finish (at most
 * shutdown_timeout) and return 0.
 *
 * Bounds: connections (max_connections), an idle timeout per connection
 * (a slow client holds a connection, never a worker: libmicrohttpd reads
 * without blocking and calls wingen once a body is whole), one body at
 * most WG_REVIEW_MAX_BODY, the bodies being received together at most
 * body_budget bytes (beyond: 503), one profile copy per worker thread.
 *
 * Logging goes through the log callback, one line at a time (the CLI
 * prints); a request makes at most one line, which names the request
 * (uid, kind, namespace, name, operation) and its outcome, never the
 * object or the user.
 */

enum wg_log_format {
	WG_LOG_TEXT = 0,	/* logfmt: time=... level=info msg=... */
	WG_LOG_JSON,		/* one JSON object a line */
};

enum wg_log_level {
	WG_LOG_DEBUG = 0,
	WG_LOG_INFO,
	WG_LOG_WARN,
	WG_LOG_ERROR,
};

struct wg_serve_config {
	const char *profile;	/* a file; NULL: the embedded default */
	const char *cert_file;	/* PEM: the certificate, then its chain */
	const char *key_file;	/* PEM: its private key */
	const char *address;	/* an IPv4 or IPv6 address; NULL: all */
	unsigned port;
	bool audit;
	struct wg_admit_kinds kinds;
	enum wg_log_format log_format;
	enum wg_log_level log_level;	/* lines below it are dropped */
	unsigned threads;	/* workers (and profile copies) */
	unsigned max_connections;
	unsigned idle_timeout;	/* seconds a connection may stay silent */
	size_t body_budget;	/* bytes of bodies held at once */
	unsigned shutdown_delay;	/* seconds to keep serving after
					   SIGTERM (endpoints to go) */
	unsigned shutdown_timeout;	/* seconds to let requests finish */
	/* Writes one line (ending in "\n"); called from any thread. */
	void (*log)(void *arg, const char *line, size_t len);
	void *log_arg;
};

/* The defaults of the optional settings. */
void wg_serve_config_default(struct wg_serve_config *c);

struct wg_server;

/*
 * Loads the profile and the certificate and starts serving.  Blocks
 * SIGHUP, SIGTERM and SIGINT in the calling thread (and so in every
 * thread it starts) for wg_serve_wait().  Returns 0 and *out, or -1
 * with the problems on ctx (a profile error with its file:line:col, a
 * certificate GnuTLS refuses, a port in use).
 */
int wg_serve_start(struct wg_ctx *ctx, const struct wg_serve_config *c,
		   struct wg_server **out);

/* Serves until SIGTERM or SIGINT, reloading on SIGHUP and file
 * changes; then drains and stops.  Returns 0. */
int wg_serve_wait(struct wg_server *s);

void wg_serve_free(struct wg_server *s);

#endif
