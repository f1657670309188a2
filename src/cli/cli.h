#ifndef WINGEN_CLI_H
#define WINGEN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/chain/run.h"
#include "wingen/k8s/nodes.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"
#include "wingen/yaml/writer.h"

/*
 * The command-line layer: the only code that prints.  One file per command
 * (cmd_<name>.c), dispatched from the table in main.c.
 */

enum {
	WG_EXIT_OK = 0,
	WG_EXIT_FAIL = 1,	/* bad input, bad profile, conflicts, I/O */
	WG_EXIT_USAGE = 2,	/* unknown command or flag */
	/* build --check and --diff answer as kubectl diff: 0 nothing would
	 * change, 1 something would (WG_EXIT_FAIL), 2 or more the run could
	 * not answer (bad input, a conflict, I/O, usage) */
	WG_EXIT_TROUBLE = 2,
};

/* A command's entry point: argv[0] is the command's name. */
typedef int (*wg_command_fn)(int argc, char **argv);

/*
 * What a command says of itself: the table of commands.c, in help's
 * order, ended by a NULL name.  It runs nothing, so every file of the CLI
 * may read it; the entry points are main.c's, the only file above the
 * commands, which gives them to the one command that runs others
 * (completion, through a wg_command_runner).
 */
struct wg_command {
	const char *name;
	const char *synopsis;	/* one line: "fmt [-f PATH]..." */
	const char *summary;	/* one line: what it does */
	const char *help;	/* the options, as printed by --help */
};

extern const struct wg_command wg_commands[];
const struct wg_command *wg_command_find(const char *name);

/* The entry point of the command called name, or NULL (main.c's). */
typedef wg_command_fn (*wg_command_runner)(const char *name);

/* Prints "wingen CMD: message" and the synopsis to stderr; returns 2. */
int wg_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The usage error for an unknown command name, with the closest command
 * when it looks like a typo ("buld" -> "build").  Returns 2. */
int wg_unknown_command(const char *name);

/* Prints the full help of a command to stdout; returns 0. */
int wg_print_help(const char *cmd);

/* Every input file read for a run; kept until the output is written,
 * since node strings point into them. */
struct wg_inputs {
	struct wg_input *items;
	size_t len, cap;
};

void wg_inputs_release(struct wg_inputs *inputs);

/*
 * The two ways stdin surprises: a terminal that wingen waits on says so
 * on stderr before it reads (wg_cli_stdin_waiting, what is the thing it
 * waits for: "manifests", "a ResourceList"); input piped in that the run
 * does not read (the profile's resources: and -f name the inputs) is a
 * warning naming -f - once reading is done (wg_cli_stdin_unread).
 */
void wg_cli_stdin_waiting(const char *what);
void wg_cli_stdin_unread(struct wg_ctx *ctx);

/*
 * A parse error in in that is a Helm template nobody rendered: every
 * error on in's file logged from index from on, at a line that holds "{{"
 * and "}}" (or at no line, in a file that does), gains the hint to render
 * it (helm template) or to run wingen as Helm's post-renderer.  The YAML
 * reader cannot know; the command can.
 */
void wg_cli_helm_hint(struct wg_ctx *ctx, size_t from,
		      const struct wg_input *in);

/* Whether files (expanded paths) read stdin ("-"). */
bool wg_cli_reads_stdin(const struct wg_pathlist *files);

/*
 * Whether file was met before in this run as the same file (fileid.h),
 * hashed in seen; it is added when not.  key is scratch, left holding
 * file's key.
 */
struct wg_index;
bool wg_cli_named_again(struct wg_index *seen, struct wg_buf *key,
			const char *file);

/*
 * Expands paths (files, folders, "-") and reads every file into list, a
 * large one on up to jobs threads (read_split.h: the same result).  Keeps
 * going after a bad file so every problem is reported.  Gives the stdin
 * notes (wg_cli_stdin_waiting, wg_cli_stdin_unread).  Returns 0 or -1
 * (reported on ctx).  A file's input borrows list's arena for its name
 * and text (wg_input_read_in): read neither once list is released.
 */
int wg_cli_read(struct wg_ctx *ctx, const struct wg_pathlist *paths,
		struct wg_inputs *inputs, struct wg_resources *list,
		unsigned jobs);

/*
 * Prints diagnostics to stderr: everything when the run failed, else
 * warnings (and infos when verbose).  Returns WG_EXIT_FAIL when the run
 * failed, else WG_EXIT_OK.
 */
int wg_cli_report(struct wg_ctx *ctx, bool verbose);

/*
 * Writes out to path (NULL: stdout) when ctx has no errors.  A closed pipe
 * ends quietly with WG_EXIT_FAIL; other errors are reported.
 */
int wg_cli_write(struct wg_ctx *ctx, const char *path, const struct wg_buf *out);

/* A path as git prints it in diff headers: without leading "./" and "/".
 * Points into path. */
const char *wg_cli_diff_name(const char *path);

/*
 * Writes every live resource of list to path (NULL: stdout) as a stream,
 * in chunks, so the text never exists whole in memory next to the tree;
 * YAML is emitted on up to jobs threads (emit_stream.h), with the same
 * bytes whatever jobs is.  Call it only when ctx has no errors.  YAML
 * cannot fail half-way (the trees came from libyaml); JSON can (.inf), so
 * JSON is rendered whole first.  Returns WG_EXIT_OK or WG_EXIT_FAIL
 * (reported, or a closed pipe).
 */
int wg_cli_emit(struct wg_ctx *ctx, const char *path,
		const struct wg_resources *list, enum wg_format format,
		unsigned jobs);

/* Prints every change of log (--explain), one line each:
 * "file:line: Kind/ns/name: field: old -> new (plugin: reason)". */
void wg_cli_explain(FILE *out, const struct wg_log *log);

/*
 * Threads a command uses when not told: the CPUs this process may use, at
 * most 4 (past that the thread that writes is the limit).
 */
unsigned wg_cli_default_jobs(void);

/* Parses "yaml" or "json" (the --output-format value). */
int wg_parse_format(const char *cmd, const char *arg, enum wg_format *out);

/* The PROFILE argument (profile_args.c). */
struct wg_profile;
struct wg_profile_opts;

/* Loads path ("-": stdin), or the embedded default profile when path is
 * NULL.  Returns 0, or -1 (reported on ctx). */
int wg_cli_load_profile(struct wg_ctx *ctx, const char *path,
			const struct wg_profile_opts *opts,
			struct wg_profile *out);

/*
 * PROFILE "-" reads the profile from stdin, so stdin holds nothing else:
 * the manifests must come from -f PATH (manifests empty: a usage error;
 * manifests NULL: the command reads none) and neither they nor nodes may
 * be "-".  Returns 0, or WG_EXIT_USAGE after the usage error of cmd.
 */
int wg_cli_profile_stdin_usage(const char *cmd, const char *profile_arg,
			       const struct wg_pathlist *manifests,
			       const struct wg_pathlist *nodes);

/* The inputs of a run: the profile's resources, then every -f PATH;
 * stdin when there are none and the profile did not come from it. */
void wg_cli_input_paths(const struct wg_profile *p, const char *profile_arg,
			const struct wg_pathlist *extra,
			struct wg_pathlist *out);

/* --print-profile: writes the profile in effect as YAML to path (NULL:
 * stdout) after its warnings.  Returns an exit status. */
int wg_cli_print_profile(struct wg_ctx *ctx, const struct wg_profile *p,
			 const char *path);

/*
 * Runs p's chain of plugins over list: wg_run_chain() (chain/run.h, the
 * one place where a profile becomes a pipeline) with the whole chain.
 */
int wg_cli_run_chain(struct wg_ctx *ctx, const struct wg_profile *p,
		     struct wg_resources *list);

/* wg_cli_run_chain() with the chain cut down by mode. */
int wg_cli_run_chain_mode(struct wg_ctx *ctx, const struct wg_profile *p,
			  struct wg_resources *list, enum wg_rc_mode mode);

/*
 * What build and check share: a context, the profile in effect and the
 * resources read through it.
 */
struct wg_session {
	struct wg_ctx ctx;
	struct wg_profile profile;
	bool have_profile;
	struct wg_pathlist paths;	/* what is read: resources:, -f, or - */
	struct wg_inputs inputs;
	struct wg_resources list;
	unsigned jobs;		/* threads a large input is read on */
	bool allow_empty;	/* no object read is no error (a Helm release
				   of hooks alone, post-rendered) */
};

void wg_session_init(struct wg_session *s);
/* Loads the profile (PROFILE, or the embedded default when NULL or "-")
 * and works out the inputs.  0, or -1 with the errors on s->ctx. */
int wg_session_load(struct wg_session *s, const char *profile_arg,
		    const struct wg_profile_opts *popts,
		    const struct wg_pathlist *extra);
/* Reads every input into s->list.  0 or -1 (reported). */
int wg_session_read(struct wg_session *s);
void wg_session_release(struct wg_session *s);

/*
 * --nodes NODES (nodes_arg.c): the cluster's nodes for build and check,
 * read as init reads them; the strings of cluster point into list and
 * inputs, kept until the run ends.
 */
struct wg_cli_nodes {
	struct wg_pathlist paths;	/* every --nodes, in order */
	struct wg_inputs inputs;
	struct wg_resources list;
	struct wg_cluster cluster;
	bool read;		/* paths were given and read without error */
};

void wg_cli_nodes_init(struct wg_cli_nodes *n);
void wg_cli_nodes_release(struct wg_cli_nodes *n);
/* Stdin holds one input: "--nodes -" while the manifests come from stdin
 * too is a usage error (returns WG_EXIT_USAGE); else 0. */
int wg_cli_nodes_stdin_clash(const char *cmd, const struct wg_cli_nodes *n,
			     const struct wg_pathlist *manifests);
/* Reads the nodes of n->paths (none: nothing to do).  0, or -1 with the
 * errors on ctx (positioned, as for manifests). */
int wg_cli_nodes_read(struct wg_ctx *ctx, struct wg_cli_nodes *n);
/* After the chain: list held against the nodes (core/placement.h), when
 * they were read.  classes_apart: the stream holds no RuntimeClass of the
 * profile's (post-renderer mode), so the ones its pods name are made from
 * the profile for the check. */
void wg_cli_nodes_check(struct wg_ctx *ctx, const struct wg_cli_nodes *n,
			const struct wg_profile *p,
			const struct wg_resources *list, bool classes_apart);

/*
 * build --diff and --check (diff.c).  wg_cli_snapshot() records each
 * resource of list as the YAML writer writes it (in res->payload, in the
 * list's arena); after the chain, wg_cli_diff() appends to diff (when not
 * NULL) a unified diff per object that changed, appeared or went away,
 * headed "--- a/FILE (Kind/name)" / "+++ b/FILE (Kind/name)" (or
 * /dev/null), and to changed one line per such object ("  changed
 * FILE (Kind/name)", "new ...", "deleted ...").  Returns their number.
 */
void wg_cli_snapshot(struct wg_resources *list);
size_t wg_cli_diff(const struct wg_resources *list, struct wg_buf *diff,
		   struct wg_buf *changed);

/*
 * The KRM function on an input already read (cmd_fn.c): takes over in.
 * Returns the exit status.
 */
int wg_cli_fn(struct wg_input *in);

/*
 * "wingen" with no command: when stdin is not a terminal and holds a
 * ResourceList, runs as "wingen fn" and returns its exit status; else -1
 * (stdin may have been read).
 */
int wg_cli_fn_implicit(void);

/* Command entry points. */
int wg_cmd_build(int argc, char **argv);
int wg_cmd_post_render(int argc, char **argv);
int wg_cmd_check(int argc, char **argv);
int wg_cmd_fn(int argc, char **argv);
int wg_cmd_builds(int argc, char **argv);
int wg_cmd_fmt(int argc, char **argv);
int wg_cmd_init(int argc, char **argv);
int wg_cmd_migrate(int argc, char **argv);
int wg_cmd_runtimeclasses(int argc, char **argv);
int wg_cmd_schema(int argc, char **argv);
/* completion: runs each command (through run) to read its options. */
int wg_cli_completion(int argc, char **argv, wg_command_runner run);
int wg_cmd_serve(int argc, char **argv);
int wg_cmd_version(int argc, char **argv);
int wg_cmd_help(int argc, char **argv);

#endif
