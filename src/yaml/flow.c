/*
 * One node as one line of flow YAML, for messages and the change log:
 * the reporting of diagnostics uses it, and it uses no writer.
 */
#include "wingen/yaml/flow.h"

#include <string.h>

#include "wingen/yaml/scalar.h"

static void flow_scalar(struct wg_buf *out, const struct wg_node *n)
{
	if (n->style == WG_STYLE_PLAIN || !wg_scalar_needs_quotes(n->u.str, n->len))
		if (n->len && !memchr(n->u.str, '\n', n->len)
		    && !memchr(n->u.str, ',', n->len)) {
			wg_buf_add(out, n->u.str, n->len);
			return;
		}
	wg_json_quote(out, n->u.str, n->len);
}

void wg_node_to_flow(struct wg_buf *out, const struct wg_node *n)
{
	switch (n->kind) {
	case WG_NODE_SCALAR:
		flow_scalar(out, n);
		return;
	case WG_NODE_SEQ:
		wg_buf_addch(out, '[');
		for (size_t i = 0; i < n->len; i++) {
			if (i)
				wg_buf_addstr(out, ", ");
			wg_node_to_flow(out, n->u.items[i]);
		}
		wg_buf_addch(out, ']');
		return;
	default:
		wg_buf_addch(out, '{');
		for (size_t i = 0; i < n->len; i++) {
			if (i)
				wg_buf_addstr(out, ", ");
			wg_node_to_flow(out, wg_map_key(n, i));
			wg_buf_addstr(out, ": ");
			wg_node_to_flow(out, wg_map_value(n, i));
		}
		wg_buf_addch(out, '}');
	}
}
