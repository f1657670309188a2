#include "wingen/base/diag.h"

#include "wingen/base/buf.h"

#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"

void wg_log_init(struct wg_log *log)
{
	memset(log, 0, sizeof(*log));
	wg_arena_init(&log->arena);
}

void wg_log_release(struct wg_log *log)
{
	free(log->diags);
	free(log->changes);
	wg_arena_release(&log->arena);
	wg_log_init(log);
}

static const char *dup(struct wg_log *log, const char *s)
{
	return wg_arena_strdup(&log->arena, s);
}

/*
 * Changes come in runs: several about one object, by one plugin, for one
 * reason.  A string equal to the one the record before holds in the same
 * place is shared with it (the log's strings are never changed in place),
 * so a run of them costs one copy: a change on every object of a large
 * stream would otherwise copy its names once per change.
 */
static const char *dup_like(struct wg_log *log, const char *s,
			    const char *prev)
{
	if (s && prev && (s == prev || strcmp(s, prev) == 0))
		return prev;
	return dup(log, s);
}

static void copy_ref_like(struct wg_log *log, struct wg_ref *dst,
			  const struct wg_ref *src, const struct wg_ref *prev)
{
	static const struct wg_ref none;

	if (!prev)
		prev = &none;
	dst->api_version = dup_like(log, src->api_version, prev->api_version);
	dst->kind = dup_like(log, src->kind, prev->kind);
	dst->name = dup_like(log, src->name, prev->name);
	dst->namespace_ = dup_like(log, src->namespace_, prev->namespace_);
	dst->file = dup_like(log, src->file, prev->file);
	dst->index = src->index;
}

void wg_log_copy_ref(struct wg_log *log, struct wg_ref *dst,
		     const struct wg_ref *src)
{
	copy_ref_like(log, dst, src, NULL);
}

void wg_log_add_diag(struct wg_log *log, const struct wg_diag *d)
{
	struct wg_diag *c;

	WG_GROW(log->diags, log->diags_cap, log->ndiags + 1);
	c = &log->diags[log->ndiags++];
	*c = *d;
	c->file = dup(log, d->file);
	c->field = dup(log, d->field);
	c->message = dup(log, d->message ? d->message : "");
	wg_log_copy_ref(log, &c->ref, &d->ref);
	if ((unsigned)d->severity < 3)
		log->counts[d->severity]++;
}

void wg_log_extend_message(struct wg_log *log, size_t i, const char *more)
{
	struct wg_diag *d = &log->diags[i];

	d->message = wg_arena_printf(&log->arena, "%s%s", d->message, more);
}

void wg_log_add_change(struct wg_log *log, const struct wg_change *ch)
{
	static const struct wg_change none;
	const struct wg_change *prev;
	struct wg_change *c;

	WG_GROW(log->changes, log->changes_cap, log->nchanges + 1);
	prev = log->nchanges ? &log->changes[log->nchanges - 1] : &none;
	c = &log->changes[log->nchanges++];
	*c = *ch;
	if (log->refs_only) {
		c->file = c->field = c->old_value = c->new_value = NULL;
		c->plugin = c->reason = NULL;
		copy_ref_like(log, &c->ref, &ch->ref, &prev->ref);
		return;
	}
	c->file = dup_like(log, ch->file, prev->file);
	c->field = dup_like(log, ch->field, prev->field);
	c->old_value = dup_like(log, ch->old_value, prev->old_value);
	c->new_value = dup_like(log, ch->new_value, prev->new_value);
	c->plugin = dup_like(log, ch->plugin, prev->plugin);
	c->reason = dup_like(log, ch->reason, prev->reason);
	copy_ref_like(log, &c->ref, &ch->ref, &prev->ref);
}

const char *wg_severity_name(enum wg_severity s)
{
	switch (s) {
	case WG_SEV_ERROR:
		return "error";
	case WG_SEV_WARNING:
		return "warning";
	default:
		return "info";
	}
}

void wg_ref_append(struct wg_buf *out, const struct wg_ref *ref,
		   const char *field)
{
	if (ref->kind || ref->name) {
		wg_buf_addf(out, "%s/", ref->kind ? ref->kind : "?");
		if (ref->namespace_)
			wg_buf_addf(out, "%s/", ref->namespace_);
		wg_buf_addf(out, "%s: ", ref->name ? ref->name : "?");
	}
	if (field)
		wg_buf_addf(out, "%s: ", field);
}

void wg_ref_print(FILE *out, const struct wg_ref *ref, const char *field)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_ref_append(&b, ref, field);
	fputs(b.buf, out);
	wg_buf_release(&b);
}

void wg_diag_print(FILE *out, const struct wg_diag *d)
{
	if (d->file) {
		fputs(d->file, out);
		if (d->line)
			fprintf(out, ":%u:%u", (unsigned)d->line,
				(unsigned)(d->col ? d->col : 1));
		fputs(": ", out);
	} else {
		fputs("wingen: ", out);
	}
	fprintf(out, "%s: ", wg_severity_name(d->severity));
	wg_ref_print(out, &d->ref, d->field);
	fprintf(out, "%s\n", d->message);
}

void wg_log_print(FILE *out, const struct wg_log *log,
		  enum wg_severity worst_shown)
{
	for (size_t i = 0; i < log->ndiags; i++)
		if (log->diags[i].severity <= worst_shown)
			wg_diag_print(out, &log->diags[i]);
}
