/* The image families: every tag form Microsoft publishes, judged and
 * rewritten (wingen/k8s/images.h). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/images.h"

static const struct wg_release *rel(const char *name)
{
	const struct wg_release *r = wg_release_find(name);

	ck_assert_ptr_nonnull(r);
	return r;
}

START_TEST(tag_forms_name_their_release)
{
	static const struct {
		const char *image, *release, *arch;
		bool patch, windows;
	} cases[] = {
		{ "mcr.microsoft.com/windows/servercore:ltsc2019", "ltsc2019",
		  NULL, false, true },
		{ "mcr.microsoft.com/windows/servercore:1809", "ltsc2019", NULL,
		  false, true },
		{ "mcr.microsoft.com/windows/servercore:1809-KB4493509",
		  "ltsc2019", NULL, true, true },
		{ "mcr.microsoft.com/windows/servercore:10.0.17763.5458",
		  "ltsc2019", NULL, true, true },
		{ "mcr.microsoft.com/windows/servercore:10.0.17763.5458-amd64",
		  "ltsc2019", "amd64", true, true },
		{ "mcr.microsoft.com/windows/servercore:1709", "1709", NULL,
		  false, true },
		{ "mcr.microsoft.com/windows/nanoserver:1803", "1803", NULL,
		  false, true },
		{ "mcr.microsoft.com/windows/servercore:ltsc2016", "ltsc2016",
		  NULL, false, true },
		{ "myacr.azurecr.io/mirror/windows/servercore:ltsc2019",
		  "ltsc2019", NULL, false, true },
		{ "mcr.microsoft.com/windows/nanoserver:ltsc2025-arm64",
		  "ltsc2025", "arm64", false, true },
		{ "mcr.microsoft.com/windows/nanoserver:ltsc2022@sha256:ab",
		  "ltsc2022", NULL, false, true },
		{ "mcr.microsoft.com/windows:1809", "ltsc2019", NULL, false,
		  true },
		{ "microsoft/nanoserver:1809", "ltsc2019", NULL, false, true },
		{ "mcr.microsoft.com/windows/servercore/iis:"
		  "windowsservercore-ltsc2019", "ltsc2019", NULL, false, true },
		{ "mcr.microsoft.com/dotnet/framework/aspnet:"
		  "4.8-windowsservercore-ltsc2022", "ltsc2022", NULL, false,
		  true },
		{ "mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-1809",
		  "ltsc2019", NULL, false, true },
		{ "mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022",
		  "ltsc2022", NULL, false, true },
		{ "mcr.microsoft.com/oss/kubernetes/pause:3.9-windows-"
		  "ltsc2022-amd64", "ltsc2022", "amd64", false, true },
		{ "golang:1.22-nanoserver-ltsc2025", "ltsc2025", NULL, false,
		  true },
		/* names no release */
		{ "mcr.microsoft.com/windows/servercore", NULL, NULL, false,
		  true },
		{ "mcr.microsoft.com/oss/kubernetes/"
		  "windows-host-process-containers-base-image:v1.0.0", NULL,
		  NULL, false, true },
		{ "mcr.microsoft.com/oss/kubernetes/pause:3.6", NULL, NULL,
		  false, false },
		{ "mcr.microsoft.com/dotnet/aspnet:8.0", NULL, NULL, false,
		  false },
		{ "myapp:1809", NULL, NULL, false, false },
		{ "myapp:10.0.17763.1", NULL, NULL, false, false },
		{ "registry:5000/microsoft/nanoserver", NULL, NULL, false,
		  true },
		{ "nginx:1.25-arm64", NULL, "arm64", false, false },
		{ "nginx", NULL, NULL, false, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct wg_image_ref ref;

		wg_image_parse(cases[i].image, strlen(cases[i].image), &ref);
		if (cases[i].release)
			ck_assert_msg(ref.release && !strcmp(ref.release->name,
							     cases[i].release),
				      "%s", cases[i].image);
		else
			ck_assert_msg(!ref.release, "%s", cases[i].image);
		if (cases[i].arch)
			ck_assert_msg(ref.arch && !strcmp(ref.arch,
							  cases[i].arch),
				      "%s", cases[i].image);
		else
			ck_assert_msg(!ref.arch, "%s", cases[i].image);
		ck_assert_msg(ref.patch == cases[i].patch, "%s",
			      cases[i].image);
		ck_assert_msg(ref.windows == cases[i].windows, "%s",
			      cases[i].image);
	}
}
END_TEST

START_TEST(release_for_tag)
{
	ck_assert_str_eq(wg_release_for_tag("ltsc2019")->name, "ltsc2019");
	ck_assert_str_eq(wg_release_for_tag("1809")->name, "ltsc2019");
	ck_assert_str_eq(wg_release_for_tag("ltsc2022-amd64")->name,
			 "ltsc2022");
	ck_assert_str_eq(wg_release_for_tag("20H2")->name, "20H2");
	ck_assert_str_eq(wg_release_for_tag("windowsservercore-ltsc2025")
			 ->name, "ltsc2025");
	ck_assert_str_eq(wg_release_for_tag("10.0.20348.2227-amd64")->name,
			 "ltsc2022");
	ck_assert_str_eq(wg_release_for_tag("10.0.17763")->name, "ltsc2019");
	/* "2019" and "23H2" are not Microsoft image tags. */
	ck_assert_ptr_null(wg_release_for_tag("2019"));
	ck_assert_ptr_null(wg_release_for_tag("23H2"));
	ck_assert_ptr_null(wg_release_for_tag("latest"));
	ck_assert_ptr_null(wg_release_for_tag("1.25-alpine"));
	ck_assert_ptr_null(wg_release_for_tag(NULL));
}
END_TEST

START_TEST(fit_by_release_and_arch)
{
	struct wg_image_ref ref;

#define PARSE(s) wg_image_parse(s, strlen(s), &ref)
	PARSE("mcr.microsoft.com/windows/servercore:ltsc2022");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64"),
			 WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64"),
			 WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2019"), "amd64"),
			 WG_FIT_RELEASE);
	PARSE("x/app:1.0-nanoserver-ltsc2025-arm64");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64"),
			 WG_FIT_ARCH);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "arm64"),
			 WG_FIT_RUNS);
	/* a patch of 2019 never runs on a 2022 host */
	PARSE("mcr.microsoft.com/windows/servercore:10.0.17763.5458");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), NULL),
			 WG_FIT_RELEASE);
	PARSE("nginx");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64"),
			 WG_FIT_ANY);
#undef PARSE
}
END_TEST

static void rewrites(const char *image, const char *host, const char *arch,
		     int want_rc, const char *want)
{
	struct wg_arena a;
	const char *out, *why;
	int rc;

	wg_arena_init(&a);
	rc = wg_image_rewrite(&a, image, strlen(image), rel(host), arch, &out,
			      &why);
	ck_assert_msg(rc == want_rc, "%s for %s: rc %d (%s)", image, host, rc,
		      why ? why : "");
	if (want)
		ck_assert_msg(out && !strcmp(out, want), "%s for %s: %s",
			      image, host, out ? out : "(null)");
	else
		ck_assert_ptr_null(out);
	if (rc)
		ck_assert_ptr_nonnull(why);
	wg_arena_release(&a);
}

START_TEST(rewrite_for_a_build)
{
	rewrites("mcr.microsoft.com/windows/servercore:ltsc2019", "ltsc2022",
		 "amd64", 1, "mcr.microsoft.com/windows/servercore:ltsc2022");
	rewrites("mcr.microsoft.com/windows/nanoserver:1809", "ltsc2025",
		 "amd64", 1, "mcr.microsoft.com/windows/nanoserver:ltsc2025");
	rewrites("mcr.microsoft.com/windows/nanoserver:ltsc2022",
		 "ltsc2019", "amd64", 1,
		 "mcr.microsoft.com/windows/nanoserver:1809");
	/* 23H2 has no images of its own: the newest it runs */
	rewrites("mcr.microsoft.com/windows/servercore:ltsc2019", "23H2",
		 "amd64", 1, "mcr.microsoft.com/windows/servercore:ltsc2022");
	/* runs already: nothing to do */
	rewrites("mcr.microsoft.com/windows/servercore:ltsc2022", "ltsc2025",
		 "amd64", 0, NULL);
	rewrites("nginx:1.25", "ltsc2022", "amd64", 0, NULL);
	/* IIS, mirrors, the generic suffix rule */
	rewrites("mcr.microsoft.com/windows/servercore/iis:"
		 "windowsservercore-ltsc2019", "ltsc2025", "amd64", 1,
		 "mcr.microsoft.com/windows/servercore/iis:"
		 "windowsservercore-ltsc2025");
	rewrites("myacr.azurecr.io/mirror/windows/servercore:ltsc2019",
		 "ltsc2022", "amd64", 1,
		 "myacr.azurecr.io/mirror/windows/servercore:ltsc2022");
	rewrites("mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-1809",
		 "ltsc2022", "amd64", 1,
		 "mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022");
	rewrites("mcr.microsoft.com/powershell:lts-windowsservercore-ltsc2019",
		 "ltsc2025", "amd64", 1,
		 "mcr.microsoft.com/powershell:lts-windowsservercore-ltsc2025");
	rewrites("example.com/app:2.1-windows-ltsc2019-amd64", "ltsc2022",
		 "amd64", 1, "example.com/app:2.1-windows-ltsc2022-amd64");
	/* .NET Framework: 4.8 exists on 2022, not on 2025 (4.8.1 does) */
	rewrites("mcr.microsoft.com/dotnet/framework/aspnet:"
		 "4.8-windowsservercore-ltsc2019", "ltsc2022", "amd64", 1,
		 "mcr.microsoft.com/dotnet/framework/aspnet:"
		 "4.8-windowsservercore-ltsc2022");
	rewrites("mcr.microsoft.com/dotnet/framework/runtime:"
		 "4.8-windowsservercore-ltsc2019", "ltsc2025", "amd64", 1,
		 "mcr.microsoft.com/dotnet/framework/runtime:"
		 "4.8.1-windowsservercore-ltsc2025");
	rewrites("mcr.microsoft.com/dotnet/framework/sdk:"
		 "3.5-windowsservercore-ltsc2019", "ltsc2025", "amd64", 1,
		 "mcr.microsoft.com/dotnet/framework/sdk:"
		 "3.5-windowsservercore-ltsc2025");
	rewrites("mcr.microsoft.com/dotnet/framework/wcf:"
		 "4.8.1-windowsservercore-ltsc2022", "ltsc2019", "amd64", -1,
		 NULL);
	/* the full windows image: windows/server carries it on */
	rewrites("mcr.microsoft.com/windows:1809", "ltsc2022", "amd64", 1,
		 "mcr.microsoft.com/windows/server:ltsc2022");
	/* arch: the suffix follows the build */
	rewrites("mcr.microsoft.com/windows/nanoserver:ltsc2025-arm64",
		 "ltsc2025", "amd64", 1,
		 "mcr.microsoft.com/windows/nanoserver:ltsc2025-amd64");
	rewrites("mcr.microsoft.com/windows/nanoserver:1809-amd64",
		 "ltsc2025", "arm64", 1,
		 "mcr.microsoft.com/windows/nanoserver:ltsc2025-arm64");
	/* an ltsc2022 image runs on a 2025 host, but no ltsc2022-arm64 tag
	 * exists: an arm64 copy takes the host's own tag */
	rewrites("mcr.microsoft.com/windows/nanoserver:ltsc2022-amd64",
		 "ltsc2025", "arm64", 1,
		 "mcr.microsoft.com/windows/nanoserver:ltsc2025-arm64");
	rewrites("example.com/app:1.2-nanoserver-ltsc2022-amd64",
		 "ltsc2025", "arm64", 1,
		 "example.com/app:1.2-nanoserver-ltsc2025-arm64");
	/* an arm64 ltsc2022 host has no base images at all */
	rewrites("mcr.microsoft.com/windows/nanoserver:ltsc2022-amd64",
		 "ltsc2022", "arm64", -1, NULL);
	/* the same image for amd64 on 2025: it runs as it is */
	rewrites("mcr.microsoft.com/windows/nanoserver:ltsc2022-amd64",
		 "ltsc2025", "amd64", 0, NULL);
	/* no known rewrite: patches and digests */
	rewrites("mcr.microsoft.com/windows/servercore:1809-KB4493509",
		 "ltsc2022", "amd64", -1, NULL);
	rewrites("mcr.microsoft.com/windows/servercore:10.0.17763.5458",
		 "ltsc2022", "amd64", -1, NULL);
	rewrites("mcr.microsoft.com/windows/servercore:ltsc2019@sha256:ab",
		 "ltsc2022", "amd64", -1, NULL);
}
END_TEST

START_TEST(table_is_consistent)
{
	size_t n = 0;

	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++, n++) {
		struct wg_image_ref ref;

		ck_assert_ptr_nonnull(f->repos[0]);
		ck_assert_ptr_nonnull(f->example);
		/* every family's example is of that family */
		wg_image_parse(f->example, strlen(f->example), &ref);
		ck_assert_msg(ref.family == f, "%s", f->example);
		if (f->form != WG_TAGS_NONE)
			ck_assert_msg(ref.release != NULL, "%s", f->example);
		for (const struct wg_fx_version *v = f->versions;
		     v && v->version; v++)
			for (size_t i = 0; i < 5 && v->releases[i]; i++)
				ck_assert_msg(wg_release_find(v->releases[i]),
					      "%s", v->releases[i]);
	}
	ck_assert_uint_ge(n, 17);
}
END_TEST

static Suite *images_suite(void)
{
	Suite *s = suite_create("images");
	TCase *tc = tcase_create("images");

	tcase_add_test(tc, tag_forms_name_their_release);
	tcase_add_test(tc, release_for_tag);
	tcase_add_test(tc, fit_by_release_and_arch);
	tcase_add_test(tc, rewrite_for_a_build);
	tcase_add_test(tc, table_is_consistent);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(images_suite)
