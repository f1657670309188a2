/*
 * Selection: objects of kinds wingen does not know that hold a pod
 * template a windows.select entry would take (they would otherwise pass
 * through untouched).
 */
#include "select_internal.h"

#include <string.h>

/* ---- kinds wingen does not know ------------------------------------------ */

/* Pod-template-shaped maps below an object, at most this deep. */
#define SHAPE_DEPTH 12

struct shapes {
	struct wg_arena *arena;
	const char *paths[WG_KIND_MAX_TEMPLATES];	/* "[]" for items */
	size_t n;
	struct wg_node *first;		/* the first template found */
	const char *first_path;		/* its path, with indexes */
};

/* A map whose spec holds a containers list: a PodTemplateSpec. */
static bool template_shaped(const struct wg_node *m)
{
	return wg_is_map(m)
	       && wg_is_seq(wg_map_get(wg_map_get(m, "spec"), "containers"));
}

static void add_shape(struct shapes *sh, struct wg_node *n, const char *gen,
		      const char *exact)
{
	for (size_t i = 0; i < sh->n; i++)
		if (strcmp(sh->paths[i], gen) == 0)
			return;
	if (sh->n == WG_KIND_MAX_TEMPLATES)
		return;
	if (!sh->n) {
		sh->first = n;
		sh->first_path = wg_arena_strdup(sh->arena, exact);
	}
	sh->paths[sh->n++] = wg_arena_strdup(sh->arena, gen);
}

/* Walks n: gen is its path with "[]" for items, exact with indexes. */
static void find_shapes(struct shapes *sh, struct wg_node *n,
			struct wg_buf *gen, struct wg_buf *exact,
			unsigned depth)
{
	size_t glen = gen->len, elen = exact->len;

	if (depth > SHAPE_DEPTH)
		return;
	if (depth && template_shaped(n)) {
		add_shape(sh, n, gen->buf, exact->buf);
		return;
	}
	if (wg_is_map(n)) {
		for (size_t i = 0; i < n->len; i++) {
			const struct wg_node *k = wg_map_key(n, i);

			if (depth == 0 && (wg_scalar_is(k, "metadata")
					   || wg_scalar_is(k, "status")))
				continue;
			wg_path_append_key(gen, k->u.str, k->len);
			wg_path_append_key(exact, k->u.str, k->len);
			find_shapes(sh, wg_map_value(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	} else if (wg_is_seq(n)) {
		for (size_t i = 0; i < n->len; i++) {
			wg_buf_addstr(gen, "[]");
			wg_buf_addf(exact, "[%zu]", i);
			find_shapes(sh, wg_seq_item(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	}
}

static bool is_known_kind(const struct wg_resource *res)
{
	for (int k = 0; k < WG_KIND_KNOWN_COUNT; k++)
		if (wg_is_kind(res, (enum wg_known_kind)k))
			return true;
	return false;
}

/*
 * An object of a kind wingen does not know, holding a pod template whose
 * image a windows.select entry matches, or whose image names Windows
 * (images.h), would pass through untouched: its pods would land anywhere.
 * A warning (an error with --strict) names the object, the template and
 * the workloads: entry that would handle it.
 */
void wg_sel_unknown_kind(struct wg_ctx *ctx, struct wg_resources *list,
			 struct wg_resource *res)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *api = wg_map_get(res->root, "apiVersion");
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	struct shapes sh = { .arena = &list->arena };
	struct wg_buf gen = WG_BUF_INIT, exact = WG_BUF_INIT;
	struct wg_buf paths = WG_BUF_INIT;
	struct wg_kind guess = { .name_max = 253, .origin = WG_KIND_DECLARED };
	struct wg_kind_set set = { &guess, 1 };
	struct wg_selection tmp = { 0 };
	struct wg_sel_match m = { ctx, res, 0 };
	struct wg_image_ref ref;
	const struct wg_node *img;
	const char *g, *what = NULL;
	size_t glen;

	if (!wg_is_map(res->root) || !wg_is_scalar(kind)
	    || !wg_api_group(api, &g, &glen) || !glen || is_known_kind(res))
		return;
	wg_buf_addstr(&gen, "");
	wg_buf_addstr(&exact, "");
	find_shapes(&sh, res->root, &gen, &exact, 0);
	wg_buf_release(&gen);
	if (!sh.n) {
		wg_buf_release(&exact);
		return;
	}
	guess.kind = wg_scalar_dup(&list->arena, kind);
	guess.groups = wg_arena_strndup(&list->arena, g, glen);
	for (size_t i = 0; i < sh.n; i++)
		guess.templates[i] = sh.paths[i];
	tmp.npods = wg_podspec_find_all(&list->arena, &set, res, &tmp.pods);
	for (size_t i = 0; !what && i < p->nselect; i++) {
		int rc;

		if (!p->select[i].image)
			continue;
		m.entry = i;
		rc = wg_sel_entry_matches(&m, &p->select[i], &tmp);
		if (rc < 0)
			goto out;
		if (rc)
			what = wg_arena_printf(&list->arena, "an image "
					       "windows.select[%zu] matches",
					       i);
	}
	/* the one rule: an image that names Windows, whatever the profile
	 * selects by */
	if (!what && (img = wg_sel_windows_image(&tmp, &ref, &exact)))
		what = wg_arena_printf(&list->arena, "image '%.*s', which "
			"names Windows (%s)", (int)img->len, img->u.str,
			wg_image_windows_why(&list->arena, img->u.str, &ref));
	if (!what)
		goto out;
	for (size_t k = 0; k < sh.n; k++)
		wg_buf_addf(&paths, "%s\"%s\"", k ? ", " : "", sh.paths[k]);
	wg_warning(ctx, res, sh.first, sh.first_path, "holds a pod template "
		   "with %s, but %s of group %s is not a kind wingen knows, so "
		   "nothing schedules its pods; declare it in the profile: "
		   "workloads: [{group: %s, kind: %s, templates: [%s]}]", what,
		   guess.kind, guess.groups, guess.groups, guess.kind,
		   paths.buf);
out:
	wg_buf_release(&exact);
	wg_buf_release(&paths);
}
