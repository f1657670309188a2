/*
 * build --diff and --check: each object as it was read and as the chain
 * left it, both written by the YAML writer (so only what the chain changed
 * shows, not the input's formatting), compared object by object.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "wingen/base/udiff.h"

/* An object as read: the resource's payload during a --diff run. */
struct before {
	const char *text;
	size_t len;
};

static void render(struct wg_buf *out, const struct wg_node *root)
{
	struct wg_yaml_writer w;

	/* The trees came from libyaml, or were built of valid nodes: the
	 * writer cannot fail on them (as wg_cli_emit() relies on too). */
	wg_yaml_writer_init(&w, out);
	if (wg_yaml_writer_doc(&w, root) == 0)
		wg_yaml_writer_finish(&w);
	wg_yaml_writer_release(&w);
}

void wg_cli_snapshot(struct wg_resources *list)
{
	struct wg_buf text = WG_BUF_INIT;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		struct before *b = wg_arena_alloc(&list->arena, sizeof(*b));

		wg_buf_reset(&text);
		render(&text, res->root);
		b->text = wg_arena_strndup(&list->arena, text.buf, text.len);
		b->len = text.len;
		res->payload = b;
	}
	wg_buf_release(&text);
}

/* "a/deploy.yaml (Deployment/web)"; stdin is "<stdin>" as in every
 * message, a generated object "(generated)". */
static const char *label(struct wg_arena *arena, char side,
			 const struct wg_resource *res)
{
	const char *file = res->file ? res->file : "(generated)";

	return wg_arena_printf(arena, "%c/%s (%s)", side, file,
			       wg_resource_label(arena, res));
}

size_t wg_cli_diff(const struct wg_resources *list, struct wg_buf *diff,
		   struct wg_buf *changed)
{
	struct wg_arena arena = WG_ARENA_INIT;
	struct wg_buf after = WG_BUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		const struct before *b = res->payload;
		bool gone = res->flags & WG_RES_DELETED;
		const char *old_label, *new_label;

		if (gone && !b)
			continue;	/* made and dropped by the chain */
		wg_buf_reset(&after);
		if (!gone)
			render(&after, res->root);
		if (b && !gone && b->len == after.len
		    && memcmp(b->text, after.buf, after.len) == 0)
			continue;
		old_label = b ? label(&arena, 'a', res) : "/dev/null";
		new_label = gone ? "/dev/null" : label(&arena, 'b', res);
		if (diff)
			wg_udiff_labeled(diff, old_label, new_label,
					 b ? b->text : NULL, b ? b->len : 0,
					 gone ? NULL : after.buf,
					 gone ? 0 : after.len, 3);
		if (changed)
			wg_buf_addf(changed, "  %s %s\n",
				    !b ? "new" : gone ? "deleted" : "changed",
				    label(&arena, b ? 'a' : 'b', res) + 2);
		n++;
	}
	wg_buf_release(&after);
	wg_arena_release(&arena);
	return n;
}
