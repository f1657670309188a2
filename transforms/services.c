/*
 * services: checks, and fixes where the profile allows, the Services that
 * front Windows pods (facts: docs/windows-facts.md §6).
 *
 * A Service fronts Windows pods when its spec.selector (a non-empty map;
 * type ExternalName has none that counts) matches the pod template labels
 * of a Windows workload of the stream in the same namespace.  A missing
 * namespace is the one the stream will be applied to, which wingen does
 * not know: it equals only another missing namespace, so a Service
 * without one does not see a Deployment in "default" (nor the reverse).
 * The workloads whose pods are endpoints count (PodTemplates do not); a
 * workload is a Windows one when selection made it one or its pod
 * template already targets Windows.
 *
 * For those Services, each finding is a warning at the offending field,
 * naming the rule's reason:
 *  - sessionAffinityConfig.clientIP.timeoutSeconds: unsupported on
 *    Windows (fix: removed, with the parents it leaves empty);
 *  - sessionAffinity: ClientIP while a targeted build is older than
 *    ltsc2022 (no safe fix: dropping affinity changes what clients get);
 *  - externalTrafficPolicy: Local without windows.network.dsr (fix:
 *    Cluster, which always delivers but hides client source addresses, as
 *    Windows without DSR does anyway; healthCheckNodePort goes with it);
 *  - ipFamilyPolicy RequireDualStack or PreferDualStack (fix, when
 *    windows.network.mode is overlay: SingleStack with ipFamilies [IPv4]),
 *    and ipFamilies naming only IPv6 (fix: [IPv4]); no fix when
 *    clusterIP or clusterIPs[0] pins an IPv6 address;
 *  - loadBalancerSourceRanges: not enforced by the Windows kube-proxy
 *    (warning only: removing it would open the Service to Linux clients
 *    too);
 *  - a selector matching Linux and Windows workloads (mixed backends);
 *  - more than 64 backends: replicas of every matched workload (1 when
 *    absent; a Job's parallelism; an HPA's maxReplicas when one scales
 *    it); a DaemonSet runs one pod per node, so its count is unknown and
 *    an info says so when the rest stays within the limit.
 * Fixes apply with windows.services.fix: true, and only to Services with
 * no Linux backends: every fix also changes what Linux pods behind the
 * Service get.  A fix is recorded as a change with the rule's reason and
 * is not repeated as a warning.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tx.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/k8s/catalog.h"
#include "wingen/base/index.h"
#include "wingen/k8s/kinds.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/base/names.h"
#include "wingen/base/suggest.h"
#include "wingen/transforms/services.h"

#define MAX_BACKENDS 64

#define R_TIMEOUT "the Windows kube-proxy has no session-affinity timeout"
#define R_CLIENTIP "ClientIP session affinity needs Windows Server 2022 or " \
	"later"
#define R_LOCAL "the Windows kube-proxy supports externalTrafficPolicy " \
	"Local only with Direct Server Return (windows.network.dsr is false)"
#define R_DUAL_OVERLAY "Windows has no dual-stack networking on overlay " \
	"networks (windows.network.mode: overlay)"
#define R_DUAL_L2 "Windows supports dual-stack pods (l2bridge) only with " \
	"single-family Services"
#define R_V6 "Windows has no single-stack IPv6"
#define R_LBSR "the Windows kube-proxy does not enforce " \
	"loadBalancerSourceRanges (kubernetes#107019)"
#define R_MIXED "its traffic is spread over both operating systems, and " \
	"the Windows kube-proxy's limits apply to every backend"
#define R_MAX "the Windows kube-proxy supports at most 64 backend pods per " \
	"Service"

/* A workload whose pods may be endpoints. */
struct backend {
	const struct wg_resource *res;
	const struct wg_selection *sel;
	const struct wg_podspec *ps;	/* its pod template (a workload with
					   several is one backend each) */
	const struct wg_node *labels;	/* pod template labels */
	const char *ns;			/* "" when missing */
	/* pods and pods_why are worked out only for a backend a Service
	 * selects (resolve()), and label only for one a message names
	 * (label_of()): most workloads of a large stream are behind no
	 * Service that fronts Windows pods, and a broad selector's
	 * thousands of backends are counted, not named. */
	bool resolved;
	const char *label;		/* "Deployment/web", or NULL */
	bool windows;
	long pods;			/* -1: one per node (DaemonSet) or
					   not a number */
	const char *pods_why;		/* "HorizontalPodAutoscaler/x
					   maxReplicas", or NULL */
};

#define SHOWN WG_NAMES_SHOWN

/* An older build a Windows backend runs on, for the ClientIP finding. */
struct old_build {
	const struct backend *b;
	const char *release;
};

/*
 * What a selector finds in a namespace, worked out once for every Service
 * with that selector there, and only as far as the findings need: counts,
 * the pod total, and the first few backends of each list a message names.
 * So a Service costs a lookup however many workloads it selects, and a
 * distinct selector costs one pass over its rarest label's workloads.
 */
struct found {
	size_t n, nwin, nlin;
	const struct backend *all[SHOWN], *win[SHOWN], *lin[SHOWN];
	long total;		/* pods of the backends with a count */
	bool unknown;		/* a backend's count is unknown */
	size_t nold;		/* (Windows backend, build before ltsc2022) */
	struct old_build old[SHOWN];
};

struct svc {
	struct wg_ctx *ctx;
	struct wg_resources *list;
	struct wg_arena *arena;
	const struct wg_profile *p;
	const struct wg_services_settings *set;	/* its config */
	struct wg_resource *res;
	struct wg_node *spec;
	const struct found *f;	/* what the Service's selector finds */
	size_t nlin;		/* f->nlin */
	const char *fronts;	/* the Windows workloads, for messages */
	bool can_fix;		/* services.fix, and no Linux backends */
	/* Built once per run, so a stream is not scanned per object:
	 * HPAs by "ns/kind/name" of their target, backends by each
	 * "ns/key=value" of their pod labels, and what each distinct
	 * selector found by namespace and sorted selector. */
	struct wg_index *hpas, *by_label, *found;
	struct wg_resource **services;	/* the stream's Services, in order */
	size_t nservices, services_cap;
};

/* Index keys: parts joined by a byte no name, label or namespace holds. */
static void index_key(struct wg_buf *k, const char *a, size_t alen,
		      const char *b, size_t blen, const char *c, size_t clen)
{
	wg_buf_reset(k);
	wg_buf_add(k, a, alen);
	wg_buf_addch(k, 0x1f);
	wg_buf_add(k, b, blen);
	wg_buf_addch(k, 0x1f);
	wg_buf_add(k, c, clen);
}

static const char *str(struct wg_arena *a, const struct wg_node *n)
{
	return wg_is_scalar(n) ? wg_scalar_dup(a, n) : NULL;
}

static const char *ns_of(struct wg_arena *a, const struct wg_resource *res)
{
	const char *ns = str(a, wg_resource_namespace_node(res));

	return ns ? ns : "";
}

/* A non-negative integer scalar, or -1. */
static long count_of(const struct wg_node *n)
{
	long v = 0;

	if (!wg_is_scalar(n) || n->style != WG_STYLE_PLAIN || !n->len
	    || n->len > 9)
		return -1;
	for (uint32_t i = 0; i < n->len; i++) {
		if (n->u.str[i] < '0' || n->u.str[i] > '9')
			return -1;
		v = v * 10 + (n->u.str[i] - '0');
	}
	return v;
}

/* The pods a pod template runs: its kind's count field (kinds.h),
 * default 1; -1 when unknown. */
static long pods_of(const struct backend *b)
{
	const char *field = b->ps->kind->pods;
	struct wg_buf path = WG_BUF_INIT;
	const struct wg_node *v;

	if (!field)
		return -1;	/* one per node, or its autoscaler's */
	if (!*field)
		return 1;
	v = wg_path_get(b->res->root, wg_podspec_expand(&path, b->ps, field));
	wg_buf_release(&path);
	return wg_node_is_null(v) ? 1 : count_of(v);
}

/* Every HPA of the list, by the namespace, kind and name it scales. */
static void index_hpas(struct svc *s)
{
	struct wg_buf key = WG_BUF_INIT;

	s->hpas = wg_index_new();
	for (size_t i = 0; i < s->list->len; i++) {
		struct wg_resource *h = s->list->items[i];
		const struct wg_node *ref = wg_path_get(h->root,
							"spec.scaleTargetRef");
		const struct wg_node *kind = wg_map_get(ref, "kind");
		const struct wg_node *name = wg_map_get(ref, "name");
		const char *ns;

		if ((h->flags & WG_RES_DELETED) || !wg_is_kind(h, WG_KIND_HPA)
		    || !wg_is_scalar(kind)
		    || !wg_is_scalar(name))
			continue;
		ns = ns_of(s->arena, h);
		index_key(&key, ns, strlen(ns), kind->u.str, kind->len,
			  name->u.str, name->len);
		wg_index_add(s->hpas, key.buf, key.len, h);
	}
	wg_buf_release(&key);
}

/* An HPA scaling b: its maxReplicas is what counts. */
static void autoscaled(struct svc *s, struct backend *b)
{
	const struct wg_node *name = wg_resource_name_node(b->res);
	const char *kind = wg_resource_kind(s->arena, b->res);
	struct wg_buf key = WG_BUF_INIT;
	void *const *hpas;
	size_t n;

	if (!kind || !wg_is_scalar(name))
		return;
	index_key(&key, b->ns, strlen(b->ns), kind, strlen(kind), name->u.str,
		  name->len);
	hpas = wg_index_get(s->hpas, key.buf, key.len, &n);
	wg_buf_release(&key);
	for (size_t i = 0; i < n; i++) {
		const struct wg_resource *h = hpas[i];
		long max = count_of(wg_path_get(h->root, "spec.maxReplicas"));

		if (max < 0)
			continue;
		b->pods = max;
		b->pods_why = wg_arena_printf(s->arena, "%s maxReplicas",
					      wg_resource_label(s->arena, h));
		return;
	}
}

/* Indexes b under each of its pod labels. */
static void index_labels(struct svc *s, struct backend *b)
{
	struct wg_buf key = WG_BUF_INIT;

	for (size_t i = 0; wg_is_map(b->labels) && i < b->labels->len; i++) {
		const struct wg_node *k = wg_map_key(b->labels, i);
		const struct wg_node *v = wg_map_value(b->labels, i);

		if (!wg_is_scalar(v))
			continue;
		index_key(&key, b->ns, strlen(b->ns), k->u.str, k->len,
			  v->u.str, v->len);
		wg_index_add(s->by_label, key.buf, key.len, b);
	}
	wg_buf_release(&key);
}

/* The rest of a backend, once a Service selects it. */
static void resolve(struct svc *s, struct backend *b)
{
	if (b->resolved)
		return;
	b->resolved = true;
	if (!s->hpas)
		index_hpas(s);
	b->pods = pods_of(b);
	autoscaled(s, b);
}

static const char *label_of(struct svc *s, const struct backend *b)
{
	struct backend *m = (struct backend *)b;

	if (m->label)
		return m->label;
	m->label = wg_resource_label(s->arena, m->res);
	if (m->ps->nitems) {	/* one of a list of templates */
		struct wg_buf path = WG_BUF_INIT;

		m->label = wg_arena_printf(s->arena, "%s %s", m->label,
					   wg_podspec_tmpl_path(&path, m->ps,
						(const char *)NULL));
		wg_buf_release(&path);
	}
	return m->label;
}

/* Indexes every workload by its pod labels, and collects the Services,
 * in one pass over the list. */
static void index_backends(struct wg_ctx *ctx, struct svc *s)
{
	struct wg_resources *list = s->list;

	s->by_label = wg_index_new();
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		struct wg_selection *sel;
		struct backend *b;

		if (res->flags & WG_RES_DELETED)
			continue;
		if (wg_is_kind(res, WG_KIND_SERVICE)) {
			/* collected in the same pass: a large stream is cold */
			if (wg_is_map(wg_map_get(res->root, "spec"))) {
				WG_GROW(s->services, s->services_cap,
					s->nservices + 1);
				s->services[s->nservices++] = res;
			}
			continue;
		}
		sel = wg_select(ctx, list, res);
		if (!sel->workload || sel->pod.kind->no_pods)
			continue;
		for (size_t k = 0; k < sel->npods; k++) {
			b = wg_arena_zalloc(s->arena, sizeof(*b));
			b->res = res;
			b->sel = sel;
			b->ps = &sel->pods[k];
			b->labels = wg_podspec_labels(b->ps);
			b->ns = ns_of(s->arena, res);
			b->windows = (wg_select_pod(sel, k)->windows
				      && !sel->failed)
				     || wg_select_pod(sel, k)->pod_windows;
			index_labels(s, b);
		}
	}
}

/* ---- findings ----------------------------------------------------------- */

/* What the message says about fixing: fixable is whether the rule has a
 * fix in this profile. */
static const char *fix_note(const struct svc *s, bool fixable,
			    const char *what)
{
	if (!fixable)
		return "";
	if (s->nlin)
		return wg_arena_printf(s->arena, "; not fixed: the Service "
				       "also fronts Linux pods");
	return wg_arena_printf(s->arena, "; windows.services.fix: true %s",
			       what);
}

static void warn(struct svc *s, const struct wg_node *at, const char *field,
		 const char *what, const char *reason, const char *note)
{
	wg_warning(s->ctx, s->res, at, field, "%s: %s%s (fronts %s)", what,
		   reason, note, s->fronts);
}

static void fixed(struct svc *s, enum wg_change_op op, const struct wg_node *at,
		  const char *field, const struct wg_node *old,
		  const struct wg_node *new_value, const char *reason)
{
	wg_record_change(s->ctx, op, s->res, at, field, old, new_value,
			 wg_arena_printf(s->arena, "%s (fronts %s)", reason,
					 s->fronts));
}

static void affinity_timeout(struct svc *s)
{
	struct wg_node *cfg = wg_map_get(s->spec, "sessionAffinityConfig");
	struct wg_node *ip = wg_map_get(cfg, "clientIP");
	struct wg_node *t = wg_map_get(ip, "timeoutSeconds");

	if (wg_node_is_null(t))
		return;
	if (!s->can_fix) {
		warn(s, t, "spec.sessionAffinityConfig.clientIP.timeoutSeconds",
		     "is set", R_TIMEOUT, fix_note(s, true, "removes it"));
		return;
	}
	wg_map_delete(ip, "timeoutSeconds");
	fixed(s, WG_CHANGE_REMOVE, t,
	      "spec.sessionAffinityConfig.clientIP.timeoutSeconds", t, NULL,
	      R_TIMEOUT);
	if (ip->len)
		return;
	wg_map_delete(cfg, "clientIP");
	fixed(s, WG_CHANGE_REMOVE, ip, "spec.sessionAffinityConfig.clientIP",
	      ip, NULL, "left empty by the removal above");
	if (cfg->len)
		return;
	wg_map_delete(s->spec, "sessionAffinityConfig");
	fixed(s, WG_CHANGE_REMOVE, cfg, "spec.sessionAffinityConfig", cfg,
	      NULL, "left empty by the removal above");
}

static void client_ip(struct svc *s)
{
	const struct wg_node *v = wg_map_get(s->spec, "sessionAffinity");
	const struct found *f = s->f;
	struct wg_names old = WG_NAMES_INIT;

	if (!wg_scalar_is(v, "ClientIP") || !f->nold)
		return;
	for (size_t i = 0; i < f->nold && i < SHOWN; i++)
		if (wg_names_next(&old))
			wg_buf_addf(&old.text, "%s (%s)",
				    label_of(s, f->old[i].b),
				    f->old[i].release);
	if (f->nold > SHOWN)
		wg_names_skip(&old, f->nold - SHOWN);
	wg_warning(s->ctx, s->res, v, "spec.sessionAffinity", "is 'ClientIP': "
		   "%s, but these pods run on an older build: %s; no safe fix: "
		   "dropping affinity changes what clients get", R_CLIENTIP,
		   wg_names_end(&old, s->arena));
}

static void traffic_policy(struct svc *s)
{
	struct wg_node *v = wg_map_get(s->spec, "externalTrafficPolicy");
	struct wg_node *hc, *cluster;

	if (s->set->dsr || !wg_scalar_is(v, "Local"))
		return;
	if (!s->can_fix) {
		warn(s, v, "spec.externalTrafficPolicy", "is 'Local'", R_LOCAL,
		     fix_note(s, true, "sets Cluster (client source addresses "
			      "are then not kept)"));
		return;
	}
	cluster = wg_node_new_str(s->arena, "Cluster");
	wg_map_set(s->arena, s->spec, "externalTrafficPolicy", cluster);
	fixed(s, WG_CHANGE_SET, v, "spec.externalTrafficPolicy", v, cluster,
	      R_LOCAL "; Cluster always delivers, without client source "
	      "addresses");
	hc = wg_map_get(s->spec, "healthCheckNodePort");
	if (!hc)
		return;
	wg_map_delete(s->spec, "healthCheckNodePort");
	fixed(s, WG_CHANGE_REMOVE, hc, "spec.healthCheckNodePort", hc, NULL,
	      "only a Local traffic policy has one (the API server rejects "
	      "it with Cluster)");
}

static bool is_v6(const struct wg_node *n)
{
	return wg_is_scalar(n) && memchr(n->u.str, ':', n->len);
}

/* Whether the Service's cluster IPs leave room for IPv4 only; trims an
 * IPv6 secondary from clusterIPs when fixing. */
static bool v4_possible(struct svc *s, bool fix)
{
	struct wg_node *ips = wg_map_get(s->spec, "clusterIPs");

	if (is_v6(wg_map_get(s->spec, "clusterIP"))
	    || (wg_is_seq(ips) && ips->len && is_v6(wg_seq_item(ips, 0))))
		return false;
	for (size_t i = 0; fix && wg_is_seq(ips) && i < ips->len; i++) {
		struct wg_node *ip = wg_seq_item(ips, i);

		if (!is_v6(ip))
			continue;
		wg_seq_delete_at(ips, i);
		fixed(s, WG_CHANGE_REMOVE, ip, wg_arena_printf(s->arena,
		      "spec.clusterIPs[%zu]", i), ip, NULL, "an IPv6 address "
		      "of a Service made single-stack IPv4");
		i--;
	}
	return true;
}

static void set_ipv4(struct svc *s, const char *reason)
{
	struct wg_node *old = wg_map_get(s->spec, "ipFamilies");
	struct wg_node *fam = wg_node_new_seq(s->arena);
	long at;

	if (wg_is_seq(old) && old->len == 1
	    && wg_scalar_is(wg_seq_item(old, 0), "IPv4"))
		return;
	fam->flags |= WG_NODE_FLOW;
	wg_seq_append(s->arena, fam, wg_node_new_str(s->arena, "IPv4"));
	if (old || (at = wg_map_find(s->spec, "ipFamilyPolicy")) < 0)
		wg_map_set(s->arena, s->spec, "ipFamilies", fam);
	else	/* next to the policy, where people write it */
		wg_map_insert(s->arena, s->spec, (size_t)at + 1, "ipFamilies",
			      fam);
	fixed(s, old ? WG_CHANGE_SET : WG_CHANGE_ADD, old ? old : s->spec,
	      "spec.ipFamilies", old, fam, reason);
}

#define PINNED "; no fix: its cluster IP is IPv6"

static void families(struct svc *s)
{
	struct wg_node *policy = wg_map_get(s->spec, "ipFamilyPolicy");
	const struct wg_node *fam = wg_map_get(s->spec, "ipFamilies");
	bool dual = wg_scalar_is(policy, "RequireDualStack")
		    || wg_scalar_is(policy, "PreferDualStack");
	bool overlay = strcmp(s->set->mode, "l2bridge") != 0;
	bool v6only = !dual && wg_is_seq(fam) && fam->len;
	bool v4 = v4_possible(s, false);
	struct wg_node *single;

	for (size_t i = 0; v6only && i < fam->len; i++)
		v6only = wg_scalar_is(wg_seq_item(fam, i), "IPv6");
	if (dual && !overlay) {
		warn(s, policy, "spec.ipFamilyPolicy", wg_arena_printf(
		     s->arena, "is '%.*s'", (int)policy->len, policy->u.str),
		     R_DUAL_L2, "; no fix: on l2bridge the Windows pods have "
		     "IPv6 too, so pick the family yourself");
	} else if (dual && (!s->can_fix || !v4)) {
		warn(s, policy, "spec.ipFamilyPolicy", wg_arena_printf(
		     s->arena, "is '%.*s'", (int)policy->len, policy->u.str),
		     R_DUAL_OVERLAY, !v4 ? PINNED : fix_note(s, true, "sets "
		     "SingleStack and ipFamilies [IPv4]"));
	} else if (dual) {
		v4_possible(s, true);
		single = wg_node_new_str(s->arena, "SingleStack");
		wg_map_set(s->arena, s->spec, "ipFamilyPolicy", single);
		fixed(s, WG_CHANGE_SET, policy, "spec.ipFamilyPolicy", policy,
		      single, R_DUAL_OVERLAY);
		set_ipv4(s, R_DUAL_OVERLAY);
	} else if (v6only && (!s->can_fix || !v4)) {
		warn(s, fam, "spec.ipFamilies", "is IPv6 only", R_V6,
		     !v4 ? PINNED : fix_note(s, true, "sets [IPv4]"));
	} else if (v6only) {
		v4_possible(s, true);
		set_ipv4(s, R_V6);
	}
}

static void source_ranges(struct svc *s)
{
	const struct wg_node *v = wg_map_get(s->spec,
					     "loadBalancerSourceRanges");

	if (wg_is_seq(v) && v->len)
		warn(s, v, "spec.loadBalancerSourceRanges", "is set", R_LBSR,
		     "; not fixed: removing it would open the Service to "
		     "every client");
}

/* "Deployment/a, Deployment/b, Job/c and 7 more": shown holds the first
 * of n backends. */
static const char *labels_of(struct svc *s, const struct backend *const *shown,
			     size_t n)
{
	struct wg_names l = WG_NAMES_INIT;

	for (size_t i = 0; i < n && i < SHOWN; i++)
		if (wg_names_next(&l))
			wg_buf_addstr(&l.text, label_of(s, shown[i]));
	if (n > SHOWN)
		wg_names_skip(&l, n - SHOWN);
	return wg_names_end(&l, s->arena);
}

static void mixed(struct svc *s)
{
	if (!s->nlin)
		return;
	wg_warning(s->ctx, s->res, wg_map_get(s->spec, "selector"),
		   "spec.selector", "selects Linux pods (%s) and Windows pods "
		   "(%s): %s; select one OS per Service",
		   labels_of(s, s->f->lin, s->f->nlin), s->fronts, R_MIXED);
}

static void backend_count(struct svc *s)
{
	const struct found *f = s->f;
	struct wg_names l = WG_NAMES_INIT;
	const char *parts;

	if (f->total <= MAX_BACKENDS && !f->unknown)
		return;
	for (size_t i = 0; i < f->n && i < SHOWN; i++) {
		const struct backend *b = f->all[i];

		if (!wg_names_next(&l))
			break;
		wg_buf_addf(&l.text, "%s ", label_of(s, b));
		if (b->pods < 0) {
			wg_buf_addstr(&l.text, b->ps->kind->node_agent
				      ? "one per node"
				      : !b->ps->kind->pods
				      ? wg_arena_printf(s->arena, "set by %s",
							b->ps->kind->project
							? b->ps->kind->project
							: "its controller")
				      : "not a number");
			continue;
		}
		wg_buf_addf(&l.text, "%ld", b->pods);
		if (b->pods_why)
			wg_buf_addf(&l.text, " (%s)", b->pods_why);
	}
	if (f->n > SHOWN)
		wg_names_skip(&l, f->n - SHOWN);
	parts = wg_names_end(&l, s->arena);
	if (f->total > MAX_BACKENDS)
		wg_warning(s->ctx, s->res, wg_map_get(s->spec, "selector"),
			   "spec.selector", "selects %s%ld backend pods (%s): "
			   "%s", f->unknown ? "at least " : "", f->total, parts,
			   R_MAX);
	else
		wg_info(s->ctx, s->res, wg_map_get(s->spec, "selector"),
			"spec.selector", "selects an unknown number of backend "
			"pods (%s): %s", parts, R_MAX);
}

/* ---- the plugin ---------------------------------------------------------- */

/* A selector's pairs in key order, so "{a: 1, b: 2}" and "{b: 2, a: 1}"
 * share what they found. */
struct pair {
	const struct wg_node *k, *v;
};

static int pair_cmp(const void *x, const void *y)
{
	const struct wg_node *a = ((const struct pair *)x)->k;
	const struct wg_node *b = ((const struct pair *)y)->k;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->u.str, b->u.str, n);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Lengths first: no separator byte can be confused with text. */
static void add_part(struct wg_buf *k, const char *s, size_t len)
{
	uint32_t n = (uint32_t)len;

	wg_buf_add(k, &n, sizeof(n));
	wg_buf_add(k, s, len);
}

/* The memo key of a selector in ns: its pairs sorted by key. */
static void selector_key(struct wg_buf *k, const char *ns,
			 const struct wg_node *selector)
{
	struct pair stack[16], *pairs = stack;

	if (selector->len > 16)
		pairs = wg_xmalloc(selector->len * sizeof(*pairs));
	for (size_t i = 0; i < selector->len; i++)
		pairs[i] = (struct pair){ wg_map_key(selector, i),
					  wg_map_value(selector, i) };
	qsort(pairs, selector->len, sizeof(*pairs), pair_cmp);
	wg_buf_reset(k);
	add_part(k, ns, strlen(ns));
	for (size_t i = 0; i < selector->len; i++) {
		add_part(k, pairs[i].k->u.str, pairs[i].k->len);
		add_part(k, pairs[i].v->u.str, pairs[i].v->len);
	}
	if (pairs != stack)
		free(pairs);
}

/* Counts b into f, keeping the first few of each list. */
static void count(struct found *f, const struct backend *b)
{
	const struct wg_selection *sel = b->sel;

	if (f->n < SHOWN)
		f->all[f->n] = b;
	f->n++;
	if (b->pods < 0)
		f->unknown = true;
	else
		f->total += b->pods;
	if (!b->windows) {
		if (f->nlin < SHOWN)
			f->lin[f->nlin] = b;
		f->nlin++;
		return;
	}
	if (f->nwin < SHOWN)
		f->win[f->nwin] = b;
	f->nwin++;
	for (size_t k = 0, nb = sel->multi ? sel->ntargets : sel->build ? 1 : 0;
	     k < nb; k++) {
		const struct wg_build *bd = sel->multi ? sel->targets[k]
						       : sel->build;

		if (bd->release->number >= 20348)
			continue;
		if (f->nold < SHOWN)
			f->old[f->nold] = (struct old_build){
				b, bd->release->name };
		f->nold++;
	}
}

/* What selector (every value a scalar) finds in ns: the workloads under
 * its rarest label that match it all. */
static struct found *find(struct svc *s, const char *ns,
			  const struct wg_node *selector,
			  const struct wg_label_selector *ls)
{
	struct found *f = wg_arena_zalloc(s->arena, sizeof(*f));
	struct wg_buf key = WG_BUF_INIT;
	void *const *cands = NULL;
	size_t ncands = SIZE_MAX;

	/*
	 * Every match has every label of the selector: look each up and
	 * check the fewest candidates.  (A common first label such as
	 * app.kubernetes.io/name can hold thousands of workloads of a large
	 * stream; the instance label, one.)
	 */
	for (size_t i = 0; i < selector->len && ncands; i++) {
		const struct wg_node *k = wg_map_key(selector, i);
		const struct wg_node *v = wg_map_value(selector, i);
		void *const *c;
		size_t n;

		index_key(&key, ns, strlen(ns), k->u.str, k->len, v->u.str,
			  v->len);
		c = wg_index_get(s->by_label, key.buf, key.len, &n);
		if (n < ncands) {
			cands = c;
			ncands = n;
		}
	}
	wg_buf_release(&key);
	for (size_t i = 0; i < ncands; i++) {
		struct backend *b = cands[i];

		if (!wg_label_selector_matches(ls, b->labels))
			continue;
		resolve(s, b);
		count(f, b);
	}
	return f;
}

static void check(struct svc *s)
{
	const struct wg_node *selector = wg_map_get(s->spec, "selector");
	struct wg_label_selector ls;
	const char *ns = ns_of(s->arena, s->res);
	struct wg_buf key = WG_BUF_INIT;
	void *const *memo;
	size_t n;

	if (wg_scalar_is(wg_map_get(s->spec, "type"), "ExternalName")
	    || !wg_is_map(selector) || !selector->len
	    || wg_label_selector_from_node(s->arena, selector, false, &ls))
		return;
	for (size_t i = 0; i < selector->len; i++)
		if (!wg_is_scalar(wg_map_value(selector, i)))
			return;	/* not a label: matches nothing */
	selector_key(&key, ns, selector);
	memo = wg_index_get(s->found, key.buf, key.len, &n);
	if (n) {
		s->f = memo[0];
	} else {
		s->f = find(s, ns, selector, &ls);
		wg_index_add(s->found, key.buf, key.len, (void *)s->f);
	}
	wg_buf_release(&key);
	if (!s->f->nwin)
		return;
	s->nlin = s->f->nlin;
	s->fronts = labels_of(s, s->f->win, s->f->nwin);
	s->can_fix = s->set->fix && !s->nlin;
	affinity_timeout(s);
	client_ip(s);
	traffic_policy(s);
	families(s);
	source_ranges(s);
	mixed(s);
	backend_count(s);
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       const void *config)
{
	struct svc s = { .ctx = ctx, .list = list, .arena = &list->arena,
			 .p = ctx->profile,
			 .set = config ? config : &wg_services_defaults };

	if (!s.p || !s.p->nbuilds)
		return 0;
	index_backends(ctx, &s);
	s.found = wg_index_new();
	for (size_t i = 0; i < s.nservices; i++) {
		s.res = s.services[i];
		s.spec = wg_map_get(s.res->root, "spec");
		check(&s);
	}
	free(s.services);
	wg_index_free(s.hpas);
	wg_index_free(s.by_label);
	wg_index_free(s.found);
	return 0;
}

/* ---- settings: windows.network and windows.services ------------------- */

const struct wg_services_settings wg_services_defaults = {
	.dsr = false, .mode = "overlay", .fix = false,
};

/* The network modes of Windows container networking (Microsoft's
 * "Windows container network drivers" page: overlay, l2bridge, l2tunnel,
 * transparent). */
static const char *const modes[] = {
	"overlay", "l2bridge", "l2tunnel", "transparent", NULL,
};
#define NMODES (sizeof(modes) / sizeof(*modes) - 1)

static const struct wg_setting_values setting_values[] = {
	{ "windows.network.mode", modes },
	{ NULL, NULL },
};

/* The loader has refused any boolean but true and false (and their
 * capitalised spellings), so YAML's reading of one is the setting. */
static bool flag(const struct wg_profile *p, const char *path, bool dflt)
{
	const struct wg_node *n = wg_path_get(p->root, path);

	return wg_is_scalar(n) && !wg_node_is_null(n) ? wg_node_true(n)
						      : dflt;
}

static int settings(struct wg_ctx *ctx, const struct wg_profile *p,
		    struct wg_arena *arena, const void **out)
{
	struct wg_services_settings *set = wg_arena_alloc(arena, sizeof(*set));
	const struct wg_node *mode = wg_path_get(p->root,
						 "windows.network.mode");
	const char *field = "windows.network.mode", *hint;
	struct wg_buf all = WG_BUF_INIT;
	int rc = 0;

	*set = wg_services_defaults;
	set->dsr = flag(p, "windows.network.dsr", set->dsr);
	set->fix = flag(p, "windows.services.fix", set->fix);
	if (wg_is_scalar(mode) && !wg_node_is_null(mode))
		set->mode = wg_scalar_dup(arena, mode);
	for (size_t i = 0; i < NMODES; i++)
		if (strcmp(set->mode, modes[i]) == 0)
			goto done;
	hint = wg_suggest(set->mode, modes, NMODES);
	if (hint) {
		rc = wg_profile_report_setting(ctx, p, WG_SEV_ERROR, NULL,
					       field, "unknown network mode "
					       "'%s'; did you mean '%s'?",
					       set->mode, hint);
	} else {
		for (size_t i = 0; i < NMODES; i++)
			wg_buf_addf(&all, "%s%s", i ? ", " : "", modes[i]);
		rc = wg_profile_report_setting(ctx, p, WG_SEV_ERROR, NULL,
					       field, "unknown network mode "
					       "'%s' (one of: %s)", set->mode,
					       all.buf);
		wg_buf_release(&all);
	}
done:
	*out = set;
	return rc;
}

static struct wg_node *bool_node(struct wg_arena *a, bool v)
{
	return wg_node_new_plain(a, v ? "true" : "false");
}

static void write_settings(const void *settings, struct wg_arena *a,
			   struct wg_node *root)
{
	const struct wg_services_settings *set = settings;
	struct wg_node *w = wg_map_ensure_map(a, root, "windows"), *m;

	if (!w)
		return;
	m = wg_map_set(a, w, "network", wg_node_new_map(a));
	wg_map_set(a, m, "dsr", bool_node(a, set->dsr));
	wg_map_set(a, m, "mode", wg_node_new_str(a, set->mode));
	m = wg_map_set(a, w, "services", wg_node_new_map(a));
	wg_map_set(a, m, "fix", bool_node(a, set->fix));
}

const struct wg_plugin wg_tx_services = {
	.name = "services",
	.summary = "check (and with windows.services.fix, fix) Services that "
		   "front Windows pods",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_list = run,
	.prepare = tx_prepare,
	.settings = settings,
	.write_settings = write_settings,
	.setting_values = setting_values,
};
