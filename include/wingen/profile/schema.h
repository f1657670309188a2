#ifndef WINGEN_PROFILE_SCHEMA_H
#define WINGEN_PROFILE_SCHEMA_H

#include "wingen/base/arena.h"
#include "wingen/yaml/node.h"

/*
 * The profile's JSON Schema (2020-12), for editors (yaml-language-server)
 * and validators: docs/profile.schema.json, written by "wingen schema".
 * It is made from the tables the loader reads a profile with, never
 * written by hand: the keys and their types from the libcyaml schema, one
 * line on each key from the same table (src/profile/profile_schema.c),
 * the values the meaning check accepts (the build catalogue's releases
 * and aliases, the arches and taint effects, the runtimes' handlers), and
 * what the layers above add: the plugins' names and the values of their
 * settings.
 *
 * What it states the loader refuses alike: an unknown key, a value of
 * the wrong type (a mapping for a string; a boolean spelled otherwise
 * than true or false), a value outside a closed set (release, arch,
 * effect, network mode, plugin), a missing required key, an empty
 * windows.builds.  Scalars the loader reads as strings may be numbers or
 * booleans in YAML (release: 2022), as the loader takes their text.
 * Cross-references (windows.default naming one of windows.builds), files
 * and PCRE2 patterns are the loader's alone.
 */

/* A setting of a plugin whose values are a closed set. */
struct wg_profile_schema_setting {
	const char *path;		/* "windows.network.mode" */
	const char *const *values;	/* ended by NULL */
};

/* What the profile layer cannot know: the plugins (core/plugin.h). */
struct wg_profile_schema_plugins {
	const char *const *names;	/* every plugin, ended by NULL */
	const char *const *configurable;	/* those taking config:, ended
						   by NULL */
	const struct wg_profile_schema_setting *settings;	/* ended by
							   a NULL path */
};

/*
 * The schema as a tree in arena (write it with wg_json_write_tree()).
 * NULL, with *error set to a message naming the key (in arena), when the
 * table lacks what the schema needs (a key without its line, a setting
 * no plugin gives values for): a mistake in the sources, never in input.
 */
struct wg_node *wg_profile_json_schema(
	struct wg_arena *arena, const struct wg_profile_schema_plugins *plugins,
	const char **error);

#endif
