#ifndef WINGEN_K8S_PLACEHOLDER_H
#define WINGEN_K8S_PLACEHOLDER_H

#include <stdbool.h>

#include "wingen/yaml/node.h"

/*
 * Whether a scalar holds a placeholder a template tool fills in before
 * the object reaches the API server: envsubst's and clusterctl's ${NAME}
 * and ${NAME<op>...} (NAME a shell variable name; op one of :-=?+/%#^,),
 * as in gmsaCredentialSpecName: ${CREDSPECRESOURCE}.  A field wingen does
 * not change that holds one cannot be judged before it is substituted:
 * each check of k8svalid.h and podcheck.h passes it (a warning where the
 * value matters), never refuses it.
 */
bool wg_k8s_placeholder(const struct wg_node *v);

#endif
