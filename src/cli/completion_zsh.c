/*
 * The zsh completion script: a _wingen function for zsh's completion
 * system, initialised by compinit; one _arguments spec a command, written
 * from the CLI's tables (completion.h).
 */
#include "completion.h"

#include <string.h>

/* s inside a single-quoted zsh word, and inside an _arguments [...]
 * description or a _describe "name:text" entry. */
static void text(struct wg_buf *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\'')
			wg_buf_addstr(out, "'\\''");
		else if (*s == ']' || *s == '[' || *s == ':' || *s == '\\')
			wg_buf_addf(out, "\\%c", *s);
		else
			wg_buf_addch(out, *s);
	}
}

static void action(struct wg_buf *out, const struct wg_comp_opt *o)
{
	switch (o->value) {
	case WG_COMP_FILES:
		wg_buf_addstr(out, "_files");
		break;
	case WG_COMP_DIRS:
		wg_buf_addstr(out, "_files -/");
		break;
	case WG_COMP_WORDS:
		wg_buf_addch(out, '(');
		for (size_t i = 0; o->words[i]; i++)
			wg_buf_addf(out, "%s%s", i ? " " : "", o->words[i]);
		wg_buf_addch(out, ')');
		break;
	case WG_COMP_RETARGET:
		wg_buf_addstr(out, "_wingen_retarget");
		break;
	default:
		wg_buf_addch(out, ' ');		/* the message alone */
		break;
	}
}

/* One _arguments spec: '(-o --output)'{-o+,--output=}'[text]:FORMAT:(...)' */
static void spec(struct wg_buf *out, const struct wg_comp_opt *o)
{
	bool both = o->short_name != 0;

	wg_buf_addstr(out, "\t\t\t");
	if (strcmp(o->name, "help") == 0) {
		wg_buf_addstr(out, "'(- *)'{-h,--help}'[show this help]' \\\n");
		return;
	}
	if (o->repeatable)
		wg_buf_addstr(out, "'*'");
	else if (both)
		wg_buf_addf(out, "'(-%c --%s)'", o->short_name, o->name);
	if (both)
		wg_buf_addf(out, "{-%c%s,--%s%s}", o->short_name,
			    o->takes_value ? "+" : "", o->name,
			    o->takes_value ? "=" : "");
	else
		wg_buf_addf(out, "--%s%s", o->name,
			    o->takes_value ? "=" : "");
	wg_buf_addstr(out, "'[");
	text(out, o->help ? o->help : o->name);
	wg_buf_addch(out, ']');
	if (o->takes_value) {
		wg_buf_addch(out, ':');
		text(out, o->placeholder ? o->placeholder : "VALUE");
		wg_buf_addch(out, ':');
		action(out, o);
	}
	wg_buf_addstr(out, "' \\\n");
}

static const char head[] =
"#compdef wingen\n"
"# zsh completion for wingen(1).  Written by \"wingen completion zsh\" from\n"
"# wingen's own tables of commands and options: make it again, do not\n"
"# edit it.  Put it on $fpath as _wingen (wingen completion zsh >\n"
"# \"${fpath[1]}/_wingen\"), or, after compinit:\n"
"#   source <(wingen completion zsh)\n"
"\n"
"# --retarget OLD=NEW: a release of the catalogue, \"=\", then the build\n"
"# of the profile it moves to (a release name too).\n"
"_wingen_retarget() {\n"
"\tlocal -a releases=(";

void wg_completion_zsh(struct wg_buf *out, const struct wg_completion *c)
{
	wg_buf_addstr(out, head);
	for (size_t i = 0; c->releases[i]; i++)
		wg_buf_addf(out, "%s%s", i ? " " : "", c->releases[i]);
	wg_buf_addstr(out,
		")\n"
		"\tif compset -P '*='; then\n"
		"\t\treleases=(${releases:#${IPREFIX%=}})	# not to itself\n"
		"\t\t_describe -t releases 'build of the profile' releases\n"
		"\telse\n"
		"\t\t_describe -t releases 'release to retire' releases -S =\n"
		"\tfi\n"
		"}\n"
		"\n"
		"_wingen() {\n"
		"\tlocal curcontext=$curcontext state line ret=1\n"
		"\ttypeset -A opt_args\n"
		"\n"
		"\t_arguments -C \\\n"
		"\t\t'(- *)'{-h,--help}'[show the commands]' \\\n"
		"\t\t'(- *)--version[print the version]' \\\n"
		"\t\t'1: :->command' \\\n"
		"\t\t'*:: :->args' && ret=0\n"
		"\tcase $state in\n"
		"\tcommand)\n"
		"\t\tlocal -a commands=(\n");
	for (size_t i = 0; i < c->ncmds; i++) {
		wg_buf_addf(out, "\t\t\t'%s:", c->cmds[i].name);
		text(out, c->cmds[i].summary);
		wg_buf_addstr(out, "'\n");
	}
	wg_buf_addstr(out,
		"\t\t)\n"
		"\t\t_describe -t commands 'wingen command' commands && ret=0\n"
		"\t\t;;\n"
		"\targs)\n"
		"\t\tcurcontext=${curcontext%:*:*}:wingen-$line[1]:\n"
		"\t\tcase $line[1] in\n");
	for (size_t i = 0; i < c->ncmds; i++) {
		const struct wg_comp_cmd *cc = &c->cmds[i];

		wg_buf_addf(out, "\t\t%s)\n\t\t\t_arguments -S \\\n",
			    cc->name);
		for (size_t k = 0; k < cc->nopts; k++)
			spec(out, &cc->opts[k]);
		if (cc->commands || cc->words[0]) {
			wg_buf_addstr(out, "\t\t\t'1:argument:(");
			for (size_t k = 0; cc->commands && k < c->ncmds; k++)
				wg_buf_addf(out, "%s ", c->cmds[k].name);
			for (size_t k = 0; cc->words[k]; k++)
				wg_buf_addf(out, "%s ", cc->words[k]);
			wg_buf_addstr(out, ")' \\\n");
		}
		if (cc->files)
			wg_buf_addstr(out, "\t\t\t'*:file:_files' \\\n");
		wg_buf_addstr(out, "\t\t\t&& ret=0\n\t\t\t;;\n");
	}
	wg_buf_addstr(out,
		"\t\tesac\n"
		"\t\t;;\n"
		"\tesac\n"
		"\treturn ret\n"
		"}\n"
		"\n"
		"if [ \"$funcstack[1]\" = _wingen ]; then\n"
		"\t_wingen \"$@\"\n"
		"else\n"
		"\tcompdef _wingen wingen\n"
		"fi\n");
}
