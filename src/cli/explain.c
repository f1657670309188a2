/*
 * --explain: every change the plugins made, one line each, on stderr:
 *
 *   file:line: Kind/ns/name: field: old -> new (plugin: reason)
 *
 * "<none>" stands for a field that was absent, "<removed>" for one that
 * was deleted; a whole object reads "created" (a generator's) or
 * "dropped" (retarget's RuntimeClasses of a retired build).
 */
#include <stdio.h>

#include "cli.h"

static void print_change(FILE *out, const struct wg_change *c)
{
	const char *file = c->file ? c->file : c->ref.file;

	if (file) {
		fputs(file, out);
		if (c->line)
			fprintf(out, ":%u", (unsigned)c->line);
	} else {
		fputs("(generated)", out);
	}
	fputs(": ", out);
	wg_ref_print(out, &c->ref, c->field);
	if (c->op == WG_CHANGE_CREATE && !c->old_value && !c->new_value)
		fputs("created", out);
	else if (c->op == WG_CHANGE_REMOVE && !c->field && !c->old_value)
		fputs("dropped", out);	/* a whole object (retarget) */
	else
		fprintf(out, "%s -> %s", c->old_value ? c->old_value : "<none>",
			c->new_value ? c->new_value
				     : c->op == WG_CHANGE_REMOVE ? "<removed>"
								 : "<none>");
	fprintf(out, " (%s", c->plugin ? c->plugin : "wingen");
	if (c->reason)
		fprintf(out, ": %s", c->reason);
	fputs(")\n", out);
}

void wg_cli_explain(FILE *out, const struct wg_log *log)
{
	for (size_t i = 0; i < log->nchanges; i++)
		print_change(out, &log->changes[i]);
}
