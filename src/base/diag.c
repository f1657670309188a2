#include "wingen/base/diag.h"

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

void wg_log_copy_ref(struct wg_log *log, struct wg_ref *dst,
		     const struct wg_ref *src)
{
	dst->api_version = dup(log, src->api_version);
	dst->kind = dup(log, src->kind);
	dst->name = dup(log, src->name);
	dst->namespace_ = dup(log, src->namespace_);
	dst->file = dup(log, src->file);
	dst->index = src->index;
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
	struct wg_change *c;

	WG_GROW(log->changes, log->changes_cap, log->nchanges + 1);
	c = &log->changes[log->nchanges++];
	*c = *ch;
	c->file = dup(log, ch->file);
	c->field = dup(log, ch->field);
	c->old_value = dup(log, ch->old_value);
	c->new_value = dup(log, ch->new_value);
	c->plugin = dup(log, ch->plugin);
	c->reason = dup(log, ch->reason);
	wg_log_copy_ref(log, &c->ref, &ch->ref);
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

void wg_ref_print(FILE *out, const struct wg_ref *ref, const char *field)
{
	if (ref->kind || ref->name) {
		fprintf(out, "%s/", ref->kind ? ref->kind : "?");
		if (ref->namespace_)
			fprintf(out, "%s/", ref->namespace_);
		fprintf(out, "%s: ", ref->name ? ref->name : "?");
	}
	if (field)
		fprintf(out, "%s: ", field);
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
