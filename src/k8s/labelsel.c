#include "wingen/k8s/labelsel.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"

/* ---- Kubernetes name syntax (apimachinery validation) ------------------ */

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? of exactly len bytes. */
static bool dns_label(const char *s, size_t len)
{
	if (len == 0 || len > 63)
		return false;
	if (!is_lower_alnum(s[0]) || !is_lower_alnum(s[len - 1]))
		return false;
	for (size_t i = 1; i + 1 < len; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool dns_subdomain(const char *s, size_t len)
{
	size_t start = 0;

	if (len == 0 || len > 253)
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		/* Each dot-separated part is a label; the 63 cap does not
		 * apply to a part on its own in the Kubernetes regex, but the
		 * total does, so check the characters only. */
		if (i == start || !is_lower_alnum(s[start])
		    || !is_lower_alnum(s[i - 1]))
			return false;
		for (size_t j = start; j < i; j++)
			if (!is_lower_alnum(s[j]) && s[j] != '-')
				return false;
		start = i + 1;
	}
	return true;
}

/* A qualified name's name part, or a label value when empty is allowed:
 * ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63. */
static bool name_part(const char *s, size_t len, bool allow_empty)
{
	if (len == 0)
		return allow_empty;
	if (len > 63 || !is_alnum(s[0]) || !is_alnum(s[len - 1]))
		return false;
	for (size_t i = 1; i + 1 < len; i++)
		if (!is_alnum(s[i]) && !strchr("-_.", s[i]))
			return false;
	return true;
}

static bool label_key(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	if (!slash)
		return name_part(s, len, false);
	if (!dns_subdomain(s, (size_t)(slash - s)))
		return false;
	return name_part(slash + 1, len - (size_t)(slash - s) - 1, false);
}

bool wg_is_dns_label(const char *s)
{
	return s && dns_label(s, strlen(s));
}

bool wg_is_dns_subdomain(const char *s)
{
	return s && dns_subdomain(s, strlen(s));
}

bool wg_is_label_key(const char *s)
{
	return s && label_key(s, strlen(s));
}

bool wg_is_label_value(const char *s)
{
	return s && name_part(s, strlen(s), true);
}

/* ---- selector parsing --------------------------------------------------- */

/*
 * The grammar of apimachinery's labels.Parse, restricted to the operators
 * label selectors allow in kubectl -l:
 *   selector := requirement ("," requirement)*
 *   requirement := ["!"] KEY | KEY ("=" | "==" | "!=") VALUE
 *                | KEY ("in" | "notin") "(" VALUE ("," VALUE)* ")"
 */

struct parser {
	struct wg_arena *arena;
	const char *text;
	size_t pos;
	const char *error;
	size_t error_at;
};

static void skip_space(struct parser *p)
{
	while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
		p->pos++;
}

static int fail(struct parser *p, size_t at, const char *msg)
{
	if (!p->error) {
		p->error = msg;
		p->error_at = at;
	}
	return -1;
}

/* A key or value token: everything up to a separator. */
static size_t token(struct parser *p)
{
	size_t start = p->pos;

	while (p->text[p->pos] && !strchr(" \t,=!()<>", p->text[p->pos]))
		p->pos++;
	return p->pos - start;
}

static bool word_is(struct parser *p, const char *w)
{
	size_t n = strlen(w);
	char next;

	if (strncmp(p->text + p->pos, w, n) != 0)
		return false;
	next = p->text[p->pos + n];
	return next == '\0' || next == ' ' || next == '\t' || next == '(';
}

static int parse_key(struct parser *p, const char **key)
{
	size_t start, len;

	skip_space(p);
	start = p->pos;
	len = token(p);
	if (len == 0)
		return fail(p, start, "expected a label key");
	if (!label_key(p->text + start, len)) {
		p->error = wg_arena_printf(p->arena, "'%.*s' is not a valid "
					   "label key", (int)len,
					   p->text + start);
		p->error_at = start;
		return -1;
	}
	*key = wg_arena_strndup(p->arena, p->text + start, len);
	return 0;
}

static int parse_value(struct parser *p, const char **value)
{
	size_t start, len;

	skip_space(p);
	start = p->pos;
	len = token(p);
	if (!name_part(p->text + start, len, true)) {
		p->error = wg_arena_printf(p->arena, "'%.*s' is not a valid "
					   "label value", (int)len,
					   p->text + start);
		p->error_at = start;
		return -1;
	}
	*value = wg_arena_strndup(p->arena, p->text + start, len);
	return 0;
}

static int parse_set(struct parser *p, struct wg_label_req *r)
{
	const char *vals[64];
	size_t n = 0;

	skip_space(p);
	if (p->text[p->pos] != '(')
		return fail(p, p->pos, "expected '(' after 'in' or 'notin'");
	p->pos++;
	for (;;) {
		skip_space(p);
		if (p->text[p->pos] == ')' && n == 0)
			return fail(p, p->pos, "a set of values may not be "
				    "empty");
		if (n == sizeof(vals) / sizeof(*vals))
			return fail(p, p->pos, "more than 64 values in a set");
		if (parse_value(p, &vals[n]))
			return -1;
		n++;
		skip_space(p);
		if (p->text[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->text[p->pos] == ')') {
			p->pos++;
			break;
		}
		return fail(p, p->pos, "expected ',' or ')' in a set of "
			    "values");
	}
	r->values = wg_arena_alloc(p->arena, n * sizeof(*r->values));
	memcpy(r->values, vals, n * sizeof(*vals));
	r->nvalues = n;
	return 0;
}

static int parse_req(struct parser *p, struct wg_label_req *r)
{
	memset(r, 0, sizeof(*r));
	skip_space(p);
	if (p->text[p->pos] == '!') {
		p->pos++;
		r->op = WG_LABEL_NOT_EXISTS;
		return parse_key(p, &r->key);
	}
	if (parse_key(p, &r->key))
		return -1;
	skip_space(p);
	switch (p->text[p->pos]) {
	case '\0':
	case ',':
		r->op = WG_LABEL_EXISTS;
		return 0;
	case '=':
		p->pos += p->text[p->pos + 1] == '=' ? 2 : 1;
		r->op = WG_LABEL_EQ;
		break;
	case '!':
		if (p->text[p->pos + 1] != '=')
			return fail(p, p->pos, "expected '!='");
		p->pos += 2;
		r->op = WG_LABEL_NEQ;
		break;
	default:
		if (word_is(p, "in")) {
			p->pos += 2;
			r->op = WG_LABEL_IN;
			return parse_set(p, r);
		}
		if (word_is(p, "notin")) {
			p->pos += 5;
			r->op = WG_LABEL_NOTIN;
			return parse_set(p, r);
		}
		return fail(p, p->pos, "expected an operator: =, ==, !=, in "
			    "or notin");
	}
	r->values = wg_arena_alloc(p->arena, sizeof(*r->values));
	r->nvalues = 1;
	return parse_value(p, &r->values[0]);
}

int wg_label_selector_parse(struct wg_arena *arena, const char *text,
			    struct wg_label_selector *sel, const char **error,
			    size_t *offset)
{
	struct parser p = { arena, text, 0, NULL, 0 };
	struct wg_label_req *reqs = NULL;
	size_t n = 0, cap = 0;

	memset(sel, 0, sizeof(*sel));
	skip_space(&p);
	while (text[p.pos]) {
		WG_GROW(reqs, cap, n + 1);
		if (parse_req(&p, &reqs[n]))
			break;
		n++;
		skip_space(&p);
		if (text[p.pos] == ',') {
			p.pos++;
			skip_space(&p);
			if (!text[p.pos])
				fail(&p, p.pos, "expected a requirement "
				     "after ','");
		} else if (text[p.pos]) {
			fail(&p, p.pos, "expected ',' between requirements");
		}
		if (p.error)
			break;
	}
	if (p.error) {
		free(reqs);
		*error = p.error;
		*offset = p.error_at;
		return -1;
	}
	if (n) {
		sel->reqs = wg_arena_alloc(arena, n * sizeof(*reqs));
		memcpy(sel->reqs, reqs, n * sizeof(*reqs));
	}
	sel->len = n;
	free(reqs);
	return 0;
}

/* ---- selectors written as objects --------------------------------------- */

static const struct {
	const char *name;
	enum wg_label_op op;
} expr_ops[] = {
	{ "In", WG_LABEL_IN },
	{ "NotIn", WG_LABEL_NOTIN },
	{ "Exists", WG_LABEL_EXISTS },
	{ "DoesNotExist", WG_LABEL_NOT_EXISTS },
};

/* Appends key=value requirements for every pair of a map of labels. */
static int add_map(struct wg_arena *arena, const struct wg_node *m,
		   struct wg_label_req *reqs, size_t *n)
{
	for (size_t i = 0; i < m->len; i++) {
		const struct wg_node *v = wg_map_value(m, i);
		struct wg_label_req *r = &reqs[(*n)++];

		if (!wg_is_scalar(v))
			return -1;
		r->key = wg_scalar_dup(arena, wg_map_key(m, i));
		r->op = WG_LABEL_EQ;
		r->values = wg_arena_alloc(arena, sizeof(*r->values));
		r->values[0] = wg_scalar_dup(arena, v);
		r->nvalues = 1;
	}
	return 0;
}

static int add_expr(struct wg_arena *arena, const struct wg_node *e,
		    struct wg_label_req *r)
{
	const struct wg_node *key = wg_map_get(e, "key");
	const struct wg_node *op = wg_map_get(e, "operator");
	const struct wg_node *values = wg_map_get(e, "values");
	size_t i, nv = wg_is_seq(values) ? values->len : 0;

	if (!wg_is_map(e) || !wg_is_scalar(key) || !wg_is_scalar(op)
	    || (values && !wg_is_seq(values) && !wg_node_is_null(values)))
		return -1;
	for (i = 0; i < sizeof(expr_ops) / sizeof(*expr_ops); i++)
		if (wg_scalar_is(op, expr_ops[i].name))
			break;
	if (i == sizeof(expr_ops) / sizeof(*expr_ops))
		return -1;
	r->key = wg_scalar_dup(arena, key);
	r->op = expr_ops[i].op;
	/* In and NotIn need values, Exists and DoesNotExist take none
	 * (the API server's validation) */
	if ((r->op == WG_LABEL_IN || r->op == WG_LABEL_NOTIN) != (nv > 0))
		return -1;
	r->values = wg_arena_alloc(arena, (nv ? nv : 1) * sizeof(*r->values));
	for (size_t j = 0; j < nv; j++) {
		if (!wg_is_scalar(wg_seq_item(values, j)))
			return -1;
		r->values[j] = wg_scalar_dup(arena, wg_seq_item(values, j));
	}
	r->nvalues = nv;
	return 0;
}

int wg_label_selector_from_node(struct wg_arena *arena,
				const struct wg_node *node, bool set_based,
				struct wg_label_selector *sel)
{
	const struct wg_node *labels = set_based
		? wg_map_get(node, "matchLabels") : node;
	const struct wg_node *exprs = set_based
		? wg_map_get(node, "matchExpressions") : NULL;
	size_t n = 0, cap;

	sel->reqs = NULL;
	sel->len = 0;
	if (wg_node_is_null(node))
		return 0;
	if (!wg_is_map(node))
		return -1;
	if (wg_node_is_null(labels))
		labels = NULL;
	if (wg_node_is_null(exprs))
		exprs = NULL;
	if ((labels && !wg_is_map(labels)) || (exprs && !wg_is_seq(exprs)))
		return -1;
	cap = (labels ? labels->len : 0) + (exprs ? exprs->len : 0);
	sel->reqs = wg_arena_zalloc(arena, (cap ? cap : 1)
					   * sizeof(*sel->reqs));
	if (labels && add_map(arena, labels, sel->reqs, &n))
		goto bad;
	for (size_t i = 0; exprs && i < exprs->len; i++)
		if (add_expr(arena, wg_seq_item(exprs, i), &sel->reqs[n++]))
			goto bad;
	sel->len = n;
	return 0;
bad:
	sel->reqs = NULL;
	sel->len = 0;
	return -1;
}

/* ---- matching ----------------------------------------------------------- */

static bool in_set(const struct wg_label_req *r, const struct wg_node *v)
{
	for (size_t i = 0; i < r->nvalues; i++)
		if (wg_scalar_is(v, r->values[i]))
			return true;
	return false;
}

bool wg_label_selector_matches(const struct wg_label_selector *sel,
			       const struct wg_node *labels)
{
	if (!sel)
		return true;
	for (size_t i = 0; i < sel->len; i++) {
		const struct wg_label_req *r = &sel->reqs[i];
		const struct wg_node *v = wg_map_get(labels, r->key);
		bool ok;

		switch (r->op) {
		case WG_LABEL_EQ:
		case WG_LABEL_IN:
			ok = v && in_set(r, v);
			break;
		case WG_LABEL_NEQ:
		case WG_LABEL_NOTIN:
			ok = !v || !in_set(r, v);
			break;
		case WG_LABEL_EXISTS:
			ok = v != NULL;
			break;
		default:
			ok = v == NULL;
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

void wg_label_selector_write(const struct wg_label_selector *sel,
			     struct wg_buf *out)
{
	for (size_t i = 0; sel && i < sel->len; i++) {
		const struct wg_label_req *r = &sel->reqs[i];

		if (i)
			wg_buf_addch(out, ',');
		switch (r->op) {
		case WG_LABEL_EQ:
		case WG_LABEL_NEQ:
			wg_buf_addf(out, "%s%s%s", r->key,
				    r->op == WG_LABEL_EQ ? "=" : "!=",
				    r->values[0]);
			break;
		case WG_LABEL_IN:
		case WG_LABEL_NOTIN:
			wg_buf_addf(out, "%s %s (", r->key,
				    r->op == WG_LABEL_IN ? "in" : "notin");
			for (size_t j = 0; j < r->nvalues; j++)
				wg_buf_addf(out, "%s%s", j ? "," : "",
					    r->values[j]);
			wg_buf_addch(out, ')');
			break;
		case WG_LABEL_EXISTS:
			wg_buf_addstr(out, r->key);
			break;
		default:
			wg_buf_addf(out, "!%s", r->key);
			break;
		}
	}
}
