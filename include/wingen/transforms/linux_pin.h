#ifndef WINGEN_TRANSFORMS_LINUX_PIN_H
#define WINGEN_TRANSFORMS_LINUX_PIN_H

#include <stdbool.h>

/*
 * The settings of linux-pin (transforms/linux_pin.c), read from the
 * profile's linux: by its settings hook (core/plugin.h); its config.
 */
struct wg_linux_pin_settings {
	bool pin;	/* linux.pin: kubernetes.io/os: linux on every other
			   workload (default true) */
};

/* What a profile that says nothing gets, and linux-pin with no config. */
extern const struct wg_linux_pin_settings wg_linux_pin_defaults;

#endif
