/*
 * Editing a shape's pod through its view (podspec.h): a setting is
 * written where the pod's own settings are, its holder made along its
 * path, an inherited value copied in first; a value every pod reads from
 * a shared holder is written there (linux-pin); the view is filled again
 * after each edit.
 */
#include "podview.h"

#include <string.h>

/* ---- editing through a view --------------------------------------------- */

/* The map at path below m, made (maps) along the way; NULL when something
 * on the way is not a mapping (*bad then). */
static struct wg_node *ensure_path(struct wg_arena *a, struct wg_node *m,
				   const char *path, struct wg_node **bad)
{
	char *p = wg_arena_strdup(a, path);

	for (char *key = p, *dot; m && *key; key = dot ? dot + 1 : "") {
		struct wg_node *next;

		dot = strchr(key, '.');
		if (dot)
			*dot = '\0';
		next = wg_map_ensure_map(a, m, key);
		if (!next)
			*bad = wg_map_get(m, key);
		m = next;
		if (!dot)
			break;
	}
	return m;
}

/* The own holder, made when missing; NULL (and *bad) when it cannot be. */
static struct wg_node *make_own(struct wg_arena *a, struct wg_pod_view *v,
				struct wg_node **bad)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *list, *e;

	*bad = NULL;
	if (wg_is_map(v->own))
		return v->own;
	if (v->own && !wg_node_is_null(v->own)) {
		*bad = v->own;
		return NULL;
	}
	if (sh->own_list && !v->own_parent) {
		char *dot, *head, *last;

		if (!v->name)
			return NULL;	/* an entry names its pod */
		head = wg_arena_strdup(a, sh->own_list);
		dot = strrchr(head, '.');
		last = dot ? dot + 1 : head;
		if (dot)
			*dot = '\0';
		list = dot ? ensure_path(a, v->res->root, head, bad)
			   : v->res->root;
		if (!list)
			return NULL;
		list = wg_map_ensure_seq(a, list, last);
		if (!list) {
			*bad = wg_path_get(v->res->root, sh->own_list);
			return NULL;
		}
		e = wg_node_new_map(a);
		wg_map_insert(a, e, 0, sh->own_key, wg_node_new_str(a,
								   v->name));
		wg_seq_append(a, list, e);
		v->own_parent = e;
		v->own_parent_path = wg_arena_printf(a, "%s[%zu]",
						     sh->own_list,
						     (size_t)list->len - 1);
		v->own_path = wg_podview_join(a, v->own_parent_path, sh->own);
	}
	if (!v->own_parent)
		return NULL;
	v->own = *sh->own ? ensure_path(a, v->own_parent, sh->own, bad)
			  : v->own_parent;
	return v->own;
}

/* The field's holder and its last key: "a.b.c" -> holder a.b, "c". */
static struct wg_node *field_holder(struct wg_arena *a, struct wg_node *own,
				    const char *fpath, const char **last,
				    struct wg_node **bad)
{
	const char *dot = strrchr(fpath, '.');

	*last = dot ? dot + 1 : fpath;
	if (!dot)
		return own;
	return ensure_path(a, own, wg_arena_strndup(a, fpath,
						    (size_t)(dot - fpath)),
			   bad);
}

/* A copy of the collection c made by wingen (new: changes are placed at
 * the pod, not where c came from), its items copies of c's. */
static struct wg_node *copy_new(struct wg_arena *a, const struct wg_node *c)
{
	struct wg_node *out;

	if (wg_is_seq(c)) {
		out = wg_node_new_seq(a);
		for (size_t i = 0; i < c->len; i++)
			wg_seq_append(a, out, wg_node_clone(a,
							    wg_seq_item(c, i)));
		return out;
	}
	out = wg_node_new_map(a);
	for (size_t i = 0; i < c->len; i++) {
		char *key = wg_scalar_dup(a, wg_map_key(c, i));

		wg_map_insert(a, out, out->len, key,
			      wg_node_clone(a, wg_map_value(c, i)));
	}
	return out;
}

struct wg_node *wg_podview_ensure(struct wg_ctx *ctx, struct wg_arena *a,
				  const struct wg_resource *res,
				  struct wg_pod_view *v, int f, int want,
				  const char *reason,
				  const struct wg_node **bad,
				  const char **bad_path)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *own, *holder, *cur, *inherited = NULL, *out, *b = NULL;
	const char *last;
	const char *from = NULL;

	*bad = NULL;
	*bad_path = NULL;
	if (!sh->fields[f])
		return NULL;
	if (v->from[f] > 0) {
		inherited = wg_path_get(v->shared[v->from[f] - 1],
					sh->fields[f]);
		from = wg_podview_join(a, v->shared_path[v->from[f] - 1], sh->fields[f]);
	}
	own = make_own(a, v, &b);
	holder = own ? field_holder(a, own, sh->fields[f], &last, &b) : NULL;
	if (!holder) {
		*bad = b;
		*bad_path = v->own_path;
		wg_podview_fill(a, v);
		return NULL;
	}
	cur = wg_map_get(holder, last);
	if (!wg_node_is_null(cur) && (int)cur->kind != want
	    && !(sh->empty_inherits && (wg_is_map(cur) || wg_is_seq(cur))
		 && cur->len == 0)) {
		*bad = cur;
		*bad_path = wg_podview_join(a, v->own_path, sh->fields[f]);
		wg_podview_fill(a, v);
		return NULL;
	}
	if (inherited && (int)inherited->kind == want
	    && (wg_node_is_null(cur) || cur->len == 0)) {
		out = copy_new(a, inherited);
		wg_map_set(a, holder, last, out);
		wg_record_change(ctx, WG_CHANGE_SET, res,
				 wg_node_has_pos(holder) ? holder : NULL,
				 wg_podview_join(a, v->own_path, sh->fields[f]), NULL, out,
				 wg_arena_printf(a, "%s; copied from %s, which "
						 "it inherited: its own %s "
						 "replaces that one whole",
						 reason, from,
						 wg_pod_field_keys[f]));
	} else {
		out = want == WG_NODE_SEQ ? wg_map_ensure_seq(a, holder, last)
					  : wg_map_ensure_map(a, holder, last);
	}
	wg_podview_fill(a, v);
	return out;
}

bool wg_podview_set(struct wg_arena *a, struct wg_pod_view *v, int f,
		    struct wg_node *value)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *own, *holder, *b = NULL;
	const char *last;

	if (!sh->fields[f])
		return false;
	own = make_own(a, v, &b);
	holder = own ? field_holder(a, own, sh->fields[f], &last, &b) : NULL;
	if (holder)
		wg_map_set(a, holder, last, value);
	wg_podview_fill(a, v);
	return holder != NULL;
}

struct wg_node *wg_podview_delete(struct wg_arena *a, struct wg_pod_view *v,
				  int f)
{
	const struct wg_pod_shape *sh = v->shape;
	struct wg_node *holder, *out;
	const char *dot;

	if (!sh->fields[f] || !wg_is_map(v->own))
		return NULL;
	dot = strrchr(sh->fields[f], '.');
	holder = dot ? wg_path_get(v->own, wg_arena_strndup(a, sh->fields[f],
				   (size_t)(dot - sh->fields[f])))
		     : v->own;
	out = wg_map_delete(holder, dot ? dot + 1 : sh->fields[f]);
	wg_podview_fill(a, v);
	return out;
}

const char *wg_podview_field_path(struct wg_arena *a,
				  const struct wg_pod_view *v, int f, bool own)
{
	const char *fp = v->shape->fields[f] ? v->shape->fields[f]
					     : wg_pod_field_keys[f];

	if (!own && v->from[f] > 0)
		return wg_podview_join(a, v->shared_path[v->from[f] - 1], fp);
	return wg_podview_join(a, v->own_path, fp);
}

/* ---- shared holders ------------------------------------------------------- */

int wg_podview_source(const struct wg_pod_view *v, int f)
{
	return v->shape->fields[f] ? v->from[f] : -1;
}

struct wg_node *wg_podview_ensure_shared(struct wg_arena *a,
					 struct wg_pod_view *v, int f,
					 int want, const char **path)
{
	const struct wg_pod_shape *sh = v->shape;
	unsigned s = v->from[f] > 0 ? (unsigned)v->from[f] - 1
				    : v->nshared - 1;
	struct wg_node *holder, *bad = NULL, *out;
	const char *last;

	*path = NULL;
	if (!v->nshared || !sh->fields[f] || v->from[f] == 0)
		return NULL;
	holder = ensure_path(a, v->res->root, v->shared_path[s], &bad);
	if (holder)
		holder = field_holder(a, holder, sh->fields[f], &last, &bad);
	if (!holder)
		return NULL;
	out = want == WG_NODE_SEQ ? wg_map_ensure_seq(a, holder, last)
				  : wg_map_ensure_map(a, holder, last);
	*path = wg_podview_join(a, v->shared_path[s], sh->fields[f]);
	return out;
}

void wg_podview_refresh(struct wg_arena *a, struct wg_pod_view *v)
{
	for (unsigned s = 0; s < v->nshared; s++) {
		struct wg_node *h = wg_path_get(v->res->root,
						v->shape->shared[s]);

		v->shared[s] = wg_is_map(h) ? h : NULL;
	}
	wg_podview_fill(a, v);
}
