/*
 * Values edits of a chart migration: which keys get which values, merged
 * over every object that reads the same key, and written either as an
 * overlay file (the chart untouched) or into values.yaml as text edits
 * with the engine manifests use (comments, layout and key order kept).
 */
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/input.h"
#include "wingen/migrate/chart.h"
#include "wingen/migrate/migrate.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

/* A copy made of new nodes: no marks, so the tree diff never takes it for
 * a node of the file it is written into. */
static struct wg_node *fresh(struct wg_arena *a, const struct wg_node *n)
{
	struct wg_node *r;

	if (!n)
		return NULL;
	if (wg_is_scalar(n))
		return wg_node_new_scalar(a, n->u.str, n->len, n->style);
	if (wg_is_seq(n)) {
		r = wg_node_new_seq(a);
		for (size_t i = 0; i < n->len; i++)
			wg_seq_append(a, r, fresh(a, wg_seq_item(n, i)));
		return r;
	}
	r = wg_node_new_map(a);
	for (size_t i = 0; i < n->len; i++)
		wg_map_set(a, r, wg_scalar_dup(a, wg_map_key(n, i)),
			   fresh(a, wg_map_value(n, i)));
	return r;
}

static struct wg_values_edit *find(struct wg_values_edits *e, const char *key)
{
	for (size_t i = 0; i < e->len; i++)
		if (strcmp(e->items[i].key, key) == 0)
			return &e->items[i];
	return NULL;
}

int wg_values_edits_merge(struct wg_values_edits *e, const char *key,
			  const struct wg_node *cur, const struct wg_node *add,
			  const char *why, const char **conflict)
{
	struct wg_values_edit *ed = find(e, key);
	struct wg_arena *a = &e->arena;

	*conflict = NULL;
	if (wg_node_is_null(cur) || (cur && cur->kind != add->kind))
		cur = NULL;
	if (!ed) {
		WG_GROW(e->items, e->cap, e->len + 1);
		ed = &e->items[e->len++];
		ed->key = wg_arena_strdup(a, key);
		ed->why = wg_arena_strdup(a, why);
		ed->value = cur ? fresh(a, cur)
			    : wg_is_map(add) ? wg_node_new_map(a)
			    : wg_is_seq(add) ? wg_node_new_seq(a) : NULL;
	}
	if (wg_is_scalar(add)) {
		if (ed->value && !wg_node_equal(ed->value, add)
		    && !(cur && wg_node_equal(ed->value, cur))) {
			*conflict = ed->why;
			return -1;
		}
		ed->value = fresh(a, add);
		return 0;
	}
	if (wg_is_seq(add)) {
		for (size_t i = 0; i < add->len; i++) {
			bool have = false;

			for (size_t j = 0; !have && j < ed->value->len; j++)
				have = wg_node_equal(wg_seq_item(ed->value, j),
						     wg_seq_item(add, i));
			if (!have)
				wg_seq_append(a, ed->value,
					      fresh(a, wg_seq_item(add, i)));
		}
		return 0;
	}
	for (size_t i = 0; i < add->len; i++) {
		char *k = wg_scalar_dup(a, wg_map_key(add, i));
		const struct wg_node *v = wg_map_value(add, i);
		const struct wg_node *have = wg_map_get(ed->value, k);

		if (have && wg_node_equal(have, v))
			continue;
		if (have && !(cur && wg_map_get(cur, k)
			      && wg_node_equal(have, wg_map_get(cur, k)))) {
			*conflict = ed->why;
			return -1;
		}
		wg_map_set(a, ed->value, k, fresh(a, v));
	}
	return 0;
}

void wg_values_edits_release(struct wg_values_edits *e)
{
	free(e->items);
	wg_arena_release(&e->arena);
	memset(e, 0, sizeof(*e));
}

/* The mapping the dotted key's last step goes into, made as needed (NULL
 * when a step holds something else); *last is the last step. */
static struct wg_node *parent_of(struct wg_arena *a, struct wg_node *root,
				 const char *key, char **last)
{
	char *k = wg_arena_strdup(a, key), *dot;
	struct wg_node *m = root;

	while (m && (dot = strchr(k, '.'))) {
		*dot = '\0';
		m = wg_map_ensure_map(a, m, k);
		k = dot + 1;
	}
	*last = k;
	return m;
}

static struct wg_node *nested(struct wg_arena *a,
			      const struct wg_values_edits *e)
{
	struct wg_node *root = wg_node_new_map(a);

	for (size_t i = 0; i < e->len; i++) {
		char *last;
		struct wg_node *m = parent_of(a, root, e->items[i].key, &last);

		if (m)
			wg_map_set(a, m, last, fresh(a, e->items[i].value));
	}
	return root;
}

static void write_tree(struct wg_buf *out, const struct wg_node *root)
{
	struct wg_yaml_writer w;

	wg_yaml_writer_init(&w, out);
	wg_yaml_writer_doc(&w, root);
	wg_yaml_writer_finish(&w);
	wg_yaml_writer_release(&w);
}

void wg_values_overlay(struct wg_buf *out, const struct wg_values_edits *e,
		       const char *chart)
{
	struct wg_arena a = WG_ARENA_INIT;

	wg_buf_addf(out, "# Values that make the chart %s right for a mixed "
		    "Linux/Windows cluster,\n# written by wingen migrate "
		    "--values-out.  Give this file last:\n#   helm install "
		    "NAME %s [your values] -f THIS-FILE\n", chart, chart);
	write_tree(out, nested(&a, e));
	wg_arena_release(&a);
}

/* Sets every edit in after: a mapping is merged into the one there (the
 * file keeps its own keys), anything else replaces. */
static void apply_edits(struct wg_arena *a, struct wg_node *after,
			const struct wg_values_edits *e)
{
	for (size_t i = 0; i < e->len; i++) {
		const struct wg_node *v = e->items[i].value;
		char *last;
		struct wg_node *m = parent_of(a, after, e->items[i].key, &last);
		struct wg_node *have;

		if (!m)
			continue;
		have = wg_map_get(m, last);
		if (wg_is_map(have) && wg_is_map(v) && !(have->flags
							 & WG_NODE_FLOW)) {
			for (size_t j = 0; j < v->len; j++)
				wg_map_set(a, have,
					   wg_scalar_dup(a, wg_map_key(v, j)),
					   fresh(a, wg_map_value(v, j)));
		} else {
			wg_map_set(a, m, last, fresh(a, v));
		}
	}
}

int wg_values_edit_text(const char *text, size_t len,
			const struct wg_values_edits *e, struct wg_buf *out,
			const char **why, size_t *line)
{
	struct wg_ctx scratch;
	struct wg_input in = { (char *)"values.yaml", NULL, 0, 0,
				WG_FILE_META_NONE, false };
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_reader r;
	struct wg_node *before = NULL, *after;
	struct wg_pos_index ix;
	struct wg_pos_map map = { NULL, NULL, 0, 0, NULL };
	struct wg_tdiff_list changes = { .items = NULL };
	struct wg_edits edits = { NULL, 0, 0 };
	struct wg_migrate_refusal refusal;
	unsigned index;
	int rc = -1;

	*why = NULL;
	*line = 0;
	wg_buf_reset(out);
	wg_ctx_init(&scratch);
	in.data = wg_xstrndup(text ? text : "", text ? len : 0);
	in.len = text ? len : 0;
	wg_reader_init(&r, &scratch, &in);
	if (wg_reader_next(&r, &a, &before, &index) < 0) {
		*why = "values.yaml does not read as YAML";
		goto out;
	}
	if (!before || wg_node_is_null(before)) {
		/* empty or comments only: the values go at the end */
		wg_buf_add(out, in.data, in.len);
		if (in.len && in.data[in.len - 1] != '\n')
			wg_buf_addch(out, '\n');
		write_tree(out, nested(&a, e));
		rc = 0;
		goto out;
	}
	if (!wg_is_map(before)) {
		*why = "values.yaml is not a mapping";
		goto out;
	}
	after = wg_node_clone(&a, before);
	apply_edits(&a, after, e);
	if (wg_pos_index_build(&ix, in.data, in.len, why, line)) {
		wg_pos_index_release(&ix);
		goto out;
	}
	if (wg_tree_diff(&a, before, after, &changes) && ix.ndocs
	    && ix.docs[0].root) {
		wg_pos_map_add_tree(&map, before, ix.docs[0].root);
		if (wg_migrate_plan(&ix, &map, &changes, 0, changes.len,
				    &edits, &refusal)) {
			*why = refusal.reason;
			*line = refusal.line;
		} else if (wg_edits_apply(&edits, in.data, in.len, out)) {
			*why = "two edits overlap";
		} else {
			rc = 0;
		}
	} else {
		wg_buf_add(out, in.data, in.len);
		rc = 0;
	}
	wg_pos_index_release(&ix);
out:
	wg_pos_map_release(&map);
	wg_tdiff_list_release(&changes);
	wg_edits_release(&edits);
	wg_reader_release(&r);
	free(in.data);
	wg_arena_release(&a);
	wg_ctx_release(&scratch);
	return rc;
}
