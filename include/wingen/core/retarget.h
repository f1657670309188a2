#ifndef WINGEN_CORE_RETARGET_H
#define WINGEN_CORE_RETARGET_H

#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/k8s/catalog.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * What retarget (windows.retarget, --retarget OLD=NEW; the edits are
 * transforms/retarget.c's) shares with the rest of the core: how a name
 * says a retired release, and the way out an error names when the
 * profile does not retarget it.
 */

/*
 * The release a RuntimeClass name was made for by wingen's naming:
 * windows-<release or alias>, optionally followed by -<arch>
 * ("windows-ltsc2019", "windows-2019", "windows-1809-arm64"), case as
 * written; NULL for any other name.  Sets *arch (may be NULL) to the arch
 * named, or NULL.
 */
const struct wg_release *wg_retarget_rc_release(const char *name, size_t len,
						const char **arch);

/*
 * The release a RuntimeClass of list called name schedules onto: its
 * scheduling.nodeSelector node.kubernetes.io/windows-build, or NULL (no
 * such RuntimeClass in list, or none named).
 */
const struct wg_release *wg_retarget_rc_schedules(struct wg_resources *list,
						  const char *name,
						  size_t len);

/*
 * The way out, for an error about a workload that targets release old
 * (not a build of p): "; to move it to ltsc2022, retarget it:
 * --retarget ltsc2019=ltsc2022 (or windows.retarget: {ltsc2019:
 * ltsc2022})", with p's default build, in arena.  "" when old is NULL, a
 * build of p, or already retargeted.
 */
const char *wg_retarget_hint(struct wg_arena *arena,
			     const struct wg_profile *p,
			     const struct wg_release *old);

/*
 * The workload of list, other than res, that already serves build to,
 * where a retarget of old would move res: of res's kind and namespace,
 * named as res with its release words (ltsc2019, 2019, 1809, 10.0.17763
 * between dashes) taken out, and whose images name a release to's hosts
 * run; NULL when none, and never for fan-out's copies (annotation
 * wingen.dev/windows-build(s) on either).  A chart that renders one agent
 * per release (nri-windows-ltsc2019, nri-windows-ltsc2022) needs the old
 * one dropped, not moved onto the new one's nodes.
 */
const struct wg_resource *wg_retarget_sibling(struct wg_resources *list,
					      const struct wg_resource *res,
					      const struct wg_release *old,
					      const struct wg_build *to);

/* wg_retarget_hint for res of list: when wg_retarget_sibling finds one,
 * "; the stream already holds DaemonSet/x for ltsc2022: drop this one
 * (a chart: turn its ltsc2019 variant off) rather than retarget it". */
const char *wg_retarget_hint_in(struct wg_arena *arena,
				const struct wg_profile *p,
				struct wg_resources *list,
				const struct wg_resource *res,
				const struct wg_release *old);

/* wg_retarget_hint for the release a word names (a release name, alias
 * or build number: an annotation's, a nodeSelector value). */
const char *wg_retarget_hint_word(struct wg_arena *arena,
				  const struct wg_profile *p, const char *s,
				  size_t len);

/* wg_retarget_hint_in for the release a word names. */
const char *wg_retarget_hint_word_in(struct wg_arena *arena,
				     const struct wg_profile *p,
				     struct wg_resources *list,
				     const struct wg_resource *res,
				     const char *s, size_t len);

/* wg_retarget_hint for the release a RuntimeClass name stands for: a
 * RuntimeClass of list so named schedules onto it, or wingen's naming
 * says it (wg_retarget_rc_release). */
const char *wg_retarget_hint_rc(struct wg_arena *arena,
				const struct wg_profile *p,
				struct wg_resources *list, const char *s,
				size_t len);

#endif
