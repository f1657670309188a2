/*
 * wingen build: the pipeline.  Reads the profile and the manifests, runs
 * the generators and transforms, writes the result or nothing at all.
 *
 * wingen post-render: the same for Helm's post-renderer, which transforms
 * what Helm gives it and never more: the release on stdin and nothing
 * else (build reads the profile's resources: too, and with examples/
 * single-build/profile.yaml a release gained five objects), no
 * RuntimeClass (cluster-scoped: install them once, runtimeclasses), and
 * a release with no object (hooks alone, in Helm 3) given back empty.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"

struct build_opts {
	struct wg_pathlist args;	/* [PROFILE] */
	const char *profile;
	struct wg_pathlist paths;
	const char *output;	/* --output-file; NULL: stdout */
	enum wg_format format;
	bool explain;
	bool strict;
	bool print_profile;
	bool diff;		/* --diff: a unified diff per object */
	bool check;		/* --check: exit 1 when anything changes */
	bool no_rc;		/* --no-runtimeclasses: post-renderer mode */
	bool only_rc;		/* --only-runtimeclasses: the bootstrap */
	bool post_render;	/* wingen post-render: stdin alone */
	unsigned jobs;		/* threads reading and writing (--jobs) */
	struct wg_profile_opts popts;
	struct wg_pathlist retarget;	/* --retarget OLD=NEW */
	struct wg_cli_nodes nodes;	/* --nodes */
};

static int parse(int argc, char **argv, struct build_opts *o)
{
	static const char *const formats[] = { "yaml", "json", NULL };
	int format = WG_FORMAT_YAML;
	const struct wg_opt opts[] = {
		WG_OPTS_FILENAME(&o->paths),
		WG_OPTS_OUTPUT(&format, formats, &o->output),
		{ "explain", 0, WG_OPT_FLAG, &o->explain, NULL },
		{ "diff", 0, WG_OPT_FLAG, &o->diff, NULL },
		{ "check", 0, WG_OPT_FLAG, &o->check, NULL },
		{ "strict", 0, WG_OPT_FLAG, &o->strict, NULL },
		{ "print-profile", 0, WG_OPT_FLAG, &o->print_profile, NULL },
		{ "no-runtimeclasses", 0, WG_OPT_FLAG, &o->no_rc, NULL },
		{ "only-runtimeclasses", 0, WG_OPT_FLAG, &o->only_rc, NULL },
		{ "jobs", 'j', WG_OPT_JOBS, &o->jobs, NULL },
		{ "nodes", 0, WG_OPT_PATHS, &o->nodes.paths, NULL },
		WG_OPTS_PROFILE(&o->popts),
		WG_OPT_RETARGET(&o->retarget),
		WG_OPT_END,
	};
	int rc;

	o->jobs = wg_cli_default_jobs();
	rc = wg_parse_options("build", argc, argv, opts, &o->args);
	WG_RETARGET_SET(&o->popts, &o->retarget);
	o->format = (enum wg_format)format;
	if (rc == 0 && o->args.len > 1)
		return wg_usage_error("build", "unexpected argument '%s'",
				      o->args.items[1]);
	if (rc == 0 && o->no_rc && o->only_rc)
		return wg_usage_error("build", "--no-runtimeclasses and "
				      "--only-runtimeclasses exclude each other");
	if (o->args.len)
		o->profile = o->args.items[0];
	if (rc == 0)
		rc = wg_cli_profile_stdin_usage("build", o->profile,
						o->only_rc || o->print_profile
						? NULL : &o->paths,
						&o->nodes.paths);
	return rc;
}

/* wingen post-render's arguments: a PROFILE file, the options of the
 * chain; the release comes on stdin and nothing else. */
static int parse_post_render(int argc, char **argv, struct build_opts *o)
{
	static const char *const formats[] = { "yaml", "json", NULL };
	int format = WG_FORMAT_YAML;
	const struct wg_opt opts[] = {
		WG_OPTS_FILENAME(&o->paths),
		WG_OPTS_OUTPUT(&format, formats, &o->output),
		{ "explain", 0, WG_OPT_FLAG, &o->explain, NULL },
		{ "strict", 0, WG_OPT_FLAG, &o->strict, NULL },
		{ "jobs", 'j', WG_OPT_JOBS, &o->jobs, NULL },
		{ "nodes", 0, WG_OPT_PATHS, &o->nodes.paths, NULL },
		WG_OPTS_PROFILE(&o->popts),
		WG_OPT_RETARGET(&o->retarget),
		WG_OPT_END,
	};
	const char *cmd = "post-render";
	int rc;

	o->jobs = wg_cli_default_jobs();
	o->post_render = o->no_rc = true;
	rc = wg_parse_options(cmd, argc, argv, opts, &o->args);
	WG_RETARGET_SET(&o->popts, &o->retarget);
	o->format = (enum wg_format)format;
	if (rc)
		return rc;
	if (o->args.len > 1)
		return wg_usage_error(cmd, "unexpected argument '%s'",
				      o->args.items[1]);
	if (o->paths.len)
		return wg_usage_error(cmd, "a post-renderer reads the release "
				      "on stdin and nothing else; to read "
				      "files, use wingen build PROFILE -f "
				      "PATH");
	if (o->args.len)
		o->profile = o->args.items[0];
	if ((o->profile && strcmp(o->profile, "-") == 0)
	    || wg_cli_reads_stdin(&o->nodes.paths))
		return wg_usage_error(cmd, "stdin holds the release; give the "
				      "%s as a file",
				      o->profile && strcmp(o->profile, "-")
				      == 0 ? "PROFILE" : "nodes");
	return 0;
}

/* The part of the chain asked for. */
static enum wg_rc_mode rc_mode(const struct build_opts *o)
{
	return o->only_rc ? WG_RC_ONLY : o->no_rc ? WG_RC_NONE : WG_RC_ALL;
}

/* --diff and --check: the diff on the output, the objects that would
 * change on stderr (--check); exit 1 when there is one, as kubectl diff,
 * and 2 when the diff could not be written. */
static int show_diff(struct wg_ctx *ctx, const struct build_opts *o,
		     const struct wg_resources *list)
{
	struct wg_buf diff = WG_BUF_INIT, changed = WG_BUF_INIT;
	size_t n = wg_cli_diff(list, o->diff ? &diff : NULL, &changed);
	int rc = o->diff ? wg_cli_write(ctx, o->output, &diff) : WG_EXIT_OK;

	if (rc != WG_EXIT_OK)
		rc = WG_EXIT_TROUBLE;
	else if (n)
		rc = WG_EXIT_FAIL;
	if (o->check && n)
		fprintf(stderr, "wingen build: %zu object%s would change:\n%s",
			n, n == 1 ? "" : "s", changed.buf);
	wg_buf_release(&diff);
	wg_buf_release(&changed);
	return rc;
}

/* build or post-render, o parsed (rc: what parsing returned). */
static int run(struct build_opts *o, int rc)
{
	struct wg_session ss;
	struct wg_ctx *ctx = &ss.ctx;

	wg_session_init(&ss);
	if (rc) {
		if (rc < 0)
			rc = wg_print_help(o->post_render ? "post-render"
					   : "build");
		goto out;
	}
	ctx->strict = o->strict;
	ctx->skip_changes = !o->explain;	/* --diff/--check compare trees */
	ss.list.share_keys = true;	/* memory over positions of keys */
	ss.jobs = o->jobs;
	if (wg_session_load(&ss, o->profile, &o->popts, &o->paths) == 0
	    && o->print_profile) {
		rc = wg_cli_print_profile(ctx, &ss.profile, o->output);
		goto out;
	}
	if (o->post_render) {
		/* the release alone: never the profile's resources: */
		wg_pathlist_release(&ss.paths);
		wg_pathlist_add(&ss.paths, "-");
		ss.allow_empty = true;
	}
	/* --only-runtimeclasses reads nothing: the RuntimeClasses come
	 * from the profile alone, and stdin is free for the nodes. */
	if (!wg_ctx_failed(ctx) && !o->only_rc
	    && (rc = wg_cli_nodes_stdin_clash(o->post_render ? "post-render"
					      : "build", &o->nodes,
					      &ss.paths)))
		goto out;
	if (!wg_ctx_failed(ctx)) {
		bool nodes_ok = wg_cli_nodes_read(ctx, &o->nodes) == 0;

		if ((o->only_rc || wg_session_read(&ss) == 0) && nodes_ok) {
			if (o->diff || o->check)
				wg_cli_snapshot(&ss.list);
			wg_cli_run_chain_mode(ctx, &ss.profile, &ss.list,
					      rc_mode(o));
			wg_cli_nodes_check(ctx, &o->nodes, &ss.profile,
					   &ss.list, o->no_rc);
		}
	}
	if (o->explain)
		wg_cli_explain(stderr, &ctx->log);
	rc = wg_cli_report(ctx, o->explain);
	if (rc != WG_EXIT_OK && (o->diff || o->check))
		rc = WG_EXIT_TROUBLE;	/* no answer: not "changes" */
	else if (rc == WG_EXIT_OK && (o->diff || o->check))
		rc = show_diff(ctx, o, &ss.list);
	else if (rc == WG_EXIT_OK)
		rc = wg_cli_emit(ctx, o->output, &ss.list, o->format,
				 o->jobs);
out:
	wg_session_release(&ss);
	wg_cli_nodes_release(&o->nodes);
	wg_pathlist_release(&o->paths);
	wg_pathlist_release(&o->retarget);
	wg_pathlist_release(&o->args);
	return rc;
}

int wg_cmd_build(int argc, char **argv)
{
	struct build_opts o = { 0 };

	wg_cli_nodes_init(&o.nodes);
	return run(&o, parse(argc, argv, &o));
}

int wg_cmd_post_render(int argc, char **argv)
{
	struct build_opts o = { 0 };

	wg_cli_nodes_init(&o.nodes);
	return run(&o, parse_post_render(argc, argv, &o));
}
