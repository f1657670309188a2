#define _GNU_SOURCE	/* memmem */
/*
 * Helm's "# Source: CHART/templates/FILE" comments, kept on the objects
 * they head.  Helm 3 splits a post-rendered stream on them (helm
 * template --show-only), and libyaml reports no comments, so they are
 * found in the input's text: the comment and blank lines between an
 * object's first line and the "---" (or "...") that starts its document,
 * or the input's start, are outside every node, whatever the document
 * holds.
 */
#include <string.h>

#include "wingen/base/input.h"
#include "wingen/yaml/resource.h"

static const char tag[] = "# Source: ";

/* [l, le) a line (without its line break) that is "---" or "..." alone
 * or followed by a blank: a document marker. */
static bool marker(const char *l, const char *le)
{
	return le - l >= 3
	       && (memcmp(l, "---", 3) == 0 || memcmp(l, "...", 3) == 0)
	       && (le - l == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
}

static bool blank(const char *l, const char *le)
{
	for (; l < le; l++)
		if (*l != ' ' && *l != '\t' && *l != '\r')
			return false;
	return true;
}

/* The end of the line at l (its '\n', or the text's end). */
static const char *eol(const char *l, const char *end)
{
	const char *nl = memchr(l, '\n', (size_t)(end - l));

	return nl ? nl : end;
}

/*
 * The Source comment of the document holding the line that starts at at
 * (the text is [data, end)): back to the line of its "---" (or "...", or
 * the text's start: at column 0 such a line always starts a document),
 * then forward over the comment and blank lines before its first
 * content, the first that starts with "# Source: " (Helm writes it
 * right after the marker; one below it is the template's own text), as
 * [*s, *e); false when there is none.
 */
static bool doc_head(const char *data, const char *end, const char *at,
		     const char **s, const char **e)
{
	const char *l = at, *found = NULL, *found_end = NULL;

	while (l > data) {
		const char *p = l - 1;	/* on the previous line's break */

		while (p > data && p[-1] != '\n')
			p--;
		l = p;
		if (marker(l, eol(l, end)))
			break;
	}
	while (l < at) {
		const char *le = eol(l, end);

		if (*l == '#') {
			if (!found && (size_t)(le - l) > sizeof(tag) - 1
			    && memcmp(l, tag, sizeof(tag) - 1) == 0) {
				found = l;
				found_end = le;
			}
		} else if (!blank(l, le) && !marker(l, le)) {
			break;
		}
		l = le < end ? le + 1 : end;
	}
	if (!found)
		return false;
	while (found_end > found && (found_end[-1] == '\r'
				     || found_end[-1] == ' '))
		found_end--;
	*s = found;
	*e = found_end;
	return true;
}

void wg_resources_source_comments(struct wg_resources *list, size_t from,
				  size_t to, const struct wg_input *in,
				  struct wg_source_cursor *at)
{
	const char *data = in->data, *end = in->data + in->len, *cur;
	struct wg_source_cursor fresh = { 0, 0, 0 };
	uint32_t line;

	if (!at)
		at = &fresh;
	/* no Helm render: one search */
	if (!at->state)
		at->state = in->len >= sizeof(tag) - 1
			    && (memcmp(data, tag, sizeof(tag) - 1) == 0
				|| memmem(data, in->len, "\n# Source: ",
					  sizeof(tag))) ? 1 : 2;
	if (at->state == 2)
		return;
	cur = data + at->off;
	line = at->line;
	for (size_t i = from; i < to && i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		uint32_t want = wg_node_line(res->root);
		const char *s, *e;

		/* the items of a List share its document's comment */
		if (i > from && (res->flags & WG_RES_LIST_ITEM)
		    && list->items[i - 1]->index == res->index) {
			res->source_comment = list->items[i - 1]->source_comment;
			continue;
		}
		if (want < line)
			continue;	/* not in order: leave it */
		while (line < want && cur < end) {
			const char *nl = memchr(cur, '\n', (size_t)(end - cur));

			if (!nl)
				break;
			cur = nl + 1;
			line++;
		}
		if (line == want && doc_head(data, end, cur, &s, &e))
			res->source_comment = wg_arena_strndup(&list->arena, s,
							(size_t)(e - s));
	}
	at->off = (size_t)(cur - data);
	at->line = line;
}
