/*
 * Reading and editing node trees: lookups by key and path, mapping and
 * sequence edits (each noted first in the change journal, node_journal.c,
 * when one is kept), equality and walks.  Nodes are made in node_new.c.
 */
#include "wingen/yaml/node.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/scalar.h"

#include "yaml_internal.h"

bool wg_scalar_is(const struct wg_node *n, const char *s)
{
	size_t len;

	if (!wg_is_scalar(n))
		return false;
	len = strlen(s);
	return n->len == len && memcmp(n->u.str, s, len) == 0;
}

bool wg_node_is_null(const struct wg_node *n)
{
	if (!n)
		return true;
	if (n->kind != WG_NODE_SCALAR)
		return false;
	if (wg_node_tag(n))
		return strcmp(wg_node_tag(n), "tag:yaml.org,2002:null") == 0;
	if (n->style != WG_STYLE_PLAIN)
		return false;
	return wg_resolve_yaml11(n->u.str, n->len) == WG_TYPE_NULL;
}

enum wg_bool wg_node_bool(const struct wg_node *n)
{
	const char *tag;

	if (wg_node_is_null(n))
		return WG_BOOL_ABSENT;
	if (n->kind != WG_NODE_SCALAR)
		return WG_BOOL_INVALID;
	tag = wg_node_tag(n);
	if (tag ? strcmp(tag, "tag:yaml.org,2002:bool") != 0
		: n->style != WG_STYLE_PLAIN)
		return WG_BOOL_INVALID;
	if (wg_resolve_yaml11(n->u.str, n->len) != WG_TYPE_BOOL)
		return WG_BOOL_INVALID;
	/* y, yes, on, true (any case YAML 1.1 allows); "of..." is off */
	return strchr("yYtT", n->u.str[0])
	       || ((n->u.str[0] == 'o' || n->u.str[0] == 'O') && n->len == 2)
	       ? WG_BOOL_TRUE : WG_BOOL_FALSE;
}

bool wg_node_true(const struct wg_node *n)
{
	return wg_node_bool(n) == WG_BOOL_TRUE;
}

char *wg_scalar_dup(struct wg_arena *arena, const struct wg_node *n)
{
	if (!wg_is_scalar(n))
		return NULL;
	return wg_arena_strndup(arena, n->u.str, n->len);
}

long wg_map_findn(const struct wg_node *m, const char *key, size_t len)
{
	if (!wg_is_map(m))
		return -1;
	for (size_t i = 0; i < m->len; i++) {
		const struct wg_node *k = m->u.items[2 * i];

		if (k->kind == WG_NODE_SCALAR && k->len == len
		    && memcmp(k->u.str, key, len) == 0)
			return (long)i;
	}
	return -1;
}

long wg_map_find(const struct wg_node *m, const char *key)
{
	return wg_map_findn(m, key, strlen(key));
}

struct wg_node *wg_map_get(const struct wg_node *m, const char *key)
{
	long i = wg_map_find(m, key);

	return i < 0 ? NULL : m->u.items[2 * i + 1];
}

struct wg_node *wg_path_get(const struct wg_node *root, const char *path)
{
	const struct wg_node *n = root;
	const char *p = path;

	while (n && *p) {
		const char *seg = p, *end;
		size_t len;

		if (*p == '[') {
			seg = p + 1;
			end = strchr(seg, ']');
			if (!end)
				return NULL;
			len = (size_t)(end - seg);
			p = end + 1;
			if (*p == '.')
				p++;
			if (len && strspn(seg, "0123456789") == len) {
				unsigned long idx = strtoul(seg, NULL, 10);

				if (!wg_is_seq(n) || idx >= n->len)
					return NULL;
				n = n->u.items[idx];
				continue;
			}
		} else {
			len = strcspn(seg, ".[");
			p = seg + len;
			if (*p == '.')
				p++;
		}
		{
			long i = wg_map_findn(n, seg, len);

			n = i < 0 ? NULL : n->u.items[2 * i + 1];
		}
	}
	return (struct wg_node *)n;
}

static size_t capacity(const struct wg_node *n)
{
	size_t s = wg_node_slots(n), c;

	if (!(n->flags & WG_NODE_GROWN))
		return s;
	for (c = 4; c < s; c *= 2)
		;
	return c;
}

/* Makes room for extra more child slots. */
static void reserve(struct wg_arena *arena, struct wg_node *n, size_t extra)
{
	size_t s = wg_node_slots(n), c;
	struct wg_node **items;

	if (s + extra <= capacity(n))
		return;
	for (c = 4; c < s + extra; c *= 2)
		;
	items = wg_arena_alloc(arena, c * sizeof(*items));
	if (s)
		memcpy(items, n->u.items, s * sizeof(*items));
	n->u.items = items;
	n->flags |= WG_NODE_GROWN;
}

struct wg_node *wg_map_insert(struct wg_arena *arena, struct wg_node *m,
			      size_t pos, const char *key,
			      struct wg_node *value)
{
	struct wg_node *k = wg_node_new_str(arena, key);

	assert(wg_is_map(m) && pos <= m->len);
	wg_node_journal_note(m, pos == m->len);
	reserve(arena, m, 2);
	memmove(&m->u.items[2 * pos + 2], &m->u.items[2 * pos],
		(2 * (size_t)m->len - 2 * pos) * sizeof(*m->u.items));
	m->u.items[2 * pos] = k;
	m->u.items[2 * pos + 1] = value;
	m->len++;
	return value;
}

struct wg_node *wg_map_set(struct wg_arena *arena, struct wg_node *m,
			   const char *key, struct wg_node *value)
{
	long i = wg_map_find(m, key);

	if (i >= 0) {
		wg_node_journal_note(m, false);
		m->u.items[2 * i + 1] = value;
		return value;
	}
	return wg_map_insert(arena, m, m->len, key, value);
}

struct wg_node *wg_map_replace_at(struct wg_node *m, size_t i,
				  struct wg_node *value)
{
	struct wg_node *old = m->u.items[2 * i + 1];

	assert(wg_is_map(m) && i < m->len);
	wg_node_journal_note(m, false);
	m->u.items[2 * i + 1] = value;
	return old;
}

struct wg_node *wg_map_delete_at(struct wg_node *m, size_t i)
{
	struct wg_node *v = m->u.items[2 * i + 1];

	assert(i < m->len);
	wg_node_journal_note(m, false);
	memmove(&m->u.items[2 * i], &m->u.items[2 * i + 2],
		(2 * (size_t)m->len - 2 * i - 2) * sizeof(*m->u.items));
	m->len--;
	return v;
}

struct wg_node *wg_map_delete(struct wg_node *m, const char *key)
{
	long i = wg_map_find(m, key);

	return i < 0 ? NULL : wg_map_delete_at(m, (size_t)i);
}

static struct wg_node *ensure(struct wg_arena *arena, struct wg_node *m,
			      const char *key, int kind)
{
	long i = wg_map_find(m, key);
	struct wg_node *v;

	if (i >= 0) {
		v = m->u.items[2 * i + 1];
		if (v->kind == kind)
			return v;
		if (!wg_node_is_null(v))
			return NULL;
		v = kind == WG_NODE_MAP ? wg_node_new_map(arena)
					: wg_node_new_seq(arena);
		wg_node_journal_note(m, false);
		m->u.items[2 * i + 1] = v;
		return v;
	}
	v = kind == WG_NODE_MAP ? wg_node_new_map(arena)
				: wg_node_new_seq(arena);
	return wg_map_insert(arena, m, m->len, key, v);
}

struct wg_node *wg_map_ensure_map(struct wg_arena *arena, struct wg_node *m,
				  const char *key)
{
	return ensure(arena, m, key, WG_NODE_MAP);
}

struct wg_node *wg_map_ensure_seq(struct wg_arena *arena, struct wg_node *m,
				  const char *key)
{
	return ensure(arena, m, key, WG_NODE_SEQ);
}

void wg_seq_insert(struct wg_arena *arena, struct wg_node *s, size_t pos,
		   struct wg_node *item)
{
	assert(wg_is_seq(s) && pos <= s->len);
	wg_node_journal_note(s, pos == s->len);
	reserve(arena, s, 1);
	memmove(&s->u.items[pos + 1], &s->u.items[pos],
		((size_t)s->len - pos) * sizeof(*s->u.items));
	s->u.items[pos] = item;
	s->len++;
}

void wg_seq_append(struct wg_arena *arena, struct wg_node *s,
		   struct wg_node *item)
{
	wg_seq_insert(arena, s, s->len, item);
}

struct wg_node *wg_seq_delete_at(struct wg_node *s, size_t i)
{
	struct wg_node *v = s->u.items[i];

	assert(i < s->len);
	wg_node_journal_note(s, false);
	memmove(&s->u.items[i], &s->u.items[i + 1],
		((size_t)s->len - i - 1) * sizeof(*s->u.items));
	s->len--;
	return v;
}

bool wg_node_equal(const struct wg_node *a, const struct wg_node *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->len != b->len)
		return false;
	switch (a->kind) {
	case WG_NODE_SCALAR:
		return memcmp(a->u.str, b->u.str, a->len) == 0;
	case WG_NODE_SEQ:
		for (size_t i = 0; i < a->len; i++)
			if (!wg_node_equal(a->u.items[i], b->u.items[i]))
				return false;
		return true;
	default:
		for (size_t i = 0; i < a->len; i++) {
			const struct wg_node *k = a->u.items[2 * i];
			long j = wg_map_findn(b, k->u.str, k->len);

			if (j < 0 || !wg_node_equal(a->u.items[2 * i + 1],
						    b->u.items[2 * j + 1]))
				return false;
		}
		return true;
	}
}

void wg_path_append_key(struct wg_buf *path, const char *key, size_t len)
{
	bool plain = len > 0 && !memchr(key, '.', len) && !memchr(key, '[', len)
		     && !memchr(key, ']', len);

	if (path->len)
		wg_buf_addch(path, '.');
	if (plain) {
		wg_buf_add(path, key, len);
	} else {
		wg_buf_addch(path, '[');
		wg_buf_add(path, key, len);
		wg_buf_addch(path, ']');
	}
}

static int walk(struct wg_node *n, struct wg_node *key, struct wg_buf *path,
		wg_walk_fn fn, void *payload)
{
	size_t mark = path->len;
	int rc = fn(n, key, path->buf, payload);

	if (rc)
		return rc;
	for (size_t i = 0; n->kind != WG_NODE_SCALAR && i < n->len; i++) {
		if (n->kind == WG_NODE_SEQ) {
			wg_buf_addf(path, "[%zu]", i);
			rc = walk(n->u.items[i], NULL, path, fn, payload);
		} else {
			struct wg_node *k = n->u.items[2 * i];

			wg_path_append_key(path, k->u.str, k->len);
			rc = walk(n->u.items[2 * i + 1], k, path, fn, payload);
		}
		path->len = mark;
		path->buf[mark] = '\0';
		if (rc)
			return rc;
	}
	return 0;
}

int wg_node_walk(struct wg_node *root, wg_walk_fn fn, void *payload)
{
	struct wg_buf path = WG_BUF_INIT;
	int rc;

	wg_buf_grow(&path, 64);
	rc = walk(root, NULL, &path, fn, payload);
	wg_buf_release(&path);
	return rc;
}
