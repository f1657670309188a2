#include "wingen/k8s/catalog.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Facts: docs/windows-facts.md section 2 (build numbers from hcsshim's
 * osversion and containerd's platform code, tags from Microsoft's release
 * posts, support status from the Kubernetes docs).
 */
#define LTSC2022_NUMBER 20348u
#define LTSC2025_NUMBER 26100u

const struct wg_release wg_releases[] = {
	{
		"ltsc2016", { "1607", "2016", NULL }, "10.0.14393", 14393,
		true, false, true, "ltsc2016", NULL, NULL,
		"end of life for containers; never supported by Kubernetes; "
		"nanoserver was tagged sac2016 only (dropped)",
	},
	{
		"1709", { NULL }, "10.0.16299", 16299,
		false, false, true, "1709", "1709", NULL,
		"semi-annual channel; end of servicing",
	},
	{
		"1803", { NULL }, "10.0.17134", 17134,
		false, false, true, "1803", "1803", NULL,
		"semi-annual channel; end of servicing",
	},
	{
		"ltsc2019", { "1809", "2019", NULL }, "10.0.17763", 17763,
		true, false, false, "ltsc2019", "1809", NULL,
		"legacy: dropped from the current Kubernetes docs; "
		"nanoserver is tagged 1809 only",
	},
	{
		"1903", { NULL }, "10.0.18362", 18362,
		false, false, true, "1903", "1903", NULL,
		"semi-annual channel; end of servicing (Kubernetes 1.18 only)",
	},
	{
		"1909", { NULL }, "10.0.18363", 18363,
		false, false, true, "1909", "1909", NULL,
		"semi-annual channel; end of servicing",
	},
	{
		"2004", { NULL }, "10.0.19041", 19041,
		false, false, true, "2004", "2004", NULL,
		"semi-annual channel; end of servicing",
	},
	{
		"20H2", { NULL }, "10.0.19042", 19042,
		false, false, true, "20H2", "20H2", NULL,
		"semi-annual channel; end of servicing August 2022",
	},
	{
		"ltsc2022", { "2022", "21H2", NULL }, "10.0.20348",
		LTSC2022_NUMBER, true, true, false,
		"ltsc2022", "ltsc2022", "ltsc2022",
		"supported",
	},
	{
		"23H2", { NULL }, "10.0.25398", 25398,
		false, false, true, NULL, NULL, NULL,
		"annual channel; no base images of its own (runs ltsc2022 "
		"images); retired on AKS May 2026",
	},
	{
		"ltsc2025", { "2025", "24H2", NULL }, "10.0.26100", 26100,
		true, true, false, "ltsc2025", "ltsc2025", "ltsc2025",
		"supported; the first release with arm64 nanoserver images",
	},
	{ NULL, { NULL }, NULL, 0, false, false, false, NULL, NULL, NULL,
	  NULL },
};

/* "10.0.NNNNN" (optionally ".REV" when rev is true) -> NNNNN, else 0. */
static unsigned parse_build(const char *s, bool rev)
{
	char *end;
	unsigned long n;

	if (strncmp(s, "10.0.", 5) != 0 || !(s[5] >= '0' && s[5] <= '9'))
		return 0;
	n = strtoul(s + 5, &end, 10);
	if (rev && *end == '.' && end[1] >= '0' && end[1] <= '9')
		end += 1 + strspn(end + 1, "0123456789");
	return *end || n > 99999 ? 0 : (unsigned)n;
}

const struct wg_release *wg_release_by_number(unsigned n)
{
	for (const struct wg_release *r = wg_releases; r->name; r++)
		if (r->number == n)
			return r;
	return NULL;
}

const struct wg_release *wg_release_find(const char *s)
{
	unsigned n;

	if (!s || !*s)
		return NULL;
	for (const struct wg_release *r = wg_releases; r->name; r++) {
		if (strcasecmp(r->name, s) == 0)
			return r;
		for (size_t i = 0; i < 3 && r->aliases[i]; i++)
			if (strcasecmp(r->aliases[i], s) == 0)
				return r;
	}
	n = parse_build(s, false);
	return n ? wg_release_by_number(n) : NULL;
}

bool wg_release_arm64_images(const struct wg_release *r)
{
	/* Microsoft publishes arm64 Windows base images (nanoserver) from
	 * Windows Server 2025 on: none for ltsc2022 or earlier. */
	return r && r->number >= LTSC2025_NUMBER;
}

bool wg_release_can_run(const struct wg_release *host,
			const struct wg_release *image)
{
	if (!host || !image)
		return false;
	if (host->number < LTSC2022_NUMBER)
		return host->number == image->number;
	/* The stable ABI from ltsc2022 on: 2022 images run on later hosts. */
	return image->number >= LTSC2022_NUMBER
	       && image->number <= host->number;
}

enum wg_isolation wg_handler_isolation(const char *handler,
				       const struct wg_release **uvm)
{
	static const char hv[] = "runhcs-wcow-hypervisor";
	size_t n = sizeof(hv) - 1;

	if (uvm)
		*uvm = NULL;
	if (!handler || strncmp(handler, hv, n) != 0
	    || (handler[n] && handler[n] != '-'))
		return WG_ISOLATION_PROCESS;
	if (handler[n] == '-' && uvm) {
		const char *b = handler + n + 1;

		*uvm = wg_release_find(b);	/* 1809, ltsc2019 */
		if (!*uvm && *b && b[strspn(b, "0123456789")] == '\0')
			*uvm = wg_release_by_number((unsigned)strtoul(b, NULL,
								      10));
	}
	return WG_ISOLATION_HYPERV;
}

bool wg_handler_can_run(const char *handler, const struct wg_release *host,
			const struct wg_release *image)
{
	const struct wg_release *uvm;

	if (!host || !image)
		return false;
	if (wg_handler_isolation(handler, &uvm) == WG_ISOLATION_PROCESS)
		return wg_release_can_run(host, image);
	/* Hyper-V: older images on newer hosts, never newer ones
	 * (Microsoft's version compatibility, windows.md 2.1) */
	if (uvm)
		return image->number == uvm->number
		       && uvm->number <= host->number;
	return image->number <= host->number;
}

const char *wg_handler_rule(const char *handler)
{
	const struct wg_release *uvm;

	if (wg_handler_isolation(handler, &uvm) == WG_ISOLATION_PROCESS)
		return "process isolation (the host's build only; from "
		       "ltsc2022 on, also LTSC images from ltsc2022 up to it)";
	if (uvm)
		return "Hyper-V isolation in a utility VM of one build (that "
		       "build's images only)";
	return "Hyper-V isolation (the host's build or older)";
}
