#ifndef WINGEN_PLUGIN_H
#define WINGEN_PLUGIN_H

#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/ctx.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * Plugins: generators and transforms.
 *
 * Each plugin is one static const descriptor in its own file (gen/ or
 * transforms/), listed once in src/chain/registry.c.  The profile's transforms:
 * list picks and orders them.
 *
 * A plugin implements one of two entry points:
 *  - run_list sees the whole resource list (generators add objects; the
 *    Services check needs to know every Windows workload);
 *  - run_one sees one resource at a time.  Consecutive run_one plugins are
 *    fused by the pipeline into a single walk over the list, so a resource
 *    is visited once per group, not once per plugin.
 *
 * Both return 0, or -1 when they cannot go on (the pipeline stops).  Problems
 * in the input are reported on ctx with wg_error()/wg_warning() and are not
 * a reason to return -1: the run goes on so every problem is reported.
 * config is the plugin's own parsed configuration (NULL when none).
 */

/* A profile key a plugin's settings hook reads whose values are a closed
 * set: the set, ended by NULL (the array the hook checks against). */
struct wg_setting_values {
	const char *path;		/* "windows.network.mode" */
	const char *const *values;
};

enum wg_plugin_kind {
	WG_PLUGIN_GENERATOR = 1,
	WG_PLUGIN_TRANSFORM,
};

struct wg_plugin {
	const char *name;	/* as written in the profile */
	const char *summary;	/* one line, for "wingen help plugins" */
	enum wg_plugin_kind kind;
	int (*run_list)(struct wg_ctx *ctx, struct wg_resources *list,
			const void *config);
	int (*run_one)(struct wg_ctx *ctx, struct wg_resources *list,
		       struct wg_resource *res, const void *config);
	/* Called once before the walk (may be NULL): e.g. to index the list. */
	int (*prepare)(struct wg_ctx *ctx, struct wg_resources *list,
		       const void *config);
	/*
	 * Parses the plugin's own config (the "config:" of its entry in the
	 * profile's transforms: list) into *out, allocated in arena.  NULL
	 * when the plugin takes no config (a config is then an error).
	 * Problems are reported on ctx against file and the config's nodes.
	 */
	int (*configure)(struct wg_ctx *ctx, struct wg_arena *arena,
			 const char *file, const struct wg_node *config,
			 const void **out);
	/*
	 * The plugin's settings under the profile's own keys (the Services
	 * check's windows.network and windows.services, linux-pin's
	 * linux.pin), read from p's tree (p->root) into a struct the plugin
	 * owns, defaults filled, allocated in arena; *out is then the config
	 * its entry points get.  The loader has checked the shape of those
	 * keys with the rest of the document (unknown keys, types); this
	 * reads their meaning and reports a bad value with
	 * wg_profile_report_setting().  The chain calls it for every plugin
	 * of the registry, listed in transforms: or not, so a bad setting is
	 * an error whatever the chain.  NULL: no settings.  A plugin has
	 * settings or configure, not both.  Returns 0, or -1 after an error.
	 */
	int (*settings)(struct wg_ctx *ctx, const struct wg_profile *p,
			struct wg_arena *arena, const void **out);
	/* Writes settings (what the hook above made) into root, a profile
	 * being printed (--print-profile), at their keys; NULL: none. */
	void (*write_settings)(const void *settings, struct wg_arena *arena,
			       struct wg_node *root);
	/* Its settings' keys that take a closed set of values, for the
	 * profile's JSON Schema (wingen schema); ended by a NULL path.
	 * NULL: none. */
	const struct wg_setting_values *setting_values;
};

/* The plugins themselves are listed once above them all: chain/registry.h. */

#endif
