#ifndef WINGEN_BASE_SUGGEST_H
#define WINGEN_BASE_SUGGEST_H

#include <stddef.h>

/*
 * Did-you-mean: the candidate closest to word by edit distance (optimal
 * string alignment, case-insensitive) when close enough to be a likely
 * typo, else NULL.  The result points into cands.
 */
const char *wg_suggest(const char *word, const char *const *cands, size_t n);

#endif
