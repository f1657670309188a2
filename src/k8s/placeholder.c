/*
 * Placeholders a template tool fills in (${NAME}): the checks of
 * k8svalid.c, winopts.c and podshape.c pass them by.
 */
#include "wingen/k8s/placeholder.h"

#include <string.h>

bool wg_k8s_placeholder(const struct wg_node *v)
{
	const char *s;
	size_t len;

	if (!wg_is_scalar(v))
		return false;
	s = v->u.str;
	len = v->len;
	for (size_t i = 0; i + 3 < len; i++) {
		size_t k = i + 2;

		if (s[i] != '$' || s[i + 1] != '{'
		    || !(s[k] == '_' || (s[k] >= 'A' && s[k] <= 'Z')
			 || (s[k] >= 'a' && s[k] <= 'z')))
			continue;
		while (k < len && (s[k] == '_' || (s[k] >= 'A' && s[k] <= 'Z')
				   || (s[k] >= 'a' && s[k] <= 'z')
				   || (s[k] >= '0' && s[k] <= '9')))
			k++;
		if (k < len && (s[k] == '}' || strchr(":-=?+/%#^,", s[k]))
		    && memchr(s + k, '}', len - k))
			return true;
	}
	return false;
}
