#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wingen/base/alloc.h"
#include "wingen/base/suggest.h"
#include "wingen/yaml/emit_stream.h"

/*
 * An unknown option: the message, with the closest long option when it
 * looks like a typo ("--outptu" -> "--output").  word is the argument as
 * given; for "--name=value" only the name is compared.
 */
static int unknown(const char *cmd, const char *arg,
		   const struct wg_opt *opts, size_t n)
{
	const char **names = wg_xcalloc(n + 1, sizeof(*names));
	struct wg_buf name = WG_BUF_INIT;
	const char *word = arg, *eq, *hint = NULL;
	int rc;

	for (size_t i = 0; i < n; i++)
		names[i] = opts[i].name;
	names[n] = "help";
	if (word[0] == '-' && word[1] == '-') {
		word += 2;
		eq = strchr(word, '=');
		wg_buf_add(&name, word, eq ? (size_t)(eq - word)
					   : strlen(word));
		hint = name.len > 1 ? wg_suggest(name.buf, names, n + 1)
				    : NULL;
	}
	if (hint)
		rc = wg_usage_error(cmd, "unknown option '%s'; did you mean "
				    "'--%s'?", arg, hint);
	else
		rc = wg_usage_error(cmd, "unknown option '%s'", arg);
	wg_buf_release(&name);
	free(names);
	return rc;
}

/* getopt_long's answer for opts[i] (above any short option's). */
#define LONG_VAL(i) (256 + (int)(i))

static int choice(const char *cmd, const struct wg_opt *o, const char *arg)
{
	bool format = o->kind == WG_OPT_FORMAT;
	struct wg_buf list = WG_BUF_INIT;
	int rc;

	for (int i = 0; o->choices[i]; i++) {
		if (strcmp(arg, o->choices[i]) == 0) {
			*(int *)o->target = i;
			wg_buf_release(&list);
			return 0;
		}
		wg_buf_addf(&list, "%s'%s'", i ? (o->choices[i + 1] ? ", "
						   : " or ") : "",
			    o->choices[i]);
	}
	if (format)
		rc = wg_usage_error(cmd, "-o/--output is a format, %s, not "
				    "'%s'; to write a file, use --output-file "
				    "%s", list.buf, arg, arg);
	else
		rc = wg_usage_error(cmd, "--%s must be %s, not '%s'", o->name,
				    list.buf, arg);
	wg_buf_release(&list);
	return rc;
}

/* Appends each comma-separated part of arg to list; an empty part (a
 * doubled or trailing comma) is a usage error, not a read of "". */
static int files(const char *cmd, const struct wg_opt *o, const char *arg)
{
	struct wg_buf part = WG_BUF_INIT;
	const char *p = arg, *comma;
	int rc = 0;

	do {
		comma = strchr(p, ',');
		wg_buf_reset(&part);
		wg_buf_add(&part, p, comma ? (size_t)(comma - p) : strlen(p));
		if (!part.len) {
			rc = wg_usage_error(cmd, "-%c/--%s '%s' names an empty "
					    "path", o->short_name, o->name,
					    arg);
			break;
		}
		wg_pathlist_add(o->target, part.buf);
		if (comma)
			p = comma + 1;
	} while (comma);
	wg_buf_release(&part);
	return rc;
}

/* -k DIR: wingen runs no kustomize; it reads what kustomize renders, and
 * migrate edits the folder itself. */
static int kustomize(const char *cmd, const char *arg)
{
	if (strcmp(cmd, "migrate") == 0)
		return wg_usage_error(cmd, "-k/--kustomize: give the folder "
				      "itself: wingen migrate PROFILE %s "
				      "--in-place edits its files, and the "
				      "kustomization lists the RuntimeClasses",
				      arg);
	return wg_usage_error(cmd, "-k/--kustomize: wingen does not run "
			      "kustomize; render the folder first: kubectl "
			      "kustomize %s | wingen %s%s -f -", arg, cmd,
			      strcmp(cmd, "fmt") == 0 ? "" : " PROFILE");
}

/* A thread count given to option --name of cmd: 1 to WG_EMIT_MAX_JOBS.
 * 0, or WG_EXIT_USAGE after a usage error. */
static int parse_jobs(const char *cmd, const char *name, const char *arg,
		      unsigned *jobs)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (end == arg || *end || n < 1 || n > WG_EMIT_MAX_JOBS)
		return wg_usage_error(cmd, "--%s takes a number from 1 to "
				      "%d, not '%s'", name, WG_EMIT_MAX_JOBS,
				      arg);
	*jobs = (unsigned)n;
	return 0;
}

/* The --load-restrictor value: rootonly or none. */
static int parse_load_restrictor(const char *cmd, const char *arg,
				 bool *none)
{
	/* kustomize's spellings are accepted too. */
	if (strcmp(arg, "none") == 0
	    || strcmp(arg, "LoadRestrictionsNone") == 0) {
		*none = true;
		return 0;
	}
	if (strcmp(arg, "rootonly") == 0
	    || strcmp(arg, "LoadRestrictionsRootOnly") == 0) {
		*none = false;
		return 0;
	}
	return wg_usage_error(cmd, "--load-restrictor must be 'rootonly' or "
			      "'none', not '%s'", arg);
}

static int apply(const char *cmd, const struct wg_opt *o, const char *arg)
{
	switch (o->kind) {
	case WG_OPT_FLAG:
		*(bool *)o->target = true;
		return 0;
	case WG_OPT_STRING:
		*(const char **)o->target = arg;
		return 0;
	case WG_OPT_PATHS:
		wg_pathlist_add(o->target, arg);
		return 0;
	case WG_OPT_CHOICE:
	case WG_OPT_FORMAT:
		return choice(cmd, o, arg);
	case WG_OPT_RESTRICTOR:
		return parse_load_restrictor(cmd, arg, o->target);
	case WG_OPT_JOBS:
		return parse_jobs(cmd, o->name, arg, o->target);
	case WG_OPT_FILES:
		return files(cmd, o, arg);
	case WG_OPT_IGNORED:
		return 0;
	case WG_OPT_KUSTOMIZE:
		return kustomize(cmd, arg);
	}
	return 0;
}

const char *const wg_load_restrictors[] = { "rootonly", "none", NULL };

static void describe(const struct wg_opt *opts, size_t n, bool positional)
{
	struct wg_opts_info *d = wg_cli_describe_target();

	d->parsed = true;
	d->positional = positional;
	for (size_t i = 0; i < n && d->n < WG_OPT_INFO_MAX; i++) {
		struct wg_opt_info *o = &d->opts[d->n++];
		size_t k = 0;

		o->name = opts[i].name;
		o->short_name = opts[i].short_name;
		o->kind = opts[i].kind;
		for (; opts[i].choices && opts[i].choices[k]
		       && k < WG_OPT_INFO_CHOICES; k++)
			o->choices[k] = opts[i].choices[k];
		o->choices[k] = NULL;
	}
}

void wg_cli_options_of(const char *cmd, int (*run)(int argc, char **argv),
		       struct wg_opts_info *out)
{
	static char help[] = "--help";
	char name[64];
	char *argv[] = { name, help, NULL };

	memset(out, 0, sizeof(*out));
	snprintf(name, sizeof(name), "%s", cmd);
	wg_cli_describe_into(out);
	run(2, argv);
	wg_cli_describe_into(NULL);
}

int wg_parse_options(const char *cmd, int argc, char **argv,
		     const struct wg_opt *opts, struct wg_pathlist *pos)
{
	size_t n = 0;
	struct option *longopts;
	struct wg_buf shorts = WG_BUF_INIT;
	int c, rc = 0;

	while (opts[n].name)
		n++;
	if (wg_cli_describing()) {
		describe(opts, n, pos != NULL);
		return -1;
	}
	longopts = wg_xcalloc(n + 2, sizeof(*longopts));
	wg_buf_addstr(&shorts, ":h");
	for (size_t i = 0; i < n; i++) {
		bool arg = opts[i].kind != WG_OPT_FLAG
			   && opts[i].kind != WG_OPT_IGNORED;

		longopts[i].name = opts[i].name;
		longopts[i].has_arg = arg ? required_argument : no_argument;
		longopts[i].val = opts[i].short_name ? opts[i].short_name
						     : LONG_VAL(i);
		if (opts[i].short_name) {
			wg_buf_addch(&shorts, opts[i].short_name);
			if (arg)
				wg_buf_addch(&shorts, ':');
		}
	}
	longopts[n].name = "help";
	longopts[n].val = 'h';
	optind = 1;
	opterr = 0;
	while (rc == 0
	       && (c = getopt_long(argc, argv, shorts.buf, longopts, NULL))
		  != -1) {
		const struct wg_opt *o = NULL;

		if (c == 'h') {
			rc = -1;
			break;
		}
		if (c == ':') {
			rc = wg_usage_error(cmd, "option '%s' needs a value",
					    argv[optind - 1]);
			break;
		}
		if (c == '?') {
			rc = unknown(cmd, argv[optind - 1], opts, n);
			break;
		}
		for (size_t i = 0; i < n && !o; i++)
			if (c == LONG_VAL(i) || c == opts[i].short_name)
				o = &opts[i];
		/* -o=json: the value attached to a short option, with the
		 * "=" kubectl's flag parser drops (getopt keeps it) */
		if (optarg && c < 256 && optarg != argv[optind - 1]
		    && argv[optind - 1][1] != '-' && optarg[0] == '=')
			optarg++;
		rc = apply(cmd, o, optarg);
	}
	for (; rc == 0 && optind < argc; optind++) {
		if (!pos)
			rc = wg_usage_error(cmd, "unexpected argument '%s'",
					    argv[optind]);
		else
			wg_pathlist_add(pos, argv[optind]);
	}
	free(longopts);
	wg_buf_release(&shorts);
	return rc;
}
