#include <ctype.h>
#include <string.h>

#include "wingen/base/suggest.h"

/*
 * Optimal string alignment distance (Levenshtein plus transposition of
 * neighbours), case-insensitive, so "Handler", "hanlder" and "handlr" all
 * find "handler".  Words longer than 63 bytes are never suggested for.
 */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[64][64];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1])
				      != tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2]
			    && a[i - 2] == b[j - 1]
			    && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *wg_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, len = strlen(word);
	/* Close enough: a third of the word, at least 1, at most 3 edits. */
	size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;

	if (len == 0 || len > 63)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!cands[i] || strlen(cands[i]) > 63)
			continue;
		d = distance(word, cands[i]);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
