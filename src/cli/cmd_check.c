/*
 * wingen check: run the chain as build does, write no manifests, report
 * every diagnostic: text, one JSON document with the changes too, or a
 * SARIF log (check_report.h).  Exit 1 on an error (--strict: on a warning
 * too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"
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
	enum { TEXT, JSON, SARIF } format;
	const char *output;	/* --output-file; NULL: stdout */
	bool strict;
	struct wg_profile_opts popts;
	struct wg_pathlist retarget;	/* --retarget OLD=NEW */
	struct wg_cli_nodes nodes;	/* --nodes */
};

static int parse(int argc, char **argv, struct check_opts *o)
{
	static const char *const formats[] = { "text", "json", "sarif",
					       NULL };
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
	o->format = format == 1 ? JSON : format == 2 ? SARIF : TEXT;
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
	wg_sort(keys, nkeys, sizeof(*keys), cmp_str);
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

/* The rule of what was reported from diagnostic from on without a plugin
 * running: the phase of the run (check_report.h). */
static void phase(struct wg_ctx *ctx, size_t from, const char *rule)
{
	for (size_t i = from; i < ctx->log.ndiags; i++)
		if (!ctx->log.diags[i].rule)
			ctx->log.diags[i].rule = rule;
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
	/* the text and SARIF reports count changes and the objects they
	 * touch; only -o json lists each change */
	ctx->log.refs_only = o.format != JSON;
	rc = wg_session_load(&ss, o.profile, &o.popts, &o.paths);
	phase(ctx, 0, WG_RULE_PROFILE);
	if (rc == 0) {
		bool nodes_ok;
		size_t mark = ctx->log.ndiags;

		if ((rc = wg_cli_nodes_stdin_clash("check", &o.nodes,
						   &ss.paths)))
			goto out;
		/* Both read before either is judged: a bad node list is
		 * reported with a bad manifest. */
		nodes_ok = wg_cli_nodes_read(ctx, &o.nodes) == 0;
		phase(ctx, mark, WG_RULE_NODES);
		mark = ctx->log.ndiags;
		rc = wg_session_read(&ss);
		phase(ctx, mark, WG_RULE_INPUT);
		if (rc == 0 && nodes_ok) {
			mark = ctx->log.ndiags;
			rc = wg_cli_run_chain(ctx, &ss.profile, &ss.list);
			phase(ctx, mark, WG_RULE_STREAM);
			mark = ctx->log.ndiags;
			if (rc == 0)
				validate(ctx, &ss.profile, &ss.list);
			phase(ctx, mark, WG_RULE_API);
			mark = ctx->log.ndiags;
			wg_cli_nodes_check(ctx, &o.nodes, &ss.profile,
					   &ss.list, false);
			phase(ctx, mark, WG_RULE_PLACEMENT);
		}
	}
	failed = wg_ctx_failed(ctx);
	{
		struct wg_check_report r = {
			ctx, objects_changed(&ctx->log), failed,
		};

		if (o.format == JSON)
			wg_check_json(&report, &r);
		else if (o.format == SARIF)
			wg_check_sarif(&report, &r);
		else
			print_text(&report, ctx, r.objects);
	}
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
