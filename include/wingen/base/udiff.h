#ifndef WINGEN_UDIFF_H
#define WINGEN_UDIFF_H

#include <stddef.h>

#include "wingen/base/buf.h"

/*
 * Unified diffs of two texts, line by line: the one diff used by
 * "build --diff" and "migrate --diff".
 *
 * The edit script is a shortest one (Myers' O(ND) algorithm, linear-space
 * variant: time O((N+M)D) for N and M lines and D differing lines).  Hunks
 * follow GNU diff and git: "@@ -l,s +l,s @@", ",1" left out, an empty
 * range numbered by the line before it; changes closer than 2*context
 * lines share a hunk.  A last line without a line break gets
 * "\ No newline at end of file" after it.  Lines end at '\n' only (a '\r'
 * before it is part of the line).
 */

/*
 * A part of both texts that holds every difference near it: bytes
 * [old_start, old_end) of old became [new_start, new_end) of new_.  A
 * list of regions (in order, not overlapping) says that the texts are
 * equal outside them, which lets the diff look only inside them: linear
 * in the texts when each region is small ("migrate --diff" passes one per
 * changed document).
 */
struct wg_udiff_region {
	size_t old_start, old_end;
	size_t new_start, new_end;
};

/*
 * Appends only the hunks of the diff of old and new_ (either may be NULL
 * with length 0: an empty text).  Returns the number of hunks; 0 when the
 * texts are equal (nothing appended).
 */
size_t wg_udiff_hunks(struct wg_buf *out, const char *old, size_t old_len,
		      const char *new_, size_t new_len, unsigned context);

/*
 * The same, searching only inside the n regions (see above).  The text
 * between regions is compared byte for byte first; when it is not equal
 * (the regions were wrong) the whole texts are diffed as
 * wg_udiff_hunks() does, so the result is right either way.  Each
 * region's script is its own shortest; the whole diff can be shorter
 * still when it matches lines across regions, so the two may differ
 * (both patch old into new_).  Time and memory follow the regions and
 * their context lines: the texts are walked, never split into lines
 * whole (a 114 MB file's line arrays were 290 MB).
 */
size_t wg_udiff_hunks_in(struct wg_buf *out, const char *old, size_t old_len,
			 const char *new_, size_t new_len,
			 const struct wg_udiff_region *regions, size_t n,
			 unsigned context);

/*
 * Appends "--- OLD_LABEL\n+++ NEW_LABEL\n" and the hunks, or nothing when
 * the texts are equal.  Labels are written as given ("a/deploy.yaml
 * (Deployment/web)", "/dev/null").  Returns the number of hunks.
 */
size_t wg_udiff_labeled(struct wg_buf *out, const char *old_label,
			const char *new_label, const char *old, size_t old_len,
			const char *new_, size_t new_len, unsigned context);

/*
 * A git-style file diff: "diff --git a/NAME b/NAME", then "--- a/NAME" and
 * "+++ b/NAME" and the hunks.  old NULL is a new file ("new file mode
 * 100644", "--- /dev/null"); new_ NULL a deleted one ("deleted file mode
 * 100644", "+++ /dev/null").  Appends nothing when the texts are equal.
 */
void wg_udiff(struct wg_buf *out, const char *name, const char *old,
	      size_t old_len, const char *new_, size_t new_len,
	      unsigned context);

/* wg_udiff() with the search limited to regions (wg_udiff_hunks_in()). */
void wg_udiff_in(struct wg_buf *out, const char *name, const char *old,
		 size_t old_len, const char *new_, size_t new_len,
		 const struct wg_udiff_region *regions, size_t n,
		 unsigned context);

#endif
