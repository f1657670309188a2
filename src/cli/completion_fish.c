/*
 * The fish completion script: one "complete" line an option, written
 * from the CLI's tables (completion.h), and two helper functions.
 */
#include "completion.h"

/* s as a single-quoted fish string. */
static void quoted(struct wg_buf *out, const char *s)
{
	wg_buf_addch(out, '\'');
	for (; s && *s; s++) {
		if (*s == '\'' || *s == '\\')
			wg_buf_addch(out, '\\');
		wg_buf_addch(out, *s);
	}
	wg_buf_addch(out, '\'');
}

static void words(struct wg_buf *out, const char *const *w)
{
	for (size_t i = 0; w[i]; i++)
		wg_buf_addf(out, "%s%s", i ? " " : "", w[i]);
}

static void option(struct wg_buf *out, const struct wg_comp_cmd *cc,
		   const struct wg_comp_opt *o)
{
	wg_buf_addf(out, "complete -c wingen -n '__wingen_is %s'", cc->name);
	if (o->short_name)
		wg_buf_addf(out, " -s %c", o->short_name);
	wg_buf_addf(out, " -l %s", o->name);
	switch (o->takes_value ? o->value : WG_COMP_NOTHING) {
	case WG_COMP_FILES:
		wg_buf_addstr(out, " -r -F");
		break;
	case WG_COMP_DIRS:
		wg_buf_addstr(out, " -x -a '(__fish_complete_directories "
			       "(commandline -ct))'");
		break;
	case WG_COMP_WORDS:
		wg_buf_addstr(out, " -x -a '");
		words(out, o->words);
		wg_buf_addch(out, '\'');
		break;
	case WG_COMP_RETARGET:
		wg_buf_addstr(out, " -x -a '(__wingen_retarget)'");
		break;
	default:
		if (o->takes_value)
			wg_buf_addstr(out, " -x");	/* a number, K=V */
		break;
	}
	if (o->help) {
		wg_buf_addstr(out, " -d ");
		quoted(out, o->help);
	}
	wg_buf_addch(out, '\n');
}

static const char head[] =
"# fish completion for wingen(1).  Written by \"wingen completion fish\"\n"
"# from wingen's own tables of commands and options: make it again, do\n"
"# not edit it.  Install: wingen completion fish >\n"
"# ~/.config/fish/completions/wingen.fish; or: wingen completion fish | source\n"
"\n"
"# The command word: the first argument that is not an option.\n"
"function __wingen_command\n"
"    for w in (commandline -opc)[2..-1]\n"
"        switch $w\n"
"            case '-*'\n"
"            case '*'\n"
"                echo $w\n"
"                return 0\n"
"        end\n"
"    end\n"
"    return 1\n"
"end\n"
"\n"
"function __wingen_is -a name\n"
"    set -l cmd (__wingen_command)\n"
"    and test \"$cmd\" = \"$name\"\n"
"end\n"
"\n"
"# --retarget OLD=NEW: a release of the catalogue, \"=\", then the build\n"
"# of the profile it moves to (a release name too).\n"
"function __wingen_retarget\n"
"    set -l tok (string replace -r -- '^--retarget=' '' (commandline -ct))\n"
"    set -l releases ";

void wg_completion_fish(struct wg_buf *out, const struct wg_completion *c)
{
	wg_buf_addstr(out, head);
	words(out, c->releases);
	wg_buf_addstr(out,
		"\n"
		"    if string match -q -- '*=*' $tok\n"
		"        set -l old (string split -m1 = -- $tok)[1]\n"
		"        # not to itself\n"
		"        printf '%s\\n' $old=(string match -v -- $old $releases)\n"
		"    else\n"
		"        printf '%s=\\n' $releases\n"
		"    end\n"
		"end\n"
		"\n"
		"complete -c wingen -f\n"
		"complete -c wingen -n 'not __wingen_command' -s h -l help "
		"-d 'show the commands'\n"
		"complete -c wingen -n 'not __wingen_command' -l version "
		"-d 'print the version'\n");
	for (size_t i = 0; i < c->ncmds; i++) {
		wg_buf_addf(out, "complete -c wingen -n 'not __wingen_command' "
			    "-a %s -d ", c->cmds[i].name);
		quoted(out, c->cmds[i].summary);
		wg_buf_addch(out, '\n');
	}
	for (size_t i = 0; i < c->ncmds; i++) {
		const struct wg_comp_cmd *cc = &c->cmds[i];

		wg_buf_addf(out, "\n# wingen %s\n", cc->name);
		for (size_t k = 0; k < cc->nopts; k++)
			option(out, cc, &cc->opts[k]);
		if (cc->commands || cc->words[0]) {
			wg_buf_addf(out, "complete -c wingen -n '__wingen_is "
				    "%s' -x -a '", cc->name);
			for (size_t k = 0; cc->commands && k < c->ncmds; k++)
				wg_buf_addf(out, "%s ", c->cmds[k].name);
			words(out, cc->words);
			wg_buf_addstr(out, "'\n");
		}
		if (cc->files)
			wg_buf_addf(out, "complete -c wingen -n '__wingen_is "
				    "%s' -F\n", cc->name);
	}
}
