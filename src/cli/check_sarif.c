/*
 * check -o sarif: the diagnostics as a SARIF 2.1.0 log (OASIS Static
 * Analysis Results Interchange Format), as GitHub code scanning and other
 * CI viewers read it: one run of the tool "wingen" with its rules, one
 * result per diagnostic with its rule, level, message and location.  The
 * mapping is documented in docs/check.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "check_report.h"
#include "wingen/base/arena.h"
#include "wingen/chain/registry.h"
#include "wingen/core/plugin.h"
#include "wingen/core/select.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/writer.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

/* The rules that are no plugin: the phases of a check run (check_report.h),
 * in the order a run meets them. */
static const struct {
	const char *id, *text;
} phases[] = {
	{ WG_RULE_PROFILE, "The profile loads: its keys, types and values "
	  "(docs/profile.md), its files, its patterns." },
	{ WG_RULE_INPUT, "The manifests read: YAML that parses, within the "
	  "limits, files that exist." },
	{ WG_RULE_NODES, "The cluster's nodes (--nodes) read." },
	{ WG_RULE_STREAM, "The stream as one apply: no object twice." },
	{ WG_SELECT_RULE, "Which workloads are Windows workloads, of which "
	  "build: their images, windows.select, their annotations; an image "
	  "that names Windows is never pinned to Linux." },
	{ WG_RULE_API, "What the API server would refuse in the result." },
	{ WG_RULE_PLACEMENT, "Every build, RuntimeClass and workload fits "
	  "the cluster's nodes (--nodes)." },
};
#define NPHASES (sizeof(phases) / sizeof(*phases))

static struct wg_node *str(struct wg_arena *a, const char *s)
{
	return wg_node_new_str(a, s);
}

static struct wg_node *put(struct wg_arena *a, struct wg_node *m,
			   const char *key, struct wg_node *v)
{
	return wg_map_set(a, m, key, v);
}

static struct wg_node *map(struct wg_arena *a, struct wg_node *m,
			   const char *key)
{
	return put(a, m, key, wg_node_new_map(a));
}

static struct wg_node *text(struct wg_arena *a, const char *s)
{
	struct wg_node *m = wg_node_new_map(a);

	put(a, m, "text", str(a, s));
	return m;
}

static struct wg_node *number(struct wg_arena *a, size_t n)
{
	return wg_node_new_plain(a, wg_arena_printf(a, "%zu", n));
}

/* Every rule: the phases, then the plugins in the registry's order; a
 * result names its rule by id and index. */
static size_t rule_index(const char *id)
{
	for (size_t i = 0; i < NPHASES; i++)
		if (strcmp(phases[i].id, id) == 0)
			return i;
	for (size_t i = 0; wg_plugins[i]; i++)
		if (strcmp(wg_plugins[i]->name, id) == 0)
			return NPHASES + i;
	return (size_t)-1;
}

/* A rule's name for people, as SARIF wants it other than the id:
 * "node-selector" is NodeSelector. */
static const char *rule_name(struct wg_arena *a, const char *id)
{
	char *name = wg_arena_strdup(a, id), *w = name;
	bool up = true;

	for (const char *p = id; *p; p++) {
		if (*p == '-') {
			up = true;
			continue;
		}
		*w++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A')
						     : *p;
		up = false;
	}
	*w = '\0';
	return name;
}

static struct wg_node *rule(struct wg_arena *a, const char *id,
			    const char *description)
{
	struct wg_node *r = wg_node_new_map(a);
	const char *name = rule_name(a, id);

	put(a, r, "id", str(a, id));
	/* a name that says no more than the id is left out (SARIF 3.49.7) */
	if (strcasecmp(name, id) != 0)
		put(a, r, "name", str(a, name));
	put(a, r, "shortDescription", text(a, description));
	/* a rule finds errors and warnings alike: each result says which */
	put(a, map(a, r, "defaultConfiguration"), "level",
	    str(a, "warning"));
	return r;
}

static struct wg_node *driver(struct wg_arena *a)
{
	struct wg_node *d = wg_node_new_map(a), *rules;

	put(a, d, "name", str(a, "wingen"));
	put(a, d, "version", str(a, WINGEN_VERSION));
	put(a, d, "semanticVersion", str(a, WINGEN_VERSION));
	rules = put(a, d, "rules", wg_node_new_seq(a));
	for (size_t i = 0; i < NPHASES; i++)
		wg_seq_append(a, rules, rule(a, phases[i].id, phases[i].text));
	for (size_t i = 0; wg_plugins[i]; i++)
		wg_seq_append(a, rules, rule(a, wg_plugins[i]->name,
					     wg_plugins[i]->summary));
	return d;
}

static const char *level(enum wg_severity s)
{
	return s == WG_SEV_ERROR ? "error" : s == WG_SEV_WARNING ? "warning"
								  : "note";
}

/*
 * path as a relative URI reference (RFC 3986): unreserved characters and
 * '/' as they are, every other byte %XX.  An absolute path becomes a
 * file:// URI.
 */
static const char *uri(struct wg_arena *a, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct wg_buf b = WG_BUF_INIT;
	const char *r;

	if (path[0] == '/')
		wg_buf_addstr(&b, "file://");
	else if (strncmp(path, "./", 2) == 0)
		path += 2;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
		    || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			wg_buf_addch(&b, *p);
		else
			wg_buf_addf(&b, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
	r = wg_arena_strdup(a, b.buf);
	wg_buf_release(&b);
	return r;
}

/* The result of one diagnostic. */
static struct wg_node *result(struct wg_arena *a, const struct wg_diag *d)
{
	struct wg_node *r = wg_node_new_map(a), *loc, *phys, *region;
	struct wg_buf msg = WG_BUF_INIT;
	const char *id = d->rule ? d->rule : WG_RULE_INPUT;
	size_t index = rule_index(id);
	bool on_disk;

	put(a, r, "ruleId", str(a, id));
	if (index != (size_t)-1)
		put(a, r, "ruleIndex", number(a, index));
	put(a, r, "level", str(a, level(d->severity)));
	/* A location in a file on disk; stdin, the embedded default
	 * profile and the command line (--retarget) are none: the message
	 * names them as the text report does. */
	on_disk = d->file && access(d->file, F_OK) == 0;
	if (d->file && !on_disk) {
		wg_buf_addstr(&msg, d->file);
		if (d->line)
			wg_buf_addf(&msg, ":%u:%u", (unsigned)d->line,
				    (unsigned)(d->col ? d->col : 1));
		wg_buf_addstr(&msg, ": ");
	}
	wg_ref_append(&msg, &d->ref, d->field);
	wg_buf_addstr(&msg, d->message);
	put(a, map(a, r, "message"), "text", str(a, msg.buf));
	wg_buf_release(&msg);
	if (!on_disk)
		return r;
	loc = wg_node_new_map(a);
	wg_seq_append(a, put(a, r, "locations", wg_node_new_seq(a)), loc);
	phys = map(a, loc, "physicalLocation");
	put(a, map(a, phys, "artifactLocation"), "uri",
	    str(a, uri(a, d->file)));
	if (d->line) {
		region = map(a, phys, "region");
		put(a, region, "startLine", number(a, d->line));
		if (d->col)
			put(a, region, "startColumn", number(a, d->col));
	}
	if (d->ref.kind || d->ref.name) {
		struct wg_node *logical = wg_node_new_map(a);
		struct wg_buf name = WG_BUF_INIT;

		wg_ref_append(&name, &d->ref, NULL);
		name.len -= 2;		/* the ": " */
		name.buf[name.len] = '\0';
		put(a, logical, "fullyQualifiedName", str(a, name.buf));
		put(a, logical, "kind", str(a, "object"));
		wg_seq_append(a, put(a, loc, "logicalLocations",
				     wg_node_new_seq(a)), logical);
		wg_buf_release(&name);
	}
	return r;
}

void wg_check_sarif(struct wg_buf *out, const struct wg_check_report *r)
{
	const struct wg_log *log = &r->ctx->log;
	struct wg_json_out j;
	struct wg_arena a;
	struct wg_node *run, *props;

	wg_arena_init(&a);
	wg_json_begin(&j, out, 2);
	wg_json_open(&j, '{');
	wg_json_key(&j, "$schema");
	wg_json_value(&j, str(&a, SARIF_SCHEMA));
	wg_json_key(&j, "version");
	wg_json_value(&j, str(&a, "2.1.0"));
	wg_json_key(&j, "runs");
	wg_json_open(&j, '[');
	wg_json_open(&j, '{');
	wg_json_key(&j, "tool");
	run = wg_node_new_map(&a);
	put(&a, run, "driver", driver(&a));
	wg_json_value(&j, run);
	wg_json_key(&j, "columnKind");
	wg_json_value(&j, str(&a, "unicodeCodePoints"));
	wg_json_key(&j, "results");
	wg_json_open(&j, '[');
	for (size_t i = 0; i < log->ndiags; i++) {
		wg_arena_clear(&a);
		wg_json_value(&j, result(&a, &log->diags[i]));
	}
	wg_json_close(&j);
	/* what SARIF has no place for: the summary of check -o json */
	wg_arena_clear(&a);
	props = wg_node_new_map(&a);
	put(&a, props, "passed", wg_node_new_plain(&a, r->failed ? "false"
								 : "true"));
	put(&a, props, "changes", number(&a, log->nchanges));
	put(&a, props, "objects", number(&a, r->objects));
	put(&a, props, "strict", wg_node_new_plain(&a, r->ctx->strict
							? "true" : "false"));
	wg_json_key(&j, "properties");
	wg_json_value(&j, props);
	wg_json_close(&j);
	wg_json_close(&j);
	wg_json_close(&j);
	wg_json_end(&j);
	wg_arena_release(&a);
}
