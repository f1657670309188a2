/*
 * The API server's rules on windowsOptions (podcheck.h), as
 * validateWindowsSecurityContextOptions and validateWindowsHostProcessPod
 * state them in Kubernetes pkg/apis/core/validation/validation.go.  Both
 * run for every pod, whatever its OS, so wingen runs them on every
 * workload: an invalid value fails at render time, not at kubectl apply.
 */
#include "wingen/k8s/podcheck.h"

#include <string.h>

#include "wingen/k8s/k8svalid.h"
#include "wingen/k8s/placeholder.h"
#include "wingen/k8s/labelsel.h"

/* maxGMSACredentialSpecLength: 64 KiB, in bytes. */
#define GMSA_SPEC_MAX (64 * 1024)
/* maxRunAsUserNameDomainLength: the domain must be shorter. */
#define DOMAIN_MAX 256
/* maxRunAsUserNameUserLength, in bytes (Go's len). */
#define USER_MAX 104
/* a NetBIOS domain name: 1 to 15 characters */
#define NETBIOS_MAX 15

/* validNetBiosRegex: ^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$ */
static bool netbios(const char *s, size_t len)
{
	if (len < 1 || len > NETBIOS_MAX || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (strchr("\\/:*?\"<>|", s[i]))
			return false;
	return true;
}

/* validWindowsUserDomainDNSRegex: DNS labels of letters (either case),
 * digits and '-' (not at an end), 1 to 63 each, joined by dots. */
static bool dns_domain(const char *s, size_t len)
{
	size_t label = 0;

	if (!len)
		return false;
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? s[i] : '.';

		if (c == '.') {
			if (!label || label > 63 || s[i - 1] == '-')
				return false;
			label = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
			   || (c >= '0' && c <= '9') || c == '-') {
			if (!label && c == '-')
				return false;
			label++;
		} else {
			return false;
		}
	}
	return true;
}

const char *wg_k8s_run_as_user_name_error(const char *name, size_t len)
{
	const char *slash, *user = name;
	size_t ulen = len, dots = 0;

	/* The checks in validateWindowsSecurityContextOptions' order; the
	 * first three exclude the rest. */
	if (!len)
		return "runAsUserName cannot be an empty string";
	for (size_t i = 0; i < len; i++)	/* [[:cntrl:]]: ASCII */
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return "runAsUserName cannot contain control characters";
	slash = memchr(name, '\\', len);
	if (slash && memchr(slash + 1, '\\', len - (size_t)(slash + 1 - name)))
		return "runAsUserName cannot contain more than one backslash";
	if (slash) {
		size_t dlen = (size_t)(slash - name);

		if (dlen >= DOMAIN_MAX)
			return "runAsUserName's Domain length must be under 256 "
			       "characters";
		if (!netbios(name, dlen) && !dns_domain(name, dlen))
			return "runAsUserName's Domain doesn't match the "
			       "NetBios nor the DNS format";
		user = slash + 1;
		ulen = len - dlen - 1;
	}
	if (!ulen)
		return "runAsUserName's User cannot be empty";
	if (ulen > USER_MAX)
		return "runAsUserName's User length must not be longer than "
		       "104 characters";
	for (size_t i = 0; i < ulen; i++)
		dots += user[i] == '.' || user[i] == ' ';
	if (dots == ulen)
		return "runAsUserName's User cannot contain only periods or "
		       "spaces";
	for (size_t i = 0; i < ulen; i++)
		if (strchr("\"/\\:;|=,+*?<>@[]", user[i]))
			return "runAsUserName's User cannot contain the "
			       "following characters: \"/\\:;|=,+*?<>@[]";
	return NULL;
}

struct job {
	struct wg_ctx *ctx;
	const struct wg_resource *res;
	const struct wg_podspec *ps;
	struct wg_buf path;
	size_t bad;
};

/* A violation at n; a warning when n holds a placeholder (${NAME}: an
 * envsubst template's, judged once substituted; k8svalid.h). */
static void bad(struct job *j, const struct wg_node *n, const char *msg)
{
	if (wg_k8s_placeholder(n)) {
		wg_warning(j->ctx, j->res, n, j->path.buf, "holds a "
			   "placeholder ('%.*s'), so it is not checked until "
			   "it is substituted: %s", (int)n->len, n->u.str,
			   msg);
		return;
	}
	wg_error(j->ctx, j->res, n, j->path.buf, "%s", msg);
	j->bad++;
}

/* The path of holder's windowsOptions.key: the pod's (c NULL) or a
 * container's. */
static void key_path(struct job *j, const struct wg_container *c,
		     const char *key)
{
	if (c)
		wg_container_path(&j->path, j->ps, c, "securityContext",
				  "windowsOptions", key, (const char *)NULL);
	else
		wg_podspec_path(&j->path, j->ps, "securityContext",
				"windowsOptions", key, (const char *)NULL);
}

/* validateWindowsSecurityContextOptions on holder's windowsOptions. */
static void options(struct job *j, const struct wg_node *holder,
		    const struct wg_container *c)
{
	const struct wg_node *wo = wg_path_get(holder,
					       "securityContext.windowsOptions");
	const struct wg_node *v;
	const char *why;

	if (!wg_is_map(wo))
		return;
	v = wg_map_get(wo, "gmsaCredentialSpecName");
	if (wg_is_scalar(v) && !wg_node_is_null(v)) {
		char name[256];

		key_path(j, c, "gmsaCredentialSpecName");
		if (v->len >= sizeof(name)) {
			bad(j, v, "must be a DNS subdomain (the name of a "
			    "GMSACredentialSpec): at most 253 characters");
		} else {
			memcpy(name, v->u.str, v->len);
			name[v->len] = '\0';
			if (!wg_is_dns_subdomain(name))
				bad(j, v, "must be a DNS subdomain (the name "
				    "of a GMSACredentialSpec): lower case "
				    "letters, digits, '-' and '.'");
		}
	}
	v = wg_map_get(wo, "gmsaCredentialSpec");
	if (wg_is_scalar(v) && !wg_node_is_null(v)) {
		key_path(j, c, "gmsaCredentialSpec");
		if (!v->len)
			bad(j, v, "gmsaCredentialSpec cannot be an empty "
			    "string");
		else if (v->len > GMSA_SPEC_MAX)
			bad(j, v, "gmsaCredentialSpec size must be under 64 "
			    "KiB");
	}
	v = wg_map_get(wo, "runAsUserName");
	if (wg_is_scalar(v) && !wg_node_is_null(v)
	    && (why = wg_k8s_run_as_user_name_error(v->u.str, v->len))) {
		key_path(j, c, "runAsUserName");
		bad(j, v, why);
	}
}

static const struct wg_node *host_process(const struct wg_node *holder)
{
	const struct wg_node *v = wg_path_get(holder,
		"securityContext.windowsOptions.hostProcess");

	return wg_node_is_null(v) ? NULL : v;
}

/* validateWindowsHostProcessPod. */
static void host_process_pod(struct job *j)
{
	const struct wg_node *spec = j->ps->spec;
	const struct wg_node *pod = host_process(spec), *net;
	struct wg_container_iter it;
	struct wg_container c;
	struct wg_arena a = WG_ARENA_INIT;
	size_t n = 0, hp = 0;

	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *v = host_process(c.node);

		n++;
		if (pod && v && wg_node_bool(pod) != wg_node_bool(v)) {
			key_path(j, &c, "hostProcess");
			wg_error(j->ctx, j->res, v, j->path.buf, "is %.*s, but "
				 "the pod's hostProcess is %.*s; they must be "
				 "identical", (int)v->len, v->u.str,
				 (int)pod->len, pod->u.str);
			j->bad++;
		}
		if (wg_node_true(v ? v : pod))
			hp++;
	}
	if (hp && hp != n) {
		wg_container_iter_init(&it, spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *v = host_process(c.node);

			if (wg_node_true(v ? v : pod))
				continue;
			wg_container_path(&j->path, j->ps, &c,
					  (const char *)NULL);
			wg_error(j->ctx, j->res, c.node, j->path.buf,
				 "container '%s' is not a HostProcess "
				 "container, but others in the pod are; all "
				 "containers of a HostProcess pod must be",
				 wg_container_name(&a, &c));
			j->bad++;
		}
	}
	net = wg_map_get(spec, "hostNetwork");
	if (hp && !wg_node_true(net) && !wg_k8s_placeholder(net)) {
		wg_podspec_path(&j->path, j->ps, "hostNetwork",
				(const char *)NULL);
		bad(j, net ? net : spec, "must be true in a HostProcess pod");
	}
	wg_arena_release(&a);
}

size_t wg_k8s_check_windows_options(struct wg_ctx *ctx,
				    const struct wg_resource *res,
				    const struct wg_podspec *ps)
{
	struct job j = { ctx, res, ps, WG_BUF_INIT, 0 };
	struct wg_container_iter it;
	struct wg_container c;

	options(&j, ps->spec, NULL);
	wg_container_iter_init(&it, ps->spec);
	while (wg_container_next(&it, &c))
		options(&j, c.node, &c);
	host_process_pod(&j);
	wg_buf_release(&j.path);
	return j.bad;
}
