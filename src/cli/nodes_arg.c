/*
 * --nodes NODES on build and check: the cluster's nodes, read as init
 * reads them (kubectl get nodes -o json or -o yaml: a List, one Node or a
 * stream; a file, a folder, or - for stdin), and the rendered stream held
 * against them (core/placement.h).
 */
#include <string.h>

#include "cli.h"
#include "wingen/core/placement.h"

void wg_cli_nodes_init(struct wg_cli_nodes *n)
{
	memset(n, 0, sizeof(*n));
	wg_resources_init(&n->list);
	wg_cluster_init(&n->cluster);
}

void wg_cli_nodes_release(struct wg_cli_nodes *n)
{
	wg_cluster_release(&n->cluster);
	wg_resources_release(&n->list);
	wg_inputs_release(&n->inputs);
	wg_pathlist_release(&n->paths);
}

static bool has_stdin(const struct wg_pathlist *l)
{
	for (size_t i = 0; l && i < l->len; i++)
		if (strcmp(l->items[i], "-") == 0)
			return true;
	return false;
}

int wg_cli_nodes_stdin_clash(const char *cmd, const struct wg_cli_nodes *n,
			     const struct wg_pathlist *manifests)
{
	if (!has_stdin(&n->paths) || !has_stdin(manifests))
		return 0;
	return wg_usage_error(cmd, "--nodes - reads stdin, and so do the "
			      "manifests (no -f, no resources: in the "
			      "profile, or -f -); give one of them as a file");
}

int wg_cli_nodes_read(struct wg_ctx *ctx, struct wg_cli_nodes *n)
{
	if (!n->paths.len)
		return 0;
	if (wg_cli_read(ctx, &n->paths, &n->inputs, &n->list, 1)
	    || wg_cluster_read(ctx, &n->cluster, &n->list, n->paths.items[0]))
		return -1;
	n->read = true;
	return 0;
}

void wg_cli_nodes_check(struct wg_ctx *ctx, const struct wg_cli_nodes *n,
			const struct wg_profile *p,
			const struct wg_resources *list, bool classes_apart)
{
	struct wg_placement pl = { p, &n->cluster, list, NULL };
	struct wg_resources classes;

	if (!n->read)
		return;
	wg_resources_init(&classes);
	if (classes_apart) {
		/* Post-renderer mode: the profile's RuntimeClasses are
		 * installed once, apart (wingen runtimeclasses); made here
		 * as that command makes them, on a context of their own (its
		 * diagnostics are the run's already). */
		struct wg_ctx quiet;

		wg_ctx_init(&quiet);
		if (wg_cli_run_chain_mode(&quiet, p, &classes, WG_RC_ONLY) == 0)
			pl.classes = &classes;
		wg_ctx_release(&quiet);
	}
	wg_placement_check(ctx, &pl);
	wg_resources_release(&classes);
}
