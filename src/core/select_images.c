/*
 * Selection: the images a build's hosts cannot run (release or arch, read
 * through the image families), and the error when the chosen build is one.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/core/retarget.h"
#include "wingen/k8s/images.h"

/* The first container image b's hosts cannot run (its release or arch:
 * images.h), of any pod template, or NULL; *ref says what it names and
 * *path (when not NULL) its field.  HostProcess containers need not match
 * the host's build, but still its arch. */
const struct wg_node *wg_sel_image_misfit(const struct wg_selection *sel,
					  const struct wg_build *b,
					  struct wg_image_ref *ref,
					  struct wg_buf *path)
{
	struct wg_container_iter it;
	struct wg_container c;

	for (size_t i = 0; i < sel->npods; i++) {
		wg_container_iter_init(&it, sel->pods[i].spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");
			enum wg_image_fit fit;

			if (!wg_is_scalar(image))
				continue;
			wg_image_parse(image->u.str, image->len, ref);
			fit = wg_image_fit(ref, sel->host_process ? NULL
					   : b->release, b->arch);
			if (fit != WG_FIT_RELEASE && fit != WG_FIT_ARCH)
				continue;
			if (path)
				wg_container_path(path, &sel->pods[i], &c,
						  "image", (const char *)NULL);
			return image;
		}
	}
	return NULL;
}

/* Whether the image families rewrite image for b (a patch tag, a digest
 * or an unknown repository they do not): then retarget is a way out. */
static bool rewritable(struct wg_arena *arena, const struct wg_node *image,
		       const struct wg_build *b)
{
	const char *out, *why;

	return b && wg_image_rewrite(arena, image->u.str, image->len,
				     b->release, b->arch, &out, &why) > 0;
}

/* A Windows base image the chosen build's hosts cannot run fails at
 * container creation (windows.md 2.1): an error, with the way out. */
void wg_sel_check_images(struct wg_ctx *ctx, struct wg_arena *arena,
			 struct wg_resource *res,
			 const struct wg_selection *sel)
{
	struct wg_image_ref ref;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *image = wg_sel_image_misfit(sel, sel->build, &ref,
							  &path);

	/* A release the profile retires: retarget, which runs first, has
	 * already said this image has no known rewrite (with the rule that
	 * would do it); a second error here would only send the user to the
	 * wrong fix. */
	if (!image || (ref.release && (res->flags & WG_RES_ERROR)
		       && wg_profile_retarget_of(ctx->profile, ref.release))) {
		wg_buf_release(&path);
		return;
	}
	if (wg_image_fit(&ref, sel->host_process ? NULL
			 : sel->build->release, sel->build->arch)
	    == WG_FIT_ARCH)
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, but build %s is %s (%s); "
			 "pick a build with annotation %s",
			 (int)image->len, image->u.str, ref.arch,
			 sel->build->release->name, sel->build->arch,
			 sel->reason, WG_ANNOTATION_BUILD);
	else
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, which %s hosts cannot run "
			 "with process isolation (%s); pick a build with "
			 "annotation %s%s", (int)image->len, image->u.str,
			 ref.release->name, sel->build->release->name,
			 sel->reason, WG_ANNOTATION_BUILD,
			 rewritable(arena, image, ctx->profile->default_build)
			 ? wg_retarget_hint(arena, ctx->profile, ref.release)
			 : "");
	wg_buf_release(&path);
}
