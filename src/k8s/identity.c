/*
 * Duplicate objects in a run (identity.h): one index from identity to
 * the first object that had it, so a stream costs one pass; the two
 * trees are compared only for an identity seen twice.
 */
#include "wingen/k8s/identity.h"

#include <string.h>

#include "wingen/base/buf.h"
#include "wingen/base/index.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/flow.h"

/* The scalar's text appended, then a NUL: the parts of a key cannot run
 * into each other. */
static void part(struct wg_buf *key, const char *s, size_t len)
{
	wg_buf_add(key, s, len);
	wg_buf_add(key, "", 1);
}

bool wg_object_identity(const struct wg_resource *res, struct wg_buf *key)
{
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	const struct wg_node *name = wg_resource_name_node(res);
	const struct wg_node *ns = wg_resource_namespace_node(res);
	const char *group = "";
	size_t glen = 0;

	if ((res->flags & (WG_RES_GENERATED | WG_RES_DELETED))
	    || !wg_is_scalar(kind) || !wg_is_scalar(name) || !name->len)
		return false;
	/* No apiVersion: the group is unknown, and compares as its own. */
	if (!wg_api_group(wg_map_get(res->root, "apiVersion"), &group, &glen))
		group = "\x01", glen = 1;
	wg_buf_reset(key);
	part(key, group, glen);
	part(key, kind->u.str, kind->len);
	if (wg_is_scalar(ns))
		part(key, ns->u.str, ns->len);
	else
		part(key, "", 0);
	part(key, name->u.str, name->len);
	return true;
}

/*
 * Annotations an orchestrator puts on each copy it reads (where from,
 * which id): kpt's and kustomize's, Helm 4's post-renderer file name.
 * Two copies that differ only there are one object.
 */
static bool orchestration_key(const struct wg_node *k)
{
	static const char *const prefixes[] = {
		WG_KRM_INTERNAL_PREFIX, WG_KRM_PATH_LEGACY, WG_KRM_INDEX_LEGACY,
		WG_KRM_CONFIG_ID, WG_KUSTOMIZE_ID, "postrenderer.helm.sh/",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t n = strlen(prefixes[i]);

		if (k->len >= n && memcmp(k->u.str, prefixes[i], n) == 0)
			return true;
	}
	return false;
}

/* Where in the object a comparison is: annotations skip the keys of
 * orchestration_key(). */
enum level { ROOT, METADATA, ANNOTATIONS, BELOW };

static enum level level_of(enum level at, const struct wg_node *key)
{
	if (at == ROOT && wg_scalar_is(key, "metadata"))
		return METADATA;
	if (at == METADATA && wg_scalar_is(key, "annotations"))
		return ANNOTATIONS;
	return BELOW;
}

static bool differ(const struct wg_node *a, const struct wg_node *b,
		   enum level at, struct wg_buf *path);

/* The first key of m (not an orchestration annotation at ANNOTATIONS)
 * that other lacks; NULL when none.  other may be NULL (no mapping). */
static const struct wg_node *key_missing(const struct wg_node *m,
					 const struct wg_node *other,
					 enum level at)
{
	for (size_t i = 0; wg_is_map(m) && i < m->len; i++) {
		const struct wg_node *k = wg_map_key(m, i);

		if (at == ANNOTATIONS && orchestration_key(k))
			continue;
		if (!wg_is_map(other) || wg_map_findn(other, k->u.str,
						      k->len) < 0)
			return k;
	}
	return NULL;
}

/* Mappings a and b (either NULL at ANNOTATIONS: none). */
static bool differ_map(const struct wg_node *a, const struct wg_node *b,
		       enum level at, struct wg_buf *path)
{
	size_t mark = path->len;
	const struct wg_node *k;

	for (size_t i = 0; a && i < a->len; i++) {
		const struct wg_node *ka = wg_map_key(a, i);
		long j = b ? wg_map_findn(b, ka->u.str, ka->len) : -1;
		enum level next = level_of(at, ka);

		if (at == ANNOTATIONS && orchestration_key(ka))
			continue;
		wg_path_append_key(path, ka->u.str, ka->len);
		if (j < 0 && next == ANNOTATIONS) {
			if (differ_map(wg_map_value(a, i), NULL, next, path))
				return true;
		} else if (j < 0 || differ(wg_map_value(a, i),
					  wg_map_value(b, (size_t)j), next,
					  path)) {
			return true;
		}
		path->len = mark;
		path->buf[mark] = '\0';
	}
	if ((k = key_missing(b, a, at))) {
		if (at == METADATA && wg_scalar_is(k, "annotations")
		    && !key_missing(wg_map_get(b, "annotations"), NULL,
				    ANNOTATIONS))
			return false;	/* only orchestration annotations */
		wg_path_append_key(path, k->u.str, k->len);
		return true;
	}
	return false;
}

/* Whether a and b differ, as Kubernetes sees it (wg_node_equal()); the
 * path of the first difference is appended to path. */
static bool differ(const struct wg_node *a, const struct wg_node *b,
		   enum level at, struct wg_buf *path)
{
	if (wg_is_map(a) && wg_is_map(b))
		return differ_map(a, b, at, path);
	if (wg_is_seq(a) && wg_is_seq(b)) {
		for (size_t i = 0; i < a->len || i < b->len; i++)
			if (i >= a->len || i >= b->len
			    || !wg_node_equal(wg_seq_item(a, i),
					      wg_seq_item(b, i))) {
				wg_buf_addf(path, "[%zu]", i);
				if (i < a->len && i < b->len)
					differ(wg_seq_item(a, i),
					       wg_seq_item(b, i), BELOW, path);
				return true;
			}
		return false;
	}
	return !wg_node_equal(a, b);
}

/* The value at path in root as one line of flow YAML, cut short (a
 * message never grows with the stream), or "absent". */
static void value_text(struct wg_buf *out, const struct wg_node *root,
		       const char *path)
{
	const struct wg_node *v = path[0] ? wg_path_get(root, path) : root;
	enum { MAX = 60 };

	wg_buf_reset(out);
	if (!v) {
		wg_buf_addstr(out, "absent");
		return;
	}
	wg_node_to_flow(out, v);
	if (out->len > MAX) {
		out->len = MAX;
		out->buf[MAX] = '\0';
		wg_buf_addstr(out, "...");
	}
}

size_t wg_report_duplicates(struct wg_ctx *ctx, struct wg_resources *list,
			    bool keep_identical)
{
	struct wg_index *ix = wg_index_new_sized(list->len);
	struct wg_buf key = WG_BUF_INIT, path = WG_BUF_INIT;
	struct wg_buf here = WG_BUF_INIT, there = WG_BUF_INIT;
	size_t found = 0;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		const struct wg_resource *first;
		const struct wg_node *at;
		void *const *seen;
		const char *file;
		size_t n;

		if (!wg_object_identity(res, &key))
			continue;
		seen = wg_index_get(ix, key.buf, key.len, &n);
		if (!n) {
			wg_index_add(ix, key.buf, key.len, res);
			continue;
		}
		first = seen[0];
		at = wg_resource_name_node(first);
		file = first->file ? first->file : "(generated)";
		wg_buf_reset(&path);
		if (!differ(first->root, res->root, ROOT, &path)) {
			/* kubectl apply of both is one object */
			if (!keep_identical)
				res->flags |= WG_RES_DELETED;
			wg_info(ctx, res, wg_resource_name_node(res),
				"metadata.name", "the same object as at "
				"%s:%u:%u, identical: %s", file,
				(unsigned)wg_node_line(at) + 1,
				(unsigned)wg_node_col(at) + 1, keep_identical
				? "both kept (applying both is one object)"
				: "this copy is dropped (applying both is "
				  "one object)");
			continue;
		}
		found++;
		value_text(&there, first->root, path.buf);
		value_text(&here, res->root, path.buf);
		wg_error(ctx, res, wg_resource_name_node(res), "metadata.name",
			 "the same object as at %s:%u:%u (API group, kind, "
			 "namespace and name are equal), and it differs: %s "
			 "is %s there, %s here; applying both keeps only one, "
			 "and kustomize refuses them", file,
			 (unsigned)wg_node_line(at) + 1,
			 (unsigned)wg_node_col(at) + 1, path.buf, there.buf,
			 here.buf);
	}
	wg_buf_release(&key);
	wg_buf_release(&path);
	wg_buf_release(&here);
	wg_buf_release(&there);
	wg_index_free(ix);
	return found;
}
