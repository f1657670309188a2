/*
 * check -o json: one CheckReport (apiVersion wingen.dev/v1alpha1), its
 * fields documented in docs/check.md.  Written a diagnostic and a change
 * at a time (a tree each, dropped once written), so the report of a large
 * stream never exists as one tree.
 */
#include <string.h>

#include "check_report.h"
#include "wingen/base/arena.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/writer.h"

/* key: s, when s is set. */
static void str(struct wg_arena *a, struct wg_node *m, const char *key,
		const char *s)
{
	if (s)
		wg_map_set(a, m, key, wg_node_new_str(a, s));
}

static void num(struct wg_arena *a, struct wg_node *m, const char *key,
		size_t n)
{
	wg_map_set(a, m, key, wg_node_new_plain(a, wg_arena_printf(a, "%zu",
								   n)));
}

static void flag(struct wg_arena *a, struct wg_node *m, const char *key,
		 bool v)
{
	wg_map_set(a, m, key, wg_node_new_plain(a, v ? "true" : "false"));
}

/* "file", "line", "column" of a position, the parts known. */
static void pos(struct wg_arena *a, struct wg_node *m, const char *file,
		uint32_t line, uint32_t col)
{
	str(a, m, "file", file);
	if (line)
		num(a, m, "line", line);
	if (col)
		num(a, m, "column", col);
}

static void resource(struct wg_arena *a, struct wg_node *m,
		     const struct wg_ref *r)
{
	struct wg_node *o;

	if (!r->kind && !r->name)
		return;
	o = wg_map_set(a, m, "resource", wg_node_new_map(a));
	str(a, o, "apiVersion", r->api_version);
	str(a, o, "kind", r->kind ? r->kind : "");
	str(a, o, "name", r->name);
	str(a, o, "namespace", r->namespace_);
}

static const char *op_name(enum wg_change_op op)
{
	static const char *const names[] = { "set", "add", "remove",
					     "create" };

	return (unsigned)op < 4 ? names[op] : "set";
}

void wg_check_json(struct wg_buf *out, const struct wg_check_report *r)
{
	const struct wg_log *log = &r->ctx->log;
	struct wg_json_out j;
	struct wg_arena a;
	struct wg_node *m;

	wg_arena_init(&a);
	wg_json_begin(&j, out, 2);
	wg_json_open(&j, '{');
	wg_json_key(&j, "apiVersion");
	wg_json_value(&j, wg_node_new_str(&a, "wingen.dev/v1alpha1"));
	wg_json_key(&j, "kind");
	wg_json_value(&j, wg_node_new_str(&a, "CheckReport"));
	m = wg_node_new_map(&a);
	flag(&a, m, "passed", !r->failed);
	num(&a, m, "errors", log->counts[WG_SEV_ERROR]);
	num(&a, m, "warnings", log->counts[WG_SEV_WARNING]);
	num(&a, m, "notes", log->counts[WG_SEV_INFO]);
	num(&a, m, "changes", log->nchanges);
	num(&a, m, "objects", r->objects);
	flag(&a, m, "strict", r->ctx->strict);
	wg_json_key(&j, "summary");
	wg_json_value(&j, m);
	wg_json_key(&j, "diagnostics");
	wg_json_open(&j, '[');
	for (size_t i = 0; i < log->ndiags; i++) {
		const struct wg_diag *d = &log->diags[i];

		wg_arena_clear(&a);
		m = wg_node_new_map(&a);
		str(&a, m, "severity", wg_severity_name(d->severity));
		str(&a, m, "rule", d->rule);
		pos(&a, m, d->file, d->line, d->col);
		resource(&a, m, &d->ref);
		str(&a, m, "field", d->field);
		str(&a, m, "message", d->message);
		wg_json_value(&j, m);
	}
	wg_json_close(&j);
	wg_json_key(&j, "changes");
	wg_json_open(&j, '[');
	for (size_t i = 0; i < log->nchanges; i++) {
		const struct wg_change *c = &log->changes[i];

		wg_arena_clear(&a);
		m = wg_node_new_map(&a);
		str(&a, m, "op", op_name(c->op));
		pos(&a, m, c->file ? c->file : c->ref.file, c->line, 0);
		resource(&a, m, &c->ref);
		str(&a, m, "field", c->field);
		str(&a, m, "old", c->old_value);
		str(&a, m, "new", c->new_value);
		str(&a, m, "plugin", c->plugin);
		str(&a, m, "reason", c->reason);
		wg_json_value(&j, m);
	}
	wg_json_close(&j);
	wg_json_close(&j);
	/* every value is a string, a count or a boolean: nothing without a
	 * JSON form */
	wg_json_end(&j);
	wg_arena_release(&a);
}
