/*
 * Loading a profile: read the file, build its node tree (for positions and
 * for what libcyaml cannot express), check the tree against the schema,
 * load it with libcyaml, then check its meaning (profile_check.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/input.h"
#include "wingen/yaml/reader.h"
#include "wingen/base/template.h"
#include "wingen/yaml/writer.h"

static char *dirname_of(struct wg_arena *arena, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return wg_arena_strdup(arena, ".");
	if (slash == path)
		return wg_arena_strdup(arena, "/");
	return wg_arena_strndup(arena, path, (size_t)(slash - path));
}

/* Parses data (copied into p's arena, which the tree then points into). */
static struct wg_node *parse(struct wg_ctx *ctx, struct wg_profile *p,
			     const char *file, const char *data, size_t len)
{
	struct wg_input in = {
		(char *)file, wg_arena_strndup(&p->arena, data, len), len, 0,
		WG_FILE_META_NONE, false,
	};
	struct wg_reader r;
	struct wg_node *root = NULL, *extra = NULL;
	unsigned index;
	int rc;

	wg_reader_init(&r, ctx, &in);
	rc = wg_reader_next(&r, &p->arena, &root, &index);
	if (rc == 0 || (rc == 1 && wg_node_is_null(root))) {
		wg_report_at(ctx, WG_SEV_ERROR, file, 0, 0,
			     "the profile is empty");
		root = NULL;
	} else if (rc == 1 && wg_reader_next(&r, &p->arena, &extra,
					     &index) == 1) {
		wg_report_at(ctx, WG_SEV_ERROR, file, wg_node_line(extra) + 1,
			     wg_node_col(extra) + 1, "a profile is one YAML document; "
			     "this is a second one");
		root = NULL;
	}
	if (rc < 0 || r.failed)
		root = NULL;
	wg_reader_release(&r);
	return root;
}

/*
 * The passes find problems in their own order; they are shown in the
 * order of the file (a stable sort: one position keeps its order).
 */
static void sort_diags(struct wg_log *log, size_t first)
{
	for (size_t i = first + 1; i < log->ndiags; i++) {
		struct wg_diag d = log->diags[i];
		size_t j = i;

		while (j > first && (log->diags[j - 1].line > d.line
				     || (log->diags[j - 1].line == d.line
					 && log->diags[j - 1].col > d.col))) {
			log->diags[j] = log->diags[j - 1];
			j--;
		}
		log->diags[j] = d;
	}
}

/*
 * libcyaml loads the tree as checked, written out again: aliases expanded
 * and "<<" merges resolved as the reader did them (libcyaml would skip a
 * merge key as unknown), so both passes see the same profile.  Positions
 * of any libcyaml error come from the tree, i.e. the file.
 */
static int load_tree(struct wg_ctx *ctx, struct wg_profile_loader *L,
		     struct raw_profile **raw)
{
	struct wg_buf text = WG_BUF_INIT;
	struct wg_yaml_writer w;
	int rc;

	wg_yaml_writer_init(&w, &text);
	rc = wg_yaml_writer_doc(&w, L->root) || wg_yaml_writer_finish(&w);
	if (rc)
		wg_report_at(ctx, WG_SEV_ERROR, L->file, 0, 0, "cannot write "
			     "the profile for libcyaml: %s", w.error);
	wg_yaml_writer_release(&w);
	if (!rc)
		rc = wg_profile_cyaml_load(ctx, L->file, text.buf, text.len,
					   L->root, raw);
	wg_buf_release(&text);
	return rc ? -1 : 0;
}

static int load(struct wg_ctx *ctx, const char *path, const char *data,
		size_t len, const struct wg_profile_opts *opts,
		struct wg_profile *out)
{
	struct wg_profile p;
	struct wg_profile_loader L = { .ctx = ctx, .opts = opts, .p = &p };
	struct raw_profile *raw = NULL;
	size_t errors = ctx->log.counts[WG_SEV_ERROR];
	size_t first = ctx->log.ndiags;

	memset(&p, 0, sizeof(p));
	wg_arena_init(&p.arena);
	p.path = wg_arena_strdup(&p.arena, path);
	p.dir = strcmp(path, "-") == 0 || path[0] == '<'
		? wg_arena_strdup(&p.arena, ".") : dirname_of(&p.arena, path);
	p.load_restrictor_none = opts && opts->load_restrictor_none;
	L.file = p.path;
	L.root = parse(ctx, &p, p.path, data, len);
	if (L.root) {
		wg_profile_check_tree(&L);
		if (!L.fatal && load_tree(ctx, &L, &raw) == 0) {
			wg_profile_check(&L, raw);
			wg_profile_cyaml_free(raw);
			p.root = L.root;
			if (opts && opts->resolve_chain)
				opts->resolve_chain(ctx, &p);
		}
	}
	sort_diags(&ctx->log, first);
	if (ctx->log.counts[WG_SEV_ERROR] > errors) {
		wg_profile_release(&p);
		return -1;
	}
	*out = p;
	return 0;
}

int wg_profile_load(struct wg_ctx *ctx, const char *path,
		    const struct wg_profile_opts *opts,
		    struct wg_profile *out)
{
	struct wg_input in;
	int rc;

	if (wg_input_read(ctx, path, &in))
		return -1;
	/* in.name: stdin is "<stdin>" in messages, its folder "." */
	rc = load(ctx, in.name, in.data, in.len, opts, out);
	wg_input_release(&in);
	return rc;
}

int wg_profile_load_data(struct wg_ctx *ctx, const char *name,
			 const char *data, size_t len,
			 const struct wg_profile_opts *opts,
			 struct wg_profile *out)
{
	return load(ctx, name, data, len, opts, out);
}

int wg_profile_load_default(struct wg_ctx *ctx,
			    const struct wg_profile_opts *opts,
			    struct wg_profile *out)
{
	const struct wg_template *t = wg_template_find(WG_PROFILE_DEFAULT);

	if (!t)
		return wg_report_at(ctx, WG_SEV_ERROR, WG_PROFILE_EMBEDDED_PATH,
				    0, 0,
				    "the default profile is not embedded");
	return load(ctx, WG_PROFILE_EMBEDDED_PATH, t->data, t->len, opts, out);
}


void wg_profile_release(struct wg_profile *p)
{
	for (size_t i = 0; p->select && i < p->nselect; i++) {
		wg_regex_release(p->select[i].name);
		wg_regex_release(p->select[i].namespace_);
		wg_regex_release(p->select[i].image);
	}
	for (size_t i = 0; p->images && i < p->nimages; i++)
		wg_regex_release(&p->images[i].match);
	wg_arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

int wg_profile_read_template(struct wg_ctx *ctx, const struct wg_profile *p,
			     const char *name, struct wg_input *in)
{
	char real[PATH_MAX], root[PATH_MAX];
	struct wg_buf path = WG_BUF_INIT;
	int rc;

	memset(in, 0, sizeof(*in));
	if (!p || !p->templates_path)
		return 0;
	wg_buf_addf(&path, "%s/%s", p->templates_path, name);
	if (!realpath(path.buf, real)) {
		rc = errno == ENOENT ? 0
		     : wg_report_at(ctx, WG_SEV_ERROR, path.buf, 0, 0,
				    "cannot resolve: %s", strerror(errno));
		wg_buf_release(&path);
		return rc;
	}
	/* The folder was checked at load; a link inside it may still lead
	 * elsewhere, so the file must resolve to inside the folder. */
	if (!p->load_restrictor_none) {
		size_t n;

		if (!realpath(p->templates_path, root)) {
			rc = wg_report_at(ctx, WG_SEV_ERROR, p->templates_path,
					  0, 0, "cannot resolve: %s",
					  strerror(errno));
			wg_buf_release(&path);
			return rc;
		}
		n = strlen(root);
		if (strcmp(root, "/") != 0
		    && (strncmp(real, root, n) != 0 || real[n] != '/')) {
			rc = wg_report_at(ctx, WG_SEV_ERROR, path.buf, 0, 0,
					  "the template leads outside its "
					  "folder (allow it with "
					  "--load-restrictor none)");
			wg_buf_release(&path);
			return rc;
		}
	}
	rc = wg_input_read(ctx, path.buf, in) ? -1 : 1;
	wg_buf_release(&path);
	return rc;
}
