#ifndef WINGEN_PIPELINE_H
#define WINGEN_PIPELINE_H

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

/*
 * Runs the chain.  Consecutive run_one steps share one pass over the list.
 * Returns 0 when every plugin completed (diagnostics may still hold errors:
 * check wg_ctx_failed()), -1 when a plugin gave up.
 */
int wg_pipeline_run(struct wg_ctx *ctx, struct wg_resources *list,
		    const struct wg_chain *chain);

#endif
