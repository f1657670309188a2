#include "cli.h"
#include "options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/fileid.h"
#include "wingen/base/index.h"
#include "wingen/base/suggest.h"
#include "wingen/k8s/kustomize_refs.h"
#include "wingen/yaml/emit_stream.h"
#include "wingen/base/output.h"
#include "wingen/yaml/read_split.h"
#include "wingen/yaml/reader.h"

const struct wg_command *wg_command_find(const char *name)
{
	for (const struct wg_command *c = wg_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int wg_usage_error(const char *cmd, const char *fmt, ...)
{
	const struct wg_command *c = cmd ? wg_command_find(cmd) : NULL;
	va_list ap;

	fprintf(stderr, cmd ? "wingen %s: " : "wingen: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		fprintf(stderr, "usage: wingen %s\n", c->synopsis);
	else
		fputs("usage: wingen COMMAND [OPTIONS] (see 'wingen help')\n",
		      stderr);
	return WG_EXIT_USAGE;
}

int wg_unknown_command(const char *name)
{
	const char *names[32];
	const char *hint;
	size_t n = 0;

	for (const struct wg_command *c = wg_commands; c->name && n < 32; c++)
		names[n++] = c->name;
	hint = wg_suggest(name, names, n);
	if (hint)
		return wg_usage_error(NULL, "unknown command '%s'; did you "
				      "mean '%s'?", name, hint);
	return wg_usage_error(NULL, "unknown command '%s'", name);
}

int wg_print_help(const char *cmd)
{
	const struct wg_command *c = wg_command_find(cmd);

	if (wg_cli_describing())	/* options.h: the options, not help */
		return WG_EXIT_OK;
	if (!c)
		return wg_unknown_command(cmd);
	printf("usage: wingen %s\n\n%s\n", c->synopsis, c->summary);
	if (c->help && *c->help)
		printf("\n%s", c->help);
	return WG_EXIT_OK;
}

void wg_inputs_release(struct wg_inputs *inputs)
{
	for (size_t i = 0; i < inputs->len; i++)
		wg_input_release(&inputs->items[i]);
	free(inputs->items);
	memset(inputs, 0, sizeof(*inputs));
}

/* Inputs at least this large are cut into pieces of their own
 * (read_split.h); smaller ones are read a whole input a thread. */
#define LARGE_INPUT (2 * WG_READ_SPLIT_MIN_PIECE)

/* Reads inputs [from, to) that wait their turn. */
static int read_run(struct wg_ctx *ctx, struct wg_inputs *inputs,
		    size_t from, size_t to, struct wg_resources *list,
		    unsigned jobs)
{
	if (to - from >= 2)
		return wg_read_streams_jobs(ctx, &inputs->items[from],
					    to - from, list, jobs);
	return from < to ? wg_read_stream_jobs(ctx, &inputs->items[from],
					       list, jobs) : 0;
}

void wg_cli_stdin_waiting(const char *what)
{
	if (wg_stdin_kind() == WG_STDIN_TERMINAL)
		fprintf(stderr, "wingen: waiting for %s on stdin (a terminal): "
			"paste them and end with Ctrl-D, or give -f PATH\n",
			what);
}

void wg_cli_stdin_unread(struct wg_ctx *ctx)
{
	if (wg_stdin_kind() == WG_STDIN_DATA)
		wg_report_at(ctx, WG_SEV_WARNING, WG_STDIN_NAME, 0, 0,
			     "holds input that is not read: the inputs are "
			     "the profile's resources: and the -f paths; add "
			     "-f - to read stdin too");
}

/* Where in text[0, len) two-character mark first is, or NULL. */
static const char *find2(const char *text, size_t len, const char *mark)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (text[i] == mark[0] && text[i + 1] == mark[1])
			return text + i;
	return NULL;
}

/* Whether text[0, len) holds "{{" with a "}}" after it: Go template
 * actions. */
static bool has_template_action(const char *text, size_t len)
{
	const char *open = find2(text, len, "{{");

	return open && find2(open + 2, len - (size_t)(open + 2 - text), "}}");
}

/*
 * Which of lines 1..max of text hold a template action: an array of
 * max + 1 (index 0: unused), or NULL when none does.  Argo Workflows and
 * Tekton write "{{inputs.parameters.x}}" inside their strings: a file
 * with actions is not a Helm template because of them, so the hint goes
 * only to an error on a line that holds one.
 */
static bool *action_lines(const char *text, size_t len, uint32_t max)
{
	bool *lines = NULL, any = false;
	const char *p = text, *end = text + len;

	if (!has_template_action(text, len))
		return NULL;
	lines = wg_xcalloc((size_t)max + 1, sizeof(*lines));
	any = !max;	/* errors without a line: the file's actions */
	for (uint32_t n = 1; n <= max && p < end; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lines[n] = has_template_action(p, l);
		any = any || lines[n];
		p += l + 1;
	}
	if (!any) {
		free(lines);
		return NULL;
	}
	return lines;
}

void wg_cli_helm_hint(struct wg_ctx *ctx, size_t from,
		      const struct wg_input *in)
{
	struct wg_log *log = &ctx->log;
	uint32_t max = 0;
	size_t errors = 0;
	bool *lines;

	if (!in->data)
		return;
	for (size_t i = from; i < log->ndiags; i++)
		if (log->diags[i].severity == WG_SEV_ERROR
		    && log->diags[i].file
		    && strcmp(log->diags[i].file, in->name) == 0) {
			errors++;
			if (log->diags[i].line > max)
				max = log->diags[i].line;
		}
	if (!errors || !(lines = action_lines(in->data, in->len, max)))
		return;
	for (size_t i = from; i < log->ndiags; i++)
		if (log->diags[i].severity == WG_SEV_ERROR
		    && log->diags[i].file
		    && strcmp(log->diags[i].file, in->name) == 0
		    && (!log->diags[i].line || lines[log->diags[i].line]))
			wg_log_extend_message(log, i, "; it looks like a Helm "
				"template ({{ ... }}) that was not rendered: "
				"render the chart first (helm template NAME "
				"CHART | wingen build), or run wingen as Helm's "
				"post-renderer");
	free(lines);
}

bool wg_cli_reads_stdin(const struct wg_pathlist *files)
{
	/* "-", and the names of descriptor 0 a user may give instead */
	static const char *const names[] = {
		"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", NULL,
	};

	for (size_t i = 0; i < files->len; i++)
		for (size_t k = 0; names[k]; k++)
			if (strcmp(files->items[i], names[k]) == 0)
				return true;
	return false;
}

/*
 * Whether file was named before in this run, as the same file: the
 * profile's resources: [manifests/] and -f manifests/, or a symbolic link
 * to it.  Its objects are read once, as migrate edits it once; read twice
 * they would be duplicates of themselves, each error naming its own
 * position.  Hashed: a folder of 20,000 files is not 20,000^2 compares;
 * one stat() a file (fileid.h), not realpath()'s one a path component.
 */
bool wg_cli_named_again(struct wg_index *seen, struct wg_buf *key,
			const char *file)
{
	size_t n;

	wg_file_id(file, key);
	wg_index_get(seen, key->buf, key->len, &n);
	if (!n)
		wg_index_add(seen, key->buf, key->len, NULL);
	return n != 0;
}

/* What to run instead of reading a kustomization or its patch: the
 * folder kustomize builds (root; NULL: unknown, "DIR"), rendered. */
static const char *render_advice(struct wg_buf *b, const char *root)
{
	wg_buf_reset(b);
	wg_buf_addf(b, "render the folder first: kubectl kustomize %s | "
		    "wingen build PROFILE -f -", root ? root : "DIR");
	return b->buf;
}

/*
 * A document that is kustomize's own Kustomization or Component (stdin,
 * or a file of another name) is a build description, not an object:
 * emitted as one it came out of build with its namespace: lost.  An
 * error at each, from list's item first on.  Returns how many.
 */
static size_t refuse_kustomizations(struct wg_ctx *ctx,
				    const struct wg_resources *list,
				    size_t first, struct wg_buf *advice)
{
	size_t n = 0;

	for (size_t i = first; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct wg_node *kind = wg_map_get(res->root, "kind");

		if (!wg_kust_is_kustomization(res->root))
			continue;
		wg_report_at(ctx, WG_SEV_ERROR, res->file,
			     wg_node_line(kind) + 1, wg_node_col(kind) + 1,
			     "a kustomization (kind %.*s), not an object: %s",
			     (int)kind->len, kind->u.str,
			     render_advice(advice, NULL));
		n++;
	}
	return n;
}

int wg_cli_read(struct wg_ctx *ctx, const struct wg_pathlist *paths,
		struct wg_inputs *inputs, struct wg_resources *list,
		unsigned jobs)
{
	struct wg_pathlist files = { 0 };
	size_t run = inputs->len;	/* first input not parsed yet */
	int rc = 0;
	bool stdin_seen = false;
	size_t before = ctx->log.ndiags, first = inputs->len;

	struct wg_index *seen = wg_index_new();
	struct wg_kust_refs *kust = wg_kust_refs_new();
	struct wg_buf key = WG_BUF_INIT, advice = WG_BUF_INIT;
	size_t first_res = list->len;

	for (size_t i = 0; i < paths->len; i++)
		if (wg_collect_files(ctx, paths->items[i], &files))
			rc = -1;
	for (size_t i = 0; i < files.len; i++)
		wg_kust_refs_scan_dir_of(kust, files.items[i]);
	if (wg_cli_reads_stdin(&files))
		wg_cli_stdin_waiting("manifests");
	for (size_t i = 0; i < files.len; i++) {
		struct wg_input *in;
		struct wg_ctx quiet;
		const char *why, *root;
		bool read;

		if (strcmp(files.items[i], "-") == 0) {
			if (stdin_seen)
				continue;	/* stdin can be read once */
			stdin_seen = true;
		} else if (wg_cli_named_again(seen, &key, files.items[i])) {
			continue;
		} else if ((why = wg_kust_refs_why(kust, &key, &root))) {
			/* read as an object, a patch with no image is a
			 * Linux workload of its own; with its base, the
			 * same object twice; a kustomization came out as
			 * an object of its own, its namespace: lost */
			wg_report_at(ctx, WG_SEV_ERROR, files.items[i], 0, 0,
				     "%s, not an object: %s", why,
				     render_advice(&advice, root));
			rc = -1;
			continue;
		}
		WG_GROW(inputs->items, inputs->cap, inputs->len + 1);
		in = &inputs->items[inputs->len];
		/* Read first, parse later and on threads (a folder of
		 * small files); messages keep the order of the files.  A
		 * failed read is done again in its turn to say why.  A
		 * file's text goes in the list's arena, which outlives
		 * every use of it: 50,000 small texts in a few large
		 * blocks, not 50,000 mallocs whose pages are each touched
		 * fresh (stdin is read as it comes, not copied there). */
		read = false;
		if (strcmp(files.items[i], "-") != 0) {
			wg_ctx_init(&quiet);
			quiet.limits = ctx->limits;
			read = wg_input_read_in(&quiet, files.items[i],
						&list->arena, in) == 0;
			wg_ctx_release(&quiet);
		}
		if (!read || in->len >= LARGE_INPUT) {
			if (read_run(ctx, inputs, run, inputs->len, list,
				     jobs))
				rc = -1;
			run = inputs->len;
		}
		if (!read && wg_input_read(ctx, files.items[i], in)) {
			rc = -1;
			continue;
		}
		inputs->len++;
		if (!read || in->len >= LARGE_INPUT) {
			if (wg_read_stream_jobs(ctx, in, list, jobs))
				rc = -1;
			run = inputs->len;
		}
	}
	if (read_run(ctx, inputs, run, inputs->len, list, jobs))
		rc = -1;
	if (refuse_kustomizations(ctx, list, first_res, &advice))
		rc = -1;
	/* Parse errors of unrendered Helm templates: the hint, on each
	 * input's own errors (they are read in batches). */
	for (size_t i = first; rc && i < inputs->len; i++)
		wg_cli_helm_hint(ctx, before, &inputs->items[i]);
	if (!wg_cli_reads_stdin(&files))
		wg_cli_stdin_unread(ctx);
	wg_pathlist_release(&files);
	wg_index_free(seen);
	wg_kust_refs_free(kust);
	wg_buf_release(&key);
	wg_buf_release(&advice);
	return rc;
}

int wg_cli_report(struct wg_ctx *ctx, bool verbose)
{
	bool failed = wg_ctx_failed(ctx);

	fflush(stdout);
	wg_log_print(stderr, &ctx->log,
		     verbose ? WG_SEV_INFO : WG_SEV_WARNING);
	return failed ? WG_EXIT_FAIL : WG_EXIT_OK;
}

/* Prints the diagnostics added since before; returns WG_EXIT_FAIL. */
static int output_failed(struct wg_ctx *ctx, size_t before, int status)
{
	if (status != WG_OUT_EPIPE)	/* the reader left: nothing to say */
		for (size_t i = before; i < ctx->log.ndiags; i++)
			wg_diag_print(stderr, &ctx->log.diags[i]);
	return WG_EXIT_FAIL;
}

const char *wg_cli_diff_name(const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	return path;
}

int wg_cli_write(struct wg_ctx *ctx, const char *path, const struct wg_buf *out)
{
	size_t before = ctx->log.ndiags;
	int status = wg_output_write(ctx, path, out->buf, out->len);

	return status ? output_failed(ctx, before, status) : WG_EXIT_OK;
}

/*
 * Passes the stream's text to the output (emit_stream.h's sink).  The
 * sink returns 1 on failure, never the WG_OUT_* code itself: -1 is the
 * stream's "libyaml refused a document", and a write error taken for it
 * read a failure record that was never filled in.  The code is in out.
 */
struct emit_sink {
	struct wg_ctx *ctx;
	struct wg_out *out;
};

static int sink_write(void *data, const char *bytes, size_t len)
{
	struct emit_sink *s = data;

	return wg_out_write(s->ctx, s->out, bytes, len) ? 1 : 0;
}

int wg_cli_emit(struct wg_ctx *ctx, const char *path,
		const struct wg_resources *list, enum wg_format format,
		unsigned jobs)
{
	size_t before = ctx->log.ndiags;
	struct wg_emit_failure fail;
	struct emit_sink sink;
	struct wg_out out;
	int rc;

	if (format == WG_FORMAT_JSON) {
		struct wg_buf buf = WG_BUF_INIT;

		rc = wg_write_resources(ctx, &buf, list, format);
		if (rc == 0)
			rc = wg_cli_write(ctx, path, &buf);
		else
			rc = output_failed(ctx, before, WG_OUT_ERROR);
		wg_buf_release(&buf);
		return rc;
	}
	if (wg_out_open(ctx, &out, path))
		return output_failed(ctx, before, out.status);
	sink = (struct emit_sink){ ctx, &out };
	rc = wg_emit_yaml_stream(list, jobs, sink_write, &sink, &fail);
	if (rc == WG_EMIT_REFUSED)
		rc = wg_error(ctx, list->items[fail.item], NULL, NULL,
			      "cannot write YAML: %s", fail.problem);
	else if (rc != 0)
		rc = out.status;	/* the sink's failure, reported */
	if (rc == 0)
		rc = wg_out_commit(ctx, &out);
	else
		wg_out_abort(&out);
	return rc ? output_failed(ctx, before, rc) : WG_EXIT_OK;
}

unsigned wg_cli_default_jobs(void)
{
	unsigned cpus = wg_emit_cpus();

	return cpus < 4 ? cpus : 4;
}

int wg_parse_format(const char *cmd, const char *arg, enum wg_format *out)
{
	if (strcmp(arg, "yaml") == 0) {
		*out = WG_FORMAT_YAML;
		return 0;
	}
	if (strcmp(arg, "json") == 0) {
		*out = WG_FORMAT_JSON;
		return 0;
	}
	return wg_usage_error(cmd, "--output-format must be 'yaml' or 'json', "
			      "not '%s'", arg);
}
