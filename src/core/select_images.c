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
					   : b->release, b->arch,
					   wg_sel_handler(sel, b));
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
				     b->release, b->arch, b->handler, &out,
				     &why) > 0;
}

/* "; pick one whose hosts run it with annotation wingen.dev/windows-build:
 * ltsc2025, windows-ltsc2022-hyperv", or "; no build of the profile runs
 * it"; *any says whether one does.  Named as the annotation takes them:
 * the RuntimeClass when a release has several. */
static const char *runners(struct wg_arena *arena, const struct wg_profile *p,
			   const struct wg_selection *sel, bool *any)
{
	struct wg_buf b = WG_BUF_INIT;
	struct wg_image_ref ref;
	const char *out;

	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *bd = &p->builds[i];

		if (wg_sel_image_misfit(sel, bd, &ref, NULL))
			continue;
		wg_buf_addstr(&b, b.len ? ", " : "; pick one whose hosts run "
			      "it with annotation " WG_ANNOTATION_BUILD ": ");
		wg_buf_addstr(&b, wg_profile_find_build(p, bd->release->name)
			      == bd ? bd->release->name : bd->runtime_class);
	}
	*any = b.len > 0;
	out = wg_arena_strdup(arena, *any ? b.buf : "; no build of the "
			      "profile runs it");
	wg_buf_release(&b);
	return out;
}

/* A Windows base image the chosen build's hosts cannot run fails at
 * container creation (windows.md 2.1): an error, with the way out: the
 * builds that run it, else a retarget (none when the stream already holds
 * the workload for the new build: core/retarget.h). */
void wg_sel_check_images(struct wg_ctx *ctx, struct wg_resources *list,
			 struct wg_resource *res,
			 const struct wg_selection *sel)
{
	struct wg_arena *arena = &list->arena;
	struct wg_image_ref ref;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *image = wg_sel_image_misfit(sel, sel->build, &ref,
							  &path);
	const char *run;
	bool any;

	/* A release the profile retires: retarget, which runs first, has
	 * already said this image has no known rewrite (with the rule that
	 * would do it); a second error here would only send the user to the
	 * wrong fix. */
	if (!image || (ref.release && (res->flags & WG_RES_ERROR)
		       && wg_profile_retarget_of(ctx->profile, ref.release))) {
		wg_buf_release(&path);
		return;
	}
	run = runners(arena, ctx->profile, sel, &any);
	if (wg_image_fit(&ref, sel->host_process ? NULL
			 : sel->build->release, sel->build->arch,
			 wg_sel_handler(sel, sel->build)) == WG_FIT_ARCH)
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, but build %s is %s (%s)%s",
			 (int)image->len, image->u.str, ref.arch,
			 sel->build->release->name, sel->build->arch,
			 sel->reason, run);
	else
		wg_error(ctx, res, image, path.buf,
			 "'%.*s' is built for %s, which %s hosts cannot run "
			 "with %s of handler %s%s (%s)%s%s", (int)image->len,
			 image->u.str, ref.release->name,
			 sel->build->release->name,
			 wg_handler_rule(wg_sel_handler(sel, sel->build)),
			 wg_sel_handler(sel, sel->build)
			 ? wg_sel_handler(sel, sel->build) : "(default)",
			 sel->own_rc ? wg_arena_printf(arena, ", its "
				"RuntimeClass %s's", sel->own_rc_name) : "",
			 sel->reason, run,
			 !any && rewritable(arena, image,
					    ctx->profile->default_build)
			 ? wg_retarget_hint_in(arena, ctx->profile, list, res,
					       ref.release)
			 : "");
	wg_buf_release(&path);
}

const struct wg_node *wg_sel_windows_image(const struct wg_selection *sel,
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

			if (!wg_is_scalar(image))
				continue;
			wg_image_parse(image->u.str, image->len, ref);
			if (!ref->windows)
				continue;
			wg_container_path(path, &sel->pods[i], &c, "image",
					  (const char *)NULL);
			return image;
		}
	}
	return NULL;
}

bool wg_sel_image_rule(const struct wg_profile *p)
{
	/* the embedded default's entries (none today) carry no position */
	for (size_t i = 0; i < p->nselect; i++)
		if (p->select[i].pos.line)
			return false;
	return true;
}

/* '^name([:@]|$)', the name with PCRE2's specials escaped, in arena. */
static const char *name_pattern(struct wg_arena *arena, const char *image,
				size_t len)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *out;

	wg_buf_addch(&b, '^');
	for (size_t i = 0; i < len; i++) {
		if (strchr(".+*?()[]{}|^$\\", image[i]))
			wg_buf_addch(&b, '\\');
		wg_buf_addch(&b, image[i]);
	}
	wg_buf_addstr(&b, "([:@]|$)");
	out = wg_arena_strdup(arena, b.buf);
	wg_buf_release(&b);
	return out;
}

void wg_sel_unselected_image(struct wg_ctx *ctx, struct wg_arena *arena,
			     struct wg_resource *res,
			     const struct wg_node *image,
			     const struct wg_image_ref *ref, const char *field)
{
	wg_error(ctx, res, image, field, "'%.*s' names Windows (%s), but no "
		 "windows.select entry takes this workload, so it would be "
		 "pinned to Linux, where it cannot start; add an entry that "
		 "takes it, such as windows.select: [{image: '%s'}], or keep "
		 "it off Windows on purpose with annotation %s: \"false\"",
		 (int)image->len, image->u.str,
		 wg_image_windows_why(arena, image->u.str, ref),
		 name_pattern(arena, image->u.str, ref->name_len),
		 WG_ANNOTATION_WINDOWS);
}
