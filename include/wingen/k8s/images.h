#ifndef WINGEN_IMAGES_H
#define WINGEN_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/k8s/catalog.h"

/*
 * Microsoft's image families: the one table that says how an image names
 * a Windows release and an architecture, and how to write it for another
 * build.  Selection, the compatibility errors, fan-out and retarget read
 * and write builds in images only through here; nothing else parses a tag.
 *
 * A reference is [registry/]path[:tag][@digest].  Its family is the entry
 * whose repository path it is, or ends with after a '/' (so a mirror such
 * as myacr.azurecr.io/mirror/windows/servercore is servercore).  Its tag
 * names a release in one of these forms (case-insensitive):
 *   release tag   ltsc2019, 1809, ltsc2016, 1709, 20H2 (a tag of the base
 *                 images: catalog.h's servercore/nanoserver/server tags)
 *   variant tag   <version>-windowsservercore-ltsc2019, -nanoserver-1809,
 *                 -servercore-ltsc2022, -windows-ltsc2022 (any image: the
 *                 generic suffix rule), windowsservercore-ltsc2019 (IIS)
 *   patch tag     1809-KB4493509, 10.0.17763.5458 (a release tag of a
 *                 base image or the whole tag): pins one patch
 * each optionally ending in -amd64 or -arm64, which names the arch.  A
 * release tag only counts on a repository of a family with release tags
 * (myapp:1809 is a version, not Windows); a full version 10.0.N.R counts
 * on any Windows family.
 */

/* How a family's tags name a release. */
enum wg_tag_form {
	WG_TAGS_RELEASE = 1,	/* servercore:ltsc2019 */
	WG_TAGS_VARIANT,	/* aspnet:4.8-windowsservercore-ltsc2019 */
	WG_TAGS_NONE,		/* pause:3.6: one multi-platform manifest */
};

/* Which column of struct wg_release a family's release tags are. */
enum wg_tag_column {
	WG_COL_NONE = 0,
	WG_COL_SERVERCORE,
	WG_COL_NANOSERVER,
	WG_COL_SERVER,
};

/* A .NET Framework version, and the releases it is published for. */
struct wg_fx_version {
	const char *version;		/* "4.8" */
	const char *releases[5];	/* release names, NULL-ended */
	const char *successor;		/* the in-place update that takes
					   its place where it is missing */
};

struct wg_image_family {
	const char *name;	/* "windows/servercore/iis" */
	const char *repos[3];	/* repository paths it is known by:
				   "mcr.microsoft.com/windows/servercore",
				   "microsoft/windowsservercore" */
	enum wg_tag_form form;
	enum wg_tag_column column;	/* release tags, or the variant's */
	bool windows;		/* every image of it is a Windows image */
	bool any_build;		/* runs on every Windows build (HostProcess
				   base image, multi-platform pause) */
	const struct wg_fx_version *versions;	/* NULL: any version */
	const char *successor;	/* the family whose tags go on for releases
				   this one has none for (windows ->
				   windows/server), or NULL */
	const char *example;	/* one image of it */
	const char *note;
};

/* Every family, ended by an entry with name NULL. */
extern const struct wg_image_family wg_image_families[];

/* What a reference says.  Offsets point into the text parsed. */
struct wg_image_ref {
	size_t name_len;	/* [registry/]path */
	size_t tag_at, tag_len;	/* the tag; tag_len 0 when none */
	size_t rel_at, rel_len;	/* the release word inside the text */
	size_t arch_at, arch_len;	/* "-amd64"/"-arm64" incl. dash */
	bool digest;		/* @sha256:...: the bytes are pinned */
	const struct wg_image_family *family;	/* NULL: not a family */
	const struct wg_release *release;	/* NULL: names none */
	const char *variant;	/* "windowsservercore", "nanoserver", ...
				   for a variant tag; NULL otherwise */
	const char *arch;	/* "amd64", "arm64", or NULL: not named */
	bool patch;		/* a patch tag (KB or full version) */
	bool windows;		/* known to be a Windows image */
};

/* Parses len bytes of image.  Never fails: a reference that names no
 * release has release NULL. */
void wg_image_parse(const char *image, size_t len, struct wg_image_ref *out);

/* The release image names, or NULL. */
const struct wg_release *wg_image_release(const char *image, size_t len);

/* The release a bare tag names as a base image's tag would ("ltsc2019",
 * "1809-amd64", "nanoserver-1809", "10.0.17763.5458"), or NULL. */
const struct wg_release *wg_release_for_tag(const char *tag);

/* Whether a host of release host and arch (NULL: any) runs the image. */
enum wg_image_fit {
	WG_FIT_ANY = 0,		/* names no release: nothing to judge */
	WG_FIT_RUNS,		/* names a release the host runs */
	WG_FIT_RELEASE,		/* built for a release the host cannot run
				   with process isolation */
	WG_FIT_ARCH,		/* built for another architecture */
};
enum wg_image_fit wg_image_fit(const struct wg_image_ref *ref,
			       const struct wg_release *host,
			       const char *arch);

/*
 * The image as a host of release host and arch needs it.
 *  1  *out is the rewritten reference (in arena), *why says what changed
 *     ("tag ltsc2019 -> ltsc2022 (windows/servercore)");
 *  0  the image runs there as it is, or names no release: *out = NULL;
 * -1  it names a release or arch the host cannot run and there is no
 *     known rewrite (a digest, a patch tag, a .NET Framework version not
 *     published for host, a family with no tag for it): *why says why.
 * From the same input the same output: fan-out and retarget agree.
 */
int wg_image_rewrite(struct wg_arena *arena, const char *image, size_t len,
		     const struct wg_release *host, const char *arch,
		     const char **out, const char **why);

/* The tag of release r in column (NULL when r has none). */
const char *wg_release_tag(const struct wg_release *r,
			   enum wg_tag_column column);

#endif
