#ifndef WINGEN_POSINDEX_INTERNAL_H
#define WINGEN_POSINDEX_INTERNAL_H

/*
 * What the position index's files share; not a public contract.  Their
 * calls go one way: the lines (migrate_poslines.c) <- the builder of
 * nodes and records from events (migrate_posindex.c) <- the scan of the
 * reader's events (migrate_posscan.c) and the replay of a recorded
 * document (migrate_posreplay.c).  migrate_posmap.c, from tree nodes to
 * position nodes, needs none of them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "wingen/migrate/migrate.h"

/* A collection being built. */
struct frame {
	struct wg_pos_node *node;
	size_t base;	/* its children are stack[base..] */
};

/* What a pass over events builds. */
enum mode {
	FULL,		/* every document's nodes (wg_pos_index_build) */
	SCAN,		/* no nodes: documents, records and votes from the
			   reader's events (scan_event(), wg_pos_scan_*) */
	ONE_DOC,	/* the nodes of one document parsed alone */
};

/* Votes for the indentation step and sequence style the file uses. */
struct votes {
	size_t step[9];
	size_t compact, indented;
	size_t item[9];		/* item content column - dash column */
	const char *data;
};

struct builder {
	struct wg_pos_index *ix;
	enum mode mode;
	size_t line0;	/* line of the parsed text's first byte */
	size_t doc;	/* ONE_DOC: the document's index in ix->docs */
	size_t docs_seen, streams, docs_cap;
	bool failed;	/* SCAN, ONE_DOC: the events were not what the
			   text's index expects */
	size_t last_end;	/* SCAN: the end recorded last, or the
				   document's start (ends are deltas) */
	struct votes votes;
	struct wg_pos_node **stack;
	size_t stack_len, stack_cap;
	struct frame *frames;
	size_t nframes, frames_cap;
};

/*
 * What the builder takes of an event: from libyaml's (pev_of()), or made
 * again from a scan's record and the reader's tree (migrate_posreplay.c).
 */
struct pev {
	yaml_event_type_t type;
	uint32_t line, col;	/* start mark: the text's line, column */
	size_t start, end;	/* byte offsets of the start and end marks */
	size_t end_line;	/* the end mark's line (a hint) */
	int style;		/* libyaml's scalar or collection style */
	bool anchor, tag, implicit;
	const char *value;	/* scalar */
	size_t length;
};

/* ---- the lines (migrate_poslines.c) ------------------------------------ */

/* Starts ix over data: its lines, before any event; none for a text too
 * long to index (returns false). */
bool wg_pos_index_start(struct wg_pos_index *ix, const char *data,
			size_t len);
/* The length of the line break at p (0 when none), and whether byte off
 * lies on line l. */
size_t wg_pos_break_len(const char *p, const char *end);
bool wg_pos_on_line(const struct wg_pos_index *ix, size_t off, size_t l);

/* ---- the builder (migrate_posindex.c) ---------------------------------- */

/* Where libyaml's mark is in the index's text, and the builder's view of
 * an event (pev) made of libyaml's. */
size_t wg_posb_mark_offset(const struct builder *b, const yaml_mark_t *m);
void wg_posb_pev_of(const struct builder *b, const yaml_event_t *e,
		    struct pev *v);
/* The text around a node: the dash of the item starting at off, the line
 * a node ends on, the lines inside a scalar (never edited as lines). */
size_t wg_posb_find_dash(const struct wg_pos_index *ix, size_t off);
size_t wg_posb_end_line_of(const struct wg_pos_index *ix, size_t start,
			   size_t end, size_t line, size_t hint);
void wg_posb_mark_in_scalar(struct wg_pos_index *ix, size_t line,
			    size_t end_line);
/* A document starts: one more in ix->docs. */
void wg_posb_add_doc(struct builder *b, const struct pev *e);
/* The layout's votes (indentation step, sequence style) and the style
 * they elect into the index. */
void wg_posb_vote(const struct wg_pos_node *n, struct votes *v);
void wg_posb_vote_item(struct votes *v, size_t dash, size_t start);
void wg_posb_vote_value(struct votes *v, int kind, uint32_t map_col,
			uint32_t col);
void wg_posb_pick_style(struct wg_pos_index *ix, const struct votes *v);
/* The records of node ends the scan keeps for a document, replayed when
 * it is edited: the document being recorded (NULL when none), its end,
 * one event's record. */
struct wg_pos_doc *wg_posb_recording(struct builder *b);
void wg_posb_stop_recording(struct builder *b);
void wg_posb_record(struct builder *b, const yaml_event_t *e,
		    const struct pev *v, bool closes_flow);
/* Takes one event into the builder: nodes, documents, records. */
void wg_posb_on_pev(struct builder *b, const struct pev *e);
/* A builder over ix for a pass of the given mode; released after it. */
void wg_posb_init(struct builder *b, struct wg_pos_index *ix,
		  enum mode mode);
void wg_posb_release(struct builder *b);
/* Forgets the nodes of the document built last. */
void wg_posb_drop_doc(struct wg_pos_index *ix);

#endif
