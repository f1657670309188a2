#ifndef WINGEN_CLI_OPTIONS_H
#define WINGEN_CLI_OPTIONS_H

#include <stdbool.h>

#include "wingen/base/input.h"

/*
 * Command-line options as data: each command lists what it takes, and one
 * parser (getopt_long underneath) does the rest and reports usage errors
 * the same way everywhere.
 */

enum wg_opt_kind {
	WG_OPT_FLAG = 1,	/* bool *: set to true */
	WG_OPT_STRING,		/* const char **: the value (the last one) */
	WG_OPT_PATHS,		/* struct wg_pathlist *: every value, in order */
	WG_OPT_CHOICE,		/* int *: index of the value in choices */
	WG_OPT_RESTRICTOR,	/* bool *: --load-restrictor none (true) or
				   rootonly (false), kustomize spellings too */
	WG_OPT_JOBS,		/* unsigned *: a thread count, 1 to
				   WG_EMIT_MAX_JOBS; give the target
				   wg_cli_default_jobs() first */
};

struct wg_opt {
	const char *name;		/* long name, without "--" */
	char short_name;		/* 0: none */
	enum wg_opt_kind kind;
	void *target;
	const char *const *choices;	/* WG_OPT_CHOICE: NULL-terminated */
};

#define WG_OPT_END { NULL, 0, 0, NULL, NULL }

/* The options of every command that loads a profile. */
#define WG_OPTS_PROFILE(popts)						\
	{ "templates", 0, WG_OPT_STRING, &(popts)->templates, NULL },	\
	{ "load-restrictor", 0, WG_OPT_RESTRICTOR,			\
	  &(popts)->load_restrictor_none, NULL }

/*
 * Parses argv[1..argc) of command cmd against opts (ended by WG_OPT_END;
 * -h and --help are always known).  Positional arguments are appended to
 * pos, in order; pos NULL means the command takes none.  Returns 0, -1
 * when help was asked for, or WG_EXIT_USAGE after printing a usage error.
 */
int wg_parse_options(const char *cmd, int argc, char **argv,
		     const struct wg_opt *opts, struct wg_pathlist *pos);

#endif
