/* input.c: buffered, gzip-transparent, size-bounded input. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/input.h"
#include "util/xalloc.h"

#define CHUNK (1u << 17)

static ssize_t read_fd(struct pt_input *in, void *dst, size_t n)
{
	ssize_t r;
	if (in->mem) {
		if (n > in->mem_len - in->mem_pos)
			n = in->mem_len - in->mem_pos;
		memcpy(dst, in->mem + in->mem_pos, n);
		in->mem_pos += n;
		return (ssize_t)n;
	}
	do
		r = read(in->fd, dst, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		pt_diag_error(in->diag, "read error: %s", strerror(errno));
	return r;
}

static int start(struct pt_input *in, struct pt_diag *d);
static int skip_bom(struct pt_input *in);

int pt_input_open(struct pt_input *in, const char *path, uint64_t max_size, struct pt_diag *d)
{
	memset(in, 0, sizeof(*in));
	in->diag = d;
	in->max_size = max_size ? max_size : PT_INPUT_DEFAULT_MAX;
	in->ratio_bound = !max_size;
	if (!strcmp(path, "-")) {
		in->name = "<stdin>";
		in->fd = 0;
	} else {
		in->name = path;
		in->fd = open(path, O_RDONLY);
	}
	d->path = in->name;
	if (in->fd < 0)
		return pt_diag_error(d, "cannot open: %s", strerror(errno));
	return start(in, d);
}

int pt_input_open_mem(struct pt_input *in, const char *name, const void *data, size_t len,
		      uint64_t max_size, struct pt_diag *d)
{
	static const unsigned char empty[1];
	memset(in, 0, sizeof(*in));
	in->diag = d;
	in->max_size = max_size ? max_size : PT_INPUT_DEFAULT_MAX;
	in->ratio_bound = !max_size;
	in->name = name;
	in->fd = -1;
	in->mem = len ? data : empty;
	in->mem_len = len;
	d->path = name;
	return start(in, d);
}

/* Allocate the buffer and look at the first bytes for the gzip magic. They are read
 * straight into the decoded buffer, where plain input stays; only gzip needs a second
 * buffer for the compressed bytes. */
static int start(struct pt_input *in, struct pt_diag *d)
{
	ssize_t r;

	/* small in-memory inputs get small buffers; both grow as data arrives */
	in->alloc = in->mem && in->mem_len < CHUNK ? in->mem_len + 64 : CHUNK;
	in->buf = pt_xmalloc(in->alloc);
	r = read_fd(in, in->buf, in->alloc);
	if (r < 0)
		return -1;
	if (r >= 2 && in->buf[0] == 0x1f && in->buf[1] == 0x8b) {
		in->gz = 1;
		in->raw_alloc = in->alloc;
		in->raw = pt_xmalloc(in->raw_alloc);
		memcpy(in->raw, in->buf, (size_t)r);
		if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
			return pt_diag_error(d, "cannot initialize zlib");
		in->zs.next_in = in->raw;
		in->zs.avail_in = (uInt)r;
	} else {
		/* not compressed: the bytes are decoded data already */
		in->end = (size_t)r;
		in->total = (uint64_t)r;
		if (r == 0)
			in->eof = 1;
	}
	return skip_bom(in);
}

/* A byte-order mark at the start of the decoded stream: UTF-8's (EF BB BF, which editors
 * and Windows tools put before text) is skipped, so no reader sees it in a first name;
 * UTF-16's (FF FE, FE FF) is refused, since every text format here is read as UTF-8.
 * Neither can start a binary format we read (0xEF, 0xFE and 0xFF are no protobuf
 * field tag that starts a profile; the others start with fixed magic bytes). */
static int skip_bom(struct pt_input *in)
{
	const unsigned char *b;
	size_t n;

	b = pt_input_peek(in, 3, &n);
	if (!b)
		return -1;
	if (n == 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf)
		pt_input_consume(in, 3);
	else if (n >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)))
		return pt_diag_error_at(
			in->diag, 0, "UTF-16 text (byte-order mark %02X %02X): convert it to UTF-8",
			b[0], b[1]);
	return 0;
}

void pt_input_close(struct pt_input *in)
{
	if (in->gz)
		inflateEnd(&in->zs);
	if (in->fd > 0)
		close(in->fd);
	free(in->buf);
	free(in->raw);
	in->buf = in->raw = NULL;
	in->fd = -1;
}

/* inflate into dst; returns bytes produced, 0 at the end, -1 on error */
static ssize_t inflate_some(struct pt_input *in, unsigned char *dst, size_t cap)
{
	for (;;) {
		int rc;
		size_t before_in;

		if (!in->zs.avail_in && !in->raw_eof) {
			ssize_t r = read_fd(in, in->raw, in->raw_alloc);
			if (r < 0)
				return -1;
			if (!r)
				in->raw_eof = 1;
			in->zs.next_in = in->raw;
			in->zs.avail_in = (uInt)r;
		}
		in->zs.next_out = dst;
		in->zs.avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
		before_in = in->zs.avail_in;
		rc = inflate(&in->zs, Z_NO_FLUSH);
		in->raw_consumed += before_in - in->zs.avail_in;
		if (rc == Z_STREAM_END) {
			size_t produced = cap - in->zs.avail_out;
			/* another gzip member may follow (concatenated .gz files) */
			if (!in->zs.avail_in && !in->raw_eof) {
				ssize_t r = read_fd(in, in->raw, in->raw_alloc);
				if (r < 0)
					return -1;
				in->zs.next_in = in->raw;
				in->zs.avail_in = (uInt)r;
				if (!r)
					in->raw_eof = 1;
			}
			if (in->zs.avail_in >= 2 && in->zs.next_in[0] == 0x1f &&
			    in->zs.next_in[1] == 0x8b) {
				inflateReset(&in->zs);
			} else {
				in->gz = 2; /* finished; trailing bytes ignored as gzip(1) does */
				in->zs.avail_in = 0;
				in->raw_eof = 1;
			}
			if (produced)
				return (ssize_t)produced;
			if (in->gz == 2)
				return 0;
			continue;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			return pt_diag_error_at(in->diag, in->raw_consumed, "gzip: %s",
						in->zs.msg ? in->zs.msg : "corrupt data");
		}
		if (cap - in->zs.avail_out)
			return (ssize_t)(cap - in->zs.avail_out);
		if (in->raw_eof && !in->zs.avail_in)
			return pt_diag_error_at(in->diag, in->raw_consumed,
						"gzip: unexpected end of compressed data");
	}
}

/* Append more decoded data to buf. Returns bytes added, 0 at the end, -1 on error. */
static ssize_t fill(struct pt_input *in)
{
	ssize_t r;

	if (in->eof)
		return 0;
	if (in->pos && (in->pos == in->end || in->pos >= in->alloc / 2 || in->end == in->alloc)) {
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
		in->offset += in->pos;
		in->end -= in->pos;
		in->scan = in->scan > in->pos ? in->scan - in->pos : 0;
		in->pos = 0;
	}
	if (in->end == in->alloc) {
		in->alloc *= 2;
		in->buf = pt_xrealloc(in->buf, in->alloc);
	}
	if (in->gz == 1)
		r = inflate_some(in, in->buf + in->end, in->alloc - in->end);
	else if (in->gz == 2)
		r = 0;
	else
		r = read_fd(in, in->buf + in->end, in->alloc - in->end);
	if (r < 0)
		return -1;
	if (!r) {
		in->eof = 1;
		/* keep a spare byte so getline can terminate a last line without '\n' */
		if (in->end == in->alloc) {
			in->alloc *= 2;
			in->buf = pt_xrealloc(in->buf, in->alloc);
		}
		return 0;
	}
	in->total += (uint64_t)r;
	if (in->gz && in->ratio_bound && in->total > PT_INPUT_RATIO_FLOOR &&
	    in->total / PT_INPUT_MAX_RATIO > in->raw_consumed)
		return pt_diag_error_at(in->diag, in->raw_consumed,
					"gzip data expands more than %d times past %llu MiB (a "
					"bomb?); an explicit --max-input-size reads it",
					PT_INPUT_MAX_RATIO,
					(unsigned long long)(PT_INPUT_RATIO_FLOOR >> 20));
	if (in->total > in->max_size)
		return pt_diag_error(in->diag, "input is larger than --max-input-size (%llu bytes)",
				     (unsigned long long)in->max_size);
	in->end += (size_t)r;
	return r;
}

const unsigned char *pt_input_peek(struct pt_input *in, size_t want, size_t *len)
{
	while (in->end - in->pos < want) {
		ssize_t r = fill(in);
		if (r < 0)
			return NULL;
		if (!r)
			break;
	}
	*len = in->end - in->pos < want ? in->end - in->pos : want;
	return in->buf + in->pos;
}

int pt_input_getline(struct pt_input *in, char **line, size_t *len)
{
	for (;;) {
		size_t from = in->scan > in->pos ? in->scan : in->pos;
		unsigned char *nl = memchr(in->buf + from, '\n', in->end - from);
		size_t n;

		if (nl || (in->eof && in->end > in->pos)) {
			unsigned char *start = in->buf + in->pos;
			n = nl ? (size_t)(nl - start) : in->end - in->pos;
			in->pos += n + (nl ? 1 : 0);
			in->cut = !nl;
			in->scan = in->pos;
			if (n && start[n - 1] == '\r')
				n--;
			start[n] =
				'\0'; /* the '\n' slot, or spare room: alloc > end always holds */
			*line = (char *)start;
			*len = n;
			in->lineno++;
			return 1;
		}
		if (in->eof)
			return 0;
		if (in->end - in->pos > PT_INPUT_MAX_LINE)
			return pt_diag_error_line(in->diag, in->lineno + 1,
						  "line longer than %zu bytes", PT_INPUT_MAX_LINE);
		in->scan = in->end;
		if (fill(in) < 0)
			return -1;
	}
}

int pt_input_need(struct pt_input *in, size_t n, const unsigned char **p)
{
	while (in->end - in->pos < n) {
		ssize_t r = fill(in);
		if (r < 0)
			return -1;
		if (!r) {
			*p = in->buf + in->pos;
			return 0;
		}
	}
	*p = in->buf + in->pos;
	return 1;
}

int pt_input_slurp(struct pt_input *in, unsigned char **data, size_t *len)
{
	for (;;) {
		ssize_t r = fill(in);
		if (r < 0)
			return -1;
		if (!r)
			break;
	}
	*len = in->end - in->pos;
	*data = (unsigned char *)pt_xmemdup(in->buf + in->pos, *len);
	in->pos = in->end;
	return 0;
}
