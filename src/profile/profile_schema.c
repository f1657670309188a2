/*
 * The profile's libcyaml schema, the check of the node tree against that
 * same schema (so every unknown key and wrong type is reported, with a
 * position, not only the first one libcyaml stops at), and the libcyaml
 * load with its log routed into the diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"

/* ---- schema ------------------------------------------------------------- */

#define OPT (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER)
#define STR(key, type, member) \
	CYAML_FIELD_STRING_PTR(key, OPT, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t metadata_fields[] = {
	STR("name", struct raw_metadata, name),
	/* As on any Kubernetes-style object; wingen does not read them. */
	CYAML_FIELD_IGNORE("labels", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_IGNORE("annotations", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t build_fields[] = {
	STR("release", struct raw_build, release),
	STR("build", struct raw_build, build),
	STR("arch", struct raw_build, arch),
	STR("handler", struct raw_build, handler),
	STR("runtimeClass", struct raw_build, runtime_class),
	CYAML_FIELD_IGNORE("overhead", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t build_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_build, build_fields),
};

static const cyaml_schema_field_t taint_fields[] = {
	STR("key", struct raw_taint, key),
	STR("value", struct raw_taint, value),
	STR("effect", struct raw_taint, effect),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t select_fields[] = {
	CYAML_FIELD_SEQUENCE("kinds", OPT, struct raw_select, kinds,
			     &string_entry, 0, CYAML_UNLIMITED),
	STR("name", struct raw_select, name),
	STR("namespace", struct raw_select, namespace_),
	STR("image", struct raw_select, image),
	STR("labelSelector", struct raw_select, label_selector),
	STR("annotationSelector", struct raw_select, annotation_selector),
	CYAML_FIELD_SEQUENCE("builds", OPT, struct raw_select, builds,
			     &string_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t select_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_select,
			    select_fields),
};

static const cyaml_schema_field_t image_fields[] = {
	STR("match", struct raw_image_rule, match),
	STR("replace", struct raw_image_rule, replace),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t image_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_image_rule,
			    image_fields),
};

static const cyaml_schema_field_t network_fields[] = {
	CYAML_FIELD_BOOL("dsr", CYAML_FLAG_OPTIONAL, struct raw_network, dsr),
	STR("mode", struct raw_network, mode),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t services_fields[] = {
	CYAML_FIELD_BOOL("fix", CYAML_FLAG_OPTIONAL, struct raw_services, fix),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t windows_fields[] = {
	CYAML_FIELD_SEQUENCE("builds", OPT, struct raw_windows, builds,
			     &build_entry, 0, CYAML_UNLIMITED),
	STR("default", struct raw_windows, default_),
	CYAML_FIELD_MAPPING_PTR("taint", OPT, struct raw_windows, taint,
				taint_fields),
	CYAML_FIELD_SEQUENCE("select", OPT, struct raw_windows, select,
			     &select_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("images", OPT, struct raw_windows, images,
			     &image_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("network", OPT, struct raw_windows, network,
				network_fields),
	CYAML_FIELD_MAPPING_PTR("services", OPT, struct raw_windows, services,
				services_fields),
	/* a mapping of releases to builds: read from the node tree
	 * (profile_retarget.c), its keys are not a schema's */
	CYAML_FIELD_IGNORE("retarget", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t linux_fields[] = {
	CYAML_FIELD_BOOL_PTR("pin", OPT, struct raw_linux, pin),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t workload_fields[] = {
	STR("group", struct raw_workload, group),
	STR("kind", struct raw_workload, kind),
	CYAML_FIELD_SEQUENCE("templates", OPT, struct raw_workload, templates,
			     &string_entry, 0, CYAML_UNLIMITED),
	STR("selector", struct raw_workload, selector),
	STR("replicas", struct raw_workload, replicas),
	CYAML_FIELD_BOOL_PTR("nodeAgent", OPT, struct raw_workload,
			     node_agent),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t workload_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_workload,
			    workload_fields),
};

static const cyaml_schema_field_t profile_fields[] = {
	CYAML_FIELD_STRING_PTR("apiVersion", CYAML_FLAG_POINTER,
			       struct raw_profile, api_version, 0,
			       CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("kind", CYAML_FLAG_POINTER, struct raw_profile,
			       kind, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("metadata", OPT, struct raw_profile, metadata,
				metadata_fields),
	CYAML_FIELD_SEQUENCE("resources", OPT, struct raw_profile, resources,
			     &string_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("windows", OPT, struct raw_profile, windows,
				windows_fields),
	CYAML_FIELD_MAPPING_PTR("linux", OPT, struct raw_profile, linux_,
				linux_fields),
	STR("templates", struct raw_profile, templates),
	CYAML_FIELD_IGNORE("transforms", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_SEQUENCE("workloads", OPT, struct raw_profile, workloads,
			     &workload_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

const cyaml_schema_value_t wg_profile_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_profile,
			    profile_fields),
};

/* ---- the tree check ----------------------------------------------------- */

static const char *kind_name(const struct wg_node *n)
{
	if (wg_node_is_null(n))
		return "null";
	switch (n->kind) {
	case WG_NODE_MAP:
		return "a mapping";
	case WG_NODE_SEQ:
		return "a sequence";
	default:
		return "a scalar";
	}
}

static const char *want_name(enum cyaml_type type)
{
	switch (type) {
	case CYAML_MAPPING:
		return "a mapping";
	case CYAML_SEQUENCE:
		return "a sequence";
	case CYAML_BOOL:
		return "true or false";
	default:
		return "a string";
	}
}

/*
 * libcyaml 1.3.1 reads every boolean other than false/no/disable/0 as true
 * ("off" would be true), so only the YAML 1.2 spellings get through.
 */
static bool is_bool(const struct wg_node *n)
{
	static const char *const ok[] = {
		"true", "True", "TRUE", "false", "False", "FALSE",
	};

	if (!wg_is_scalar(n) || n->style != WG_STYLE_PLAIN)
		return false;
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		if (wg_scalar_is(n, ok[i]))
			return true;
	return false;
}

static void check_value(struct wg_profile_loader *L, const struct wg_node *n,
			const cyaml_schema_value_t *schema,
			struct wg_buf *path);

static void check_mapping(struct wg_profile_loader *L, const struct wg_node *n,
			  const cyaml_schema_field_t *fields,
			  struct wg_buf *path)
{
	const char *names[32];
	size_t nnames = 0, mark = path->len;

	for (const cyaml_schema_field_t *f = fields; f->key; f++)
		if (nnames < 32)
			names[nnames++] = f->key;
	for (size_t i = 0; i < n->len; i++) {
		const struct wg_node *k = wg_map_key(n, i);
		const cyaml_schema_field_t *f = fields;

		while (f->key && !wg_scalar_is(k, f->key))
			f++;
		wg_path_append_key(path, k->u.str, k->len);
		if (!f->key) {
			char *key = wg_arena_strndup(&L->p->arena, k->u.str,
						     k->len);
			const char *hint = wg_suggest(key, names, nnames);

			if (hint)
				wg_profile_report(L, WG_SEV_ERROR, k, path->buf,
						  "unknown key '%s'; did you "
						  "mean '%s'?", key, hint);
			else
				wg_profile_report(L, WG_SEV_ERROR, k, path->buf,
						  "unknown key '%s'", key);
		} else if (f->value.type != CYAML_IGNORE) {
			check_value(L, wg_map_value(n, i), &f->value, path);
		}
		path->len = mark;
		path->buf[mark] = '\0';
	}
	for (const cyaml_schema_field_t *f = fields; f->key; f++)
		if (!(f->value.flags & CYAML_FLAG_OPTIONAL)
		    && wg_map_find(n, f->key) < 0) {
			wg_profile_report(L, WG_SEV_ERROR, n,
					  path->len ? path->buf : NULL,
					  "missing required key '%s'", f->key);
			L->fatal = true;
		}
}

static void check_value(struct wg_profile_loader *L, const struct wg_node *n,
			const cyaml_schema_value_t *schema, struct wg_buf *path)
{
	enum cyaml_type type = schema->type;
	bool ok;

	switch (type) {
	case CYAML_MAPPING:
		ok = wg_is_map(n);
		break;
	case CYAML_SEQUENCE:
		ok = wg_is_seq(n);
		break;
	case CYAML_BOOL:
		ok = is_bool(n);
		break;
	default:
		ok = wg_is_scalar(n) && !wg_node_is_null(n);
		break;
	}
	if (!ok) {
		if (type == CYAML_BOOL && wg_is_scalar(n))
			wg_profile_report(L, WG_SEV_ERROR, n, path->buf,
					  "'%.*s' is not a boolean: write "
					  "true or false", (int)n->len,
					  n->u.str);
		else
			wg_profile_report(L, WG_SEV_ERROR, n, path->buf,
					  "expected %s, not %s",
					  want_name(type), kind_name(n));
		/* libcyaml stops at a collection where a scalar belongs or
		 * the other way round; a bad scalar it reads somehow, and
		 * the load fails on the error reported here anyway. */
		if (!wg_is_scalar(n) || type == CYAML_MAPPING
		    || type == CYAML_SEQUENCE)
			L->fatal = true;
		return;
	}
	if (type == CYAML_MAPPING) {
		check_mapping(L, n, schema->mapping.fields, path);
	} else if (type == CYAML_SEQUENCE) {
		size_t mark = path->len;

		for (size_t i = 0; i < n->len; i++) {
			wg_buf_addf(path, "[%zu]", i);
			check_value(L, wg_seq_item(n, i),
				    schema->sequence.entry, path);
			path->len = mark;
			path->buf[mark] = '\0';
		}
	}
}

void wg_profile_check_tree(struct wg_profile_loader *L)
{
	struct wg_buf path = WG_BUF_INIT;

	check_value(L, L->root, &wg_profile_schema, &path);
	wg_buf_release(&path);
}

/* ---- libcyaml ----------------------------------------------------------- */

struct cyaml_log {
	struct wg_buf text;	/* every line logged during one load */
};

__attribute__((format(printf, 3, 0)))
static void log_sink(cyaml_log_t level, void *ctx, const char *fmt,
		     va_list args)
{
	struct cyaml_log *log = ctx;

	(void)level;
	wg_buf_vaddf(&log->text, fmt, args);
}

static void *mem(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	return wg_xrealloc(ptr, size);
}

static cyaml_config_t config(struct cyaml_log *log)
{
	cyaml_config_t c = {
		.log_fn = log_sink,
		.log_ctx = log,
		.mem_fn = mem,
		.log_level = CYAML_LOG_WARNING,
		/* Unknown keys were reported (every one, with a hint) by the
		 * tree check; here they only need to be skipped. */
		.flags = CYAML_CFG_IGNORE_UNKNOWN_KEYS,
	};

	return c;
}

/*
 * Turns libcyaml's log into one diagnostic.  The log reads
 *   Load: Expecting STRING, got event: SEQUENCE_START
 *   Load: Backtrace:
 *     in mapping field 'release' (line: 4, column: 14)
 *     in sequence entry '2' (line: 4, column: 5)
 *     in mapping field 'builds' (line: 3, column: 3)
 * which becomes "file:4:14: error: builds[1].release: expecting STRING...".
 */
static void route(struct wg_ctx *ctx, const char *file, const char *text,
		  const char *fallback, const struct wg_node *root)
{
	struct wg_buf msg = WG_BUF_INIT, path = WG_BUF_INIT;
	const char *segs[64];
	size_t nsegs = 0;
	unsigned line = 0, col = 0;
	struct wg_diag d = { .severity = WG_SEV_ERROR, .file = file };

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *q;

		if (strncmp(p, "Load: ", 6) == 0 && !msg.len
		    && strncmp(p, "Load: Backtrace:", 16) != 0) {
			wg_buf_add(&msg, p + 6, len - 6);
		} else if ((q = strstr(p, "(line: ")) && q < p + len) {
			if (!line)
				sscanf(q, "(line: %u, column: %u)", &line,
				       &col);
			if (nsegs < 64 && (strstr(p, "in mapping field '")
					   == p + 2
					   || strstr(p, "in sequence entry '")
					   == p + 2))
				segs[nsegs++] = p + 2;
		}
		p += len + (eol != NULL);
	}
	/* The backtrace is innermost first: build the path outermost first. */
	while (nsegs--) {
		const char *s = segs[nsegs], *name = strchr(s, '\'') + 1;
		size_t n = strcspn(name, "'");

		if (strncmp(s, "in mapping field", 16) == 0)
			wg_path_append_key(&path, name, n);
		else
			wg_buf_addf(&path, "[%lu]",
				    strtoul(name, NULL, 10) - 1);
	}
	if (!msg.len)
		wg_buf_addstr(&msg, fallback);
	if (msg.buf[0] >= 'A' && msg.buf[0] <= 'Z'
	    && !(msg.buf[1] >= 'A' && msg.buf[1] <= 'Z'))
		msg.buf[0] = (char)(msg.buf[0] - 'A' + 'a');
	if (root) {
		const struct wg_node *n = wg_profile_nearest(root, path.len
							     ? path.buf : NULL);

		line = wg_node_line(n) + 1;
		col = wg_node_col(n) + 1;
	}
	d.line = line;
	d.col = col;
	d.field = path.len ? path.buf : NULL;
	d.message = msg.buf;
	wg_log_add_diag(&ctx->log, &d);
	wg_buf_release(&msg);
	wg_buf_release(&path);
}

int wg_profile_cyaml_load(struct wg_ctx *ctx, const char *file,
			  const char *data, size_t len,
			  const struct wg_node *root, struct raw_profile **out)
{
	struct cyaml_log log = { WG_BUF_INIT };
	cyaml_config_t cfg = config(&log);
	struct raw_profile *raw = NULL;
	cyaml_err_t err;

	err = cyaml_load_data((const uint8_t *)data, len, &cfg,
			      &wg_profile_schema, (cyaml_data_t **)&raw, NULL);
	if (err != CYAML_OK) {
		route(ctx, file, log.text.buf, cyaml_strerror(err), root);
		wg_buf_release(&log.text);
		return -1;
	}
	wg_buf_release(&log.text);
	*out = raw;
	return 0;
}

void wg_profile_cyaml_free(struct raw_profile *raw)
{
	struct cyaml_log log = { WG_BUF_INIT };
	cyaml_config_t cfg = config(&log);

	cyaml_free(&cfg, &wg_profile_schema, raw, 0);
	wg_buf_release(&log.text);
}
