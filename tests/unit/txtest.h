#ifndef WINGEN_TXTEST_H
#define WINGEN_TXTEST_H

/*
 * Helpers for the selection and workload-transform suites: a profile built
 * by hand (so each test says exactly what it selects) and a run of named
 * plugins over a YAML text.  Header-only: each suite is one executable.
 */

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/chain/registry.h"
#include "wingen/core/pipeline.h"
#include "wingen/profile/profile.h"
#include "wingen/base/regex.h"
#include "wingen/core/select.h"
#include "wingen/transforms/linux_pin.h"
#include "wingen/transforms/services.h"

#define TP_MAX 8

struct tp {
	struct wg_profile p;
	struct wg_build builds[TP_MAX];
	struct wg_select sel[TP_MAX];
	const struct wg_build *sel_builds[TP_MAX][TP_MAX];
	struct wg_regex re[3 * TP_MAX];
	size_t nre;
	struct wg_label_selector ls[2 * TP_MAX];
	size_t nls;
	/* the plugins' settings (their configs in tr_run) */
	struct wg_linux_pin_settings pin;
	struct wg_services_settings svc;
};

/* A build of release (catalog name) and arch; its RuntimeClass is
 * windows-<release>[-<arch> when not amd64]. */
static inline struct wg_build *tp_build(struct tp *tp, const char *release,
					const char *arch)
{
	struct wg_build *b = &tp->builds[tp->p.nbuilds++];

	ck_assert_uint_le(tp->p.nbuilds, TP_MAX);
	b->release = wg_release_find(release);
	ck_assert_ptr_nonnull(b->release);
	b->arch = arch;
	b->handler = "runhcs-wcow-process";
	b->runtime_class = strcmp(arch, "amd64") == 0
		? wg_arena_printf(&tp->p.arena, "windows-%s", release)
		: wg_arena_printf(&tp->p.arena, "windows-%s-%s", release, arch);
	b->pos.line = 5 + (uint32_t)tp->p.nbuilds;
	b->pos.col = 7;
	return b;
}

/* ltsc2022/amd64 (the default), taint os=windows:NoSchedule, the plugins'
 * default settings (linux.pin), no select entries. */
static inline void tp_init(struct tp *tp)
{
	memset(tp, 0, sizeof(*tp));
	wg_arena_init(&tp->p.arena);
	tp->p.path = "profile.yaml";
	tp->p.dir = ".";
	tp->p.name = "test";
	tp->p.builds = tp->builds;
	tp_build(tp, "ltsc2022", "amd64");
	tp->p.default_build = &tp->builds[0];
	tp->p.taint.key = "os";
	tp->p.taint.value = "windows";
	tp->p.taint.effect = "NoSchedule";
	tp->p.select = tp->sel;
	tp->pin = wg_linux_pin_defaults;
	tp->svc = wg_services_defaults;
}

static inline struct wg_select *tp_select(struct tp *tp)
{
	struct wg_select *s = &tp->sel[tp->p.nselect];

	s->pos.line = 20 + 2 * (uint32_t)tp->p.nselect;
	s->pos.col = 7;
	tp->p.nselect++;
	ck_assert_uint_le(tp->p.nselect, TP_MAX);
	return s;
}

/* A compiled pattern; limit 0 means the default match limit. */
static inline struct wg_regex *tp_re_limit(struct tp *tp, const char *pat,
					   bool anchored, uint32_t limit)
{
	struct wg_regex *re = &tp->re[tp->nre++];
	const char *err = NULL;
	size_t off = 0;

	ck_assert_int_eq(wg_regex_compile(re, pat, anchored,
					  limit ? limit : 1000000, 10000,
					  &tp->p.arena, &err, &off), 0);
	return re;
}

static inline struct wg_regex *tp_re(struct tp *tp, const char *pat,
				     bool anchored)
{
	return tp_re_limit(tp, pat, anchored, 0);
}

static inline struct wg_label_selector *tp_ls(struct tp *tp, const char *s)
{
	struct wg_label_selector *ls = &tp->ls[tp->nls++];
	const char *err = NULL;
	size_t off = 0;

	ck_assert_int_eq(wg_label_selector_parse(&tp->p.arena, s, ls, &err,
						 &off), 0);
	return ls;
}

/* select entry: image pattern only (the common case). */
static inline struct wg_select *tp_select_image(struct tp *tp,
						const char *pat)
{
	struct wg_select *s = tp_select(tp);

	s->image = tp_re(tp, pat, false);
	return s;
}

static inline void tp_entry_builds(struct tp *tp, struct wg_select *s,
				   const struct wg_build *b)
{
	size_t i = (size_t)(s - tp->sel);

	tp->sel_builds[i][s->nbuilds++] = b;
	s->builds = tp->sel_builds[i];
}

static inline void tp_release(struct tp *tp)
{
	for (size_t i = 0; i < tp->nre; i++)
		wg_regex_release(&tp->re[i]);
	wg_arena_release(&tp->p.arena);
}

/* ---- running plugins ---------------------------------------------------- */

struct tr {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char *out;	/* the output YAML; NULL when the run failed */
};

/*
 * Reads yaml, runs the plugins named (a space-separated list; "all" for
 * the six workload transforms in the default order) with tp's profile and
 * writes the result into r->out when nothing failed.
 */
static inline void tr_run_strict(struct tr *r, struct tp *tp,
				 const char *yaml, const char *plugins,
				 bool strict)
{
	struct wg_step steps[16];
	struct wg_chain chain = { steps, 0 };
	char *names;

	if (strcmp(plugins, "all") == 0)
		plugins = "node-selector tolerations runtime-class-name "
			  "pod-os windows-security linux-pin";
	names = strdup(plugins);
	for (char *s = strtok(names, " "); s; s = strtok(NULL, " ")) {
		steps[chain.len].plugin = wg_plugin_find(s);
		ck_assert_msg(steps[chain.len].plugin, "no plugin %s", s);
		steps[chain.len].config = NULL;
		if (tp && strcmp(s, "linux-pin") == 0)
			steps[chain.len].config = &tp->pin;
		if (tp && strcmp(s, "services") == 0)
			steps[chain.len].config = &tp->svc;
		chain.len++;
	}
	free(names);
	wg_ctx_init(&r->ctx);
	r->ctx.strict = strict;
	r->ctx.profile = tp ? &tp->p : NULL;
	wg_resources_init(&r->list);
	r->out = NULL;
	ck_assert_int_eq(t_read(&r->ctx, &r->in, yaml, &r->list), 0);
	ck_assert_int_eq(wg_pipeline_run(&r->ctx, &r->list, &chain), 0);
	if (!wg_ctx_failed(&r->ctx))
		r->out = t_write(&r->ctx, &r->list);
}

static inline void tr_run(struct tr *r, struct tp *tp, const char *yaml,
			  const char *plugins)
{
	tr_run_strict(r, tp, yaml, plugins, false);
}

static inline void tr_free(struct tr *r)
{
	free(r->out);
	wg_resources_release(&r->list);
	wg_input_release(&r->in);
	wg_ctx_release(&r->ctx);
}

/* The first diagnostic of severity sev whose message contains s. */
static inline const struct wg_diag *tr_diag(const struct tr *r,
					    enum wg_severity sev,
					    const char *s)
{
	for (size_t i = 0; i < r->ctx.log.ndiags; i++) {
		const struct wg_diag *d = &r->ctx.log.diags[i];

		if (d->severity == sev && strstr(d->message, s))
			return d;
	}
	return NULL;
}

static inline size_t tr_count(const struct tr *r, enum wg_severity sev)
{
	return r->ctx.log.counts[sev];
}

/* The first change to field (exact path), or NULL. */
static inline const struct wg_change *tr_change(const struct tr *r,
						const char *field)
{
	for (size_t i = 0; i < r->ctx.log.nchanges; i++) {
		const struct wg_change *c = &r->ctx.log.changes[i];

		if (c->field && strcmp(c->field, field) == 0)
			return c;
	}
	return NULL;
}

/* Asserts that running plugins over out changes nothing (idempotence). */
static inline void tr_assert_idempotent(struct tp *tp, const char *out,
					const char *plugins)
{
	struct tr again;

	tr_run(&again, tp, out, plugins);
	ck_assert_ptr_nonnull(again.out);
	ck_assert_str_eq(again.out, out);
	ck_assert_uint_eq(again.ctx.log.nchanges, 0);
	tr_free(&again);
}

#endif
