/*
 * Image rewriting for fan-out: an image as a build needs it, by the
 * profile's windows.images rules and the built-in rule for Microsoft's
 * base images (images.h).
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "images.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/catalog.h"

/* replace with $release, $build and $arch (or ${...}) of b filled in;
 * "$$" and every other "$" are left to PCRE2. */
static const char *expand(struct wg_arena *a, const char *replace,
			  const struct wg_build *b)
{
	const struct {
		const char *name;
		const char *value;
	} vars[] = {
		{ "release", b->release->name },
		{ "build", b->release->build },
		{ "arch", b->arch },
	};
	struct wg_buf out = WG_BUF_INIT;
	const char *res;

	for (const char *c = replace; *c;) {
		bool done = false;

		if (c[0] == '$' && c[1] == '$') {
			wg_buf_add(&out, c, 2);
			c += 2;
			continue;
		}
		for (size_t i = 0; *c == '$' && !done && i < 3; i++) {
			size_t n = strlen(vars[i].name);
			bool brace = c[1] == '{';
			const char *name = c + 1 + brace;

			if (strncmp(name, vars[i].name, n) != 0)
				continue;
			if (brace ? name[n] != '}'
				  : isalnum((unsigned char)name[n])
				    || name[n] == '_')
				continue;
			wg_buf_addstr(&out, vars[i].value);
			c = name + n + brace;
			done = true;
		}
		if (!done)
			wg_buf_addch(&out, *c++);
	}
	res = wg_arena_strdup(a, out.buf);
	wg_buf_release(&out);
	return res;
}

static const struct {
	const char *repo;
	size_t tags;	/* offset of the tag column in struct wg_release */
} base_images[] = {
	{ "mcr.microsoft.com/windows/servercore",
	  offsetof(struct wg_release, servercore) },
	{ "mcr.microsoft.com/windows/nanoserver",
	  offsetof(struct wg_release, nanoserver) },
	{ "mcr.microsoft.com/windows/server",
	  offsetof(struct wg_release, server) },
};

static const char *tag_of(const struct wg_release *r, size_t column)
{
	const char *s;

	/* memcpy: aligned, but not visibly so through a char pointer */
	memcpy(&s, (const char *)r + column, sizeof(s));
	return s;
}

/* The built-in rule: image for host release host, or image itself. */
static const char *builtin(struct wg_arena *a, const char *image,
			   const struct wg_release *host)
{
	const char *colon = strrchr(image, ':'), *slash = strrchr(image, '/');
	const char *tag, *want = NULL, *arch;
	const struct wg_release *r;
	size_t repo, column = 0, i, n = sizeof(base_images)
					/ sizeof(*base_images);

	if (strchr(image, '@') || !colon || (slash && colon < slash))
		return image;	/* a digest pins the image; no tag */
	repo = (size_t)(colon - image);
	for (i = 0; i < n; i++) {
		if (strlen(base_images[i].repo) == repo
		    && strncmp(image, base_images[i].repo, repo) == 0) {
			column = base_images[i].tags;
			break;
		}
	}
	tag = colon + 1;
	/* a full version (10.0.17763.5458) pins a patch: not rewritten */
	if (i == n || strncmp(tag, "10.0.", 5) == 0)
		return image;
	r = wg_release_for_tag(tag);
	if (!r || wg_release_can_run(host, r))
		return image;
	want = tag_of(host, column);
	if (!want) {	/* no images of its own: the newest it runs */
		for (const struct wg_release *o = wg_releases; o->name; o++)
			if (tag_of(o, column) && wg_release_can_run(host, o))
				want = tag_of(o, column);
	}
	if (!want)
		return image;
	arch = strrchr(tag, '-');
	if (!arch || (strcmp(arch, "-amd64") && strcmp(arch, "-arm64")))
		arch = "";
	return wg_arena_printf(a, "%.*s:%s%s", (int)repo, image, want, arch);
}

const char *tx_image_for_build(struct wg_ctx *ctx, const struct wg_profile *p,
			       struct wg_arena *arena,
			       const struct wg_resource *res,
			       const struct wg_node *image, const char *field,
			       const struct wg_build *b)
{
	const char *s = wg_scalar_dup(arena, image), *out, *err = NULL;

	for (size_t i = 0; i < p->nimages; i++) {
		const struct wg_image_rule *rule = &p->images[i];
		int m = wg_regex_match(&rule->match, s, image->len);

		if (m < 0) {
			wg_error(ctx, res, image, field, "windows.images"
				 "[%zu].match: pattern '%s' gave up on '%s' "
				 "(PCRE2 match or depth limit)", i,
				 rule->match.source, s);
			return NULL;
		}
		if (m == 0)
			continue;
		out = wg_regex_replace(&rule->match, s, image->len,
				       expand(arena, rule->replace, b), arena,
				       &err);
		if (!out)
			wg_error(ctx, res, image, field, "windows.images"
				 "[%zu]: cannot rewrite '%s' for build %s: %s",
				 i, s, b->release->name, err ? err : "");
		return out;
	}
	return builtin(arena, s, b->release);
}
