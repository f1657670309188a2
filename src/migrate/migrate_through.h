#ifndef WINGEN_MIGRATE_THROUGH_H
#define WINGEN_MIGRATE_THROUGH_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/migrate/migrate.h"

/*
 * wg_migrate_opts.write_through, inside wg_migrate_finish(): the file's
 * new text is made in f->out as always, but f->out is only a window on
 * it.  Between documents, wg_through_flush() writes what the window holds
 * (but its last line) to the file's temporary and empties it; nothing is
 * written, and no temporary made, while the new text is still the input's
 * own first bytes.  Regions and marks inside one document are unchanged:
 * the window moves only between documents.
 */

/* Window size at which the finisher flushes between documents. */
#define WG_THROUGH_WINDOW ((size_t)256 << 10)

/* Starts f's new text in window (taken over: f->out becomes it). */
void wg_through_begin(struct wg_migrate_file *f, struct wg_buf *window);

/* Writes the window but its last line.  0, or -1 when a write failed
 * (reported on ctx; the temporary is gone and the run is to fail). */
int wg_through_flush(struct wg_ctx *ctx, struct wg_migrate_file *f);

/*
 * Ends the text: sets f->changed and f->emptied (documents_deleted set),
 * writes the rest of a changed file's text and closes its temporary, or
 * drops the temporary of a file that did not change or is to go; hands
 * the window back, emptied, to *window (f->out is left empty).  0 or -1
 * as wg_through_flush().
 */
int wg_through_end(struct wg_ctx *ctx, struct wg_migrate_file *f,
		   struct wg_buf *window);

/* Whether text holds no object: only blank lines, comments and document
 * markers (what deleted documents leave).  text starts at a line start. */
bool wg_migrate_nothing_left(const char *text, size_t len);

#endif
