/*
 * wingen fn: a KRM function.  One ResourceList on stdin, one on stdout,
 * always (with the results, even on failure); exit 1 exactly when a
 * result is an error; human-readable diagnostics on stderr.
 *
 * The output list is streamed to stdout as it is written, never held
 * whole (with the input and the trees it would be a third of the peak).
 * It is still all or nothing: everything that can fail is decided first
 * (the chain, placement, and wg_krm_check_writable() for text libyaml
 * would refuse), so once the first byte goes out only stdout itself can
 * fail.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "wingen/chain/chain.h"
#include "wingen/core/placement.h"
#include "wingen/krm/krm.h"
#include "wingen/base/output.h"

/* stdout as the writer's sink; wg_out reports its failures on ctx. */
struct out_sink {
	struct wg_ctx *ctx;
	struct wg_out *out;
};

static int out_write(void *data, const char *bytes, size_t len)
{
	struct out_sink *s = data;

	return wg_out_write(s->ctx, s->out, bytes, len) ? 1 : 0;
}

int wg_cli_fn(struct wg_input *in)
{
	struct wg_ctx ctx;
	struct wg_krm krm;
	struct wg_profile profile;
	struct wg_profile_opts popts;
	struct wg_out out;
	struct wg_krm_nodes nodes;
	bool have_profile = false, failed;
	size_t before;
	int status;

	wg_ctx_init(&ctx);
	/* an item dropped from the list is deleted from kpt's files */
	ctx.keep_duplicates = true;
	wg_krm_init(&krm);
	krm.list.share_keys = true;	/* memory over positions of keys */
	wg_krm_nodes_init(&nodes);
	if (wg_krm_read(&ctx, in, &krm) != 0)
		wg_cli_helm_hint(&ctx, 0, in);
	else if (wg_krm_profile(&ctx, &krm, wg_chain_opts(NULL, &popts),
				&profile) == 0) {
		size_t first = ctx.log.ndiags;
		int nodes_rc;

		have_profile = true;
		/* The nodes first: a bad node list is reported before the
		 * chain says anything about the items. */
		nodes_rc = wg_krm_nodes_read(&ctx, &krm, &nodes);
		if (nodes_rc == 0 && !krm.list.len) {
			/* KRM: an empty items list is an ordinary input (a
			 * package with no objects yet, or one a --match-*
			 * filter emptied); the function gives back what it
			 * was given, never RuntimeClasses alone */
			wg_report_at(&ctx, WG_SEV_INFO, NULL, 0, 0, "the "
				     "ResourceList holds no items: nothing to "
				     "transform, and no RuntimeClass is added");
		} else if (nodes_rc == 0) {
			struct wg_placement pl = { &profile, &nodes.cluster,
						   &krm.list, NULL };

			wg_cli_run_chain(&ctx, &profile, &krm.list);
			if (nodes.cluster.len)
				wg_placement_check(&ctx, &pl);
			if (!wg_ctx_failed(&ctx))
				wg_krm_check_writable(&ctx, &krm);
		}
		wg_krm_rebase(&ctx, &krm, first);
	}
	/* Its strings point into krm's trees, which may be read anew. */
	wg_krm_nodes_release(&nodes);
	failed = wg_ctx_failed(&ctx);
	if (failed && have_profile) {
		/* All or nothing: the items go back as they came. */
		struct wg_ctx quiet;

		wg_ctx_init(&quiet);
		wg_krm_release(&krm);
		wg_krm_init(&krm);
		krm.list.share_keys = true;
		wg_krm_read(&quiet, in, &krm);
		krm.unchanged = true;
		wg_ctx_release(&quiet);
	} else if (!failed) {
		wg_krm_annotate_generated(&krm);
	}
	fflush(stdout);
	wg_log_print(stderr, &ctx.log, WG_SEV_WARNING);
	before = ctx.log.ndiags;
	status = wg_out_open(&ctx, &out, NULL);
	if (status == WG_OUT_OK) {
		struct out_sink sink = { &ctx, &out };

		if (wg_krm_write_sink(&ctx, &krm, out_write, &sink)) {
			failed = true;
			status = out.status ? out.status : WG_OUT_ERROR;
			wg_out_abort(&out);
		} else {
			status = wg_out_commit(&ctx, &out);
		}
	}
	/* what writing reported (EPIPE: the reader left, quietly) */
	for (size_t i = before; status != WG_OUT_EPIPE && i < ctx.log.ndiags;
	     i++)
		wg_diag_print(stderr, &ctx.log.diags[i]);
	wg_krm_release(&krm);
	if (have_profile)
		wg_profile_release(&profile);
	wg_ctx_release(&ctx);
	wg_input_release(in);
	return failed || status ? WG_EXIT_FAIL : WG_EXIT_OK;
}

int wg_cmd_fn(int argc, char **argv)
{
	struct wg_input in;
	struct wg_ctx ctx;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0
			 || strcmp(argv[1], "-h") == 0))
		return wg_print_help("fn");
	if (argc > 1)
		return wg_usage_error("fn", "unexpected argument '%s' "
				      "(settings come in the functionConfig)",
				      argv[1]);
	wg_ctx_init(&ctx);
	wg_cli_stdin_waiting("a ResourceList");
	if (wg_input_read_fd(&ctx, STDIN_FILENO, WG_STDIN_NAME, &in)) {
		wg_log_print(stderr, &ctx.log, WG_SEV_WARNING);
		wg_ctx_release(&ctx);
		return WG_EXIT_FAIL;
	}
	wg_ctx_release(&ctx);
	return wg_cli_fn(&in);
}

int wg_cli_fn_implicit(void)
{
	struct wg_input in;
	struct wg_ctx ctx;
	int rc;

	if (isatty(STDIN_FILENO))
		return -1;
	wg_ctx_init(&ctx);
	rc = wg_input_read_fd(&ctx, STDIN_FILENO, WG_STDIN_NAME, &in);
	wg_ctx_release(&ctx);
	if (rc)
		return -1;
	if (!wg_krm_sniff(&in)) {
		wg_input_release(&in);
		return -1;
	}
	return wg_cli_fn(&in);
}
