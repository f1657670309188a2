#ifndef WINGEN_CLI_MIGRATE_CHART_H
#define WINGEN_CLI_MIGRATE_CHART_H

#include <stdbool.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/profile/profile.h"

/* The chart part of migrate's options (cmd_migrate.c parses them). */
struct wg_cli_chart_opts {
	const char *helm;		/* --helm, NULL: $WINGEN_HELM or helm */
	const struct wg_pathlist *helm_args;	/* --helm-arg, in order */
	const char *values_out;		/* --values-out FILE, or NULL */
	bool diff;			/* --diff or --check (else --in-place) */
	bool check;			/* --check: no diff printed */
	size_t *nchanged;		/* --diff, --check: set to the files
					   that would change */
};

/*
 * Migrates every chart folder in charts with profile p (docs/helm.md):
 * writes the values (or the overlay file), prints the diff (--diff; not
 * --check), or on any error writes nothing.  Returns an exit status.
 */
int wg_cli_migrate_charts(struct wg_ctx *ctx, const struct wg_profile *p,
			  const struct wg_pathlist *charts,
			  const struct wg_cli_chart_opts *co);

#endif
