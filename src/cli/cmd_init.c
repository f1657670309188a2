/*
 * wingen init: the profile from the cluster.  Reads the nodes as kubectl
 * prints them (kubectl get nodes -o json or -o yaml: a List, one Node or
 * a stream) with the manifest reader, so a bad input is reported at its
 * position, and writes a commented profile (profile/init.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/k8s/nodes.h"
#include "wingen/profile/init.h"

struct init_opts {
	struct wg_pathlist paths;
	const char *output;
};

static int parse(int argc, char **argv, struct init_opts *o)
{
	/* A profile is YAML: -o takes that one format, as on every command
	 * that writes, so that -o FILE is the usage error naming
	 * --output-file. */
	static const char *const formats[] = { "yaml", NULL };
	int format = 0;
	const struct wg_opt opts[] = {
		{ "filename", 'f', WG_OPT_FILES, &o->paths, NULL },
		WG_OPTS_OUTPUT(&format, formats, &o->output),
		WG_OPT_END,
	};

	return wg_parse_options("init", argc, argv, opts, NULL);
}

int wg_cmd_init(int argc, char **argv)
{
	struct init_opts o = { 0 };
	struct wg_ctx ctx;
	struct wg_inputs inputs = { 0 };
	struct wg_resources list;
	struct wg_cluster cluster;
	struct wg_buf out = WG_BUF_INIT;
	int rc = parse(argc, argv, &o);

	if (rc) {
		wg_pathlist_release(&o.paths);
		return rc < 0 ? wg_print_help("init") : rc;
	}
	if (!o.paths.len)
		wg_pathlist_add(&o.paths, "-");
	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	wg_cluster_init(&cluster);
	if (wg_cli_read(&ctx, &o.paths, &inputs, &list, 1) == 0
	    && wg_cluster_read(&ctx, &cluster, &list, o.paths.items[0]) == 0)
		wg_profile_init(&ctx, &cluster, o.paths.items[0], &out);
	rc = wg_cli_report(&ctx, false);
	if (rc == WG_EXIT_OK)
		rc = wg_cli_write(&ctx, o.output, &out);
	wg_buf_release(&out);
	wg_cluster_release(&cluster);
	wg_resources_release(&list);
	wg_inputs_release(&inputs);
	wg_ctx_release(&ctx);
	wg_pathlist_release(&o.paths);
	return rc;
}
