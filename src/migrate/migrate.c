/*
 * migrate, per file: read it and hand its objects to the chain with a copy
 * taken before; afterwards diff each object, plan text edits, apply them
 * document by document, and check that every edited document reads back
 * as exactly the objects the chain produced.
 */
#define _GNU_SOURCE	/* memmem */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "wingen/base/alloc.h"
#include "wingen/base/index.h"
#include "wingen/k8s/podspec.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

#include "migrate_through.h"

struct wg_migrate_doc {
	struct wg_node *root;	/* as read; NULL for an empty document */
	unsigned index;		/* document index in the file */
};

/* What migrate keeps on each resource of a file (res->payload). */
struct payload {
	struct wg_migrate_file *file;
	size_t doc;		/* index into file->docs */
	long item;		/* index in the List's items, -1 */
	struct wg_node *root;	/* the tree as read, which the edits may
				   change in place (list->journal has what
				   they changed) */
	const struct wg_node *before;	/* while its file is finished: the
				   tree as read, rebuilt from the journal
				   in the finisher's arena; else NULL */
};

/* ---- templates ---------------------------------------------------------- */

/* Whether data holds "{{": memchr for the rare '{' is several times faster
 * than memmem's general search over a whole file. */
static bool has_braces(const char *data, size_t len)
{
	const char *p = data, *end = data + len;

	while (p < end && (p = memchr(p, '{', (size_t)(end - p)))) {
		if (++p < end && *p == '{')
			return true;
	}
	return false;
}

bool wg_migrate_is_template(const char *data, size_t len)
{
	yaml_parser_t p;
	size_t prev_brace = SIZE_MAX;	/* index of the last '{' token */
	bool found = false;

	/* Both forms below are the bytes "{{" in the text (a plain scalar
	 * is its own bytes): without them, no need to scan. */
	if (!has_braces(data, len))
		return false;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	while (!found) {
		yaml_token_t t;
		bool end;

		if (!yaml_parser_scan(&p, &t))
			break;
		end = t.type == YAML_STREAM_END_TOKEN;
		if (t.type == YAML_FLOW_MAPPING_START_TOKEN) {
			/* "{{" reads as two flow mappings opened back to
			 * back: Go template syntax, not YAML anyone meant */
			found = prev_brace != SIZE_MAX
				&& t.start_mark.index == prev_brace + 1;
			prev_brace = t.start_mark.index;
		} else if (t.type == YAML_SCALAR_TOKEN
			   && t.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
			const char *s = (const char *)t.data.scalar.value;

			for (size_t i = 0; i + 1 < t.data.scalar.length; i++)
				if (s[i] == '{' && s[i + 1] == '{')
					found = true;
		}
		yaml_token_delete(&t);
		if (end)
			break;
	}
	yaml_parser_delete(&p);
	return found;
}

/* Whether the value at p (after "kind:" and blanks), bare or quoted, is
 * the workload kind k, followed by nothing but blanks, a quote, a comma or
 * a comment. */
static bool kind_value_is(const char *p, const char *end, const char *k)
{
	size_t n = strlen(k);

	if (p < end && (*p == '"' || *p == '\''))
		p++;
	if ((size_t)(end - p) < n || memcmp(p, k, n) != 0)
		return false;
	p += n;
	return p == end || strchr(" \t\r\n\"',#}", *p);
}

/* Whether a workload kind's name is also that of a kind that is no
 * workload (Knative's Service and the core Service): the text alone
 * cannot tell them apart, so it does not name a workload. */
static bool shares_name(const struct wg_kind *k)
{
	for (int i = 0; i < WG_KIND_KNOWN_COUNT; i++)
		if (strcmp(wg_known_kinds[i].kind, k->kind) == 0)
			return true;
	return false;
}

const char *wg_migrate_text_workload(const char *data, size_t len,
				     unsigned *line)
{
	const char *p = data, *end = data + len;
	unsigned n = 1;

	for (; p < end; n++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *stop = eol ? eol : end;

		/* "kind" as a key anywhere on the line: block, flow, JSON */
		while (q < stop && (q = memchr(q, 'k', (size_t)(stop - q)))) {
			const char *v = q + 4;

			if ((size_t)(stop - q) > 4 && memcmp(q, "kind", 4) == 0
			    && (q == p || strchr(" \t{,\"'-", q[-1]))) {
				if (v < stop && (*v == '"' || *v == '\''))
					v++;
				if (v < stop && *v == ':') {
					for (v++; v < stop && (*v == ' '
							       || *v == '\t');)
						v++;
					for (const struct wg_kind *k = wg_kinds;
					     k->kind; k++)
						if (!shares_name(k)
						    && kind_value_is(v, stop,
								     k->kind)) {
							*line = n;
							return k->kind;
						}
				}
			}
			q++;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	*line = 0;
	return NULL;
}

/*
 * Whether text that holds template actions still reads as YAML, read on a
 * scratch context with ctx's limits so a failure says nothing on ctx: a
 * manifest whose plain scalars carry "{{" (a PrometheusRule description,
 * an Argo Workflows parameter) is YAML and is migrated; a Helm template
 * with actions between the keys is not.
 */
static bool reads_as_yaml(const struct wg_ctx *ctx, const struct wg_input *in)
{
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_ctx scratch;
	struct wg_reader r;
	struct wg_node *root;
	unsigned index;
	int rc;

	/* not wg_ctx_init(): the limits are ctx's, and the environment is
	 * not read again on a loading thread (migrate_pool.c) */
	memset(&scratch, 0, sizeof(scratch));
	wg_log_init(&scratch.log);
	scratch.limits = ctx->limits;
	wg_reader_init(&r, &scratch, in);
	while ((rc = wg_reader_next(&r, &arena, &root, &index)) > 0)
		;
	wg_reader_release(&r);
	rc = rc < 0 || wg_ctx_failed(&scratch) ? -1 : 0;
	wg_arena_release(&arena);
	wg_ctx_release(&scratch);
	return rc == 0;
}

/* ---- loading ------------------------------------------------------------ */

static bool is_object(const struct wg_node *root)
{
	return wg_is_map(root) && wg_is_scalar(wg_map_get(root, "apiVersion"))
	       && wg_is_scalar(wg_map_get(root, "kind"));
}

static long item_index(const struct wg_node *root, const struct wg_node *item)
{
	const struct wg_node *items = wg_map_get(root, "items");

	for (size_t i = 0; wg_is_seq(items) && i < items->len; i++)
		if (wg_seq_item(items, i) == item)
			return (long)i;
	return -1;
}

int wg_migrate_load(struct wg_ctx *ctx, struct wg_migrate_file *f,
		    const char *path, struct wg_resources *list)
{
	struct wg_input in;

	memset(f, 0, sizeof(*f));
	wg_buf_init(&f->out);
	if (wg_input_read_in(ctx, path, &list->arena, &in))
		return -1;
	return wg_migrate_load_input(ctx, f, &in, list);
}

int wg_migrate_load_input(struct wg_ctx *ctx, struct wg_migrate_file *f,
			  struct wg_input *in, struct wg_resources *list)
{
	struct wg_reader r;
	struct wg_node *root;
	size_t cap = 0;
	unsigned index;
	bool objects = false, json, nested = false;
	size_t file_first;
	const char *file, *path = in->name;
	struct wg_pos_scan *scan;
	struct wg_migrate_doc *kept;
	int rc;

	memset(f, 0, sizeof(*f));
	wg_buf_init(&f->out);
	f->in = *in;
	memset(in, 0, sizeof(*in));
	if (wg_migrate_is_template(f->in.data, f->in.len)
	    && !reads_as_yaml(ctx, &f->in)) {
		f->skip = "a Helm template (template actions, and it does not "
			  "read as YAML)";
		f->skip_kind = wg_migrate_text_workload(f->in.data, f->in.len,
						       &f->skip_line);
		return 0;
	}
	wg_reader_init(&r, ctx, &f->in);
	if (list->share_keys)	/* their places come from the scan */
		r.shared_keys = list;
	scan = wg_pos_scan_start(&f->ix, f->in.data, f->in.len);
	r.observe = wg_pos_scan_event;
	r.observe_arg = scan;
	while ((rc = wg_reader_next(&r, &list->arena, &root, &index)) > 0) {
		WG_GROW(f->docs, cap, f->ndocs + 1);
		f->docs[f->ndocs].root = root;
		f->docs[f->ndocs].index = index;
		f->ndocs++;
		objects = objects || is_object(root);
	}
	json = r.json_stream;
	wg_reader_release(&r);
	/* held to the end of the run, in its arena: a small chunk of the
	 * heap kept for each of 50,000 files pinned the freed ones around it */
	kept = f->ndocs ? wg_arena_alloc(&list->arena,
					 f->ndocs * sizeof(*f->docs)) : NULL;
	if (kept)
		memcpy(kept, f->docs, f->ndocs * sizeof(*f->docs));
	free(f->docs);
	f->docs = kept;
	f->scanned = wg_pos_scan_finish(scan, &list->arena) == 0 && rc == 0;
	if (!f->scanned)
		wg_pos_index_release(&f->ix);
	if (rc < 0)
		return -1;
	if (json || !objects)
		wg_pos_index_release(&f->ix);
	if (json) {
		f->skip = "a stream of JSON objects";
		f->skip_kind = wg_migrate_text_workload(f->in.data, f->in.len,
						       &f->skip_line);
		return 0;
	}
	if (!objects) {
		f->skip = "no Kubernetes objects (apiVersion and kind)";
		return 0;
	}
	file = wg_arena_strdup(&list->arena, path);
	file_first = list->len;
	for (size_t d = 0; d < f->ndocs; d++) {
		size_t first = list->len;

		wg_resources_add_document(list, f->docs[d].root, file,
					  f->docs[d].index);
		for (size_t i = first; i < list->len; i++) {
			struct wg_resource *res = list->items[i];
			struct payload *pl = wg_arena_zalloc(&list->arena,
							     sizeof(*pl));

			pl->file = f;
			pl->doc = d;
			pl->item = -1;
			if (res->flags & WG_RES_LIST_ITEM)
				pl->item = item_index(f->docs[d].root,
						      res->root);
			if (pl->item < 0 && (res->flags & WG_RES_LIST_ITEM))
				nested = true;
			pl->root = res->root;
			res->payload = pl;
		}
	}
	/* Text edits follow one level of List items; build expands deeper
	 * Lists too, so such a file cannot be migrated as text. */
	if (nested) {
		f->skip = "a List inside a List (migrate edits the items of one "
			  "List only)";
		list->len = file_first;	/* its objects take no part */
		wg_pos_index_release(&f->ix);
		f->skip_kind = wg_migrate_text_workload(f->in.data, f->in.len,
						       &f->skip_line);
	}
	return 0;
}

void wg_migrate_file_release(struct wg_migrate_file *f)
{
	wg_input_release(&f->in);
	wg_buf_release(&f->out);
	free(f->regions);
	free(f->mine);
	wg_pos_index_release(&f->ix);
	wg_temp_drop(&f->temp);	/* not renamed: the run failed */
	memset(f, 0, sizeof(*f));
}

void wg_migrate_assign(struct wg_migrate_file *files, size_t n,
		       const struct wg_resources *list)
{
	struct wg_index *by_name = wg_index_new_sized(n);

	for (size_t i = 0; i < n; i++) {
		files[i].nmine = 0;
		files[i].assigned = true;
		if (!files[i].skip)
			wg_index_add(by_name, files[i].in.name,
				     strlen(files[i].in.name), &files[i]);
	}
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		struct payload *pl = res->payload;
		struct wg_migrate_file *f = NULL;
		void *const *hit;
		size_t nhit;

		if (pl) {
			f = pl->file;
		} else if (!(res->flags & WG_RES_GENERATED) && res->file) {
			hit = wg_index_get(by_name, res->file,
					   strlen(res->file), &nhit);
			f = nhit ? hit[0] : NULL;
		}
		if (f && f->assigned) {
			WG_GROW(f->mine, f->mine_cap, f->nmine + 1);
			f->mine[f->nmine++] = res;
		}
	}
	wg_index_free(by_name);
}

/* ---- finishing ---------------------------------------------------------- */

/* One document while its edits are worked out. */
struct docstate {
	struct wg_resource **res;	/* its objects, in list order */
	size_t nres, cap;
	struct wg_resource **extra;	/* objects the chain added after it */
	size_t nextra, extra_cap;
	const struct wg_resource *culprit;	/* why it cannot be edited */
	const char *problem;
	struct wg_node where;	/* position for the message */
	const char *field;
	size_t changed;		/* objects the chain changed */
	bool deleted;		/* its one object was dropped: the document
				   goes, from its "---" to the next */
};

struct finisher {
	struct wg_ctx *ctx;
	struct wg_migrate_file *f;
	const struct wg_migrate_opts *opts;
	struct wg_pos_index *ix;	/* the file's scan, or own */
	struct wg_pos_index own;	/* the whole file indexed here */
	struct docstate *docs;
	struct wg_arena arena;	/* paths, copies */
	const struct wg_node **want;	/* reads_back's expected trees */
	size_t want_cap;
	struct wg_pos_map map;	/* plan_doc's, one object at a time */
	struct wg_migrate_scratch *scratch;	/* where want, map, arena and
						   window came from, or NULL */
	struct wg_buf window;	/* write_through's (migrate_through.h) */
	bool through;		/* opts->write_through */
};

/* Borrows the caller's reusable memory (wg_migrate_opts.scratch). */
static void scratch_take(struct finisher *fin, struct wg_migrate_scratch *s)
{
	wg_arena_release(&fin->arena);
	fin->arena = s->arena;
	fin->map = s->map;
	fin->want = s->want;
	fin->want_cap = s->want_cap;
	fin->window = s->window;
	memset(s, 0, sizeof(*s));
	fin->scratch = s;
}

/* Frees the finisher's memory, or hands it back emptied to the scratch
 * it came from. */
static void finisher_release(struct finisher *fin)
{
	struct wg_migrate_scratch *s = fin->scratch;

	if (!s) {
		free(fin->want);
		wg_pos_map_release(&fin->map);
		wg_arena_release(&fin->arena);
		wg_buf_release(&fin->window);
		return;
	}
	wg_arena_clear(&fin->arena);
	wg_pos_map_clear(&fin->map);
	s->arena = fin->arena;
	s->map = fin->map;
	s->want = fin->want;
	s->want_cap = fin->want_cap;
	s->window = fin->window;
	s->window.len = 0;
}

void wg_migrate_scratch_release(struct wg_migrate_scratch *s)
{
	free(s->want);
	wg_pos_map_release(&s->map);
	wg_arena_release(&s->arena);
	wg_buf_release(&s->window);
	memset(s, 0, sizeof(*s));
}

static void doc_push(struct wg_resource ***items, size_t *len, size_t *cap,
		     struct wg_resource *res)
{
	WG_GROW(*items, *cap, *len + 1);
	(*items)[(*len)++] = res;
}

void wg_migrate_edits_begin(struct wg_resources *list)
{
	if (!list->journal)
		list->journal = wg_node_journal_new();
	wg_node_journal_start(list->journal);
}

void wg_migrate_edits_end(struct wg_resources *list)
{
	(void)list;
	wg_node_journal_stop();
}

/* Sorts the list's objects by the document they belong to, and rebuilds
 * the trees of the file's own as they were read. */
static void group(struct finisher *fin, const struct wg_resources *list)
{
	struct wg_migrate_file *f = fin->f;
	struct wg_resource *const *items = f->assigned ? f->mine : list->items;
	size_t n = f->assigned ? f->nmine : list->len;
	long last = -1;

	for (size_t i = 0; i < n; i++) {
		struct wg_resource *res = items[i];
		struct payload *pl = res->payload;
		struct docstate *ds;

		if (pl && pl->file == f) {
			pl->before = wg_node_journal_before(list->journal,
							    &fin->arena,
							    pl->root);
			last = (long)pl->doc;
			doc_push(&fin->docs[pl->doc].res,
				 &fin->docs[pl->doc].nres,
				 &fin->docs[pl->doc].cap, res);
			continue;
		}
		if (pl || (res->flags & WG_RES_GENERATED) || !res->file
		    || strcmp(res->file, f->in.name) != 0 || last < 0)
			continue;
		ds = &fin->docs[last];
		doc_push(&ds->extra, &ds->nextra, &ds->extra_cap, res);
		/* after an object of a List, build's order would put it
		 * among the items, where no document can go */
		if (!ds->problem && ds->nres
		    && ((struct payload *)ds->res[0]->payload)->item >= 0) {
			ds->problem = "the chain added an object after an item "
				      "of a List, and List items are not "
				      "written as text";
			ds->culprit = res;
		}
	}
}

/* Indexes the whole file here: when it was not scanned at load, or a
 * document's text alone does not parse as the scan saw it. */
static int index_whole(struct finisher *fin)
{
	const char *err;
	size_t err_line;

	if (fin->ix == &fin->own)
		return -1;	/* already whole, and that failed */
	fin->ix = &fin->own;
	if (wg_pos_index_build(&fin->own, fin->f->in.data, fin->f->in.len,
			       &err, &err_line)
	    || fin->own.ndocs != fin->f->ndocs)
		return -1;
	return 0;
}

/* Document d's tree as read, when it is one object (a List's items were
 * cloned one by one): the scan's events are then replayed over it
 * instead of parsing the document again. */
static const struct wg_node *doc_before(const struct finisher *fin, size_t d)
{
	const struct docstate *ds = &fin->docs[d];
	const struct payload *pl;

	if (ds->nres != 1)
		return NULL;
	pl = ds->res[0]->payload;
	return pl && pl->file == fin->f && pl->item < 0 ? pl->before : NULL;
}

/* The position nodes of document d, built when first asked for: in full
 * only where changes walked, when given (the rest is not looked into). */
static struct wg_pos_node *doc_pos_for(struct finisher *fin, size_t d,
				       struct wg_tdiff_list *changes)
{
	const struct wg_node **expand = NULL;
	size_t n = 0;

	if (d >= fin->ix->ndocs)
		return NULL;
	if (changes) {
		wg_pos_sort_nodes(changes->walked, changes->nwalked);
		expand = changes->walked;
		n = changes->nwalked;
	}
	if (wg_pos_index_doc_tree_for(fin->ix, d, doc_before(fin, d),
				      expand, n)
	    && index_whole(fin))
		return NULL;
	return fin->ix->docs[d].root;
}

static struct wg_pos_node *doc_pos(struct finisher *fin, size_t d)
{
	return doc_pos_for(fin, d, NULL);
}

static struct wg_pos_node *resource_pos(struct finisher *fin,
					const struct payload *pl,
					struct wg_tdiff_list *changes)
{
	struct wg_pos_node *root;

	root = doc_pos_for(fin, pl->doc, changes);
	if (pl->item >= 0) {
		struct wg_pos_node *items = NULL;

		for (size_t i = 0; root && root->kind == WG_NODE_MAP
				   && i < root->len; i++) {
			const struct wg_pos_node *k = wg_pos_key(root, i);

			if (k->text_len == 5
			    && memcmp(k->text, "items", 5) == 0)
				items = wg_pos_value(root, i);
		}
		if (!items || items->kind != WG_NODE_SEQ
		    || (size_t)pl->item >= items->len)
			return NULL;
		return items->items[pl->item];
	}
	return root;
}

static void set_problem(struct docstate *ds, const struct wg_resource *res,
			const char *problem, uint32_t line, uint32_t col,
			const char *field)
{
	if (ds->problem)
		return;
	ds->problem = problem;
	ds->culprit = res;
	memset(&ds->where, 0, sizeof(ds->where));
	ds->where.kind = WG_NODE_SCALAR;
	ds->where.line = line;
	ds->where.col = col;
	ds->field = field;
}

/* Plans the edits of one document into edits; a problem is recorded on
 * ds (and the edits are then not used). */
static void plan_doc(struct finisher *fin, struct docstate *ds,
		     struct wg_edits *edits)
{
	for (size_t i = 0; i < ds->nres; i++) {
		struct wg_resource *res = ds->res[i];
		struct payload *pl = res->payload;
		struct wg_tdiff_list changes = { .items = NULL };
		struct wg_pos_map *map = &fin->map;
		struct wg_migrate_refusal why;
		struct wg_pos_node *pos;

		if ((res->flags & WG_RES_DELETED) && pl->item < 0
		    && ds->nres == 1 && !ds->nextra) {
			ds->deleted = true;	/* the whole document */
			continue;
		}
		if (res->flags & WG_RES_DELETED) {
			set_problem(ds, res, "the chain removed this item of a "
				    "List, and List items are not deleted as "
				    "text", wg_node_line(pl->before),
				    wg_node_col(pl->before), NULL);
			continue;
		}
		if (!wg_tree_diff(&fin->arena, pl->before, res->root,
				  &changes)) {
			wg_tdiff_list_release(&changes);	/* walked */
			continue;
		}
		ds->changed++;
		pos = resource_pos(fin, pl, &changes);
		if (!pos) {
			set_problem(ds, res, "cannot find the object in the "
				    "text", wg_node_line(pl->before), wg_node_col(pl->before),
				    NULL);
		} else {
			wg_pos_map_clear(map);
			wg_pos_map_add_tree(map, pl->before, pos);
			if (wg_migrate_plan(fin->ix, map, &changes, 0,
					    changes.len, edits, &why)) {
				const char *path =
					changes.items[why.change].path;

				set_problem(ds, res, why.reason, why.line,
					    why.col, *path ? path : NULL);
			}
		}
		wg_tdiff_list_release(&changes);
	}
}

/* The trees a document should read back as, in order, into fin->want. */
static size_t expected(struct finisher *fin, const struct docstate *ds)
{
	size_t n = 0;

	WG_GROW(fin->want, fin->want_cap, ds->nres + ds->nextra);
	for (size_t i = 0; i < ds->nres; i++)
		if (!(ds->res[i]->flags & WG_RES_DELETED))
			fin->want[n++] = ds->res[i]->root;
	for (size_t i = 0; i < ds->nextra; i++)
		fin->want[n++] = ds->extra[i]->root;
	return n;
}

/* True when text reads back as exactly the objects of ds. */
static bool reads_back(struct finisher *fin, const struct docstate *ds,
		       const char *text, size_t len)
{
	size_t n = expected(fin, ds);

	return wg_migrate_reads_back(&fin->ctx->limits, fin->f->in.name, text,
				     len, fin->want, n);
}

/*
 * The same for a document edited as text: one object in a document the
 * scan recorded is read back by its edited runs of pairs alone
 * (wg_readback_regions), and in full when that is unsure.  edits are
 * relative to start, the document's text in the input [start, end), its
 * edited text in f->out from mark.
 */
static bool reads_back_edited(struct finisher *fin, const struct docstate *ds,
			      size_t d, const struct wg_edits *edits,
			      size_t start, size_t end, size_t mark)
{
	struct wg_migrate_file *f = fin->f;
	const char *text = f->out.buf + mark;
	size_t len = f->out.len - mark;

	if (fin->ix == &f->ix && d < fin->ix->ndocs
	    && fin->ix->docs[d].recorded && fin->ix->docs[d].indexed
	    && ds->nres == 1 && !ds->nextra
	    && !(ds->res[0]->flags & WG_RES_DELETED)) {
		const struct payload *pl = ds->res[0]->payload;

		if (pl->item < 0
		    && wg_readback_regions(fin->ix, fin->ix->docs[d].root,
					   start, end, pl->before,
					   ds->res[0]->root, edits, text, len,
					   &fin->ctx->limits, NULL)) {
			f->regions_read++;
			if (fin->opts && fin->opts->check_regions
			    && !reads_back(fin, ds, text, len))
				f->regions_wrong++;
			return true;
		}
	}
	return reads_back(fin, ds, text, len);
}

/* The document's root as it should be written: the List with its items
 * as the chain left them, or the object. */
static const struct wg_node *doc_root(struct finisher *fin,
				      const struct docstate *ds,
				      const struct wg_migrate_doc *doc)
{
	const struct wg_node *items;
	struct wg_node *copy, *seq;

	if (ds->nres == 0)
		return doc->root;
	if (((struct payload *)ds->res[0]->payload)->item < 0)
		return ds->res[0]->flags & WG_RES_DELETED ? NULL
							   : ds->res[0]->root;
	copy = wg_node_clone(&fin->arena, doc->root);
	seq = wg_node_new_seq(&fin->arena);
	items = wg_map_get(doc->root, "items");
	seq->flags = items ? items->flags : seq->flags;
	for (size_t i = 0; i < ds->nres; i++)
		if (!(ds->res[i]->flags & WG_RES_DELETED))
			wg_seq_append(&fin->arena, seq, ds->res[i]->root);
	for (size_t i = 0; i < ds->nextra; i++)
		wg_seq_append(&fin->arena, seq, ds->extra[i]->root);
	wg_map_set(&fin->arena, copy, "items", seq);
	return copy;
}

/* Writer output with the file's line breaks and no final break. */
static void emit_yaml(struct finisher *fin, struct wg_buf *out,
		      const struct wg_node *const *roots, size_t n,
		      bool keep_break)
{
	struct wg_buf tmp = WG_BUF_INIT;
	struct wg_yaml_writer w;
	bool crlf = strcmp(fin->ix->eol, "\r\n") == 0;

	wg_yaml_writer_init(&w, &tmp);
	for (size_t i = 0; i < n; i++)
		wg_yaml_writer_doc(&w, roots[i]);
	wg_yaml_writer_finish(&w);
	wg_yaml_writer_release(&w);
	if (tmp.len && tmp.buf[tmp.len - 1] == '\n' && !keep_break)
		tmp.len--;
	for (size_t i = 0; i < tmp.len; i++) {
		if (tmp.buf[i] == '\n' && crlf)
			wg_buf_addch(out, '\r');
		wg_buf_addch(out, tmp.buf[i]);
	}
	wg_buf_release(&tmp);
}

/* The document region [start, end) re-emitted by the writer: the content
 * is replaced, comments before and after it stay. */
static void reformat(struct finisher *fin, const struct docstate *ds,
		     size_t d, size_t start, size_t end, struct wg_buf *out)
{
	const struct wg_pos_node *pos = doc_pos(fin, d);
	const struct wg_node **roots;
	const struct wg_node *root = doc_root(fin, ds, &fin->f->docs[d]);
	bool list = ds->nres
		    && ((struct payload *)ds->res[0]->payload)->item >= 0;
	size_t n = 0;

	roots = wg_xcalloc(ds->nextra + 1, sizeof(*roots));
	if (root)
		roots[n++] = root;
	for (size_t i = 0; !list && i < ds->nextra; i++)
		roots[n++] = ds->extra[i]->root;
	wg_buf_add(out, fin->ix->data + start, pos->start - start);
	/* content that ended with its line break (a block scalar last)
	 * is replaced up to the next line */
	emit_yaml(fin, out, roots, n, pos->end > pos->start
		  && (fin->ix->data[pos->end - 1] == '\n'
		      || fin->ix->data[pos->end - 1] == '\r'));
	wg_buf_add(out, fin->ix->data + pos->end, end - pos->end);
	free(roots);
}

/* Objects the chain added after a document become new documents right
 * after it (before the next "---"), written by the YAML writer. */
static void add_documents(struct finisher *fin, const struct docstate *ds,
			  size_t end, struct wg_edits *edits)
{
	const struct wg_node **roots = wg_xcalloc(ds->nextra,
						  sizeof(*roots));
	struct wg_buf text = WG_BUF_INIT;
	const char *d = fin->ix->data;

	for (size_t i = 0; i < ds->nextra; i++)
		roots[i] = ds->extra[i]->root;
	if (end && d[end - 1] != '\n' && d[end - 1] != '\r')
		wg_buf_addstr(&text, fin->ix->eol);
	wg_buf_addf(&text, "---%s", fin->ix->eol);
	emit_yaml(fin, &text, roots, ds->nextra, true);
	wg_edits_add(edits, end, end, text.buf, text.len);
	wg_buf_release(&text);
	free(roots);
}

static void report(struct finisher *fin, const struct docstate *ds)
{
	const struct wg_resource *res = ds->culprit;
	struct wg_resource where = *res;
	struct payload *pl = res->payload;

	/* name the object as it was read, at the place in the file */
	if (pl && pl->file == fin->f)	/* read, never written */
		where.root = (struct wg_node *)pl->before;
	wg_error(fin->ctx, &where, ds->where.line || ds->where.col
		 ? &ds->where : NULL, ds->field, "cannot edit the file as "
		 "text: %s (--reformat-fallback re-emits the document)",
		 ds->problem);
}

/* Records document [start, end) of the input as out[mark, ...) when the
 * two differ (for --diff: not with write_through, which has no diff). */
static void add_region(const struct finisher *fin, size_t start, size_t end,
		       size_t mark)
{
	struct wg_migrate_file *f = fin->f;
	struct wg_udiff_region *r;

	if (fin->through
	    || (f->out.len - mark == end - start
		&& memcmp(f->out.buf + mark, f->in.data + start,
			  end - start) == 0))
		return;
	WG_GROW(f->regions, f->regions_cap, f->nregions + 1);
	r = &f->regions[f->nregions++];
	r->old_start = start;
	r->old_end = end;
	r->new_start = mark;
	r->new_end = f->out.len;
}

int wg_migrate_finish(struct wg_ctx *ctx, struct wg_migrate_file *f,
		      const struct wg_resources *list,
		      const struct wg_migrate_opts *opts)
{
	struct finisher fin;
	int rc = 0;

	if (f->skip)
		return 0;
	/* without the journal every object would look unchanged */
	if (!list->journal)
		return wg_report_at(ctx, WG_SEV_ERROR, f->in.name, 0, 0,
				    "internal error: the chain's edits were "
				    "not recorded (wg_migrate_edits_begin)");
	memset(&fin, 0, sizeof(fin));
	fin.ctx = ctx;
	fin.f = f;
	fin.opts = opts;
	wg_arena_init(&fin.arena);
	if (opts && opts->scratch)
		scratch_take(&fin, opts->scratch);
	f->nregions = 0;
	f->documents_deleted = 0;
	f->emptied = false;
	fin.ix = &f->ix;
	if ((!f->scanned || f->ix.ndocs != f->ndocs) && index_whole(&fin)) {
		wg_pos_index_release(&fin.own);
		finisher_release(&fin);
		return wg_report_at(ctx, WG_SEV_ERROR, f->in.name, 0, 0,
				    "cannot index the file for editing%s",
				    f->in.len > WG_POS_MAX_TEXT
				    ? ": it is 4 GiB or longer (migrate edits "
				      "files under 4 GiB)" : "");
	}
	fin.through = opts && opts->write_through;
	if (fin.through) {
		wg_through_begin(f, &fin.window);
	} else {
		wg_buf_reset(&f->out);
		/* the text grows by a few lines an object: no copies */
		wg_buf_grow(&f->out, f->in.len + f->in.len / 8 + 4096);
	}
	fin.docs = wg_xcalloc(f->ndocs ? f->ndocs : 1, sizeof(*fin.docs));
	group(&fin, list);
	for (size_t d = 0; d < f->ndocs; d++) {
		struct docstate *ds = &fin.docs[d];
		struct wg_edits edits = { NULL, 0, 0 };
		size_t start = d ? fin.ix->docs[d].start : 0;
		size_t end = d + 1 < f->ndocs ? fin.ix->docs[d + 1].start
					      : f->in.len;
		size_t mark;
		bool done = false;

		if (fin.through && f->out.len >= WG_THROUGH_WINDOW
		    && wg_through_flush(ctx, f))
			rc = -1;
		mark = f->out.len;
		plan_doc(&fin, ds, &edits);
		if (ds->deleted) {
			/* its comments go with it: they are about it */
			f->objects_changed++;
			f->documents_deleted++;
			add_region(&fin, start, end, mark);
			wg_edits_release(&edits);
			continue;
		}
		if (!ds->problem && ds->nextra)
			add_documents(&fin, ds, end, &edits);
		f->objects_changed += ds->changed + ds->nextra;
		if (!ds->problem && edits.len) {
			/* Apply to this document's region alone. */
			for (size_t i = 0; i < edits.len; i++) {
				edits.items[i].start -= start;
				edits.items[i].end -= start;
			}
			if (wg_edits_apply(&edits, f->in.data + start,
					   end - start, &f->out)) {
				set_problem(ds, ds->res[0], "two edits overlap",
					    0, 0, NULL);
			} else if (!reads_back_edited(&fin, ds, d, &edits,
						      start, end, mark)) {
				set_problem(ds, ds->res[0], "the edited text "
					    "does not read back as the changed "
					    "object", 0, 0, NULL);
			} else {
				done = true;
			}
		} else if (!ds->problem) {
			wg_buf_add(&f->out, f->in.data + start, end - start);
			done = true;
		}
		wg_edits_release(&edits);
		if (done) {
			add_region(&fin, start, end, mark);
			continue;
		}
		f->out.len = mark;
		if (opts && opts->reformat_fallback && doc_pos(&fin, d)) {
			reformat(&fin, ds, d, start, end, &f->out);
			f->reformatted++;
			if (reads_back(&fin, ds, f->out.buf + mark,
				       f->out.len - mark)) {
				add_region(&fin, start, end, mark);
				continue;
			}
			f->out.len = mark;
			ds->problem = "the re-emitted document does not read "
				      "back as the changed object";
		}
		report(&fin, ds);
		rc = -1;
		wg_buf_add(&f->out, f->in.data + start, end - start);
	}
	/* A missing final line break stays missing, and a present one stays. */
	if (f->in.len && !fin.ix->final_newline && f->out.len
	    && f->out.buf[f->out.len - 1] == '\n') {
		f->out.len--;
		if (f->out.len && f->out.buf[f->out.len - 1] == '\r')
			f->out.len--;
		if (f->nregions)	/* the last document changed: it grew */
			f->regions[f->nregions - 1].new_end = f->out.len;
	}
	if (fin.through) {
		if (wg_through_end(ctx, f, &fin.window))
			rc = -1;
	} else {
		wg_buf_addch(&f->out, '\0');	/* exists, even empty */
		f->out.len--;
		f->changed = f->out.len != f->in.len
			     || memcmp(f->out.buf, f->in.data, f->in.len) != 0;
		f->emptied = f->documents_deleted
			     && wg_migrate_nothing_left(f->out.buf,
							f->out.len);
	}
	for (size_t d = 0; d < f->ndocs; d++) {
		for (size_t i = 0; i < fin.docs[d].nres; i++)	/* in arena */
			((struct payload *)fin.docs[d].res[i]->payload)
				->before = NULL;
		free(fin.docs[d].res);
		free(fin.docs[d].extra);
	}
	free(fin.docs);
	wg_pos_index_release(&fin.own);
	finisher_release(&fin);
	/* What the run keeps of a finished file until it writes: the new
	 * text at its size (it was sized for growth), not the nodes of its
	 * last edited document. */
	wg_buf_shrink(&f->out);
	if (f->scanned)
		wg_pos_index_drop_nodes(&f->ix);
	return rc;
}
