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
	ok = templates(L, base, rw, k) && ok;
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
