/*
 * migrate's read-back check without building trees: the edited text's
 * libyaml events are compared with the expected trees as they come, with
 * the sameness of wg_tree_same() against what wg_read_stream() would have
 * built.  Only the plain cases are followed; anything else is "unsure"
 * and the caller reads the text in full.
 */
#include "wingen/migrate/migrate.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/scalar.h"

/* Deeper documents are left to the full read (Kubernetes objects nest a
 * dozen levels): a fixed stack, no allocation per check. */
#define RB_MAX_DEPTH 64

/* A collection of the text being compared with its expected node. */
struct rb_frame {
	const struct wg_node *want;
	size_t next;	/* children seen (keys and values of a mapping) */
	size_t count;	/* children it must have */
};

struct rb {
	const struct wg_limits *limits;
	const struct wg_node *const *want;	/* the expected roots */
	size_t nwant, next_root;
	struct rb_frame frames[RB_MAX_DEPTH];
	size_t nframes;
	size_t documents;
	size_t doc_start;	/* mark index of the document's start */
};

static int key_ptr_cmp(const void *a, const void *b)
{
	const struct wg_node *x = *(const struct wg_node *const *)a;
	const struct wg_node *y = *(const struct wg_node *const *)b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->len ? memcmp(x->u.str, y->u.str, x->len) : 0;
}

/*
 * Whether two keys of mapping m have the same text (the reader refuses
 * such a document).  The text's keys are checked on m: a text that
 * matches m has m's key texts.  A key that is no scalar counts as a
 * repeat: the caller is then unsure, as it should be.
 */
static bool has_repeated_key(const struct wg_node *m)
{
	const struct wg_node **keys;
	bool dup = false;

	for (size_t i = 0; i < m->len; i++)
		if (!wg_is_scalar(wg_map_key(m, i)))
			return true;
	if (m->len <= 16) {
		for (size_t i = 1; i < m->len; i++)
			for (size_t j = 0; j < i; j++)
				if (key_ptr_cmp(&m->u.items[2 * i],
						&m->u.items[2 * j]) == 0)
					return true;
		return false;
	}
	keys = wg_xmalloc(m->len * sizeof(*keys));
	for (size_t i = 0; i < m->len; i++)
		keys[i] = wg_map_key(m, i);
	wg_sort(keys, m->len, sizeof(*keys), key_ptr_cmp);
	for (size_t i = 1; i < m->len && !dup; i++)
		dup = key_ptr_cmp(&keys[i - 1], &keys[i]) == 0;
	free(keys);
	return dup;
}

/* A superset of the reader's List test (resource.c): a root that may be
 * a List is read as its items, which this check does not follow. */
static bool may_be_list(const struct wg_node *root)
{
	const struct wg_node *kind = wg_map_get(root, "kind");

	return wg_map_find(root, "items") >= 0 && wg_is_scalar(kind)
	       && kind->len >= 4
	       && memcmp(kind->u.str + kind->len - 4, "List", 4) == 0;
}

/*
 * The expected node for the text's next node, or NULL when there is none
 * (more nodes than expected).  *is_key: the node is a mapping key.
 */
static const struct wg_node *next_want(const struct rb *rb, bool *is_key)
{
	const struct rb_frame *f;

	*is_key = false;
	if (!rb->nframes)
		return rb->next_root < rb->nwant ? rb->want[rb->next_root]
						 : NULL;
	f = &rb->frames[rb->nframes - 1];
	if (f->next >= f->count)
		return NULL;
	*is_key = f->want->kind == WG_NODE_MAP && f->next % 2 == 0;
	return f->want->u.items[f->next];
}

/* The text's node is done: its parent has one child more. */
static void advance(struct rb *rb)
{
	if (rb->nframes)
		rb->frames[rb->nframes - 1].next++;
	else
		rb->next_root++;
}

/*
 * A scalar event against its expected node: as wg_tree_same() sees a
 * reader's scalar (no tag: those are unsure).  true when the same.
 */
static bool scalar_event(struct rb *rb, const yaml_event_t *e)
{
	const char *v = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	/* the reader's style: libyaml's less one, "any" as plain */
	bool plain = e->data.scalar.style <= YAML_PLAIN_SCALAR_STYLE;
	const struct wg_node *w;
	bool is_key;

	if (e->data.scalar.tag || e->data.scalar.anchor
	    || len > rb->limits->max_scalar_bytes || len > WG_NODE_MAX_LEN
	    || !rb->nframes)	/* a scalar document: maybe null, skipped */
		return false;
	w = next_want(rb, &is_key);
	if (!w || w->kind != WG_NODE_SCALAR || wg_node_tag(w) || w->len != len
	    || (len && memcmp(w->u.str, v, len) != 0))
		return false;
	/* a plain "<<" key merges: the reader's tree is not the text's */
	if (is_key && plain && len == 2 && memcmp(v, "<<", 2) == 0)
		return false;
	/* plain against quoted: the same only when both are strings */
	if ((w->style == WG_STYLE_PLAIN) != plain
	    && wg_resolve_yaml11(v, len) != WG_TYPE_STR)
		return false;
	advance(rb);
	return true;
}

/* A sequence or mapping start against its expected node. */
static bool start_event(struct rb *rb, const yaml_event_t *e, int kind)
{
	const yaml_char_t *tag, *anchor;
	const struct wg_node *w;
	struct rb_frame *f;
	bool is_key;

	if (kind == WG_NODE_MAP) {
		tag = e->data.mapping_start.tag;
		anchor = e->data.mapping_start.anchor;
	} else {
		tag = e->data.sequence_start.tag;
		anchor = e->data.sequence_start.anchor;
	}
	/* the reader's depth limit, and ours */
	if (tag || anchor || rb->nframes >= rb->limits->max_depth
	    || rb->nframes >= RB_MAX_DEPTH)
		return false;
	w = next_want(rb, &is_key);
	if (!w || is_key || w->kind != kind || wg_node_tag(w))
		return false;
	if (kind == WG_NODE_MAP
	    && ((!rb->nframes && may_be_list(w)) || has_repeated_key(w)))
		return false;
	f = &rb->frames[rb->nframes++];
	f->want = w;
	f->next = 0;
	f->count = kind == WG_NODE_MAP ? 2 * (size_t)w->len : w->len;
	return true;
}

static bool end_event(struct rb *rb)
{
	const struct rb_frame *f = &rb->frames[rb->nframes - 1];

	if (f->next != f->count)
		return false;
	rb->nframes--;
	advance(rb);
	return true;
}

/* One event: false when the text is not surely what is expected (so far),
 * *done at the end of the stream. */
static bool on_event(struct rb *rb, const yaml_event_t *e, bool *done)
{
	switch (e->type) {
	case YAML_STREAM_START_EVENT:
		return true;
	case YAML_STREAM_END_EVENT:
		*done = true;
		return rb->next_root == rb->nwant;
	case YAML_DOCUMENT_START_EVENT:
		rb->doc_start = e->start_mark.index;
		return ++rb->documents <= rb->limits->max_documents;
	case YAML_DOCUMENT_END_EVENT:
		return e->end_mark.index - rb->doc_start
		       <= rb->limits->max_doc_bytes;
	case YAML_SCALAR_EVENT:
		return scalar_event(rb, e);
	case YAML_SEQUENCE_START_EVENT:
		return start_event(rb, e, WG_NODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		return start_event(rb, e, WG_NODE_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return end_event(rb);
	default:	/* an alias: the reader copies its anchor's tree */
		return false;
	}
}

/* Text the reader does not take as one plain YAML stream: a BOM (dropped
 * first) or a JSON value first (maybe one of a stream of them). */
static bool reader_special(const char *text, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		return true;
	while (i < len && (text[i] == ' ' || text[i] == '\t'
			   || text[i] == '\n' || text[i] == '\r'))
		i++;
	return i < len && (text[i] == '{' || text[i] == '[');
}

bool wg_readback_same(const char *text, size_t len,
		      const struct wg_node *const *want, size_t n,
		      const struct wg_limits *limits)
{
	struct rb rb = { .limits = limits, .want = want, .nwant = n };
	yaml_parser_t parser;
	bool same = true, done = false;

	if (reader_special(text, len))
		return false;
	yaml_parser_initialize(&parser);
	/* as the reader parses: UTF-8 only */
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	while (same && !done) {
		yaml_event_t e;

		if (!yaml_parser_parse(&parser, &e)) {
			same = false;	/* the reader fails too: unsure */
		} else {
			same = on_event(&rb, &e, &done);
			yaml_event_delete(&e);
		}
	}
	yaml_parser_delete(&parser);
	return same && done;
}

/* The full check: the text read as wg_read_stream() reads a file, its
 * objects compared with wg_tree_same(). */
static bool read_and_compare(struct wg_ctx *scratch, const char *name,
			     const char *text, size_t len,
			     const struct wg_node *const *want, size_t n)
{
	struct wg_resources got;
	struct wg_input in;
	bool same;

	wg_resources_init(&got);
	in.name = (char *)name;	/* only read: messages go nowhere */
	in.data = wg_xstrndup(text, len);
	in.len = len;
	in.mapped = 0;
	in.borrowed = false;
	same = wg_read_stream(scratch, &in, &got) == 0
	       && !wg_ctx_failed(scratch) && got.len == n;
	for (size_t i = 0; same && i < got.len; i++)
		same = wg_tree_same(want[i], got.items[i]->root);
	free(in.data);
	wg_resources_release(&got);
	return same;
}

bool wg_migrate_reads_back(const struct wg_limits *limits, const char *name,
			   const char *text, size_t len,
			   const struct wg_node *const *want, size_t n)
{
	struct wg_ctx scratch;
	bool same;

	/* a scratch context, so the reader's complaints go nowhere */
	wg_ctx_init(&scratch);
	scratch.limits = *limits;
	/* a WINGEN_LIMITS it refuses is an error on it: then every read
	 * fails, and the full read says so */
	same = (!wg_ctx_failed(&scratch)
		&& wg_readback_same(text, len, want, n, limits))
	       || read_and_compare(&scratch, name, text, len, want, n);
	wg_ctx_release(&scratch);
	return same;
}
