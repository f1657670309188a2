/*
 * wingen check: run the chain as build does, write no manifests, report
 * every diagnostic (text, or one JSON document with the changes too).
 * Exit 1 on an error (--strict: on a warning too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/base/alloc.h"
#include "wingen/base/output.h"
#include "wingen/core/pipeline.h"
#include "wingen/k8s/k8svalid.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/scalar.h"

struct check_opts {
	struct wg_pathlist args;	/* [PROFILE] */
	const char *profile;
	struct wg_pathlist paths;
	bool json;
	const char *output;	/* --output-file; NULL: stdout */
	bool strict;
	struct wg_profile_opts popts;
	struct wg_pathlist retarget;	/* --retarget OLD=NEW */
	struct wg_cli_nodes nodes;	/* --nodes */
};

static int parse(int argc, char **argv, struct check_opts *o)
{
	static const char *const formats[] = { "text", "json", NULL };
	int format = 0;
	const struct wg_opt opts[] = {
		WG_OPTS_FILENAME(&o->paths),
		WG_OPTS_OUTPUT(&format, formats, &o->output),
		{ "strict", 0, WG_OPT_FLAG, &o->strict, NULL },
		{ "nodes", 0, WG_OPT_PATHS, &o->nodes.paths, NULL },
		WG_OPTS_PROFILE(&o->popts),
		WG_OPT_RETARGET(&o->retarget),
		WG_OPT_END,
	};
	int rc = wg_parse_options("check", argc, argv, opts, &o->args);

	WG_RETARGET_SET(&o->popts, &o->retarget);
	o->json = format == 1;
	if (rc == 0 && o->args.len > 1)
		return wg_usage_error("check", "unexpected argument '%s'",
				      o->args.items[1]);
	if (o->args.len)
		o->profile = o->args.items[0];
	if (rc == 0)
		rc = wg_cli_profile_stdin_usage("check", o->profile, &o->paths,
						&o->nodes.paths);
	return rc;
}

/* ---- counting changed objects -------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether two refs are the same strings: the log shares a record's
 * strings with the record before when they are equal (diag.c), so a run
 * of changes to one object is one key. */
static bool same_ref_strings(const struct wg_ref *a, const struct wg_ref *b)
{
	return a->file == b->file && a->index == b->index
	       && a->kind == b->kind && a->namespace_ == b->namespace_
	       && a->name == b->name;
}

/* The number of distinct objects the changes are about. */
static size_t objects_changed(const struct wg_log *log)
{
	char **keys = wg_xcalloc(log->nchanges + 1, sizeof(*keys));
	size_t n = 0, nkeys = 0;

	for (size_t i = 0; i < log->nchanges; i++) {
		const struct wg_ref *r = &log->changes[i].ref;
		struct wg_buf k = WG_BUF_INIT;

		if (i && same_ref_strings(r, &log->changes[i - 1].ref))
			continue;	/* the key of the one before */

		wg_buf_addf(&k, "%s\037%u\037%s\037%s\037%s",
			    r->file ? r->file : "", r->index,
			    r->kind ? r->kind : "",
			    r->namespace_ ? r->namespace_ : "",
			    r->name ? r->name : "");
		keys[nkeys++] = wg_buf_detach(&k, NULL);
	}
	qsort(keys, nkeys, sizeof(*keys), cmp_str);
	for (size_t i = 0; i < nkeys; i++)
		if (i == 0 || strcmp(keys[i], keys[i - 1]) != 0)
			n++;
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	return n;
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_text(struct wg_buf *b, const struct wg_ctx *ctx,
		       size_t objects)
{
	const size_t *c = ctx->log.counts;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	/* The lines as wg_log_print() writes them, into the report. */
	if (!mem) {
		fputs("wingen: out of memory\n", stderr);
		exit(1);
	}
	wg_log_print(mem, &ctx->log, WG_SEV_INFO);
	fclose(mem);
	wg_buf_add(b, text, len);
	free(text);
	wg_buf_addf(b, "wingen check: %zu %s, %zu %s, %zu %s; %zu %s to %zu %s\n",
	       c[WG_SEV_ERROR], plural(c[WG_SEV_ERROR], "error", "errors"),
	       c[WG_SEV_WARNING],
	       plural(c[WG_SEV_WARNING], "warning", "warnings"),
	       c[WG_SEV_INFO], plural(c[WG_SEV_INFO], "note", "notes"),
	       ctx->log.nchanges,
	       plural(ctx->log.nchanges, "change", "changes"), objects,
	       plural(objects, "object", "objects"));
}

/* ---- JSON ---------------------------------------------------------------- */

static void jstr(struct wg_buf *b, const char *key, const char *s, bool comma)
{
	if (!s)
		return;
	if (comma)
		wg_buf_addstr(b, ", ");
	wg_json_quote(b, key, strlen(key));
	wg_buf_addstr(b, ": ");
	wg_json_quote(b, s, strlen(s));
}

static void jref(struct wg_buf *b, const struct wg_ref *r)
{
	if (!r->kind && !r->name)
		return;
	wg_buf_addstr(b, ", \"resource\": {");
	jstr(b, "apiVersion", r->api_version, false);
	jstr(b, "kind", r->kind ? r->kind : "", r->api_version != NULL);
	jstr(b, "name", r->name, true);
	jstr(b, "namespace", r->namespace_, true);
	wg_buf_addch(b, '}');
}

static void jpos(struct wg_buf *b, const char *file, uint32_t line,
		 uint32_t col)
{
	jstr(b, "file", file, true);
	if (line)
		wg_buf_addf(b, ", \"line\": %u", (unsigned)line);
	if (col)
		wg_buf_addf(b, ", \"column\": %u", (unsigned)col);
}

static const char *op_name(enum wg_change_op op)
{
	static const char *const names[] = { "set", "add", "remove",
					     "create" };

	return (unsigned)op < 4 ? names[op] : "set";
}

static void print_json(struct wg_buf *out, const struct wg_ctx *ctx,
		       size_t objects, bool failed)
{
	const struct wg_log *log = &ctx->log;
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addf(&b, "{\n  \"apiVersion\": \"wingen.dev/v1alpha1\",\n"
		    "  \"kind\": \"CheckReport\",\n"
		    "  \"summary\": {\"passed\": %s, \"errors\": %zu, "
		    "\"warnings\": %zu, \"notes\": %zu, \"changes\": %zu, "
		    "\"objects\": %zu, \"strict\": %s},\n"
		    "  \"diagnostics\": [",
		    failed ? "false" : "true", log->counts[WG_SEV_ERROR],
		    log->counts[WG_SEV_WARNING], log->counts[WG_SEV_INFO],
		    log->nchanges, objects, ctx->strict ? "true" : "false");
	for (size_t i = 0; i < log->ndiags; i++) {
		const struct wg_diag *d = &log->diags[i];

		wg_buf_addstr(&b, i ? ",\n    {" : "\n    {");
		jstr(&b, "severity", wg_severity_name(d->severity), false);
		jpos(&b, d->file, d->line, d->col);
		jref(&b, &d->ref);
		jstr(&b, "field", d->field, true);
		jstr(&b, "message", d->message, true);
		wg_buf_addch(&b, '}');
	}
	wg_buf_addstr(&b, log->ndiags ? "\n  ],\n  \"changes\": ["
				      : "],\n  \"changes\": [");
	for (size_t i = 0; i < log->nchanges; i++) {
		const struct wg_change *c = &log->changes[i];

		wg_buf_addstr(&b, i ? ",\n    {" : "\n    {");
		jstr(&b, "op", op_name(c->op), false);
		jpos(&b, c->file ? c->file : c->ref.file, c->line, 0);
		jref(&b, &c->ref);
		jstr(&b, "field", c->field, true);
		jstr(&b, "old", c->old_value, true);
		jstr(&b, "new", c->new_value, true);
		jstr(&b, "plugin", c->plugin, true);
		jstr(&b, "reason", c->reason, true);
		wg_buf_addch(&b, '}');
	}
	wg_buf_addstr(&b, log->nchanges ? "\n  ]\n}\n" : "]\n}\n");
	wg_buf_add(out, b.buf, b.len);
	wg_buf_release(&b);
}

/*
 * What the API server would reject in the objects as the chain leaves
 * them (k8svalid.h): every live object the chain gave no error (one with
 * an error has its message already; a second about the same fault would
 * only repeat it).
 */
static void validate(struct wg_ctx *ctx, const struct wg_profile *p,
		     const struct wg_resources *list)
{
	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];

		if (!(res->flags & (WG_RES_DELETED | WG_RES_ERROR)))
			wg_k8s_check_workload(ctx, &p->kinds, res);
	}
	wg_pipeline_drop_changes_of_errors(ctx);
}

int wg_cmd_check(int argc, char **argv)
{
	struct check_opts o = { 0 };
	struct wg_session ss;
	struct wg_ctx *ctx = &ss.ctx;
	struct wg_buf report = WG_BUF_INIT;
	bool failed;
	int rc;

	wg_cli_nodes_init(&o.nodes);
	rc = parse(argc, argv, &o);
	wg_session_init(&ss);
	if (rc)
		goto out;
	ctx->strict = o.strict;
	ss.list.share_keys = true;	/* memory over positions of keys */
	/* the text report counts changes and the objects they touch; only
	 * -o json lists each change */
	ctx->log.refs_only = !o.json;
	if (wg_session_load(&ss, o.profile, &o.popts, &o.paths) == 0) {
		bool nodes_ok;

		if ((rc = wg_cli_nodes_stdin_clash("check", &o.nodes,
						   &ss.paths)))
			goto out;
		/* Both read before either is judged: a bad node list is
		 * reported with a bad manifest. */
		nodes_ok = wg_cli_nodes_read(ctx, &o.nodes) == 0;
		if (wg_session_read(&ss) == 0 && nodes_ok) {
			if (wg_cli_run_chain(ctx, &ss.profile, &ss.list) == 0)
				validate(ctx, &ss.profile, &ss.list);
			wg_cli_nodes_check(ctx, &o.nodes, &ss.profile,
					   &ss.list, false);
		}
	}
	failed = wg_ctx_failed(ctx);
	if (o.json)
		print_json(&report, ctx, objects_changed(&ctx->log), failed);
	else
		print_text(&report, ctx, objects_changed(&ctx->log));
	/* The report is written even when the run failed: it is the
	 * point of check.  A write error fails it. */
	{
		size_t before = ctx->log.ndiags;

		if (wg_output_write(ctx, o.output, report.buf, report.len)) {
			for (size_t i = before; i < ctx->log.ndiags; i++)
				wg_diag_print(stderr, &ctx->log.diags[i]);
			failed = true;
		}
	}
	rc = failed ? WG_EXIT_FAIL : WG_EXIT_OK;
out:
	wg_buf_release(&report);
	wg_session_release(&ss);
	wg_cli_nodes_release(&o.nodes);
	wg_pathlist_release(&o.paths);
	wg_pathlist_release(&o.retarget);
	wg_pathlist_release(&o.args);
	return rc < 0 ? wg_print_help("check") : rc;
}
