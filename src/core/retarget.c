/*
 * Retarget's names and hints (core/retarget.h).
 */
#include "wingen/core/retarget.h"

#include <string.h>
#include <strings.h>

#include "wingen/k8s/images.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/podspec.h"

const struct wg_release *wg_retarget_rc_release(const char *name, size_t len,
						const char **arch)
{
	static const char prefix[] = "windows-";
	static const char *const arches[] = { "-amd64", "-arm64" };
	size_t n = sizeof(prefix) - 1;
	char word[32];

	if (arch)
		*arch = NULL;
	if (len <= n || strncasecmp(name, prefix, n) != 0)
		return NULL;
	name += n;
	len -= n;
	for (size_t i = 0; i < 2; i++) {
		size_t a = strlen(arches[i]);

		if (len > a && strncasecmp(name + len - a, arches[i], a) == 0) {
			len -= a;
			if (arch)
				*arch = arches[i] + 1;
			break;
		}
	}
	if (len >= sizeof(word))
		return NULL;
	memcpy(word, name, len);
	word[len] = '\0';
	/* a build number is no part of wingen's names */
	return strchr(word, '.') ? NULL : wg_release_find(word);
}

const struct wg_release *wg_retarget_rc_schedules(struct wg_resources *list,
						  const char *name,
						  size_t len)
{
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct wg_node *n = wg_resource_name_node(res), *b;

		if ((res->flags & WG_RES_DELETED)
		    || !wg_is_kind(res, WG_KIND_RUNTIME_CLASS)
		    || !wg_is_scalar(n) || n->len != len
		    || memcmp(n->u.str, name, len) != 0)
			continue;
		b = wg_map_get(wg_path_get(res->root,
					   "scheduling.nodeSelector"),
			       WG_LABEL_WINDOWS_BUILD);
		if (!wg_is_scalar(b) || !b->len)
			return NULL;
		{
			char v[32];

			if (b->len >= sizeof(v))
				return NULL;
			memcpy(v, b->u.str, b->len);
			v[b->len] = '\0';
			return wg_release_find(v);
		}
	}
	return NULL;
}

const char *wg_retarget_hint(struct wg_arena *arena,
			     const struct wg_profile *p,
			     const struct wg_release *old)
{
	const char *to;

	if (!old || !p || !p->default_build
	    || wg_profile_retarget_of(p, old))
		return "";
	for (size_t i = 0; i < p->nbuilds; i++)
		if (p->builds[i].release == old)
			return "";
	/* retiring a release moves its workloads up, never back */
	if (old->number >= p->default_build->release->number)
		return "";
	to = p->default_build->release->name;
	return wg_arena_printf(arena, "; to move it to %s, retarget it: "
			       "--retarget %s=%s (or windows.retarget: {%s: "
			       "%s})", to, old->name, to, old->name, to);
}

const char *wg_retarget_hint_word(struct wg_arena *arena,
				  const struct wg_profile *p, const char *s,
				  size_t len)
{
	char w[40];

	if (!s || !len || len >= sizeof(w))
		return "";
	memcpy(w, s, len);
	w[len] = '\0';
	return wg_retarget_hint(arena, p, wg_release_find(w));
}

const char *wg_retarget_hint_word_in(struct wg_arena *arena,
				     const struct wg_profile *p,
				     struct wg_resources *list,
				     const struct wg_resource *res,
				     const char *s, size_t len)
{
	char w[40];

	if (!s || !len || len >= sizeof(w))
		return "";
	memcpy(w, s, len);
	w[len] = '\0';
	return wg_retarget_hint_in(arena, p, list, res, wg_release_find(w));
}

const char *wg_retarget_hint_rc(struct wg_arena *arena,
				const struct wg_profile *p,
				struct wg_resources *list, const char *s,
				size_t len)
{
	const struct wg_release *r = list ? wg_retarget_rc_schedules(list, s,
								     len)
					  : NULL;

	if (!r)
		r = wg_retarget_rc_release(s, len, NULL);
	return wg_retarget_hint(arena, p, r);
}

/* name (len bytes) without its release words, into out. */
static void strip_releases(const char *name, size_t len, struct wg_buf *out)
{
	size_t start = 0;

	wg_buf_reset(out);
	for (size_t i = 0; i <= len; i++) {
		char w[40];
		size_t n = i - start;

		if (i < len && name[i] != '-')
			continue;
		if (n && n < sizeof(w)) {
			memcpy(w, name + start, n);
			w[n] = '\0';
		}
		if (n && (n >= sizeof(w) || !wg_release_find(w))) {
			if (out->len)
				wg_buf_addch(out, '-');
			wg_buf_add(out, name + start, n);
		}
		start = i + 1;
	}
	if (!out->buf)
		wg_buf_addstr(out, "");
}

/* Whether res carries wingen's build annotations: fan-out's copies (and
 * workloads fan-out will copy) are one workload's, not siblings. */
static bool fanned(const struct wg_resource *res)
{
	const struct wg_node *a = wg_path_get(res->root,
					      "metadata.annotations");

	return wg_map_get(a, WG_ANNOTATION_BUILD)
	       || wg_map_get(a, WG_ANNOTATION_BUILDS);
}

/* Whether an image of res names a release the hosts of b run. */
static bool serves(const struct wg_resource *res, const struct wg_build *b,
		   struct wg_arena *arena)
{
	struct wg_podspec *ps;
	size_t n = wg_podspec_find_all(arena, NULL, res, &ps);

	for (size_t i = 0; i < n; i++) {
		struct wg_container_iter it;
		struct wg_container c;

		wg_container_iter_init(&it, ps[i].spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *img = wg_map_get(c.node,
							       "image");
			struct wg_image_ref ref;

			if (!wg_is_scalar(img))
				continue;
			wg_image_parse(img->u.str, img->len, &ref);
			if (ref.release && wg_image_fit(&ref, b->release,
							b->arch, b->handler)
					   == WG_FIT_RUNS)
				return true;
		}
	}
	return false;
}

const struct wg_resource *wg_retarget_sibling(struct wg_resources *list,
					      const struct wg_resource *res,
					      const struct wg_release *old,
					      const struct wg_build *to)
{
	const struct wg_node *name = wg_resource_name_node(res);
	const struct wg_node *ns = wg_resource_namespace_node(res);
	const struct wg_resource *hit = NULL;
	struct wg_buf mine = WG_BUF_INIT, theirs = WG_BUF_INIT;

	if (!list || !old || !to || !wg_is_scalar(name) || fanned(res))
		return NULL;
	strip_releases(name->u.str, name->len, &mine);
	for (size_t i = 0; !hit && i < list->len; i++) {
		const struct wg_resource *o = list->items[i];
		const struct wg_node *on = wg_resource_name_node(o);
		const struct wg_node *ons = wg_resource_namespace_node(o);

		if (o == res || (o->flags & WG_RES_DELETED)
		    || !wg_is_scalar(on) || fanned(o)
		    || !wg_node_equal(wg_map_get(o->root, "kind"),
				      wg_map_get(res->root, "kind"))
		    || !(wg_node_equal(ons, ns) || (!ons && !ns)))
			continue;
		strip_releases(on->u.str, on->len, &theirs);
		if (strcmp(mine.buf, theirs.buf) == 0
		    && serves(o, to, &list->arena))
			hit = o;
	}
	wg_buf_release(&mine);
	wg_buf_release(&theirs);
	return hit;
}

const char *wg_retarget_hint_in(struct wg_arena *arena,
				const struct wg_profile *p,
				struct wg_resources *list,
				const struct wg_resource *res,
				const struct wg_release *old)
{
	const char *hint = wg_retarget_hint(arena, p, old);
	const struct wg_resource *sib;

	if (!*hint || !(sib = wg_retarget_sibling(list, res, old,
						  p->default_build)))
		return hint;
	return wg_arena_printf(arena, "; the stream already holds %s for %s: "
			       "drop this one (a chart: turn its %s variant "
			       "off) rather than retarget it",
			       wg_resource_label(arena, sib),
			       p->default_build->release->name, old->name);
}
