#include "wingen/chain/registry.h"

#include <string.h>

#include "wingen/gen/runtimeclass.h"

extern const struct wg_plugin wg_tx_retarget;
extern const struct wg_plugin wg_tx_fan_out;
extern const struct wg_plugin wg_tx_node_selector;
extern const struct wg_plugin wg_tx_tolerations;
extern const struct wg_plugin wg_tx_runtime_class_name;
extern const struct wg_plugin wg_tx_pod_os;
extern const struct wg_plugin wg_tx_windows_security;
extern const struct wg_plugin wg_tx_linux_pin;
extern const struct wg_plugin wg_tx_services;

/*
 * The one list of plugins.  Order here is the default chain's order; a
 * profile's transforms: list may pick a subset and reorder it.  retarget
 * comes first: it rewrites what every other plugin selects by (the
 * generator too: it makes the RuntimeClasses of the builds used), and a
 * profile that retargets runs it first whatever its list says
 * (chain/chain.c).
 */
const struct wg_plugin *const wg_plugins[] = {
	&wg_tx_retarget,
	&wg_gen_runtime_class,
	&wg_tx_fan_out,
	&wg_tx_node_selector,
	&wg_tx_tolerations,
	&wg_tx_runtime_class_name,
	&wg_tx_pod_os,
	&wg_tx_windows_security,
	&wg_tx_linux_pin,
	&wg_tx_services,
	NULL,
};

const struct wg_plugin *wg_plugin_find(const char *name)
{
	for (size_t i = 0; wg_plugins[i]; i++)
		if (strcmp(wg_plugins[i]->name, name) == 0)
			return wg_plugins[i];
	return NULL;
}
