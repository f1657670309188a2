#ifndef WINGEN_DIAG_H
#define WINGEN_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wingen/base/arena.h"

/*
 * Diagnostics and the change log.
 *
 * Nothing below src/cli prints.  Code that finds a problem records a
 * diagnostic on the context (ctx.h) and returns; the command decides how to
 * show it (text on stderr, JSON, KRM results).  Every record copies what it
 * needs into the log's own arena, so it outlives the resource it names.
 */

enum wg_severity {
	WG_SEV_ERROR = 0,
	WG_SEV_WARNING,
	WG_SEV_INFO,
};

/* What a record is about: an object in the stream, as KRM's resourceRef. */
struct wg_ref {
	const char *api_version;	/* NULL when unknown */
	const char *kind;
	const char *name;
	const char *namespace_;
	const char *file;		/* source path, NULL for generated */
	unsigned index;			/* document index within file */
};

struct wg_diag {
	enum wg_severity severity;
	const char *file;	/* NULL when there is no file (e.g. usage) */
	uint32_t line, col;	/* 1-based; 0 when unknown */
	struct wg_ref ref;	/* all NULL when not about an object */
	const char *field;	/* field path, NULL when none */
	const char *message;	/* lowercase, no final period */
	const char *rule;	/* what found it: the plugin running
				   (ctx.h's plugin) or a command's phase
				   (check's rule ids); a static string,
				   kept as the pointer; NULL: unknown */
};

enum wg_change_op {
	WG_CHANGE_SET = 0,	/* a field got a (new) value */
	WG_CHANGE_ADD,		/* an item was added to a list or map */
	WG_CHANGE_REMOVE,	/* a field was removed */
	WG_CHANGE_CREATE,	/* a whole object was generated */
};

struct wg_change {
	enum wg_change_op op;
	struct wg_ref ref;
	const char *file;	/* source position of the object or field */
	uint32_t line, col;
	const char *field;	/* path of the changed field */
	const char *old_value;	/* flow-YAML text, NULL when absent */
	const char *new_value;	/* flow-YAML text, NULL when removed */
	const char *plugin;	/* name of the plugin that made it */
	const char *reason;	/* why, in one line */
	const void *subject;	/* the object changed (a wg_resource), or
				   NULL; identity only, never dereferenced
				   here */
};

struct wg_log {
	struct wg_diag *diags;
	size_t ndiags, diags_cap;
	struct wg_change *changes;
	size_t nchanges, changes_cap;
	size_t counts[3];	/* by severity */
	struct wg_arena arena;	/* owns every string above */
	bool refs_only;		/* changes keep their object and position
				   only, not field, values, plugin or
				   reason (a reader that counts them) */
};

void wg_log_init(struct wg_log *log);
void wg_log_release(struct wg_log *log);

/* Copies d (and the strings it points to) into the log. */
void wg_log_add_diag(struct wg_log *log, const struct wg_diag *d);
void wg_log_add_change(struct wg_log *log, const struct wg_change *c);

/* Appends more to the message of log->diags[i] (a hint the caller knows
 * and the reporter did not). */
void wg_log_extend_message(struct wg_log *log, size_t i, const char *more);

/* Duplicates a ref's strings into the log's arena. */
void wg_log_copy_ref(struct wg_log *log, struct wg_ref *dst,
		     const struct wg_ref *src);

const char *wg_severity_name(enum wg_severity s);

/*
 * Writes one line: "file:line:col: severity: Kind/ns/name: field: message".
 * Unknown parts are left out; with no file it starts "wingen: ".
 */
void wg_diag_print(FILE *out, const struct wg_diag *d);

/* Writes "Kind/ns/name: " (when ref names an object) and "field: ". */
void wg_ref_print(FILE *out, const struct wg_ref *ref, const char *field);
/* The same, appended to out. */
struct wg_buf;
void wg_ref_append(struct wg_buf *out, const struct wg_ref *ref,
		   const char *field);

/* Prints every diagnostic of at least the given severity, in order. */
void wg_log_print(FILE *out, const struct wg_log *log,
		  enum wg_severity worst_shown);

#endif
