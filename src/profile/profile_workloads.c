/*
 * The profile's workloads: more kinds for the kinds table (kinds.h),
 * declared without a rebuild:
 *
 *   workloads:
 *   - group: example.com            # API group (any version)
 *     kind: PodFarm
 *     templates: [spec.template, "spec.pools[].template"]
 *     selector: spec.selector       # optional: a LabelSelector
 *     replicas: spec.replicas       # optional
 *     nodeAgent: false              # optional: one pod per node
 *
 * or, for pods that are not PodTemplateSpecs (kinds.h shapes), in place of
 * templates:
 *
 *     pods: "spec.jobs[]"           # each item one pod
 *     containers: [container, "sidecars[]"]   # from a pod: a map, a list
 *     nodeSelector: nodeSelector    # from a pod; required
 *     tolerations: tolerations      # optional, and affinity,
 *                                   # runtimeClassName, os, securityContext
 *
 * Every problem is reported at its key path; a kind that a built-in entry
 * already holds for one of its groups is an error (the table's row would
 * win without a word).
 */
#include <ctype.h>
#include <string.h>

#include "profile_internal.h"
#include "wingen/k8s/labelsel.h"

/*
 * Whether path is one the kinds table can walk: keys separated by '.',
 * each optionally followed by "[]" (every item), no empty key, at most
 * WG_KIND_MAX_ITEMS "[]" steps (items allows them at all).  Sets *why.
 */
static bool path_ok(const char *path, bool items, const char **why)
{
	unsigned steps = 0;
	const char *p = path;

	if (!*p) {
		*why = "is empty: give a path such as spec.template";
		return false;
	}
	for (;;) {
		size_t n = strcspn(p, ".[");

		if (!n) {
			*why = "has an empty key";
			return false;
		}
		p += n;
		if (*p == '[') {
			if (p[1] != ']') {
				*why = "may hold [] (every item of a list) "
				       "only";
				return false;
			}
			if (!items) {
				*why = "may not hold []: it names one field";
				return false;
			}
			if (++steps > WG_KIND_MAX_ITEMS) {
				*why = "has more [] steps than wingen walks "
				       "(4)";
				return false;
			}
			p += 2;
		}
		if (!*p)
			return true;
		if (*p != '.') {
			*why = "must go on with '.' after []";
			return false;
		}
		p++;
	}
}

/* A kind name as the API server takes it: a letter, then letters and
 * digits (UpperCamelCase by convention). */
static bool kind_ok(const char *s)
{
	if (!isupper((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s))
			return false;
	return true;
}

static const char *dup(struct wg_profile_loader *L, const char *s)
{
	return s ? wg_arena_strdup(&L->p->arena, s) : NULL;
}

/* The entry's template paths into k; false after a reported problem. */
static bool templates(struct wg_profile_loader *L, const char *base,
		      const struct raw_workload *rw, struct wg_kind *k)
{
	bool ok = true;
	const char *why;

	if (!rw->templates_count) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.templates",
						  base),
				  "is missing: list where the kind's pod "
				  "templates are, such as [spec.template]");
		return false;
	}
	if (rw->templates_count > WG_KIND_MAX_TEMPLATES) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.templates",
						  base),
				  "lists %u paths; wingen takes at most %d "
				  "(use [] for a list of templates)",
				  rw->templates_count, WG_KIND_MAX_TEMPLATES);
		return false;
	}
	for (unsigned i = 0; i < rw->templates_count; i++) {
		if (path_ok(rw->templates[i], true, &why)) {
			k->templates[i] = dup(L, rw->templates[i]);
			continue;
		}
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena,
						  "%s.templates[%u]", base, i),
				  "'%s' %s", rw->templates[i], why);
		ok = false;
	}
	return ok;
}

static bool field_path(struct wg_profile_loader *L, const char *base,
		       const char *key, const char *value, bool items,
		       const char **out)
{
	const char *why;

	*out = NULL;
	if (!value)
		return true;
	if (!path_ok(value, items, &why)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.%s", base,
						  key),
				  "'%s' %s", value, why);
		return false;
	}
	*out = dup(L, value);
	return true;
}

/* The settings a declared shape may place: every pod field but
 * hostNetwork, which wingen reads and never writes. */
static const char *field_key(int f)
{
	return f == WG_POD_HOST_NETWORK ? NULL : wg_pod_field_keys[f];
}

/* A container path: keys, and "[]" only at its end (every item of that
 * list is a container). */
static bool container_ok(const char *path, const char **why)
{
	const char *step;

	if (!path_ok(path, true, why))
		return false;
	step = strstr(path, "[]");
	if (step && step[2]) {
		*why = "may end with [] (a list of containers) but hold no "
		       "other";
		return false;
	}
	return true;
}

static void report_at(struct wg_profile_loader *L, const char *base,
		      const char *key, const char *msg)
{
	wg_profile_report(L, WG_SEV_ERROR, NULL,
			  wg_arena_printf(&L->p->arena, "%s.%s", base, key),
			  "%s", msg);
}

/* Keys of a shape on an entry of templates: an error at each. */
static bool shape_keys_alone(struct wg_profile_loader *L, const char *base,
			     const struct raw_workload *rw)
{
	bool ok = true;

	if (rw->containers_count) {
		report_at(L, base, "containers", "is for pods: a kind with "
			  "templates has its containers in their spec");
		ok = false;
	}
	for (int f = 0; f < WG_POD_NFIELDS; f++) {
		if (!field_key(f) || !rw->fields[f])
			continue;
		report_at(L, base, field_key(f), "is for pods: a kind with "
			  "templates has it in their spec");
		ok = false;
	}
	return ok;
}

/*
 * The entry's shape into k (pods, containers, the settings' paths); false
 * after a reported problem.
 */
static bool shape(struct wg_profile_loader *L, const char *base,
		  const struct raw_workload *rw, struct wg_kind *k)
{
	struct wg_pod_shape *sh = wg_arena_zalloc(&L->p->arena, sizeof(*sh));
	const char *why;
	bool ok = true;

	if (rw->templates_count) {
		report_at(L, base, "templates", "give templates (pod "
			  "template paths) or pods (with containers and "
			  "nodeSelector), not both");
		return false;
	}
	if (!path_ok(rw->pods, true, &why)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.pods",
						  base),
				  "'%s' %s", rw->pods, why);
		ok = false;
	}
	if (!rw->containers_count) {
		report_at(L, base, "containers", "is missing: list where a "
			  "pod's containers are, from the pod: a list "
			  "(\"steps[]\") or one container (container)");
		ok = false;
	} else if (rw->containers_count > WG_SHAPE_MAX_CONTAINERS) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena,
						  "%s.containers", base),
				  "lists %u paths; wingen takes at most %d",
				  rw->containers_count,
				  WG_SHAPE_MAX_CONTAINERS);
		ok = false;
	}
	for (unsigned i = 0; i < rw->containers_count
			     && i < WG_SHAPE_MAX_CONTAINERS; i++) {
		if (container_ok(rw->containers[i], &why)) {
			sh->containers[i] = dup(L, rw->containers[i]);
			continue;
		}
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena,
						  "%s.containers[%u]", base, i),
				  "'%s' %s", rw->containers[i], why);
		ok = false;
	}
	if (!rw->fields[WG_POD_NODE_SELECTOR]) {
		report_at(L, base, "nodeSelector", "is missing: give where "
			  "a pod's nodeSelector is, from the pod (wingen "
			  "places Windows pods by it)");
		ok = false;
	}
	for (int f = 0; f < WG_POD_NFIELDS; f++) {
		if (!field_key(f) || !rw->fields[f])
			continue;
		ok = field_path(L, base, field_key(f), rw->fields[f], false,
				&sh->fields[f]) && ok;
	}
	if (!ok)
		return false;
	sh->root = "";
	sh->pods[0] = dup(L, rw->pods);
	sh->body = "";
	sh->own = "";
	/* pods of one object are told apart: each is decided on its own */
	sh->apart = true;
	k->shape = sh;
	return true;
}

/* Whether an earlier entry of the profile declares kind for a group of
 * groups; its index, or -1. */
static long declared_before(const struct wg_kind *items, size_t n,
			    const struct wg_kind *k)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].kind, k->kind) == 0
		    && strcmp(items[i].groups, k->groups) == 0)
			return (long)i;
	return -1;
}

static bool entry(struct wg_profile_loader *L, size_t i,
		  const struct raw_workload *rw, struct wg_kind *items,
		  size_t n)
{
	struct wg_kind *k = &items[n];
	const char *base = wg_arena_printf(&L->p->arena, "workloads[%zu]", i);
	const struct wg_kind *hit;
	bool ok = true;
	long before;

	memset(k, 0, sizeof(*k));
	if (!rw->group || !*rw->group || !wg_is_dns_subdomain(rw->group)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.group",
						  base),
				  rw->group ? "'%s' is not an API group (a DNS "
				  "subdomain such as example.com)"
				  : "is missing: give the kind's API group%s",
				  rw->group ? rw->group : "");
		ok = false;
	}
	if (!rw->kind || !kind_ok(rw->kind)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.kind",
						  base),
				  rw->kind ? "'%s' is not a kind name (a "
				  "capital letter, then letters and digits)"
				  : "is missing: give the kind's name%s",
				  rw->kind ? rw->kind : "");
		ok = false;
	}
	if (rw->pods) {
		ok = shape(L, base, rw, k) && ok;
	} else {
		ok = templates(L, base, rw, k) && ok;
		ok = shape_keys_alone(L, base, rw) && ok;
	}
	ok = field_path(L, base, "selector", rw->selector, false,
			&k->selector) && ok;
	ok = field_path(L, base, "replicas", rw->replicas, true, &k->pods)
	     && ok;
	if (!ok)
		return false;
	k->kind = dup(L, rw->kind);
	k->groups = dup(L, rw->group);
	k->selector_shape = k->selector ? WG_SELECTOR_LABELS
					: WG_SELECTOR_NONE;
	k->name_max = 253;
	k->node_agent = rw->node_agent && *rw->node_agent;
	k->origin = WG_KIND_DECLARED;
	hit = wg_kind_collides(k->kind, k->groups);
	if (hit) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.kind",
						  base),
				  "%s of group %s is a kind wingen already "
				  "knows (%s%s); remove this entry", k->kind,
				  k->groups, hit->project ? hit->project
				  : "Kubernetes", hit->project ? "" : " API");
		return false;
	}
	before = declared_before(items, n, k);
	if (before >= 0) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  wg_arena_printf(&L->p->arena, "%s.kind",
						  base),
				  "%s of group %s is declared already, by "
				  "workloads[%ld]", k->kind, k->groups, before);
		return false;
	}
	return true;
}

void wg_profile_check_workloads(struct wg_profile_loader *L,
				const struct raw_profile *raw)
{
	struct wg_kind *items;
	size_t n = 0;

	if (!raw->workloads_count)
		return;
	items = wg_arena_zalloc(&L->p->arena,
				raw->workloads_count * sizeof(*items));
	for (size_t i = 0; i < raw->workloads_count; i++)
		if (entry(L, i, &raw->workloads[i], items, n))
			n++;
	L->p->kinds.items = items;
	L->p->kinds.len = n;
}
