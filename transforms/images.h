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
 * rule matches goes through the image families (wg_image_rewrite of
 * wingen/k8s/images.h): an image b's hosts cannot run gets the tag (and
 * arch suffix) of b, when the family knows one.  Anything else comes back
 * unchanged.
 *
 * Returns the text in arena, or NULL after an error reported on ctx
 * against res at image and field (a rule that hit the PCRE2 limits, or a
 * replacement PCRE2 rejects).  *note says what rewrote it ("windows.images
 * [0]", or the family's reason), or why the families know no rewrite; NULL
 * when nothing had to.  Whether b's hosts can run the result is the
 * caller's to check.
 */
const char *tx_image_for_build(struct wg_ctx *ctx, const struct wg_profile *p,
			       struct wg_arena *arena,
			       const struct wg_resource *res,
			       const struct wg_node *image, const char *field,
			       const struct wg_build *b, const char **note);

/* A windows.images rule that would rewrite image, for an error that has
 * no known rewrite to offer (in arena): its release words replaced when
 * it names a release and pins no patch, "windows.images: [{match: '^(repo:.*)ltsc2022(.*)$',
 * replace: '${1}$release${2}'}]", else its tag, "windows.images: [{match:
 * '^(repo):.*$', replace: '$1:$release'}]". */
const char *tx_image_rule_hint(struct wg_arena *arena, const char *image);

#endif
