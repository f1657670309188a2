/*
 * What every command that runs the chain does with its PROFILE argument:
 * load it (or the embedded default), and work out which inputs to read.
 */
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "wingen/chain/chain.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"

/* Whether the first document of in is a Kubernetes object that is
 * plainly not meant as a profile: a kind that is not Profile (in any
 * case) under an apiVersion outside wingen.dev.  Sets *kind to its kind
 * node.  A document that does not parse is not one: the loader reports
 * it. */
static bool is_manifest(const struct wg_input *in, struct wg_arena *arena,
			const struct wg_node **kind)
{
	struct wg_ctx quiet;
	struct wg_reader r;
	struct wg_node *root = NULL;
	const struct wg_node *api;
	unsigned index;
	bool yes = false;

	wg_ctx_init(&quiet);
	wg_reader_init(&r, &quiet, in);
	if (wg_reader_next(&r, arena, &root, &index) == 1 && wg_is_map(root)) {
		*kind = wg_map_get(root, "kind");
		api = wg_map_get(root, "apiVersion");
		yes = wg_is_scalar(*kind) && (*kind)->len
		      && strcasecmp((*kind)->u.str, "Profile") != 0
		      && wg_is_scalar(api)
		      && strncmp(api->u.str, "wingen.dev/", 11) != 0;
	}
	wg_reader_release_doc(&r);
	wg_reader_release(&r);
	wg_ctx_release(&quiet);
	return yes;
}

/*
 * The wrong thing in the PROFILE slot, as kubectl's habit puts it there
 * (wingen build deploy.yaml, wingen build manifests/): one error saying
 * what it is and "did you mean -f PATH?", instead of advice about a
 * profile's apiVersion.  Returns -1 when it reported one.
 */
static int not_a_profile(struct wg_ctx *ctx, const char *path)
{
	struct wg_arena arena;
	struct wg_input in;
	const struct wg_node *kind = NULL;
	struct stat st;
	int rc = 0;

	struct wg_ctx quiet;

	if (stat(path, &st) != 0)
		return 0;	/* the loader says why */
	if (S_ISDIR(st.st_mode))
		return wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0, "is a "
				    "folder, not a profile: manifests come "
				    "with -f; did you mean '-f %s'?", path);
	if (!S_ISREG(st.st_mode))
		return 0;
	wg_ctx_init(&quiet);	/* its limits; its reports are the loader's */
	rc = wg_input_read(&quiet, path, &in);
	wg_ctx_release(&quiet);
	if (rc)
		return 0;
	wg_arena_init(&arena);
	if (is_manifest(&in, &arena, &kind))
		rc = wg_report_at(ctx, WG_SEV_ERROR, path,
				  wg_node_line(kind) + 1,
				  wg_node_col(kind) + 1,
				  "is a Kubernetes object (kind %.*s), not a "
				  "wingen Profile: manifests come with -f; did "
				  "you mean '-f %s'? (without a PROFILE the "
				  "embedded default profile is used)",
				  (int)kind->len, kind->u.str, path);
	wg_arena_release(&arena);
	wg_input_release(&in);
	return rc;
}

int wg_cli_load_profile(struct wg_ctx *ctx, const char *path,
			const struct wg_profile_opts *opts,
			struct wg_profile *out)
{
	struct wg_profile_opts with_chain;

	/* the chain is resolved as the profile loads (chain/chain.h) */
	opts = wg_chain_opts(opts, &with_chain);
	if (!path)
		return wg_profile_load_default(ctx, opts, out);
	/* "-" is stdin, as kubectl reads it: the profile, never the
	 * embedded default in its place (wg_cli_profile_stdin_usage() has
	 * made sure the manifests come from elsewhere) */
	if (strcmp(path, "-") == 0) {
		wg_cli_stdin_waiting("a profile");
		return wg_profile_load(ctx, "-", opts, out);
	}
	if (not_a_profile(ctx, path))
		return -1;
	return wg_profile_load(ctx, path, opts, out);
}

int wg_cli_profile_stdin_usage(const char *cmd, const char *profile_arg,
			       const struct wg_pathlist *manifests,
			       const struct wg_pathlist *nodes)
{
	if (!profile_arg || strcmp(profile_arg, "-") != 0)
		return 0;
	if (manifests && !manifests->len)
		return wg_usage_error(cmd, "PROFILE '-' reads the profile from "
				      "stdin; give the manifests with -f PATH "
				      "(the embedded default profile is used "
				      "when PROFILE is left out)");
	if ((manifests && wg_cli_reads_stdin(manifests))
	    || (nodes && wg_cli_reads_stdin(nodes)))
		return wg_usage_error(cmd, "stdin holds the profile (PROFILE "
				      "'-'); it cannot hold the %s too",
				      manifests && wg_cli_reads_stdin(manifests)
				      ? "manifests (-f -)" : "nodes (--nodes -)");
	return 0;
}

void wg_cli_input_paths(const struct wg_profile *p, const char *profile_arg,
			const struct wg_pathlist *extra,
			struct wg_pathlist *out)
{
	bool profile_stdin = profile_arg && strcmp(profile_arg, "-") == 0;

	for (size_t i = 0; p && i < p->nresources; i++)
		wg_pathlist_add(out, p->resource_paths[i]);
	for (size_t i = 0; extra && i < extra->len; i++)
		wg_pathlist_add(out, extra->items[i]);
	if (!out->len && !profile_stdin)
		wg_pathlist_add(out, "-");
}

int wg_cli_print_profile(struct wg_ctx *ctx, const struct wg_profile *p,
			 const char *path)
{
	struct wg_buf out = WG_BUF_INIT;
	int rc = wg_cli_report(ctx, false);

	if (rc == WG_EXIT_OK) {
		wg_profile_write(p, wg_chain_write_settings, &out);
		rc = wg_cli_write(ctx, path, &out);
	}
	wg_buf_release(&out);
	return rc;
}
