/*
 * wingen build: the pipeline.  Reads the profile and the manifests, runs
 * the generators and transforms, writes the result or nothing at all.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "wingen/pipeline.h"
#include "wingen/profile.h"

struct build_opts {
	const char *profile;
	struct wg_pathlist paths;
	const char *output;
	enum wg_format format;
	bool explain;
	bool strict;
	bool print_profile;
	bool diff;		/* --diff: a unified diff per object */
	bool check;		/* --check: exit 1 when anything changes */
	struct wg_profile_opts popts;
};

static int parse(int argc, char **argv, struct build_opts *o)
{
	static const struct option longopts[] = {
		{ "filename", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "output-format", required_argument, NULL, 'F' },
		{ "explain", no_argument, NULL, 'e' },
		{ "diff", no_argument, NULL, 'D' },
		{ "check", no_argument, NULL, 'C' },
		{ "strict", no_argument, NULL, 's' },
		{ "print-profile", no_argument, NULL, 'P' },
		{ "templates", required_argument, NULL, 'T' },
		{ "load-restrictor", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			wg_pathlist_add(&o->paths, optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'F':
			if (wg_parse_format("build", optarg, &o->format))
				return WG_EXIT_USAGE;
			break;
		case 'e':
			o->explain = true;
			break;
		case 's':
			o->strict = true;
			break;
		case 'P':
			o->print_profile = true;
			break;
		case 'D':
			o->diff = true;
			break;
		case 'C':
			o->check = true;
			break;
		case 'T':
			o->popts.templates = optarg;
			break;
		case 'R':
			if (wg_parse_load_restrictor("build", optarg,
					&o->popts.load_restrictor_none))
				return WG_EXIT_USAGE;
			break;
		case 'h':
			return -1;
		case ':':
			return wg_usage_error("build", "option '%s' needs a "
					      "value", argv[optind - 1]);
		default:
			return wg_usage_error("build", "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->profile = argv[optind++];
	if (optind < argc)
		return wg_usage_error("build", "unexpected argument '%s'",
				      argv[optind]);
	return 0;
}

/* --diff and --check: the diff on the output, the objects that would
 * change on stderr (--check: and exit 1 when there is one). */
static int show_diff(struct wg_ctx *ctx, const struct build_opts *o,
		     const struct wg_resources *list)
{
	struct wg_buf diff = WG_BUF_INIT, changed = WG_BUF_INIT;
	size_t n = wg_cli_diff(list, o->diff ? &diff : NULL, &changed);
	int rc = o->diff ? wg_cli_write(ctx, o->output, &diff) : WG_EXIT_OK;

	if (o->check && n) {
		fprintf(stderr, "wingen build: %zu object%s would change:\n%s",
			n, n == 1 ? "" : "s", changed.buf);
		rc = WG_EXIT_FAIL;
	}
	wg_buf_release(&diff);
	wg_buf_release(&changed);
	return rc;
}

int wg_cmd_build(int argc, char **argv)
{
	struct build_opts o = { 0 };
	struct wg_inputs inputs = { 0 };
	struct wg_resources list;
	struct wg_profile profile = { 0 };
	struct wg_pathlist paths = { 0 };
	struct wg_ctx ctx;
	int rc = parse(argc, argv, &o);

	if (rc) {
		wg_pathlist_release(&o.paths);
		return rc < 0 ? wg_print_help("build") : rc;
	}
	wg_ctx_init(&ctx);
	ctx.strict = o.strict;
	ctx.skip_changes = !o.explain;	/* --diff/--check compare trees */
	wg_resources_init(&list);
	list.share_keys = true;	/* memory over positions of keys */
	if (wg_cli_load_profile(&ctx, o.profile, &o.popts, &profile) == 0) {
		ctx.profile = &profile;
		wg_cli_input_paths(&profile, o.profile, &o.paths, &paths);
	}
	if (o.print_profile && ctx.profile) {
		rc = wg_cli_print_profile(&ctx, &profile, o.output);
		goto out;
	}
	if (!wg_ctx_failed(&ctx)
	    && wg_cli_read(&ctx, &paths, &inputs, &list) == 0) {
		if (o.diff || o.check)
			wg_cli_snapshot(&list);
		wg_cli_run_chain(&ctx, &profile, &list);
	}
	if (o.explain)
		wg_cli_explain(stderr, &ctx.log);
	rc = wg_cli_report(&ctx, o.explain);
	if (rc == WG_EXIT_OK && (o.diff || o.check))
		rc = show_diff(&ctx, &o, &list);
	else if (rc == WG_EXIT_OK)
		rc = wg_cli_emit(&ctx, o.output, &list, o.format);
out:
	wg_resources_release(&list);
	wg_inputs_release(&inputs);
	if (ctx.profile)
		wg_profile_release(&profile);
	wg_pathlist_release(&paths);
	wg_pathlist_release(&o.paths);
	wg_ctx_release(&ctx);
	return rc;
}
