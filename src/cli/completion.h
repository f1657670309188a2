#ifndef WINGEN_CLI_COMPLETION_H
#define WINGEN_CLI_COMPLETION_H

#include <stdbool.h>

#include "cli.h"
#include "options.h"
#include "wingen/base/buf.h"

/*
 * Shell completion (wingen completion bash|zsh|fish), made from the CLI's
 * own tables, never written by hand: the commands and their summaries
 * (wg_commands), each command's options as its parser holds them
 * (wg_cli_options_of), the value each option takes and its line of help
 * from the command's --help text, the positional arguments from its
 * synopsis, and the release names from the build catalogue.  A command
 * or an option added to those tables is completed by all three shells.
 */

/* What a value (of an option, or a positional argument) is. */
enum wg_comp_value {
	WG_COMP_NOTHING = 0,	/* a number, K=V: nothing to offer */
	WG_COMP_FILES,
	WG_COMP_DIRS,
	WG_COMP_WORDS,		/* one of words */
	WG_COMP_RETARGET,	/* OLD=NEW: releases, then builds */
};

#define WG_COMP_WORDS_MAX 40

struct wg_comp_opt {
	const char *name;	/* long name, without "--" */
	char short_name;	/* 0: none */
	bool takes_value;
	bool repeatable;
	enum wg_comp_value value;
	const char *words[WG_COMP_WORDS_MAX + 1];	/* NULL-ended */
	const char *placeholder;	/* "FILE", from --help; or NULL */
	const char *help;	/* the first line of its --help entry */
};

struct wg_comp_cmd {
	const char *name;
	const char *summary;
	struct wg_comp_opt opts[WG_OPT_INFO_MAX + 1];	/* --help last */
	size_t nopts;
	/* positional arguments, from the synopsis */
	bool files;		/* a PROFILE, PATH... */
	bool commands;		/* a COMMAND */
	const char *words[WG_COMP_WORDS_MAX + 1];	/* literal words */
};

#define WG_COMP_CMDS_MAX 32

struct wg_completion {
	struct wg_comp_cmd cmds[WG_COMP_CMDS_MAX];
	size_t ncmds;
	const char *releases[WG_COMP_WORDS_MAX + 1];	/* names, aliases */
	struct wg_arena arena;	/* the strings cut from the help texts */
};

/* Gathers everything from the tables (completion.c), running each command
 * through run to read its options.  Returns -1 when a command of the
 * table has no entry point.  Release c with wg_completion_release()
 * either way. */
int wg_completion_gather(struct wg_completion *c, wg_command_runner run);
void wg_completion_release(struct wg_completion *c);

/* The scripts, appended to out (completion_bash.c, _zsh.c, _fish.c). */
void wg_completion_bash(struct wg_buf *out, const struct wg_completion *c);
void wg_completion_zsh(struct wg_buf *out, const struct wg_completion *c);
void wg_completion_fish(struct wg_buf *out, const struct wg_completion *c);

#endif
