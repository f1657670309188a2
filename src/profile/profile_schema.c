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

/*
 * Each mapping of the profile is one list of keys, K(field, values, flags,
 * text): the libcyaml field the loader reads the key with, and what the
 * profile's JSON Schema (profile_jsonschema.c, docs/profile.schema.json)
 * says of it beyond the field's type: the values it takes (enum
 * wg_key_values), flags (WG_KEY_*) and one line for editors to show.  The
 * list is expanded twice, into the libcyaml fields and into their
 * documentation, so a key is written once.
 */
#define OPT (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER)
#define STR(key, type, member) \
	CYAML_FIELD_STRING_PTR(key, OPT, type, member, 0, CYAML_UNLIMITED)

#define FIELD_OF(field, values, flags, text) field,
#define DOC_OF(field, values, flags, text) { values, flags, text },
#define MAPPING(name, KEYS)						\
	static const cyaml_schema_field_t name##_fields[] = {		\
		KEYS(FIELD_OF) CYAML_FIELD_END				\
	};								\
	static const struct wg_key_doc name##_docs[] = {		\
		KEYS(DOC_OF) { 0, 0, NULL }				\
	}

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define METADATA_KEYS(K)						\
	K(STR("name", struct raw_metadata, name), WG_KV_DNS_SUBDOMAIN, 0, \
	  "The profile's name, a DNS subdomain (default: wingen); "	\
	  "$profile in templates.")					\
	/* As on any Kubernetes-style object; wingen does not read them. */ \
	K(CYAML_FIELD_IGNORE("labels", CYAML_FLAG_OPTIONAL),		\
	  WG_KV_NOT_READ, 0, "Accepted and not read.")		\
	K(CYAML_FIELD_IGNORE("annotations", CYAML_FLAG_OPTIONAL),	\
	  WG_KV_NOT_READ, 0, "Accepted and not read (a KRM "	\
	  "function's config.kubernetes.io/function goes here).")
MAPPING(metadata, METADATA_KEYS);

#define BUILD_KEYS(K)							\
	K(STR("release", struct raw_build, release), WG_KV_RELEASE, 0,	\
	  "A Windows Server release of wingen's catalogue (wingen "	\
	  "builds): a name or alias such as ltsc2022, 2022 or 1809, in " \
	  "any case.  Give release, build or both.")			\
	K(STR("build", struct raw_build, build), WG_KV_BUILD_NUMBER, 0,	\
	  "The build number, 10.0.N (10.0.20348); with release, the "	\
	  "same release.  A number the catalogue does not know is kept " \
	  "with a warning.")						\
	K(STR("arch", struct raw_build, arch), WG_KV_ARCH, 0,		\
	  "kubernetes.io/arch of the build's nodes (default: amd64).")	\
	K(STR("handler", struct raw_build, handler), WG_KV_HANDLER, 0,	\
	  "The CRI runtime handler, a DNS label (default: "		\
	  "runhcs-wcow-process, containerd's on Windows).")		\
	K(STR("runtimeClass", struct raw_build, runtime_class),		\
	  WG_KV_DNS_SUBDOMAIN, 0,					\
	  "The RuntimeClass name (default: windows-<release>, and "	\
	  "-<arch> when not amd64).")					\
	/* read from the node tree (a free-form resource list) */	\
	K(CYAML_FIELD_IGNORE("overhead", CYAML_FLAG_OPTIONAL),		\
	  WG_KV_OVERHEAD, 0,						\
	  "Written to the RuntimeClass's overhead (never to pods): "	\
	  "podFixed, resource names to quantities.")
MAPPING(build, BUILD_KEYS);

static const cyaml_schema_value_t build_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_build, build_fields),
};

#define TAINT_KEYS(K)							\
	K(STR("key", struct raw_taint, key), WG_KV_LABEL_KEY,		\
	  WG_KEY_REQUIRED, "The taint's key (default: os).")		\
	K(STR("value", struct raw_taint, value), WG_KV_LABEL_VALUE, 0,	\
	  "The taint's value (default: windows); without one the "	\
	  "toleration is operator: Exists.")				\
	K(STR("effect", struct raw_taint, effect), WG_KV_EFFECT, 0,	\
	  "The taint's effect (default: NoSchedule).")
MAPPING(taint, TAINT_KEYS);

#define SELECT_KEYS(K)							\
	K(CYAML_FIELD_SEQUENCE("kinds", OPT, struct raw_select, kinds,	\
			       &string_entry, 0, CYAML_UNLIMITED),	\
	  WG_KV_WORKLOAD_KIND, 0,					\
	  "Workload kinds (of the kinds table or of workloads:); none: " \
	  "any workload kind.")						\
	K(STR("name", struct raw_select, name), 0, 0,			\
	  "A PCRE2 pattern matched against metadata.name, anchored "	\
	  "(web-.*).")							\
	K(STR("namespace", struct raw_select, namespace_), 0, 0,	\
	  "A PCRE2 pattern matched against metadata.namespace, "	\
	  "anchored.")							\
	K(STR("image", struct raw_select, image), 0, 0,		\
	  "A PCRE2 pattern searched (not anchored) in every container " \
	  "image.")							\
	K(STR("labelSelector", struct raw_select, label_selector), 0, 0, \
	  "A label selector on the object's labels (app=web, k in (a,b), " \
	  "!k).")							\
	K(STR("annotationSelector", struct raw_select,			\
	      annotation_selector), 0, 0,				\
	  "The same syntax on the object's annotations.")		\
	K(CYAML_FIELD_SEQUENCE("builds", OPT, struct raw_select, builds, \
			       &string_entry, 0, CYAML_UNLIMITED),	\
	  WG_KV_BUILD_OF_PROFILE, 0,					\
	  "Builds of windows.builds the matched workloads target, one " \
	  "copy each (fan-out); none: the default build.")
MAPPING(select, SELECT_KEYS);

static const cyaml_schema_value_t select_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_select,
			    select_fields),
};

#define IMAGE_KEYS(K)							\
	K(STR("match", struct raw_image_rule, match), 0, WG_KEY_REQUIRED, \
	  "A PCRE2 pattern searched in the image.")			\
	K(STR("replace", struct raw_image_rule, replace), 0,		\
	  WG_KEY_REQUIRED,						\
	  "What the match becomes: $1, ${name}, and the copy's "	\
	  "$release, $build and $arch.")
MAPPING(image, IMAGE_KEYS);

static const cyaml_schema_value_t image_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_image_rule,
			    image_fields),
};

#define NETWORK_KEYS(K)							\
	K(CYAML_FIELD_BOOL("dsr", CYAML_FLAG_OPTIONAL, struct raw_network, \
			   dsr), 0, 0,					\
	  "kube-proxy on Windows runs with Direct Server Return "	\
	  "(default: false).")						\
	K(STR("mode", struct raw_network, mode), WG_KV_SETTING, 0,	\
	  "The Windows CNI's network mode (default: overlay).")
MAPPING(network, NETWORK_KEYS);

#define SERVICES_KEYS(K)						\
	K(CYAML_FIELD_BOOL("fix", CYAML_FLAG_OPTIONAL, struct raw_services, \
			   fix), 0, 0,					\
	  "The Services check fixes what is safe to fix, not only warns " \
	  "(default: false).")
MAPPING(services, SERVICES_KEYS);

#define WINDOWS_KEYS(K)							\
	K(CYAML_FIELD_SEQUENCE("builds", OPT, struct raw_windows, builds, \
			       &build_entry, 0, CYAML_UNLIMITED), 0,	\
	  WG_KEY_NONEMPTY,						\
	  "The Windows builds the cluster's nodes run, one RuntimeClass " \
	  "each (default: one ltsc2022 build).")			\
	K(STR("default", struct raw_windows, default_),			\
	  WG_KV_BUILD_OF_PROFILE, 0,					\
	  "The build of a selected workload that picks none: a release, " \
	  "alias, build number or RuntimeClass name of one of "	\
	  "windows.builds (default: the first).")			\
	K(CYAML_FIELD_MAPPING_PTR("taint", OPT, struct raw_windows, taint, \
				  taint_fields), 0, 0,			\
	  "The taint of the Windows nodes, tolerated by Windows "	\
	  "workloads (default: os=windows:NoSchedule).")		\
	K(CYAML_FIELD_SEQUENCE("select", OPT, struct raw_windows, select, \
			       &select_entry, 0, CYAML_UNLIMITED), 0, 0, \
	  "Which workloads are Windows workloads: entries are OR'ed, "	\
	  "the keys of one AND'ed (default: Windows base images).")	\
	K(CYAML_FIELD_SEQUENCE("images", OPT, struct raw_windows, images, \
			       &image_entry, 0, CYAML_UNLIMITED), 0, 0,	\
	  "Image rewrite rules for fan-out copies, in order; the first " \
	  "that matches wins.")						\
	K(CYAML_FIELD_MAPPING_PTR("network", OPT, struct raw_windows,	\
				  network, network_fields), 0, 0,	\
	  "What the Services check assumes of Windows networking.")	\
	K(CYAML_FIELD_MAPPING_PTR("services", OPT, struct raw_windows,	\
				  services, services_fields), 0, 0,	\
	  "What the Services check may do.")				\
	/* a mapping of releases to builds: read from the node tree	\
	 * (profile_retarget.c), its keys are not a schema's */		\
	K(CYAML_FIELD_IGNORE("retarget", CYAML_FLAG_OPTIONAL),		\
	  WG_KV_RETARGET, 0,						\
	  "Releases being retired, each to the build of windows.builds " \
	  "its workloads move to: {ltsc2019: ltsc2022}.")
MAPPING(windows, WINDOWS_KEYS);

#define LINUX_KEYS(K)							\
	K(CYAML_FIELD_BOOL_PTR("pin", OPT, struct raw_linux, pin), 0, 0, \
	  "Workloads that are not Windows workloads get "		\
	  "kubernetes.io/os: linux (default: true).")
MAPPING(linux, LINUX_KEYS);

#define WORKLOAD_KEYS(K)						\
	K(STR("group", struct raw_workload, group), 0, WG_KEY_REQUIRED,	\
	  "The kind's API group, a DNS subdomain (example.com).")	\
	K(STR("kind", struct raw_workload, kind), 0, WG_KEY_REQUIRED,	\
	  "The kind's name, as its objects' kind: says (CamelCase).")	\
	K(CYAML_FIELD_SEQUENCE("templates", OPT, struct raw_workload,	\
			       templates, &string_entry, 0,		\
			       CYAML_UNLIMITED), 0,			\
	  WG_KEY_NONEMPTY | WG_KEY_EITHER,				\
	  "Where its pod templates are, as dotted paths "		\
	  "([spec.template]; [] for each item of a list); or give "	\
	  "pods.")		\
	K(STR("selector", struct raw_workload, selector), 0, 0,	\
	  "Path of its label selector (spec.selector), when it has "	\
	  "one.")							\
	K(STR("replicas", struct raw_workload, replicas), 0, 0,	\
	  "Path of its pod count (spec.replicas), when it has one.")	\
	K(CYAML_FIELD_BOOL_PTR("nodeAgent", OPT, struct raw_workload,	\
			       node_agent), 0, 0,			\
	  "Whether it runs a pod on every node, as a DaemonSet "	\
	  "(default: false).")						\
	K(STR("pods", struct raw_workload, pods), 0, WG_KEY_EITHER,	\
	  "In place of templates, for pods that are not pod templates: " \
	  "where they are (spec.jobs[]: each item one pod).")		\
	K(CYAML_FIELD_SEQUENCE("containers", OPT, struct raw_workload,	\
			       containers, &string_entry, 0,		\
			       CYAML_UNLIMITED), 0,			\
	  WG_KEY_NONEMPTY | WG_KEY_WITH_LAST,				\
	  "With pods: where a pod's containers are, from the pod "	\
	  "(container: one; steps[]: a list).")				\
	K(STR("nodeSelector", struct raw_workload,			\
	      fields[WG_POD_NODE_SELECTOR]), 0, WG_KEY_WITH_LAST,	\
	  "With pods: where a pod's nodeSelector is, from the pod.")	\
	K(STR("tolerations", struct raw_workload,			\
	      fields[WG_POD_TOLERATIONS]), 0, 0,			\
	  "With pods: where a pod's tolerations are, from the pod.")	\
	K(STR("affinity", struct raw_workload, fields[WG_POD_AFFINITY]), \
	  0, 0, "With pods: where a pod's affinity is, from the pod.")	\
	K(STR("runtimeClassName", struct raw_workload,			\
	      fields[WG_POD_RUNTIME_CLASS]), 0, 0,			\
	  "With pods: where a pod's runtimeClassName is, from the pod.") \
	K(STR("os", struct raw_workload, fields[WG_POD_OS]), 0, 0,	\
	  "With pods: where a pod's os is, from the pod.")		\
	K(STR("securityContext", struct raw_workload,			\
	      fields[WG_POD_SECURITY_CONTEXT]), 0, 0,			\
	  "With pods: where a pod's securityContext is, from the pod.")
MAPPING(workload, WORKLOAD_KEYS);

static const cyaml_schema_value_t workload_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_workload,
			    workload_fields),
};

#define PROFILE_KEYS(K)							\
	K(CYAML_FIELD_STRING_PTR("apiVersion", CYAML_FLAG_POINTER,	\
				 struct raw_profile, api_version, 0,	\
				 CYAML_UNLIMITED), WG_KV_API_VERSION, 0, \
	  "The profile's API version.")				\
	K(CYAML_FIELD_STRING_PTR("kind", CYAML_FLAG_POINTER,		\
				 struct raw_profile, kind, 0,		\
				 CYAML_UNLIMITED), WG_KV_KIND, 0,	\
	  "Always Profile.")						\
	K(CYAML_FIELD_MAPPING_PTR("metadata", OPT, struct raw_profile,	\
				  metadata, metadata_fields), 0, 0,	\
	  "As on any Kubernetes object.")				\
	K(CYAML_FIELD_SEQUENCE("resources", OPT, struct raw_profile,	\
			       resources, &string_entry, 0,		\
			       CYAML_UNLIMITED), 0, 0,			\
	  "Manifests to read: files, folders or - (stdin), relative to " \
	  "the profile's folder.")					\
	K(CYAML_FIELD_MAPPING_PTR("windows", OPT, struct raw_profile,	\
				  windows, windows_fields), 0, 0,	\
	  "The cluster's Windows nodes and which workloads go there.")	\
	K(CYAML_FIELD_MAPPING_PTR("linux", OPT, struct raw_profile,	\
				  linux_, linux_fields), 0, 0,		\
	  "What becomes of the other workloads.")			\
	K(STR("templates", struct raw_profile, templates), 0, 0,	\
	  "A folder whose files replace the embedded templates of the " \
	  "same name, relative to the profile's folder.")		\
	/* read from the node tree (names or {name, config}) */	\
	K(CYAML_FIELD_IGNORE("transforms", CYAML_FLAG_OPTIONAL),	\
	  WG_KV_TRANSFORMS, 0,						\
	  "The plugin chain, in order (default: every plugin; wingen "	\
	  "help plugins).")						\
	K(CYAML_FIELD_SEQUENCE("workloads", OPT, struct raw_profile,	\
			       workloads, &workload_entry, 0,		\
			       CYAML_UNLIMITED), 0, 0,			\
	  "More workload kinds, beyond the built-in table.")
MAPPING(profile, PROFILE_KEYS);

const cyaml_schema_value_t wg_profile_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_profile,
			    profile_fields),
};

/* Every mapping's documentation, found by its fields. */
static const struct {
	const cyaml_schema_field_t *fields;
	const struct wg_key_doc *docs;
} key_docs[] = {
	{ metadata_fields, metadata_docs }, { build_fields, build_docs },
	{ taint_fields, taint_docs }, { select_fields, select_docs },
	{ image_fields, image_docs }, { network_fields, network_docs },
	{ services_fields, services_docs }, { windows_fields, windows_docs },
	{ linux_fields, linux_docs }, { workload_fields, workload_docs },
	{ profile_fields, profile_docs },
};

const struct wg_key_doc *wg_profile_key_docs(const cyaml_schema_field_t *f)
{
	for (size_t i = 0; i < sizeof(key_docs) / sizeof(*key_docs); i++)
		if (key_docs[i].fields == f)
			return key_docs[i].docs;
	return NULL;
}

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
