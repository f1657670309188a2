/*
 * wingen serve (server.h): libmicrohttpd's daemon, the endpoints, the
 * reload and shutdown loop.
 */
#include "wingen/serve/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "serve_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/serve/metrics.h"
#include "wingen/serve/review.h"

/* Folders watched at most: those of the profile, the certificate and
 * the key, as named and as their links resolve. */
#define MAX_WATCH 6
/* A kubelet swaps a mount in a few steps: reload once they settle. */
#define SETTLE_MS 200
/*
 * libmicrohttpd's memory for one connection (its read buffer, the request
 * and response headers; a body is copied out as it arrives): half its
 * default, since it clears the whole of it after each request, and the
 * API server's headers take a few hundred bytes.  Beyond it: 431.
 */
#define CONNECTION_MEMORY ((size_t)16 << 10)

struct wg_server {
	struct wg_serve_config c;
	struct MHD_Daemon *daemon;
	struct wg_pool *pool;
	struct wg_serve_metrics m;
	atomic_bool ready;
	atomic_bool draining;
	atomic_size_t buffered;	/* bytes of bodies held */
	pthread_key_t admit_key;	/* each worker's struct wg_admit */
	int sigfd, inofd;
	int wds[MAX_WATCH];
	size_t nwds;
	sigset_t sigs;
	char cert_until[64];
};

enum route {
	R_NONE = 0, R_MUTATE, R_VALIDATE, R_HEALTHZ, R_READYZ, R_METRICS,
};

/* One HTTP request. */
struct req {
	enum route route;
	char *body;
	size_t len, cap;
	size_t reserved;	/* of the body budget */
	uint64_t t0;
	unsigned reject;	/* an HTTP status to answer with, once */
	const char *reject_why;
};

void wg_serve_config_default(struct wg_serve_config *c)
{
	memset(c, 0, sizeof(*c));
	c->port = 8443;
	c->threads = 2;
	c->max_connections = 1024;
	c->idle_timeout = 30;
	c->body_budget = (size_t)64 << 20;
	c->shutdown_timeout = 25;
	c->log_level = WG_LOG_INFO;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- logging ------------------------------------------------------------ */

static bool logs(const struct wg_server *s, enum wg_log_level level)
{
	return s->c.log && level >= s->c.log_level;
}

static void emit(const struct wg_server *s, struct wg_logline *l)
{
	wg_logline_end(l);
	s->c.log(s->c.log_arg, l->b.buf, l->b.len);
	wg_buf_release(&l->b);
}

/* A line with a message and string fields, key then value, NULL-ended. */
static void say(const struct wg_server *s, enum wg_log_level level,
		const char *msg, ...)
{
	struct wg_logline l = { WG_BUF_INIT, s->c.log_format };
	const char *k;
	va_list ap;

	if (!logs(s, level))
		return;
	wg_logline_begin(&l, s->c.log_format, level, msg);
	va_start(ap, msg);
	while ((k = va_arg(ap, const char *)))
		wg_logline_str(&l, k, va_arg(ap, const char *));
	va_end(ap);
	emit(s, &l);
}

/* The diagnostics of ctx as one line of text: "file:line:col: msg; ...". */
static void diags_text(const struct wg_ctx *ctx, struct wg_buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->log.ndiags && n < 5; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		if (d->severity != WG_SEV_ERROR)
			continue;
		if (n++)
			wg_buf_addstr(out, "; ");
		if (d->file)
			wg_buf_addf(out, "%s:", d->file);
		if (d->line)
			wg_buf_addf(out, "%u:%u:", d->line, d->col);
		if (d->file || d->line)
			wg_buf_addch(out, ' ');
		if (d->field)
			wg_buf_addf(out, "%s: ", d->field);
		wg_buf_addstr(out, d->message);
	}
	if (ctx->log.counts[WG_SEV_ERROR] > n)
		wg_buf_addf(out, "; %zu more",
			    ctx->log.counts[WG_SEV_ERROR] - n);
}

static void mhd_logger(void *cls, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void mhd_logger(void *cls, const char *fmt, va_list ap)
{
	struct wg_server *s = cls;
	struct wg_buf b = WG_BUF_INIT;

	if (!logs(s, WG_LOG_DEBUG))
		return;
	wg_buf_vaddf(&b, fmt, ap);
	while (b.len && b.buf[b.len - 1] == '\n')
		b.buf[--b.len] = '\0';
	say(s, WG_LOG_DEBUG, "libmicrohttpd", "detail", b.buf, NULL);
	wg_buf_release(&b);
}

/* ---- responses ---------------------------------------------------------- */

static enum MHD_Result respond(struct wg_server *s, struct MHD_Connection *conn,
			       unsigned status, const char *type,
			       const char *body, size_t len)
{
	struct MHD_Response *resp;
	enum MHD_Result rc;

	resp = MHD_create_response_from_buffer(len, (void *)body,
					       MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (atomic_load(&s->draining))
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION,
					"close");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	rc = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static enum MHD_Result respond_text(struct wg_server *s,
				    struct MHD_Connection *conn,
				    unsigned status, const char *text)
{
	return respond(s, conn, status, "text/plain; charset=utf-8", text,
		       strlen(text));
}

static enum MHD_Result serve_get(struct wg_server *s,
				 struct MHD_Connection *conn, enum route r)
{
	struct wg_buf b = WG_BUF_INIT;
	enum MHD_Result rc;

	switch (r) {
	case R_HEALTHZ:
		return respond_text(s, conn, MHD_HTTP_OK, "ok\n");
	case R_READYZ:
		if (atomic_load(&s->ready) && !atomic_load(&s->draining))
			return respond_text(s, conn, MHD_HTTP_OK, "ok\n");
		return respond_text(s, conn, MHD_HTTP_SERVICE_UNAVAILABLE,
				    atomic_load(&s->draining)
				    ? "shutting down\n" : "not ready\n");
	default:
		wg_metrics_write(&s->m, &b);
		rc = respond(s, conn, MHD_HTTP_OK,
			     "text/plain; version=0.0.4; charset=utf-8",
			     b.buf, b.len);
		wg_buf_release(&b);
		return rc;
	}
}

/* ---- the admission endpoints --------------------------------------------- */

static struct wg_admit *worker_admit(struct wg_server *s)
{
	struct wg_admit *a = pthread_getspecific(s->admit_key);

	if (!a) {
		a = wg_xmalloc(sizeof(*a));
		wg_admit_init(a);
		pthread_setspecific(s->admit_key, a);
	}
	return a;
}

static void free_admit(void *p)
{
	wg_admit_release(p);
	free(p);
}

static void log_review(struct wg_server *s, enum route r,
		       const struct wg_admit *a, uint64_t ns)
{
	enum wg_log_level level = a->outcome == WG_OUTCOME_ALLOWED
		|| a->outcome == WG_OUTCOME_PATCHED ? WG_LOG_INFO
						    : WG_LOG_WARN;
	struct wg_logline l = { WG_BUF_INIT, s->c.log_format };
	char num[32];

	if (!logs(s, level))
		return;
	wg_logline_begin(&l, s->c.log_format, level, "review");
	wg_logline_str(&l, "endpoint", r == R_MUTATE ? "/mutate"
						      : "/validate");
	if (a->uid[0]) {
		wg_logline_str(&l, "uid", a->uid);
		wg_logline_str(&l, "operation", a->operation);
		wg_logline_str(&l, "kind", a->kind);
		wg_logline_str(&l, "namespace", a->namespace_);
		wg_logline_str(&l, "name", a->name);
		wg_logline_raw(&l, "dry_run", a->dry_run ? "true" : "false");
	}
	wg_logline_str(&l, "outcome", wg_admit_outcome_name(a->outcome));
	snprintf(num, sizeof(num), "%d", a->http_status);
	wg_logline_raw(&l, "status", num);
	snprintf(num, sizeof(num), "%ld", a->patch_ops);
	wg_logline_raw(&l, "patch_ops", num);
	snprintf(num, sizeof(num), "%zu", a->nwarnings);
	wg_logline_raw(&l, "warnings", num);
	snprintf(num, sizeof(num), "%.3f", (double)ns / 1e6);
	wg_logline_raw(&l, "ms", num);
	if (a->reason.len)
		wg_logline_str(&l, "reason", a->reason.buf);
	emit(s, &l);
}

static enum MHD_Result serve_review(struct wg_server *s,
				    struct MHD_Connection *conn,
				    struct req *rq)
{
	struct wg_admit_opts o = {
		rq->route == R_MUTATE ? WG_ADMIT_MUTATE : WG_ADMIT_VALIDATE,
		s->c.audit, &s->c.kinds,
	};
	struct wg_admit *a = worker_admit(s);
	const struct wg_profile *p;
	enum MHD_Result rc;
	void *token;
	uint64_t ns;

	if (!rq->body) {
		rq->body = wg_xmalloc(1);
		rq->cap = 1;
	}
	rq->body[rq->len] = '\0';
	p = wg_pool_take(s->pool, &token);
	wg_admit_run(a, p, &o, rq->body, rq->len);
	wg_pool_give(s->pool, token, p);
	rc = respond(s, conn, (unsigned)a->http_status,
		     a->http_status == 200 ? "application/json"
					   : "text/plain; charset=utf-8",
		     a->body.buf, a->body.len);
	ns = now_ns() - rq->t0;
	wg_metrics_request(&s->m, rq->route == R_MUTATE ? WG_EP_MUTATE
							: WG_EP_VALIDATE,
			   a->outcome, ns);
	log_review(s, rq->route, a, ns);
	return rc;
}

/* Takes n more bytes of the body budget; false when they are not
 * there. */
static bool reserve(struct wg_server *s, struct req *rq, size_t n)
{
	size_t have = atomic_load(&s->buffered);

	do {
		if (have + n > s->c.body_budget)
			return false;
	} while (!atomic_compare_exchange_weak(&s->buffered, &have,
					       have + n));
	rq->reserved += n;
	return true;
}

static enum route route_of(const char *url)
{
	static const struct { const char *path; enum route r; } routes[] = {
		{ "/mutate", R_MUTATE }, { "/validate", R_VALIDATE },
		{ "/healthz", R_HEALTHZ }, { "/livez", R_HEALTHZ },
		{ "/readyz", R_READYZ }, { "/metrics", R_METRICS },
	};

	for (size_t i = 0; i < sizeof(routes) / sizeof(*routes); i++)
		if (strcmp(url, routes[i].path) == 0)
			return routes[i].r;
	return R_NONE;
}

/* The first call for a request: route it, and turn away what cannot be
 * served before its body is read. */
static enum MHD_Result begin(struct wg_server *s, struct MHD_Connection *conn,
			     const char *url, const char *method,
			     struct req *rq)
{
	bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0
		   || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	const char *cl;

	rq->route = route_of(url);
	if (rq->route == R_NONE)
		return respond_text(s, conn, MHD_HTTP_NOT_FOUND,
				    "wingen: no such endpoint (POST /mutate, "
				    "POST /validate, GET /healthz, /readyz, "
				    "/metrics)\n");
	if (rq->route >= R_HEALTHZ) {
		if (!get)
			return respond_text(s, conn,
					    MHD_HTTP_METHOD_NOT_ALLOWED,
					    "wingen: GET only\n");
		return serve_get(s, conn, rq->route);
	}
	if (!post)
		return respond_text(s, conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "wingen: POST an AdmissionReview\n");
	cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(cl, &end, 10);
		if (errno || *end || n > WG_REVIEW_MAX_BODY) {
			rq->reject = MHD_HTTP_CONTENT_TOO_LARGE;
			rq->reject_why = "wingen: the body is over 7 MiB\n";
		} else if (!reserve(s, rq, (size_t)n + 1)) {
			rq->reject = MHD_HTTP_SERVICE_UNAVAILABLE;
			rq->reject_why = "wingen: busy, try again\n";
		} else {
			rq->cap = (size_t)n + 1;
			rq->body = wg_xmalloc(rq->cap);
		}
	}
	if (rq->reject) {
		if (rq->reject == MHD_HTTP_SERVICE_UNAVAILABLE)
			atomic_fetch_add(&s->m.busy, 1);
		wg_metrics_request(&s->m, rq->route == R_MUTATE ? WG_EP_MUTATE
				   : WG_EP_VALIDATE,
				   WG_OUTCOME_BAD_REQUEST, now_ns() - rq->t0);
		return respond_text(s, conn, rq->reject, rq->reject_why);
	}
	return MHD_YES;
}

/* More of the body. */
static enum MHD_Result take(struct wg_server *s, struct MHD_Connection *conn,
			    struct req *rq, const char *data, size_t n)
{
	if (rq->len + n + 1 > rq->cap) {
		size_t want = rq->len + n + 1;

		if (want > WG_REVIEW_MAX_BODY + 1) {
			rq->reject = MHD_HTTP_CONTENT_TOO_LARGE;
			return respond_text(s, conn, rq->reject,
					    "wingen: the body is over 7 MiB\n");
		}
		if (want < 2 * rq->cap)
			want = 2 * rq->cap < WG_REVIEW_MAX_BODY + 1
			       ? 2 * rq->cap : WG_REVIEW_MAX_BODY + 1;
		if (!reserve(s, rq, want - rq->cap)) {
			rq->reject = MHD_HTTP_SERVICE_UNAVAILABLE;
			atomic_fetch_add(&s->m.busy, 1);
			return respond_text(s, conn, rq->reject,
					    "wingen: busy, try again\n");
		}
		rq->body = wg_xrealloc(rq->body, want);
		rq->cap = want;
	}
	memcpy(rq->body + rq->len, data, n);
	rq->len += n;
	return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct wg_server *s = cls;
	struct req *rq = *con_cls;

	(void)version;
	if (!rq) {
		rq = wg_xcalloc(1, sizeof(*rq));
		rq->t0 = now_ns();
		*con_cls = rq;
		atomic_fetch_add(&s->m.in_flight, 1);
		return begin(s, conn, url, method, rq);
	}
	if (rq->reject) {
		*upload_size = 0;	/* answered: the rest is dropped */
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;

		*upload_size = 0;
		return take(s, conn, rq, upload, n);
	}
	return serve_review(s, conn, rq);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct wg_server *s = cls;
	struct req *rq = *con_cls;

	(void)conn, (void)toe;
	if (!rq)
		return;
	atomic_fetch_sub(&s->buffered, rq->reserved);
	atomic_fetch_sub(&s->m.in_flight, 1);
	free(rq->body);
	free(rq);
	*con_cls = NULL;
}

/* ---- loading and reloading ------------------------------------------------ */

static int load_profile(struct wg_server *s, struct wg_ctx *ctx, bool force,
			const char *why)
{
	bool unchanged;
	int rc = wg_pool_load(s->pool, ctx, s->c.profile, force, &unchanged);

	if (rc) {
		struct wg_buf b = WG_BUF_INIT;

		diags_text(ctx, &b);
		wg_metrics_reload(&s->m, WG_ASSET_PROFILE, false);
		say(s, WG_LOG_ERROR, "profile not reloaded: the old one "
		    "serves", "trigger", why, "error", b.buf, NULL);
		wg_buf_release(&b);
	} else if (!unchanged) {
		wg_metrics_reload(&s->m, WG_ASSET_PROFILE, true);
		say(s, WG_LOG_INFO, "profile loaded", "trigger", why,
		    "profile", s->c.profile ? s->c.profile : WG_PROFILE_EMBEDDED_PATH,
		    NULL);
	}
	return rc;
}

static int load_certs(struct wg_server *s, struct wg_ctx *ctx,
		      const char *why)
{
	struct wg_buf note = WG_BUF_INIT;
	bool unchanged;
	int rc = wg_certs_load(ctx, s->c.cert_file, s->c.key_file,
			       &unchanged, &note);

	if (rc) {
		struct wg_buf b = WG_BUF_INIT;

		diags_text(ctx, &b);
		wg_metrics_reload(&s->m, WG_ASSET_CERTIFICATE, false);
		say(s, WG_LOG_ERROR, "certificate not reloaded: the old one "
		    "serves", "trigger", why, "error", b.buf, NULL);
		wg_buf_release(&b);
	} else if (!unchanged) {
		wg_metrics_reload(&s->m, WG_ASSET_CERTIFICATE, true);
		say(s, strncmp(note.buf, "EXPIRED", 7) == 0 ? WG_LOG_WARN
		    : WG_LOG_INFO, "certificate loaded", "trigger", why,
		    "not_after", note.buf, NULL);
	}
	wg_buf_release(&note);
	return rc;
}

/* Watches the folders of the files (as named and as resolved): a
 * kubelet replaces a mounted file by swapping the "..data" link in its
 * folder, and an editor by renaming over it. */
static void watch_files(struct wg_server *s)
{
	const char *files[] = { s->c.profile, s->c.cert_file, s->c.key_file };

	for (size_t i = 0; i < s->nwds; i++)
		inotify_rm_watch(s->inofd, s->wds[i]);
	s->nwds = 0;
	for (size_t i = 0; i < 3; i++) {
		char *real, *names[2];

		if (!files[i])
			continue;
		real = realpath(files[i], NULL);
		names[0] = wg_xstrdup(files[i]);
		names[1] = real;
		for (size_t k = 0; k < 2; k++) {
			char *slash;
			int wd;

			if (!names[k])
				continue;
			slash = strrchr(names[k], '/');
			if (slash == names[k])
				slash[1] = '\0';
			else if (slash)
				*slash = '\0';
			else
				strcpy(names[k], ".");
			wd = inotify_add_watch(s->inofd, names[k],
					       IN_CLOSE_WRITE | IN_MOVED_TO
					       | IN_MOVED_FROM | IN_CREATE
					       | IN_DELETE | IN_ATTRIB
					       | IN_DELETE_SELF | IN_MOVE_SELF);
			if (wd < 0)
				continue;
			bool seen = false;

			for (size_t w = 0; w < s->nwds; w++)
				seen |= s->wds[w] == wd;
			if (!seen && s->nwds < MAX_WATCH)
				s->wds[s->nwds++] = wd;
		}
		free(names[0]);
		free(real);
	}
}

static void reload(struct wg_server *s, bool force, const char *why)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	load_profile(s, &ctx, force, why);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	load_certs(s, &ctx, why);
	wg_ctx_release(&ctx);
	watch_files(s);
}

/* ---- start, wait, stop ------------------------------------------------------ */

static struct MHD_Daemon *start_daemon(struct wg_server *s,
				       const struct sockaddr *addr, bool v6,
				       bool dual)
{
	unsigned flags = MHD_USE_TLS | MHD_USE_EPOLL_INTERNAL_THREAD
			 | MHD_USE_ITC | MHD_USE_ERROR_LOG;

	if (dual)
		flags |= MHD_USE_DUAL_STACK;
	else if (v6)
		flags |= MHD_USE_IPv6;
	return MHD_start_daemon(
		flags, (uint16_t)s->c.port, NULL, NULL, handle, s,
		MHD_OPTION_HTTPS_CERT_CALLBACK, wg_certs_retrieve,
		/* TLS 1.2 and 1.3 only, as the API server speaks */
		MHD_OPTION_HTTPS_PRIORITIES,
		"NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2",
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)s->c.threads,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->c.max_connections,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONNECTION_MEMORY,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->c.idle_timeout,
		MHD_OPTION_NOTIFY_COMPLETED, completed, s,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, s,
		MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
		addr ? MHD_OPTION_SOCK_ADDR : MHD_OPTION_END, addr,
		MHD_OPTION_END);
}

static int listen_on(struct wg_ctx *ctx, struct wg_server *s)
{
	struct sockaddr_in in4;
	struct sockaddr_in6 in6;
	const char *addr = s->c.address;

	memset(&in4, 0, sizeof(in4));
	memset(&in6, 0, sizeof(in6));
	if (!addr) {
		s->daemon = start_daemon(s, NULL, true, true);
		if (!s->daemon)	/* no IPv6 here: IPv4 alone */
			s->daemon = start_daemon(s, NULL, false, false);
	} else if (inet_pton(AF_INET, addr, &in4.sin_addr) == 1) {
		in4.sin_family = AF_INET;
		in4.sin_port = htons((uint16_t)s->c.port);
		s->daemon = start_daemon(s, (struct sockaddr *)&in4, false,
					 false);
	} else if (inet_pton(AF_INET6, addr, &in6.sin6_addr) == 1) {
		in6.sin6_family = AF_INET6;
		in6.sin6_port = htons((uint16_t)s->c.port);
		s->daemon = start_daemon(s, (struct sockaddr *)&in6, true,
					 false);
	} else {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0, "--address '%s' "
			     "is not an IPv4 or IPv6 address", addr);
		return -1;
	}
	if (!s->daemon) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0, "cannot serve on "
			     "%s port %u (in use, or not allowed)",
			     addr ? addr : "every address", s->c.port);
		return -1;
	}
	return 0;
}

int wg_serve_start(struct wg_ctx *ctx, const struct wg_serve_config *c,
		   struct wg_server **out)
{
	struct wg_server *s = wg_xcalloc(1, sizeof(*s));
	char threads[16], port[16];

	s->c = *c;
	s->sigfd = s->inofd = -1;
	wg_metrics_init(&s->m);
	pthread_key_create(&s->admit_key, free_admit);
	/* Signals go to wg_serve_wait()'s signalfd, never to a worker. */
	sigemptyset(&s->sigs);
	sigaddset(&s->sigs, SIGHUP);
	sigaddset(&s->sigs, SIGTERM);
	sigaddset(&s->sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &s->sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	s->pool = wg_pool_new(c->threads);
	if (load_profile(s, ctx, true, "start")
	    || load_certs(s, ctx, "start"))
		goto fail;
	s->sigfd = signalfd(-1, &s->sigs, SFD_CLOEXEC);
	s->inofd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (s->sigfd < 0) {
		wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0, "signalfd: %s",
			     strerror(errno));
		goto fail;
	}
	if (s->inofd >= 0)
		watch_files(s);
	if (listen_on(ctx, s))
		goto fail;
	atomic_store(&s->ready, true);
	snprintf(threads, sizeof(threads), "%u", c->threads);
	snprintf(port, sizeof(port), "%u", c->port);
	say(s, WG_LOG_INFO, "serving", "address",
	    c->address ? c->address : "*", "port", port, "threads", threads,
	    "audit", c->audit ? "true" : "false", NULL);
	*out = s;
	return 0;
fail:
	wg_serve_free(s);
	return -1;
}

static int64_t in_flight(struct wg_server *s)
{
	return (int64_t)atomic_load(&s->m.in_flight);
}

/* SIGTERM: not ready at once; serve on for shutdown_delay (endpoints
 * take a while to drop the pod), stop listening, let what is in flight
 * finish. */
static void drain(struct wg_server *s, int signo)
{
	uint64_t end;
	MHD_socket fd;

	atomic_store(&s->draining, true);
	say(s, WG_LOG_INFO, "shutting down", "signal", strsignal(signo),
	    NULL);
	end = now_ns() + (uint64_t)s->c.shutdown_delay * 1000000000u;
	while (now_ns() < end) {
		struct pollfd p = { s->sigfd, POLLIN, 0 };

		/* a second signal cuts the delay short */
		if (poll(&p, 1, 50) > 0)
			break;
	}
	fd = MHD_quiesce_daemon(s->daemon);
	if (fd != MHD_INVALID_SOCKET)
		close(fd);
	end = now_ns() + (uint64_t)s->c.shutdown_timeout * 1000000000u;
	while (in_flight(s) > 0 && now_ns() < end) {
		struct timespec ts = { 0, 5000000 };

		nanosleep(&ts, NULL);
	}
	if (in_flight(s) > 0) {
		char n[32];

		snprintf(n, sizeof(n), "%lld", (long long)in_flight(s));
		say(s, WG_LOG_WARN, "requests still in flight at the "
		    "shutdown timeout", "in_flight", n, NULL);
	}
	MHD_stop_daemon(s->daemon);
	s->daemon = NULL;
	say(s, WG_LOG_INFO, "stopped", NULL);
}

int wg_serve_wait(struct wg_server *s)
{
	uint64_t settle = 0;	/* when to reload after file events */

	for (;;) {
		struct pollfd p[2] = { { s->sigfd, POLLIN, 0 },
				       { s->inofd, POLLIN, 0 } };
		int timeout = -1;

		if (settle) {
			uint64_t t = now_ns();

			timeout = t >= settle ? 0
				  : (int)((settle - t) / 1000000u) + 1;
		}
		if (poll(p, s->inofd >= 0 ? 2 : 1, timeout) < 0
		    && errno != EINTR)
			break;
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(s->sigfd, &si, sizeof(si))
			    == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGHUP) {
					reload(s, true, "SIGHUP");
				} else {
					drain(s, (int)si.ssi_signo);
					return 0;
				}
			}
		}
		if (s->inofd >= 0 && (p[1].revents & POLLIN)) {
			char buf[4096]
				__attribute__((aligned(
					__alignof__(struct inotify_event))));

			ssize_t n;

			/* IN_IGNORED alone is a watch wingen removed
			 * itself (watch_files): no change of a file */
			while ((n = read(s->inofd, buf, sizeof(buf))) > 0)
				for (char *e = buf; e < buf + n;) {
					const struct inotify_event *ev =
						(const void *)e;

					if (ev->mask != IN_IGNORED)
						settle = now_ns() + SETTLE_MS
							 * 1000000u;
					e += sizeof(*ev) + ev->len;
				}
		}
		if (settle && now_ns() >= settle) {
			settle = 0;
			reload(s, false, "file change");
		}
	}
	drain(s, SIGTERM);
	return 0;
}

void wg_serve_free(struct wg_server *s)
{
	if (!s)
		return;
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	if (s->sigfd >= 0)
		close(s->sigfd);
	if (s->inofd >= 0)
		close(s->inofd);
	wg_pool_free(s->pool);
	wg_certs_release();
	pthread_key_delete(s->admit_key);
	pthread_sigmask(SIG_UNBLOCK, &s->sigs, NULL);
	free(s);
}
