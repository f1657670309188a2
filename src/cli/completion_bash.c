/*
 * The bash completion script (docs/wingen.bash is its output): one
 * function, _wingen, whose case tables are written from the CLI's tables
 * (completion.h); the logic around them is fixed text.
 */
#include "completion.h"

static void words(struct wg_buf *out, const char *const *w)
{
	for (size_t i = 0; w[i]; i++)
		wg_buf_addf(out, "%s%s", i ? " " : "", w[i]);
}

/* "-f --filename" for an option, or "-f|--filename" as a case pattern. */
static void spellings(struct wg_buf *out, const struct wg_comp_cmd *cc,
		      const struct wg_comp_opt *o, const char *sep)
{
	if (o->short_name)
		wg_buf_addf(out, "\"%s -%c\"%s", cc->name, o->short_name, sep);
	wg_buf_addf(out, "\"%s --%s\"", cc->name, o->name);
}

static void value(struct wg_buf *out, const struct wg_comp_opt *o)
{
	switch (o->value) {
	case WG_COMP_FILES:
		wg_buf_addstr(out, "_wingen_files -f");
		break;
	case WG_COMP_DIRS:
		wg_buf_addstr(out, "_wingen_files -d");
		break;
	case WG_COMP_WORDS:
		wg_buf_addstr(out, "_wingen_words \"");
		words(out, o->words);
		wg_buf_addch(out, '"');
		break;
	case WG_COMP_RETARGET:
		wg_buf_addstr(out, "_wingen_retarget");
		break;
	default:
		wg_buf_addstr(out, "COMPREPLY=()");	/* a number, K=V */
		break;
	}
}

static const char head[] =
"# bash completion for wingen(1).  Written by \"wingen completion bash\"\n"
"# from wingen's own tables of commands and options: do not edit it, make\n"
"# it again (cmake --build build --target generated-docs).  Installed by\n"
"# cmake --install into share/bash-completion/completions; or:\n"
"#   source <(wingen completion bash)\n"
"\n"
"_wingen_words()	# _wingen_words \"WORD...\": those matching $cur\n"
"{\n"
"	COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
"}\n"
"\n"
"_wingen_files()	# _wingen_files -f|-d: file (or folder) names\n"
"{\n"
"	COMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n"
"	compopt -o filenames 2>/dev/null\n"
"}\n"
"\n"
"# --retarget OLD=NEW: a release of the catalogue, \"=\", then the build\n"
"# of the profile it moves to (a release name too).\n"
"_wingen_retarget()\n"
"{\n"
"	local w to=\n"
"	if [ \"$old\" ]; then\n"
"		for w in $_wingen_releases; do	# not to itself\n"
"			[ \"$w\" = \"$old\" ] || to+=\" $w\"\n"
"		done\n"
"		_wingen_words \"$to\"\n"
"		return\n"
"	fi\n"
"	_wingen_words \"$_wingen_releases\"\n"
"	COMPREPLY=(\"${COMPREPLY[@]/%/=}\")\n"
"	compopt -o nospace 2>/dev/null\n"
"}\n"
"\n";

static const char find_command[] =
"_wingen()\n"
"{\n"
"	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"	local cmd= opt old= i\n"
"\n"
"	for ((i = 1; i < COMP_CWORD; i++)); do\n"
"		case ${COMP_WORDS[i]} in\n"
"		-*) ;;\n"
"		*) cmd=${COMP_WORDS[i]}; break ;;\n"
"		esac\n"
"	done\n"
"	if [ -z \"$cmd\" ]; then\n"
"		_wingen_words \"$_wingen_commands --help --version\"\n"
"		return\n"
"	fi\n"
"	# The option this word is the value of.  bash splits words at \"=\":\n"
"	# --output=json is \"--output\" \"=\" \"json\", OLD=NEW \"OLD\" \"=\" \"NEW\".\n"
"	opt=$prev\n"
"	if [ \"$cur\" = = ]; then\n"
"		cur= opt=$prev prev==\n"
"		i=$((COMP_CWORD - 1))\n"
"	else\n"
"		i=$((COMP_CWORD - 1))\n"
"		[ \"$prev\" = = ] && { i=$((COMP_CWORD - 2)); opt=${COMP_WORDS[i]}; }\n"
"	fi\n"
"	if [ \"$prev\" = = ] && [ \"${COMP_WORDS[i-1]}\" = --retarget ]; then\n"
"		old=${COMP_WORDS[i]} opt=--retarget\n"
"	fi\n"
"\n"
"	# An option's value.\n"
"	case \"$cmd $opt\" in\n";

void wg_completion_bash(struct wg_buf *out, const struct wg_completion *c)
{
	wg_buf_addstr(out, head);
	wg_buf_addstr(out, "_wingen_commands=\"");
	for (size_t i = 0; i < c->ncmds; i++)
		wg_buf_addf(out, "%s%s", i ? " " : "", c->cmds[i].name);
	wg_buf_addstr(out, "\"\n_wingen_releases=\"");
	words(out, c->releases);
	wg_buf_addstr(out, "\"\n\n");
	wg_buf_addstr(out, find_command);
	for (size_t i = 0; i < c->ncmds; i++) {
		const struct wg_comp_cmd *cc = &c->cmds[i];

		for (size_t k = 0; k < cc->nopts; k++) {
			const struct wg_comp_opt *o = &cc->opts[k];

			if (!o->takes_value)
				continue;
			wg_buf_addstr(out, "	");
			spellings(out, cc, o, "|");
			wg_buf_addstr(out, ")\n		");
			value(out, o);
			wg_buf_addstr(out, "\n		return ;;\n");
		}
	}
	wg_buf_addstr(out, "	esac\n\n	# An option.\n"
		       "	if [[ $cur == -* ]]; then\n		case $cmd in\n");
	for (size_t i = 0; i < c->ncmds; i++) {
		const struct wg_comp_cmd *cc = &c->cmds[i];

		wg_buf_addf(out, "		%s) _wingen_words \"", cc->name);
		for (size_t k = 0; k < cc->nopts; k++) {
			if (cc->opts[k].short_name)
				wg_buf_addf(out, "-%c ", cc->opts[k].short_name);
			wg_buf_addf(out, "--%s%s", cc->opts[k].name,
				    k + 1 < cc->nopts ? " " : "");
		}
		wg_buf_addstr(out, "\" ;;\n");
	}
	wg_buf_addstr(out, "		esac\n		return\n	fi\n\n"
		       "	# A positional argument.\n	case $cmd in\n");
	for (size_t i = 0; i < c->ncmds; i++) {
		const struct wg_comp_cmd *cc = &c->cmds[i];

		if (!cc->files && !cc->commands && !cc->words[0])
			continue;
		wg_buf_addf(out, "	%s)\n", cc->name);
		if (cc->commands || cc->words[0]) {
			wg_buf_addstr(out, "		_wingen_words \"");
			if (cc->commands)
				wg_buf_addstr(out, "$_wingen_commands");
			if (cc->commands && cc->words[0])
				wg_buf_addch(out, ' ');
			words(out, cc->words);
			wg_buf_addstr(out, "\"\n");
		}
		if (cc->files)
			wg_buf_addstr(out, "		_wingen_files -f\n");
		wg_buf_addstr(out, "		;;\n");
	}
	wg_buf_addstr(out, "	esac\n}\ncomplete -F _wingen wingen\n");
}
