#ifndef WINGEN_TRANSFORMS_SERVICES_H
#define WINGEN_TRANSFORMS_SERVICES_H

#include <stdbool.h>

/*
 * The settings of the Services check (transforms/services.c), read from
 * the profile's windows.network and windows.services by its settings hook
 * (core/plugin.h); its config.  Strings live in the profile's arena.
 */
struct wg_services_settings {
	bool dsr;		/* windows.network.dsr: the Windows kube-proxy
				   runs with Direct Server Return (false) */
	const char *mode;	/* windows.network.mode: "overlay" (default),
				   "l2bridge", "l2tunnel", "transparent" */
	bool fix;		/* windows.services.fix: fix what is safe to
				   fix, not only warn (false) */
};

/* What a profile that says nothing gets, and the check with no config. */
extern const struct wg_services_settings wg_services_defaults;

#endif
