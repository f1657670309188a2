/*
 * fuzz_init: wingen init's reader of the cluster's nodes and the profile
 * it writes (k8s/nodes.h, profile/init.h), on any node list.
 *
 *  - a list that is refused leaves an error and no profile text;
 *  - a profile written is one the loader takes as it is: no error, one
 *    build at least, its default among them; a build the catalogue does
 *    not know is kept by its number;
 *  - never a crash, a hang or a leak.
 */
#include <string.h>

#include "fuzz_util.h"
#include "wingen/base/buf.h"
#include "wingen/chain/chain.h"
#include "wingen/profile/init.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_input in;
	struct wg_resources list;
	struct wg_cluster cluster;
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	int rc = -1;

	wg_ctx_init(&ctx);
	fz_input(&in, "nodes.yaml", data, size);
	wg_resources_init(&list);
	wg_cluster_init(&cluster);
	if (wg_read_stream(&ctx, &in, &list) == 0
	    && wg_cluster_read(&ctx, &cluster, &list, "nodes.yaml") == 0)
		rc = wg_profile_init(&ctx, &cluster, "nodes.yaml", &out);
	if (rc) {
		FZ_CHECK(wg_ctx_failed(&ctx), "refused without an error");
		FZ_CHECK(out.len == 0, "refused, and a profile written");
	} else {
		struct wg_ctx lctx;
		struct wg_profile p;

		FZ_CHECK(!wg_ctx_failed(&ctx), "a profile, and an error");
		wg_ctx_init(&lctx);
		if (wg_profile_load_data(&lctx, "profile.yaml", out.buf,
					 out.len, WG_CHAIN_OPTS, &p) != 0) {
			fz_dump_log(&lctx);
			fz_fail("the profile init wrote does not load:\n%s",
				out.buf);
		}
		FZ_CHECK(!wg_ctx_failed(&lctx) && p.nbuilds >= 1
			 && p.default_build >= p.builds
			 && p.default_build < p.builds + p.nbuilds,
			 "the profile init wrote loads badly:\n%s", out.buf);
		wg_profile_release(&p);
		wg_ctx_release(&lctx);
	}
	wg_buf_release(&out);
	wg_cluster_release(&cluster);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return 0;
}
