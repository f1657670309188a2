#include "wingen/k8s/images.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Microsoft's image families (images.h).  Facts, with their upstream
 * sources:
 *  - base images and their tags: Microsoft's "Windows Server 2019 now
 *    available" post (servercore:1809 and :ltsc2019, nanoserver:1809 only,
 *    windows:1809; no windows/server before 2022), the MCR pages of
 *    windows/servercore, nanoserver, server and windows;
 *  - variant tags (4.8-windowsservercore-ltsc2019, 8.0-nanoserver-1809):
 *    the READMEs of microsoft/dotnet-framework-docker, dotnet/dotnet-docker
 *    and PowerShell/PowerShell-Docker, and Docker's official images
 *    (windowsservercore-1809, nanoserver-ltsc2022);
 *  - which .NET Framework versions are published on which release:
 *    microsoft/dotnet-framework-docker's README (4.8.1 is built for 2022
 *    and later only, and Windows Server 2025 ships with 4.8.1, so 4.8 has
 *    no ltsc2025 tags; 3.5 is published for every release);
 *  - the pause image is one multi-platform manifest that includes every
 *    Windows build (Kubernetes Windows intro: registry.k8s.io/pause:3.6 and
 *    mcr.microsoft.com/oss/kubernetes/pause:3.6);
 *  - HostProcess containers need not match the host's build (Kubernetes
 *    task "Create a Windows HostProcess Pod"), and the HostProcess base
 *    image (kubernetes-sigs/windows-host-process-containers-base-image) is
 *    made for them.
 */

static const struct wg_fx_version fx_versions[] = {
	{ "3.5", { "ltsc2016", "ltsc2019", "ltsc2022", "ltsc2025", NULL },
	  NULL },
	{ "4.6.2", { "ltsc2016", NULL }, "4.8" },
	{ "4.7", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.1", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.2", { "ltsc2016", "ltsc2019", NULL }, "4.8" },
	{ "4.8", { "ltsc2016", "ltsc2019", "ltsc2022", NULL }, "4.8.1" },
	{ "4.8.1", { "ltsc2022", "ltsc2025", NULL }, NULL },
	{ NULL, { NULL }, NULL },
};

/* WCF has no 3.5 images. */
static const struct wg_fx_version fx_wcf_versions[] = {
	{ "4.6.2", { "ltsc2016", NULL }, "4.8" },
	{ "4.7", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.1", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.2", { "ltsc2016", "ltsc2019", NULL }, "4.8" },
	{ "4.8", { "ltsc2016", "ltsc2019", "ltsc2022", NULL }, "4.8.1" },
	{ "4.8.1", { "ltsc2022", "ltsc2025", NULL }, NULL },
	{ NULL, { NULL }, NULL },
};

#define MCR "mcr.microsoft.com/"
#define FX(sub, versions)                                                \
	{ "dotnet/framework/" sub,                                       \
	  { MCR "dotnet/framework/" sub, NULL, NULL }, WG_TAGS_VARIANT,  \
	  WG_COL_SERVERCORE, true, false, versions, NULL,                \
	  MCR "dotnet/framework/" sub ":4.8-windowsservercore-ltsc2019", \
	  ".NET Framework on Server Core; versions per release known" }
#define DOTNET(sub)                                                      \
	{ "dotnet/" sub, { MCR "dotnet/" sub, NULL, NULL },              \
	  WG_TAGS_VARIANT, WG_COL_NONE, false, false, NULL, NULL,        \
	  MCR "dotnet/" sub ":8.0-nanoserver-1809",                      \
	  "multi-platform; Windows by its -nanoserver-/-windowsservercore- " \
	  "variant tags" }

const struct wg_image_family wg_image_families[] = {
	{ "windows/servercore",
	  { MCR "windows/servercore", "microsoft/windowsservercore", NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVERCORE, true, false, NULL, NULL,
	  MCR "windows/servercore:ltsc2022", "base image" },
	{ "windows/nanoserver",
	  { MCR "windows/nanoserver", "microsoft/nanoserver", NULL },
	  WG_TAGS_RELEASE, WG_COL_NANOSERVER, true, false, NULL, NULL,
	  MCR "windows/nanoserver:1809",
	  "base image; tagged 1809 (not ltsc2019) for Windows Server 2019" },
	{ "windows/server", { MCR "windows/server", NULL, NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVER, true, false, NULL, NULL,
	  MCR "windows/server:ltsc2022",
	  "base image, from Windows Server 2022 on" },
	{ "windows", { MCR "windows", NULL, NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVERCORE, true, false, NULL,
	  "windows/server", MCR "windows:1809",
	  "the full base image, up to 20H2; windows/server from 2022 on" },
	{ "windows/servercore/iis",
	  { MCR "windows/servercore/iis", "microsoft/iis", NULL },
	  WG_TAGS_VARIANT, WG_COL_SERVERCORE, true, false, NULL, NULL,
	  MCR "windows/servercore/iis:windowsservercore-ltsc2019",
	  "IIS on Server Core" },
	FX("runtime", fx_versions),
	FX("aspnet", fx_versions),
	FX("sdk", fx_versions),
	FX("wcf", fx_wcf_versions),
	{ "dotnet-framework (Docker Hub)",
	  { "microsoft/dotnet-framework", NULL, NULL }, WG_TAGS_VARIANT,
	  WG_COL_SERVERCORE, true, false, NULL, NULL,
	  "microsoft/dotnet-framework:4.7.2-runtime-windowsservercore-1803",
	  "retired Docker Hub repository" },
	DOTNET("runtime"),
	DOTNET("aspnet"),
	DOTNET("sdk"),
	{ "dotnet/runtime-deps", { MCR "dotnet/runtime-deps", NULL, NULL },
	  WG_TAGS_NONE, WG_COL_NONE, false, false, NULL, NULL,
	  MCR "dotnet/runtime-deps:8.0",
	  "Linux images only (dotnet/dotnet-docker publishes no Windows "
	  "variant of it)" },
	{ "powershell", { MCR "powershell", NULL, NULL }, WG_TAGS_VARIANT,
	  WG_COL_NONE, false, false, NULL, NULL,
	  MCR "powershell:lts-nanoserver-1809",
	  "multi-platform; Windows by its variant tags" },
	{ "oss/kubernetes/pause",
	  { MCR "oss/kubernetes/pause", "registry.k8s.io/pause", NULL },
	  WG_TAGS_NONE, WG_COL_NONE, false, true, NULL, NULL,
	  MCR "oss/kubernetes/pause:3.6",
	  "one multi-platform manifest for every Windows build" },
	{ "HostProcess base image",
	  { MCR "oss/kubernetes/"
	    "windows-host-process-containers-base-image", NULL, NULL },
	  WG_TAGS_NONE, WG_COL_NONE, true, true, NULL, NULL,
	  MCR "oss/kubernetes/windows-host-process-containers-base-image:"
	  "v1.0.0", "HostProcess containers: runs on every build" },
	{ NULL, { NULL, NULL, NULL }, 0, WG_COL_NONE, false, false, NULL, NULL,
	  NULL, NULL },
};

/*
 * The words of a tag (or of an image's name) that say Windows, and the
 * column of the base image each names: a release word right after one is
 * spelled as that base image's tag.  Facts: Docker's official images
 * (windowsservercore-ltsc2022, nanoserver-1809), Microsoft's .NET and
 * PowerShell images, the Kubernetes pause image (3.9-windows-ltsc2022-
 * amd64), sig-windows' HostProcess images (v1.30.0-calico-hostprocess),
 * Azure Monitor's (ciprod:win-3.1.24), fluent-bit's (windows-2019-2.2.2),
 * New Relic's (3.8.0-windows-ltsc-2022).
 */
static const struct {
	const char *word;
	enum wg_tag_column column;
} windows_words[] = {
	{ "windowsservercore", WG_COL_SERVERCORE },
	{ "nanoserver", WG_COL_NANOSERVER },
	{ "servercore", WG_COL_SERVERCORE },
	{ "windows", WG_COL_SERVERCORE },
	{ "win", WG_COL_SERVERCORE },
	{ "ltsc", WG_COL_SERVERCORE },
	{ "hostprocess", WG_COL_NONE },
};
#define NWORDS (sizeof(windows_words) / sizeof(*windows_words))

/* Repository namespaces whose every image is a Windows image. */
static const char *const windows_namespaces[] = {
	MCR "windows/", MCR "dotnet/framework/",
};

static const char *const arches[] = { "amd64", "arm64" };

const char *wg_release_tag(const struct wg_release *r,
			   enum wg_tag_column column)
{
	if (!r)
		return NULL;
	switch (column) {
	case WG_COL_SERVERCORE:
		return r->servercore;
	case WG_COL_NANOSERVER:
		return r->nanoserver;
	case WG_COL_SERVER:
		return r->server;
	case WG_COL_NONE:
		break;
	}
	return NULL;
}

static bool same(const char *s, size_t len, const char *want)
{
	return want && strlen(want) == len && strncasecmp(s, want, len) == 0;
}

/* The release whose base images are tagged s (any column). */
static const struct wg_release *release_word(const char *s, size_t len)
{
	for (const struct wg_release *r = wg_releases; r->name; r++)
		if (same(s, len, r->servercore) || same(s, len, r->nanoserver)
		    || same(s, len, r->server))
			return r;
	return NULL;
}

/* The LTSC release whose tag is "ltsc" and the year s (ltsc-2022,
 * windows-2019), or NULL. */
static const struct wg_release *ltsc_year(const char *s, size_t len)
{
	for (const struct wg_release *r = wg_releases; r->name; r++)
		if (r->ltsc && r->servercore && strlen(r->servercore) == len + 4
		    && strncasecmp(r->servercore, "ltsc", 4) == 0
		    && strncmp(r->servercore + 4, s, len) == 0)
			return r;
	return NULL;
}

/* "10.0.N" or "10.0.N.R": the release of build N, or NULL. */
static const struct wg_release *full_version(const char *s, size_t len)
{
	char buf[32];
	char *end;
	unsigned long n;

	if (len >= sizeof(buf) || len < 6 || strncmp(s, "10.0.", 5) != 0
	    || !isdigit((unsigned char)s[5]))
		return NULL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	n = strtoul(buf + 5, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		end += 1 + strspn(end + 1, "0123456789");
	if (*end || n > 99999)
		return NULL;
	return wg_release_by_number((unsigned)n);
}

/* Whether s is "KB" and digits: a patch of the release before it. */
static bool kb_word(const char *s, size_t len)
{
	if (len < 3 || strncasecmp(s, "KB", 2) != 0)
		return false;
	for (size_t i = 2; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The index in windows_words of the word s, or -1. */
static int windows_word(const char *s, size_t len)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (same(s, len, windows_words[i].word))
			return (int)i;
	return -1;
}

/* Whether name is repo, or ends with "/" and repo's path (its part after
 * a registry host: a component with a '.' or ':'), as a mirror does. */
static bool repo_is(const char *name, size_t len, const char *repo)
{
	const char *path = repo, *slash = strchr(repo, '/');
	size_t n;

	if (same(name, len, repo))
		return true;
	if (slash && memchr(repo, '.', (size_t)(slash - repo)))
		path = slash + 1;
	n = strlen(path);
	return len > n && name[len - n - 1] == '/'
	       && strncasecmp(name + len - n, path, n) == 0;
}

static const struct wg_image_family *family_of(const char *name, size_t len)
{
	const struct wg_image_family *best = NULL;
	size_t best_len = 0;

	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++) {
		for (size_t i = 0; i < 3 && f->repos[i]; i++) {
			size_t n = strlen(f->repos[i]);

			if (repo_is(name, len, f->repos[i]) && n > best_len) {
				best = f;
				best_len = n;
			}
		}
	}
	return best;
}

static const struct wg_image_family *family_named(const char *name)
{
	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/*
 * A Windows word and an LTSC release written as one word: windows2022,
 * win2019, servercore2025 (a year), windowsltsc2022 (a release tag).  The
 * release, or NULL; *cut is where its words begin, *word the Windows word
 * (an index in windows_words).  Only an LTSC: the year or "ltsc" says it
 * (win1809 and the like are not read, as nothing says how to rewrite
 * them).
 */
static const struct wg_release *fused_word(const char *s, size_t len,
					   size_t *cut, int *word)
{
	for (size_t i = 0; i < NWORDS; i++) {
		const char *w = windows_words[i].word;
		size_t n = strlen(w);
		const struct wg_release *r = NULL;

		if (windows_words[i].column == WG_COL_NONE || strcmp(w, "ltsc") == 0
		    || len <= n || strncasecmp(s, w, n) != 0)
			continue;
		if (len - n > 4 && strncasecmp(s + n, "ltsc", 4) == 0)
			r = release_word(s + n, len - n);
		else
			r = ltsc_year(s + n, len - n);
		if (r) {
			*cut = n;
			*word = (int)i;
			return r;
		}
	}
	return NULL;
}

/* Words of s[at, at + len): split at '-' and '_' (and '.' too when dots
 * is true: an image name's words); at most max. */
struct word {
	size_t at, len;
};

static size_t split_words(const char *s, size_t at, size_t len, bool dots,
			  struct word *w, size_t max)
{
	size_t n = 0, start = at;

	for (size_t i = at; i <= at + len && n < max; i++) {
		if (i < at + len && s[i] != '-' && s[i] != '_'
		    && !(dots && s[i] == '.'))
			continue;
		if (i > start)
			w[n++] = (struct word){ start, i - start };
		start = i + 1;
	}
	return n;
}

#define MAX_WORDS 64	/* an OCI tag has at most 128 characters */

static void set_release(struct wg_image_ref *ref, const struct wg_release *r,
			size_t at, size_t len, enum wg_spelling spelling)
{
	ref->release = r;
	ref->rel_at = at;
	ref->rel_len = len;
	ref->spelling = spelling;
	ref->patch = spelling == WG_SPELL_BUILD;
}

/*
 * The tag grammar (images.h), on the tag at ref->tag_at.  release_tags:
 * the repository is a base image's, whose first word may be a bare
 * release tag (servercore:1809).
 */
static void parse_tag(const char *s, struct wg_image_ref *ref,
		      bool release_tags)
{
	struct word w[MAX_WORDS];
	size_t n = split_words(s, ref->tag_at, ref->tag_len, false, w,
			       MAX_WORDS);
	int prev = -1;		/* the Windows word just before, or -1 */

	for (size_t i = n; i-- > 0;) {	/* the last arch word names it */
		for (size_t k = 0; k < 2 && !ref->arch; k++) {
			if (!same(s + w[i].at, w[i].len, arches[k]))
				continue;
			ref->arch = arches[k];
			ref->arch_at = w[i].at;
			ref->arch_len = w[i].len;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *t = s + w[i].at;
		size_t len = w[i].len;
		const struct wg_release *r = NULL;
		int word = windows_word(t, len), fw = -1;
		size_t at = i;	/* i moves past ltsc-YYYY's second word */
		size_t cut = 0;

		if (!ref->release) {
			if ((r = full_version(t, len)))
				set_release(ref, r, w[i].at, len,
					    WG_SPELL_BUILD);
			else if (len > 4 && strncasecmp(t, "ltsc", 4) == 0
				 && (r = release_word(t, len)))
				set_release(ref, r, w[i].at, len,
					    WG_SPELL_TAG);
			else if (word >= 0 && same(t, len, "ltsc")
				 && i + 1 < n
				 && (r = ltsc_year(s + w[i + 1].at,
						   w[i + 1].len))) {
				set_release(ref, r, w[i].at, w[i + 1].at
					    + w[i + 1].len - w[i].at,
					    WG_SPELL_LTSC_DASH);
				i++;
			} else if ((prev >= 0 || (release_tags && i == 0))
				   && (r = release_word(t, len))) {
				set_release(ref, r, w[i].at, len,
					    WG_SPELL_TAG);
			} else if (prev >= 0 && (r = ltsc_year(t, len))) {
				set_release(ref, r, w[i].at, len,
					    WG_SPELL_YEAR);
			} else if ((r = fused_word(t, len, &cut, &fw))) {
				set_release(ref, r, w[i].at + cut, len - cut,
					    isdigit((unsigned char)t[cut])
					    ? WG_SPELL_YEAR : WG_SPELL_TAG);
				prev = fw;	/* the word says it, in one */
			}
			if (r) {
				size_t from = ref->rel_at;

				/* the base image the words before name */
				if (prev >= 0
				    && windows_words[prev].column
				    != WG_COL_NONE)
					ref->variant = windows_words[prev].word;
				if (prev >= 0)
					from = fw >= 0 ? w[i].at : w[at - 1].at;
				if (i + 1 < n && kb_word(s + w[i + 1].at,
							 w[i + 1].len))
					ref->patch = true;
				/* messages name the release words, with the
				 * Windows word before them */
				ref->word_at = from;
				ref->word_len = ref->rel_at + ref->rel_len
						- from;
				ref->by = WG_BY_TAG;
				prev = -1;
				continue;
			}
		}
		if (word >= 0 && !ref->word_len) {
			ref->word_at = w[i].at;
			ref->word_len = len;
			ref->by = WG_BY_TAG;
		}
		prev = word;
	}
}

/* Whether the last component of the name is a Windows word or has one
 * (windows-exporter, cyclonus-windows, kruise-daemon-win,
 * envoy-build-windows2019). */
static void parse_name(const char *s, struct wg_image_ref *ref)
{
	struct word w[MAX_WORDS];
	size_t at = ref->name_len, n;

	while (at > 0 && s[at - 1] != '/')
		at--;
	n = split_words(s, at, ref->name_len - at, true, w, MAX_WORDS);
	for (size_t i = 0; i < n; i++) {
		int word = windows_word(s + w[i].at, w[i].len);
		const struct wg_release *r = NULL;
		size_t cut;

		if (word < 0 && !ref->release
		    && (r = fused_word(s + w[i].at, w[i].len, &cut, &word))) {
			/* envoy-build-windows2019: built for that release;
			 * how its publisher names the others is not known
			 * (no spelling: no rewrite) */
			set_release(ref, r, w[i].at, w[i].len,
				    WG_SPELL_NONE);
			ref->variant = windows_words[word].word;
		}
		if (word < 0 || same(s + w[i].at, w[i].len, "ltsc"))
			continue;
		ref->word_at = w[i].at;
		ref->word_len = w[i].len;
		ref->by = WG_BY_NAME;
		return;
	}
}

static bool windows_namespace(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(windows_namespaces)
				/ sizeof(*windows_namespaces); i++) {
		size_t n = strlen(windows_namespaces[i]);

		if (len > n && strncasecmp(s, windows_namespaces[i], n) == 0)
			return true;
	}
	return false;
}

void wg_image_parse(const char *s, size_t len, struct wg_image_ref *ref)
{
	const char *at = memchr(s, '@', len), *colon = NULL;
	size_t end = at ? (size_t)(at - s) : len;
	const struct wg_image_family *f;

	memset(ref, 0, sizeof(*ref));
	ref->digest = at != NULL;
	for (size_t i = end; i > 0; i--) {
		if (s[i - 1] == '/')
			break;
		if (s[i - 1] == ':') {
			colon = s + i - 1;
			break;
		}
	}
	ref->name_len = colon ? (size_t)(colon - s) : end;
	if (colon) {
		ref->tag_at = (size_t)(colon - s) + 1;
		ref->tag_len = end - ref->tag_at;
	}
	f = ref->family = family_of(s, ref->name_len);
	if (ref->tag_len)
		parse_tag(s, ref, f && f->form == WG_TAGS_RELEASE);
	if ((f && f->windows) || windows_namespace(s, ref->name_len)) {
		ref->by = WG_BY_FAMILY;	/* the repository says it first */
		ref->word_at = 0;
		ref->word_len = ref->name_len;
	} else if (!ref->by) {
		parse_name(s, ref);
	}
	ref->windows = ref->by != WG_BY_NONE;
}

const struct wg_release *wg_image_release(const char *image, size_t len)
{
	struct wg_image_ref ref;

	wg_image_parse(image, len, &ref);
	return ref.release;
}

const struct wg_release *wg_release_for_tag(const char *tag)
{
	struct wg_image_ref ref;

	if (!tag)
		return NULL;
	memset(&ref, 0, sizeof(ref));
	ref.tag_len = strlen(tag);
	parse_tag(tag, &ref, true);
	return ref.release;
}

/* Whether s (len bytes) holds word, case-insensitive. */
static bool has_word(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp(s + i, word, n) == 0)
			return true;
	return false;
}

const char *wg_image_windows_why(struct wg_arena *arena, const char *image,
				 const struct wg_image_ref *ref)
{
	switch (ref->by) {
	case WG_BY_FAMILY:
		return "its repository";
	case WG_BY_TAG:
		/* the release too, when the words spell it otherwise */
		return ref->release && !has_word(image + ref->word_at,
						 ref->word_len,
						 ref->release->name)
		       ? wg_arena_printf(arena, "tag '%.*s': %s",
					 (int)ref->word_len,
					 image + ref->word_at,
					 ref->release->name)
		       : wg_arena_printf(arena, "tag '%.*s'",
					 (int)ref->word_len,
					 image + ref->word_at);
	case WG_BY_NAME:
		return wg_arena_printf(arena, "name '%.*s'",
				       (int)ref->word_len,
				       image + ref->word_at);
	case WG_BY_NONE:
		break;
	}
	return NULL;
}

enum wg_image_fit wg_image_fit(const struct wg_image_ref *ref,
			       const struct wg_release *host,
			       const char *arch, const char *handler)
{
	if (ref->release && host
	    && !wg_handler_can_run(handler, host, ref->release))
		return WG_FIT_RELEASE;
	if (ref->arch && arch && strcmp(ref->arch, arch) != 0)
		return WG_FIT_ARCH;
	return ref->release ? WG_FIT_RUNS : WG_FIT_ANY;
}

/* The tag host gets in column: its own, else (23H2: no images of its own)
 * the newest one its hosts run. */
static const struct wg_release *tag_release(const struct wg_release *host,
					    enum wg_tag_column column)
{
	const struct wg_release *best = NULL;

	if (wg_release_tag(host, column))
		return host;
	for (const struct wg_release *o = wg_releases; o->name; o++)
		if (wg_release_tag(o, column) && wg_release_can_run(host, o))
			best = o;
	return best;
}

static bool published(const struct wg_fx_version *v,
		      const struct wg_release *r)
{
	for (size_t i = 0; i < 5 && v->releases[i]; i++)
		if (strcmp(v->releases[i], r->name) == 0)
			return true;
	return false;
}

static const struct wg_fx_version *fx_find(const struct wg_fx_version *t,
					   const char *s, size_t len)
{
	for (; t && t->version; t++)
		if (same(s, len, t->version))
			return t;
	return NULL;
}

struct edit {
	size_t at, len;
	const char *text;
};

static const char *apply(struct wg_arena *a, const char *s, size_t len,
			 struct edit *e, size_t n)
{
	size_t total = len + 1, pos = 0;
	char *out, *o;

	/* edits do not overlap; put them in order (an arch word may come
	 * before the release words) */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && e[k].at < e[k - 1].at; k--) {
			struct edit tmp = e[k];

			e[k] = e[k - 1];
			e[k - 1] = tmp;
		}
	for (size_t i = 0; i < n; i++)
		total += strlen(e[i].text);
	o = out = wg_arena_alloc(a, total);
	for (size_t i = 0; i < n; i++) {
		memcpy(o, s + pos, e[i].at - pos);
		o += e[i].at - pos;
		memcpy(o, e[i].text, strlen(e[i].text));
		o += strlen(e[i].text);
		pos = e[i].at + e[i].len;
	}
	memcpy(o, s + pos, len - pos);
	o[len - pos] = '\0';
	return out;
}

static enum wg_tag_column column_of(const struct wg_image_ref *ref)
{
	for (size_t i = 0; ref->variant && i < NWORDS; i++)
		if (strcmp(windows_words[i].word, ref->variant) == 0)
			return windows_words[i].column;
	return ref->family && ref->family->column != WG_COL_NONE
	       ? ref->family->column : WG_COL_SERVERCORE;
}

/* The release to written as the image wrote its own (ref->spelling), in
 * arena; NULL when that spelling has no word for it (ltsc-YYYY for a
 * release that is no LTSC). */
static const char *respell(struct wg_arena *a, const struct wg_image_ref *ref,
			   const struct wg_release *to,
			   enum wg_tag_column col)
{
	const char *tag = wg_release_tag(to, col);
	const char *ltsc = to->servercore;

	switch (ref->spelling) {
	case WG_SPELL_TAG:
		return tag;
	case WG_SPELL_LTSC_DASH:
	case WG_SPELL_YEAR:
		if (!to->ltsc || !ltsc || strncmp(ltsc, "ltsc", 4) != 0)
			return NULL;
		return ref->spelling == WG_SPELL_YEAR ? ltsc + 4
		       : wg_arena_printf(a, "ltsc-%s", ltsc + 4);
	case WG_SPELL_BUILD:
	case WG_SPELL_NONE:
		break;
	}
	return NULL;
}

int wg_image_rewrite(struct wg_arena *a, const char *s, size_t len,
		     const struct wg_release *host, const char *arch,
		     const char *handler, const char **out, const char **why)
{
	struct wg_image_ref ref;
	enum wg_image_fit fit;
	struct edit e[4];
	size_t n = 0;
	const struct wg_image_family *f;
	const struct wg_release *to = NULL;
	const char *fam, *word;
	bool retag;

	*out = NULL;
	*why = NULL;
	wg_image_parse(s, len, &ref);
	fit = wg_image_fit(&ref, host, arch, handler);
	if (fit == WG_FIT_ANY || fit == WG_FIT_RUNS)
		return 0;
	f = ref.family;
	fam = f ? f->name : "the variant tag rule";
	if (fit == WG_FIT_RELEASE && !ref.variant
	    && !(f && f->form == WG_TAGS_RELEASE)) {
		/* a release word alone (orders:2.4.1-ltsc2022) says what the
		 * image is built for, not how its publisher tags the others */
		*why = wg_arena_printf(a, "%.*s is no image family wingen "
				       "knows, and no Windows word "
				       "(windowsservercore-, nanoserver-, "
				       "windows-) comes before '%.*s' in its "
				       "tag to say how it is tagged for other "
				       "releases", (int)ref.name_len, s,
				       (int)ref.rel_len, s + ref.rel_at);
		return -1;
	}
	if (ref.digest) {
		*why = wg_arena_printf(a, "a digest pins its bytes");
		return -1;
	}
	/* an arm64 copy of an image of a release without arm64 images
	 * (nanoserver:ltsc2022-amd64 for an arm64 ltsc2025 host) needs the
	 * host's tag too: "ltsc2022-arm64" is no tag Microsoft publishes */
	retag = fit == WG_FIT_RELEASE
		|| (fit == WG_FIT_ARCH && ref.release && arch
		    && strcmp(arch, "arm64") == 0
		    && !wg_release_arm64_images(ref.release));
	if (retag && ref.patch) {
		*why = wg_arena_printf(a, "tag '%.*s' pins one patch of %s, "
				       "and which patch of %s to take is not "
				       "known", (int)ref.tag_len,
				       s + ref.tag_at, ref.release->name,
				       host->name);
		return -1;
	}
	if (retag) {
		enum wg_tag_column col = column_of(&ref);
		const struct wg_image_family *succ =
			f && f->successor ? family_named(f->successor) : NULL;

		to = tag_release(host, col);
		/* the full windows image ends with 20H2: windows/server
		 * carries it on */
		if (succ && (!to || to->number >= 20348u)) {
			const char *repo = succ->repos[0];
			const char *path = strchr(repo, '/') + 1;
			const char *old = f->repos[0];
			size_t olen = strlen(strchr(old, '/') + 1);

			col = succ->column;
			to = tag_release(host, col);
			if (to && ref.name_len >= olen) {
				e[n++] = (struct edit){ ref.name_len - olen,
							olen, path };
				fam = succ->name;
			}
		}
		if (!to) {
			*why = wg_arena_printf(a, "%s has no tag for %s", fam,
					       host->name);
			return -1;
		}
		if (arch && strcmp(arch, "arm64") == 0 && ref.arch
		    && !wg_release_arm64_images(to)) {
			*why = wg_arena_printf(a, "%s has no arm64 images "
					       "for %s", fam, to->name);
			return -1;
		}
		if (f && f->versions && ref.variant) {
			const char *tag = s + ref.tag_at;
			size_t vl = strcspn(tag, "-");
			const struct wg_fx_version *v =
				fx_find(f->versions, tag, vl);

			if (v && !published(v, to)) {
				const struct wg_fx_version *next =
					v->successor ? fx_find(f->versions,
						v->successor,
						strlen(v->successor)) : NULL;

				if (!next || !published(next, to)) {
					*why = wg_arena_printf(a, ".NET "
						"Framework %s is not published "
						"for %s", v->version, to->name);
					return -1;
				}
				e[n++] = (struct edit){ ref.tag_at, vl,
							next->version };
			}
		}
		word = respell(a, &ref, to, col);
		if (!word) {
			*why = wg_arena_printf(a, "'%.*s' has no spelling for "
					       "%s", (int)ref.rel_len,
					       s + ref.rel_at, to->name);
			return -1;
		}
		e[n++] = (struct edit){ ref.rel_at, ref.rel_len, word };
	}
	if (ref.arch && arch && strcmp(ref.arch, arch) != 0)
		e[n++] = (struct edit){ ref.arch_at, ref.arch_len, arch };
	*out = apply(a, s, len, e, n);
	if (retag)
		*why = wg_arena_printf(a, "built for %s, rewritten for %s",
				       ref.release->name, to->name);
	if (ref.arch && arch && strcmp(ref.arch, arch) != 0)
		*why = wg_arena_printf(a, "%s%sarch %s rewritten for %s",
				       *why ? *why : "", *why ? ", " : "",
				       ref.arch, arch);
	*why = wg_arena_printf(a, "%s (%s)", *why, fam);
	return 1;
}
