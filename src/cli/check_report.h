#ifndef WINGEN_CLI_CHECK_REPORT_H
#define WINGEN_CLI_CHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"

/*
 * wingen check's reports other than text (docs/check.md): -o json, the
 * CheckReport (check_json.c), and -o sarif, SARIF 2.1.0 for code scanning
 * (check_sarif.c).  Both are formats other tools read: a field is only
 * ever added; anything else is a new apiVersion (JSON) or a SARIF
 * property.
 */

/*
 * Rule ids: every diagnostic names what found it (diag.h's rule), the
 * plugin that was running or one of these phases of a check run.
 */
#define WG_RULE_PROFILE "profile"	/* loading the profile */
#define WG_RULE_INPUT "input"		/* reading the manifests */
#define WG_RULE_NODES "nodes"		/* reading the cluster's nodes */
#define WG_RULE_STREAM "stream"		/* the stream as a whole */
#define WG_RULE_API "api-validation"	/* what the API server refuses */
#define WG_RULE_PLACEMENT "placement"	/* the result on the nodes */

struct wg_check_report {
	const struct wg_ctx *ctx;	/* its log: diagnostics, changes */
	size_t objects;			/* distinct objects changed */
	bool failed;			/* the exit status is 1 */
};

/* Appends the report to out. */
void wg_check_json(struct wg_buf *out, const struct wg_check_report *r);
void wg_check_sarif(struct wg_buf *out, const struct wg_check_report *r);

#endif
