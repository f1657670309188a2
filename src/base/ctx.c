#include "wingen/base/ctx.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/buf.h"

void wg_limits_default(struct wg_limits *l)
{
	l->max_depth = 512;
	l->max_alias_nodes = 100000;
	l->max_doc_bytes = 64u << 20;
	l->max_scalar_bytes = 16u << 20;
	l->max_documents = 1000000;
	l->max_input_bytes = (size_t)2 << 30;
	l->regex_match_limit = 1000000;
	l->regex_depth_limit = 10000;
	/* Helm's own cap on a chart archive (newer releases) */
	l->max_chart_bytes = 100u << 20;
	l->helm_seconds = 120;
	l->helm_memory = (size_t)2 << 30;
	l->regex_seconds = 10;
	/* a 60 MB document of one-letter items held 1.4 GB as a tree */
	l->max_doc_nodes = 4000000;
}

/* The names of WINGEN_LIMITS, their field and their largest value. */
static const struct {
	const char *name;
	size_t offset;	/* in struct wg_limits; size_t unless regex */
	bool regex;	/* a uint32_t */
	unsigned long long max;
} limit_names[] = {
	/* deeper trees could overflow the stack of the recursive writers */
	{ "depth", offsetof(struct wg_limits, max_depth), false,
	  WG_MAX_DEPTH_CAP },
	{ "alias-nodes", offsetof(struct wg_limits, max_alias_nodes), false,
	  SIZE_MAX },
	/* node lengths and positions are 32 bits */
	{ "doc-bytes", offsetof(struct wg_limits, max_doc_bytes), false,
	  UINT32_MAX },
	{ "scalar-bytes", offsetof(struct wg_limits, max_scalar_bytes), false,
	  UINT32_MAX },
	{ "documents", offsetof(struct wg_limits, max_documents), false,
	  UINT32_MAX },
	{ "input-bytes", offsetof(struct wg_limits, max_input_bytes), false,
	  SIZE_MAX / 2 },
	{ "regex-match", offsetof(struct wg_limits, regex_match_limit), true,
	  UINT32_MAX },
	{ "regex-depth", offsetof(struct wg_limits, regex_depth_limit), true,
	  UINT32_MAX },
	{ "chart-bytes", offsetof(struct wg_limits, max_chart_bytes), false,
	  SIZE_MAX / 2 },
	{ "helm-seconds", offsetof(struct wg_limits, helm_seconds), false,
	  86400 },
	{ "helm-memory", offsetof(struct wg_limits, helm_memory), false,
	  SIZE_MAX / 2 },
	{ "regex-seconds", offsetof(struct wg_limits, regex_seconds), false,
	  86400 },
	{ "doc-nodes", offsetof(struct wg_limits, max_doc_nodes), false,
	  UINT32_MAX },
};

/* One NAME=N; 0 or -1 (reported). */
static int set_limit(struct wg_ctx *ctx, const char *item, size_t len)
{
	const char *eq = memchr(item, '=', len);
	size_t nlen = eq ? (size_t)(eq - item) : len;
	unsigned long long v;
	char num[32], *end;

	for (size_t i = 0; i < sizeof(limit_names) / sizeof(*limit_names);
	     i++) {
		const char *name = limit_names[i].name;
		size_t vlen = eq ? len - nlen - 1 : 0;

		if (strlen(name) != nlen || memcmp(name, item, nlen) != 0)
			continue;
		if (!eq || !vlen || vlen >= sizeof(num))
			goto bad;
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		errno = 0;
		v = strtoull(num, &end, 10);
		if (end != num && *end && !end[1] && strchr("kMG", *end)) {
			unsigned shift = *end == 'k' ? 10 : *end == 'M' ? 20 : 30;

			if (v > (ULLONG_MAX >> shift))
				goto bad;
			v <<= shift;
			end++;
		}
		if (errno || end == num || *end || num[0] == '-' || v == 0
		    || v > limit_names[i].max)
			goto bad;
		if (limit_names[i].regex)
			*(uint32_t *)(void *)((char *)&ctx->limits
					      + limit_names[i].offset)
				= (uint32_t)v;
		else
			*(size_t *)(void *)((char *)&ctx->limits
					    + limit_names[i].offset)
				= (size_t)v;
		return 0;
bad:
		return wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0,
				    "WINGEN_LIMITS: '%.*s' needs a number from "
				    "1 to %llu (k, M, G suffixes allowed)",
				    (int)nlen, item, limit_names[i].max);
	}
	return wg_report_at(ctx, WG_SEV_ERROR, NULL, 0, 0, "WINGEN_LIMITS: "
			    "unknown limit '%.*s' (known: depth, alias-nodes, "
			    "doc-bytes, doc-nodes, scalar-bytes, documents, "
			    "input-bytes, regex-match, regex-depth, "
			    "regex-seconds, chart-bytes, helm-seconds, "
			    "helm-memory)", (int)nlen, item);
}

int wg_limits_apply(struct wg_ctx *ctx, const char *spec)
{
	int rc = 0;

	while (spec && *spec) {
		size_t len = strcspn(spec, ",");

		if (len && set_limit(ctx, spec, len))
			rc = -1;
		spec += len;
		if (*spec == ',')
			spec++;
	}
	return rc;
}

void wg_ctx_init(struct wg_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	wg_limits_default(&ctx->limits);
	wg_log_init(&ctx->log);
	wg_limits_apply(ctx, getenv("WINGEN_LIMITS"));
}

void wg_ctx_release(struct wg_ctx *ctx)
{
	wg_log_release(&ctx->log);
}

bool wg_ctx_failed(const struct wg_ctx *ctx)
{
	return ctx->log.counts[WG_SEV_ERROR] > 0
	       || (ctx->strict && ctx->log.counts[WG_SEV_WARNING] > 0);
}

int wg_vreport_diag(struct wg_ctx *ctx, struct wg_diag *d, const char *fmt,
		     va_list ap)
{
	struct wg_buf msg = WG_BUF_INIT;

	wg_buf_vaddf(&msg, fmt, ap);
	d->message = msg.buf;
	if (!d->rule)
		d->rule = ctx->plugin;
	wg_log_add_diag(&ctx->log, d);
	wg_buf_release(&msg);
	return d->severity == WG_SEV_ERROR ? -1 : 0;
}

int wg_vreport_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		  uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	struct wg_diag d = {
		.severity = sev, .file = file, .line = line, .col = col,
	};

	return wg_vreport_diag(ctx, &d, fmt, ap);
}

int wg_report_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		 uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wg_vreport_at(ctx, sev, file, line, col, fmt, ap);
	va_end(ap);
	return rc;
}
