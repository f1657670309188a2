#include "wingen/k8s/podspec.h"

#include <stdarg.h>
#include <string.h>

#include "podview.h"

/*
 * Walks the pod templates of one template path of a kind: path is split
 * at each "[]" step, and every item of that list is walked with the rest.
 * fn gets each template node with the item indexes of its steps.
 */
struct walk {
	const struct wg_kind *kind;
	unsigned tpl;
	size_t items[WG_KIND_MAX_ITEMS];
	struct wg_podspec *out;	/* NULL: count only */
	size_t n;
};

static void found(struct walk *w, struct wg_node *tmpl, unsigned depth)
{
	struct wg_node *spec = wg_map_get(tmpl, "spec");
	struct wg_podspec *ps;

	if (!wg_is_map(tmpl) || !wg_is_map(spec))
		return;
	if (w->out) {
		ps = &w->out[w->n];
		ps->kind = w->kind;
		ps->tpl = w->tpl;
		ps->nitems = depth;
		memcpy(ps->items, w->items, sizeof(ps->items));
		ps->tmpl = tmpl;
		ps->spec = spec;
	}
	w->n++;
}

static void walk(struct walk *w, struct wg_node *at, const char *path,
		 unsigned depth)
{
	const char *step = strstr(path, "[]");
	struct wg_buf head = WG_BUF_INIT;
	struct wg_node *seq;

	if (!step) {
		found(w, *path ? wg_path_get(at, path) : at, depth);
		return;
	}
	if (depth == WG_KIND_MAX_ITEMS)
		return;	/* the profile check refuses deeper paths */
	wg_buf_add(&head, path, (size_t)(step - path));
	seq = head.len ? wg_path_get(at, head.buf) : at;
	wg_buf_release(&head);
	step += 2;
	if (*step == '.')
		step++;
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++) {
		w->items[depth] = i;
		walk(w, wg_seq_item(seq, i), step, depth + 1);
	}
}

static size_t walk_all(const struct wg_kind *k, const struct wg_resource *res,
		       struct wg_podspec *out)
{
	struct walk w = { .kind = k, .out = out };

	for (unsigned t = 0; t < WG_KIND_MAX_TEMPLATES && k->templates[t];
	     t++) {
		w.tpl = t;
		walk(&w, res->root, k->templates[t], 0);
	}
	return w.n;
}

size_t wg_podspec_find_in(struct wg_arena *arena,
			  const struct wg_kind_set *extra,
			  struct wg_resources *list,
			  const struct wg_resource *res,
			  struct wg_podspec **out)
{
	const struct wg_kind *k = wg_kind_of(extra, res);
	size_t n;

	*out = NULL;
	if (!k)
		return 0;
	if (k->shape) {
		n = wg_podview_find(arena, k, list, res, NULL, NULL, NULL);
		if (!n)
			return 0;
		*out = wg_arena_zalloc(arena, n * sizeof(**out));
		return wg_podview_find(arena, k, list, res, *out, NULL, NULL);
	}
	n = walk_all(k, res, NULL);
	if (!n)
		return 0;
	*out = wg_arena_zalloc(arena, n * sizeof(**out));
	return walk_all(k, res, *out);
}

size_t wg_podspec_find_all(struct wg_arena *arena,
			   const struct wg_kind_set *extra,
			   const struct wg_resource *res,
			   struct wg_podspec **out)
{
	return wg_podspec_find_in(arena, extra, NULL, res, out);
}

void wg_podspec_callers(struct wg_arena *arena,
			const struct wg_kind_set *extra,
			const struct wg_resource *res,
			void (*fn)(const struct wg_node *v, const char *path,
				   void *payload),
			void *payload)
{
	const struct wg_kind *k = wg_kind_of(extra, res);

	if (k && k->shape)
		wg_podview_callers(arena, k, res, fn, payload);
}

void wg_podspec_refs(struct wg_arena *arena, const struct wg_kind_set *extra,
		     struct wg_resources *list, const struct wg_resource *res,
		     wg_podspec_ref_fn fn, void *payload)
{
	const struct wg_kind *k = wg_kind_of(extra, res);

	if (k && k->shape)
		wg_podview_refs(arena, k, list, res, fn, payload);
}

bool wg_podspec_find(const struct wg_resource *res, struct wg_podspec *out)
{
	const struct wg_kind *k = wg_kind_of(NULL, res);
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_podspec *all;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!k)
		return false;
	n = wg_podspec_find_all(&scratch, NULL, res, &all);
	if (n)
		*out = all[0];
	wg_arena_release(&scratch);
	return n > 0;
}

static struct wg_node *meta_map(const struct wg_podspec *ps, const char *key)
{
	struct wg_node *m = wg_map_get(wg_map_get(ps->tmpl, "metadata"), key);

	return wg_is_map(m) ? m : NULL;
}

struct wg_node *wg_podspec_labels(const struct wg_podspec *ps)
{
	return meta_map(ps, "labels");
}

struct wg_node *wg_podspec_annotations(const struct wg_podspec *ps)
{
	return meta_map(ps, "annotations");
}

static void add_keys(struct wg_buf *out, va_list ap)
{
	const char *key;

	while ((key = va_arg(ap, const char *)))
		wg_path_append_key(out, key, strlen(key));
}

/* Appends path with each "[]" step replaced by ps's item index. */
static void add_expanded(struct wg_buf *out, const struct wg_podspec *ps,
			 const char *path)
{
	unsigned i = 0;

	for (const char *step; (step = strstr(path, "[]")); path = step + 2) {
		wg_buf_add(out, path, (size_t)(step - path));
		wg_buf_addf(out, "[%zu]", i < ps->nitems ? ps->items[i] : 0);
		i++;
	}
	wg_buf_addstr(out, path);
}

const char *wg_podspec_expand(struct wg_buf *out, const struct wg_podspec *ps,
			      const char *path)
{
	wg_buf_reset(out);
	add_expanded(out, ps, path);
	return out->buf;
}

/* The pod spec's path: the template's, then "spec". */
static void add_spec(struct wg_buf *out, const struct wg_podspec *ps)
{
	add_expanded(out, ps, ps->kind->templates[ps->tpl]);
	wg_path_append_key(out, "spec", 4);
}

/* A view's path of its first key (va: the keys), the rest of the keys
 * after it: a setting where it is read (own: where the pod's own is),
 * anything else at the pod's own holder. */
static void add_view(struct wg_buf *out, const struct wg_podspec *ps,
		     bool own, va_list ap)
{
	struct wg_arena a = WG_ARENA_INIT;
	const char *key = va_arg(ap, const char *);
	int f = key ? wg_pod_field_of(key) : -1;

	if (f >= 0) {
		wg_buf_addstr(out, wg_podview_field_path(&a, ps->view, f, own));
	} else {
		wg_buf_addstr(out, ps->view->own_path);
		if (key)
			wg_path_append_key(out, key, strlen(key));
	}
	wg_arena_release(&a);
	if (key)
		add_keys(out, ap);
}

/* wg_podspec_path() (own false) and wg_podspec_own_path(). */
static void add_path(struct wg_buf *out, const struct wg_podspec *ps,
		     bool own, va_list ap)
{
	wg_buf_reset(out);
	if (ps->view) {
		add_view(out, ps, own, ap);
	} else {
		add_spec(out, ps);
		add_keys(out, ap);
	}
}

const char *wg_podspec_path(struct wg_buf *out, const struct wg_podspec *ps,
			    ...)
{
	va_list ap;

	va_start(ap, ps);
	add_path(out, ps, false, ap);
	va_end(ap);
	return out->buf;
}

const char *wg_podspec_own_path(struct wg_buf *out,
				const struct wg_podspec *ps, ...)
{
	va_list ap;

	va_start(ap, ps);
	add_path(out, ps, true, ap);
	va_end(ap);
	return out->buf;
}

const char *wg_podspec_tmpl_path(struct wg_buf *out,
				 const struct wg_podspec *ps, ...)
{
	va_list ap;

	wg_buf_reset(out);
	if (ps->view)
		wg_buf_addstr(out, ps->view->shape->own_list
			      ? ps->view->own_parent_path
			      : ps->view->item_path);
	else
		add_expanded(out, ps, ps->kind->templates[ps->tpl]);
	va_start(ap, ps);
	add_keys(out, ap);
	va_end(ap);
	return out->buf;
}

static const char *const lists[] = {
	"initContainers", "containers", "ephemeralContainers",
};

void wg_container_iter_init(struct wg_container_iter *it,
			    const struct wg_node *spec)
{
	it->spec = spec;
	it->list = 0;
	it->index = 0;
}

bool wg_container_next(struct wg_container_iter *it, struct wg_container *out)
{
	while (it->list < sizeof(lists) / sizeof(lists[0])) {
		const struct wg_node *seq = wg_map_get(it->spec,
						       lists[it->list]);

		while (wg_is_seq(seq) && it->index < seq->len) {
			size_t i = it->index++;
			struct wg_node *c = wg_seq_item(seq, i);

			if (!wg_is_map(c))
				continue;
			out->node = c;
			out->list = lists[it->list];
			out->index = i;
			return true;
		}
		it->list++;
		it->index = 0;
	}
	return false;
}

/* The view's entry for c, or NULL. */
static const struct view_ctr *view_ctr(const struct wg_podspec *ps,
				       const struct wg_container *c)
{
	unsigned l = strcmp(c->list, "initContainers") == 0 ? 0 : 1;

	if (!ps->view || c->index >= ps->view->nctrs[l])
		return NULL;
	return &ps->view->ctrs[l][c->index];
}

const char *wg_container_path(struct wg_buf *out, const struct wg_podspec *ps,
			      const struct wg_container *c, ...)
{
	const struct view_ctr *vc = view_ctr(ps, c);
	va_list ap;

	wg_buf_reset(out);
	if (vc) {
		wg_buf_addstr(out, vc->path);
	} else {
		add_spec(out, ps);
		wg_path_append_key(out, c->list, strlen(c->list));
		wg_buf_addf(out, "[%zu]", c->index);
	}
	va_start(ap, c);
	add_keys(out, ap);
	va_end(ap);
	return out->buf;
}

const char *wg_container_name(struct wg_arena *arena,
			      const struct wg_container *c)
{
	const struct wg_node *name = wg_map_get(c->node, "name");

	if (wg_is_scalar(name) && name->len)
		return wg_scalar_dup(arena, name);
	return wg_arena_printf(arena, "#%zu", c->index);
}

const struct wg_resource *wg_container_owner(const struct wg_podspec *ps,
					     const struct wg_container *c)
{
	const struct view_ctr *vc = view_ctr(ps, c);

	return vc ? vc->owner : NULL;
}

/* ---- shapes ---------------------------------------------------------------- */

const struct wg_pod_shape *wg_podspec_shape(const struct wg_podspec *ps)
{
	return ps->kind && ps->kind->shape ? ps->kind->shape
					   : &wg_pod_template_shape;
}

bool wg_podspec_has(const struct wg_podspec *ps, const char *key)
{
	int f = wg_pod_field_of(key);

	return !ps->view || (f >= 0 && ps->view->shape->fields[f]);
}

const struct wg_node *wg_podspec_anchor(const struct wg_podspec *ps)
{
	const struct wg_pod_view *v = ps->view;

	if (!v)
		return ps->spec;
	if (v->own && wg_node_has_pos(v->own))
		return v->own;
	if (v->own_parent && wg_node_has_pos(v->own_parent))
		return v->own_parent;
	/* an item of another object (a Pipeline's task) is not here */
	return v->item_owner ? NULL : v->item;
}

const char *wg_podspec_what(struct wg_arena *arena,
			    const struct wg_podspec *ps)
{
	const struct wg_pod_view *v = ps->view;

	if (!v || !v->name)
		return NULL;
	return wg_arena_printf(arena, "%s '%s'", v->shape->own_list ? "task"
			       : "template", v->name);
}

bool wg_podspec_unresolved(const struct wg_podspec *ps, const char **what,
			   const struct wg_node **at, const char **path)
{
	if (!ps->view || !ps->view->missing)
		return false;
	*what = ps->view->missing;
	*at = ps->view->missing_at;
	*path = ps->view->missing_path;
	return true;
}

bool wg_podspec_inherits(const struct wg_podspec *ps, const char *key)
{
	int f = wg_pod_field_of(key);

	return ps->view && f >= 0 && ps->view->from[f] > 0;
}

struct wg_node *wg_podspec_ensure(struct wg_ctx *ctx, struct wg_arena *arena,
				  const struct wg_resource *res,
				  const struct wg_podspec *ps, const char *key,
				  int want, const char *reason,
				  const struct wg_node **bad,
				  const char **bad_path)
{
	struct wg_node *m;
	int f;

	*bad = NULL;
	*bad_path = NULL;
	if (ps->view) {
		f = wg_pod_field_of(key);
		return f < 0 ? NULL : wg_podview_ensure(ctx, arena, res,
				ps->view, f, want, reason, bad, bad_path);
	}
	m = want == WG_NODE_SEQ ? wg_map_ensure_seq(arena, ps->spec, key)
				: wg_map_ensure_map(arena, ps->spec, key);
	if (!m) {
		struct wg_buf path = WG_BUF_INIT;

		*bad = wg_map_get(ps->spec, key);
		*bad_path = wg_arena_strdup(arena, wg_podspec_path(&path, ps,
					    key, (const char *)NULL));
		wg_buf_release(&path);
	}
	return m;
}

bool wg_podspec_set(struct wg_arena *arena, const struct wg_podspec *ps,
		    const char *key, struct wg_node *value)
{
	int f;

	if (!ps->view) {
		wg_map_set(arena, ps->spec, key, value);
		return true;
	}
	f = wg_pod_field_of(key);
	return f >= 0 && wg_podview_set(arena, ps->view, f, value);
}

struct wg_node *wg_podspec_delete(struct wg_arena *arena,
				  const struct wg_podspec *ps,
				  const char *key)
{
	int f;

	if (!ps->view)
		return wg_map_delete(ps->spec, key);
	f = wg_pod_field_of(key);
	return f < 0 ? NULL : wg_podview_delete(arena, ps->view, f);
}

int wg_podspec_source(const struct wg_podspec *ps, const char *key)
{
	int f = wg_pod_field_of(key);

	if (!ps->view)
		return wg_node_is_null(wg_map_get(ps->spec, key)) ? -1 : 0;
	return f < 0 ? -1 : wg_podview_source(ps->view, f);
}

struct wg_node *wg_podspec_ensure_shared(struct wg_arena *arena,
					 struct wg_podspec *pods, size_t npods,
					 size_t i, const char *key, int want,
					 const char **path)
{
	int f = wg_pod_field_of(key);

	*path = NULL;
	if (i >= npods || !pods[i].view || f < 0)
		return NULL;
	return wg_podview_ensure_shared(arena, pods[i].view, f, want, path);
}

void wg_podspec_refresh(struct wg_arena *arena, struct wg_podspec *pods,
			size_t npods)
{
	for (size_t k = 0; k < npods; k++)
		if (pods[k].view)
			wg_podview_refresh(arena, pods[k].view);
}
