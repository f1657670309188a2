#include "wingen/plugin.h"
#include "wingen/runtimeclass.h"

#include <string.h>

/*
 * The one list of plugins.  Order here is the default chain's order; a
 * profile's transforms: list may pick a subset and reorder it.
 */
const struct wg_plugin *const wg_plugins[] = {
	&wg_gen_runtime_class,
	NULL,
};

const struct wg_plugin *wg_plugin_find(const char *name)
{
	for (size_t i = 0; wg_plugins[i]; i++)
		if (strcmp(wg_plugins[i]->name, name) == 0)
			return wg_plugins[i];
	return NULL;
}
