/*
 * Kubernetes quantities by value (quantity.h): the text is read into
 * exact decimal digits and a power of ten, so no float ever rounds "0.1"
 * against "100m".  The grammar and the rounding to nine decimal places
 * are those of ParseQuantity (k8s.io/apimachinery pkg/api/resource,
 * quantity.go).
 */
#include "wingen/k8s/quantity.h"

#include <string.h>

/* Drops leading zeros (none may stay: "" is zero) and moves trailing ones
 * into the exponent. */
static void normalize(struct wg_quantity *q)
{
	size_t lead = 0;

	while (lead < q->ndigits && q->digits[lead] == '0')
		lead++;
	if (lead) {
		memmove(q->digits, q->digits + lead, q->ndigits - lead);
		q->ndigits = (uint16_t)(q->ndigits - lead);
	}
	while (q->ndigits && q->digits[q->ndigits - 1] == '0') {
		q->ndigits--;
		q->exp++;
	}
	if (!q->ndigits) {
		q->exp = 0;
		q->neg = false;
	}
}

/* digits *= m (m small), exactly. */
static void multiply(struct wg_quantity *q, unsigned m)
{
	char out[WG_QUANTITY_DIGITS];
	size_t n = 0;
	unsigned carry = 0;

	/* least significant digit first into out, then reversed */
	for (size_t i = q->ndigits; i-- > 0;) {
		unsigned v = (unsigned)(q->digits[i] - '0') * m + carry;

		out[n++] = (char)('0' + v % 10);
		carry = v / 10;
	}
	while (carry) {
		out[n++] = (char)('0' + carry % 10);
		carry /= 10;
	}
	for (size_t i = 0; i < n; i++)
		q->digits[i] = out[n - 1 - i];
	q->ndigits = (uint16_t)n;
}

/* Adds one unit in the last place kept (the round up of ParseQuantity). */
static void increment(struct wg_quantity *q)
{
	size_t i = q->ndigits;

	while (i > 0 && q->digits[i - 1] == '9')
		q->digits[--i] = '0';
	if (i > 0) {
		q->digits[i - 1]++;
		return;
	}
	memmove(q->digits + 1, q->digits, q->ndigits);
	q->digits[0] = '1';
	q->ndigits++;
}

/* Keeps at most nine decimal places, rounding away from zero. */
static void round_nano(struct wg_quantity *q)
{
	size_t drop;
	bool lost = false;

	if (!q->ndigits || q->exp >= -9)
		return;
	drop = (size_t)(-9 - q->exp);
	if (drop >= q->ndigits) {
		q->digits[0] = '1';
		q->ndigits = 1;
		q->exp = -9;
		return;
	}
	for (size_t i = q->ndigits - drop; i < q->ndigits; i++)
		lost |= q->digits[i] != '0';
	q->ndigits = (uint16_t)(q->ndigits - drop);
	q->exp = -9;
	if (lost)
		increment(q);
	normalize(q);
}

/* The suffix at s[0..len): its power of ten in *exp10, of 1024 in *exp2. */
static bool suffix(const char *s, size_t len, long *exp10, unsigned *exp2)
{
	static const struct {
		const char *text;
		int exp10;
		unsigned exp2;
	} table[] = {
		{ "", 0, 0 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 },
		{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
		{ "P", 15, 0 }, { "E", 18, 0 },
		{ "Ki", 0, 1 }, { "Mi", 0, 2 }, { "Gi", 0, 3 }, { "Ti", 0, 4 },
		{ "Pi", 0, 5 }, { "Ei", 0, 6 },
	};
	size_t i = 1;
	long e = 0;
	bool neg = false;

	for (size_t k = 0; k < sizeof(table) / sizeof(*table); k++)
		if (strlen(table[k].text) == len
		    && memcmp(table[k].text, s, len) == 0) {
			*exp10 = table[k].exp10;
			*exp2 = table[k].exp2;
			return true;
		}
	/* a decimal exponent: e or E, a sign, digits ("E" alone is exa) */
	if (len < 2 || (s[0] != 'e' && s[0] != 'E'))
		return false;
	if (s[1] == '+' || s[1] == '-') {
		neg = s[1] == '-';
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		e = e * 10 + (s[i] - '0');
		if (e > WG_QUANTITY_MAX_EXP)
			return false;
	}
	*exp10 = neg ? -e : e;
	*exp2 = 0;
	return true;
}

int wg_quantity_parse(const char *text, size_t len, struct wg_quantity *out)
{
	size_t i = 0, ndig = 0;
	long exp10 = 0, frac = 0;
	unsigned exp2 = 0;
	bool dot = false;

	memset(out, 0, sizeof(*out));
	if (!text || !len || len > WG_QUANTITY_MAX_TEXT)
		return -1;
	if (text[0] == '+' || text[0] == '-') {
		out->neg = text[0] == '-';
		i++;
	}
	for (; i < len; i++) {
		char c = text[i];

		if (c >= '0' && c <= '9') {
			out->digits[out->ndigits++] = c;
			ndig++;
			if (dot)
				frac++;
		} else if (c == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (!ndig || !suffix(text + i, len - i, &exp10, &exp2)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	out->exp = (int32_t)(exp10 - frac);
	normalize(out);
	for (unsigned k = 0; k < exp2 && out->ndigits; k++)
		multiply(out, 1024);
	normalize(out);
	round_nano(out);
	return 0;
}

int wg_quantity_cmp(const struct wg_quantity *a, const struct wg_quantity *b)
{
	int sign, mag;
	long ea, eb;

	if (!a->ndigits || !b->ndigits) {
		if (!a->ndigits && !b->ndigits)
			return 0;
		if (!a->ndigits)
			return b->neg ? 1 : -1;
		return a->neg ? -1 : 1;
	}
	if (a->neg != b->neg)
		return a->neg ? -1 : 1;
	sign = a->neg ? -1 : 1;
	/* the power of ten of each leading digit */
	ea = (long)a->exp + a->ndigits;
	eb = (long)b->exp + b->ndigits;
	if (ea != eb)
		return ea > eb ? sign : -sign;
	mag = 0;
	for (size_t i = 0; !mag && i < a->ndigits && i < b->ndigits; i++)
		if (a->digits[i] != b->digits[i])
			mag = a->digits[i] > b->digits[i] ? 1 : -1;
	if (!mag && a->ndigits != b->ndigits)
		mag = a->ndigits > b->ndigits ? 1 : -1;
	return mag * sign;
}

bool wg_quantity_node_equal(const struct wg_node *a, const struct wg_node *b)
{
	struct wg_quantity qa, qb;

	if (wg_is_scalar(a) && wg_is_scalar(b)
	    && wg_quantity_parse(a->u.str, a->len, &qa) == 0
	    && wg_quantity_parse(b->u.str, b->len, &qb) == 0)
		return wg_quantity_cmp(&qa, &qb) == 0;
	return wg_node_equal(a, b);
}

static bool empty(const struct wg_node *n)
{
	return wg_node_is_null(n) || (wg_is_map(n) && n->len == 0);
}

bool wg_resource_list_equal(const struct wg_node *a, const struct wg_node *b)
{
	if (empty(a) && empty(b))
		return true;
	if (!wg_is_map(a) || !wg_is_map(b))
		return wg_node_equal(a, b);
	if (a->len != b->len)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const struct wg_node *k = wg_map_key(a, i);
		long j = wg_map_findn(b, k->u.str, k->len);

		if (j < 0 || !wg_quantity_node_equal(wg_map_value(a, i),
						     wg_map_value(b,
								  (size_t)j)))
			return false;
	}
	return true;
}
