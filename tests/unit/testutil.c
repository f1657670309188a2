#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/yaml/reader.h"
#include "wingen/yaml/writer.h"

void t_input(struct wg_input *in, const char *name, const char *text)
{
	memset(in, 0, sizeof(*in));	/* owned text, no meta: all zero */
	in->name = wg_xstrdup(name);
	in->len = strlen(text);
	in->data = wg_xstrndup(text, in->len);
}

int t_read(struct wg_ctx *ctx, struct wg_input *in, const char *text,
	   struct wg_resources *list)
{
	t_input(in, "test.yaml", text);
	return wg_read_stream(ctx, in, list);
}

char *t_write(struct wg_ctx *ctx, const struct wg_resources *list)
{
	struct wg_buf out = WG_BUF_INIT;

	if (wg_write_resources(ctx, &out, list, WG_FORMAT_YAML)) {
		wg_buf_release(&out);
		return NULL;
	}
	return wg_buf_detach(&out, NULL);
}

char *t_roundtrip(const char *text)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	char *out = NULL;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	if (t_read(&ctx, &in, text, &list) == 0)
		out = t_write(&ctx, &list);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
	return out;
}

const char *t_first_message(const struct wg_ctx *ctx)
{
	return ctx->log.ndiags ? ctx->log.diags[0].message : "";
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && strcmp(s + len - n, suffix) == 0;
}

int t_corpus_next(DIR *d, char *path, size_t size)
{
	struct dirent *e;

	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (ends_with(e->d_name, len, ".yaml")
		    || ends_with(e->d_name, len, ".yml")) {
			snprintf(path, size, "%s/%s", WG_CORPUS, e->d_name);
			return 1;
		}
	}
	return 0;
}

size_t t_each_corpus_file(void (*fn)(const char *path,
				     const struct wg_input *in, void *data),
			  void *data)
{
	DIR *d = opendir(WG_CORPUS);
	char path[1024];
	size_t files = 0;

	if (!d)
		return 0;
	while (t_corpus_next(d, path, sizeof(path))) {
		struct wg_ctx ctx;
		struct wg_input in;

		wg_ctx_init(&ctx);
		ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
		fn(path, &in, data);
		wg_input_release(&in);
		wg_ctx_release(&ctx);
		files++;
	}
	closedir(d);
	return files;
}

void t_tmpdir(char *dir, size_t size, const char *tag)
{
	snprintf(dir, size, "/tmp/wingen-%s-XXXXXX", tag);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

void t_tmpdir_remove(const char *dir)
{
	char cmd[128];

	ck_assert_uint_lt(strlen(dir), sizeof(cmd) - 16);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
