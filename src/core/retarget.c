/*
 * Retarget's names and hints (core/retarget.h).
 */
#include "wingen/core/retarget.h"

#include <string.h>
#include <strings.h>

#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"

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
