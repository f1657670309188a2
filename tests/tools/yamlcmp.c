/*
 * yamlcmp: are two YAML streams semantically equal?
 *
 *   yamlcmp [--expand] EXPECTED ACTUAL
 *   yamlcmp --pairs [A B]...
 *
 * Built on libyaml's document API, not on wingen's reader, so it is an
 * independent oracle for round-trip tests.  Scalars are equal when their
 * text and their YAML 1.1 type (plain scalars resolved, quoted ones
 * strings) are; mappings must have the same pairs in the same order ("<<"
 * merges resolved); sequences the same items.  --expand applies wingen's
 * stream rules to EXPECTED first: empty and null documents are dropped and
 * List objects replaced by their items.
 * Exit 0 equal, 1 different (the first difference on stderr), 2 error.
 * --pairs compares each A with its B (no --expand) and prints the A of
 * every equal pair; exit 0, or 2 when a file cannot be read.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "wingen/yaml/scalar.h"

struct stream {
	yaml_document_t *docs;
	size_t len;
};

struct item {	/* one document root, or a List item */
	yaml_document_t *doc;
	yaml_node_t *node;
};

static int load(const char *path, struct stream *s)
{
	FILE *f = fopen(path, "rb");
	yaml_parser_t p;

	if (!f) {
		perror(path);
		return -1;
	}
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	for (;;) {
		yaml_document_t d;

		if (!yaml_parser_load(&p, &d)) {
			fprintf(stderr, "%s: %s at line %zu\n", path,
				p.problem ? p.problem : "parse error",
				p.problem_mark.line + 1);
			yaml_parser_delete(&p);
			fclose(f);
			return -1;
		}
		if (!yaml_document_get_root_node(&d)) {
			yaml_document_delete(&d);
			break;
		}
		s->docs = realloc(s->docs, (s->len + 1) * sizeof(*s->docs));
		s->docs[s->len++] = d;
	}
	yaml_parser_delete(&p);
	fclose(f);
	return 0;
}

static bool scalar_is(const yaml_node_t *n, const char *s)
{
	return n && n->type == YAML_SCALAR_NODE
	       && n->data.scalar.length == strlen(s)
	       && memcmp(n->data.scalar.value, s, strlen(s)) == 0;
}

static int type_of(const yaml_node_t *n)
{
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return WG_TYPE_STR;
	return wg_resolve_yaml11((const char *)n->data.scalar.value,
				 n->data.scalar.length);
}

static bool is_null(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && type_of(n) == WG_TYPE_NULL;
}

static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *m, const char *k)
{
	if (m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++)
		if (scalar_is(yaml_document_get_node(d, p->key), k))
			return yaml_document_get_node(d, p->value);
	return NULL;
}

static void add(struct item **v, size_t *n, yaml_document_t *d, yaml_node_t *x)
{
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].doc = d;
	(*v)[*n].node = x;
	(*n)++;
}

static bool list_only_keys(yaml_document_t *d, yaml_node_t *m)
{
	static const char *const ok[] = { "apiVersion", "kind", "metadata",
					  "items", NULL };

	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		bool found = false;

		for (const char *const *o = ok; *o; o++)
			found = found || scalar_is(k, *o);
		if (!found)
			return false;
	}
	return true;
}

static void items_of(struct stream *s, bool expand, struct item **v, size_t *n)
{
	for (size_t i = 0; i < s->len; i++) {
		yaml_document_t *d = &s->docs[i];
		yaml_node_t *root = yaml_document_get_root_node(d);
		yaml_node_t *kind, *items;

		if (!expand) {
			add(v, n, d, root);
			continue;
		}
		if (is_null(root))
			continue;
		kind = map_get(d, root, "kind");
		items = map_get(d, root, "items");
		if (kind && kind->type == YAML_SCALAR_NODE && items
		    && kind->data.scalar.length >= 4
		    && memcmp(kind->data.scalar.value + kind->data.scalar.length
			      - 4, "List", 4) == 0
		    && (items->type == YAML_SEQUENCE_NODE
			|| (is_null(items) && list_only_keys(d, root)))) {
			if (items->type != YAML_SEQUENCE_NODE)
				continue;
			for (yaml_node_item_t *it = items->data.sequence.items.start;
			     it < items->data.sequence.items.top; it++) {
				yaml_node_t *x = yaml_document_get_node(d, *it);

				if (!is_null(x))
					add(v, n, d, x);
			}
			continue;
		}
		add(v, n, d, root);
	}
}

struct pair {
	yaml_node_t *k, *v;
};

static bool is_merge(yaml_node_t *k)
{
	return scalar_is(k, "<<") && k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static bool has_key(struct pair *ps, size_t n, yaml_node_t *k)
{
	for (size_t i = 0; i < n; i++)
		if (!is_merge(ps[i].k)
		    && ps[i].k->data.scalar.length == k->data.scalar.length
		    && memcmp(ps[i].k->data.scalar.value, k->data.scalar.value,
			      k->data.scalar.length) == 0)
			return true;
	return false;
}

static void merge_in(yaml_document_t *d, yaml_node_t *m, struct pair *raw,
		     size_t nraw, struct pair **out, size_t *n)
{
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);

		if (has_key(raw, nraw, k) || has_key(*out, *n, k))
			continue;
		*out = realloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n].k = k;
		(*out)[(*n)++].v = yaml_document_get_node(d, p->value);
	}
}

/* The pairs of a mapping with "<<" resolved (YAML 1.1 merge rules). */
static struct pair *pairs_of(yaml_document_t *d, yaml_node_t *m, size_t *n)
{
	size_t nraw = 0;
	struct pair *raw = NULL, *out = NULL;

	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		raw = realloc(raw, (nraw + 1) * sizeof(*raw));
		raw[nraw].k = yaml_document_get_node(d, p->key);
		raw[nraw++].v = yaml_document_get_node(d, p->value);
	}
	*n = 0;
	for (size_t i = 0; i < nraw; i++) {
		if (!is_merge(raw[i].k)) {
			out = realloc(out, (*n + 1) * sizeof(*out));
			out[(*n)++] = raw[i];
		} else if (raw[i].v->type == YAML_MAPPING_NODE) {
			merge_in(d, raw[i].v, raw, nraw, &out, n);
		} else if (raw[i].v->type == YAML_SEQUENCE_NODE) {
			for (yaml_node_item_t *it = raw[i].v->data.sequence.items.start;
			     it < raw[i].v->data.sequence.items.top; it++)
				merge_in(d, yaml_document_get_node(d, *it), raw,
					 nraw, &out, n);
		}
	}
	free(raw);
	return out;
}

static char path[4096];

static bool equal(yaml_document_t *da, yaml_node_t *a, yaml_document_t *db,
		  yaml_node_t *b, size_t plen)
{
	if (a->type != b->type) {
		fprintf(stderr, "%s: node kinds differ\n", path);
		return false;
	}
	if (a->type == YAML_SCALAR_NODE) {
		if (a->data.scalar.length != b->data.scalar.length
		    || memcmp(a->data.scalar.value, b->data.scalar.value,
			      a->data.scalar.length) != 0) {
			fprintf(stderr, "%s: '%s' != '%s'\n", path,
				a->data.scalar.value, b->data.scalar.value);
			return false;
		}
		if (strcmp((char *)a->tag, (char *)b->tag) != 0
		    || type_of(a) != type_of(b)) {
			fprintf(stderr, "%s: type of '%s' changed\n", path,
				a->data.scalar.value);
			return false;
		}
		return true;
	}
	if (a->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *x = a->data.sequence.items.start;
		yaml_node_item_t *y = b->data.sequence.items.start;
		size_t i = 0;

		for (; x < a->data.sequence.items.top
		       && y < b->data.sequence.items.top; x++, y++, i++) {
			snprintf(path + plen, sizeof(path) - plen, "[%zu]", i);
			if (!equal(da, yaml_document_get_node(da, *x), db,
				   yaml_document_get_node(db, *y),
				   strlen(path)))
				return false;
		}
		path[plen] = '\0';
		if (x != a->data.sequence.items.top
		    || y != b->data.sequence.items.top) {
			fprintf(stderr, "%s: sequence lengths differ\n", path);
			return false;
		}
		return true;
	}
	{
		size_t na, nb;
		struct pair *pa = pairs_of(da, a, &na), *pb = pairs_of(db, b, &nb);
		bool ok = na == nb;

		if (!ok)
			fprintf(stderr, "%s: %zu keys != %zu keys\n", path, na, nb);
		for (size_t i = 0; ok && i < na; i++) {
			snprintf(path + plen, sizeof(path) - plen, ".%s",
				 pa[i].k->type == YAML_SCALAR_NODE
				 ? (char *)pa[i].k->data.scalar.value : "?");
			ok = equal(da, pa[i].k, db, pb[i].k, strlen(path))
			     && equal(da, pa[i].v, db, pb[i].v, strlen(path));
		}
		if (ok)
			path[plen] = '\0';
		free(pa);
		free(pb);
		return ok;
	}
}

/* 0 equal, 1 different (the first difference on stderr unless quiet), 2
 * error. */
static int compare(const char *pa, const char *pb, bool expand, bool quiet)
{
	struct stream a = { 0 }, b = { 0 };
	struct item *ia = NULL, *ib = NULL;
	size_t na = 0, nb = 0;
	int rc = 0;

	if (load(pa, &a) || load(pb, &b))
		rc = 2;
	if (!rc) {
		items_of(&a, expand, &ia, &na);
		items_of(&b, false, &ib, &nb);
	}
	if (!rc && na != nb) {
		if (!quiet)
			fprintf(stderr, "%zu objects != %zu objects\n", na,
				nb);
		rc = 1;
	}
	for (size_t i = 0; rc == 0 && i < na; i++) {
		snprintf(path, sizeof(path), "object %zu", i);
		if (!equal(ia[i].doc, ia[i].node, ib[i].doc, ib[i].node,
			   strlen(path)))
			rc = 1;
	}
	for (size_t i = 0; i < a.len; i++)
		yaml_document_delete(&a.docs[i]);
	for (size_t i = 0; i < b.len; i++)
		yaml_document_delete(&b.docs[i]);
	free(a.docs);
	free(b.docs);
	free(ia);
	free(ib);
	return rc;
}

int main(int argc, char **argv)
{
	bool expand = argc > 1 && strcmp(argv[1], "--expand") == 0;

	/* --pairs A1 B1 A2 B2 ...: prints each Ai equal to its Bi, so a
	 * suite compares many pairs in one process. */
	if (argc > 1 && strcmp(argv[1], "--pairs") == 0) {
		int rc = 0;

		if (argc % 2) {
			fputs("usage: yamlcmp --pairs [A B]...\n", stderr);
			return 2;
		}
		for (int i = 2; i < argc; i += 2) {
			int r = compare(argv[i], argv[i + 1], false, true);

			if (r == 0)
				puts(argv[i]);
			else if (r == 2)
				rc = 2;
		}
		return rc;
	}
	if (argc != 3 + expand) {
		fputs("usage: yamlcmp [--expand] EXPECTED ACTUAL\n"
		      "       yamlcmp --pairs [A B]...\n", stderr);
		return 2;
	}
	return compare(argv[1 + expand], argv[2 + expand], expand, false);
}
