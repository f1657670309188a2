/*
 * wingen completion bash|zsh|fish: what each command takes, gathered from
 * the CLI's tables (completion.h), and the command that prints a script.
 */
#include "completion.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/k8s/catalog.h"

/* ---- an option's entry in the command's --help ---------------------------- */

/* Leading spaces of an entry's first line ("  -f, --filename", "      --x");
 * its text goes on below, indented further. */
#define ENTRY_INDENT 6
#define HELP_MAX 72

static size_t indent(const char *p, const char *eol)
{
	const char *q = p;

	while (q < eol && *q == ' ')
		q++;
	return (size_t)(q - p);
}

/* The entry's text as one line for a shell to show: its lines joined, at
 * most HELP_MAX bytes cut at a space ("..."). */
static const char *one_line(struct wg_arena *a, const char *text, size_t len)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *r;

	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		if (ch == '\n' || ch == ' ') {
			while (i + 1 < len && (text[i + 1] == ' '
					       || text[i + 1] == '\n'))
				i++;
			ch = ' ';
		}
		wg_buf_addch(&b, ch);
	}
	if (b.len > HELP_MAX) {
		size_t cut = HELP_MAX - 3;

		while (cut && b.buf[cut] != ' ')
			cut--;
		b.len = cut;
		b.buf[cut] = '\0';
		wg_buf_addstr(&b, "...");
	}
	r = wg_arena_strdup(a, b.buf);
	wg_buf_release(&b);
	return r;
}

/*
 * Finds "--name" in help as an option's entry ("  -f, --filename PATH
 * input file...": the value's name, then the text, which may start on
 * the line below and go on over the lines indented under it) and cuts
 * its placeholder and text into arena.  False when help has no entry for
 * it: an option --help does not show (an older spelling) is not offered.
 */
static bool help_entry(struct wg_arena *a, const char *help, const char *name,
		       const char **placeholder, const char **text)
{
	size_t n = strlen(name);
	const char *p = strstr(help, "\noptions:\n");

	/* the entries are under "options:"; the text above is prose */
	p = p ? p + 1 : help;
	*placeholder = *text = NULL;
	while (p && *p) {
		const char *eol = strchr(p, '\n'), *q, *end, *from;

		if (!eol)
			eol = p + strlen(p);
		q = p + indent(p, eol);
		if (q == eol || *q != '-' || (size_t)(q - p) > ENTRY_INDENT) {
			p = *eol ? eol + 1 : NULL;
			continue;	/* text, not an entry */
		}
		for (; q + n + 2 <= eol; q++)
			if (q[0] == '-' && q[1] == '-'
			    && strncmp(q + 2, name, n) == 0
			    && (q + 2 + n == eol || q[2 + n] == ' '))
				break;
		if (q + n + 2 > eol) {
			p = *eol ? eol + 1 : NULL;
			continue;
		}
		q += 2 + n;
		if (q + 1 < eol && q[1] != ' ') {	/* one space: a value */
			end = ++q;
			while (end < eol && *end != ' ')
				end++;
			*placeholder = wg_arena_strndup(a, q, (size_t)(end - q));
			q = end;
		}
		from = q + indent(q, eol);
		/* the lines below indented past an entry's go with it */
		while (*eol) {
			const char *next = eol + 1, *next_eol = strchr(next, '\n');

			if (!next_eol)
				next_eol = next + strlen(next);
			if (next == next_eol
			    || indent(next, next_eol) <= ENTRY_INDENT)
				break;
			eol = next_eol;
		}
		from += indent(from, eol);
		if (from < eol)
			*text = one_line(a, from, (size_t)(eol - from));
		return true;
	}
	return false;
}

/*
 * What a value named placeholder is (the option parses it as a string):
 * a file where --help names one (FILE, PATH, the nodes' or values' file,
 * or a name ending so), a folder for DIR, the releases for OLD=NEW, and
 * nothing to offer for the rest (N, S, ADDR, LIST, K=V, ARG...).  An
 * entry without a placeholder takes a file.
 */
static enum wg_comp_value value_of(const char *placeholder)
{
	static const char *const files[] = { "FILE", "PATH", "NODES",
		"VALUES", "PROFILE", NULL };
	size_t n;

	if (!placeholder)
		return WG_COMP_FILES;
	if (strcmp(placeholder, "OLD=NEW") == 0)
		return WG_COMP_RETARGET;
	if (strcmp(placeholder, "DIR") == 0)
		return WG_COMP_DIRS;
	for (size_t i = 0; files[i]; i++)
		if (strcmp(placeholder, files[i]) == 0)
			return WG_COMP_FILES;
	n = strlen(placeholder);
	if ((n > 4 && strcmp(placeholder + n - 4, "FILE") == 0)
	    || (n > 4 && strcmp(placeholder + n - 4, "PATH") == 0))
		return WG_COMP_FILES;
	return WG_COMP_NOTHING;
}

static void copy_words(const char **to, const char *const *from)
{
	size_t i = 0;

	for (; from && from[i] && i < WG_COMP_WORDS_MAX; i++)
		to[i] = from[i];
	to[i] = NULL;
}

static void options(struct wg_completion *c, struct wg_comp_cmd *cc,
		    const struct wg_command *cmd, const struct wg_opts_info *in)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct wg_opt_info *o = &in->opts[i];
		struct wg_comp_opt *co = &cc->opts[cc->nopts];

		if (!help_entry(&c->arena, cmd->help, o->name,
				&co->placeholder, &co->help))
			continue;
		cc->nopts++;
		co->name = o->name;
		co->short_name = o->short_name;
		co->takes_value = o->kind != WG_OPT_FLAG
				  && o->kind != WG_OPT_IGNORED;
		co->repeatable = o->kind == WG_OPT_PATHS
				 || o->kind == WG_OPT_FILES;
		switch (o->kind) {
		case WG_OPT_CHOICE:
		case WG_OPT_FORMAT:
			co->value = WG_COMP_WORDS;
			copy_words(co->words, o->choices);
			break;
		case WG_OPT_RESTRICTOR:
			co->value = WG_COMP_WORDS;
			copy_words(co->words, wg_load_restrictors);
			break;
		case WG_OPT_JOBS:
		case WG_OPT_FLAG:
		case WG_OPT_IGNORED:
			co->value = WG_COMP_NOTHING;
			break;
		default:
			co->value = value_of(co->placeholder);
			break;
		}
	}
	cc->opts[cc->nopts].name = "help";
	cc->opts[cc->nopts].short_name = 'h';
	cc->opts[cc->nopts++].help = "show this help";
}

/* ---- positional arguments, from the synopsis ------------------------------ */

static void add_word(const char **words, const char *w)
{
	size_t i = 0;

	while (words[i] && i < WG_COMP_WORDS_MAX)
		i++;
	if (i < WG_COMP_WORDS_MAX) {
		words[i] = w;
		words[i + 1] = NULL;
	}
}

/*
 * The synopsis "build [PROFILE|-] [-f PATH]... (--in-place | --diff)"
 * names the positional arguments outside the options' groups: an
 * upper-case name is a file (COMMAND: a command), a lower-case word is
 * itself ("completion bash|zsh|fish", "help [COMMAND|plugins]").
 */
static void positionals(struct wg_completion *c, struct wg_comp_cmd *cc,
			const char *synopsis)
{
	const char *p = strchr(synopsis, ' ');
	int depth = 0, skip_to = -1;
	bool after_option = false;

	while (p && *p) {
		const char *tok, *core, *end;
		int opens = 0, closes = 0;
		size_t len;

		while (*p == ' ')
			p++;
		tok = p;
		while (*p && *p != ' ')
			p++;
		len = (size_t)(p - tok);
		if (!len)
			break;
		core = tok;
		while (core < tok + len && (*core == '[' || *core == '('))
			core++, opens++;
		end = core;
		while (end < tok + len && !strchr("])", *end)
		       && strncmp(end, "...", 3) != 0)
			end++;
		for (const char *q = end; q < tok + len; q++)
			closes += *q == ']' || *q == ')';
		if (skip_to >= 0) {
			depth += opens - closes;
			if (depth <= skip_to)
				skip_to = -1;
			continue;
		}
		if (*core == '-' || *core == '|') {
			after_option = *core == '-' && !opens;
			if (opens) {
				skip_to = depth;
				depth += opens - closes;
				if (depth <= skip_to)
					skip_to = -1;
			}
			continue;
		}
		depth += opens - closes;
		if (after_option && !opens && isupper((unsigned char)*core)) {
			after_option = false;	/* the value of the option */
			continue;
		}
		after_option = false;
		for (const char *w = core; w < end;) {
			const char *bar = memchr(w, '|', (size_t)(end - w));
			size_t wl = (size_t)((bar ? bar : end) - w);

			if (wl && *w != '-') {
				if (wl == 7 && strncmp(w, "COMMAND", 7) == 0)
					cc->commands = true;
				else if (isupper((unsigned char)*w))
					cc->files = true;
				else
					add_word(cc->words,
						 wg_arena_strndup(&c->arena, w,
								  wl));
			}
			w = bar ? bar + 1 : end;
		}
	}
}

/* ---- gathering ------------------------------------------------------------ */

int wg_completion_gather(struct wg_completion *c, wg_command_runner run)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	wg_arena_init(&c->arena);
	for (const struct wg_command *cmd = wg_commands;
	     cmd->name && c->ncmds < WG_COMP_CMDS_MAX; cmd++) {
		struct wg_comp_cmd *cc = &c->cmds[c->ncmds++];
		struct wg_opts_info info;

		cc->name = cmd->name;
		cc->summary = cmd->summary;
		if (!run(cmd->name))
			return -1;	/* a command of the table without one */
		wg_cli_options_of(cmd->name, run(cmd->name), &info);
		options(c, cc, cmd, &info);
		if (!info.parsed || info.positional)
			positionals(c, cc, cmd->synopsis);
	}
	for (const struct wg_release *r = wg_releases; r->name; r++) {
		const char *names[4] = { r->name, r->aliases[0], r->aliases[1],
					 r->aliases[2] };

		for (size_t i = 0; i < 4 && names[i] && n < WG_COMP_WORDS_MAX;
		     i++)
			c->releases[n++] = names[i];
	}
	c->releases[n] = NULL;
	return 0;
}

void wg_completion_release(struct wg_completion *c)
{
	wg_arena_release(&c->arena);
}

/* ---- the command ---------------------------------------------------------- */

int wg_cli_completion(int argc, char **argv, wg_command_runner run)
{
	static const struct {
		const char *name;
		void (*write)(struct wg_buf *, const struct wg_completion *);
	} shells[] = {
		{ "bash", wg_completion_bash },
		{ "zsh", wg_completion_zsh },
		{ "fish", wg_completion_fish },
	};
	const char *output = NULL;
	const struct wg_opt opts[] = {
		{ "output-file", 0, WG_OPT_STRING, &output, NULL },
		WG_OPT_END,
	};
	struct wg_pathlist args = { 0 };
	struct wg_completion *c;
	struct wg_buf out = WG_BUF_INIT;
	struct wg_ctx ctx;
	size_t shell = 0;
	int rc = wg_parse_options("completion", argc, argv, opts, &args);

	if (rc == 0 && args.len != 1)
		rc = args.len ? wg_usage_error("completion", "unexpected "
					       "argument '%s'", args.items[1])
			      : wg_usage_error("completion", "name the shell: "
					       "bash, zsh or fish");
	while (rc == 0 && shell < 3
	       && strcmp(args.items[0], shells[shell].name) != 0)
		shell++;
	if (rc == 0 && shell == 3)
		rc = wg_usage_error("completion", "unknown shell '%s': bash, "
				    "zsh or fish", args.items[0]);
	if (rc) {
		wg_pathlist_release(&args);
		return rc < 0 ? wg_print_help("completion") : rc;
	}
	c = wg_xcalloc(1, sizeof(*c));
	wg_ctx_init(&ctx);
	if (wg_completion_gather(c, run) == 0) {
		shells[shell].write(&out, c);
		rc = wg_cli_write(&ctx, output, &out);
	} else {
		/* commands.c's table and main.c's entry points disagree */
		wg_report_at(&ctx, WG_SEV_ERROR, NULL, 0, 0,
			     "a command of the table has no entry point");
		wg_cli_report(&ctx, false);
		rc = WG_EXIT_FAIL;
	}
	wg_completion_release(c);
	free(c);
	wg_ctx_release(&ctx);
	wg_buf_release(&out);
	wg_pathlist_release(&args);
	return rc;
}
