#ifndef WINGEN_TX_IMAGES_H
#define WINGEN_TX_IMAGES_H

/*
 * Images per build, for fan-out (private to this folder).
 */

#include "wingen/base/ctx.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"

/*
 * The image (a scalar) as build b needs it.  The profile's windows.images
 * rules go first, in order: the first whose match matches rewrites the
 * image with its replace, where $release, $build and $arch (or ${...})
 * are b's and $1, ${name} PCRE2's groups ("$$" is a "$").  An image no
 * rule matches goes through the built-in rule: a Microsoft base image
 * (mcr.microsoft.com/windows/servercore, nanoserver, server; with a tag
 * and no digest) whose tag names a release b's hosts cannot run gets b's
 * tag of that repository, or, when b's release has none (23H2), the
 * newest one its hosts run; an -amd64/-arm64 suffix stays; a full
 * version tag (10.0.17763.5458) is left alone.  Anything else comes back
 * unchanged.
 *
 * Returns the text in arena, or NULL after an error reported on ctx
 * against res at image and field (a rule that hit the PCRE2 limits, or a
 * replacement PCRE2 rejects).  Whether b's hosts can run the result is
 * the caller's to check.
 */
const char *tx_image_for_build(struct wg_ctx *ctx, const struct wg_profile *p,
			       struct wg_arena *arena,
			       const struct wg_resource *res,
			       const struct wg_node *image, const char *field,
			       const struct wg_build *b);

#endif
