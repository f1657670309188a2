/*
 * wingen schema: the profile's JSON Schema (profile/schema.h), from the
 * loader's own tables and the plugin registry.  docs/profile.schema.json
 * is its output, and a test fails when the two differ.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "options.h"
#include "wingen/base/alloc.h"
#include "wingen/chain/registry.h"
#include "wingen/core/plugin.h"
#include "wingen/profile/schema.h"
#include "wingen/yaml/writer.h"

/* What the registry says of the plugins, for the profile layer.  The
 * arrays are the caller's to free (release_plugins). */
static void registry_plugins(struct wg_profile_schema_plugins *out)
{
	size_t n = 0, nsettings = 0, nconf = 0;
	const char **names, **conf;
	struct wg_profile_schema_setting *settings;

	while (wg_plugins[n])
		n++;
	for (size_t i = 0; i < n; i++)
		for (const struct wg_setting_values *v =
			     wg_plugins[i]->setting_values; v && v->path; v++)
			nsettings++;
	names = wg_xcalloc(n + 1, sizeof(*names));
	conf = wg_xcalloc(n + 1, sizeof(*conf));
	settings = wg_xcalloc(nsettings + 1, sizeof(*settings));
	nsettings = 0;
	for (size_t i = 0; i < n; i++) {
		names[i] = wg_plugins[i]->name;
		if (wg_plugins[i]->configure)
			conf[nconf++] = wg_plugins[i]->name;
		for (const struct wg_setting_values *v =
			     wg_plugins[i]->setting_values; v && v->path; v++) {
			settings[nsettings].path = v->path;
			settings[nsettings++].values = v->values;
		}
	}
	out->names = names;
	out->configurable = conf;
	out->settings = settings;
}

static void release_plugins(struct wg_profile_schema_plugins *p)
{
	free((void *)p->names);
	free((void *)p->configurable);
	free((void *)p->settings);
}

int wg_cmd_schema(int argc, char **argv)
{
	static const char *const formats[] = { "json", NULL };
	int format = 0;
	const char *output = NULL;
	const struct wg_opt opts[] = {
		WG_OPTS_OUTPUT(&format, formats, &output),
		WG_OPT_END,
	};
	struct wg_profile_schema_plugins plugins;
	struct wg_arena arena;
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	const char *error = NULL;
	struct wg_node *schema;
	int rc = wg_parse_options("schema", argc, argv, opts, NULL);

	if (rc)
		return rc < 0 ? wg_print_help("schema") : rc;
	registry_plugins(&plugins);
	wg_arena_init(&arena);
	wg_ctx_init(&ctx);
	schema = wg_profile_json_schema(&arena, &plugins, &error);
	if (!schema) {
		fprintf(stderr, "wingen schema: error: %s\n", error);
		rc = WG_EXIT_FAIL;
	} else if (wg_json_write_tree(&out, schema, 2)) {
		fputs("wingen schema: error: a value has no JSON form\n",
		      stderr);
		rc = WG_EXIT_FAIL;
	} else {
		rc = wg_cli_write(&ctx, output, &out);
	}
	wg_buf_release(&out);
	wg_ctx_release(&ctx);
	wg_arena_release(&arena);
	release_plugins(&plugins);
	return rc;
}
