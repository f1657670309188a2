#ifndef WINGEN_TEMPLATE_H
#define WINGEN_TEMPLATE_H

#include <stddef.h>

/*
 * Templates embedded at build time from the templates folder (see
 * cmake/embed.cmake).  The table ends with an all-zero entry.
 */
struct wg_template {
	const char *name;	/* file name, e.g. "runtimeclass.yaml" */
	const char *data;
	size_t len;
};

extern const struct wg_template wg_templates[];

/* The embedded template called name, or NULL. */
const struct wg_template *wg_template_find(const char *name);

#endif
