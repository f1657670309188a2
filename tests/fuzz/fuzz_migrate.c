/*
 * fuzz_migrate: migrate's text editor, the way `wingen migrate` drives it
 * with the embedded default profile: load the file's text, run the chain,
 * turn the changes into text edits (no reformat fallback).
 *
 *  - a failure leaves an error with a position;
 *  - an unchanged file comes out byte for byte, a changed one differs;
 *  - the edited text reads back to the objects the chain produced (same
 *    data and types, fz_same_value);
 *  - migrating the edited text again changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fuzz_util.h"
#include "wingen/chain/chain.h"
#include "wingen/migrate/migrate.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"

static struct wg_profile profile;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct wg_ctx ctx;

	(void)argc;
	(void)argv;
	wg_ctx_init(&ctx);
	if (wg_profile_load_default(&ctx, WG_CHAIN_OPTS, &profile) != 0) {
		fz_dump_log(&ctx);
		fz_fail("the default profile does not load");
	}
	wg_ctx_release(&ctx);
	return 0;
}

/* 1: edited (f->out holds the text), 0: file skipped, -1: an error. */
static int migrate(struct wg_ctx *ctx, const char *text, size_t len,
		   struct wg_migrate_file *f, struct wg_resources *list)
{
	/* every document read back by its edited runs is read whole too */
	static const struct wg_migrate_opts opts = { .check_regions = true };
	struct wg_input in;
	int rc;

	fz_input(&in, "m.yaml", (const uint8_t *)text, len);
	memset(f, 0, sizeof(*f));
	wg_resources_init(list);
	list->share_keys = true;	/* as cmd_migrate.c reads */
	ctx->profile = &profile;
	if (wg_migrate_load_input(ctx, f, &in, list) != 0) {
		wg_input_release(&in);
		return -1;
	}
	wg_input_release(&in);
	if (f->skip)
		return 0;
	wg_migrate_edits_begin(list);
	rc = wg_cli_run_chain(ctx, &profile, list);
	wg_migrate_edits_end(list);
	if (rc != 0 || wg_ctx_failed(ctx))
		return -1;
	rc = wg_migrate_finish(ctx, f, list, &opts) == 0 ? 1 : -1;
	if (f->regions_wrong)
		fz_fail("%zu documents accepted by their edited runs do not "
			"read back whole:\n%.*s", f->regions_wrong,
			(int)f->out.len, f->out.buf);
	return rc;
}

/* The edited text holds exactly the chain's objects of the file. */
static void check_objects(const struct wg_resources *list, const char *out,
			  size_t len)
{
	struct wg_resources back;
	struct wg_input in;
	struct wg_ctx ctx;
	size_t j = 0;

	wg_ctx_init(&ctx);
	fz_input(&in, "out.yaml", (const uint8_t *)out, len);
	wg_resources_init(&back);
	if (wg_read_stream(&ctx, &in, &back) != 0) {
		fz_dump_log(&ctx);
		fz_fail("migrated text does not read back:\n%s", out);
	}
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *r = list->items[i];

		if (r->flags & (WG_RES_GENERATED | WG_RES_DELETED))
			continue;
		FZ_CHECK(j < back.len, "object %zu missing from:\n%s", i, out);
		FZ_CHECK(fz_same_value(r->root, back.items[j]->root),
			 "object %zu differs from what the chain made:\n%s",
			 i, out);
		j++;
	}
	FZ_CHECK(j == back.len, "%zu objects expected, %zu read back:\n%s", j,
		 back.len, out);
	wg_resources_release(&back);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_migrate_file f1, f2;
	struct wg_resources l1, l2;
	struct wg_ctx c1, c2;
	int rc;

	wg_ctx_init(&c1);
	rc = migrate(&c1, (const char *)data, size, &f1, &l1);
	if (rc < 0) {
		if (!wg_ctx_failed(&c1) || !fz_has_positioned_error(&c1)) {
			fz_dump_log(&c1);
			fz_fail("migrate failed without an error at a position");
		}
		goto out;
	}
	if (rc == 0)
		goto out;
	FZ_CHECK(f1.changed == (f1.out.len != size
				|| memcmp(f1.out.buf, data, size) != 0),
		 "'changed' is %d but the text %s", f1.changed,
		 f1.changed ? "is the same" : "differs");
	check_objects(&l1, f1.out.buf, f1.out.len);

	wg_ctx_init(&c2);
	rc = migrate(&c2, f1.out.buf, f1.out.len, &f2, &l2);
	if (rc != 1) {
		fz_dump_log(&c2);
		fz_fail("migrating the migrated text failed (%d):\n%s", rc,
			f1.out.buf);
	}
	FZ_CHECK(!f2.changed, "migrate is not idempotent:\n%s\n---- became "
		 "----\n%s", f1.out.buf, f2.out.buf);
	wg_migrate_file_release(&f2);
	wg_resources_release(&l2);
	wg_ctx_release(&c2);
out:
	wg_migrate_file_release(&f1);
	wg_resources_release(&l1);
	wg_ctx_release(&c1);
	return 0;
}
