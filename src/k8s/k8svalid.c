#include "wingen/k8s/k8svalid.h"

#include <string.h>

#include "k8s_internal.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/k8s/placeholder.h"
#include "wingen/k8s/podcheck.h"
#include "wingen/yaml/scalar.h"

struct check {
	struct wg_ctx *ctx;
	const struct wg_resource *res;
	const struct wg_podspec *ps;
	struct wg_arena scratch;
	struct wg_buf path;
	size_t bad;
};

/* A violation at node, unless node holds a placeholder (judged once it
 * is substituted). */
static void bad(struct check *c, const struct wg_node *node, const char *path,
		const char *msg)
{
	if (wg_k8s_placeholder(node))
		return;
	wg_error(c->ctx, c->res, node, path, "%s", msg);
	c->bad++;
}


/* The text of a string field ("" when absent or null); NULL when the
 * field is there but not a string (reported). */
static const char *str_field(struct check *c, const struct wg_node *m,
			     const char *key, const char *base)
{
	const struct wg_node *v = wg_map_get(m, key);

	if (wg_node_is_null(v))
		return "";
	if (!wg_k8s_is_string(v)) {
		wg_buf_reset(&c->path);
		wg_buf_addstr(&c->path, base);
		wg_path_append_key(&c->path, key, strlen(key));
		bad(c, v, c->path.buf, "must be a string");
		return NULL;
	}
	return wg_scalar_dup(&c->scratch, v);
}

static const char *spec_path(struct check *c, const char *key,
			     const char *key2)
{
	return wg_podspec_path(&c->path, c->ps, key, key2, (const char *)NULL);
}

static void check_node_selector(struct check *c)
{
	const struct wg_node *ns = wg_map_get(c->ps->spec, "nodeSelector");

	if (wg_node_is_null(ns))
		return;
	if (!wg_is_map(ns)) {
		bad(c, ns, spec_path(c, "nodeSelector", NULL),
		    "must be a mapping");
		return;
	}
	for (size_t i = 0; i < ns->len; i++) {
		const struct wg_node *k = wg_map_key(ns, i);
		const struct wg_node *v = wg_map_value(ns, i);
		char *key = wg_scalar_dup(&c->scratch, k);

		/* a shared key (build and check share them) has no
		 * position: its string value sits on its line */
		if (!wg_is_label_key(key) && !wg_k8s_placeholder(k))
			bad(c, wg_node_has_pos(k) ? k : v,
			    spec_path(c, "nodeSelector", key),
			    "is not a valid label key");
		if (!wg_k8s_is_string(v))
			bad(c, v, spec_path(c, "nodeSelector", key),
			    "must be a string");
		else if (!wg_is_label_value(wg_scalar_dup(&c->scratch, v)))
			bad(c, v, spec_path(c, "nodeSelector", key),
			    "is not a valid label value");
	}
}

static bool one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

static void check_toleration(struct check *c, const struct wg_node *t,
			     const char *base)
{
	static const char *const effects[] = {
		"", "NoSchedule", "PreferNoSchedule", "NoExecute", NULL,
	};
	const char *key = str_field(c, t, "key", base);
	const char *op = str_field(c, t, "operator", base);
	const char *value = str_field(c, t, "value", base);
	const char *effect = str_field(c, t, "effect", base);
	const struct wg_node *secs = wg_map_get(t, "tolerationSeconds");
	char *at = wg_arena_strdup(&c->scratch, base);

	if (key && *key && !wg_is_label_key(key))
		bad(c, wg_map_get(t, "key"), at, "key is not a valid label key");
	if (key && op && !*key && strcmp(op, "Exists") != 0)
		bad(c, t, at, "operator must be Exists when key is empty");
	if (!wg_node_is_null(secs)) {
		if (!wg_k8s_is_int(secs))
			bad(c, secs, at, "tolerationSeconds must be an integer");
		if (effect && strcmp(effect, "NoExecute") != 0)
			bad(c, t, at, "effect must be NoExecute when "
			    "tolerationSeconds is set");
	}
	if (op && value) {
		if (!*op || strcmp(op, "Equal") == 0) {
			if (!wg_is_label_value(value))
				bad(c, wg_map_get(t, "value"), at,
				    "value is not a valid label value");
		} else if (strcmp(op, "Exists") == 0) {
			if (*value)
				bad(c, wg_map_get(t, "value"), at,
				    "value must be empty when operator is "
				    "Exists");
		} else {
			bad(c, wg_map_get(t, "operator"), at,
			    "operator must be Equal or Exists");
		}
	}
	if (effect && !one_of(effect, effects))
		bad(c, wg_map_get(t, "effect"), at, "effect must be NoSchedule, "
		    "PreferNoSchedule or NoExecute");
}

static void check_tolerations(struct check *c)
{
	const struct wg_node *seq = wg_map_get(c->ps->spec, "tolerations");
	struct wg_buf base = WG_BUF_INIT;

	if (wg_node_is_null(seq))
		return;
	if (!wg_is_seq(seq)) {
		bad(c, seq, spec_path(c, "tolerations", NULL),
		    "must be a list");
		return;
	}
	for (size_t i = 0; i < seq->len; i++) {
		const struct wg_node *t = wg_seq_item(seq, i);

		wg_podspec_path(&base, c->ps, "tolerations",
				(const char *)NULL);
		wg_buf_addf(&base, "[%zu]", i);
		if (!wg_is_map(t))
			bad(c, t, base.buf, "must be a mapping");
		else
			check_toleration(c, t, base.buf);
	}
	wg_buf_release(&base);
}

static void check_runtime_class(struct check *c)
{
	const struct wg_node *v = wg_map_get(c->ps->spec, "runtimeClassName");

	if (wg_node_is_null(v))
		return;
	if (!wg_k8s_is_string(v) || !wg_is_dns_subdomain(wg_scalar_dup(&c->scratch,
								 v)))
		bad(c, v, spec_path(c, "runtimeClassName", NULL),
		    "must be a DNS subdomain (RuntimeClass name)");
}

static const char *const pod_forbidden[] = {
	"hostUsers", "shareProcessNamespace", "resources", NULL,
};
static const char *const pod_sc_forbidden[] = {
	"seLinuxOptions", "seccompProfile", "appArmorProfile", "fsGroup",
	"fsGroupChangePolicy", "runAsUser", "runAsGroup", "supplementalGroups",
	"supplementalGroupsPolicy", "sysctls", "seLinuxChangePolicy", NULL,
};
static const char *const ctr_sc_forbidden[] = {
	"seLinuxOptions", "seccompProfile", "appArmorProfile", "capabilities",
	"readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation",
	"procMount", "runAsUser", "runAsGroup", NULL,
};

static void forbid(struct check *c, const struct wg_node *m,
		   const char *const *keys, const char *base)
{
	for (size_t i = 0; keys[i]; i++) {
		const struct wg_node *v = wg_map_get(m, keys[i]);

		if (!v)
			continue;
		wg_buf_reset(&c->path);
		wg_buf_addstr(&c->path, base);
		wg_path_append_key(&c->path, keys[i], strlen(keys[i]));
		bad(c, v, c->path.buf, "cannot be set for a windows pod");
	}
}

static void check_windows(struct check *c)
{
	const struct wg_node *spec = c->ps->spec;
	struct wg_container_iter it;
	struct wg_container ctr;
	struct wg_buf base = WG_BUF_INIT;

	if (wg_node_true(wg_map_get(spec, "hostPID")))
		bad(c, wg_map_get(spec, "hostPID"), spec_path(c, "hostPID",
		    NULL), "cannot be set for a windows pod");
	if (wg_node_true(wg_map_get(spec, "hostIPC")))
		bad(c, wg_map_get(spec, "hostIPC"), spec_path(c, "hostIPC",
		    NULL), "cannot be set for a windows pod");
	wg_podspec_path(&base, c->ps, (const char *)NULL);
	forbid(c, spec, pod_forbidden, base.buf);
	wg_podspec_path(&base, c->ps, "securityContext", (const char *)NULL);
	forbid(c, wg_map_get(spec, "securityContext"), pod_sc_forbidden,
	       base.buf);
	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &ctr)) {
		wg_container_path(&base, c->ps, &ctr, "securityContext",
				  (const char *)NULL);
		forbid(c, wg_map_get(ctr.node, "securityContext"),
		       ctr_sc_forbidden, base.buf);
	}
	wg_buf_release(&base);
}

static void check_linux(struct check *c)
{
	const struct wg_node *spec = c->ps->spec;
	const struct wg_node *wo = wg_path_get(spec,
					       "securityContext.windowsOptions");
	struct wg_container_iter it;
	struct wg_container ctr;
	struct wg_buf base = WG_BUF_INIT;

	if (wo)
		bad(c, wo, spec_path(c, "securityContext", "windowsOptions"),
		    "windows options cannot be set for a linux pod");
	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &ctr)) {
		wo = wg_path_get(ctr.node, "securityContext.windowsOptions");
		if (wo)
			bad(c, wo, wg_container_path(&base, c->ps, &ctr,
				"securityContext", "windowsOptions",
				(const char *)NULL),
			    "windows options cannot be set for a linux pod");
	}
	wg_buf_release(&base);
}

static void check_os(struct check *c)
{
	const struct wg_node *os = wg_map_get(c->ps->spec, "os");
	const struct wg_node *name;

	if (wg_node_is_null(os))
		return;
	name = wg_map_get(os, "name");
	if (!wg_is_map(os) || !wg_is_scalar(name)) {
		bad(c, os, spec_path(c, "os", "name"), "is required");
		return;
	}
	if (wg_scalar_is(name, "windows"))
		check_windows(c);
	else if (wg_scalar_is(name, "linux"))
		check_linux(c);
	else
		bad(c, name, spec_path(c, "os", "name"),
		    "must be linux or windows");
}

size_t wg_k8s_check_pod_spec(struct wg_ctx *ctx, const struct wg_resource *res,
			     const struct wg_podspec *ps)
{
	struct check c = { ctx, res, ps, WG_ARENA_INIT, WG_BUF_INIT, 0 };

	check_node_selector(&c);
	check_tolerations(&c);
	check_runtime_class(&c);
	check_os(&c);
	/* windowsOptions and HostProcess rules hold whatever the OS */
	c.bad += wg_k8s_check_windows_options(ctx, res, ps);
	wg_buf_release(&c.path);
	wg_arena_release(&c.scratch);
	return c.bad;
}

size_t wg_k8s_check_workload(struct wg_ctx *ctx,
			     const struct wg_kind_set *extra,
			     const struct wg_resource *res)
{
	struct wg_arena scratch = WG_ARENA_INIT;
	struct wg_podspec *all;
	size_t n = wg_podspec_find_all(&scratch, extra, res, &all);
	size_t bad = 0;

	/* Every template: a Volcano Job's second task is a pod spec the API
	 * server validates as much as its first. */
	for (size_t i = 0; i < n; i++)
		/* A shape's pod (an Argo template, a Tekton run) is made
		 * by its controller, after it substitutes its parameters
		 * ({{inputs.parameters.arch}}, $(params.node)): the API
		 * server validates that pod, not this object. */
		if (!all[i].view)
			bad += wg_k8s_check_pod_spec(ctx, res, &all[i]);
	wg_arena_release(&scratch);
	return bad;
}

size_t wg_k8s_check_resource(struct wg_ctx *ctx,
			     const struct wg_resource *res)
{
	return wg_k8s_check_workload(ctx, NULL, res);
}
