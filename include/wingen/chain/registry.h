#ifndef WINGEN_CHAIN_REGISTRY_H
#define WINGEN_CHAIN_REGISTRY_H

#include "wingen/core/plugin.h"

/*
 * The built-in plugins, listed once: the generator (gen/) and the
 * transforms (transforms/).  The list sits above them, so that core, which
 * says what a plugin is (core/plugin.h), never names one.
 */

/* NULL-terminated table of every plugin, in the default chain's order. */
extern const struct wg_plugin *const wg_plugins[];

/* The plugin called name, or NULL. */
const struct wg_plugin *wg_plugin_find(const char *name);

#endif
