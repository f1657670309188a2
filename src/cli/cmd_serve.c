/*
 * wingen serve: the profile at admission time (serve/server.h).  Parses
 * the options, prints what the server logs (one line at a time, on
 * stderr), and exits 0 after SIGTERM has drained it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "wingen/k8s/kinds.h"
#include "wingen/serve/server.h"

struct serve_opts {
	struct wg_pathlist args;	/* [PROFILE] */
	const char *cert, *key, *address, *port, *threads, *max_conns;
	const char *idle, *delay, *timeout;
	struct wg_pathlist kinds;	/* --kinds, each a comma list */
	bool audit;
	int log_format, log_level;
	struct wg_pathlist kind_names;	/* split */
};

/* stderr, a whole line at a time from any thread. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

static void log_line(void *arg, const char *line, size_t len)
{
	(void)arg;
	pthread_mutex_lock(&log_mu);
	while (len) {
		ssize_t n = write(STDERR_FILENO, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		line += n;
		len -= (size_t)n;
	}
	pthread_mutex_unlock(&log_mu);
}

/* A whole number from lo to hi for option name; 0 or a usage error. */
static int number(const char *name, const char *arg, unsigned lo,
		  unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!arg)
		return 0;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return wg_usage_error("serve", "--%s: '%s' is not a number "
				      "from %u to %u", name, arg, lo, hi);
	*out = (unsigned)v;
	return 0;
}

/* --kinds: "all", or kind names of the kinds table, comma-separated. */
static int parse_kinds(struct serve_opts *o, struct wg_admit_kinds *k)
{
	for (size_t i = 0; i < o->kinds.len; i++) {
		char *list = o->kinds.items[i], *save = NULL, *item;

		for (item = strtok_r(list, ",", &save); item;
		     item = strtok_r(NULL, ",", &save)) {
			if (strcmp(item, "all") == 0) {
				k->all = true;
				continue;
			}
			if (!wg_kind_named(NULL, item, strlen(item)))
				return wg_usage_error(
					"serve", "--kinds: '%s' is no workload "
					"kind wingen knows (wingen help serve; "
					"'all' takes the profile's workloads: "
					"too)", item);
			wg_pathlist_add(&o->kind_names, item);
		}
	}
	k->names = (const char *const *)o->kind_names.items;
	k->n = o->kind_names.len;
	return 0;
}

static int parse(int argc, char **argv, struct serve_opts *o,
		 struct wg_serve_config *c)
{
	static const char *const formats[] = { "text", "json", NULL };
	static const char *const levels[] = { "debug", "info", "warn",
					      "error", NULL };
	const struct wg_opt opts[] = {
		{ "tls-cert-file", 0, WG_OPT_STRING, &o->cert, NULL },
		{ "tls-private-key-file", 0, WG_OPT_STRING, &o->key, NULL },
		{ "port", 0, WG_OPT_STRING, &o->port, NULL },
		{ "address", 0, WG_OPT_STRING, &o->address, NULL },
		{ "audit", 0, WG_OPT_FLAG, &o->audit, NULL },
		{ "kinds", 0, WG_OPT_PATHS, &o->kinds, NULL },
		{ "log-format", 0, WG_OPT_CHOICE, &o->log_format, formats },
		{ "log-level", 0, WG_OPT_CHOICE, &o->log_level, levels },
		{ "threads", 0, WG_OPT_STRING, &o->threads, NULL },
		{ "max-connections", 0, WG_OPT_STRING, &o->max_conns, NULL },
		{ "idle-timeout", 0, WG_OPT_STRING, &o->idle, NULL },
		{ "shutdown-delay", 0, WG_OPT_STRING, &o->delay, NULL },
		{ "shutdown-timeout", 0, WG_OPT_STRING, &o->timeout, NULL },
		WG_OPT_END,
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	o->log_level = WG_LOG_INFO;
	rc = wg_parse_options("serve", argc, argv, opts, &o->args);
	if (rc)
		return rc;
	if (o->args.len > 1)
		return wg_usage_error("serve", "unexpected argument '%s'",
				      o->args.items[1]);
	if (!o->cert || !o->key)
		return wg_usage_error("serve", "--tls-cert-file and "
				      "--tls-private-key-file are required "
				      "(the API server calls webhooks over "
				      "HTTPS only)");
	wg_serve_config_default(c);
	c->threads = cpus > 1 ? (cpus > 16 ? 16 : (unsigned)cpus) : 1;
	if ((rc = number("port", o->port, 1, 65535, &c->port))
	    || (rc = number("threads", o->threads, 1, 64, &c->threads))
	    || (rc = number("max-connections", o->max_conns, 1, 100000,
			    &c->max_connections))
	    || (rc = number("idle-timeout", o->idle, 1, 3600,
			    &c->idle_timeout))
	    || (rc = number("shutdown-delay", o->delay, 0, 3600,
			    &c->shutdown_delay))
	    || (rc = number("shutdown-timeout", o->timeout, 0, 3600,
			    &c->shutdown_timeout))
	    || (rc = parse_kinds(o, &c->kinds)))
		return rc;
	if (o->args.len && strcmp(o->args.items[0], "-") != 0)
		c->profile = o->args.items[0];
	c->cert_file = o->cert;
	c->key_file = o->key;
	c->address = o->address;
	c->audit = o->audit;
	c->log_format = (enum wg_log_format)o->log_format;
	c->log_level = (enum wg_log_level)o->log_level;
	c->log = log_line;
	return 0;
}

int wg_cmd_serve(int argc, char **argv)
{
	struct serve_opts o = { 0 };
	struct wg_serve_config c;
	struct wg_server *s = NULL;
	struct wg_ctx ctx;
	int rc = parse(argc, argv, &o, &c);

	if (rc) {
		if (rc < 0)
			rc = wg_print_help("serve");
		goto out;
	}
	wg_ctx_init(&ctx);
	if (wg_serve_start(&ctx, &c, &s) != 0) {
		wg_log_print(stderr, &ctx.log, WG_SEV_WARNING);
		rc = WG_EXIT_FAIL;
	} else {
		wg_log_print(stderr, &ctx.log, WG_SEV_WARNING);
		rc = wg_serve_wait(s) ? WG_EXIT_FAIL : WG_EXIT_OK;
		wg_serve_free(s);
	}
	wg_ctx_release(&ctx);
out:
	wg_pathlist_release(&o.args);
	wg_pathlist_release(&o.kinds);
	wg_pathlist_release(&o.kind_names);
	return rc;
}
