/*
 * windows.retarget and --retarget: which retired release moves to which
 * build of the profile.  Read from the node tree (a mapping whose keys are
 * releases is no libcyaml schema), checked with positions:
 *   - the key is a release of the catalogue (a name, alias or build
 *     number), not one of the profile's builds (a build the cluster still
 *     runs is not retired; the embedded default's builds are routes, so
 *     there the retired one is dropped instead), and retargeted once;
 *   - the value is a build of the profile, not the key's own release, and
 *     not itself retargeted (no chains, so no cycles: each workload moves
 *     once, to a build the profile keeps).
 * The command line's entries (OLD=NEW) are checked the same way, reported
 * against "--retarget", and win over the profile's for the same release.
 */
#include <stdarg.h>
#include <string.h>

#include "profile_internal.h"
#include "wingen/base/buf.h"

struct entry {
	const char *from_text, *to_text;
	const struct wg_node *key, *value;	/* NULL: command line */
	const char *field;
	const char *arg;			/* the OLD=NEW, or NULL */
};

/* Reports at the profile's node, or against --retarget for an argument. */
static void bad(struct wg_profile_loader *L, const struct entry *e,
		const struct wg_node *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void bad(struct wg_profile_loader *L, const struct entry *e,
		const struct wg_node *at, const char *fmt, ...)
{
	struct wg_buf msg = WG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	wg_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (e->arg)
		wg_report_at(L->ctx, WG_SEV_ERROR, "--retarget", 0, 0,
			     "'%s': %s", e->arg, msg.buf);
	else
		wg_profile_report(L, WG_SEV_ERROR, at, e->field, "%s",
				  msg.buf);
	wg_buf_release(&msg);
}

static const struct wg_release *from_release(struct wg_profile_loader *L,
					     const struct entry *e)
{
	const struct wg_release *r = wg_release_find(e->from_text);
	const char *names[32];
	size_t n = 0;
	const char *hint;

	if (r)
		return r;
	for (const struct wg_release *c = wg_releases; c->name && n < 32; c++)
		names[n++] = c->name;
	hint = wg_suggest(e->from_text, names, n);
	if (hint)
		bad(L, e, e->key, "unknown release '%s'; did you mean '%s'?",
		    e->from_text, hint);
	else
		bad(L, e, e->key, "unknown release '%s' (see 'wingen builds')",
		    e->from_text);
	return NULL;
}

static void list_builds(struct wg_buf *out, const struct wg_profile *p)
{
	for (size_t i = 0; i < p->nbuilds; i++)
		if (p->builds[i].release)
			wg_buf_addf(out, "%s%s", out->len ? ", " : "",
				    p->builds[i].release->name);
}

/* Checks one entry into *out; false when it is not kept. */
static bool check_entry(struct wg_profile_loader *L, const struct entry *e,
			struct wg_retarget *out)
{
	struct wg_profile *p = L->p;
	const struct wg_release *from = from_release(L, e);
	const struct wg_build *to = wg_profile_find_build(p, e->to_text);
	bool ok = from != NULL;

	if (!to) {
		struct wg_buf all = WG_BUF_INIT;

		list_builds(&all, p);
		bad(L, e, e->value, "'%s' is not one of windows.builds (%s)",
		    e->to_text, all.buf);
		wg_buf_release(&all);
		return false;
	}
	if (!ok)
		return false;
	if (to->release == from) {
		bad(L, e, e->value, "retargets %s to itself", from->name);
		return false;
	}
	for (size_t i = 0; !wg_profile_is_embedded(p) && i < p->nbuilds; i++) {
		if (p->builds[i].release != from)
			continue;
		bad(L, e, e->key, "release '%s' is still one of windows.builds "
		    "(windows.builds[%zu]): a build the cluster runs is not "
		    "retired; remove it there to move its workloads to %s",
		    from->name, i, to->release->name);
		return false;
	}
	out->from = from;
	out->to = to;
	out->at = e->value;
	out->why = e->arg ? wg_arena_printf(&p->arena, "--retarget %s",
					    e->arg)
		   : wg_arena_strdup(&p->arena, e->field);
	return true;
}

/* The command line's OLD=NEW as an entry; false after a usage problem. */
static bool split_arg(struct wg_profile_loader *L, const char *arg,
		      struct entry *e)
{
	const char *eq = strchr(arg, '=');

	memset(e, 0, sizeof(*e));
	e->arg = arg;
	if (!eq || eq == arg || !eq[1]) {
		wg_report_at(L->ctx, WG_SEV_ERROR, "--retarget", 0, 0,
			     "'%s': write OLD=NEW, a release and a build of "
			     "the profile, as in --retarget ltsc2019=ltsc2022",
			     arg);
		return false;
	}
	e->from_text = wg_arena_strndup(&L->p->arena, arg,
					(size_t)(eq - arg));
	e->to_text = eq + 1;
	return true;
}

/* Adds r, replacing a kept entry for the same release when the command
 * line overrides the profile; reports one written twice. */
static void add(struct wg_profile_loader *L, struct wg_retarget *all,
		size_t *n, size_t from_file, const struct wg_retarget *r,
		const struct entry *e)
{
	for (size_t i = 0; i < *n; i++) {
		if (all[i].from != r->from)
			continue;
		if (i < from_file && e->arg) {
			all[i] = *r;	/* the command line wins */
			return;
		}
		bad(L, e, e->key, "retargets %s again (%s does already)",
		    r->from->name, all[i].why);
		return;
	}
	all[(*n)++] = *r;
}

/* The embedded default lists ltsc2019, ltsc2022 and ltsc2025 as routes:
 * a retired one goes, so nothing is routed to it and no RuntimeClass is
 * made for it; pointers into the builds follow. */
static void drop_retired(struct wg_profile *p, struct wg_retarget *all,
			 size_t n)
{
	struct wg_build *kept = wg_arena_zalloc(&p->arena,
						(p->nbuilds + 1)
						* sizeof(*kept));
	size_t *map = wg_arena_zalloc(&p->arena,
				      (p->nbuilds + 1) * sizeof(*map));
	size_t nk = 0;

	for (size_t i = 0; i < p->nbuilds; i++) {
		bool retired = false;

		for (size_t k = 0; k < n; k++)
			retired = retired || all[k].from
					     == p->builds[i].release;
		map[i] = retired ? (size_t)-1 : nk;
		if (!retired)
			kept[nk++] = p->builds[i];
	}
	if (nk == p->nbuilds || nk == 0)
		return;
	for (size_t k = 0; k < n; k++)
		if (map[all[k].to - p->builds] == (size_t)-1)
			return;	/* a chain: reported, the load fails */
	for (size_t k = 0; k < n; k++)
		all[k].to = &kept[map[all[k].to - p->builds]];
	if (p->default_build) {
		size_t d = (size_t)(p->default_build - p->builds);

		if (map[d] != (size_t)-1) {
			p->default_build = &kept[map[d]];
		} else {
			for (size_t k = 0; k < n; k++)
				if (all[k].from == p->builds[d].release)
					p->default_build = all[k].to;
		}
	}
	p->builds = kept;
	p->nbuilds = nk;
}

void wg_profile_check_retarget(struct wg_profile_loader *L)
{
	struct wg_profile *p = L->p;
	const struct wg_node *m = wg_path_get(L->root, "windows.retarget");
	const struct wg_profile_opts *o = L->opts;
	size_t cap = (wg_is_map(m) ? m->len : 0) + (o ? o->nretarget : 0);
	struct wg_retarget *all = wg_arena_zalloc(&p->arena,
						  (cap + 1) * sizeof(*all));
	size_t n = 0, from_file;

	if (m && !wg_is_map(m) && !wg_node_is_null(m))
		wg_profile_report(L, WG_SEV_ERROR, m, "windows.retarget",
				  "expected a mapping of releases to builds, "
				  "as {ltsc2019: ltsc2022}");
	for (size_t i = 0; wg_is_map(m) && i < m->len; i++) {
		const struct wg_node *k = wg_map_key(m, i);
		const struct wg_node *v = wg_map_value(m, i);
		struct wg_buf f = WG_BUF_INIT;
		struct entry e = { 0 };
		struct wg_retarget r;

		wg_buf_addstr(&f, "windows.retarget");
		wg_path_append_key(&f, k->u.str, k->len);
		e.field = wg_arena_strdup(&p->arena, f.buf);
		wg_buf_release(&f);
		e.key = k;
		e.value = v;
		if (!wg_is_scalar(v) || wg_node_is_null(v) || !v->len) {
			wg_profile_report(L, WG_SEV_ERROR, v, e.field,
					  "expected a build of the profile");
			continue;
		}
		e.from_text = wg_scalar_dup(&p->arena, k);
		e.to_text = wg_scalar_dup(&p->arena, v);
		if (check_entry(L, &e, &r))
			add(L, all, &n, n, &r, &e);
	}
	from_file = n;
	for (size_t i = 0; o && i < o->nretarget; i++) {
		struct entry e;
		struct wg_retarget r;

		if (split_arg(L, o->retarget[i], &e) && check_entry(L, &e, &r))
			add(L, all, &n, from_file, &r, &e);
	}
	/* A target that is itself retired would chain (and may cycle):
	 * each workload moves once, straight to a build that stays. */
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < n; k++) {
			struct entry e = { .field = all[i].why,
					   .value = all[i].at };

			if (all[k].from != all[i].to->release)
				continue;
			if (!all[i].at)
				e.arg = all[i].why + strlen("--retarget ");
			bad(L, &e, e.value, "its target %s is itself "
			    "retargeted (%s): retarget straight to the build "
			    "that stays", all[i].to->release->name,
			    all[k].why);
		}
	}
	p->retarget = all;
	p->nretarget = n;
	if (wg_profile_is_embedded(p) && n)
		drop_retired(p, all, n);
}

const struct wg_retarget *wg_profile_retarget_of(const struct wg_profile *p,
						 const struct wg_release *r)
{
	for (size_t i = 0; r && i < p->nretarget; i++)
		if (p->retarget[i].from == r)
			return &p->retarget[i];
	return NULL;
}
