/* The profile loader: defaults, every field, every problem, files. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/profile_internal.h"
#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/chain/registry.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/images.h"
#include "wingen/base/input.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/flow.h"
#include "wingen/yaml/writer.h"
#include "wingen/transforms/linux_pin.h"
#include "wingen/transforms/services.h"

/* The plugins' settings read from the profile (chain/chain.h). */
static const struct wg_services_settings *svc_of(const struct wg_profile *p)
{
	const struct wg_services_settings *s = wg_chain_settings(p, "services");

	ck_assert_ptr_nonnull(s);
	return s;
}

static const struct wg_linux_pin_settings *pin_of(const struct wg_profile *p)
{
	const struct wg_linux_pin_settings *s = wg_chain_settings(p,
								 "linux-pin");

	ck_assert_ptr_nonnull(s);
	return s;
}

#define HEAD "apiVersion: wingen.dev/v1alpha1\nkind: Profile\n"

static char dir[64];
static struct wg_ctx ctx;

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void setup(void)
{
	strcpy(dir, "/tmp/wingen-profile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	wg_ctx_init(&ctx);
}

static void teardown(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	wg_ctx_release(&ctx);
}

/* Writes dir/name; returns the path (static buffer, one at a time). */
static const char *put(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void mkdir_in(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static int load(const char *text, struct wg_profile *p)
{
	char path[256];

	snprintf(path, sizeof(path), "%s", put("profile.yaml", text));
	return wg_profile_load(&ctx, path, WG_CHAIN_OPTS, p);
}

/* The diagnostic whose message contains s (and field, when given). */
static const struct wg_diag *diag(const char *field, const char *s)
{
	for (size_t i = 0; i < ctx.log.ndiags; i++) {
		const struct wg_diag *d = &ctx.log.diags[i];

		if (strstr(d->message, s)
		    && (!field || (d->field && strcmp(d->field, field) == 0)))
			return d;
	}
	ck_abort_msg("no diagnostic '%s' on %s; first: %s: %s", s,
		     field ? field : "-",
		     ctx.log.ndiags && ctx.log.diags[0].field
		     ? ctx.log.diags[0].field : "",
		     t_first_message(&ctx));
	return NULL;
}

static void at(const struct wg_diag *d, unsigned line, unsigned col)
{
	ck_assert_msg(d->line == line && d->col == col,
		      "%s: at %u:%u, want %u:%u", d->message,
		      (unsigned)d->line, (unsigned)d->col, line, col);
}

/* ---- defaults and fields ------------------------------------------------ */

/* The plugins' settings are read and checked whatever transforms: lists:
 * a bad one is an error with the chain leaving its plugin out. */
START_TEST(plugin_settings_outside_the_chain)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds: [{release: ltsc2022}]"
			      "\n  network: {dsr: true, mode: bgp}\n"
			      "linux: {pin: false}\ntransforms: [pod-os]\n",
			      &p), -1);
	at(diag("windows.network.mode", "unknown network mode 'bgp' (one of: "
		"overlay, l2bridge, l2tunnel, transparent)"), 5, 30);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 1);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "windows:\n  builds: [{release: ltsc2022}]"
			      "\n  network: {dsr: true, mode: l2tunnel}\n"
			      "linux: {pin: false}\ntransforms: [pod-os]\n",
			      &p), 0);
	ck_assert(svc_of(&p)->dsr);
	ck_assert_str_eq(svc_of(&p)->mode, "l2tunnel");
	ck_assert(!svc_of(&p)->fix);
	ck_assert(!pin_of(&p)->pin);
	ck_assert_uint_eq(p.nsteps, 1);
	ck_assert_ptr_null(p.steps[0].config);	/* pod-os has none */
	wg_profile_release(&p);
}
END_TEST

START_TEST(minimal_profile_gets_every_default)
{
	struct wg_profile p;
	size_t nplugins = 0;

	ck_assert_int_eq(load(HEAD, &p), 0);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	ck_assert_str_eq(p.name, "wingen");
	ck_assert_str_eq(p.dir, dir);
	ck_assert_uint_eq(p.nbuilds, 1);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2022");
	ck_assert_str_eq(p.builds[0].arch, "amd64");
	ck_assert_str_eq(p.builds[0].handler, "runhcs-wcow-process");
	ck_assert_str_eq(p.builds[0].runtime_class, "windows-ltsc2022");
	ck_assert_ptr_null(p.builds[0].overhead);
	ck_assert_ptr_eq(p.default_build, &p.builds[0]);
	ck_assert_str_eq(p.taint.key, "os");
	ck_assert_str_eq(p.taint.value, "windows");
	ck_assert_str_eq(p.taint.effect, "NoSchedule");
	/* No windows.select: the embedded default's, which has no entry
	 * (the image rule of core/select.h selects by images). */
	ck_assert_uint_eq(p.nselect, 0);
	ck_assert(!svc_of(&p)->dsr);
	ck_assert_str_eq(svc_of(&p)->mode, "overlay");
	ck_assert(!svc_of(&p)->fix);
	ck_assert(pin_of(&p)->pin);
	ck_assert_uint_eq(p.nresources, 0);
	ck_assert_ptr_null(p.templates);
	/* No transforms: every registered plugin, in registry order. */
	while (wg_plugins[nplugins])
		nplugins++;
	ck_assert_uint_eq(p.nsteps, nplugins);
	for (size_t i = 0; i < p.nsteps; i++)
		ck_assert_ptr_eq(p.steps[i].plugin, wg_plugins[i]);
	/* retarget first: it rewrites what the generator selects by */
	ck_assert_str_eq(p.steps[0].plugin->name, "retarget");
	ck_assert_str_eq(p.steps[1].plugin->name, "runtime-class");
	ck_assert_uint_eq(p.nretarget, 0);
	wg_profile_release(&p);
}
END_TEST

START_TEST(every_field_is_loaded)
{
	struct wg_profile p;

	put("app.yaml", "kind: ConfigMap\n");
	ck_assert_int_eq(load(HEAD
		"metadata:\n  name: fleet\n  labels: {team: win}\n"
		"resources: [app.yaml, '-']\n"
		"windows:\n"
		"  builds:\n"
		"    - release: ltsc2019\n"
		"      handler: runhcs-wcow-hypervisor\n"
		"    - build: '10.0.20348'\n"
		"      overhead:\n"
		"        podFixed: {cpu: 100m, memory: 128Mi}\n"
		"    - release: ltsc2025\n      arch: arm64\n"
		"    - release: '2025'\n      runtimeClass: win-2025.example\n"
		"  default: 2022\n"
		"  taint: {key: node.kubernetes.io/os, effect: NoExecute}\n"
		"  select:\n"
		"    - kinds: [Deployment, DaemonSet]\n"
		"      name: '.*-win'\n      namespace: 'win-.*'\n"
		"      image: servercore\n"
		"      labelSelector: 'app in (iis), tier'\n"
		"      annotationSelector: '!skip'\n"
		"      builds: [ltsc2019, win-2025.example]\n"
		"  images:\n    - {match: ':ltsc2019$', replace: ':ltsc2022'}\n"
		"  network: {dsr: true, mode: l2bridge}\n"
		"  services: {fix: True}\n"
		"linux: {pin: false}\n"
		"transforms: [pod-os, {name: runtime-class}]\n", &p), 0);
	ck_assert_str_eq(p.name, "fleet");
	ck_assert_uint_eq(p.nresources, 2);
	ck_assert_str_eq(p.resources[0], "app.yaml");
	ck_assert_str_eq(p.resource_paths[1], "-");
	ck_assert_ptr_nonnull(strstr(p.resource_paths[0], dir));
	ck_assert_uint_eq(p.nbuilds, 4);
	ck_assert_str_eq(p.builds[0].handler, "runhcs-wcow-hypervisor");
	ck_assert_str_eq(p.builds[0].runtime_class, "windows-ltsc2019");
	ck_assert_uint_eq(p.builds[0].pos.line, 9);
	ck_assert_uint_eq(p.builds[0].pos.col, 7);
	ck_assert_str_eq(p.builds[1].release->name, "ltsc2022");
	ck_assert_uint_eq(p.builds[1].overhead->len, 2);
	ck_assert_str_eq(p.builds[2].runtime_class, "windows-ltsc2025-arm64");
	ck_assert_str_eq(p.builds[3].runtime_class, "win-2025.example");
	ck_assert_ptr_eq(p.default_build, &p.builds[1]);
	ck_assert_str_eq(p.taint.key, "node.kubernetes.io/os");
	ck_assert_ptr_null(p.taint.value);
	ck_assert_str_eq(p.taint.effect, "NoExecute");
	ck_assert_uint_eq(p.nselect, 1);
	ck_assert_uint_eq(p.select[0].nkinds, 2);
	ck_assert_str_eq(p.select[0].kinds[1], "DaemonSet");
	ck_assert_int_eq(wg_regex_match(p.select[0].name, "app-win", 7), 1);
	ck_assert_int_eq(wg_regex_match(p.select[0].name, "app-win-2", 9), 0);
	ck_assert_int_eq(wg_regex_match(p.select[0].namespace_, "win-a", 5),
			 1);
	ck_assert_int_eq(wg_regex_match(p.select[0].image, "x/servercore:1",
					14), 1);
	ck_assert_uint_eq(p.select[0].labels->len, 2);
	ck_assert_uint_eq(p.select[0].annotations->len, 1);
	ck_assert_uint_eq(p.select[0].nbuilds, 2);
	ck_assert_ptr_eq(p.select[0].builds[0], &p.builds[0]);
	ck_assert_ptr_eq(p.select[0].builds[1], &p.builds[3]);
	ck_assert_uint_eq(p.select[0].pos.line, 21);
	ck_assert_uint_eq(p.nimages, 1);
	ck_assert_str_eq(p.images[0].replace, ":ltsc2022");
	ck_assert_int_eq(wg_regex_match(&p.images[0].match, "a:ltsc2019", 10),
			 1);
	ck_assert(svc_of(&p)->dsr);
	ck_assert_str_eq(svc_of(&p)->mode, "l2bridge");
	ck_assert(svc_of(&p)->fix);
	ck_assert(!pin_of(&p)->pin);
	ck_assert_uint_eq(p.nsteps, 2);
	ck_assert_str_eq(p.steps[0].plugin->name, "pod-os");
	ck_assert_str_eq(p.steps[1].plugin->name, "runtime-class");
	/* arm64 on ltsc2025 is fine; ltsc2019 is legacy: one warning. */
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);	/* 2019 */
	diag("windows.builds[0].release", "not supported by current");
	wg_profile_release(&p);
}
END_TEST

START_TEST(embedded_default_profile)
{
	static const char *const windows_images[] = {
		"mcr.microsoft.com/windows/servercore:ltsc2022",
		"mcr.microsoft.com/windows/nanoserver:1809",
		"mcr.microsoft.com/windows/server:ltsc2025",
		"mcr.microsoft.com/windows:1809",
		("mcr.microsoft.com/windows/servercore/iis:"
		 "windowsservercore-ltsc2022"),
		"mcr.microsoft.com/dotnet/framework/aspnet:4.8",
		"microsoft/windowsservercore",
		"docker.io/microsoft/nanoserver:1709",
		"golang:1.22-windowsservercore-ltsc2022",
		"sigwindowstools/kube-proxy:v1.29-nanoserver",
		"example.com/mcr.microsoft.com/windows/servercore:ltsc2022",
		"contoso.azurecr.io/shop/orders:2.4.1-ltsc2022",
	};
	static const char *const other_images[] = {
		"nginx", "mcr.microsoft.com/windowsfoo/x:1",
		"mcr.microsoft.com/dotnet/aspnet:8.0",
		"registry:5000/nanoserver/tool:1",
		"microsoft/mssql-server-linux",
	};
	struct wg_profile p;

	ck_assert_int_eq(wg_profile_load_default(&ctx, WG_CHAIN_OPTS, &p), 0);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	ck_assert_str_eq(p.path, "<default>");
	ck_assert_str_eq(p.name, "default");
	/* every supported build, as routes; ltsc2022 when an image names
	 * none; no legacy warning at load (it goes to each workload routed
	 * to ltsc2019) */
	ck_assert_uint_eq(p.nbuilds, 3);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2019");
	ck_assert_str_eq(p.builds[1].release->name, "ltsc2022");
	ck_assert_str_eq(p.builds[2].release->name, "ltsc2025");
	ck_assert_ptr_eq(p.default_build, &p.builds[1]);
	ck_assert_str_eq(p.builds[0].arch, "amd64");
	ck_assert_str_eq(p.builds[0].handler, "runhcs-wcow-process");
	ck_assert_str_eq(p.taint.key, "os");
	ck_assert_str_eq(p.taint.value, "windows");
	ck_assert_str_eq(p.taint.effect, "NoSchedule");
	ck_assert(pin_of(&p)->pin);
	/* no windows.select: the image rule picks what names Windows
	 * (images.h; every tag form is check_images' business) */
	ck_assert_uint_eq(p.nselect, 0);
	for (size_t i = 0; i < sizeof(windows_images) / sizeof(char *); i++) {
		const char *img = windows_images[i];
		struct wg_image_ref ref;

		wg_image_parse(img, strlen(img), &ref);
		ck_assert_msg(ref.windows, "'%s' not selected", img);
	}
	for (size_t i = 0; i < sizeof(other_images) / sizeof(char *); i++) {
		const char *img = other_images[i];
		struct wg_image_ref ref;

		wg_image_parse(img, strlen(img), &ref);
		ck_assert_msg(!ref.windows, "'%s' selected", img);
	}
	wg_profile_release(&p);
}
END_TEST

START_TEST(find_build_and_toleration)
{
	struct wg_profile p;
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_taint exists = {
		"node.kubernetes.io/os", NULL, "NoSchedule",
	};
	struct wg_buf b = WG_BUF_INIT;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - release: ltsc2022\n"
			      "    - release: ltsc2022\n      arch: arm64\n"
			      "    - release: 1809\n", &p), 0);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "ltsc2022"), &p.builds[0]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "10.0.20348"),
			 &p.builds[0]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "windows-ltsc2022-arm64"),
			 &p.builds[1]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "2019"), &p.builds[2]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "windows-ltsc2019"),
			 &p.builds[2]);
	ck_assert_ptr_null(wg_profile_find_build(&p, "ltsc2025"));
	ck_assert_ptr_null(wg_profile_find_build(&p, "nope"));
	wg_node_to_flow(&b, wg_taint_toleration(&a, &p.taint));
	ck_assert_str_eq(b.buf, "{key: os, operator: Equal, value: windows, "
			 "effect: NoSchedule}");
	wg_buf_reset(&b);
	wg_node_to_flow(&b, wg_taint_toleration(&a, &exists));
	ck_assert_str_eq(b.buf, "{key: node.kubernetes.io/os, operator: "
			 "Exists, effect: NoSchedule}");
	wg_buf_release(&b);
	wg_arena_release(&a);
	wg_profile_release(&p);
}
END_TEST

/* ---- problems ----------------------------------------------------------- */

START_TEST(every_problem_is_reported_with_key_path_and_position)
{
	struct wg_profile p;

	memset(&p, 0x5a, sizeof(p));
	ck_assert_int_eq(load(HEAD
		"windows:\n"					/* 3 */
		"  builds:\n"
		"    - release: ltsc2022\n"			/* 5 */
		"      handler: Runhcs\n"
		"    - release: ltsc2023\n"
		"    - release: ltsc2022\n"			/* 8 */
		"      build: '10.0.17763'\n"
		"    - release: ltsc2022\n"			/* 10 */
		"      runtimeClass: Bad_Name\n"
		"    - {release: ltsc2019, arch: amd46}\n"	/* 12 */
		"  defualt: ltsc2022\n"
		"  taint: {key: os, effect: NoScheduel}\n"	/* 14 */
		"  select:\n"
		"    - image: 'a(b'\n"				/* 16 */
		"    - labelSelector: 'x in ()'\n"
		"    - kinds: [Deploymnet]\n"			/* 18 */
		"    - {}\n"
		"  network: {dsr: off, mode: vxlan}\n"		/* 20 */
		"linux: {pin: yes}\n"
		"transforms: [pod-oss]\n", &p), -1);		/* 22 */
	/* out untouched on failure */
	ck_assert_uint_eq(p.nbuilds, 0x5a5a5a5a5a5a5a5aull);
	at(diag("windows.builds[0].handler", "'Runhcs' is not a DNS label"),
	   6, 16);
	at(diag("windows.builds[1].release",
		"unknown release 'ltsc2023'; did you mean 'ltsc2022'?"), 7, 16);
	at(diag("windows.builds[2].build",
		"build '10.0.17763' is release 'ltsc2019', not 'ltsc2022'"),
	   9, 14);
	at(diag("windows.builds[3].runtimeClass",
		"'Bad_Name' is not a DNS subdomain"), 11, 21);
	at(diag("windows.builds[4].arch",
		"unknown arch 'amd46'; did you mean 'amd64'?"), 12, 33);
	at(diag("windows.defualt",
		"unknown key 'defualt'; did you mean 'default'?"), 13, 3);
	at(diag("windows.taint.effect", "did you mean 'NoSchedule'?"), 14, 28);
	/* PCRE2's message and offset; the column points at the offset. */
	at(diag("windows.select[0].image",
		"'a(b' is not a valid PCRE2 pattern: missing closing "
		"parenthesis at offset 3"), 16, 18);
	at(diag("windows.select[1].labelSelector",
		"a set of values may not be empty at offset 6"), 17, 29);
	at(diag("windows.select[2].kinds[0]", "did you mean 'Deployment'?"),
	   18, 15);
	at(diag("windows.select[3]", "an empty entry would select every"),
	   19, 7);
	at(diag("windows.network.dsr", "'off' is not a boolean"), 20, 18);
	diag("windows.network.mode", "unknown network mode 'vxlan' (one of: "
	     "overlay, l2bridge, l2tunnel, transparent)");
	at(diag("linux.pin", "'yes' is not a boolean"), 21, 14);
	at(diag("transforms[0]", "unknown plugin 'pod-oss'; did you mean "
		"'pod-os'?"), 22, 14);
	ck_assert_str_eq(diag(NULL, "'Runhcs'")->file + strlen(dir),
			 "/profile.yaml");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 15);
}
END_TEST

START_TEST(duplicates_and_defaults_that_name_nothing)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - release: ltsc2022\n"
			      "    - release: '2022'\n"
			      "    - release: ltsc2025\n"
			      "      runtimeClass: windows-ltsc2022\n"
			      "    - release: ltsc2022\n"
			      "      handler: runhcs-wcow-hypervisor\n"
			      "  default: ltsc2019\n"
			      "  select:\n"
			      "    - {kinds: [Pod], builds: [1809]}\n",
			      &p), -1);
	at(diag("windows.builds[1]", "duplicate build: the same release, "
		"arch and handler as windows.builds[0]"), 6, 7);
	at(diag("windows.builds[2].runtimeClass", "runtimeClass "
		"'windows-ltsc2022' is also the name of windows.builds[0]"),
	   8, 21);
	/* Same release, other handler, same default name: a clash too. */
	diag("windows.builds[3].runtimeClass", "is also the name of");
	at(diag("windows.default", "'ltsc2019' is not one of windows.builds "
		"(ltsc2022, ltsc2022, ltsc2025, ltsc2022)"), 11, 12);
	diag("windows.select[0].builds[0]", "'1809' is not one of "
	     "windows.builds");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 5);
}
END_TEST

START_TEST(builds_by_number_and_bad_numbers)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - build: 10.0.26100\n", &p), 0);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2025");
	ck_assert_str_eq(p.builds[0].runtime_class, "windows-ltsc2025");
	wg_profile_release(&p);
	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - build: ltsc2022\n"
			      "    - release: ltsc2022\n"
			      "      build: 10.0.12345\n"
			      "    - arch: amd64\n"
			      "  default: ltsc2022\n", &p), -1);
	diag("windows.builds[0].build", "'ltsc2022' is not a build number "
	     "like 10.0.20348");
	diag("windows.builds[1].build", "build '10.0.12345' is not that of "
	     "release 'ltsc2022' (10.0.20348)");
	at(diag("windows.builds[2]", "give a release"), 8, 7);
}
END_TEST

/* A build the catalogue does not know is what the nodes run (wingen init
 * writes it): kept with a warning, found by its number. */
START_TEST(uncatalogued_build_is_kept)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - build: \"10.0.26244\"\n"
			      "    - release: ltsc2022\n"
			      "  default: 10.0.26244\n", &p), 0);
	ck_assert_int_eq(ctx.log.counts[WG_SEV_ERROR], 0);
	at(diag("windows.builds[0].build", "build '10.0.26244' is not in "
		"wingen's catalogue (the newest it knows is 10.0.26100, "
		"ltsc2025; "), 5, 14);
	ck_assert_int_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_str_eq(p.builds[0].release->build, "10.0.26244");
	ck_assert_uint_eq(p.builds[0].release->number, 26244);
	ck_assert_str_eq(p.builds[0].runtime_class, "windows-10.0.26244");
	ck_assert_ptr_eq(p.default_build, &p.builds[0]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "windows-10.0.26244"),
			 &p.builds[0]);
	ck_assert_ptr_eq(wg_profile_find_build(&p, "10.0.26244"),
			 &p.builds[0]);
	wg_profile_release(&p);
}
END_TEST

START_TEST(warnings_do_not_fail_the_load)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - release: 1909\n"
			      "    - build: 10.0.25398\n"
			      "    - release: ltsc2022\n"
			      "      arch: arm64\n", &p),
			 0);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 0);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 3);
	at(diag("windows.builds[0].release", "release '1909' is end of life"),
	   5, 16);
	diag("windows.builds[1].build", "release '23H2' is end of life");
	diag("windows.builds[2].arch", "arm64 Windows base images exist only "
	     "from ltsc2025 on");
	ck_assert_str_eq(p.builds[1].runtime_class, "windows-23h2");
	wg_profile_release(&p);
}
END_TEST

START_TEST(structure_errors)
{
	struct wg_profile p;

	/* Wrong kinds stop before libcyaml; every one is still reported. */
	ck_assert_int_eq(load(HEAD "windows:\n  builds: ltsc2022\n"
			      "  taint: [os]\nresources: {a: b}\n"
			      "metadata:\n  name: [x]\n", &p), -1);
	at(diag("windows.builds", "expected a sequence, not a scalar"), 4, 11);
	diag("windows.taint", "expected a mapping, not a sequence");
	diag("resources", "expected a sequence, not a mapping");
	diag("metadata.name", "expected a string, not a sequence");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 4);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load("kind: Profile\nwindows: {}\nextra: 1\n", &p),
			 -1);
	at(diag(NULL, "missing required key 'apiVersion'"), 1, 1);
	diag("extra", "unknown key 'extra'");
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load("apiVersion: v1\nkind: ConfigMap\n", &p), -1);
	diag("apiVersion", "'v1' is not supported: use wingen.dev/v1alpha1");
	diag("kind", "'ConfigMap' is not a profile: use Profile");
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load("", &p), -1);
	diag(NULL, "the profile is empty");
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "---\n" HEAD, &p), -1);
	at(diag(NULL, "a profile is one YAML document"), 4, 1);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load("- a\n", &p), -1);
	diag(NULL, "expected a mapping, not a sequence");
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "windows: {builds: [}\n", &p), -1);
	ck_assert_uint_eq(ctx.log.diags[0].line, 3);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_profile_load(&ctx, "/nonexistent/p.yaml", WG_CHAIN_OPTS,
					 &p), -1);
	diag(NULL, "cannot open");
}
END_TEST

START_TEST(overhead_rules)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - release: ltsc2022\n"
			      "      overhead:\n"
			      "        podFixd: {cpu: 1}\n"
			      "    - release: ltsc2025\n"
			      "      overhead:\n"
			      "        podFixed: {cpu: -1, Memory: 1Gi, "
			      "memory: 1GB, e.io/x: [1]}\n"
			      "    - release: ltsc2019\n"
			      "      overhead: {podFixed: {}}\n", &p), -1);
	at(diag("windows.builds[0].overhead.podFixd", "unknown key 'podFixd'; "
		"did you mean 'podFixed'?"), 7, 9);
	diag("windows.builds[1].overhead.podFixed.cpu", "'-1' is not a "
	     "quantity");
	diag("windows.builds[1].overhead.podFixed.Memory", "'Memory' is not "
	     "a resource name");
	diag("windows.builds[1].overhead.podFixed.memory", "'1GB' is not a "
	     "quantity");
	diag("windows.builds[1].overhead.podFixed.[e.io/x]",
	     "expected a quantity");
	diag("windows.builds[2].overhead.podFixed", "expected a non-empty "
	     "mapping");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 6);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - overhead: {podFixed: {cpu: 250m, "
			      "memory: 1.5Gi, example.com/gpu: '1', "
			      "ephemeral-storage: 1e3}}\n"
			      "      release: ltsc2022\n", &p), 0);
	ck_assert_uint_eq(p.builds[0].overhead->len, 4);
	wg_profile_release(&p);
}
END_TEST

START_TEST(transforms_list)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "transforms: []\n", &p), 0);
	ck_assert_uint_eq(p.nsteps, 0);
	wg_profile_release(&p);
	ck_assert_int_eq(load(HEAD "transforms:\n"
			      "  - runtime-class\n"
			      "  - runtime-class\n"
			      "  - {name: runtime-class, config: {a: 1}}\n"
			      "  - {nam: pod-os}\n"
			      "  - [x]\n"
			      "  - nothing-like-it\n", &p), -1);
	at(diag("transforms[1]", "plugin 'runtime-class' is listed twice"),
	   5, 5);
	at(diag("transforms[2].config", "plugin 'runtime-class' takes no "
		"config"), 6, 35);
	at(diag("transforms[3].nam", "unknown key 'nam'; did you mean "
		"'name'?"), 7, 6);
	diag("transforms[3]", "missing required key 'name'");
	diag("transforms[4]", "expected a plugin name");
	diag("transforms[5]", "unknown plugin 'nothing-like-it' (see "
	     "'wingen help plugins')");
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "transforms: runtime-class\n", &p), -1);
	diag("transforms", "expected a sequence of plugin names");
}
END_TEST

START_TEST(libcyaml_log_becomes_a_diagnostic)
{
	static const char text[] =
		HEAD "windows:\n  builds:\n    - release: ltsc2022\n"
		"    - release: [x]\n";
	struct raw_profile *raw = NULL;

	/* The tree check stops this before libcyaml in a real load; here
	 * libcyaml sees it, and its log must land in ctx, not on stderr. */
	ck_assert_int_eq(wg_profile_cyaml_load(&ctx, "p.yaml", text,
					       strlen(text), NULL, &raw), -1);
	ck_assert_ptr_null(raw);
	ck_assert_uint_eq(ctx.log.ndiags, 1);
	ck_assert_str_eq(ctx.log.diags[0].file, "p.yaml");
	ck_assert_str_eq(ctx.log.diags[0].field, "windows.builds[1].release");
	ck_assert_uint_eq(ctx.log.diags[0].line, 6);
	ck_assert_uint_eq(ctx.log.diags[0].col, 16);
	ck_assert_str_eq(ctx.log.diags[0].message,
			 "expecting STRING, got event: SEQUENCE_START");
	ck_assert_int_eq(wg_profile_cyaml_load(&ctx, "p.yaml", HEAD,
					       strlen(HEAD), NULL, &raw), 0);
	ck_assert_str_eq(raw->kind, "Profile");
	wg_profile_cyaml_free(raw);
}
END_TEST

START_TEST(libcyaml_positions_from_the_tree)
{
	/* What the loader does: libcyaml reads the tree written out again,
	 * and a position it reports is looked up in the tree by key path. */
	static const char text[] =
		HEAD "windows:\n  builds:\n\n\n    - release: [x]\n";
	struct wg_resources list;
	struct wg_input in;
	struct wg_buf out = WG_BUF_INIT;
	struct wg_yaml_writer w;
	struct raw_profile *raw = NULL;

	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, text, &list), 0);
	wg_yaml_writer_init(&w, &out);
	wg_yaml_writer_doc(&w, list.items[0]->root);
	wg_yaml_writer_finish(&w);
	wg_yaml_writer_release(&w);
	ck_assert_int_eq(wg_profile_cyaml_load(&ctx, "p.yaml", out.buf,
					       out.len, list.items[0]->root,
					       &raw), -1);
	ck_assert_str_eq(ctx.log.diags[0].field, "windows.builds[0].release");
	ck_assert_uint_eq(ctx.log.diags[0].line, 7);
	ck_assert_uint_eq(ctx.log.diags[0].col, 16);
	wg_buf_release(&out);
	wg_resources_release(&list);
	wg_input_release(&in);
}
END_TEST

START_TEST(anchors_and_merges_load_as_read)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - &b {release: ltsc2022, handler: "
			      "runhcs-wcow-hypervisor}\n"
			      "    - <<: *b\n      arch: arm64\n"
			      "  default: &d ltsc2022\n"
			      "  select: [{kinds: [Pod], builds: [*d]}]\n", &p),
			 0);
	ck_assert_uint_eq(p.nbuilds, 2);
	ck_assert_str_eq(p.builds[1].release->name, "ltsc2022");
	ck_assert_str_eq(p.builds[1].handler, "runhcs-wcow-hypervisor");
	ck_assert_str_eq(p.builds[1].arch, "arm64");
	ck_assert_str_eq(p.builds[1].runtime_class, "windows-ltsc2022-arm64");
	ck_assert_ptr_eq(p.select[0].builds[0], &p.builds[0]);
	wg_profile_release(&p);
}
END_TEST

START_TEST(regex_limits_come_from_ctx)
{
	struct wg_profile p;
	char subject[48];

	ctx.limits.regex_match_limit = 5000;
	ck_assert_int_eq(load(HEAD "windows:\n  select:\n"
			      "    - image: '^(a+)+$'\n", &p), 0);
	memset(subject, 'a', 40);
	strcpy(subject + 40, "!");
	ck_assert_int_eq(wg_regex_match(p.select[0].image, subject,
					strlen(subject)), -1);
	wg_profile_release(&p);
}
END_TEST

/* ---- files -------------------------------------------------------------- */

START_TEST(resources_stay_in_the_profile_folder)
{
	struct wg_profile p;
	struct wg_profile_opts none = { .load_restrictor_none = true,
					 .resolve_chain = wg_chain_resolve };
	char path[256], link[256];

	mkdir_in("sub");
	mkdir_in("sub/m");
	put("sub/m/a.yaml", "kind: A\n");
	put("outside.yaml", "kind: B\n");
	snprintf(link, sizeof(link), "%s/sub/m/link.yaml", dir);
	snprintf(path, sizeof(path), "%s/outside.yaml", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	snprintf(path, sizeof(path), "%s",
		 put("sub/p.yaml", HEAD "resources:\n  - m\n  - m/a.yaml\n"
		     "  - ../outside.yaml\n  - m/link.yaml\n  - nope.yaml\n"
		     "  - /etc/hostname\n"));
	ck_assert_int_eq(wg_profile_load(&ctx, path, WG_CHAIN_OPTS, &p), -1);
	at(diag("resources[2]", "'../outside.yaml' is outside the profile's "
		"folder (allow it with --load-restrictor none)"), 6, 5);
	diag("resources[3]", "'m/link.yaml' is outside the profile's folder");
	diag("resources[4]", "'nope.yaml' does not exist");
	diag("resources[5]", "'/etc/hostname' is outside");
	/* A link inside a listed folder may not lead out either. */
	diag(NULL, "symbolic link leads outside the profile's folder");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 5);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_profile_load(&ctx, path, &none, &p), -1);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 1);	/* nope.yaml */
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	put("sub/p.yaml", HEAD "resources: [m, ../outside.yaml]\n");
	ck_assert_int_eq(wg_profile_load(&ctx, path, &none, &p), 0);
	ck_assert_str_eq(p.resource_paths[1] + strlen(dir),
			 "/sub/../outside.yaml");
	wg_profile_release(&p);
}
END_TEST

START_TEST(templates_folder)
{
	struct wg_profile p;
	struct wg_input in;
	struct wg_profile_opts cli = { .resolve_chain = wg_chain_resolve };
	char path[256], link[256];

	mkdir_in("t");
	put("t/runtimeclass.yaml", "kind: RuntimeClass\n");
	put("secret.yaml", "password\n");
	snprintf(link, sizeof(link), "%s/t/escape.yaml", dir);
	snprintf(path, sizeof(path), "%s/secret.yaml", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(load(HEAD "templates: t\n", &p), 0);
	ck_assert_str_eq(p.templates, "t");
	ck_assert_int_eq(wg_profile_read_template(&ctx, &p, "runtimeclass.yaml",
						  &in), 1);
	ck_assert_str_eq(in.data, "kind: RuntimeClass\n");
	wg_input_release(&in);
	ck_assert_int_eq(wg_profile_read_template(&ctx, &p, "other.yaml",
						  &in), 0);
	ck_assert_int_eq(wg_profile_read_template(&ctx, &p, "escape.yaml",
						  &in), -1);
	diag(NULL, "the template leads outside its folder");
	p.load_restrictor_none = true;
	ck_assert_int_eq(wg_profile_read_template(&ctx, &p, "escape.yaml",
						  &in), 1);
	wg_input_release(&in);
	wg_profile_release(&p);
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(load(HEAD "templates: ..\n", &p), -1);
	diag("templates", "'..' is outside the profile's folder");
	ck_assert_int_eq(load(HEAD "templates: secret.yaml\n", &p), -1);
	diag("templates", "'secret.yaml' is not a folder");
	/* --templates replaces the profile's folder. */
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	snprintf(path, sizeof(path), "%s/t", dir);
	cli.templates = path;
	put("profile.yaml", HEAD "templates: missing\n");
	snprintf(link, sizeof(link), "%s/profile.yaml", dir);
	ck_assert_int_eq(wg_profile_load(&ctx, link, &cli, &p), 0);
	ck_assert_str_eq(p.templates_path, path);
	wg_profile_release(&p);
	cli.templates = "/nonexistent-dir";
	ck_assert_int_eq(wg_profile_load(&ctx, link, &cli, &p), -1);
	diag(NULL, "--templates: not a folder");
}
END_TEST

/* ---- writing ------------------------------------------------------------ */

static char *written(const struct wg_profile *p)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_profile_write(p, wg_chain_write_settings, &b);
	return wg_buf_detach(&b, NULL);
}

START_TEST(write_reads_back_the_same)
{
	struct wg_profile p, q;
	char *first, *second;
	const char *again;

	put("a.yaml", "kind: A\n");
	ck_assert_int_eq(load(HEAD "metadata: {name: rt}\n"
			      "resources: [a.yaml]\n"
			      "windows:\n  builds:\n"
			      "    - release: ltsc2022\n"
			      "    - release: ltsc2022\n      arch: arm64\n"
			      "      overhead: {podFixed: {cpu: 100m}}\n"
			      "  default: windows-ltsc2022-arm64\n"
			      "  taint: {key: os, value: Windows}\n"
			      "  select:\n"
			      "    - {labelSelector: 'a in (x,y), !b', "
			      "name: 'web-.*',\n"
			      "       builds: [windows-ltsc2022-arm64]}\n"
			      "  images: [{match: x, replace: y}]\n"
			      "transforms: [runtime-class]\n", &p), 0);
	first = written(&p);
	ck_assert_ptr_nonnull(strstr(first, "    build: '10.0.20348'\n"));
	ck_assert_ptr_nonnull(strstr(first, "  default: windows-ltsc2022-arm64"
				     "\n"));
	ck_assert_ptr_nonnull(strstr(first, "labelSelector: a in (x,y),!b\n"));
	again = put("again.yaml", first);
	ck_assert_int_eq(wg_profile_load(&ctx, again, WG_CHAIN_OPTS, &q), 0);
	ck_assert_ptr_eq(q.default_build, &q.builds[1]);
	second = written(&q);
	ck_assert_str_eq(first, second);
	free(first);
	free(second);
	wg_profile_release(&q);
	wg_profile_release(&p);
	/* The embedded default writes back to a profile that loads. */
	wg_ctx_release(&ctx);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_profile_load_default(&ctx, WG_CHAIN_OPTS, &p), 0);
	first = written(&p);
	again = put("default.yaml", first);
	ck_assert_int_eq(wg_profile_load(&ctx, again, WG_CHAIN_OPTS, &q), 0);
	second = written(&q);
	ck_assert_str_eq(first, second);
	/* written back it is the user's profile: ltsc2019 is then a build
	 * the cluster runs, and legacy (one warning) */
	ck_assert_uint_eq(ctx.log.ndiags, 1);
	ck_assert_int_eq(ctx.log.diags[0].severity, WG_SEV_WARNING);
	free(first);
	free(second);
	wg_profile_release(&q);
	wg_profile_release(&p);
}
END_TEST

START_TEST(did_you_mean)
{
	static const char *const keys[] = {
		"builds", "default", "taint", "select", "network",
	};

	ck_assert_str_eq(wg_suggest("buils", keys, 5), "builds");
	ck_assert_str_eq(wg_suggest("Builds", keys, 5), "builds");
	ck_assert_str_eq(wg_suggest("defualt", keys, 5), "default");
	ck_assert_str_eq(wg_suggest("tiant", keys, 5), "taint");
	ck_assert_ptr_null(wg_suggest("resources", keys, 5));
	ck_assert_ptr_null(wg_suggest("x", keys, 5));
	ck_assert_ptr_null(wg_suggest("", keys, 5));
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, minimal_profile_gets_every_default);
	tcase_add_test(tc, plugin_settings_outside_the_chain);
	tcase_add_test(tc, every_field_is_loaded);
	tcase_add_test(tc, embedded_default_profile);
	tcase_add_test(tc, find_build_and_toleration);
	tcase_add_test(tc,
		       every_problem_is_reported_with_key_path_and_position);
	tcase_add_test(tc, duplicates_and_defaults_that_name_nothing);
	tcase_add_test(tc, builds_by_number_and_bad_numbers);
	tcase_add_test(tc, warnings_do_not_fail_the_load);
	tcase_add_test(tc, uncatalogued_build_is_kept);
	tcase_add_test(tc, structure_errors);
	tcase_add_test(tc, overhead_rules);
	tcase_add_test(tc, transforms_list);
	tcase_add_test(tc, libcyaml_log_becomes_a_diagnostic);
	tcase_add_test(tc, libcyaml_positions_from_the_tree);
	tcase_add_test(tc, anchors_and_merges_load_as_read);
	tcase_add_test(tc, regex_limits_come_from_ctx);
	tcase_add_test(tc, resources_stay_in_the_profile_folder);
	tcase_add_test(tc, templates_folder);
	tcase_add_test(tc, write_reads_back_the_same);
	tcase_add_test(tc, did_you_mean);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(profile_suite)
