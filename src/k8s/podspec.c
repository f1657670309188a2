#include "wingen/k8s/podspec.h"

#include <stdarg.h>
#include <string.h>

/*
 * extensions/v1beta1 served Deployments, DaemonSets and ReplicaSets until
 * 1.16; old manifests still say so.
 */
const struct wg_podspec_kind wg_podspec_kinds[] = {
	{ "Deployment", "apps|extensions", "spec.template",
	  "spec.template.spec" },
	{ "StatefulSet", "apps", "spec.template", "spec.template.spec" },
	{ "DaemonSet", "apps|extensions", "spec.template",
	  "spec.template.spec" },
	{ "ReplicaSet", "apps|extensions", "spec.template",
	  "spec.template.spec" },
	{ "ReplicationController", "", "spec.template", "spec.template.spec" },
	{ "Job", "batch", "spec.template", "spec.template.spec" },
	{ "CronJob", "batch", "spec.jobTemplate.spec.template",
	  "spec.jobTemplate.spec.template.spec" },
	{ "Pod", "", "", "spec" },
	{ "PodTemplate", "", "template", "template.spec" },
	{ NULL, NULL, NULL, NULL },
};

/* Whether the group of apiVersion ("apps/v1" -> apps, "v1" -> core) is one
 * of groups ("apps|extensions"). */
static bool group_ok(const struct wg_node *api, const char *groups)
{
	const char *slash;
	size_t glen;

	if (!api)
		return true;	/* no apiVersion: trust the kind */
	if (!wg_is_scalar(api))
		return false;
	slash = memchr(api->u.str, '/', api->len);
	glen = slash ? (size_t)(slash - api->u.str) : 0;
	for (const char *g = groups;;) {
		size_t n = strcspn(g, "|");

		if (n == glen && memcmp(g, api->u.str, n) == 0)
			return true;
		if (!g[n])
			return false;
		g += n + 1;
	}
}

const struct wg_podspec_kind *wg_podspec_kind_of(const struct wg_resource *res)
{
	const struct wg_node *kind = wg_map_get(res->root, "kind");

	if (!wg_is_scalar(kind))
		return NULL;
	for (const struct wg_podspec_kind *k = wg_podspec_kinds; k->kind; k++)
		if (wg_scalar_is(kind, k->kind))
			return group_ok(wg_map_get(res->root, "apiVersion"),
					k->groups) ? k : NULL;
	return NULL;
}

bool wg_podspec_find(const struct wg_resource *res, struct wg_podspec *out)
{
	const struct wg_podspec_kind *k = wg_podspec_kind_of(res);
	struct wg_node *tmpl, *spec;

	memset(out, 0, sizeof(*out));
	if (!k)
		return false;
	tmpl = *k->tmpl ? wg_path_get(res->root, k->tmpl) : res->root;
	spec = wg_map_get(tmpl, "spec");
	if (!wg_is_map(tmpl) || !wg_is_map(spec))
		return false;
	out->kind = k;
	out->tmpl = tmpl;
	out->spec = spec;
	return true;
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

const char *wg_podspec_path(struct wg_buf *out, const struct wg_podspec *ps,
			    ...)
{
	va_list ap;

	wg_buf_reset(out);
	wg_buf_addstr(out, ps->kind->spec);
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
	wg_buf_addstr(out, ps->kind->spec);
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
