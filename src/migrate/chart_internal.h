#ifndef WINGEN_CHART_INTERNAL_H
#define WINGEN_CHART_INTERNAL_H

/*
 * Chart migration's own pieces, shared by its files (docs/helm.md):
 *
 *   chart_render.c   helm template -> objects, each with its origin (the
 *                    template and which of its objects it is); messages
 *                    about a render moved to the template line behind it
 *   chart_map.c      each change of the chain carried to a values key or
 *                    a template's literal YAML, or reported
 *   chart_proof.c    the second render, held to what the chain made
 *   chart_migrate.c  the whole run
 */
#include <stdint.h>

#include "wingen/migrate/chart.h"
#include "wingen/migrate/migrate.h"

/*
 * Where an object of a render came from, kept on it (res->payload) from
 * the moment it is read: the chain may insert objects (a RuntimeClass for
 * several builds, fan-out's copies) anywhere in the list, and those have
 * no origin (payload NULL).
 */
struct chart_origin {
	struct wg_node *before;	/* the object as rendered (a copy) */
	const char *src;	/* its template below the chart ("# Source:"),
				   NULL when no comment names one */
	const char *kind;	/* NULL when it has none */
	size_t nth, count;	/* which of src's objects of kind, of how
				   many in the render */
	size_t seq;		/* its place in the render as read */
	/* render one only: what the chain makes of it without spec.os.name
	 * (and the removals that forces), when it is carried so; else NULL */
	const struct wg_node *no_os;
};

struct chart_render {
	struct wg_input in;
	struct wg_resources list;
	struct wg_source_map sources;
	size_t nread;		/* objects read, before any chain */
};

/* A template file's literal edits, each asked for by one object (or by
 * several rendered from the same lines: a range, a named template). */
struct chart_tpl_edit {
	const struct wg_chart_tpl *t;
	struct wg_edits edits;
	size_t *owner;		/* per edit: the origin seq that asked */
	size_t owner_cap;
	struct wg_buf text;	/* the edited template */
};

/* A pod-spec field not carried by its values key, because the key also
 * feeds another object whose same field must stay as it is. */
struct chart_shared {
	const char *path;	/* the field, in the object */
	size_t object;		/* the object's origin seq */
	const char *key;
	const struct wg_resource *other;	/* the other reader */
	bool reported;
};

/* A pod-spec field carried by a values key, for one object. */
struct chart_carried {
	size_t seq;		/* the object's origin seq */
	const char *field;	/* the pod-spec key */
	const char *key;	/* the values key */
};

/* What the proof found wrong with one object of render two. */
enum chart_failure_kind {
	CHART_STILL_CHANGES,	/* the chain still changes path */
	CHART_SPEC_DIFFERS,	/* its pod spec differs at field */
	CHART_MORE_THAN_OS,	/* beyond what os.name forces, at path */
};

struct chart_failure {
	enum chart_failure_kind kind;
	size_t seq;		/* render one's object */
	const char *path;	/* the field's path in the object */
	const char *field;	/* its pod-spec key, or NULL */
};

struct chart_run {
	struct wg_ctx *ctx;
	const struct wg_chart_opts *o;
	struct wg_chart c;
	bool loaded;		/* c holds the chart */
	const char *dir;
	const char *render_dir;	/* an edited copy of dir, or NULL */
	struct wg_values_edits edits;
	struct wg_arena arena;
	size_t problems;
	struct chart_tpl_edit *tedits;
	size_t ntedits, tedits_cap;
	struct wg_pos_index ix;	/* of render 1, for removed blocks */
	bool have_ix;
	struct chart_shared *shared;
	size_t nshared, shared_cap;
	const struct chart_render *one;	/* render 1 */
	struct chart_render noos;	/* render 1 read again, chained
					   without spec.os.name */
	bool have_noos;
	struct chart_carried *carried;	/* by values keys, this mapping */
	size_t ncarried, carried_cap;
	struct chart_carried *banned;	/* keys the proof saw not reach a
					   field: carried otherwise */
	size_t nbanned, banned_cap;
	struct chart_failure *failures;	/* of the last proof */
	size_t nfailures, failures_cap;
};

/* ---- chart_render.c ----------------------------------------------------- */

/*
 * Runs helm template on the chart (r->render_dir when set) with the
 * user's arguments between first_values and last_values (each "-f X"
 * when not NULL), and reads the render into out, each object with its
 * origin.  Returns 0, or -1 (reported on r->ctx: a render that does not
 * read as YAML at the template line behind it).
 */
int chart_render(struct chart_run *r, const char *first_values,
		 const char *last_values, struct chart_render *out);
void chart_render_release(struct chart_render *rd);

/* Reads len bytes of text (a render; copied) into out as chart_render()
 * does.  Returns 0 or -1 (reported). */
int chart_read(struct chart_run *r, const char *text, size_t len,
	       struct chart_render *out);

/* The origin of an object of a render; NULL for one the chain made. */
static inline struct chart_origin *chart_origin_of(
	const struct wg_resource *res)
{
	return (struct chart_origin *)res->payload;
}

/* For a copy the chain made of a rendered object (fan-out's copies share
 * its document), that object; else NULL. */
const struct wg_resource *chart_copied_from(const struct chart_render *rd,
					    const struct wg_resource *res);

/* The object of rd with this origin (src, kind, nth), or NULL. */
struct wg_resource *chart_same_object(const struct chart_render *rd,
				      const struct chart_origin *o);

/* Reads the chart (templates, named templates, values) once.  Returns 0
 * or -1 (reported). */
int chart_load(struct chart_run *r);

/*
 * The diagnostics of r->ctx from index from on that point into rd's text
 * (the render nobody sees) are moved to the template line behind them:
 * CHART/TEMPLATE:LINE:COL, the line found by chart_locate().
 */
void chart_reposition(struct chart_run *r, const struct chart_render *rd,
		      size_t from);

/* A template's path as the user sees it: CHART/rel (in r->arena). */
const char *chart_where(struct chart_run *r, const struct wg_chart_tpl *t,
			const char *src);

/* The template of an origin, and the part of it that wrote the object. */
const struct wg_chart_tpl *chart_tpl_part(struct chart_run *r,
					  const struct chart_origin *o,
					  const char **b, const char **e);

/*
 * The template line that writes what an object renders as the line text
 * (len bytes, indentation and all): among the object's spans (its part,
 * then the named templates it includes), the occurrence-th line with the
 * same text (indentation and trailing blanks aside; the first when there
 * are fewer), else the first that writes the same key, else the part's
 * first line.  *t and *line (1-based) and *col (1-based, the text's
 * first column) are set; *t is NULL when the origin names no template.
 */
void chart_locate(struct chart_run *r, const struct chart_origin *o,
		  const char *text, size_t len, size_t occurrence,
		  const struct wg_chart_tpl **t, uint32_t *line,
		  uint32_t *col);

/* As chart_locate(), for the line that writes key (the last mapping key
 * of a path) in the object's spans; 0 when none writes it. */
uint32_t chart_key_line(struct chart_run *r, const struct chart_origin *o,
			const char *key, const struct wg_chart_tpl **t);

/* The line that writes the last mapping key of path the object's spans
 * write ("a.b[0].c": c, else b, else a); 0 when none. */
uint32_t chart_path_line(struct chart_run *r, const struct chart_origin *o,
			 const char *path, const struct wg_chart_tpl **t);

/* The first line of the object's spans that holds needle anywhere; 0
 * when none does. */
uint32_t chart_text_line(struct chart_run *r, const struct chart_origin *o,
			 const char *needle, const struct wg_chart_tpl **t);

/* ---- chart_map.c -------------------------------------------------------- */

/*
 * Carries the chain's changes to res (before: its origin's copy; after:
 * what the chain made of it) to values keys and template literal edits
 * on r, or reports each that cannot be carried.  Returns how many could
 * not; with quiet, their paths go there instead of being reported.
 */
size_t chart_map_object(struct chart_run *r, const struct chart_render *rd,
			const struct wg_resource *res,
			const struct wg_node *after, struct wg_pathlist *quiet);

/* An object the chain added (fan-out's copy): an error at the template of
 * the object it copies, saying why a chart cannot carry it. */
void chart_report_copy(struct chart_run *r, const struct chart_render *rd,
		       const struct wg_resource *copy);

void chart_tpl_edits_release(struct chart_run *r);

/* ---- chart_proof.c ------------------------------------------------------ */

/*
 * The proof: the chart rendered again with the new values (text) and
 * template edits must give, pod spec by pod spec, what the chain made of
 * render one, and the chain must find nothing left to change (but the
 * spec.os.name an object was carried without, and what it forces).
 * Returns 0, or -1: reported, except what the proof finds wrong with
 * objects, which goes to r->failures (chart_report_failures()).
 */
int chart_prove(struct chart_run *r, const struct chart_render *one,
		const struct wg_buf *values);

/* Each of r->failures, at the template line of its field, saying why
 * (with the values key the mapping set for it, when it did). */
void chart_report_failures(struct chart_run *r,
			   const struct chart_render *one);

/* The values key the mapping set for field of object seq, or NULL. */
const char *chart_carried_by(const struct chart_run *r, size_t seq,
			     const char *field);

#endif
