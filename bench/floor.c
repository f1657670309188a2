/*
 * floor: the libyaml floor for the benchmark.  Parses a YAML stream and
 * emits it again event by event (yaml_parser_parse -> yaml_emitter_emit),
 * with no tree and no work in between: the least any libyaml-based tool
 * can spend on the same input.
 *
 *   floor [FILE] > out.yaml        (no FILE or "-": standard input)
 *
 * It does what wingen does around libyaml and nothing more: reads the
 * whole input into memory first (as src/base/input.c does), parses it as
 * UTF-8 from that string (as src/yaml/reader.c does), and emits with the
 * settings of src/yaml/writer.c (width unlimited, unicode on, indent 2, LF
 * breaks, implicit document ends, "---" only between documents).  Output
 * goes to standard output through one large buffer.
 * Exit 0 on success, 1 on a read, parse or write error, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define OUT_SIZE (1u << 20)

struct out {
	unsigned char *buf;
	size_t len;
	int failed;	/* errno of the first failed write, or 0 */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("floor: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static int write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void out_flush(struct out *o)
{
	if (!o->failed)
		o->failed = write_all(STDOUT_FILENO, o->buf, o->len);
	o->len = 0;
}

/* libyaml's output handler: called with its own 16 KB chunks. */
static int on_write(void *data, unsigned char *chunk, size_t size)
{
	struct out *o = data;

	if (o->len + size > OUT_SIZE)
		out_flush(o);
	if (size > OUT_SIZE) {
		if (!o->failed)
			o->failed = write_all(STDOUT_FILENO, chunk, size);
		return !o->failed;
	}
	memcpy(o->buf + o->len, chunk, size);
	o->len += size;
	return !o->failed;
}

/* The whole input, like wg_input_read_fd(): sized by fstat, read in
 * 64 KB steps. */
static unsigned char *read_all(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	struct stat st;
	unsigned char *buf;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 65536;
	buf = xrealloc(NULL, cap);
	for (;;) {
		ssize_t r;

		if (cap - n < 65536) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "-";
	struct out o = { NULL, 0, 0 };
	yaml_parser_t parser;
	yaml_emitter_t emitter;
	unsigned char *data;
	size_t len = 0;
	int fd = STDIN_FILENO, rc = 0;

	if (argc > 2) {
		fputs("usage: floor [FILE] > out.yaml\n", stderr);
		return 2;
	}
	if (strcmp(path, "-") != 0)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !(data = read_all(fd, &len))) {
		fprintf(stderr, "floor: cannot read '%s': %s\n", path,
			strerror(errno));
		return 1;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	o.buf = xrealloc(NULL, OUT_SIZE);

	yaml_parser_initialize(&parser);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&parser, data, len);
	yaml_emitter_initialize(&emitter);
	yaml_emitter_set_output(&emitter, on_write, &o);
	yaml_emitter_set_width(&emitter, -1);
	yaml_emitter_set_unicode(&emitter, 1);
	yaml_emitter_set_indent(&emitter, 2);
	yaml_emitter_set_break(&emitter, YAML_LN_BREAK);

	for (;;) {
		yaml_event_t e;
		int done;

		if (!yaml_parser_parse(&parser, &e)) {
			fprintf(stderr, "floor: %s:%zu:%zu: %s\n", path,
				parser.problem_mark.line + 1,
				parser.problem_mark.column + 1,
				parser.problem ? parser.problem
					       : "invalid YAML");
			rc = 1;
			break;
		}
		/* wingen's writer marks every document start and end
		 * implicit; the emitter still writes "---" between them. */
		if (e.type == YAML_DOCUMENT_START_EVENT)
			e.data.document_start.implicit = 1;
		else if (e.type == YAML_DOCUMENT_END_EVENT)
			e.data.document_end.implicit = 1;
		done = e.type == YAML_STREAM_END_EVENT;
		/* The emitter takes the event and frees it. */
		if (!yaml_emitter_emit(&emitter, &e)) {
			fprintf(stderr, "floor: cannot write YAML: %s\n",
				emitter.problem ? emitter.problem
						: "emitter error");
			rc = 1;
			break;
		}
		if (done)
			break;
	}
	if (rc == 0 && !yaml_emitter_flush(&emitter))
		rc = 1;
	out_flush(&o);
	if (o.failed) {
		fprintf(stderr, "floor: cannot write: %s\n",
			strerror(o.failed));
		rc = 1;
	}
	yaml_emitter_delete(&emitter);
	yaml_parser_delete(&parser);
	free(o.buf);
	free(data);
	return rc;
}
