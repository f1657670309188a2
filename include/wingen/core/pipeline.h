#ifndef WINGEN_PIPELINE_H
#define WINGEN_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/core/plugin.h"

/*
 * The pipeline: plugins run over a resource list in chain order.
 *
 *   read (files | stdin | ResourceList) -> resources
 *   run generators + transforms, in order  -> resources + changes + diagnostics
 *   write (YAML | JSON | ResourceList | in-place edits)
 *
 * Reading and writing belong to the commands; this runs the middle step.
 */

struct wg_step {
	const struct wg_plugin *plugin;
	const void *config;	/* plugin config, NULL for none */
};

struct wg_chain {
	const struct wg_step *steps;
	size_t len;
};

/* Whether the profile's chain (resolved: chain/chain.h) runs the plugin
 * called name. */
bool wg_profile_runs(const struct wg_profile *p, const char *name);

/*
 * Runs the chain.  Consecutive run_one steps share one pass over the list.
 * Returns 0 when every plugin completed (diagnostics may still hold errors:
 * check wg_ctx_failed()), -1 when a plugin gave up.
 *
 * One rule for an object with an error (any plugin's, WG_RES_ERROR): it is
 * edited by no plugin as far as any output shows.  No change is reported
 * for it (the chain's changes to it are dropped from the log when the
 * chain ends, wg_pipeline_drop_changes_of_errors), and its tree reaches no
 * output because a run with an error writes nothing.  Plugins need not
 * look for errors of others; the cost is one pass over the change log.
 */
/* Drops the logged changes whose object has WG_RES_ERROR. */
void wg_pipeline_drop_changes_of_errors(struct wg_ctx *ctx);

int wg_pipeline_run(struct wg_ctx *ctx, struct wg_resources *list,
		    const struct wg_chain *chain);

#endif
