#ifndef WINGEN_CATALOG_H
#define WINGEN_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The compiled-in catalog of Windows Server builds (build numbers from
 * hcsshim's osversion package and containerd's platform matcher; tags from
 * Microsoft's release posts; support from the Kubernetes Windows docs).
 * Microsoft's image families, and how their tags name a release, are the
 * table next to this one (images.h).
 */

struct wg_release {
	const char *name;	 /* canonical release name: "ltsc2022" */
	const char *aliases[3];	 /* other names accepted ("1809", "2022") */
	const char *build;	 /* node.kubernetes.io/windows-build value */
	unsigned number;	 /* the build number: 20348 */
	bool ltsc;		 /* a long-term servicing release */
	bool supported;		 /* listed by current Kubernetes docs */
	bool end_of_life;	 /* out of servicing: using it is a warning */
	const char *servercore;	 /* base-image tags, NULL when none exists */
	const char *nanoserver;
	const char *server;
	const char *note;	 /* one line on its status */
};

/* Every release, oldest first, ended by an entry with name NULL. */
extern const struct wg_release wg_releases[];

/* By release name, alias ("1809", "2022") or build ("10.0.20348"). */
const struct wg_release *wg_release_find(const char *name_or_build);

/* Whether Microsoft publishes arm64 base images of release r (from
 * ltsc2025 on: an "ltsc2022-arm64" tag does not exist). */
bool wg_release_arm64_images(const struct wg_release *r);

/*
 * Whether a process-isolated container whose base image is of release
 * image runs on a host of release host: before ltsc2022 only the exact
 * build; from ltsc2022 on, the host's own build and images from ltsc2022
 * up to the host (23H2 and 2025 hosts run ltsc2022 images).
 */
bool wg_release_can_run(const struct wg_release *host,
			const struct wg_release *image);

/* How a containerd runtime handler isolates Windows containers. */
enum wg_isolation {
	WG_ISOLATION_PROCESS = 0,	/* runhcs-wcow-process, any other */
	WG_ISOLATION_HYPERV,		/* runhcs-wcow-hypervisor[-BUILD] */
};

/*
 * The isolation of handler (NULL: containerd's default, process):
 * runhcs-wcow-hypervisor is Hyper-V; runhcs-wcow-hypervisor-BUILD (BUILD
 * a release name, alias or build number: containerd's -1809 and -17763,
 * AKS's -<build number>) is Hyper-V in a utility VM of that release,
 * *uvm (may be NULL) set to it, else NULL.
 */
enum wg_isolation wg_handler_isolation(const char *handler,
				       const struct wg_release **uvm);

/*
 * Whether a host of release host runs images of release image with the
 * isolation of handler: process isolation as wg_release_can_run; Hyper-V
 * runs the same or older builds on newer hosts (an image newer than the
 * host never runs), and a utility VM of one release runs that release's
 * images only, on a host at least as new.
 */
bool wg_handler_can_run(const char *handler, const struct wg_release *host,
			const struct wg_release *image);

/* The rule wg_handler_can_run applies for handler, for messages:
 * "process isolation (the host's build only; ...)".  Static text. */
const char *wg_handler_rule(const char *handler);

/* By build number (20348), or NULL. */
const struct wg_release *wg_release_by_number(unsigned number);

/* How a tag names a release: see images.h (the image families). */

#endif
