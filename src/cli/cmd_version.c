/*
 * wingen version: wingen's own version and the git commit it was built
 * from and, for each library it links, the version it was built with and
 * the one it runs with.  They differ when a shared library was upgraded
 * (or downgraded) under the binary, which is the first thing to know
 * about a bug report.  -o json for tools, --short for the version alone.
 */
#include <stdio.h>
#include <string.h>

#include <cyaml/cyaml.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <pcre2.h>
#include <yajl/yajl_version.h>
#include <yaml.h>
#include <zlib.h>

#include "cli.h"
#include "gitcommit.h"		/* cmake/gitcommit.cmake, at build time */
#include "options.h"
#include "wingen/base/arena.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/writer.h"

/* libyaml's and libcyaml's headers carry no version macro, so the build
 * passes what pkg-config found (CMakeLists.txt). */
#ifndef WINGEN_BUILT_LIBYAML
#define WINGEN_BUILT_LIBYAML "unknown"
#endif
#ifndef WINGEN_BUILT_LIBCYAML
#define WINGEN_BUILT_LIBCYAML "unknown"
#endif
#define WG_STR2(x) #x
#define WG_STR(x) WG_STR2(x)

#define VERSION_MAX 64

static void libyaml_running(char *out)
{
	snprintf(out, VERSION_MAX, "%s", yaml_get_version_string());
}

/* cyaml_version: 0bR0000000JJJJJJJJNNNNNNNNPPPPPPPP (cyaml.h). */
static void libcyaml_running(char *out)
{
	unsigned v = (unsigned)cyaml_version;

	snprintf(out, VERSION_MAX, "%u.%u.%u", (v >> 16) & 0xffu,
		 (v >> 8) & 0xffu, v & 0xffu);
}

/* "10.42 2022-12-11" from pcre2_config. */
static void pcre2_running(char *out)
{
	char buf[VERSION_MAX] = "";
	int n = pcre2_config(PCRE2_CONFIG_VERSION, NULL);

	if (n > 0 && (size_t)n <= sizeof(buf))
		pcre2_config(PCRE2_CONFIG_VERSION, buf);
	snprintf(out, VERSION_MAX, "%s", buf[0] ? buf : "unknown");
}

static void zlib_running(char *out)
{
	snprintf(out, VERSION_MAX, "%s", zlibVersion());
}

/* MHD_VERSION is the version's digits written in hex, 0x00097500 for
 * 0.9.75 (its headers carry no string). */
#define MHD_BUILT_MAJOR ((MHD_VERSION >> 24) & 0xff)
#define MHD_BUILT_MINOR ((MHD_VERSION >> 16) & 0xff)
#define MHD_BUILT_PATCH ((MHD_VERSION >> 8) & 0xff)

static char mhd_built[VERSION_MAX];

static void mhd_running(char *out)
{
	const char *v = MHD_get_version();

	snprintf(out, VERSION_MAX, "%s", v ? v : "unknown");
}

static void gnutls_running(char *out)
{
	const char *v = gnutls_check_version(NULL);

	snprintf(out, VERSION_MAX, "%s", v ? v : "unknown");
}

/* yajl_version(): major * 10000 + minor * 100 + micro (yajl_version.h). */
static void yajl_running(char *out)
{
	int v = yajl_version();

	snprintf(out, VERSION_MAX, "%d.%d.%d", v / 10000, v / 100 % 100,
		 v % 100);
}

/* Every library wingen links, in the order printed.  A library added to
 * the link gets a row here. */
static const struct library {
	const char *name;
	const char *built;		/* the version of its headers */
	void (*running)(char *out);	/* asks the library itself */
} libraries[] = {
	{ "libyaml", WINGEN_BUILT_LIBYAML, libyaml_running },
	{ "libcyaml", WINGEN_BUILT_LIBCYAML, libcyaml_running },
	{ "PCRE2", WG_STR(PCRE2_MAJOR) "." WG_STR(PCRE2_MINOR), pcre2_running },
	{ "zlib", ZLIB_VERSION, zlib_running },
	/* wingen serve's HTTP and TLS */
	{ "libmicrohttpd", mhd_built, mhd_running },
	{ "GnuTLS", GNUTLS_VERSION, gnutls_running },
	/* its request bodies' JSON */
	{ "yajl", WG_STR(YAJL_MAJOR) "." WG_STR(YAJL_MINOR) "."
		  WG_STR(YAJL_MICRO), yajl_running },
};
#define NLIBRARIES (sizeof(libraries) / sizeof(*libraries))

/* The short form, as helm version --short: 0.1.0+g1a2b3c4d5e6f (.dirty),
 * the version alone when the commit is unknown. */
static void short_version(struct wg_buf *out)
{
	wg_buf_addstr(out, WINGEN_VERSION);
	if (strcmp(WINGEN_GIT_COMMIT, "unknown") != 0)
		wg_buf_addf(out, "+g%.12s%s", WINGEN_GIT_COMMIT,
			    strcmp(WINGEN_GIT_TREE, "dirty") == 0 ? ".dirty"
								   : "");
	wg_buf_addch(out, '\n');
}

static void text(struct wg_buf *out)
{
	char running[VERSION_MAX];

	wg_buf_addf(out, "wingen %s\n", WINGEN_VERSION);
	wg_buf_addf(out, "%-13s %s", "commit", WINGEN_GIT_COMMIT);
	if (strcmp(WINGEN_GIT_TREE, "clean") != 0
	    && strcmp(WINGEN_GIT_COMMIT, "unknown") != 0)
		wg_buf_addf(out, " (%s)", WINGEN_GIT_TREE);
	wg_buf_addch(out, '\n');
	for (size_t i = 0; i < NLIBRARIES; i++) {
		libraries[i].running(running);
		wg_buf_addf(out, "%-13s built with %-10s running %s\n",
			    libraries[i].name, libraries[i].built, running);
	}
}

/*
 * {"version": ..., "gitCommit": ..., "gitTreeState": ..., "libraries":
 * [{"name": ..., "builtWith": ..., "running": ...}, ...]}: field names as
 * kubectl version -o json and helm version spell theirs.
 */
static void json(struct wg_buf *out)
{
	struct wg_arena a;
	struct wg_node *root, *libs;
	char running[VERSION_MAX];

	wg_arena_init(&a);
	root = wg_node_new_map(&a);
	wg_map_set(&a, root, "version", wg_node_new_str(&a, WINGEN_VERSION));
	wg_map_set(&a, root, "gitCommit",
		   wg_node_new_str(&a, WINGEN_GIT_COMMIT));
	wg_map_set(&a, root, "gitTreeState",
		   wg_node_new_str(&a, WINGEN_GIT_TREE));
	libs = wg_map_set(&a, root, "libraries", wg_node_new_seq(&a));
	for (size_t i = 0; i < NLIBRARIES; i++) {
		struct wg_node *lib = wg_node_new_map(&a);

		libraries[i].running(running);
		wg_map_set(&a, lib, "name",
			   wg_node_new_str(&a, libraries[i].name));
		wg_map_set(&a, lib, "builtWith",
			   wg_node_new_str(&a, libraries[i].built));
		wg_map_set(&a, lib, "running", wg_node_new_str(&a, running));
		wg_seq_append(&a, libs, lib);
	}
	/* strings only: nothing a JSON text cannot hold */
	wg_json_write_tree(out, root, 2);
	wg_arena_release(&a);
}

int wg_cmd_version(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	int format = 0;
	bool brief = false;
	const char *output = NULL;
	const struct wg_opt opts[] = {
		WG_OPTS_OUTPUT(&format, formats, &output),
		{ "short", 0, WG_OPT_FLAG, &brief, NULL },
		WG_OPT_END,
	};
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	int rc = wg_parse_options("version", argc, argv, opts, NULL);

	snprintf(mhd_built, sizeof(mhd_built), "%x.%x.%x",
		 (unsigned)MHD_BUILT_MAJOR, (unsigned)MHD_BUILT_MINOR,
		 (unsigned)MHD_BUILT_PATCH);
	if (rc)
		return rc < 0 ? wg_print_help("version") : rc;
	if (brief && format == 1)
		return wg_usage_error("version", "--short and -o json exclude "
				      "each other");
	if (brief)
		short_version(&out);
	else if (format == 1)
		json(&out);
	else
		text(&out);
	wg_ctx_init(&ctx);
	rc = wg_cli_write(&ctx, output, &out);
	wg_ctx_release(&ctx);
	wg_buf_release(&out);
	return rc;
}
