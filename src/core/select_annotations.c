/*
 * Selection: wingen's annotations on a workload (wingen.dev/windows,
 * -build, -builds), read on the object and on its pod templates alike.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/base/names.h"
#include "wingen/base/suggest.h"
#include "wingen/core/retarget.h"
#include "wingen/k8s/catalog.h"

static bool same_text(const struct wg_node *a, const struct wg_node *b)
{
	return wg_is_scalar(a) && wg_is_scalar(b) && a->len == b->len
	       && memcmp(a->u.str, b->u.str, a->len) == 0;
}

void wg_sel_read_ann(struct wg_ctx *ctx, struct wg_arena *arena,
		     struct wg_resource *res, struct wg_selection *sel,
		     const char *key, struct wg_sel_ann *out)
{
	struct wg_buf path = WG_BUF_INIT;

	out->node = wg_map_get(wg_path_get(res->root, "metadata.annotations"),
			       key);
	out->field = wg_arena_printf(arena, "metadata.annotations.[%s]", key);
	out->on_template = false;
	for (size_t i = 0; i < sel->npods; i++) {
		const struct wg_podspec *ps = &sel->pods[i];
		const struct wg_node *t;
		const char *field;

		if (ps->tmpl == res->root)
			continue;	/* a Pod is its own template */
		t = wg_map_get(wg_podspec_annotations(ps), key);
		if (!t)
			continue;
		wg_podspec_tmpl_path(&path, ps, "metadata", "annotations",
				     (const char *)NULL);
		field = wg_arena_printf(arena, "%s.[%s]", path.buf, key);
		wg_buf_reset(&path);
		if (!out->node) {
			out->node = t;
			out->field = field;
			out->on_template = true;
		} else if (!same_text(out->node, t)) {
			wg_error(ctx, res, t, field, "'%.*s' contradicts "
				 "'%.*s' of %s (line %u column %u): give %s "
				 "once, or the same value in both places",
				 wg_is_scalar(t) ? (int)t->len : 0,
				 wg_is_scalar(t) ? t->u.str : "",
				 wg_is_scalar(out->node) ? (int)out->node->len
				 : 0, wg_is_scalar(out->node)
				 ? out->node->u.str : "", out->field,
				 wg_node_line(out->node) + 1,
				 wg_node_col(out->node) + 1, key);
			sel->failed = true;
		}
	}
	wg_buf_release(&path);
}

/* "annotation wingen.dev/windows", with the template's path when it was
 * read there. */
const char *wg_sel_ann_why(struct wg_arena *arena, const struct wg_sel_ann *a,
			   const char *key)
{
	if (!a->on_template)
		return wg_arena_printf(arena, "annotation %s", key);
	return wg_arena_printf(arena, "annotation %s (%.*s)", key,
			       (int)(strlen(a->field) - strlen(key) - 3),
			       a->field);
}

const char *wg_sel_build_label(struct wg_arena *arena,
			       const struct wg_build *b)
{
	if (strcmp(b->arch, "amd64") == 0)
		return b->release->name;
	return wg_arena_printf(arena, "%s/%s", b->release->name, b->arch);
}

/* The builds of p as the annotations name them: a release, or the
 * RuntimeClass of a build whose release an earlier build has. */
static void list_builds(struct wg_buf *out, const struct wg_profile *p)
{
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];

		if (i)
			wg_buf_addstr(out, ", ");
		wg_buf_addstr(out, wg_profile_find_build(p, b->release->name)
			      == b ? b->release->name : b->runtime_class);
	}
}

/*
 * "; did you mean 'ltsc2022'?" when word, which names no build of p, is
 * a likely typo of a build's release or RuntimeClass name; "" when it is
 * a release of the catalogue (a real build the profile does not target:
 * no other name is what was meant) or close to none.
 */
static const char *build_hint(struct wg_arena *arena,
			      const struct wg_profile *p, const char *word)
{
	const char **names;
	const char *hint;
	size_t n = 0;

	if (!word || wg_release_find(word))
		return "";
	names = wg_arena_alloc(arena, (2 * p->nbuilds + 1) * sizeof(*names));
	for (size_t i = 0; i < p->nbuilds; i++) {
		names[n++] = p->builds[i].release->name;
		names[n++] = p->builds[i].runtime_class;
	}
	hint = wg_suggest(word, names, n);
	return hint ? wg_arena_printf(arena, "; did you mean '%s'?", hint)
		    : "";
}

/* Reads the wingen.dev/windows-build annotation into sel->build. */
void wg_sel_annotated_build(struct wg_ctx *ctx, struct wg_arena *arena,
			    struct wg_resource *res, struct wg_selection *sel,
			    const struct wg_sel_ann *a)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *ann = a->node;
	const char *field = a->field;
	const struct wg_build *b = NULL;

	if (!sel->windows) {
		if (!sel->opted_out && !sel->failed)
			wg_warning(ctx, res, ann, field,
				   "annotation '%s' has no effect: not a "
				   "Windows workload (add %s: \"true\" to "
				   "select it)", WG_ANNOTATION_BUILD,
				   WG_ANNOTATION_WINDOWS);
		return;
	}
	if (wg_is_scalar(ann)) {
		char *name = wg_scalar_dup(arena, ann);

		b = wg_profile_find_build(p, name);
	}
	if (!b) {
		struct wg_buf builds = WG_BUF_INIT;
		/* the way out names the release, however it is spelled */
		const char *hint = !wg_is_scalar(ann) ? ""
			: wg_retarget_hint_word(arena, p, ann->u.str,
						ann->len);

		if (wg_is_scalar(ann) && !*hint)
			hint = wg_retarget_hint_rc(arena, p, NULL, ann->u.str,
						   ann->len);
		list_builds(&builds, p);
		wg_error(ctx, res, ann, field,
			 "'%.*s' is not a build of the profile (builds: %s)%s%s",
			 wg_is_scalar(ann) ? (int)ann->len : 0,
			 wg_is_scalar(ann) ? ann->u.str : "", builds.buf,
			 build_hint(arena, p, wg_is_scalar(ann)
				    ? wg_scalar_dup(arena, ann) : NULL),
			 hint);
		wg_buf_release(&builds);
		sel->failed = true;
		sel->windows = false;
		return;
	}
	sel->build = b;
	sel->build_why = wg_sel_ann_why(arena, a, WG_ANNOTATION_BUILD);
}

/*
 * Reads annotation wingen.dev/windows-builds into sel->targets (one or
 * more builds).  A problem is an error at the annotation, and the
 * workload is then left alone.
 */
void wg_sel_annotated_targets(struct wg_ctx *ctx, struct wg_arena *arena,
			      struct wg_resource *res, struct wg_selection *sel,
			      const struct wg_sel_ann *a)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *ann = a->node;
	const char *field = a->field;
	char *text = wg_is_scalar(ann) ? wg_scalar_dup(arena, ann) : NULL;
	const struct wg_build **t;
	struct wg_buf builds = WG_BUF_INIT;
	size_t n = 0, cap = 1, len;
	bool bad = false;

	if (!text) {
		wg_error(ctx, res, ann, field, "is not a string: write a "
			 "comma-separated list of builds");
		goto fail;
	}
	for (const char *c = text; *c; c++)
		cap += *c == ',';
	t = wg_arena_zalloc(arena, cap * sizeof(*t));
	list_builds(&builds, p);
	for (char *rest = text, *item; (item = wg_list_next(&rest, &len));) {
		const struct wg_build *b;

		if (!len) {
			wg_error(ctx, res, ann, field, "'%.*s' has an empty "
				 "entry", (int)ann->len, ann->u.str);
			bad = true;
			continue;
		}
		b = wg_profile_find_build(p, item);
		if (!b) {
			wg_error(ctx, res, ann, field, "'%s' is not a build of "
				 "the profile (builds: %s)%s%s", item, builds.buf,
				 build_hint(arena, p, item),
				 wg_retarget_hint_word(arena, p, item,
						       strlen(item)));
			bad = true;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			if (t[i] == b) {
				wg_error(ctx, res, ann, field, "'%s' names "
					 "build %s twice", item,
					 wg_sel_build_label(arena, b));
				bad = true;
				b = NULL;
				break;
			}
		}
		if (b)
			t[n++] = b;
	}
	wg_buf_release(&builds);
	if (bad || !n)
		goto fail;
	sel->targets = t;
	sel->ntargets = n;
	sel->targets_why = wg_sel_ann_why(arena, a, WG_ANNOTATION_BUILDS);
	return;
fail:
	sel->failed = true;
	sel->windows = false;
}

/* A singular wingen.dev/windows-build names the one build, and must be one
 * of wingen.dev/windows-builds when both are there. */
void wg_sel_single_build(struct wg_ctx *ctx, struct wg_resource *res,
			 struct wg_selection *sel,
			 const struct wg_sel_ann *single,
			 const struct wg_sel_ann *plural)
{
	const struct wg_node *bann = single->node;
	bool listed = false;

	for (size_t i = 0; i < sel->ntargets; i++)
		listed = listed || sel->targets[i] == sel->build;
	if (sel->windows && plural->node && sel->ntargets && !listed) {
		wg_error(ctx, res, bann, single->field, "'%.*s' is not one of "
			 "the builds annotation %s lists ('%.*s')",
			 (int)bann->len, bann->u.str, WG_ANNOTATION_BUILDS,
			 (int)plural->node->len, plural->node->u.str);
		sel->failed = true;
		sel->windows = false;
	}
	sel->targets = NULL;
	sel->ntargets = 0;
	sel->targets_why = NULL;
}
