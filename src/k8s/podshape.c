/*
 * The types of the fields wingen reads or writes (podcheck.h).  kubectl
 * decodes a manifest into Go structs and refuses a field of the wrong
 * type; wingen must refuse it too, at its line, instead of reading past
 * it (a "tolerations: foo" taken as no tolerations is a wrong answer
 * given with exit 0).
 */
#include "wingen/k8s/podcheck.h"

#include <string.h>

#include "k8s_internal.h"
#include "podview.h"
#include "wingen/k8s/k8svalid.h"
#include "wingen/k8s/placeholder.h"

enum want { MAP, LIST, STR, BOOL, INT, MAP_OF_STR, LIST_OF_STR };

struct shape {
	struct wg_ctx *ctx;
	const struct wg_resource *res;
	struct wg_buf path;
	size_t bad;
};

static const char *const what[] = {
	[MAP] = "is not a mapping",
	[LIST] = "is not a list",
	[STR] = "is not a string",
	[BOOL] = "is not a boolean (true or false)",
	[INT] = "is not an integer",
	[MAP_OF_STR] = "is not a mapping",
	[LIST_OF_STR] = "is not a list",
};

static bool fits(const struct wg_node *v, enum want w)
{
	switch (w) {
	case MAP:
	case MAP_OF_STR:
		return wg_is_map(v);
	case LIST:
	case LIST_OF_STR:
		return wg_is_seq(v);
	case STR:
		return wg_k8s_is_string(v);
	case BOOL:
		return wg_node_bool(v) != WG_BOOL_INVALID;
	case INT:
		return wg_k8s_is_int(v);
	}
	return false;
}

/* Appends key to path; returns the old length to restore. */
static size_t push(struct wg_buf *path, const char *key)
{
	size_t mark = path->len;

	wg_path_append_key(path, key, strlen(key));
	return mark;
}

static void pop(struct wg_buf *path, size_t mark)
{
	path->len = mark;
	path->buf[mark] = '\0';
}

static void bad(struct shape *s, const struct wg_node *n, const char *msg)
{
	wg_error(s->ctx, s->res, n, s->path.buf, "%s", msg);
	s->bad++;
}

/*
 * Checks m.key against w; returns the value when it is there (not null)
 * and of that type, else NULL.  Members of a MAP_OF_STR or LIST_OF_STR
 * are checked too.  The path is left as it was.
 */
static const struct wg_node *field(struct shape *s, const struct wg_node *m,
				   const char *key, enum want w)
{
	const struct wg_node *v = wg_map_get(m, key);
	size_t mark;

	if (wg_node_is_null(v))
		return NULL;
	mark = push(&s->path, key);
	if (!fits(v, w) && wg_k8s_placeholder(v)) {
		/* ${NAME}: a template's, filled in before kubectl reads it */
		wg_warning(s->ctx, s->res, v, s->path.buf, "holds a placeholder "
			   "('%.*s'): read as unset until it is substituted",
			   (int)v->len, v->u.str);
		v = NULL;
	} else if (!fits(v, w)) {
		bad(s, v, what[w]);
		v = NULL;
	} else if (w == MAP_OF_STR) {
		for (size_t i = 0; i < v->len; i++) {
			const struct wg_node *k = wg_map_key(v, i);
			size_t km = s->path.len;

			if (wg_k8s_is_string(wg_map_value(v, i)))
				continue;
			wg_path_append_key(&s->path, k->u.str, k->len);
			bad(s, wg_map_value(v, i), what[STR]);
			pop(&s->path, km);
		}
	} else if (w == LIST_OF_STR) {
		for (size_t i = 0; i < v->len; i++) {
			size_t km = s->path.len;

			if (wg_k8s_is_string(wg_seq_item(v, i)))
				continue;
			wg_buf_addf(&s->path, "[%zu]", i);
			bad(s, wg_seq_item(v, i), what[STR]);
			pop(&s->path, km);
		}
	}
	pop(&s->path, mark);
	return v;
}

/* Each item of list (the value of m.key) must be a mapping: fn checks it,
 * with the path at the item. */
static void items(struct shape *s, const struct wg_node *m, const char *key,
		  void (*fn)(struct shape *, const struct wg_node *))
{
	const struct wg_node *list = field(s, m, key, LIST);
	size_t mark;

	if (!list)
		return;
	mark = push(&s->path, key);
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_node *it = wg_seq_item(list, i);
		size_t im = s->path.len;

		wg_buf_addf(&s->path, "[%zu]", i);
		if (!wg_is_map(it))
			bad(s, it, what[MAP]);
		else if (fn)
			fn(s, it);
		pop(&s->path, im);
	}
	pop(&s->path, mark);
}

/* Enters m.key when it is a mapping: returns it with the path pushed
 * (*mark to pop), else NULL with the path as it was. */
static const struct wg_node *enter(struct shape *s, const struct wg_node *m,
				   const char *key, size_t *mark)
{
	const struct wg_node *v = field(s, m, key, MAP);

	if (v)
		*mark = push(&s->path, key);
	return v;
}

static void meta(struct shape *s, const struct wg_node *holder, bool names)
{
	size_t mark;
	const struct wg_node *md = enter(s, holder, "metadata", &mark);

	if (!md)
		return;
	if (names) {
		field(s, md, "name", STR);
		field(s, md, "namespace", STR);
	}
	field(s, md, "labels", MAP_OF_STR);
	field(s, md, "annotations", MAP_OF_STR);
	pop(&s->path, mark);
}

static void toleration(struct shape *s, const struct wg_node *t)
{
	field(s, t, "key", STR);
	field(s, t, "operator", STR);
	field(s, t, "value", STR);
	field(s, t, "effect", STR);
	field(s, t, "tolerationSeconds", INT);
}

static void requirement(struct shape *s, const struct wg_node *r)
{
	field(s, r, "key", STR);
	field(s, r, "operator", STR);
	field(s, r, "values", LIST_OF_STR);
}

static void term(struct shape *s, const struct wg_node *t)
{
	items(s, t, "matchExpressions", requirement);
	items(s, t, "matchFields", requirement);
}

static void preference(struct shape *s, const struct wg_node *p)
{
	size_t mark;
	const struct wg_node *t = enter(s, p, "preference", &mark);

	if (!t)
		return;
	term(s, t);
	pop(&s->path, mark);
}

static void affinity(struct shape *s, const struct wg_node *spec,
		     const char *key)
{
	size_t m1, m2, m3;
	const struct wg_node *aff = enter(s, spec, key, &m1);
	const struct wg_node *na, *req;

	if (!aff)
		return;
	na = enter(s, aff, "nodeAffinity", &m2);
	if (na) {
		req = enter(s, na,
			    "requiredDuringSchedulingIgnoredDuringExecution",
			    &m3);
		if (req) {
			items(s, req, "nodeSelectorTerms", term);
			pop(&s->path, m3);
		}
		items(s, na, "preferredDuringSchedulingIgnoredDuringExecution",
		      preference);
		pop(&s->path, m2);
	}
	pop(&s->path, m1);
}

static void security_context_at(struct shape *s, const struct wg_node *holder,
				const char *key)
{
	size_t m1, m2;
	const struct wg_node *sc = enter(s, holder, key, &m1);
	const struct wg_node *wo;

	if (!sc)
		return;
	field(s, sc, "runAsNonRoot", BOOL);
	wo = enter(s, sc, "windowsOptions", &m2);
	if (wo) {
		field(s, wo, "hostProcess", BOOL);
		field(s, wo, "runAsUserName", STR);
		field(s, wo, "gmsaCredentialSpecName", STR);
		field(s, wo, "gmsaCredentialSpec", STR);
		pop(&s->path, m2);
	}
	pop(&s->path, m1);
}

static void security_context(struct shape *s, const struct wg_node *holder)
{
	security_context_at(s, holder, "securityContext");
}

static void container(struct shape *s, const struct wg_node *c)
{
	field(s, c, "name", STR);
	field(s, c, "image", STR);
	security_context(s, c);
}

static void pod_spec(struct shape *s, const struct wg_node *spec)
{
	static const char *const bools[] = {
		"hostNetwork", "hostPID", "hostIPC", "hostUsers",
		"shareProcessNamespace",
	};
	size_t mark;
	const struct wg_node *os;

	field(s, spec, "nodeSelector", MAP_OF_STR);
	items(s, spec, "tolerations", toleration);
	affinity(s, spec, "affinity");
	field(s, spec, "runtimeClassName", STR);
	os = enter(s, spec, "os", &mark);
	if (os) {
		field(s, os, "name", STR);
		pop(&s->path, mark);
	}
	for (size_t i = 0; i < sizeof(bools) / sizeof(*bools); i++)
		field(s, spec, bools[i], BOOL);
	field(s, spec, "overhead", MAP);
	security_context(s, spec);
	items(s, spec, "initContainers", container);
	items(s, spec, "containers", container);
	items(s, spec, "ephemeralContainers", container);
}

/* The settings a holder of a shape's pod has (each field at its path),
 * path the holder's. */
static void holder(struct shape *s, const struct wg_pod_shape *sh,
		   const struct wg_node *h, const char *path)
{
	for (int f = 0; h && f < WG_POD_NFIELDS; f++) {
		const char *fp = sh->fields[f], *dot, *last;
		const struct wg_node *m = h;
		size_t mark;

		if (!fp)
			continue;
		wg_buf_reset(&s->path);
		wg_buf_addstr(&s->path, path);
		dot = strrchr(fp, '.');
		last = dot ? dot + 1 : fp;
		if (dot) {
			struct wg_buf head = WG_BUF_INIT;

			wg_buf_add(&head, fp, (size_t)(dot - fp));
			m = wg_path_get(h, head.buf);
			if (s->path.len)
				wg_buf_addstr(&s->path, ".");
			wg_buf_addstr(&s->path, head.buf);
			wg_buf_release(&head);
		}
		switch (f) {
		case WG_POD_NODE_SELECTOR:
			field(s, m, last, MAP_OF_STR);
			break;
		case WG_POD_TOLERATIONS:
			items(s, m, last, toleration);
			break;
		case WG_POD_AFFINITY:
			affinity(s, m, last);
			break;
		case WG_POD_RUNTIME_CLASS:
			field(s, m, last, STR);
			break;
		case WG_POD_OS:
			if ((m = enter(s, m, last, &mark))) {
				field(s, m, "name", STR);
				pop(&s->path, mark);
			}
			break;
		case WG_POD_SECURITY_CONTEXT:
			security_context_at(s, m, last);
			break;
		case WG_POD_HOST_NETWORK:
			field(s, m, last, BOOL);
			break;
		}
	}
}

/* Whether h is among seen (n of them); adds it when not. */
static bool seen_holder(const struct wg_node **seen, size_t *n, size_t cap,
			const struct wg_node *h)
{
	for (size_t i = 0; i < *n; i++)
		if (seen[i] == h)
			return true;
	if (*n < cap)
		seen[(*n)++] = h;
	return false;
}

/* A shape's pods: each holder once (a workflow's spec is every
 * template's), each container once, at their own paths. */
static void views(struct shape *s, const struct wg_podspec *pods,
		  size_t npods)
{
	const struct wg_node *seen[64];
	size_t nseen = 0;

	for (size_t i = 0; i < npods; i++) {
		const struct wg_pod_view *v = pods[i].view;
		struct wg_container_iter it;
		struct wg_container c;

		if (v->own && !seen_holder(seen, &nseen, 64, v->own))
			holder(s, v->shape, v->own, v->own_path);
		for (unsigned k = 0; k < v->nshared; k++)
			if (v->shared[k] && !seen_holder(seen, &nseen, 64,
							 v->shared[k]))
				holder(s, v->shape, v->shared[k],
				       v->shared_path[k]);
		wg_container_iter_init(&it, pods[i].spec);
		while (wg_container_next(&it, &c)) {
			if (wg_container_owner(&pods[i], &c)
			    || seen_holder(seen, &nseen, 64, c.node))
				continue;	/* another object's: its own */
			wg_container_path(&s->path, &pods[i], &c,
					  (const char *)NULL);
			container(s, c.node);
		}
	}
}

size_t wg_k8s_check_shape(struct wg_ctx *ctx, const struct wg_resource *res,
			  const struct wg_podspec *pods, size_t npods)
{
	struct shape s = { ctx, res, WG_BUF_INIT, 0 };

	wg_buf_addstr(&s.path, "");
	meta(&s, res->root, true);
	if (npods && pods[0].view) {
		for (size_t i = 0; i < npods; i++) {
			if (!pods[i].tmpl || pods[i].tmpl == res->root)
				continue;
			wg_podspec_tmpl_path(&s.path, &pods[i],
					     (const char *)NULL);
			meta(&s, pods[i].tmpl, false);
		}
		views(&s, pods, npods);
		npods = 0;
	}
	for (size_t i = 0; i < npods; i++) {
		const struct wg_podspec *ps = &pods[i];

		/* the template's metadata: "spec.template" + ".metadata";
		 * a Pod's template is the object, its metadata done above */
		if (ps->tmpl != res->root) {
			wg_podspec_tmpl_path(&s.path, ps, (const char *)NULL);
			meta(&s, ps->tmpl, false);
		}
		wg_podspec_path(&s.path, ps, (const char *)NULL);
		pod_spec(&s, ps->spec);
	}
	wg_buf_release(&s.path);
	return s.bad;
}
