#ifndef WINGEN_QUANTITY_H
#define WINGEN_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/yaml/node.h"

/*
 * Kubernetes resource quantities (k8s.io/apimachinery pkg/api/resource,
 * quantity.go), compared by value as the API server compares them
 * (Quantity.Cmp, which apiequality.Semantic.DeepEqual uses): "0.1" equals
 * "100m", "134217728" equals "128Mi", "1e3" equals "1k".
 *
 * The grammar (ParseQuantity):
 *
 *   quantity  ::= sign? number suffix
 *   number    ::= digits | digits "." digits? | "." digits
 *   suffix    ::= "" | binarySI | decimalSI | ("e" | "E") sign? digits
 *   binarySI  ::= Ki | Mi | Gi | Ti | Pi | Ei        (powers of 1024)
 *   decimalSI ::= n | u | m | k | M | G | T | P | E  (powers of 1000)
 *
 * ParseQuantity keeps nine decimal places at most and rounds the rest up
 * (away from zero): "0.1n" is "1n".  So does this.
 *
 * A value is kept exactly, as decimal digits times a power of ten; the
 * text is limited to WG_QUANTITY_MAX_TEXT bytes and the exponent to
 * +-WG_QUANTITY_MAX_EXP (far beyond any real request; longer or larger
 * text is refused as not a quantity rather than compared wrongly).
 */

#define WG_QUANTITY_MAX_TEXT 128
#define WG_QUANTITY_MAX_EXP 4096
/* digits of the text, plus 1024^6 (19 digits) and a carry */
#define WG_QUANTITY_DIGITS (WG_QUANTITY_MAX_TEXT + 32)

/* value = (neg ? -1 : 1) * digits * 10^exp; digits has no leading or
 * trailing zero ("" for zero, which is never negative). */
struct wg_quantity {
	bool neg;
	uint16_t ndigits;
	int32_t exp;
	char digits[WG_QUANTITY_DIGITS];
};

/* Parses text[0..len) into *out.  Returns 0, or -1 when it is not a
 * quantity (out is then zero). */
int wg_quantity_parse(const char *text, size_t len, struct wg_quantity *out);

/* -1, 0 or 1 as a is less than, equal to or greater than b. */
int wg_quantity_cmp(const struct wg_quantity *a, const struct wg_quantity *b);

/*
 * Whether two nodes hold equal quantities: both scalars (plain numbers
 * and strings alike, as kubectl sends either as the quantity's text) that
 * parse and compare equal.  Nodes that are not quantities are equal only
 * when wg_node_equal() says so.
 */
bool wg_quantity_node_equal(const struct wg_node *a, const struct wg_node *b);

/*
 * Whether two ResourceLists (mappings of resource name to quantity, as
 * spec.overhead and overhead.podFixed) are equal as the API server sees
 * them: the same names, each with an equal quantity; key order does not
 * count.  NULL and an empty mapping are equal (apimachinery's semantic
 * equality treats a nil and an empty map alike).  Anything but a mapping
 * is compared with wg_node_equal().
 */
bool wg_resource_list_equal(const struct wg_node *a, const struct wg_node *b);

#endif
