#ifndef WINGEN_YAML_FLOW_H
#define WINGEN_YAML_FLOW_H

#include "wingen/base/buf.h"
#include "wingen/yaml/node.h"

/* Renders one node as single-line flow YAML (for messages and the log):
 * appended to out. */
void wg_node_to_flow(struct wg_buf *out, const struct wg_node *node);

#endif
