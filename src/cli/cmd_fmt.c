/*
 * wingen fmt: read manifests and write them back with no plugins.  Shows
 * what the round trip does to a stream, and normalises layout.  Holds one
 * document's tree at a time.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/yaml/reader.h"

struct fmt_opts {
	struct wg_pathlist paths;
	const char *output;	/* --output-file; NULL: stdout */
	enum wg_format format;
	unsigned jobs;	/* 2 or more: parse on a thread of its own */
};

static int parse(int argc, char **argv, struct fmt_opts *o)
{
	static const char *const formats[] = { "yaml", "json", NULL };
	int format = WG_FORMAT_YAML;
	const struct wg_opt opts[] = {
		WG_OPTS_FILENAME(&o->paths),
		WG_OPTS_OUTPUT(&format, formats, &o->output),
		{ "jobs", 'j', WG_OPT_JOBS, &o->jobs, NULL },
		WG_OPT_END,
	};
	struct wg_pathlist extra = { 0 };
	int rc;

	o->jobs = wg_cli_default_jobs();
	rc = wg_parse_options("fmt", argc, argv, opts, &extra);

	if (rc == 0 && extra.len)
		rc = wg_usage_error("fmt", "unexpected argument '%s' (use -f "
				    "for inputs)", extra.items[0]);
	wg_pathlist_release(&extra);
	o->format = (enum wg_format)format;
	if (rc == 0 && !o->paths.len)
		wg_pathlist_add(&o->paths, "-");
	return rc;
}

/*
 * Streams one input: each document is written, then its tree dropped.  On
 * one thread the reader adopts libyaml's strings and the writer hands them
 * back, so a scalar's text is never copied; with jobs, libyaml parses the
 * next document on a thread of its own meanwhile (reader.h, threaded).
 */
static void fmt_input(struct wg_ctx *ctx, const struct wg_input *in,
		      struct wg_yaml_writer *yw, struct wg_buf *out,
		      const struct fmt_opts *o)
{
	struct wg_resources docs;
	struct wg_reader r;
	struct wg_source_cursor heads = { 0, 0, 0 };
	struct wg_node *root;
	unsigned index;
	int rc;

	wg_reader_init(&r, ctx, in);
	r.adopt = true;
	r.threaded = o->jobs > 1;
	wg_resources_init(&docs);
	do {
		docs.len = 0;
		wg_arena_clear(&docs.arena);
		rc = wg_reader_next(&r, &docs.arena, &root, &index);
		if (rc <= 0)
			break;
		wg_resources_add_document(&docs, root, in->name, index);
		/* Helm's "# Source:" comments stay, as build keeps them */
		if (o->format == WG_FORMAT_YAML)
			wg_resources_source_comments(&docs, 0, docs.len, in,
						     &heads);
		for (size_t i = 0; i < docs.len; i++) {
			if (o->format == WG_FORMAT_JSON)
				wg_json_write(ctx, out, docs.items[i]);
			else if (wg_yaml_writer_doc_take_headed(yw,
					docs.items[i]->root,
					docs.items[i]->source_comment))
				wg_error(ctx, docs.items[i], NULL, NULL,
					 "cannot write YAML: %s", yw->error);
		}
		wg_reader_release_doc(&r);
	} while (rc > 0);
	wg_reader_release_doc(&r);	/* before the arena its nodes live in */
	wg_resources_release(&docs);
	wg_reader_release(&r);
}

int wg_cmd_fmt(int argc, char **argv)
{
	struct fmt_opts o = { 0 };
	struct wg_pathlist files = { 0 };
	struct wg_buf out = WG_BUF_INIT;
	struct wg_yaml_writer yw;
	struct wg_ctx ctx;
	int rc = parse(argc, argv, &o);

	if (rc) {
		wg_pathlist_release(&o.paths);
		return rc < 0 ? wg_print_help("fmt") : rc;
	}
	wg_ctx_init(&ctx);
	wg_yaml_writer_init(&yw, &out);
	for (size_t i = 0; i < o.paths.len; i++)
		wg_collect_files(&ctx, o.paths.items[i], &files);
	if (wg_cli_reads_stdin(&files))
		wg_cli_stdin_waiting("manifests");
	for (size_t i = 0; i < files.len; i++) {
		struct wg_input in;

		if (wg_input_read(&ctx, files.items[i], &in))
			continue;
		/* The output is about the input's size: one growth, not many. */
		wg_buf_grow(&out, in.len + in.len / 8);
		fmt_input(&ctx, &in, &yw, &out, &o);
		wg_input_release(&in);
	}
	if (!wg_cli_reads_stdin(&files))
		wg_cli_stdin_unread(&ctx);
	if (o.format == WG_FORMAT_YAML && wg_yaml_writer_finish(&yw))
		wg_report_at(&ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "cannot write YAML: %s", yw.error);
	wg_yaml_writer_release(&yw);
	rc = wg_cli_report(&ctx, false);
	if (rc == WG_EXIT_OK)
		rc = wg_cli_write(&ctx, o.output, &out);
	wg_buf_release(&out);
	wg_pathlist_release(&files);
	wg_pathlist_release(&o.paths);
	wg_ctx_release(&ctx);
	return rc;
}
