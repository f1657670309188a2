/*
 * An entry added to a kustomization's resources: as a text edit
 * (kust_edit.h): positions from libyaml's events (migrate_posindex.c),
 * the edit checked by reading the result back.
 */
#include "wingen/migrate/kust_edit.h"

#include <string.h>

#include "wingen/base/arena.h"
#include "wingen/base/input.h"
#include "wingen/migrate/migrate.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/reader.h"

/* Whether pos node n is a scalar whose text is s. */
static bool pos_is(const struct wg_pos_node *n, const char *s)
{
	size_t len = strlen(s);

	return n && n->kind == WG_NODE_SCALAR && n->text_len == len
	       && memcmp(n->text, s, len) == 0;
}

/* Whether n is a null scalar: nothing, ~, null (in any YAML 1.1 case). */
static bool pos_null(const struct wg_pos_node *n)
{
	return n->kind == WG_NODE_SCALAR && n->style == WG_STYLE_PLAIN
	       && (n->text_len == 0 || pos_is(n, "~") || pos_is(n, "null")
		   || pos_is(n, "Null") || pos_is(n, "NULL"));
}

/* Whether resources item n names entry, as written or with "./". */
static bool names_entry(const struct wg_pos_node *n, const char *entry)
{
	size_t len = strlen(entry);

	if (!n || n->kind != WG_NODE_SCALAR)
		return false;
	if (n->text_len == len && memcmp(n->text, entry, len) == 0)
		return true;
	return n->text_len == len + 2 && memcmp(n->text, "./", 2) == 0
	       && memcmp(n->text + 2, entry, len) == 0;
}

/* The offset of the end of the line holding offset at: its line break,
 * or the end of the text. */
static size_t line_end(const char *text, size_t len, size_t at)
{
	while (at < len && text[at] != '\n' && text[at] != '\r')
		at++;
	return at;
}

/* The column (bytes from its line's start) of offset at. */
static size_t column(const char *text, size_t at)
{
	size_t c = 0;

	while (at > c && text[at - c - 1] != '\n' && text[at - c - 1] != '\r')
		c++;
	return c;
}

/* The edit that adds entry to resources: of root.  Returns 1 with the
 * edit in e, 0 when it is listed already, -1 with *problem set. */
static int plan(const struct wg_pos_index *ix, const struct wg_pos_node *root,
		const char *entry, struct wg_edits *e, const char **problem)
{
	const char *text = ix->data, *eol = ix->eol ? ix->eol : "\n";
	const struct wg_pos_node *key = NULL, *v = NULL;
	struct wg_buf add = WG_BUF_INIT;
	size_t at;

	for (size_t i = 0; i < root->len && !key; i++)
		if (pos_is(root->items[2 * i], "resources")) {
			key = root->items[2 * i];
			v = root->items[2 * i + 1];
		}
	if (!key) {
		/* a new last key, at the column of the first */
		size_t col = column(text, root->items[0]->start);

		at = line_end(text, ix->len, root->end > 0 ? root->end - 1 : 0);
		wg_buf_addf(&add, "%s%*sresources:%s%*s- %s", eol, (int)col, "",
			    eol, (int)col, "", entry);
	} else if (v->kind == WG_NODE_SEQ) {
		for (size_t i = 0; i < v->len; i++)
			if (names_entry(v->items[i], entry)) {
				wg_buf_release(&add);
				return 0;
			}
		if (v->flags & WG_POS_FLOW) {
			at = v->len ? v->items[v->len - 1]->end : v->start + 1;
			wg_buf_addf(&add, "%s%s", v->len ? ", " : "", entry);
		} else {
			size_t dash = v->dashes ? v->dashes[v->len - 1]
						: SIZE_MAX;

			if (dash == SIZE_MAX) {
				*problem = "its resources: list has no dash "
					   "to follow";
				return -1;
			}
			at = line_end(text, ix->len,
				      v->items[v->len - 1]->end > 0
				      ? v->items[v->len - 1]->end - 1 : dash);
			wg_buf_addf(&add, "%s%*s- %s", eol,
				    (int)column(text, dash), "", entry);
		}
	} else if (pos_null(v)) {
		/* "resources:" with no value, ~ or null: the list [entry] */
		at = key->end;
		while (at < ix->len && text[at] != ':')
			at++;
		if (at >= ix->len) {
			*problem = "its resources: key has no ':'";
			return -1;
		}
		if (v->text_len) {	/* ~ or null: replaced */
			wg_buf_addf(&add, "[%s]", entry);
			wg_edits_add(e, v->start, v->end, add.buf, add.len);
			wg_buf_release(&add);
			return 1;
		} else {
			at++;
			wg_buf_addf(&add, " [%s]", entry);
		}
	} else {
		*problem = "its resources: is not a list";
		return -1;
	}
	wg_edits_add(e, at, at, add.buf, add.len);
	wg_buf_release(&add);
	return 1;
}

/* The first document of in as a tree, or NULL (reported on ctx). */
static struct wg_node *read_doc(struct wg_ctx *ctx, const struct wg_input *in,
				struct wg_arena *arena)
{
	struct wg_reader r;
	struct wg_node *root = NULL;
	unsigned index;
	int rc;

	wg_reader_init(&r, ctx, in);
	rc = wg_reader_next(&r, arena, &root, &index);
	wg_reader_release(&r);
	return rc == 1 ? root : NULL;
}

/* Whether after is before with resources: one entry, entry, longer. */
static bool read_back(const struct wg_node *before, const struct wg_node *after,
		      const char *entry)
{
	const struct wg_node *rb = wg_map_get(before, "resources");
	const struct wg_node *ra = wg_map_get(after, "resources");
	size_t nb = wg_is_seq(rb) ? rb->len : 0;

	if (!wg_is_map(after) || !wg_is_seq(ra) || ra->len != nb + 1
	    || !wg_scalar_is(wg_seq_item(ra, nb), entry))
		return false;
	for (size_t i = 0; i < nb; i++)
		if (!wg_node_equal(wg_seq_item(rb, i), wg_seq_item(ra, i)))
			return false;
	if (after->len != before->len + (wg_map_get(before, "resources")
					 ? 0 : 1))
		return false;
	for (size_t i = 0; i < before->len; i++) {
		const struct wg_node *k = wg_map_key(before, i);
		long j = wg_map_findn(after, k->u.str, k->len);

		if (j < 0)
			return false;
		if (!wg_scalar_is(k, "resources")
		    && !wg_node_equal(wg_map_value(before, i),
				      wg_map_value(after, (size_t)j)))
			return false;
	}
	return true;
}

int wg_kust_add_resource(struct wg_ctx *ctx, const char *name,
			 const char *text, size_t len, const char *entry,
			 struct wg_buf *out)
{
	struct wg_pos_index ix;
	struct wg_edits edits = { 0 };
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_buf edited = WG_BUF_INIT;
	const char *error = NULL, *problem = NULL;
	size_t error_line = 0;
	const struct wg_pos_node *root = NULL;
	int rc = -1;

	if (wg_pos_index_build(&ix, text, len, &error, &error_line) == 0
	    && ix.ndocs)
		root = ix.docs[0].root;
	if (error)
		problem = error;
	else if (!root || root->kind != WG_NODE_MAP
		 || (root->flags & WG_POS_FLOW) || !root->len)
		problem = "it is not a block mapping";
	else
		rc = plan(&ix, root, entry, &edits, &problem);
	if (rc == 1) {
		struct wg_input a = { (char *)name, (char *)text, len, 0,
				      WG_FILE_META_NONE, true };
		struct wg_input b = { (char *)name, NULL, 0, 0,
				      WG_FILE_META_NONE, true };
		struct wg_ctx scratch;
		const struct wg_node *before, *after;

		wg_edits_apply(&edits, text, len, &edited);
		b.data = edited.buf;
		b.len = edited.len;
		wg_ctx_init(&scratch);
		before = read_doc(&scratch, &a, &arena);
		after = read_doc(&scratch, &b, &arena);
		wg_ctx_release(&scratch);
		if (before && after && read_back(before, after, entry)) {
			wg_buf_reset(out);
			wg_buf_add(out, edited.buf, edited.len);
		} else {
			problem = "the edit did not read back as the same "
				  "kustomization with one more resource";
			rc = -1;
		}
	}
	if (rc < 0)
		wg_report_at(ctx, WG_SEV_ERROR, name,
			     error ? (uint32_t)error_line + 1 : 0, 0,
			     "cannot add %s to its resources: as text: %s; add "
			     "it by hand", entry, problem);
	wg_pos_index_release(&ix);
	wg_edits_release(&edits);
	wg_buf_release(&edited);
	wg_arena_release(&arena);
	return rc;
}
