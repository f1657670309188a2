/*
 * fuzz_build: the whole `wingen build` command with the embedded default
 * profile, run as the CLI runs it (wg_cmd_build, stdout and stderr sent to
 * files).
 *
 *  - exit 1: stdout is empty and stderr holds an error;
 *  - exit 0: stdout reads back as YAML, and a second build of it gives
 *    exactly the same bytes (idempotence);
 *  - never exit 2 (the arguments are fixed) and never a crash or a leak;
 *  - an object with an error is edited by no plugin as far as any output
 *    shows (core/pipeline.h): the chain, run as build runs it with the
 *    change log on, reports no change to an object that has an error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz_util.h"
#include "wingen/base/buf.h"
#include "wingen/chain/chain.h"
#include "wingen/yaml/reader.h"

struct run {
	int rc;
	char *out, *err;
	size_t out_len, err_len;
};

static void redirect(int fd, const char *path)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (f < 0 || dup2(f, fd) < 0)
		fz_fail("cannot redirect fd %d to %s", fd, path);
	close(f);
}

static void build(const char *input, struct run *r)
{
	struct wg_buf out = WG_BUF_INIT, err = WG_BUF_INIT;
	char *argv[] = { "build", "-f", NULL, NULL };
	int saved_out, saved_err;

	wg_buf_addf(&out, "%s/out.yaml", fz_tmpdir());
	wg_buf_addf(&err, "%s/err.txt", fz_tmpdir());
	argv[2] = (char *)input;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	redirect(STDOUT_FILENO, out.buf);
	redirect(STDERR_FILENO, err.buf);
	r->rc = wg_cmd_build(3, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	r->out = fz_read_file(out.buf, &r->out_len);
	r->err = fz_read_file(err.buf, &r->err_len);
	wg_buf_release(&out);
	wg_buf_release(&err);
}

static void release(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* The chain over the input with the default profile and the change log
 * on (build --explain's view): no change is about an object with an
 * error. */
static void no_change_to_errors(const char *input)
{
	struct wg_session ss;
	struct wg_pathlist paths = { 0 };
	struct wg_profile_opts popts = { 0 };

	wg_pathlist_add(&paths, input);
	wg_session_init(&ss);
	popts.resolve_chain = wg_chain_resolve;
	if (wg_session_load(&ss, NULL, &popts, &paths) == 0
	    && wg_session_read(&ss) == 0)
		wg_cli_run_chain(&ss.ctx, &ss.profile, &ss.list);
	for (size_t i = 0; i < ss.ctx.log.nchanges; i++) {
		const struct wg_resource *res = ss.ctx.log.changes[i].subject;

		FZ_CHECK(!res || !(res->flags & WG_RES_ERROR), "a change is "
			 "reported for an object with an error: %s (%s)",
			 ss.ctx.log.changes[i].field
			 ? ss.ctx.log.changes[i].field : "",
			 ss.ctx.log.changes[i].plugin);
	}
	wg_session_release(&ss);
	wg_pathlist_release(&paths);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_buf in1 = WG_BUF_INIT, in2 = WG_BUF_INIT;
	struct run r1, r2;
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;

	wg_buf_addf(&in1, "%s/in.yaml", fz_tmpdir());
	wg_buf_addf(&in2, "%s/again.yaml", fz_tmpdir());
	fz_write_file(in1.buf, data, size);
	build(in1.buf, &r1);
	FZ_CHECK(r1.rc == 0 || r1.rc == 1, "exit status %d", r1.rc);
	no_change_to_errors(in1.buf);
	if (r1.rc == 1) {
		FZ_CHECK(r1.out_len == 0, "a failed build wrote %zu bytes to "
			 "stdout:\n%s", r1.out_len, r1.out);
		FZ_CHECK(strstr(r1.err, "error: "), "a failed build printed "
			 "no error:\n%s", r1.err);
		goto out;
	}

	wg_ctx_init(&ctx);
	fz_input(&in, "out.yaml", (const uint8_t *)r1.out, r1.out_len);
	wg_resources_init(&list);
	if (wg_read_stream(&ctx, &in, &list) != 0) {
		fz_dump_log(&ctx);
		fz_fail("build output does not read back:\n%s", r1.out);
	}
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);

	fz_write_file(in2.buf, r1.out, r1.out_len);
	build(in2.buf, &r2);
	FZ_CHECK(r2.rc == 0, "building the output again failed (exit %d):"
		 "\n%s\n---- output was ----\n%s", r2.rc, r2.err, r1.out);
	FZ_CHECK(r1.out_len == r2.out_len
		 && memcmp(r1.out, r2.out, r1.out_len) == 0,
		 "build is not idempotent:\n%s\n---- became ----\n%s", r1.out,
		 r2.out);
	release(&r2);
out:
	release(&r1);
	wg_buf_release(&in1);
	wg_buf_release(&in2);
	return 0;
}
