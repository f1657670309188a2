/*
 * windows-security: removes what the API server forbids on Windows pods.
 *
 * With spec.os.name: windows, validation rejects every Linux-only field
 * that is set, even to false (windows.md 4), and charts copied from Linux
 * set many of them.  Each one is deleted (never set to false) and each
 * deletion recorded; a securityContext left empty by the deletions goes
 * too.  hostPID and hostIPC are forbidden only when true, so false stays.
 *
 * Also: runAsNonRoot is not true on a HostProcess pod or container.  The
 * API server's own HostProcess rules (pod and container values agree,
 * all containers or none, hostNetwork true) hold on every pod and are
 * checked when a workload is selected (podcheck.h).
 */
#include <string.h>
#include <strings.h>

#include "tx.h"
#include "wingen/k8s/kinds.h"

struct field {
	const char *key;
	const char *why;
};

static const struct field pod_fields[] = {
	{ "hostPID", "Windows pods cannot share the host's process namespace" },
	{ "hostIPC", "Windows pods cannot share the host's IPC namespace" },
	{ "hostUsers", "user namespaces are Linux-only" },
	{ "shareProcessNamespace",
	  "Windows containers cannot share a process namespace" },
	{ "resources", "pod-level resources are not supported on Windows; "
		       "set them per container" },
	{ NULL, NULL },
};

static const struct field pod_sc_fields[] = {
	{ "seLinuxOptions", "SELinux is Linux-only" },
	{ "seccompProfile", "seccomp is Linux-only" },
	{ "appArmorProfile", "AppArmor is Linux-only" },
	{ "fsGroup", "Windows has no Linux file groups" },
	{ "fsGroupChangePolicy", "Windows has no Linux file groups" },
	{ "runAsUser", "Windows identities are user names "
		       "(windowsOptions.runAsUserName), not UIDs" },
	{ "runAsGroup", "Windows identities are not GIDs" },
	{ "supplementalGroups", "Windows has no supplemental Linux groups" },
	{ "supplementalGroupsPolicy",
	  "Windows has no supplemental Linux groups" },
	{ "sysctls", "sysctls are Linux-only" },
	{ "seLinuxChangePolicy", "SELinux is Linux-only" },
	{ NULL, NULL },
};

static const struct field ctr_sc_fields[] = {
	{ "seLinuxOptions", "SELinux is Linux-only" },
	{ "seccompProfile", "seccomp is Linux-only" },
	{ "appArmorProfile", "AppArmor is Linux-only" },
	{ "capabilities", "Linux capabilities do not exist on Windows" },
	{ "readOnlyRootFilesystem",
	  "Windows containers need a writable root filesystem" },
	{ "privileged", "privileged containers do not exist on Windows "
			"(HostProcess containers are the equivalent)" },
	{ "allowPrivilegeEscalation", "privilege escalation is Linux-only" },
	{ "procMount", "procMount is Linux-only" },
	{ "runAsUser", "Windows identities are user names "
		       "(windowsOptions.runAsUserName), not UIDs" },
	{ "runAsGroup", "Windows identities are not GIDs" },
	{ NULL, NULL },
};

struct job {
	struct wg_ctx *ctx;
	struct wg_resources *list;
	struct wg_resource *res;
	struct wg_selection *sel;
	struct wg_buf path;
	const struct wg_podspec *ps;	/* the pod template at work */
};

static void record(struct job *j, const struct wg_node *old, const char *why)
{
	const char *reason;

	if (j->ctx->skip_changes)	/* nobody reads it: no reason made */
		return;
	reason = wg_arena_printf(&j->list->arena, "%s; %s", why,
				 j->sel->reason);
	wg_record_change(j->ctx, WG_CHANGE_REMOVE, j->res, old, j->path.buf,
			 old, NULL, reason);
}

static const struct field *listed(const struct field *fields,
				  const struct wg_node *key)
{
	for (const struct field *f = fields; f->key; f++)
		if (wg_scalar_is(key, f->key))
			return f;
	return NULL;
}

/* Deletes the fields of m that are listed and set, in the order they are
 * written; returns how many.  base is the path of m. */
static size_t strip(struct job *j, struct wg_node *m, const char *base,
		    const struct field *fields)
{
	size_t n = 0, i = 0;

	while (i < m->len) {
		const struct field *f = listed(fields, wg_map_key(m, i));
		struct wg_node *v = wg_map_value(m, i);

		/* hostPID/hostIPC are forbidden only when true */
		if (!f || ((!strcmp(f->key, "hostPID")
			    || !strcmp(f->key, "hostIPC"))
			   && !wg_node_true(v))) {
			i++;
			continue;
		}
		wg_buf_reset(&j->path);
		wg_buf_addstr(&j->path, base);
		wg_path_append_key(&j->path, f->key, strlen(f->key));
		if (!strcmp(f->key, "privileged") && wg_node_true(v))
			wg_warning(j->ctx, j->res, v, j->path.buf,
				   "privileged containers do not exist on "
				   "Windows; removed (use a HostProcess "
				   "container for host access)");
		wg_map_delete_at(m, i);
		record(j, v, wg_arena_printf(&j->list->arena, "forbidden on "
					     "Windows pods: %s", f->why));
		n++;
	}
	return n;
}

/* Strips holder.securityContext, and removes it when that emptied it. */
static void strip_sc(struct job *j, struct wg_node *holder, const char *base,
		     const struct field *fields)
{
	long at = wg_map_find(holder, "securityContext");
	struct wg_node *sc;
	char *sc_path;

	if (at < 0)
		return;
	sc = wg_map_value(holder, (size_t)at);
	if (!wg_is_map(sc))
		return;
	wg_buf_reset(&j->path);
	wg_buf_addstr(&j->path, base);
	wg_path_append_key(&j->path, "securityContext", 15);
	sc_path = wg_arena_strdup(&j->list->arena, j->path.buf);
	if (!strip(j, sc, sc_path, fields) || sc->len)
		return;
	if (holder == j->ps->spec && j->ps->view)
		wg_podspec_delete(&j->list->arena, j->ps, "securityContext");
	else
		wg_map_delete_at(holder, (size_t)at);
	wg_buf_reset(&j->path);
	wg_buf_addstr(&j->path, sc_path);
	record(j, sc, "left empty by the removals above");
}

/* ---- HostProcess -------------------------------------------------------- */

/*
 * runAsNonRoot: true on a HostProcess pod or container.  (The API
 * server's HostProcess rules, which hold on every pod, are checked when a
 * workload is selected: wg_k8s_check_windows_options of podcheck.h.)
 */
static void check_host_process(struct job *j)
{
	const struct wg_node *spec = j->ps->spec, *nonroot;
	struct wg_container_iter it;
	struct wg_container c;

	if (!j->sel->host_process)
		return;
	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &c)) {
		nonroot = wg_path_get(c.node, "securityContext.runAsNonRoot");
		if (wg_node_true(nonroot))
			wg_error(j->ctx, j->res, nonroot,
				 wg_container_path(&j->path, j->ps, &c,
					"securityContext", "runAsNonRoot",
					(const char *)NULL),
				 "is true, which HostProcess containers do "
				 "not allow");
	}
	nonroot = wg_path_get(spec, "securityContext.runAsNonRoot");
	if (wg_node_true(nonroot))
		wg_error(j->ctx, j->res, nonroot,
			 wg_podspec_path(&j->path, j->ps,
					 "securityContext", "runAsNonRoot",
					 (const char *)NULL),
			 "is true, which HostProcess pods do not allow");
}

/*
 * runAsNonRoot: true with runAsUserName ContainerAdministrator (the
 * container's own values over the pod's): the kubelet refuses to start
 * the container (on Windows, runAsNonRoot forbids ContainerAdministrator,
 * compared without case).  A warning at the user name: the API server
 * admits the pod, and the failure shows only at container start.
 */
static void check_admin(struct job *j)
{
	const struct wg_node *spec = j->ps->spec;
	const struct wg_node *pod_nr = wg_path_get(spec,
		"securityContext.runAsNonRoot");
	const struct wg_node *pod_user = wg_path_get(spec,
		"securityContext.windowsOptions.runAsUserName");
	struct wg_container_iter it;
	struct wg_container c;

	if (j->sel->host_process)
		return;	/* runAsNonRoot is an error there already */
	wg_container_iter_init(&it, spec);
	while (wg_container_next(&it, &c)) {
		const struct wg_node *nr = wg_path_get(c.node,
			"securityContext.runAsNonRoot");
		const struct wg_node *user = wg_path_get(c.node,
			"securityContext.windowsOptions.runAsUserName");
		bool own = !wg_node_is_null(user);

		if (wg_node_is_null(nr))
			nr = pod_nr;
		if (!own)
			user = pod_user;
		if (!wg_node_true(nr) || !wg_is_scalar(user)
		    || user->len != 22
		    || strncasecmp(user->u.str, "ContainerAdministrator", 22))
			continue;
		if (own)
			wg_container_path(&j->path, j->ps, &c,
					  "securityContext", "windowsOptions",
					  "runAsUserName", (const char *)NULL);
		else
			wg_podspec_path(&j->path, j->ps, "securityContext",
					"windowsOptions", "runAsUserName",
					(const char *)NULL);
		wg_warning(j->ctx, j->res, user, j->path.buf,
			   "is ContainerAdministrator while runAsNonRoot is "
			   "true for container '%s': the kubelet refuses to "
			   "start it; run as ContainerUser or drop "
			   "runAsNonRoot", wg_container_name(&j->list->arena,
							      &c));
		if (!own)
			return;	/* the pod's: said once */
	}
}

/* A GMSACredentialSpec of the windows-gmsa webhook (group windows.k8s.io,
 * kubernetes-sigs/windows-gmsa). */
static bool is_gmsa_spec(const struct wg_resource *r)
{
	return !(r->flags & WG_RES_DELETED)
	       && wg_resource_kind_is(r, "GMSACredentialSpec")
	       && wg_api_group_in(wg_map_get(r->root, "apiVersion"),
				  "windows.k8s.io");
}

/*
 * gmsaCredentialSpecName names a GMSACredentialSpec (cluster-scoped);
 * the webhook refuses a pod naming one that does not exist.  When the
 * stream holds GMSACredentialSpecs (it installs them), a name that is
 * none of them is most likely a typo: a warning.  A stream without any
 * says nothing: they may be installed otherwise.
 */
static void check_gmsa_name(struct job *j, const struct wg_node *holder,
			    const struct wg_container *c)
{
	const struct wg_node *name = wg_path_get(holder,
		"securityContext.windowsOptions.gmsaCredentialSpecName");
	bool any = false;

	if (!wg_is_scalar(name) || wg_node_is_null(name))
		return;
	for (size_t i = 0; i < j->list->len; i++) {
		const struct wg_resource *r = j->list->items[i];
		const struct wg_node *n;

		if (!is_gmsa_spec(r))
			continue;
		any = true;
		n = wg_resource_name_node(r);
		if (wg_is_scalar(n) && n->len == name->len
		    && memcmp(n->u.str, name->u.str, n->len) == 0)
			return;
	}
	if (!any)
		return;
	if (c)
		wg_container_path(&j->path, j->ps, c, "securityContext",
				  "windowsOptions", "gmsaCredentialSpecName",
				  (const char *)NULL);
	else
		wg_podspec_path(&j->path, j->ps, "securityContext",
				"windowsOptions", "gmsaCredentialSpecName",
				(const char *)NULL);
	wg_warning(j->ctx, j->res, name, j->path.buf, "names "
		   "GMSACredentialSpec '%.*s', which is not among the "
		   "GMSACredentialSpecs of the stream; the windows-gmsa "
		   "webhook refuses a pod naming one that does not exist",
		   (int)name->len, name->u.str);
}

static void check_gmsa(struct job *j)
{
	struct wg_container_iter it;
	struct wg_container c;

	check_gmsa_name(j, j->ps->spec, NULL);
	wg_container_iter_init(&it, j->ps->spec);
	while (wg_container_next(&it, &c))
		check_gmsa_name(j, c.node, &c);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       struct wg_resource *res, const void *config)
{
	struct wg_selection *whole = tx_windows(ctx, list, res);
	struct job j = { ctx, list, res, NULL, WG_BUF_INIT, NULL };
	struct wg_buf base = WG_BUF_INIT;
	struct wg_container_iter it;
	struct wg_container c;
	const char *spec_path;

	(void)config;
	for (size_t i = 0; whole && i < whole->npods; i++) {
		j.sel = tx_windows_pod(whole, i);
		if (!j.sel)
			continue;
		j.ps = &whole->pods[i];
		spec_path = wg_arena_strdup(&list->arena, wg_podspec_path(
			&base, j.ps, (const char *)NULL));
		check_host_process(&j);
		check_admin(&j);
		check_gmsa(&j);
		/* The API server forbids these only with os.name windows:
		 * a kind whose pods have no os (pod-os said so) keeps them,
		 * and its containers may be a Task's that Linux runs use. */
		if (!wg_podspec_has(j.ps, "os"))
			continue;
		if (j.ps->view) {
			/* a shape's pod: only its own securityContext */
			if (wg_podspec_inherits(j.ps, "securityContext")
			    && !tx_ensure_map(ctx, list, res, j.ps,
					      "securityContext",
					      j.sel->reason))
				continue;
		} else {
			strip(&j, j.ps->spec, spec_path, pod_fields);
		}
		strip_sc(&j, j.ps->spec, spec_path, pod_sc_fields);
		wg_container_iter_init(&it, j.ps->spec);
		while (wg_container_next(&it, &c)) {
			wg_container_path(&base, j.ps, &c, (const char *)NULL);
			strip_sc(&j, c.node, base.buf, ctr_sc_fields);
		}
	}
	wg_buf_release(&base);
	wg_buf_release(&j.path);
	return 0;
}

const struct wg_plugin wg_tx_windows_security = {
	.name = "windows-security",
	.summary = "remove the fields the API server forbids on Windows pods; "
		   "check HostProcess rules",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_one = run,
	.prepare = tx_prepare,
};
