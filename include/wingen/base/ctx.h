#ifndef WINGEN_CTX_H
#define WINGEN_CTX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/diag.h"

/*
 * The context of one run: limits, the diagnostics and change log, and the
 * options every stage may need.  One per command invocation; no globals.
 */

struct wg_node;
struct wg_resource;
struct wg_profile;
struct wg_tree_guard;

/* Hard limits against hostile input; each breach is an error with a position. */
struct wg_limits {
	size_t max_depth;	   /* nesting of collections */
	size_t max_alias_nodes;	   /* nodes added by alias expansion, per doc */
	size_t max_doc_bytes;	   /* one document's source size */
	size_t max_scalar_bytes;   /* one scalar */
	size_t max_documents;	   /* documents in all inputs together */
	size_t max_input_bytes;	   /* one input file or stdin */
	uint32_t regex_match_limit; /* PCRE2 match limit */
	uint32_t regex_depth_limit; /* PCRE2 depth limit */
	size_t max_chart_bytes;	   /* a packed chart, unpacked (with the
				      packed charts it holds) */
	size_t helm_seconds;	   /* one helm run, wall clock */
	size_t helm_memory;	   /* helm's data memory (RLIMIT_DATA) */
	size_t regex_seconds;	   /* CPU time of a run's slow pattern
				      matches in all (regex.h) */
	size_t max_doc_nodes;	   /* nodes of one document */
};

void wg_limits_default(struct wg_limits *limits);

/* The largest max_depth allowed: the writers recurse once per level. */
#define WG_MAX_DEPTH_CAP 10000

/*
 * Applies a WINGEN_LIMITS value: NAME=N items separated by commas, where
 * NAME is depth, alias-nodes, doc-bytes, doc-nodes, scalar-bytes,
 * documents, input-bytes, regex-match, regex-depth, regex-seconds,
 * chart-bytes, helm-seconds or helm-memory, and N a positive number (k, M or G: times 1024, 1024^2,
 * 1024^3).  A bad item is an error on ctx; the
 * others still apply.  NULL or "" does nothing.  Returns 0 or -1.
 * wg_ctx_init() applies the environment's WINGEN_LIMITS.
 */
struct wg_ctx;
int wg_limits_apply(struct wg_ctx *ctx, const char *spec);

struct wg_ctx {
	struct wg_limits limits;
	struct wg_log log;
	const struct wg_profile *profile;	/* NULL before one is loaded */
	const char *plugin;	/* name of the plugin running, for the log */
	bool strict;		/* warnings count as errors */
	size_t documents;	/* documents read so far, for the limit */
	bool skip_changes;	/* nobody will read the change log: plugins'
				   wg_record_change() calls cost nothing */
	bool keep_duplicates;	/* an identical second copy of an object
				   stays in the stream (fn, migrate: objects
				   are documents of files), not dropped
				   (k8s/identity.h) */
	const struct wg_tree_guard *guard;	/* the trees the run edits
				   in place (treeguard.h); NULL: none */
	uint64_t regex_ns;	/* CPU time of slow pattern matches so far */
	bool regex_spent;	/* past limits.regex_seconds: no more matches */
	bool regex_spent_said;	/* and the error that says so is made */
};

void wg_ctx_init(struct wg_ctx *ctx);
void wg_ctx_release(struct wg_ctx *ctx);

/* True when the log holds an error (or, with strict, a warning). */
bool wg_ctx_failed(const struct wg_ctx *ctx);

/*
 * Records a diagnostic.  Position: node's start mark when node came from
 * input, else the resource's; file from the resource, or from file when res
 * is NULL.  field may be NULL.  Returns -1 for errors and 0 otherwise, so
 * callers can write "return wg_error(...)".  Defined in src/yaml/report.c,
 * which knows objects and nodes; the context itself does not.
 */
int wg_report(struct wg_ctx *ctx, enum wg_severity sev,
	      const struct wg_resource *res, const struct wg_node *node,
	      const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#define wg_error(ctx, res, node, field, ...) \
	wg_report((ctx), WG_SEV_ERROR, (res), (node), (field), __VA_ARGS__)
#define wg_warning(ctx, res, node, field, ...) \
	wg_report((ctx), WG_SEV_WARNING, (res), (node), (field), __VA_ARGS__)
#define wg_info(ctx, res, node, field, ...) \
	wg_report((ctx), WG_SEV_INFO, (res), (node), (field), __VA_ARGS__)

/*
 * Records d with its message formatted from fmt and ap (d->message is set
 * here).  The building block of the wg_report*() functions.  Returns -1 for
 * errors and 0 otherwise.
 */
int wg_vreport_diag(struct wg_ctx *ctx, struct wg_diag *d, const char *fmt,
		    va_list ap) __attribute__((format(printf, 3, 0)));

/* A diagnostic at a file position, not about an object (parse errors). */
int wg_report_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		 uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int wg_vreport_at(struct wg_ctx *ctx, enum wg_severity sev, const char *file,
		  uint32_t line, uint32_t col, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/*
 * Records a change made by ctx->plugin to res at field.  old and new are the
 * values before and after (NULL when absent); they are rendered as one-line
 * flow YAML.  node gives the position (NULL: the resource's).
 */
void wg_record_change(struct wg_ctx *ctx, enum wg_change_op op,
		      const struct wg_resource *res, const struct wg_node *node,
		      const char *field, const struct wg_node *old_value,
		      const struct wg_node *new_value, const char *reason);

#endif
