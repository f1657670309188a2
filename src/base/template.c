#include "wingen/base/template.h"

#include <string.h>

const struct wg_template *wg_template_find(const char *name)
{
	for (const struct wg_template *t = wg_templates; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}
