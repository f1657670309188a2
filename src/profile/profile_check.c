/*
 * The profile's meaning check: from what libcyaml loaded to struct
 * wg_profile, with defaults filled in and every problem reported with its
 * key path and position.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/input.h"
#include "wingen/base/template.h"
#include "wingen/k8s/quantity.h"

#define DEFAULT_RELEASE "ltsc2022"
#define DEFAULT_ARCH "amd64"
#define DEFAULT_HANDLER "runhcs-wcow-process"
#define DEFAULT_NAME "wingen"

/* Kind names a message lists, at most (the kinds table, kinds.h, and the
 * profile's workloads:). */
#define MAX_KIND_NAMES 64

const char *const wg_profile_arches[] = { "amd64", "arm64", NULL };
const char *const wg_profile_effects[] = {
	"NoSchedule", "PreferNoSchedule", "NoExecute", NULL,
};
#define COUNT(a) (sizeof(a) / sizeof(*(a)))
#define NARCHES (COUNT(wg_profile_arches) - 1)
#define NEFFECTS (COUNT(wg_profile_effects) - 1)

/* "base[i]rest", in the profile's arena. */
static const char *fmt_path(struct wg_profile_loader *L, const char *base,
			    size_t i, const char *rest)
{
	return wg_arena_printf(&L->p->arena, "%s[%zu]%s", base, i, rest);
}

static const char *dup(struct wg_profile_loader *L, const char *s)
{
	return s ? wg_arena_strdup(&L->p->arena, s) : NULL;
}

static int one_of(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, set[i]) == 0)
			return (int)i;
	return -1;
}

/* "unknown X 'word'; did you mean 'y'?" or "...; one of a, b, c". */
static void bad_choice(struct wg_profile_loader *L, const char *field,
		       const char *what, const char *word,
		       const char *const *set, size_t n)
{
	const char *hint = wg_suggest(word, set, n);
	struct wg_buf all = WG_BUF_INIT;

	if (hint) {
		wg_profile_report(L, WG_SEV_ERROR, NULL, field,
				  "unknown %s '%s'; did you mean '%s'?", what,
				  word, hint);
		return;
	}
	for (size_t i = 0; i < n; i++)
		wg_buf_addf(&all, "%s%s", i ? ", " : "", set[i]);
	wg_profile_report(L, WG_SEV_ERROR, NULL, field,
			  "unknown %s '%s' (one of: %s)", what, word, all.buf);
	wg_buf_release(&all);
}

/* ---- files: resources and templates ------------------------------------ */

static const char *join(struct wg_profile_loader *L, const char *rel)
{
	const char *dir = L->p->dir;

	if (rel[0] == '/' || strcmp(dir, ".") == 0)
		return dup(L, rel);
	return wg_arena_printf(&L->p->arena, "%s/%s", dir, rel);
}

/* Whether real (a resolved path) lies in root (resolved) or is root. */
static bool inside(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return true;
	return strncmp(real, root, n) == 0
	       && (real[n] == '\0' || real[n] == '/');
}

/*
 * Checks that path (as joined) exists and, under the load restrictor, that
 * it resolves (symbolic links followed) to somewhere inside the profile's
 * folder.  want_dir: 1 a folder, 0 anything.  Returns 0 or -1 (reported).
 */
static int check_path(struct wg_profile_loader *L, const char *field,
		      const char *written, const char *path, int want_dir)
{
	char real[PATH_MAX], root[PATH_MAX];
	struct stat st;
	int err;

	if (!realpath(path, real)) {
		err = errno;
		if (err == ENOENT || err == ENOTDIR)
			return wg_profile_report(L, WG_SEV_ERROR, NULL, field,
						 "'%s' does not exist",
						 written);
		return wg_profile_report(L, WG_SEV_ERROR, NULL, field,
					 "cannot resolve '%s': %s", written,
					 strerror(err));
	}
	if (!L->p->load_restrictor_none && !realpath(L->p->dir, root))
		return wg_profile_report(L, WG_SEV_ERROR, NULL, field,
					 "cannot resolve the profile's folder "
					 "'%s': %s", L->p->dir,
					 strerror(errno));
	if (!L->p->load_restrictor_none && !inside(root, real))
		return wg_profile_report(L, WG_SEV_ERROR, NULL, field,
					 "'%s' is outside the profile's folder "
					 "(allow it with --load-restrictor "
					 "none)", written);
	if (want_dir && (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)))
		return wg_profile_report(L, WG_SEV_ERROR, NULL, field,
					 "'%s' is not a folder", written);
	return 0;
}

/*
 * A folder in resources: may not hold a symbolic link that leads outside
 * the profile's folder (the command walks it again to read it).
 */
static void check_links(struct wg_profile_loader *L, const char *path)
{
	struct wg_pathlist files = { 0 };
	char root[PATH_MAX];

	if (realpath(L->p->dir, root))
		wg_collect_files_within(L->ctx, path, root, &files);
	wg_pathlist_release(&files);
}

static void check_resources(struct wg_profile_loader *L,
			    const struct raw_profile *raw)
{
	struct wg_profile *p = L->p;
	bool stdin_seen = false;

	p->nresources = raw->resources_count;
	p->resources = wg_arena_zalloc(&p->arena, (p->nresources + 1)
				       * sizeof(*p->resources));
	p->resource_paths = wg_arena_zalloc(&p->arena, (p->nresources + 1)
					    * sizeof(*p->resource_paths));
	for (size_t i = 0; i < p->nresources; i++) {
		const char *r = raw->resources[i];
		const char *field = fmt_path(L, "resources", i, "");

		p->resources[i] = dup(L, r);
		if (!*r) {
			wg_profile_report(L, WG_SEV_ERROR, NULL, field,
					  "an empty path");
			continue;
		}
		if (strcmp(r, "-") == 0) {
			if (stdin_seen)
				wg_profile_report(L, WG_SEV_ERROR, NULL, field,
						  "'-' (stdin) is listed "
						  "twice");
			stdin_seen = true;
			p->resource_paths[i] = "-";
			continue;
		}
		p->resource_paths[i] = join(L, r);
		if (check_path(L, field, r, p->resource_paths[i], 0) == 0
		    && !p->load_restrictor_none)
			check_links(L, p->resource_paths[i]);
	}
}

static void check_templates(struct wg_profile_loader *L,
			    const struct raw_profile *raw)
{
	struct wg_profile *p = L->p;
	const char *cli = L->opts ? L->opts->templates : NULL;

	if (raw->templates) {
		p->templates = dup(L, raw->templates);
		p->templates_path = join(L, raw->templates);
		if (!cli)
			check_path(L, "templates", raw->templates,
				   p->templates_path, 1);
	}
	if (cli) {
		struct stat st;

		/* A command-line folder is the user's own choice, as -f is:
		 * the load restrictor is for what a profile pulls in. */
		p->templates = dup(L, cli);
		p->templates_path = p->templates;
		if (stat(cli, &st) != 0 || !S_ISDIR(st.st_mode))
			wg_report_at(L->ctx, WG_SEV_ERROR, cli, 0, 0,
				     "--templates: not a folder");
	}
}

/* ---- windows.builds ----------------------------------------------------- */

static bool is_build_number(const char *s)
{
	return strncmp(s, "10.0.", 5) == 0 && s[5]
	       && strspn(s + 5, "0123456789") == strlen(s + 5);
}

static void known_releases(struct wg_buf *out)
{
	for (const struct wg_release *r = wg_releases; r->name; r++)
		wg_buf_addf(out, "%s%s", r == wg_releases ? "" : ", ",
			    r->name);
}

static const struct wg_release *check_release(struct wg_profile_loader *L,
					      size_t i, const char *name)
{
	const char *field = fmt_path(L, "windows.builds", i,
				     ".release");
	const struct wg_release *r = wg_release_find(name);
	const char *names[32];
	size_t n = 0;
	const char *hint;
	struct wg_buf all = WG_BUF_INIT;

	if (r)
		return r;
	for (const struct wg_release *c = wg_releases; c->name && n < 32; c++)
		names[n++] = c->name;
	hint = wg_suggest(name, names, n);
	known_releases(&all);
	if (hint)
		wg_profile_report(L, WG_SEV_ERROR, NULL, field,
				  "unknown release '%s'; did you mean '%s'?",
				  name, hint);
	else
		wg_profile_report(L, WG_SEV_ERROR, NULL, field,
				  "unknown release '%s' (known: %s)", name,
				  all.buf);
	wg_buf_release(&all);
	return NULL;
}

/* Kubernetes resource quantity: a non-negative decimal with an optional
 * binary (Ki..Ei), decimal (n, u, m, k, M..E) or exponent suffix. */
/* A quantity ParseQuantity reads (quantity.h), not negative: the API
 * server validates overhead.podFixed as container limits. */
static bool is_quantity(const char *s, size_t len)
{
	struct wg_quantity q;

	return wg_quantity_parse(s, len, &q) == 0 && !q.neg;
}

/* A container resource name as the API server validates it: a qualified
 * name, and a standard one when it has no prefix. */
static bool is_resource_name(const char *s)
{
	static const char *const standard[] = {
		"cpu", "memory", "ephemeral-storage",
	};

	if (!wg_is_label_key(s))
		return false;
	if (strchr(s, '/'))
		return true;
	return one_of(s, standard, COUNT(standard)) >= 0
	       || (strncmp(s, "hugepages-", 10) == 0 && s[10]);
}

static const struct wg_node *check_overhead(struct wg_profile_loader *L,
					    size_t i)
{
	const char *field = fmt_path(L, "windows.builds", i,
				     ".overhead");
	const struct wg_node *o = wg_path_get(L->root, field);
	const struct wg_node *pf;
	static const char *const keys[] = { "podFixed" };
	int errors = 0;

	if (!o)
		return NULL;
	if (!wg_is_map(o)) {
		wg_profile_report(L, WG_SEV_ERROR, o, field,
				  "expected a mapping with podFixed");
		return NULL;
	}
	for (size_t k = 0; k < o->len; k++) {
		const struct wg_node *key = wg_map_key(o, k);
		char *name = wg_scalar_dup(&L->p->arena, key);
		const char *kf = wg_arena_printf(&L->p->arena, "%s.%s", field,
						 name);

		if (strcmp(name, "podFixed") == 0)
			continue;
		if (wg_suggest(name, keys, 1))
			wg_profile_report(L, WG_SEV_ERROR, key, kf,
					  "unknown key '%s'; did you mean "
					  "'podFixed'?", name);
		else
			wg_profile_report(L, WG_SEV_ERROR, key, kf,
					  "unknown key '%s'", name);
		errors++;
	}
	pf = wg_map_get(o, "podFixed");
	field = wg_arena_printf(&L->p->arena, "%s.podFixed", field);
	if (!pf) {
		if (!errors)
			wg_profile_report(L, WG_SEV_ERROR, o, field,
					  "missing: overhead needs podFixed");
		return NULL;
	}
	if (!wg_is_map(pf) || pf->len == 0) {
		wg_profile_report(L, WG_SEV_ERROR, pf, field,
				  "expected a non-empty mapping of resource "
				  "names to quantities");
		return NULL;
	}
	for (size_t k = 0; k < pf->len; k++) {
		const struct wg_node *key = wg_map_key(pf, k);
		const struct wg_node *v = wg_map_value(pf, k);
		char *name = wg_scalar_dup(&L->p->arena, key);
		struct wg_buf kf = WG_BUF_INIT;

		wg_buf_addstr(&kf, field);
		wg_path_append_key(&kf, key->u.str, key->len);
		if (!is_resource_name(name)) {
			wg_profile_report(L, WG_SEV_ERROR, key, kf.buf,
					  "'%s' is not a resource name (cpu, "
					  "memory, ephemeral-storage, "
					  "hugepages-*, or a prefixed name)",
					  name);
			errors++;
		} else if (!wg_is_scalar(v) || !is_quantity(v->u.str, v->len)) {
			if (wg_is_scalar(v))
				wg_profile_report(L, WG_SEV_ERROR, v, kf.buf,
						  "'%.*s' is not a quantity "
						  "(e.g. 100m, 128Mi)",
						  (int)v->len, v->u.str);
			else
				wg_profile_report(L, WG_SEV_ERROR, v, kf.buf,
						  "expected a quantity");
			errors++;
		}
		wg_buf_release(&kf);
	}
	return errors ? NULL : pf;
}

static char *default_runtime_class(struct wg_profile_loader *L,
				   const struct wg_release *r,
				   const char *arch)
{
	char *s;

	if (strcmp(arch, DEFAULT_ARCH) == 0)
		s = wg_arena_printf(&L->p->arena, "windows-%s", r->name);
	else
		s = wg_arena_printf(&L->p->arena, "windows-%s-%s", r->name,
				    arch);
	for (char *c = s; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	return s;
}

/*
 * A build number the catalogue does not know (a release newer than this
 * wingen, an Insider build): kept, as wingen init writes what the nodes
 * run, with a warning.  Its entry lives in the profile's arena, named by
 * the number; no base image is known to run on it.
 */
static const struct wg_release *uncatalogued(struct wg_profile_loader *L,
					     size_t i, const char *build)
{
	struct wg_release *r = wg_arena_zalloc(&L->p->arena, sizeof(*r));
	const struct wg_release *newest = wg_releases;

	for (const struct wg_release *c = wg_releases; c->name; c++)
		if (c->number > newest->number)
			newest = c;
	r->build = dup(L, build);
	r->name = r->build;
	r->number = (unsigned)strtoul(build + 5, NULL, 10);
	r->note = "not in wingen's catalogue";
	wg_profile_report(L, WG_SEV_WARNING, NULL,
			  fmt_path(L, "windows.builds", i, ".build"),
			  "build '%s' is not in wingen's catalogue (the newest "
			  "it knows is %s, %s; see 'wingen builds'): kept, but "
			  "which images run on it cannot be checked", build,
			  newest->build, newest->name);
	return r;
}

static bool check_build(struct wg_profile_loader *L, size_t i,
			const struct raw_build *rb, struct wg_build *b)
{
	const struct wg_release *by_name = NULL, *by_number = NULL;
	const char *f_release = fmt_path(L, "windows.builds", i,
					 ".release");
	const char *f_build = fmt_path(L, "windows.builds", i, ".build");
	const char *f_entry = fmt_path(L, "windows.builds", i, "");
	bool ok = true;

	b->pos.line = wg_profile_node(L, f_entry)->line + 1;
	b->pos.col = wg_profile_node(L, f_entry)->col + 1;
	if (rb->release && !(by_name = check_release(L, i, rb->release)))
		ok = false;
	if (rb->build) {
		if (!is_build_number(rb->build)) {
			wg_profile_report(L, WG_SEV_ERROR, NULL, f_build,
					  "'%s' is not a build number like "
					  "10.0.20348", rb->build);
			ok = false;
		} else if (!(by_number = wg_release_find(rb->build))
			   && by_name) {
			wg_profile_report(L, WG_SEV_ERROR, NULL, f_build,
					  "build '%s' is not that of release "
					  "'%s' (%s)", rb->build, by_name->name,
					  by_name->build);
			ok = false;
		} else if (!by_number && !rb->release) {
			by_number = uncatalogued(L, i, rb->build);
		}
	}
	if (ok && by_name && by_number && by_name != by_number) {
		wg_profile_report(L, WG_SEV_ERROR, NULL, f_build,
				  "build '%s' is release '%s', not '%s'",
				  rb->build, by_number->name, by_name->name);
		ok = false;
	}
	if (!rb->release && !rb->build) {
		wg_profile_report(L, WG_SEV_ERROR, NULL, f_entry,
				  "give a release (e.g. ltsc2022) or a build "
				  "(e.g. 10.0.20348)");
		ok = false;
	}
	b->release = by_name ? by_name : by_number;
	if (ok && !wg_release_find(b->release->build))
		;	/* not in the catalogue: warned above */
	else if (wg_profile_is_embedded(L->p))
		;	/* the embedded default's legacy ltsc2019 is a route,
			   warned per workload routed to it (core/select.c) */
	else if (ok && b->release->end_of_life)
		wg_profile_report(L, WG_SEV_WARNING, NULL,
				  rb->release ? f_release : f_build,
				  "release '%s' is end of life: %s",
				  b->release->name, b->release->note);
	else if (ok && !b->release->supported)
		wg_profile_report(L, WG_SEV_WARNING, NULL,
				  rb->release ? f_release : f_build,
				  "release '%s' is not supported by current "
				  "Kubernetes releases (%s)", b->release->name,
				  b->release->note);

	b->arch = dup(L, rb->arch ? rb->arch : DEFAULT_ARCH);
	if (one_of(b->arch, wg_profile_arches, NARCHES) < 0) {
		bad_choice(L, fmt_path(L, "windows.builds", i, ".arch"),
			   "arch", b->arch, wg_profile_arches, NARCHES);
		ok = false;
	} else if (ok && strcmp(b->arch, "arm64") == 0
		   && !wg_release_arm64_images(b->release)) {
		wg_profile_report(L, WG_SEV_WARNING, NULL,
				  fmt_path(L, "windows.builds", i,
					   ".arch"),
				  "arm64 Windows base images exist only from "
				  "ltsc2025 on, not for '%s'",
				  b->release->name);
	}

	b->handler = dup(L, rb->handler ? rb->handler : DEFAULT_HANDLER);
	if (!wg_is_dns_label(b->handler)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  fmt_path(L, "windows.builds", i,
					   ".handler"),
				  "'%s' is not a DNS label (lowercase letters, "
				  "digits and '-', at most 63)", b->handler);
		ok = false;
	}
	if (rb->runtime_class)
		b->runtime_class = dup(L, rb->runtime_class);
	else if (b->release)
		b->runtime_class = default_runtime_class(L, b->release,
							 b->arch);
	if (b->runtime_class && !wg_is_dns_subdomain(b->runtime_class)) {
		wg_profile_report(L, WG_SEV_ERROR, NULL,
				  fmt_path(L, "windows.builds", i,
					   ".runtimeClass"),
				  "'%s' is not a DNS subdomain (lowercase "
				  "letters, digits, '-' and '.', at most 253)",
				  b->runtime_class);
		ok = false;
	}
	b->overhead = check_overhead(L, i);
	if (wg_path_get(L->root, fmt_path(L, "windows.builds", i,
					  ".overhead")) && !b->overhead)
		ok = false;
	return ok;
}

static void check_builds(struct wg_profile_loader *L,
			 const struct raw_windows *w)
{
	struct wg_profile *p = L->p;
	static const struct raw_build fallback = { DEFAULT_RELEASE, NULL,
						   NULL, NULL, NULL };
	const struct raw_build *rbs = &fallback;
	size_t n = 1;

	if (w && w->builds) {
		rbs = w->builds;
		n = w->builds_count;
	}
	/* libcyaml gives no array for "builds: []": the tree says it was
	 * written, and an empty list is no cluster (not the default). */
	if (n == 0 || (!(w && w->builds)
		       && wg_is_seq(wg_path_get(L->root, "windows.builds")))) {
		wg_profile_report(L, WG_SEV_ERROR, NULL, "windows.builds",
				  "at least one build is required");
		n = 0;
	}
	p->builds = wg_arena_zalloc(&p->arena, (n + 1) * sizeof(*p->builds));
	p->nbuilds = 0;
	for (size_t i = 0; i < n; i++) {
		struct wg_build *b = &p->builds[p->nbuilds];
		bool ok = check_build(L, i, &rbs[i], b);

		for (size_t j = 0; ok && j < p->nbuilds; j++) {
			const struct wg_build *o = &p->builds[j];
			const char *f = fmt_path(L, "windows.builds", i,
						 "");

			if (!o->release || !o->runtime_class)
				continue;	/* bad itself: reported */
			if (o->release == b->release
			    && strcmp(o->arch, b->arch) == 0
			    && strcmp(o->handler, b->handler) == 0) {
				wg_profile_report(L, WG_SEV_ERROR, NULL, f,
						  "duplicate build: the same "
						  "release, arch and handler "
						  "as windows.builds[%zu]", j);
				ok = false;
			} else if (strcmp(o->runtime_class,
					  b->runtime_class) == 0) {
				f = fmt_path(L, "windows.builds", i,
					     ".runtimeClass");
				wg_profile_report(L, WG_SEV_ERROR, NULL, f,
						  "runtimeClass '%s' is also "
						  "the name of windows.builds"
						  "[%zu]; give each build its "
						  "own", b->runtime_class, j);
				ok = false;
			}
		}
		/* Keep indexes equal to the profile's for messages: a bad
		 * entry still takes its slot (the load fails anyway). */
		p->nbuilds++;
	}
}

static void check_default(struct wg_profile_loader *L,
			  const struct raw_windows *w)
{
	struct wg_profile *p = L->p;
	const char *name = w ? w->default_ : NULL;

	if (!p->nbuilds)
		return;
	if (!name) {
		p->default_build = &p->builds[0];
		return;
	}
	p->default_build = wg_profile_find_build(p, name);
	if (!p->default_build) {
		struct wg_buf all = WG_BUF_INIT;

		for (size_t i = 0; i < p->nbuilds; i++)
			if (p->builds[i].release)
				wg_buf_addf(&all, "%s%s", all.len ? ", " : "",
					    p->builds[i].release->name);
		wg_profile_report(L, WG_SEV_ERROR, NULL, "windows.default",
				  "'%s' is not one of windows.builds (%s)",
				  name, all.buf);
		wg_buf_release(&all);
		p->default_build = &p->builds[0];
	}
}

/* ---- windows.taint ------------------------------------------------------ */

static void check_taint(struct wg_profile_loader *L,
			const struct raw_windows *w)
{
	struct wg_taint *t = &L->p->taint;
	const struct raw_taint *rt = w ? w->taint : NULL;

	if (!rt) {
		t->key = "os";
		t->value = "windows";
		t->effect = "NoSchedule";
		return;
	}
	t->key = dup(L, rt->key);
	t->value = dup(L, rt->value);
	t->effect = dup(L, rt->effect ? rt->effect : "NoSchedule");
	if (!t->key)
		wg_profile_report(L, WG_SEV_ERROR, NULL, "windows.taint",
				  "missing required key 'key'");
	else if (!wg_is_label_key(t->key))
		wg_profile_report(L, WG_SEV_ERROR, NULL, "windows.taint.key",
				  "'%s' is not a valid taint key", t->key);
	if (t->value && !wg_is_label_value(t->value))
		wg_profile_report(L, WG_SEV_ERROR, NULL, "windows.taint.value",
				  "'%s' is not a valid taint value", t->value);
	if (one_of(t->effect, wg_profile_effects, NEFFECTS) < 0)
		bad_choice(L, "windows.taint.effect", "effect", t->effect,
			   wg_profile_effects, NEFFECTS);
}

/* ---- windows.select ----------------------------------------------------- */

/*
 * A node placed at byte offset of a scalar's source (when it maps 1:1),
 * to point a message at the character PCRE2 or the selector parser
 * stopped at.
 */
static const struct wg_node *offset_pos(struct wg_arena *arena,
					const struct wg_node *n,
					const char *text, size_t offset)
{
	size_t chars = 0;
	bool simple = n->style == WG_STYLE_PLAIN
		      || (n->style == WG_STYLE_SINGLE && !strchr(text, '\''))
		      || (n->style == WG_STYLE_DOUBLE
			  && !strpbrk(text, "\\\""));

	if (!simple || strchr(text, '\n'))
		return n;
	for (size_t i = 0; i < offset && text[i]; i++)
		if (((unsigned char)text[i] & 0xc0) != 0x80)
			chars++;
	return wg_node_new_at(arena, WG_NODE_SCALAR, NULL, wg_node_line(n),
			      wg_node_col(n) + (uint32_t)(chars
				+ (n->style != WG_STYLE_PLAIN)));
}

static struct wg_regex *compile(struct wg_profile_loader *L,
				const char *field, const char *pattern,
				bool anchored, struct wg_regex *into)
{
	struct wg_regex *re = into ? into
			      : wg_arena_zalloc(&L->p->arena, sizeof(*re));
	const char *error;
	size_t offset;

	if (wg_regex_compile(re, pattern, anchored,
			     L->ctx->limits.regex_match_limit,
			     L->ctx->limits.regex_depth_limit, &L->p->arena,
			     &error, &offset) == 0)
		return re;
	{
		const struct wg_node *n = wg_path_get(L->root, field);

		if (n)
			n = offset_pos(&L->p->arena, n, pattern, offset);
		wg_profile_report(L, WG_SEV_ERROR, n, field,
				  "'%s' is not a valid PCRE2 pattern: %s at "
				  "offset %zu", pattern, error, offset);
	}
	return NULL;
}

static struct wg_label_selector *selector(struct wg_profile_loader *L,
					  const char *field, const char *text)
{
	struct wg_label_selector *sel = wg_arena_zalloc(&L->p->arena,
							sizeof(*sel));
	const char *error;
	size_t offset;

	if (wg_label_selector_parse(&L->p->arena, text, sel, &error,
				    &offset) == 0)
		return sel;
	{
		const struct wg_node *n = wg_path_get(L->root, field);

		if (n)
			n = offset_pos(&L->p->arena, n, text, offset);
		wg_profile_report(L, WG_SEV_ERROR, n, field,
				  "'%s' is not a valid selector: %s at offset "
				  "%zu", text, error, offset);
	}
	return NULL;
}

static void check_select_entry(struct wg_profile_loader *L, size_t i,
			       const struct raw_select *rs,
			       struct wg_select *s)
{
	const char *base = fmt_path(L, "windows.select", i, "");
	const struct wg_node *at = wg_profile_node(L, base);

	s->pos.line = wg_node_line(at) + 1;
	s->pos.col = wg_node_col(at) + 1;
	if (!rs->kinds_count && !rs->name && !rs->namespace_ && !rs->image
	    && !rs->label_selector && !rs->annotation_selector) {
		wg_profile_report(L, WG_SEV_ERROR, NULL, base,
				  "an empty entry would select every "
				  "workload: give kinds, name, namespace, "
				  "image, labelSelector or "
				  "annotationSelector");
	}
	s->nkinds = rs->kinds_count;
	s->kinds = wg_arena_zalloc(&L->p->arena,
				   (s->nkinds + 1) * sizeof(*s->kinds));
	for (size_t k = 0; k < s->nkinds; k++) {
		const char *names[MAX_KIND_NAMES];
		size_t n;

		s->kinds[k] = dup(L, rs->kinds[k]);
		if (wg_kind_named(&L->p->kinds, s->kinds[k],
				  strlen(s->kinds[k])))
			continue;
		n = wg_kind_names(&L->p->kinds, names, MAX_KIND_NAMES);
		bad_choice(L, wg_arena_printf(&L->p->arena, "%s.kinds[%zu]",
					      base, k),
			   "workload kind", s->kinds[k], names,
			   n < MAX_KIND_NAMES ? n : MAX_KIND_NAMES);
	}
	if (rs->name)
		s->name = compile(L, wg_arena_printf(&L->p->arena, "%s.name",
						     base), rs->name, true,
				  NULL);
	if (rs->namespace_)
		s->namespace_ = compile(L, wg_arena_printf(&L->p->arena,
							   "%s.namespace",
							   base),
					rs->namespace_, true, NULL);
	if (rs->image)
		s->image = compile(L, wg_arena_printf(&L->p->arena, "%s.image",
						      base), rs->image, false,
				   NULL);
	if (rs->label_selector)
		s->labels = selector(L, wg_arena_printf(&L->p->arena,
							"%s.labelSelector",
							base),
				     rs->label_selector);
	if (rs->annotation_selector)
		s->annotations = selector(L, wg_arena_printf(
						  &L->p->arena,
						  "%s.annotationSelector",
						  base),
					  rs->annotation_selector);
	s->nbuilds = rs->builds_count;
	s->builds = wg_arena_zalloc(&L->p->arena,
				    (s->nbuilds + 1) * sizeof(*s->builds));
	for (size_t k = 0; k < s->nbuilds; k++) {
		s->builds[k] = wg_profile_find_build(L->p, rs->builds[k]);
		if (!s->builds[k])
			wg_profile_report(L, WG_SEV_ERROR, NULL,
					  wg_arena_printf(&L->p->arena,
							  "%s.builds[%zu]",
							  base, k),
					  "'%s' is not one of windows.builds",
					  rs->builds[k]);
	}
}

/* The embedded default profile's select entries, for a profile that has
 * no windows.select of its own: one source for the Windows image list. */
static struct raw_profile *default_raw(struct wg_ctx *ctx)
{
	const struct wg_template *t = wg_template_find(WG_PROFILE_DEFAULT);
	struct raw_profile *raw = NULL;

	if (t)
		wg_profile_cyaml_load(ctx, WG_PROFILE_EMBEDDED_PATH, t->data, t->len, NULL,
				      &raw);
	return raw;
}

static void check_select(struct wg_profile_loader *L,
			 const struct raw_windows *w)
{
	struct wg_profile *p = L->p;
	struct raw_profile *def = NULL;
	const struct raw_select *rs;
	size_t n;

	if (w && w->select) {
		rs = w->select;
		n = w->select_count;
	} else {
		def = default_raw(L->ctx);
		rs = def && def->windows ? def->windows->select : NULL;
		n = rs ? def->windows->select_count : 0;
	}
	p->nselect = n;
	p->select = wg_arena_zalloc(&p->arena, (n + 1) * sizeof(*p->select));
	for (size_t i = 0; i < n; i++) {
		check_select_entry(L, i, &rs[i], &p->select[i]);
		if (def)	/* not written in this profile */
			p->select[i].pos.line = p->select[i].pos.col = 0;
	}
	if (def)
		wg_profile_cyaml_free(def);
}

static void check_images(struct wg_profile_loader *L,
			 const struct raw_windows *w)
{
	struct wg_profile *p = L->p;
	size_t n = w && w->images ? w->images_count : 0;

	p->nimages = n;
	p->images = wg_arena_zalloc(&p->arena, (n + 1) * sizeof(*p->images));
	for (size_t i = 0; i < n; i++) {
		const struct raw_image_rule *ri = &w->images[i];
		struct wg_image_rule *img = &p->images[i];
		const char *base = fmt_path(L, "windows.images", i, "");
		const struct wg_node *at = wg_profile_node(L, base);

		img->pos.line = at->line + 1;
		img->pos.col = at->col + 1;
		if (!ri->match)
			wg_profile_report(L, WG_SEV_ERROR, NULL, base,
					  "missing required key 'match'");
		else
			compile(L, wg_arena_printf(&p->arena, "%s.match",
						   base), ri->match, false,
				&img->match);
		if (!ri->replace)
			wg_profile_report(L, WG_SEV_ERROR, NULL, base,
					  "missing required key 'replace'");
		img->replace = dup(L, ri->replace);
	}
}

/* ---- transforms --------------------------------------------------------- */

/* Records one transforms: entry; src/chain/chain.c resolves it. */
static void add_step(struct wg_profile_loader *L, const struct wg_node *at,
		     const char *field, const char *name,
		     const struct wg_node *config)
{
	struct wg_step_spec *e = &L->p->chain[L->p->nchain++];

	e->name = name;
	e->at = at;
	e->field = field;
	e->config = config;
}

static void unknown_key(struct wg_profile_loader *L,
			const struct wg_node *at, const char *field,
			const char *key, const char *hint)
{
	if (hint)
		wg_profile_report(L, WG_SEV_ERROR, at, field, "unknown key "
				  "'%s'; did you mean '%s'?", key, hint);
	else
		wg_profile_report(L, WG_SEV_ERROR, at, field, "unknown key "
				  "'%s'", key);
}

static void check_transforms(struct wg_profile_loader *L)
{
	struct wg_profile *p = L->p;
	const struct wg_node *t = wg_map_get(L->root, "transforms");
	static const char *const entry_keys[] = { "name", "config" };

	if (!t) {	/* every plugin: the registry's to list */
		p->chain_default = true;
		return;
	}
	if (!wg_is_seq(t)) {
		wg_profile_report(L, WG_SEV_ERROR, t, "transforms",
				  "expected a sequence of plugin names");
		return;
	}
	p->chain = wg_arena_zalloc(&p->arena,
				   (t->len + 1) * sizeof(*p->chain));
	for (size_t i = 0; i < t->len; i++) {
		const struct wg_node *e = wg_seq_item(t, i);
		const char *field = fmt_path(L, "transforms", i, "");
		const struct wg_node *name = e, *config = NULL;

		if (wg_is_map(e)) {
			for (size_t k = 0; k < e->len; k++) {
				const struct wg_node *key = wg_map_key(e, k);
				char *s = wg_scalar_dup(&p->arena, key);
				const char *hint;

				if (one_of(s, entry_keys, 2) >= 0)
					continue;
				hint = wg_suggest(s, entry_keys, 2);
				unknown_key(L, key, wg_arena_printf(
						    &p->arena, "%s.%s", field,
						    s), s, hint);
			}
			name = wg_map_get(e, "name");
			config = wg_map_get(e, "config");
			if (wg_node_is_null(config))
				config = NULL;
			if (!name) {
				wg_profile_report(L, WG_SEV_ERROR, e, field,
						  "missing required key "
						  "'name'");
				continue;
			}
			field = fmt_path(L, "transforms", i, ".name");
		}
		if (!wg_is_scalar(name) || wg_node_is_null(name)) {
			wg_profile_report(L, WG_SEV_ERROR, name, field,
					  "expected a plugin name");
			continue;
		}
		add_step(L, name, field, wg_scalar_dup(&p->arena, name),
			 config);
	}
}

/* ---- the whole check ---------------------------------------------------- */

void wg_profile_check(struct wg_profile_loader *L,
		      const struct raw_profile *raw)
{
	struct wg_profile *p = L->p;

	if (strcmp(raw->api_version, WG_PROFILE_API_VERSION) != 0)
		wg_profile_report(L, WG_SEV_ERROR, NULL, "apiVersion",
				  "'%s' is not supported: use %s",
				  raw->api_version, WG_PROFILE_API_VERSION);
	if (strcmp(raw->kind, WG_PROFILE_KIND) != 0)
		wg_profile_report(L, WG_SEV_ERROR, NULL, "kind",
				  "'%s' is not a profile: use %s", raw->kind,
				  WG_PROFILE_KIND);
	p->name = dup(L, raw->metadata && raw->metadata->name
		      ? raw->metadata->name : DEFAULT_NAME);
	if (!wg_is_dns_subdomain(p->name))
		wg_profile_report(L, WG_SEV_ERROR, NULL, "metadata.name",
				  "'%s' is not a DNS subdomain", p->name);
	check_resources(L, raw);
	check_templates(L, raw);
	check_builds(L, raw->windows);
	check_default(L, raw->windows);
	wg_profile_check_retarget(L);
	check_taint(L, raw->windows);
	wg_profile_check_workloads(L, raw);
	check_select(L, raw->windows);
	check_images(L, raw->windows);
	check_transforms(L);
}
