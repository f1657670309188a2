/*
 * fuzz_profile: the profile loader (wg_profile_load_data, as for a file).
 *
 *  - never a crash, a hang or a leak;
 *  - a rejected profile leaves errors, each naming the file and either a
 *    line or a key path (the diagnostic's field), but for "the profile
 *    is empty";
 *  - an accepted one satisfies what profile.h promises: at least one
 *    build, each with a catalog release (or a build number the catalogue
 *    does not know, named by that number), arch amd64 or arm64, a DNS-label
 *    handler and a DNS-subdomain RuntimeClass name, the default among
 *    them; a taint with a key and a known effect; compiled patterns;
 *    fan-out targets among the builds; a known network mode; registered
 *    plugins in the chain;
 *  - the profile wg_profile_write() prints loads again and prints the
 *    same bytes.
 * The target runs in an empty folder of its own, so relative resources:
 * and templates: resolve there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "wingen/chain/chain.h"
#include "wingen/chain/registry.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/core/plugin.h"
#include "wingen/profile/profile.h"
#include "wingen/transforms/services.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (chdir(fz_tmpdir()) != 0)
		fz_fail("cannot enter %s", fz_tmpdir());
	return 0;
}

static bool is_build(const struct wg_profile *p, const struct wg_build *b)
{
	return b >= p->builds && b < p->builds + p->nbuilds;
}

static bool one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

static void check_errors(const struct wg_ctx *ctx)
{
	FZ_CHECK(wg_ctx_failed(ctx), "load failed without an error");
	for (size_t i = 0; i < ctx->log.ndiags; i++) {
		const struct wg_diag *d = &ctx->log.diags[i];

		/* about the whole file ("", "---", "~", "!!null"): no place */
		if (d->severity != WG_SEV_ERROR
		    || strcmp(d->message, "the profile is empty") == 0)
			continue;
		if (!d->file || (d->line == 0 && (!d->field || !*d->field))) {
			fz_dump_log(ctx);
			fz_fail("error %zu has no position and no key path", i);
		}
	}
}

static void check_profile(const struct wg_profile *p)
{
	static const char *const archs[] = { "amd64", "arm64", NULL };
	static const char *const effects[] = {
		"NoSchedule", "PreferNoSchedule", "NoExecute", NULL,
	};
	static const char *const modes[] = {
		"overlay", "l2bridge", "l2tunnel", "transparent", NULL,
	};
	const struct wg_services_settings *svc;

	FZ_CHECK(p->nbuilds >= 1 && p->builds, "no build");
	FZ_CHECK(is_build(p, p->default_build), "default build not a build");
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];

		FZ_CHECK(b->release && b->release->name, "build %zu: no "
			 "release", i);
		/* a catalogue release, or a build number it does not know,
		 * kept under that number (docs/profile.md) */
		FZ_CHECK(wg_release_find(b->release->name) == b->release
			 || (b->release->build
			     && wg_release_find(b->release->build) == NULL
			     && strcmp(b->release->name, b->release->build)
				== 0
			     && strncmp(b->release->build, "10.0.", 5) == 0),
			 "build %zu: release '%s' neither the catalogue's nor "
			 "an unknown build number", i, b->release->name);
		FZ_CHECK(one_of(b->arch, archs), "build %zu: arch '%s'", i,
			 b->arch ? b->arch : "(null)");
		FZ_CHECK(b->handler && wg_is_dns_label(b->handler),
			 "build %zu: handler not a DNS label", i);
		FZ_CHECK(b->runtime_class
			 && wg_is_dns_subdomain(b->runtime_class),
			 "build %zu: RuntimeClass name '%s'", i,
			 b->runtime_class ? b->runtime_class : "(null)");
		FZ_CHECK(!b->overhead || wg_is_map(b->overhead),
			 "build %zu: overhead not a mapping", i);
		for (size_t j = 0; j < i; j++)
			FZ_CHECK(strcmp(p->builds[j].runtime_class,
					b->runtime_class) != 0,
				 "builds %zu and %zu share a RuntimeClass", j, i);
	}
	FZ_CHECK(p->taint.key && *p->taint.key, "taint without a key");
	FZ_CHECK(one_of(p->taint.effect, effects), "taint effect '%s'",
		 p->taint.effect ? p->taint.effect : "(null)");
	for (size_t i = 0; i < p->nselect; i++) {
		const struct wg_select *s = &p->select[i];

		FZ_CHECK(!s->name || s->name->code, "select %zu: name", i);
		FZ_CHECK(!s->namespace_ || s->namespace_->code,
			 "select %zu: namespace", i);
		FZ_CHECK(!s->image || s->image->code, "select %zu: image", i);
		for (size_t k = 0; k < s->nkinds; k++)
			FZ_CHECK(s->kinds[k] && *s->kinds[k],
				 "select %zu: empty kind", i);
		for (size_t k = 0; k < s->nbuilds; k++)
			FZ_CHECK(is_build(p, s->builds[k]),
				 "select %zu: target %zu not a build", i, k);
	}
	for (size_t i = 0; i < p->nimages; i++)
		FZ_CHECK(p->images[i].match.code && p->images[i].replace,
			 "image rule %zu incomplete", i);
	svc = wg_chain_settings(p, "services");
	FZ_CHECK(svc && one_of(svc->mode, modes), "network mode '%s'",
		 svc && svc->mode ? svc->mode : "(null)");
	FZ_CHECK(wg_chain_settings(p, "linux-pin") != NULL,
		 "no linux-pin settings");
	for (size_t i = 0; i < p->nsteps; i++)
		FZ_CHECK(p->steps[i].plugin
			 && wg_plugin_find(p->steps[i].plugin->name)
			    == p->steps[i].plugin,
			 "step %zu: not a registered plugin", i);
	for (size_t i = 0; i < p->nresources; i++)
		FZ_CHECK(p->resources[i] && p->resource_paths[i],
			 "resource %zu: no path", i);
}

/* What wg_profile_write() prints loads again and prints the same. */
static void check_write(const struct wg_profile *p)
{
	struct wg_buf w1 = WG_BUF_INIT, w2 = WG_BUF_INIT;
	struct wg_profile again;
	struct wg_ctx ctx;

	wg_profile_write(p, wg_chain_write_settings, &w1);
	wg_ctx_init(&ctx);
	if (wg_profile_load_data(&ctx, "written.yaml", w1.buf, w1.len, WG_CHAIN_OPTS,
				 &again) != 0) {
		fz_dump_log(&ctx);
		fz_fail("the written profile does not load:\n%s", w1.buf);
	}
	wg_profile_write(&again, wg_chain_write_settings, &w2);
	FZ_CHECK(w1.len == w2.len && memcmp(w1.buf, w2.buf, w1.len) == 0,
		 "profile written, loaded and written again changes:\n%s\n"
		 "---- became ----\n%s", w1.buf, w2.buf);
	wg_profile_release(&again);
	wg_ctx_release(&ctx);
	wg_buf_release(&w1);
	wg_buf_release(&w2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_profile p;
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	if (wg_profile_load_data(&ctx, "profile.yaml", (const char *)data,
				 size, WG_CHAIN_OPTS, &p) != 0) {
		check_errors(&ctx);
	} else {
		FZ_CHECK(!wg_ctx_failed(&ctx), "loaded with errors");
		check_profile(&p);
		check_write(&p);
		wg_profile_release(&p);
	}
	wg_ctx_release(&ctx);
	return 0;
}
