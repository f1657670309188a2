/*
 * fuzz_krm: the whole `wingen fn` (a KRM function) on any standard input,
 * run as the CLI runs it (wg_cli_fn, stdout and stderr sent to files).
 *
 *  - exit 0 or 1, and stdout always one ResourceList that reads back
 *    (the KRM contract: results even on failure);
 *  - exit 1 exactly when a result has severity error;
 *  - a failed run over a ResourceList gives its items back as they came
 *    (all or nothing);
 *  - a run that succeeded with the default profile (no functionConfig),
 *    run again on its own output, succeeds and gives the same items
 *    (idempotence);
 *  - never a crash, a hang or a leak.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz_util.h"
#include "wingen/base/buf.h"
#include "wingen/krm/krm.h"
#include "wingen/yaml/reader.h"

struct run {
	int rc;
	char *out;
	size_t out_len;
};

static void redirect(int fd, const char *path)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (f < 0 || dup2(f, fd) < 0)
		fz_fail("cannot redirect fd %d to %s", fd, path);
	close(f);
}

static void fn(const uint8_t *data, size_t size, struct run *r)
{
	struct wg_buf out = WG_BUF_INIT;
	struct wg_input in;
	int saved_out, saved_err;

	wg_buf_addf(&out, "%s/out.yaml", fz_tmpdir());
	fz_input(&in, WG_STDIN_NAME, data, size);
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	redirect(STDOUT_FILENO, out.buf);
	redirect(STDERR_FILENO, "/dev/null");
	r->rc = wg_cli_fn(&in);	/* releases in */
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	r->out = fz_read_file(out.buf, &r->out_len);
	wg_buf_release(&out);
}

/* The one document of text, read as YAML (the reader, not
 * wg_read_stream(), which would take a ResourceList's items for the
 * objects of a List): its root, or NULL. */
static const struct wg_node *read_list(struct wg_resources *list,
				       struct wg_input *in, const char *text,
				       size_t len)
{
	struct wg_ctx ctx;
	struct wg_reader r;
	struct wg_node *root = NULL, *second;
	unsigned index;

	wg_ctx_init(&ctx);
	wg_resources_init(list);
	fz_input(in, "list.yaml", (const uint8_t *)text, len);
	wg_reader_init(&r, &ctx, in);
	if (wg_reader_next(&r, &list->arena, &root, &index) != 1
	    || wg_reader_next(&r, &list->arena, &second, &index) != 0)
		root = NULL;
	wg_reader_release(&r);
	wg_ctx_release(&ctx);
	return root;
}

/* Whether fn takes data for a ResourceList (its reader accepts it). */
static bool is_resource_list(const uint8_t *data, size_t size)
{
	struct wg_ctx ctx;
	struct wg_krm krm;
	struct wg_input in;
	int rc;

	wg_ctx_init(&ctx);
	wg_krm_init(&krm);
	fz_input(&in, WG_STDIN_NAME, data, size);
	rc = wg_krm_read(&ctx, &in, &krm);
	wg_krm_release(&krm);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return rc == 0;
}

static bool has_error_result(const struct wg_node *root)
{
	const struct wg_node *results = wg_map_get(root, "results");

	for (size_t i = 0; wg_is_seq(results) && i < results->len; i++) {
		const struct wg_node *sev =
			wg_map_get(wg_seq_item(results, i), "severity");

		if (wg_scalar_is(sev, "error"))
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_resources l_in, l_out, l_again;
	struct wg_input i_in, i_out, i_again;
	const struct wg_node *in_root, *out_root, *again_root, *items;
	struct run r1, r2 = { 0, NULL, 0 };

	fn(data, size, &r1);
	FZ_CHECK(r1.rc == 0 || r1.rc == 1, "exit status %d", r1.rc);
	out_root = read_list(&l_out, &i_out, r1.out, r1.out_len);
	FZ_CHECK(wg_is_map(out_root) && wg_is_seq(wg_map_get(out_root,
								"items")),
		 "stdout is no ResourceList with items:\n%s", r1.out);
	FZ_CHECK((r1.rc == 1) == has_error_result(out_root),
		 "exit %d, and %s error among the results:\n%s", r1.rc,
		 r1.rc ? "no" : "an", r1.out);
	in_root = read_list(&l_in, &i_in, (const char *)data, size);
	items = wg_map_get(in_root, "items");
	if (r1.rc == 1 && wg_is_seq(items) && is_resource_list(data, size))
		FZ_CHECK(fz_same_value(items, wg_map_get(out_root, "items")),
			 "a failed run changed the items:\n%s", r1.out);
	/* again, when the profile is the default one (the output list
	 * holds no functionConfig to run it with again) */
	if (r1.rc == 0 && in_root && !wg_map_get(in_root, "functionConfig")) {
		fn((const uint8_t *)r1.out, r1.out_len, &r2);
		FZ_CHECK(r2.rc == 0, "fn on its own output failed:\n%s",
			 r1.out);
		again_root = read_list(&l_again, &i_again, r2.out, r2.out_len);
		FZ_CHECK(fz_same_value(wg_map_get(out_root, "items"),
				       wg_map_get(again_root, "items")),
			 "fn on its own output changed the items:\n%s\n"
			 "---- became ----\n%s", r1.out, r2.out);
		wg_resources_release(&l_again);
		wg_input_release(&i_again);
	}
	wg_resources_release(&l_in);
	wg_input_release(&i_in);
	wg_resources_release(&l_out);
	wg_input_release(&i_out);
	free(r1.out);
	free(r2.out);
	return 0;
}
