/*
 * Image rewriting for fan-out and retarget: an image as a build needs it,
 * by the profile's windows.images rules, else the image families
 * (wingen/k8s/images.h).
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "images.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/images.h"

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

const char *tx_image_for_build(struct wg_ctx *ctx, const struct wg_profile *p,
			       struct wg_arena *arena,
			       const struct wg_resource *res,
			       const struct wg_node *image, const char *field,
			       const struct wg_build *b, const char **note)
{
	const char *s = wg_scalar_dup(arena, image), *out, *err = NULL;
	int rc;

	*note = NULL;
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
		*note = wg_arena_printf(arena, "windows.images[%zu]", i);
		return out;
	}
	rc = wg_image_rewrite(arena, s, image->len, b->release, b->arch,
			      b->handler, &out, note);
	return rc > 0 ? out : s;
}

/* s (len bytes) with PCRE2's specials escaped, into b. */
static void add_escaped(struct wg_buf *b, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (strchr(".+*?()[]{}|^$\\", s[i]))
			wg_buf_addch(b, '\\');
		wg_buf_addch(b, s[i]);
	}
}

const char *tx_image_rule_hint(struct wg_arena *arena, const char *image)
{
	struct wg_image_ref ref;
	struct wg_buf b = WG_BUF_INIT;
	const char *out;

	wg_image_parse(image, strlen(image), &ref);
	wg_buf_addstr(&b, "windows.images: [{match: '^(");
	add_escaped(&b, image, ref.name_len);
	if (ref.release && ref.tag_len && !ref.patch) {
		/* the release words replaced, the rest of the tag kept (a
		 * patch tag is the patch's: the whole tag goes) */
		wg_buf_addstr(&b, ":.*)");
		add_escaped(&b, image + ref.rel_at, ref.rel_len);
		wg_buf_addstr(&b, "(.*)$', replace: '${1}$release${2}'}]");
	} else {
		wg_buf_addstr(&b, "):.*$', replace: '$1:$release'}]");
	}
	out = wg_arena_strdup(arena, b.buf);
	wg_buf_release(&b);
	return out;
}
