#ifndef WINGEN_MIGRATE_CHART_H
#define WINGEN_MIGRATE_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * Migrating a Helm chart source (docs/helm.md): the chart is rendered by
 * the real `helm template`, the chain runs on the render, and each change
 * is carried back to the values key that feeds the changed field, read
 * statically from the template named by Helm's "# Source:" comment and the
 * named templates it includes.  The result is written only when a second
 * render with it gives, pod spec by pod spec, what the chain made of the
 * first, and the chain finds nothing left to change in it.
 *
 *   chart_helm.c     runs helm (fork + execv, argv only, no shell),
 *                    within a time and a memory limit
 *   chart_packed.c   packed subcharts' unpacked size, before helm runs
 *   chart_source.c   the chart on disk: templates, named templates, values
 *                    files; which template each rendered object came from
 *   chart_hooks.c    which values key feeds a pod-spec field of a template
 *   chart_values.c   the values edits: an overlay file, or values.yaml
 *                    edited as text (comments kept)
 *   chart_tpledit.c  template literal edits
 *   chart_migrate.c  the whole run, with chart_render.c (the renders,
 *                    each object's origin, messages moved to template
 *                    lines), chart_map.c (changes to values keys and
 *                    literal edits) and chart_proof.c (the second
 *                    render): src/migrate/chart_internal.h
 */

/* ---- running helm (chart_helm.c) -------------------------------------- */

/*
 * The helm binary to run: opt when given, else $WINGEN_HELM when set and
 * not empty, else "helm" (looked up in the absolute folders of PATH).
 */
const char *wg_helm_binary(const char *opt);

/*
 * Runs argv (argv[0] the binary, NULL-terminated) with stdin from
 * /dev/null and collects its standard output into out (reset first).
 * argv[0] without a '/' is looked up in the absolute folders of PATH
 * only; it is run with execv, never through a shell, and gets no
 * descriptor of wingen's but its stdin, stdout and stderr.  Output
 * beyond ctx's input-size limit is an error.  Returns 0 when the
 * program exits 0; otherwise -1 with one error on ctx that names the
 * program, the exit status and the first lines of its stderr (or why it
 * could not be started, and how to name another binary).
 */
int wg_helm_run(struct wg_ctx *ctx, char *const argv[], struct wg_buf *out);

/*
 * "helm template [--values=FIRST] ARGS... [--values=LAST] -- wingen
 * CHART" through wg_helm_run().  Every path is made unambiguous (a
 * relative one gets "./"), and the operands follow "--": a chart
 * folder or values file named like a flag ("--post-renderer=sh") is
 * never read as one.  ARGS are the user's, as given.  first_values and
 * last_values may be NULL.
 */
int wg_helm_template(struct wg_ctx *ctx, const char *helm, const char *chart,
		     const char *first_values, char *const *args,
		     size_t nargs, const char *last_values,
		     struct wg_buf *out);

/* prefix and path as one argument, path with "./" in front when it is
 * relative and starts with neither "./" nor "../" (a path a program
 * cannot take for a flag).  Caller frees. */
char *wg_helm_path_arg(const char *prefix, const char *path);

/* ---- the chart on disk (chart_source.c) ------------------------------- */

/* True when path is a folder holding a Chart.yaml. */
bool wg_chart_is_dir(const char *path);

/* One template file of the chart or of a subchart, as text. */
struct wg_chart_tpl {
	char *rel;		/* path below the chart folder, e.g.
				   "templates/deployment.yaml" or
				   "charts/redis/templates/x.yaml" */
	char *text;		/* NUL-terminated */
	size_t len;
	char *values_prefix;	/* "" for the chart itself; "redis." for a
				   subchart named (or aliased) redis */
	char *path;		/* the file below the chart folder on
				   disk; NULL inside a packed subchart */
	char *pack;		/* a packed subchart's archive below the
				   chart folder ("charts/x-1.0.tgz"), or
				   NULL */
};

/* A named template ({{ define "name" }}): its body, pointing into the
 * text of the file that defines it. */
struct wg_chart_define {
	char *name;
	const char *body;
	size_t len;
	size_t tpl;		/* the file defining it: an index of tpls */
};

struct wg_chart {
	char *dir;		/* the chart folder, as given */
	char *name;		/* Chart.yaml's name */
	struct wg_chart_tpl *tpls;
	size_t ntpls;
	struct wg_chart_define *defines;
	size_t ndefines;
	struct wg_arena arena;	/* values trees below */
	struct wg_node *values;	/* the values a render starts from: the
				   chart's values.yaml with each subchart's
				   under its key, then every values file
				   the user names (-f), merged as Helm
				   does; a mapping, never NULL */
	char *values_path;	/* DIR/values.yaml (may not exist) */
	char *values_text;	/* its text, NULL when absent */
	size_t values_len;
	char **texts;		/* every file read: the trees' scalars
				   point into them */
	size_t ntexts, texts_cap;
};

/* A values source among helm template's arguments. */
enum wg_values_kind {
	WG_VALUES_FILE = 0,	/* -f, --values: a values file */
	WG_VALUES_SET,		/* --set a.b=c,... (typed) */
	WG_VALUES_SET_STRING,	/* --set-string a.b=c,... */
};

struct wg_values_arg {
	enum wg_values_kind kind;
	const char *arg;	/* the file, or the --set text */
};

/*
 * Reads the chart at dir: every file under templates/ (and under each
 * subchart's templates/: an unpacked charts/NAME/ folder or a packed
 * charts/NAME-VERSION.tgz), the named templates they define, and the values.  vals
 * are the values sources of the user's helm arguments
 * (wg_chart_values_args()), merged as Helm merges them: every file in
 * order, then every --set, then every --set-string.  Returns 0, or -1
 * (reported on ctx).
 */
int wg_chart_load(struct wg_ctx *ctx, struct wg_chart *c, const char *dir,
		  const struct wg_values_arg *vals, size_t nvals);
void wg_chart_release(struct wg_chart *c);

/* ---- packed subcharts (chart_tgz.c) ------------------------------------ */

struct wg_tgz_file {
	char *path;		/* as in the archive: "NAME/templates/x.yaml" */
	char *data;		/* NUL-terminated */
	size_t len;
};

struct wg_tgz {
	struct wg_tgz_file *files;
	size_t len, cap;
};

/*
 * The regular files of a gzip'd tar (data, len bytes), unpacked in
 * memory: at most max bytes of tar in all.  Returns 0, or -1 with *why
 * (static text) and out empty.  wg_tgz_release() frees out.
 */
int wg_tgz_read(const char *data, size_t len, size_t max, struct wg_tgz *out,
		const char **why);
void wg_tgz_release(struct wg_tgz *t);

/* ---- packed charts' size, before helm (chart_packed.c) ------------------ */

/*
 * Whether the gzip'd tar data (len bytes; gzip members one after another
 * read as one, as helm reads them) unpacks to at most max bytes, counting
 * the packed charts it holds (X/charts/Y.tgz, which helm unpacks too, to
 * 8 levels) within the same max.  Streams: memory stays within the
 * packed charts it keeps, never the unpacked size.  0, or -1 with *why
 * (static text).
 */
int wg_tgz_check_size(const char *data, size_t len, size_t max,
		      const char **why);

/*
 * Every packed chart helm would unpack for the chart at dir (charts/X.tgz,
 * and in each unpacked subchart's charts/) checked with
 * wg_tgz_check_size() against limits.max_chart_bytes: a gzip bomb is an
 * error naming the archive before helm runs.  0, or -1 reported on ctx.
 */
int wg_chart_check_packed(struct wg_ctx *ctx, const char *dir);

/* A file of a chart copy with new content (rel: path below the chart). */
struct wg_chart_file {
	const char *rel;
	const char *data;
	size_t len;
};

/*
 * Copies the chart folder src to dst (which must not exist), each of
 * files with its new content.  Returns 0, or -1 (reported on ctx).  The
 * caller removes dst (made in a scratch folder: output.h).
 */
int wg_chart_copy(struct wg_ctx *ctx, const char *src, const char *dst,
		  const struct wg_chart_file *files, size_t n);

/* The template file with this rel path, or NULL. */
const struct wg_chart_tpl *wg_chart_tpl_find(const struct wg_chart *c,
					     const char *rel);

/*
 * Where each object of a render came from: the "# Source: NAME/rest"
 * comment before the line of its root, the first after its document's
 * "---" (Helm's; a later one is a template's own text).  Returns rest
 * (the path below the chart folder), in arena, or NULL when no Source
 * comment precedes it.
 */
struct wg_source_map {
	size_t *lines;		/* 0-based line of each Source comment */
	char **paths;		/* its path, chart name stripped */
	size_t len;
	struct wg_arena arena;
};

void wg_source_map_build(struct wg_source_map *m, const char *text,
			 size_t len);
const char *wg_source_map_get(const struct wg_source_map *m, size_t line);
void wg_source_map_release(struct wg_source_map *m);

/*
 * The values sources among helm arguments, in order: -f X, -fX, -f=X,
 * --values X, --values=X; --set X, --set=X; --set-string X,
 * --set-string=X (pointers into args).  Returns how many (at most cap).
 */
size_t wg_chart_values_args(char *const *args, size_t nargs,
			    struct wg_values_arg *out, size_t cap);

/*
 * Merges one --set (strings false) or --set-string (true) argument into
 * the mapping values, as Helm reads it (chart_setvals.c): dotted keys,
 * "name[N]" list items, "{a,b}" lists, backslash escapes; --set types
 * true/false/null/integers as Helm does.  Nodes in arena.  Returns 0, or
 * -1 with *why (static text) when the argument does not parse.
 */
int wg_chart_set_values(struct wg_arena *arena, struct wg_node *values,
			const char *arg, bool strings, const char **why);

/* ---- values hooks (chart_hooks.c) -------------------------------------- */

/*
 * The values keys a template reads for a pod-spec field: every
 * ".Values.a.b.FIELD" in the template's text and in the named templates
 * it includes, transitively, in order of appearance, each once.  When the
 * file's "---" parts holding "kind: KIND" are as many as count (the
 * objects of that kind the render has from this file), only part nth is
 * read; else the whole file (Helm sorts a render by kind, so the order of
 * objects in the render is not the file's).  Keys are written
 * "a.b.FIELD", in arena; a subchart template's keys get its
 * values_prefix unless under "global.".  Returns how many (at most cap).
 */
size_t wg_chart_hook_keys(const struct wg_chart *c,
			  const struct wg_chart_tpl *t, const char *kind,
			  size_t nth, size_t count, const char *field,
			  struct wg_arena *arena, const char **out,
			  size_t cap);

/*
 * A piece of template text an object's YAML may come from: the part of
 * its own template that wrote it, or the body of a named template that
 * part includes.
 */
struct wg_chart_span {
	const struct wg_chart_tpl *t;	/* the file holding it */
	const char *b, *e;		/* in t->text */
};

/*
 * The spans of the object written by [b, e) of t: that part first, then
 * the body of every named template it includes ("include" or "template"
 * with a quoted name), transitively, each once, in order of first use.
 * Returns how many (at most cap).
 */
size_t wg_chart_spans(const struct wg_chart *c, const struct wg_chart_tpl *t,
		      const char *b, const char *e,
		      struct wg_chart_span *out, size_t cap);

/* How many "---" parts of a template's text hold "kind: KIND". */
size_t wg_chart_tpl_segments(const struct wg_chart_tpl *t, const char *kind);

/*
 * Of the candidate keys for a field, the one that feeds it: a component
 * key whose current value is set, else (when the rendered field equals
 * it) a "global." key, else the first component key, else the first.
 * rendered is the field as rendered (NULL when absent).  NULL when there
 * are no candidates.
 */
const char *wg_chart_hook_pick(const struct wg_chart *c, const char **keys,
			       size_t nkeys, const struct wg_node *rendered);

/* The value at a dotted key in the chart's values, or NULL. */
const struct wg_node *wg_chart_value(const struct wg_chart *c,
				     const char *key);

/* ---- values edits (chart_values.c) ------------------------------------- */

/* One values key to set, and the value it gets. */
struct wg_values_edit {
	const char *key;		/* dotted */
	struct wg_node *value;		/* the whole new value */
	const char *why;		/* "Deployment/x: spec...nodeSelector" */
};

struct wg_values_edits {
	struct wg_values_edit *items;
	size_t len, cap;
	struct wg_arena arena;		/* the values */
};

/*
 * Merges a change into the edits: for key (whose current value is cur,
 * NULL when unset), a mapping field gets the keys of add set, a sequence
 * gets the items of add not yet in it appended, a scalar is replaced by
 * add.  Two objects asking the same scalar key or mapping key for
 * different values conflict: returns -1 (*conflict then names the other
 * object), else 0.
 */
int wg_values_edits_merge(struct wg_values_edits *e, const char *key,
			  const struct wg_node *cur, const struct wg_node *add,
			  const char *why, const char **conflict);
void wg_values_edits_release(struct wg_values_edits *e);

/* The overlay file: every edit as nested mappings, YAML, with a header
 * comment naming the chart. */
void wg_values_overlay(struct wg_buf *out, const struct wg_values_edits *e,
		       const char *chart);

/*
 * values.yaml's text with every edit made as a text edit (comments,
 * layout and key order kept; missing keys inserted, intermediate mappings
 * created).  text NULL: a new file.  Returns 0, or -1 with *why set and
 * *line (0-based) where the edit cannot be made safely.
 */
int wg_values_edit_text(const char *text, size_t len,
			const struct wg_values_edits *e, struct wg_buf *out,
			const char **why, size_t *line);

/* ---- template literal edits (chart_tpledit.c) ---------------------------- */

struct wg_edits;

/*
 * Adds to edits (offsets into text) the pair key: value, rendered as
 * block YAML, in front of the one line "containers:" in [b, e) (a part of
 * text), at that line's indentation.  Returns 0, or -1 when [b, e) has no
 * such line or more than one.
 */
int wg_tpl_insert_podspec_key(const char *text, const char *b, const char *e,
			      const struct wg_node *key,
			      const struct wg_node *value,
			      struct wg_edits *edits);

/*
 * Adds to edits the entries of add (a mapping's pairs, or a sequence's
 * items) to the literal block below the one line "FIELD:" (nothing after
 * the colon) in [b, e) of text: after the block's last literal line
 * (deeper than the key, or "- " items at its column, with no "{{" in
 * them), at that line's indentation.  A block that opens with an action
 * gets them at the column its later lines write entries at (the leftmost
 * literal line, the leftmost "nindent N"; the key's + 2 when they say
 * nothing), and is refused when those disagree (an if's branches at two
 * columns).  A key of add the block already writes is refused.  *line is
 * the 1-based line of "FIELD:" (0 when there is not exactly one).
 * Returns 0, or -1 when no such line, several, or refused.
 */
int wg_tpl_insert_into_block(const char *text, const char *b, const char *e,
			     const char *field, const struct wg_node *add,
			     struct wg_edits *edits, size_t *line);

/*
 * Where block (whole lines as rendered: its first line's indentation is
 * the base, later lines keep theirs relative to it) occurs in [b, e) of
 * text, at any one indentation: returns how many times, and sets [*start,
 * *stop) (offsets into text, whole lines) for occurrence want.
 */
size_t wg_tpl_find_block(const char *b, const char *e, const char *block,
			 size_t blen, size_t want, size_t *start, size_t *stop,
			 const char *text);

/* The part of t's text that wrote object nth of count of its kind
 * (wg_chart_hook_keys()'s rule): [*b, *e). */
void wg_chart_tpl_part(const struct wg_chart_tpl *t, const char *kind,
		       size_t nth, size_t count, const char **b,
		       const char **e);

/* ---- the whole run (chart_migrate.c) ----------------------------------- */

enum wg_chart_mode {
	WG_CHART_IN_PLACE = 0,	/* edit values.yaml (and templates) */
	WG_CHART_DIFF,		/* as in-place, printed as a diff */
	WG_CHART_VALUES_OUT,	/* an overlay values file; chart untouched */
};

/*
 * Runs the chain over list (the command's profile, post-renderer mode:
 * no RuntimeClass per release).  without_os: without setting
 * spec.os.name and the removals it forces (for an object whose template
 * writes those fields in a way no edit can remove).  Returns 0 or -1;
 * diagnostics on ctx.
 */
typedef int (*wg_chart_chain_fn)(void *arg, struct wg_ctx *ctx,
				 struct wg_resources *list, bool without_os);

struct wg_chart_opts {
	const char *helm;		/* wg_helm_binary() */
	char *const *helm_args;		/* passed to helm template as is */
	size_t nhelm_args;
	enum wg_chart_mode mode;
	const char *values_out;		/* WG_CHART_VALUES_OUT */
	wg_chart_chain_fn chain;
	void *chain_arg;
};

/* A file the run writes: old is its text now (NULL when new). */
struct wg_chart_write {
	char *path;
	char *old;
	size_t old_len;
	char *text;
	size_t len;
};

struct wg_chart_result {
	struct wg_chart_write *writes;
	size_t nwrites, cap;
	size_t objects;		/* objects the chain changed */
	size_t keys;		/* values keys set */
	size_t templates;	/* templates edited (--in-place, --diff) */
	size_t renders;		/* helm template runs */
	size_t without_os;	/* objects migrated without spec.os.name
				   (warned) */
	struct wg_pathlist runtime_classes;	/* the RuntimeClasses the
				   chart's pods name once migrated */
	struct wg_pathlist made_runtime_classes;	/* those the chain
				   made beyond the profile's builds (one
				   for workloads on several builds) */
};

/*
 * Migrates one chart: nothing is written here; out lists the files to
 * write (none when the chart needs no change).  Every change the chain
 * makes that no values key can carry is an error naming the template,
 * the object and the field.  Returns 0 or -1 (reported on ctx).
 */
int wg_chart_migrate(struct wg_ctx *ctx, const char *dir,
		     const struct wg_chart_opts *o,
		     struct wg_chart_result *out);
void wg_chart_result_release(struct wg_chart_result *r);

#endif
