/*
 * Misspelt and misplaced wingen annotations (annotations.h).
 */
#include "wingen/core/annotations.h"

#include <string.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"
#include "wingen/base/suggest.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/node.h"

static const char *const known[] = {
	WG_ANNOTATION_WINDOWS, WG_ANNOTATION_BUILD, WG_ANNOTATION_BUILDS,
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

static bool is_known(const char *key, size_t len)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (strlen(known[i]) == len && memcmp(known[i], key, len) == 0)
			return true;
	return false;
}

/* Checks one annotations mapping; where names it for messages
 * ("metadata.annotations" or a pod template's path).  A known key is read
 * in either place (select.h), so only unknown ones are reported. */
static void check_map(struct wg_ctx *ctx, struct wg_arena *a,
		      const struct wg_resource *res, const struct wg_node *m,
		      const char *where)
{
	static const size_t dlen = sizeof(WG_DOMAIN) - 1;

	for (size_t i = 0; wg_is_map(m) && i < m->len; i++) {
		const struct wg_node *k = wg_map_key(m, i);
		const struct wg_node *v = wg_map_value(m, i);
		const char *key, *hint, *field;

		if (!wg_is_scalar(k) || k->len <= dlen
		    || memcmp(k->u.str, WG_DOMAIN, dlen) != 0)
			continue;
		key = wg_arena_strndup(a, k->u.str, k->len);
		field = wg_arena_printf(a, "%s.[%s]", where, key);
		if (!is_known(k->u.str, k->len)) {
			hint = wg_suggest(key, known, NKNOWN);
			wg_warning(ctx, res, v, field, "'%s' is not an annotation "
				   "wingen knows, so nothing reads it%s%s%s "
				   "(known: %s, %s, %s)", key,
				   hint ? "; did you mean '" : "",
				   hint ? hint : "", hint ? "'?" : "",
				   known[0], known[1], known[2]);
		}
	}
}

void wg_report_annotation_typos(struct wg_ctx *ctx,
				const struct wg_kind_set *extra,
				const struct wg_resources *list)
{
	struct wg_arena a;

	wg_arena_init(&a);
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		struct wg_podspec *ps;
		size_t n;

		if (res->flags & (WG_RES_GENERATED | WG_RES_DELETED))
			continue;
		check_map(ctx, &a, res,
			  wg_path_get(res->root, "metadata.annotations"),
			  "metadata.annotations");
		n = wg_podspec_find_all(&a, extra, res, &ps);
		for (size_t k = 0; k < n; k++) {
			struct wg_buf path = WG_BUF_INIT;
			const struct wg_node *m = wg_podspec_annotations(&ps[k]);

			if (!m || ps[k].tmpl == res->root)
				continue;	/* a Pod is its own template */
			wg_podspec_tmpl_path(&path, &ps[k], "metadata",
					     "annotations", (const char *)NULL);
			check_map(ctx, &a, res, m, path.buf);
			wg_buf_release(&path);
		}
		wg_arena_clear(&a);
	}
	wg_arena_release(&a);
}
