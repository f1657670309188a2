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

/*
 * The tag grammar (images.h), as a table: image -> Windows?, release,
 * arch, patch.  Every tag of issue 43's text is here, and each rule of the
 * grammar has a case that holds and one that does not.
 */
static const struct tag_case {
	const char *image, *release, *arch;
	bool patch, windows;
} tag_cases[] = {
	/* the tags */
	{ "mcr.microsoft.com/oss/kubernetes/pause:3.9-windows-ltsc2022-amd64",
	  "ltsc2022", "amd64", false, true },
	{ "registry.k8s.io/pause:3.9-windows-ltsc2022-amd64", "ltsc2022",
	  "amd64", false, true },
	{ "datadog/agent:7-servercore-ltsc2022", "ltsc2022", NULL, false,
	  true },
	{ "newrelic/nri-kubernetes:3.30.0-windows-ltsc2022", "ltsc2022", NULL,
	  false, true },
	{ "newrelic/newrelic-fluentbit-output:3.8.0-windows-ltsc-2022",
	  "ltsc2022", NULL, false, true },
	{ "newrelic/newrelic-fluentbit-output:3.8.0-windows-ltsc-2019",
	  "ltsc2019", NULL, false, true },
	{ "kube-proxy:v1.30.0-windows-hostprocess", NULL, NULL, false, true },
	{ "contoso.azurecr.io/shop/orders:2.4.1-ltsc2022", "ltsc2022", NULL,
	  false, true },
	{ "microsoft/iis:windowsservercore-ltsc2016", "ltsc2016", NULL, false,
	  true },
	{ "mcr.microsoft.com/windows/nanoserver:1809", "ltsc2019", NULL,
	  false, true },
	/* base images: release tags, patches, mirrors */
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
	{ "mcr.microsoft.com/windows/servercore:20H2", "20H2", NULL, false,
	  true },
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
	{ "docker.io/microsoft/windowsservercore:1803", "1803", NULL, false,
	  true },
	{ "mcr.microsoft.com/windows/servercore/insider:10.0.26100.1",
	  "ltsc2025", NULL, true, true },
	/* variants of other images */
	{ "mcr.microsoft.com/windows/servercore/iis:"
	  "windowsservercore-ltsc2019", "ltsc2019", NULL, false, true },
	{ "mcr.microsoft.com/dotnet/framework/aspnet:"
	  "4.8-windowsservercore-ltsc2022", "ltsc2022", NULL, false,
	  true },
	{ "mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-1809",
	  "ltsc2019", NULL, false, true },
	{ "mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022",
	  "ltsc2022", NULL, false, true },
	{ "golang:1.22-nanoserver-ltsc2025", "ltsc2025", NULL, false,
	  true },
	{ "python:3.12-windowsservercore-1809", "ltsc2019", NULL, false,
	  true },
	{ "openjdk:17-servercore-20H2", "20H2", NULL, false, true },
	{ "fluent/fluent-bit:windows-2019-2.2.2", "ltsc2019", NULL, false,
	  true },
	{ "example.com/agent:1.0-windows-2004", "2004", NULL, false, true },
	{ "example.com/agent:1.0-LTSC2022-AMD64", "ltsc2022", "amd64", false,
	  true },
	{ "example.com/agent:ltsc2025_arm64", "ltsc2025", "arm64", false,
	  true },
	{ "example.com/agent:1.0-ltsc2019-KB5034127", "ltsc2019", NULL,
	  true, true },
	{ "example.com/agent:2.0-10.0.20348.2227", "ltsc2022", NULL, true,
	  true },
	{ "myapp:10.0.17763.1", "ltsc2019", NULL, true, true },
	{ "docker.io/grafana/alloy:v1.18.1-windowsservercore-ltsc2022",
	  "ltsc2022", NULL, false, true },
	/* a Windows word and an LTSC written as one word (AKS node
	 * mechanic's v2025.7-windows2022) */
	{ "ghcr.io/amargherio/mechanic:v2025.7-windows2022", "ltsc2022",
	  NULL, false, true },
	{ "example.com/agent:1.0-win2019", "ltsc2019", NULL, false, true },
	{ "example.com/agent:1.0-servercore2016", "ltsc2016", NULL, false,
	  true },
	{ "example.com/agent:1.0-WindowsLTSC2025-arm64", "ltsc2025", "arm64",
	  false, true },
	{ "envoyproxy/envoy-build-windows2019:latest", "ltsc2019", NULL,
	  false, true },
	/* Windows words without a release: any build */
	{ "golang:1.22-windowsservercore", NULL, NULL, false, true },
	{ "mongo:7.0-nanoserver", NULL, NULL, false, true },
	{ "sigwindowstools/calico-node:v3.24.5-hostprocess", NULL, NULL,
	  false, true },
	{ "mcr.microsoft.com/oss/kubernetes-csi/azuredisk-csi:"
	  "v1.29.0-windows-hp", NULL, NULL, false, true },
	{ "mcr.microsoft.com/azuremonitor/containerinsights/ciprod:"
	  "win-3.1.24", NULL, NULL, false, true },
	{ "example.com/agent:1.0-windows-amd64", NULL, "amd64", false,
	  true },
	{ "example.com/agent:7-ltsc", NULL, NULL, false, true },
	{ "ghcr.io/prometheus-community/windows-exporter:0.31.8", NULL, NULL,
	  false, true },
	{ "acnpublic.azurecr.io/cyclonus-windows:v0.4.6.8", NULL, NULL,
	  false, true },
	{ "openkruise/kruise-daemon-win:test", NULL, NULL, false, true },
	{ "prom/windows_exporter", NULL, NULL, false, true },
	{ "mcr.microsoft.com/windows/servercore", NULL, NULL, false,
	  true },
	{ "mcr.microsoft.com/oss/kubernetes/"
	  "windows-host-process-containers-base-image:v1.0.0", NULL,
	  NULL, false, true },
	{ "registry:5000/microsoft/nanoserver", NULL, NULL, false,
	  true },
	/* not Windows: multi-platform images, versions, other words */
	{ "mcr.microsoft.com/oss/kubernetes/pause:3.6", NULL, NULL,
	  false, false },
	{ "registry.k8s.io/pause:3.9", NULL, NULL, false, false },
	{ "mcr.microsoft.com/dotnet/aspnet:8.0", NULL, NULL, false,
	  false },
	{ "myapp:1809", NULL, NULL, false, false },
	{ "myapp:2019", NULL, NULL, false, false },
	{ "myapp:1.0-2004", NULL, NULL, false, false },
	{ "myapp:10.0.12345", NULL, NULL, false, false },
	{ "myapp:ltsc-latest", NULL, NULL, false, true },
	{ "myapp:winter-2022", NULL, NULL, false, false },
	{ "myapp:darwin-2022", NULL, NULL, false, false },
	{ "myapp:winter2022", NULL, NULL, false, false },
	{ "myapp:windows2023", NULL, NULL, false, false },
	{ "example.com/winery-2019:1", NULL, NULL, false, false },
	{ "sigwindowstools/k8s-gmsa-webhook:v0.7.0", NULL, NULL, false,
	  false },
	{ "ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2", NULL,
	  NULL, false, false },
	{ "nginx:1.25-arm64", NULL, "arm64", false, false },
	{ "nginx", NULL, NULL, false, false },
	{ "localhost:5000/nginx", NULL, NULL, false, false },
};

START_TEST(tag_forms_name_their_release)
{
	const struct tag_case *c = &tag_cases[_i];
	struct wg_image_ref ref;

	wg_image_parse(c->image, strlen(c->image), &ref);
	if (c->release)
		ck_assert_msg(ref.release && !strcmp(ref.release->name,
						     c->release),
			      "%s: release %s", c->image,
			      ref.release ? ref.release->name : "none");
	else
		ck_assert_msg(!ref.release, "%s: release %s", c->image,
			      ref.release->name);
	if (c->arch)
		ck_assert_msg(ref.arch && !strcmp(ref.arch, c->arch), "%s",
			      c->image);
	else
		ck_assert_msg(!ref.arch, "%s: arch %s", c->image, ref.arch);
	ck_assert_msg(ref.patch == c->patch, "%s: patch", c->image);
	ck_assert_msg(ref.windows == c->windows, "%s: windows", c->image);
}
END_TEST

/* What named Windows is said in messages, from the text. */
START_TEST(windows_why)
{
	static const struct {
		const char *image, *why;
	} cases[] = {
		{ "contoso.azurecr.io/shop/orders:2.4.1-ltsc2022",
		  "tag 'ltsc2022'" },
		{ "x/y:3.8.0-windows-ltsc-2022",
		  "tag 'windows-ltsc-2022': ltsc2022" },
		{ "x/y:1.0-ltsc-2019", "tag 'ltsc-2019': ltsc2019" },
		{ "x/y:v1.30.0-calico-hostprocess", "tag 'hostprocess'" },
		{ "x/y:1.0-nanoserver-1809-amd64",
		  "tag 'nanoserver-1809': ltsc2019" },
		{ "x/y:1.0-nanoserver-ltsc2022", "tag 'nanoserver-ltsc2022'" },
		{ "ghcr.io/prometheus-community/windows-exporter:0.31.8",
		  "name 'windows'" },
		{ "mcr.microsoft.com/windows/servercore:ltsc2022",
		  "its repository" },
		{ "x/y:10.0.20348.1", "tag '10.0.20348.1': ltsc2022" },
		{ "x/y:v1-windows2022", "tag 'windows2022': ltsc2022" },
	};
	struct wg_arena a;

	wg_arena_init(&a);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct wg_image_ref ref;
		const char *why;

		wg_image_parse(cases[i].image, strlen(cases[i].image), &ref);
		why = wg_image_windows_why(&a, cases[i].image, &ref);
		ck_assert_msg(why && !strcmp(why, cases[i].why), "%s: %s",
			      cases[i].image, why ? why : "(null)");
	}
	ck_assert_ptr_null(wg_image_windows_why(&a, "nginx", &(struct
		wg_image_ref){ 0 }));
	wg_arena_release(&a);
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
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64", NULL),
			 WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64", NULL),
			 WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2019"), "amd64", NULL),
			 WG_FIT_RELEASE);
	PARSE("x/app:1.0-nanoserver-ltsc2025-arm64");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64", NULL),
			 WG_FIT_ARCH);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "arm64", NULL),
			 WG_FIT_RUNS);
	/* a patch of 2019 never runs on a 2022 host */
	PARSE("mcr.microsoft.com/windows/servercore:10.0.17763.5458");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), NULL, NULL),
			 WG_FIT_RELEASE);
	PARSE("nginx");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64", NULL),
			 WG_FIT_ANY);
	/* Hyper-V isolation: older images on newer hosts, never newer */
	PARSE("contoso.azurecr.io/shop/orders:2.4.1-ltsc2019");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64",
				      "runhcs-wcow-process"), WG_FIT_RELEASE);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64",
				      "runhcs-wcow-hypervisor"), WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64",
				      "runhcs-wcow-hypervisor-17763"),
			 WG_FIT_RUNS);
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2025"), "amd64",
				      "runhcs-wcow-hypervisor-20348"),
			 WG_FIT_RELEASE);
	PARSE("contoso.azurecr.io/shop/orders:2.4.1-ltsc2025");
	ck_assert_int_eq(wg_image_fit(&ref, rel("ltsc2022"), "amd64",
				      "runhcs-wcow-hypervisor"),
			 WG_FIT_RELEASE);
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
	rc = wg_image_rewrite(&a, image, strlen(image), rel(host), arch, NULL,
			      &out, &why);
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
	/* the release is written as the image wrote it */
	rewrites("newrelic/newrelic-fluentbit-output:3.8.0-windows-ltsc-2019",
		 "ltsc2022", "amd64", 1,
		 "newrelic/newrelic-fluentbit-output:3.8.0-windows-ltsc-2022");
	rewrites("fluent/fluent-bit:windows-2019-2.2.2", "ltsc2022", "amd64",
		 1, "fluent/fluent-bit:windows-2022-2.2.2");
	rewrites("datadog/agent:7-servercore-ltsc2019", "ltsc2025", "amd64",
		 1, "datadog/agent:7-servercore-ltsc2025");
	rewrites("registry.k8s.io/pause:3.9-windows-ltsc2019-amd64",
		 "ltsc2022", "amd64", 1,
		 "registry.k8s.io/pause:3.9-windows-ltsc2022-amd64");
	rewrites("ghcr.io/amargherio/mechanic:v2025.7-windows2022",
		 "ltsc2019", "amd64", 1,
		 "ghcr.io/amargherio/mechanic:v2025.7-windows2019");
	rewrites("example.com/app:1.0-windowsltsc2019", "ltsc2022", "amd64",
		 1, "example.com/app:1.0-windowsltsc2022");
	/* a release in the name: how the others are named is not known */
	rewrites("envoyproxy/envoy-build-windows2019:latest", "ltsc2022",
		 "amd64", -1, NULL);
	/* a year has no word for a release that is no LTSC */
	rewrites("fluent/fluent-bit:windows-2019-2.2.2", "20H2", "amd64", -1,
		 NULL);
	/* a release word with no Windows word before it, on a repository
	 * that is no family: how it is tagged for others is not known */
	rewrites("contoso.azurecr.io/shop/orders:2.4.1-ltsc2019", "ltsc2022",
		 "amd64", -1, NULL);
	/* no known rewrite: patches and digests */
	rewrites("mcr.microsoft.com/windows/servercore:1809-KB4493509",
		 "ltsc2022", "amd64", -1, NULL);
	rewrites("mcr.microsoft.com/windows/servercore:10.0.17763.5458",
		 "ltsc2022", "amd64", -1, NULL);
	rewrites("mcr.microsoft.com/windows/servercore:ltsc2019@sha256:ab",
		 "ltsc2022", "amd64", -1, NULL);
}
END_TEST

START_TEST(handlers_and_isolation)
{
	const struct wg_release *uvm;

	ck_assert_int_eq(wg_handler_isolation(NULL, &uvm),
			 WG_ISOLATION_PROCESS);
	ck_assert_int_eq(wg_handler_isolation("runhcs-wcow-process", &uvm),
			 WG_ISOLATION_PROCESS);
	ck_assert_int_eq(wg_handler_isolation("runhcs-wcow-hypervisorx",
					      &uvm), WG_ISOLATION_PROCESS);
	ck_assert_int_eq(wg_handler_isolation("runhcs-wcow-hypervisor", &uvm),
			 WG_ISOLATION_HYPERV);
	ck_assert_ptr_null(uvm);
	ck_assert_int_eq(wg_handler_isolation("runhcs-wcow-hypervisor-1809",
					      &uvm), WG_ISOLATION_HYPERV);
	ck_assert_str_eq(uvm->name, "ltsc2019");
	ck_assert_int_eq(wg_handler_isolation("runhcs-wcow-hypervisor-26100",
					      &uvm), WG_ISOLATION_HYPERV);
	ck_assert_str_eq(uvm->name, "ltsc2025");
	ck_assert(wg_handler_can_run("runhcs-wcow-hypervisor",
				     rel("ltsc2025"), rel("ltsc2019")));
	ck_assert(!wg_handler_can_run("runhcs-wcow-hypervisor",
				      rel("ltsc2019"), rel("ltsc2022")));
	ck_assert(!wg_handler_can_run(NULL, rel("ltsc2025"), rel("ltsc2019")));
	ck_assert(wg_handler_can_run(NULL, rel("ltsc2025"), rel("ltsc2022")));
	ck_assert(strstr(wg_handler_rule(NULL), "process isolation"));
	ck_assert(strstr(wg_handler_rule("runhcs-wcow-hypervisor"),
			 "Hyper-V"));
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

	tcase_add_loop_test(tc, tag_forms_name_their_release, 0,
			    (int)(sizeof(tag_cases) / sizeof(*tag_cases)));
	tcase_add_test(tc, windows_why);
	tcase_add_test(tc, release_for_tag);
	tcase_add_test(tc, fit_by_release_and_arch);
	tcase_add_test(tc, rewrite_for_a_build);
	tcase_add_test(tc, handlers_and_isolation);
	tcase_add_test(tc, table_is_consistent);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(images_suite)
