/*
 * Describe mode's state (options.h): set while wg_cli_options_of() runs a
 * command to read its options; the parser copies into it, help prints
 * nothing while it is set.
 */
#include "options.h"

/* Where wg_parse_options() copies its table while describing. */
static struct wg_opts_info *target;

bool wg_cli_describing(void)
{
	return target != NULL;
}

struct wg_opts_info *wg_cli_describe_target(void)
{
	return target;
}

void wg_cli_describe_into(struct wg_opts_info *out)
{
	target = out;
}
