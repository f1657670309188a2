#ifndef WINGEN_CHAIN_CHAIN_H
#define WINGEN_CHAIN_CHAIN_H

#include <stdbool.h>

#include "wingen/base/ctx.h"
#include "wingen/core/pipeline.h"
#include "wingen/core/plugin.h"
#include "wingen/profile/profile.h"

/*
 * The profile's plugin chain, resolved: the profile holds transforms: as
 * names and config nodes (struct wg_step_spec, with positions); this turns
 * them into plugins of the registry (plugin.h) and their parsed configs.
 *
 * It is the resolve_chain load option of struct wg_profile_opts: whoever
 * loads a profile to run it passes wg_chain_opts() (or sets the member),
 * and the loader calls it after its own checks.  Each problem is reported
 * at the entry's position: an unknown plugin (with a did-you-mean hint), a
 * config for a plugin that takes none, a plugin listed twice, and what the
 * plugin's configure hook reports.  Kept steps go in p->steps (p's arena);
 * p->chain is rewritten to the kept entries, with the default chain
 * (transforms: absent) spelled out as every plugin of the registry.
 */
void wg_chain_resolve(struct wg_ctx *ctx, struct wg_profile *p);

/* Load options that resolve the chain and add nothing else. */
#define WG_CHAIN_OPTS \
	(&(const struct wg_profile_opts){ .resolve_chain = wg_chain_resolve })

/* opts (may be NULL) with resolve_chain set: in *out. */
const struct wg_profile_opts *wg_chain_opts(const struct wg_profile_opts *opts,
					    struct wg_profile_opts *out);

/*
 * What the plugin called name read of the profile (its settings hook,
 * plugin.h), whether or not it is in the chain; NULL when it has no
 * settings or the chain was not resolved.  The plugin's header says the
 * struct (wingen/transforms/<plugin>.h).
 */
const void *wg_chain_settings(const struct wg_profile *p, const char *name);

/* The settings of every plugin, written into root (the profile being
 * printed): the write_plugins hook of wg_profile_write(). */
void wg_chain_write_settings(const struct wg_profile *p,
			     struct wg_arena *arena, struct wg_node *root);

#endif
