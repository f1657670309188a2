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
	WG_OPT_FORMAT,		/* int *: as WG_OPT_CHOICE, for -o: a value
				   that is no format is a usage error that
				   names --output-file (kubectl's -o is a
				   format, never a file) */
	WG_OPT_FILES,		/* struct wg_pathlist *: every value, split
				   at commas (kubectl's -f a.yaml,b.yaml) */
	WG_OPT_IGNORED,		/* no target: accepted and ignored */
	WG_OPT_KUSTOMIZE,	/* no target: -k DIR, a usage error that
				   says how wingen reads a kustomization */
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
 * --retarget OLD=NEW, repeatable (build, check, migrate): every value in
 * list, in order; WG_RETARGET_SET hands them to the profile loader, which
 * checks them as it checks windows.retarget.
 */
#define WG_OPT_RETARGET(list) \
	{ "retarget", 0, WG_OPT_PATHS, (list), NULL }
#define WG_RETARGET_SET(popts, list)					\
	((popts)->retarget = (const char *const *)(list)->items,	\
	 (popts)->nretarget = (list)->len)

/*
 * -o/--output FORMAT (index into formats, the first the default) and
 * --output-file FILE, the same on every command that writes: -o is always
 * a format, as in kubectl.  --output-format is the older spelling of -o,
 * still accepted.
 */
#define WG_OPTS_OUTPUT(format, formats, file)				\
	{ "output", 'o', WG_OPT_FORMAT, (format), (formats) },		\
	{ "output-format", 0, WG_OPT_FORMAT, (format), (formats) },	\
	{ "output-file", 0, WG_OPT_STRING, (file), NULL }

/*
 * -f/--filename PATH (split at commas, as kubectl), -R/--recursive
 * (accepted: folders are always read recursively) and -k/--kustomize DIR
 * (a usage error: wingen reads what kubectl kustomize renders), the
 * kubectl habits of every command that reads manifests.
 */
#define WG_OPTS_FILENAME(paths)						\
	{ "filename", 'f', WG_OPT_FILES, (paths), NULL },		\
	{ "recursive", 'R', WG_OPT_IGNORED, NULL, NULL },		\
	{ "kustomize", 'k', WG_OPT_KUSTOMIZE, NULL, NULL }

/*
 * Parses argv[1..argc) of command cmd against opts (ended by WG_OPT_END;
 * -h and --help are always known).  Positional arguments are appended to
 * pos, in order; pos NULL means the command takes none.  An unknown
 * option gets a did-you-mean among opts.  A short option's value
 * attached with "=" (-o=json, as kubectl's flag parser takes it) loses
 * the "=".  Returns 0, -1 when help was
 * asked for, or WG_EXIT_USAGE after printing a usage error.
 */
int wg_parse_options(const char *cmd, int argc, char **argv,
		     const struct wg_opt *opts, struct wg_pathlist *pos);

/* The values --load-restrictor offers (WG_OPT_RESTRICTOR; kustomize's
 * LoadRestrictions* spellings are accepted too), ended by NULL. */
extern const char *const wg_load_restrictors[];

/*
 * A command's options as data, for shell completion (completion.h).
 * wg_cli_options_of() runs the command (its entry point run) with "--help" while
 * describing: its own call of wg_parse_options() copies its table into
 * out and returns -1 at once (help asked), and wg_print_help() prints
 * nothing.  A command that parses no options (fn) leaves out->parsed
 * false.
 */
#define WG_OPT_INFO_MAX 48
#define WG_OPT_INFO_CHOICES 8

struct wg_opt_info {
	const char *name;
	char short_name;
	enum wg_opt_kind kind;
	const char *choices[WG_OPT_INFO_CHOICES + 1];	/* NULL-ended */
};

struct wg_opts_info {
	struct wg_opt_info opts[WG_OPT_INFO_MAX];
	size_t n;
	bool parsed;		/* the command called wg_parse_options() */
	bool positional;	/* it takes positional arguments */
};

void wg_cli_options_of(const char *name, int (*run)(int argc, char **argv),
		       struct wg_opts_info *out);

/* Whether wg_cli_options_of() is running a command, where its parser
 * copies the options while it does, and the setting of it (describe.c:
 * the state alone, so that help and the parser both read it and neither
 * calls the other). */
bool wg_cli_describing(void);
struct wg_opts_info *wg_cli_describe_target(void);
void wg_cli_describe_into(struct wg_opts_info *out);

#endif
