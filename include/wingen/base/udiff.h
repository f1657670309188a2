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
 * Appends only the hunks of the diff of old and new_ (either may be NULL
 * with length 0: an empty text).  Returns the number of hunks; 0 when the
 * texts are equal (nothing appended).
 */
size_t wg_udiff_hunks(struct wg_buf *out, const char *old, size_t old_len,
		      const char *new_, size_t new_len, unsigned context);

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

#endif
