/*
 * wingen builds: the compiled-in catalog of Windows Server builds (and,
 * with --images, of Microsoft's image families), as a table or as JSON.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/images.h"
#include "wingen/yaml/scalar.h"

static void runs(struct wg_buf *out, const struct wg_release *host,
		 const char *sep, bool quote)
{
	bool first = true;

	for (const struct wg_release *r = wg_releases; r->name; r++) {
		/* Releases with no base images of their own (23H2) add
		 * nothing to what a host can run. */
		if (!wg_release_can_run(host, r)
		    || !(r->servercore || r->nanoserver || r->server))
			continue;
		wg_buf_addstr(out, first ? "" : sep);
		if (quote)
			wg_json_quote(out, r->name, strlen(r->name));
		else
			wg_buf_addstr(out, r->name);
		first = false;
	}
}

static const char *status(const struct wg_release *r)
{
	if (r->supported)
		return "supported";
	return r->end_of_life ? "end of life" : "legacy";
}

static void table(struct wg_buf *out)
{
	wg_buf_addf(out, "%-9s %-11s %-10s %-11s %-11s %-9s %-18s %s\n",
		    "RELEASE", "BUILD", "ALIASES", "SERVERCORE", "NANOSERVER",
		    "SERVER", "RUNS IMAGES OF", "STATUS");
	for (const struct wg_release *r = wg_releases; r->name; r++) {
		struct wg_buf aliases = WG_BUF_INIT, images = WG_BUF_INIT;

		for (size_t i = 0; i < 3 && r->aliases[i]; i++)
			wg_buf_addf(&aliases, "%s%s", i ? "," : "",
				    r->aliases[i]);
		runs(&images, r, ",", false);
		wg_buf_addf(out, "%-9s %-11s %-10s %-11s %-11s %-9s %-18s %s\n",
			    r->name, r->build, aliases.len ? aliases.buf : "-",
			    r->servercore ? r->servercore : "-",
			    r->nanoserver ? r->nanoserver : "-",
			    r->server ? r->server : "-", images.buf,
			    status(r));
		wg_buf_release(&aliases);
		wg_buf_release(&images);
	}
}

static void json_str(struct wg_buf *out, const char *key, const char *v)
{
	wg_buf_addf(out, "\"%s\": ", key);
	if (v)
		wg_json_quote(out, v, strlen(v));
	else
		wg_buf_addstr(out, "null");
}

static void json(struct wg_buf *out)
{
	wg_buf_addstr(out, "[\n");
	for (const struct wg_release *r = wg_releases; r->name; r++) {
		wg_buf_addstr(out, "  {");
		json_str(out, "name", r->name);
		wg_buf_addstr(out, ", \"aliases\": [");
		for (size_t i = 0; i < 3 && r->aliases[i]; i++) {
			wg_buf_addstr(out, i ? ", " : "");
			wg_json_quote(out, r->aliases[i],
				      strlen(r->aliases[i]));
		}
		wg_buf_addstr(out, "], ");
		json_str(out, "build", r->build);
		wg_buf_addf(out, ", \"number\": %u, \"ltsc\": %s, "
			    "\"supported\": %s, \"endOfLife\": %s, "
			    "\"images\": {", r->number,
			    r->ltsc ? "true" : "false",
			    r->supported ? "true" : "false",
			    r->end_of_life ? "true" : "false");
		json_str(out, "servercore", r->servercore);
		wg_buf_addstr(out, ", ");
		json_str(out, "nanoserver", r->nanoserver);
		wg_buf_addstr(out, ", ");
		json_str(out, "server", r->server);
		wg_buf_addstr(out, "}, \"runs\": [");
		runs(out, r, ", ", true);
		wg_buf_addstr(out, "], ");
		json_str(out, "note", r->note);
		wg_buf_addstr(out, r[1].name ? "},\n" : "}\n");
	}
	wg_buf_addstr(out, "]\n");
}

static const char *const form_names[] = {
	"", "release", "variant", "none",
};

static void versions_text(struct wg_buf *out,
			  const struct wg_fx_version *v, bool json)
{
	for (size_t i = 0; v && v[i].version; i++) {
		if (json) {
			wg_buf_addstr(out, i ? ", " : "");
			wg_json_quote(out, v[i].version,
				      strlen(v[i].version));
			wg_buf_addstr(out, ": [");
		} else {
			wg_buf_addf(out, "    %-6s", v[i].version);
		}
		for (size_t k = 0; k < 5 && v[i].releases[k]; k++) {
			if (json)
				wg_json_quote(out, v[i].releases[k],
					      strlen(v[i].releases[k]));
			else
				wg_buf_addstr(out, v[i].releases[k]);
			if (k + 1 < 5 && v[i].releases[k + 1])
				wg_buf_addstr(out, json ? ", " : ",");
		}
		wg_buf_addstr(out, json ? "]" : "\n");
	}
}

static void images_table(struct wg_buf *out)
{
	const struct wg_fx_version *fx = NULL;

	wg_buf_addf(out, "%-30s %-8s %-8s %s\n", "FAMILY", "TAGS", "WINDOWS",
		    "EXAMPLE");
	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++) {
		wg_buf_addf(out, "%-30s %-8s %-8s %s\n", f->name,
			    form_names[f->form],
			    f->windows ? "always" : "by tag", f->example);
		if (f->versions && !fx)
			fx = f->versions;
	}
	wg_buf_addstr(out, "\nAny repository: a tag ending in "
		      "-windowsservercore-<tag>, -nanoserver-<tag>,\n"
		      "-servercore-<tag> or -windows-<tag> (then -amd64 or "
		      "-arm64) is a Windows image of\n"
		      "the release whose base image has <tag> "
		      "(4.8-windowsservercore-ltsc2019).\n"
		      "A mirror (myacr.azurecr.io/mirror/windows/servercore) "
		      "is of its family.\n"
		      "\n.NET Framework versions by release (wcf: no 3.5):\n");
	versions_text(out, fx, false);
}

static void images_json(struct wg_buf *out)
{
	wg_buf_addstr(out, "[\n");
	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++) {
		wg_buf_addstr(out, "  {");
		json_str(out, "name", f->name);
		wg_buf_addstr(out, ", \"repositories\": [");
		for (size_t i = 0; i < 3 && f->repos[i]; i++) {
			wg_buf_addstr(out, i ? ", " : "");
			wg_json_quote(out, f->repos[i], strlen(f->repos[i]));
		}
		wg_buf_addstr(out, "], ");
		json_str(out, "tags", form_names[f->form]);
		wg_buf_addf(out, ", \"windows\": %s, \"anyBuild\": %s, ",
			    f->windows ? "true" : "false",
			    f->any_build ? "true" : "false");
		json_str(out, "successor", f->successor);
		wg_buf_addstr(out, ", \"frameworkVersions\": {");
		versions_text(out, f->versions, true);
		wg_buf_addstr(out, "}, ");
		json_str(out, "example", f->example);
		wg_buf_addstr(out, ", ");
		json_str(out, "note", f->note);
		wg_buf_addstr(out, f[1].name ? "},\n" : "}\n");
	}
	wg_buf_addstr(out, "]\n");
}

int wg_cmd_builds(int argc, char **argv)
{
	static const char *const formats[] = { "table", "json", NULL };
	int format = 0;
	const char *file = NULL;
	bool images = false;
	const struct wg_opt opts[] = {
		WG_OPTS_OUTPUT(&format, formats, &file),
		{ "images", 0, WG_OPT_FLAG, &images, NULL },
		WG_OPT_END,
	};
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	int rc = wg_parse_options("builds", argc, argv, opts, NULL);

	if (rc)
		return rc < 0 ? wg_print_help("builds") : rc;
	if (images && format == 1)
		images_json(&out);
	else if (images)
		images_table(&out);
	else if (format == 1)
		json(&out);
	else
		table(&out);
	wg_ctx_init(&ctx);
	rc = wg_cli_write(&ctx, file, &out);
	wg_ctx_release(&ctx);
	wg_buf_release(&out);
	return rc;
}
