/*
 * The profile's JSON Schema, made from the libcyaml schema and the
 * documentation beside each of its fields (profile_schema.c): a walk over
 * the same table the loader checks a profile's tree against, so a key
 * added there appears here, or the walk fails naming it.
 */
#include "wingen/profile/schema.h"

#include <string.h>

#include "profile_internal.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/nodes.h"

#define SCHEMA_DIALECT "https://json-schema.org/draft/2020-12/schema"

/* Kubernetes names as apimachinery validates them (k8s/labelsel.h). */
#define DNS_LABEL "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS_SUBDOMAIN DNS_LABEL "(\\." DNS_LABEL ")*"
#define NAME_PART "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"

struct gen {
	struct wg_arena *arena;
	const struct wg_profile_schema_plugins *plugins;
	struct wg_buf path;	/* the key being made, for errors */
	const char *error;
};

/* ---- tree helpers ------------------------------------------------------- */

/* Back to the first len bytes of the key path. */
static void cut(struct wg_buf *b, size_t len)
{
	b->len = len;
	if (b->cap)
		b->buf[len] = '\0';
}

static struct wg_node *str(struct gen *g, const char *s)
{
	return wg_node_new_str(g->arena, s);
}

static struct wg_node *put(struct gen *g, struct wg_node *m, const char *key,
			   struct wg_node *v)
{
	return wg_map_set(g->arena, m, key, v);
}

static void put_str(struct gen *g, struct wg_node *m, const char *key,
		    const char *s)
{
	put(g, m, key, str(g, s));
}

static void put_num(struct gen *g, struct wg_node *m, const char *key,
		    unsigned n)
{
	put(g, m, key, wg_node_new_plain(g->arena,
					 wg_arena_printf(g->arena, "%u", n)));
}

static void put_true(struct gen *g, struct wg_node *m, const char *key,
		     bool v)
{
	put(g, m, key, wg_node_new_plain(g->arena, v ? "true" : "false"));
}

static struct wg_node *strings(struct gen *g, const char *const *list)
{
	struct wg_node *s = wg_node_new_seq(g->arena);

	for (size_t i = 0; list && list[i]; i++)
		wg_seq_append(g->arena, s, str(g, list[i]));
	return s;
}

/* A schema object that says only what it says. */
static struct wg_node *schema(struct gen *g, const char *description)
{
	struct wg_node *s = wg_node_new_map(g->arena);

	if (description)
		put_str(g, s, "description", description);
	return s;
}

/*
 * A scalar the loader reads as a string: any YAML scalar but null, since
 * the loader takes the text (release: 2022 is the alias "2022").  A
 * pattern constrains the strings only.
 */
static void scalar_type(struct gen *g, struct wg_node *s)
{
	put(g, s, "type", strings(g, (const char *const[]){ "string",
		"number", "boolean", NULL }));
}

/* s becomes an object of exactly props, required (NULL-ended) among
 * them. */
static void closed(struct gen *g, struct wg_node *s, struct wg_node *props,
		   const char *const *required)
{
	put_str(g, s, "type", "object");
	put(g, s, "properties", props);
	if (required && required[0])
		put(g, s, "required", strings(g, required));
	put_true(g, s, "additionalProperties", false);
}

static void pattern(struct gen *g, struct wg_node *s, const char *re,
		    unsigned max_len)
{
	put_str(g, s, "pattern", wg_arena_printf(g->arena, "^%s$", re));
	if (max_len)
		put_num(g, s, "maxLength", max_len);
}

/* ---- values from the tables ---------------------------------------------- */

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* re gets s with each letter as [Xx]: the catalogue's names are
 * matched without regard to case (wg_release_find). */
static void any_case(struct wg_buf *re, const char *s)
{
	for (; *s; s++) {
		char c = *s, lo = c, up = c;

		if (c >= 'a' && c <= 'z')
			up = (char)(c - 'a' + 'A');
		else if (c >= 'A' && c <= 'Z')
			lo = (char)(c - 'A' + 'a');
		if (lo != up)
			wg_buf_addf(re, "[%c%c]", up, lo);
		else if (strchr(".\\^$|?*+()[]{}", c))
			wg_buf_addf(re, "\\%c", c);
		else
			wg_buf_addch(re, c);
	}
}

/*
 * A release of the catalogue, as wg_release_find() takes it: a name or an
 * alias in any case, or a catalogued build number ("10.0.20348", leading
 * zeros allowed).  The enum lists what editors offer (numbers too, for an
 * alias YAML reads as one, unless key: a mapping key is a string); the
 * pattern accepts every spelling.
 */
static struct wg_node *release_values(struct gen *g, const char *description,
				      bool key)
{
	struct wg_node *s = schema(g, description), *any = wg_node_new_seq(g->arena);
	struct wg_node *e = schema(g, NULL), *list = wg_node_new_seq(g->arena);
	struct wg_node *p = schema(g, NULL), *nums = wg_node_new_seq(g->arena);
	struct wg_buf re = WG_BUF_INIT;

	wg_buf_addstr(&re, "(");
	for (const struct wg_release *r = wg_releases; r->name; r++) {
		const char *names[4] = { r->name, r->aliases[0], r->aliases[1],
					 r->aliases[2] };

		for (size_t i = 0; i < 4 && names[i]; i++) {
			wg_seq_append(g->arena, list, str(g, names[i]));
			if (all_digits(names[i]) && !key)
				wg_seq_append(g->arena, nums,
					      wg_node_new_plain(g->arena,
								names[i]));
			if (re.len > 1)
				wg_buf_addch(&re, '|');
			any_case(&re, names[i]);
		}
	}
	wg_buf_addstr(&re, "|10\\.0\\.0*(");
	for (const struct wg_release *r = wg_releases; r->name; r++)
		wg_buf_addf(&re, "%s%u", r == wg_releases ? "" : "|",
			    r->number);
	wg_buf_addstr(&re, "))");
	for (const struct wg_release *r = wg_releases; r->name; r++)
		wg_seq_append(g->arena, list, str(g, r->build));
	for (size_t i = 0; i < nums->len; i++)
		wg_seq_append(g->arena, list, nums->u.items[i]);
	put(g, e, "enum", list);
	put_str(g, p, "type", "string");
	pattern(g, p, wg_arena_strdup(g->arena, re.buf), 0);
	wg_seq_append(g->arena, any, e);
	wg_seq_append(g->arena, any, p);
	put(g, s, "anyOf", any);
	wg_buf_release(&re);
	return s;
}

/* Values to offer among any: anyOf the enum and the open case. */
static struct wg_node *offered(struct gen *g, const char *description,
			       struct wg_node *values, struct wg_node *open)
{
	struct wg_node *s = schema(g, description), *any = wg_node_new_seq(g->arena);
	struct wg_node *e = schema(g, NULL);

	put(g, e, "enum", values);
	wg_seq_append(g->arena, any, e);
	wg_seq_append(g->arena, any, open);
	put(g, s, "anyOf", any);
	return s;
}

static struct wg_node *handlers(struct gen *g)
{
	struct wg_node *list = wg_node_new_seq(g->arena);

	/* the handlers of the runtimes that still run (a removed one is
	 * still a valid DNS label, accepted, not offered) */
	for (const struct wg_runtime *r = wg_runtimes; r->scheme; r++)
		if (!r->removed)
			wg_seq_append(g->arena, list, str(g, r->handler));
	return list;
}

static struct wg_node *kind_names(struct gen *g)
{
	const char *names[256];
	size_t n = wg_kind_names(NULL, names, 256);
	struct wg_node *list = wg_node_new_seq(g->arena);

	for (size_t i = 0; i < n && i < 256; i++)
		wg_seq_append(g->arena, list, str(g, names[i]));
	return list;
}

static const char *const *setting_values(struct gen *g)
{
	const struct wg_profile_schema_setting *s = g->plugins->settings;

	for (; s && s->path; s++)
		if (strcmp(s->path, g->path.buf) == 0)
			return s->values;
	g->error = wg_arena_printf(g->arena, "%s: no plugin gives the values "
				   "of this setting", g->path.buf);
	return NULL;
}

/* ---- keys the loader reads from the tree ---------------------------------- */

static struct wg_node *any_scalar(struct gen *g, const char *description)
{
	struct wg_node *s = schema(g, description);

	scalar_type(g, s);
	return s;
}

static struct wg_node *overhead(struct gen *g, const char *description)
{
	struct wg_node *s = schema(g, description), *props = wg_node_new_map(g->arena);
	struct wg_node *pf = schema(g, "Resource names (cpu, memory, "
				    "ephemeral-storage, hugepages-*, or a "
				    "prefixed name) to quantities (100m, "
				    "128Mi).");
	struct wg_node *q = schema(g, NULL);

	put_str(g, pf, "type", "object");
	put_num(g, pf, "minProperties", 1);
	put(g, q, "type", strings(g, (const char *const[]){ "string", "number",
							   NULL }));
	put(g, pf, "additionalProperties", q);
	put(g, props, "podFixed", pf);
	closed(g, s, props, (const char *const[]){ "podFixed", NULL });
	return s;
}

static struct wg_node *retarget(struct gen *g, const char *description)
{
	struct wg_node *s = schema(g, description);
	struct wg_node *to = any_scalar(g, "A build of windows.builds: "
					"release, alias, build number or "
					"RuntimeClass name.");

	put(g, s, "type", strings(g, (const char *const[]){ "object", "null",
							   NULL }));
	put(g, s, "propertyNames", release_values(g, NULL, true));
	put_num(g, to, "minLength", 1);
	put(g, s, "additionalProperties", to);
	return s;
}

/* A transforms: entry as a mapping: {name, config}; config only for a
 * plugin that takes one (null counts as none). */
static struct wg_node *step_map(struct gen *g, struct wg_node *name,
				struct wg_node *config)
{
	struct wg_node *s = schema(g, NULL), *props = wg_node_new_map(g->arena);

	put(g, props, "name", name);
	put(g, props, "config", config);
	closed(g, s, props, (const char *const[]){ "name", NULL });
	return s;
}

static struct wg_node *transforms(struct gen *g, const char *description)
{
	struct wg_node *s = schema(g, description), *any = wg_node_new_seq(g->arena);
	struct wg_node *item = schema(g, "A plugin's name, or {name, config} "
				      "for a plugin that takes config.");
	struct wg_node *name = schema(g, NULL), *plain = schema(g, NULL);
	struct wg_node *none = schema(g, "This plugin takes no config.");

	put(g, name, "enum", strings(g, g->plugins->names));
	put(g, plain, "enum", strings(g, g->plugins->names));
	put_str(g, none, "type", "null");
	wg_seq_append(g->arena, any, plain);
	wg_seq_append(g->arena, any, step_map(g, name, none));
	for (size_t i = 0; g->plugins->configurable
			   && g->plugins->configurable[i]; i++) {
		struct wg_node *one = schema(g, NULL);

		put_str(g, one, "const", g->plugins->configurable[i]);
		wg_seq_append(g->arena, any,
			      step_map(g, one, schema(g, "The plugin's "
						      "config.")));
	}
	put(g, item, "anyOf", any);
	put_str(g, s, "type", "array");
	put_true(g, s, "uniqueItems", true);
	put(g, s, "items", item);
	return s;
}

/* ---- the walk ------------------------------------------------------------ */

static struct wg_node *value(struct gen *g, const cyaml_schema_value_t *v,
			     const struct wg_key_doc *doc, const char *text);

/* What a scalar key's values are (doc->values), text its description. */
static struct wg_node *scalar(struct gen *g, const struct wg_key_doc *doc,
			      const char *text)
{
	struct wg_node *s;

	switch (doc->values) {
	case WG_KV_API_VERSION:
		s = schema(g, text);
		put_str(g, s, "const", WG_PROFILE_API_VERSION);
		return s;
	case WG_KV_KIND:
		s = schema(g, text);
		put_str(g, s, "const", WG_PROFILE_KIND);
		return s;
	case WG_KV_RELEASE:
		return release_values(g, text, false);
	case WG_KV_ARCH:
		s = schema(g, text);
		put(g, s, "enum", strings(g, wg_profile_arches));
		return s;
	case WG_KV_EFFECT:
		s = schema(g, text);
		put(g, s, "enum", strings(g, wg_profile_effects));
		return s;
	case WG_KV_SETTING: {
		const char *const *values = setting_values(g);

		s = schema(g, text);
		put(g, s, "enum", strings(g, values));
		return s;
	}
	case WG_KV_BUILD_NUMBER:
		s = schema(g, text);
		put_str(g, s, "type", "string");
		pattern(g, s, "10\\.0\\.[0-9]+", 0);
		return s;
	case WG_KV_DNS_SUBDOMAIN:
		s = any_scalar(g, text);
		pattern(g, s, DNS_SUBDOMAIN, 253);
		return s;
	case WG_KV_LABEL_KEY:
		s = any_scalar(g, text);
		pattern(g, s, "(" DNS_SUBDOMAIN "/)?" NAME_PART, 0);
		return s;
	case WG_KV_LABEL_VALUE:
		s = any_scalar(g, text);
		pattern(g, s, "(" NAME_PART ")?", 0);
		return s;
	case WG_KV_HANDLER:
		s = any_scalar(g, NULL);
		pattern(g, s, DNS_LABEL, 63);
		return offered(g, text, handlers(g), s);
	case WG_KV_WORKLOAD_KIND:
		return offered(g, text, kind_names(g), any_scalar(g, NULL));
	default:
		return any_scalar(g, text);
	}
}

static struct wg_node *mapping(struct gen *g, const cyaml_schema_field_t *fields,
			       const char *text)
{
	const struct wg_key_doc *docs = wg_profile_key_docs(fields);
	struct wg_node *s = schema(g, text), *props = wg_node_new_map(g->arena);
	struct wg_node *required = wg_node_new_seq(g->arena);
	struct wg_node *either = wg_node_new_seq(g->arena);
	struct wg_node *with_last = wg_node_new_seq(g->arena);
	const char *last = NULL;
	size_t mark = g->path.len;

	put_str(g, s, "type", "object");
	if (!docs) {
		g->error = wg_arena_printf(g->arena, "%s: a mapping without "
					   "documentation (profile_schema.c: "
					   "MAPPING)", mark ? g->path.buf
					   : "(the profile)");
		return s;
	}
	for (size_t i = 0; fields[i].key && !g->error; i++) {
		const struct wg_key_doc *d = &docs[i];

		if (mark)
			wg_buf_addch(&g->path, '.');
		wg_buf_addstr(&g->path, fields[i].key);
		if (!d->text || !*d->text)
			g->error = wg_arena_printf(g->arena, "%s: no "
						   "description", g->path.buf);
		else
			put(g, props, fields[i].key,
			    value(g, &fields[i].value, d, d->text));
		if (!(fields[i].value.flags & CYAML_FLAG_OPTIONAL)
		    || (d->flags & WG_KEY_REQUIRED))
			wg_seq_append(g->arena, required,
				      str(g, fields[i].key));
		if (d->flags & WG_KEY_EITHER) {
			struct wg_node *one = wg_node_new_map(g->arena);
			struct wg_node *req = wg_node_new_seq(g->arena);
			struct wg_node *has = wg_node_new_map(g->arena);

			/* ajv's strict mode wants a required key defined
			 * beside it */
			put(g, has, fields[i].key, wg_node_new_map(g->arena));
			put(g, one, "properties", has);
			wg_seq_append(g->arena, req, str(g, fields[i].key));
			put(g, one, "required", req);
			wg_seq_append(g->arena, either, one);
			last = fields[i].key;
		}
		if (d->flags & WG_KEY_WITH_LAST)
			wg_seq_append(g->arena, with_last,
				      str(g, fields[i].key));
		cut(&g->path, mark);
	}
	put(g, s, "properties", props);
	if (required->len)
		put(g, s, "required", required);
	if (either->len)
		put(g, s, "anyOf", either);
	if (last && with_last->len) {
		struct wg_node *dep = wg_node_new_map(g->arena);

		put(g, dep, last, with_last);
		put(g, s, "dependentRequired", dep);
	}
	put_true(g, s, "additionalProperties", false);
	return s;
}

static struct wg_node *value(struct gen *g, const cyaml_schema_value_t *v,
			     const struct wg_key_doc *doc, const char *text)
{
	struct wg_node *s;

	switch (doc->values) {
	case WG_KV_NOT_READ:
		/* any value: the loader skips it whole */
		return schema(g, text);
	case WG_KV_OVERHEAD:
		return overhead(g, text);
	case WG_KV_RETARGET:
		return retarget(g, text);
	case WG_KV_TRANSFORMS:
		return transforms(g, text);
	default:
		break;
	}
	switch (v->type) {
	case CYAML_MAPPING:
		return mapping(g, v->mapping.fields, text);
	case CYAML_SEQUENCE: {
		struct wg_key_doc item = *doc;

		s = schema(g, text);
		put_str(g, s, "type", "array");
		if (doc->flags & WG_KEY_NONEMPTY)
			put_num(g, s, "minItems", 1);
		item.flags = 0;
		wg_buf_addstr(&g->path, "[]");
		put(g, s, "items", value(g, v->sequence.entry, &item, NULL));
		cut(&g->path, g->path.len - 2);
		return s;
	}
	case CYAML_BOOL:
		/* the loader takes true and false (any case YAML 1.2's
		 * core schema reads as a boolean), nothing else */
		s = schema(g, text);
		put_str(g, s, "type", "boolean");
		return s;
	case CYAML_IGNORE:
		g->error = wg_arena_printf(g->arena, "%s: a key libcyaml skips "
					   "needs its shape (WG_KV_*)",
					   g->path.buf);
		return schema(g, text);
	default:
		return scalar(g, doc, text);
	}
}

struct wg_node *wg_profile_json_schema(
	struct wg_arena *arena, const struct wg_profile_schema_plugins *plugins,
	const char **error)
{
	struct gen g = { arena, plugins, WG_BUF_INIT, NULL };
	struct wg_node *top = wg_node_new_map(arena), *s;

	put_str(&g, top, "$schema", SCHEMA_DIALECT);
	put_str(&g, top, "title", "wingen Profile");
	s = mapping(&g, wg_profile_schema.mapping.fields,
		    "A wingen profile: the Windows builds of a cluster, how "
		    "their nodes are tainted, which workloads are Windows "
		    "workloads, and the plugin chain (docs/profile.md).  "
		    "Made by wingen schema from the tables wingen loads a "
		    "profile with.");
	for (size_t i = 0; i < s->len; i++)
		put(&g, top, wg_map_key(s, i)->u.str, wg_map_value(s, i));
	wg_buf_release(&g.path);
	if (g.error) {
		*error = g.error;
		return NULL;
	}
	return top;
}
