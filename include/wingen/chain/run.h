#ifndef WINGEN_CHAIN_RUN_H
#define WINGEN_CHAIN_RUN_H

#include "wingen/base/ctx.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * Running a profile's chain over a stream: the one place where a profile
 * becomes a pipeline.  build, check, fn and migrate (through src/cli/
 * run.c) and the admission webhook (src/serve/) all come here, so the
 * object a webhook answers for is edited by the very code build runs.
 */

/*
 * Which part of the chain runs: RuntimeClasses are cluster-scoped and
 * belong to no Helm release, so a post-renderer emits none (the
 * workloads only name them; cluster admins install them once), the
 * webhook neither (it answers for one object), and "wingen
 * runtimeclasses" emits nothing else.
 */
enum wg_rc_mode {
	WG_RC_ALL,	/* the profile's chain as written */
	WG_RC_NONE,	/* without the runtime-class generator; a Windows
			   pod naming a RuntimeClass the profile does not
			   define is then an error */
	WG_RC_ONLY,	/* the runtime-class generator alone */
};

/*
 * Runs p's chain of plugins over list, cut down by mode, with
 * ctx->profile set to p, after the checks of the stream as a whole that
 * every command makes: no object twice (k8s/identity.h), no misspelt
 * wingen.dev/ annotation.  Returns wg_pipeline_run()'s status;
 * diagnostics are on ctx.
 */
int wg_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		 struct wg_resources *list, enum wg_rc_mode mode);

#endif
