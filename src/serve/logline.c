/*
 * The webhook's log lines (serve_internal.h): logfmt or JSON, one line
 * each, every value escaped so that no request can start a line of its
 * own.
 */
#include <string.h>
#include <time.h>

#include "serve_internal.h"
#include "wingen/yaml/scalar.h"

static const char *const level_names[] = { "debug", "info", "warn", "error" };

void wg_logline_begin(struct wg_logline *l, enum wg_log_format format,
		      enum wg_log_level level, const char *msg)
{
	struct timespec ts;
	struct tm tm;
	char when[40];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	l->format = format;
	wg_buf_reset(&l->b);
	if (format == WG_LOG_JSON) {
		wg_buf_addf(&l->b, "{\"time\":\"%s.%03ldZ\",\"level\":\"%s\","
			    "\"msg\":", when, ts.tv_nsec / 1000000,
			    level_names[level]);
		wg_json_quote(&l->b, msg, strlen(msg));
	} else {
		wg_buf_addf(&l->b, "time=%s.%03ldZ level=%s msg=", when,
			    ts.tv_nsec / 1000000, level_names[level]);
		wg_json_quote(&l->b, msg, strlen(msg));
	}
}

/* Whether logfmt can write value bare. */
static bool bare(const char *v)
{
	if (!*v)
		return false;
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c <= ' ' || *c == '"' || *c == '=' || *c == '\\'
		    || *c >= 0x7f)
			return false;
	return true;
}

void wg_logline_str(struct wg_logline *l, const char *key, const char *value)
{
	if (l->format == WG_LOG_JSON) {
		wg_buf_addf(&l->b, ",\"%s\":", key);
		wg_json_quote(&l->b, value, strlen(value));
	} else {
		wg_buf_addf(&l->b, " %s=", key);
		if (bare(value))
			wg_buf_addstr(&l->b, value);
		else
			wg_json_quote(&l->b, value, strlen(value));
	}
}

void wg_logline_raw(struct wg_logline *l, const char *key, const char *value)
{
	if (l->format == WG_LOG_JSON)
		wg_buf_addf(&l->b, ",\"%s\":%s", key, value);
	else
		wg_buf_addf(&l->b, " %s=%s", key, value);
}

void wg_logline_end(struct wg_logline *l)
{
	if (l->format == WG_LOG_JSON)
		wg_buf_addch(&l->b, '}');
	wg_buf_addch(&l->b, '\n');
}
