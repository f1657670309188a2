#include "wingen/k8s/podspec.h"

#include <stdarg.h>
#include <string.h>

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

size_t wg_podspec_find_all(struct wg_arena *arena,
			   const struct wg_kind_set *extra,
			   const struct wg_resource *res,
			   struct wg_podspec **out)
{
	const struct wg_kind *k = wg_kind_of(extra, res);
	size_t n = k ? walk_all(k, res, NULL) : 0;

	*out = NULL;
	if (!n)
		return 0;
	*out = wg_arena_zalloc(arena, n * sizeof(**out));
	return walk_all(k, res, *out);
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

const char *wg_podspec_path(struct wg_buf *out, const struct wg_podspec *ps,
			    ...)
{
	va_list ap;

	wg_buf_reset(out);
	add_spec(out, ps);
	va_start(ap, ps);
	add_keys(out, ap);
	va_end(ap);
	return out->buf;
}

const char *wg_podspec_tmpl_path(struct wg_buf *out,
				 const struct wg_podspec *ps, ...)
{
	va_list ap;

	wg_buf_reset(out);
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

const char *wg_container_path(struct wg_buf *out, const struct wg_podspec *ps,
			      const struct wg_container *c, ...)
{
	va_list ap;

	wg_buf_reset(out);
	add_spec(out, ps);
	wg_path_append_key(out, c->list, strlen(c->list));
	wg_buf_addf(out, "[%zu]", c->index);
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
