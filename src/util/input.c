/* input.c: buffered, size-bounded input that undoes gzip, xz and zstd. zlib, liblzma
 * and libzstd are opened when an input first needs them (util/dynlib.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "util/dynlib.h"
#include "util/input.h"
#include "util/xalloc.h"

/* the buffer's first size and the most read at once: 64 KiB, which PT_INPUT_AHEAD keeps
 * enough for perf's look past a header (128 KiB cost every reader 64 KiB more peak) */
#define CHUNK (1u << 16)

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
	/* a regular file read up to the size it had when opened: at its end, without the
	 * read that would say so (a merge opens a thousand small files) */
	if (in->size && in->read_bytes >= in->size)
		return 0;
	do
		r = read(in->fd, dst, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		pt_diag_error(in->diag, "read error: %s", strerror(errno));
	if (r > 0) {
		in->read_bytes += (uint64_t)r;
		if (in->progress)
			in->progress(in->progress_ctx, in->name, in->read_bytes, in->size);
	}
	return r;
}

void pt_input_watch(struct pt_input *in,
		    void (*fn)(void *ctx, const char *name, uint64_t done, uint64_t size),
		    void *ctx)
{
	if (in->mem || in->fd < 0)
		return;
	in->progress = fn;
	in->progress_ctx = ctx;
	if (in->read_bytes) /* what opening read ahead */
		fn(ctx, in->name, in->read_bytes, in->size);
}

static int start(struct pt_input *in, struct pt_diag *d);
static int start_buffers(struct pt_input *in, struct pt_diag *d);
static int skip_bom(struct pt_input *in);

int pt_input_open(struct pt_input *in, const char *path, uint64_t max_size, struct pt_diag *d)
{
	struct stat st;

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
	/* a size of 0 is no size: /proc's files say 0 and hold more */
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
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

/* The decompressors. Each step decodes from raw[raw_pos, raw_len) into dst, adds what
 * it produced to *out and what it consumed to raw_pos and raw_consumed, and returns 0
 * (go on), 1 (the compressed stream has ended) or -1 (diag filled). A decoder's memory
 * is bounded whatever its input declares: xz by a memory limit, zstd by a window limit
 * (both PT_DECODER_MEM). */
#define PT_DECODER_MEM	((uint64_t)128 << 20)
#define ZSTD_WINDOW_LOG 27 /* 2^27 = PT_DECODER_MEM */

enum { DEC_GZIP, DEC_XZ, DEC_ZSTD };

/* the zlib, liblzma and libzstd calls we make, as X(member, function) (util/dynlib.h);
 * inflateInit2 is a macro for inflateInit2_ with zlib's version and z_stream's size */
#define GZIP_CALLS(X)                                                                              \
	X(init2, inflateInit2_)                                                                    \
	X(inflate, inflate)                                                                        \
	X(reset, inflateReset)                                                                     \
	X(end, inflateEnd)
#define XZ_CALLS(X)                                                                                \
	X(stream_decoder, lzma_stream_decoder)                                                     \
	X(code, lzma_code)                                                                         \
	X(end, lzma_end)
#define ZSTD_CALLS(X)                                                                              \
	X(create, ZSTD_createDStream)                                                              \
	X(set_parameter, ZSTD_DCtx_setParameter)                                                   \
	X(decompress, ZSTD_decompressStream)                                                       \
	X(is_error, ZSTD_isError)                                                                  \
	X(error_code, ZSTD_getErrorCode)                                                           \
	X(free, ZSTD_freeDStream)

struct gzip_api {
	GZIP_CALLS(PT_DYNLIB_MEMBER)
};
static const char *const gzip_names[] = {GZIP_CALLS(PT_DYNLIB_NAME)};

struct xz_api {
	XZ_CALLS(PT_DYNLIB_MEMBER)
};
static const char *const xz_names[] = {XZ_CALLS(PT_DYNLIB_NAME)};

struct zstd_api {
	ZSTD_CALLS(PT_DYNLIB_MEMBER)
};
static const char *const zstd_names[] = {ZSTD_CALLS(PT_DYNLIB_NAME)};

struct pt_decoder {
	int kind;
	const char *name; /* for messages: "gzip", "xz", "zstd" */
	void *lib;	  /* liblzma or libzstd once opened */
	z_stream zs;
	const struct gzip_api *gzf; /* zlib's calls, once opened */
	lzma_stream xz;
	struct xz_api xzf;
	ZSTD_DStream *zd;
	struct zstd_api zf;
	size_t zd_hint; /* ZSTD_decompressStream's last return: 0 at the end of a frame */
};

/* read more compressed bytes when all read so far are decoded */
static int refill(struct pt_input *in)
{
	ssize_t r;

	if (in->raw_pos < in->raw_len || in->raw_eof)
		return 0;
	r = read_fd(in, in->raw, in->raw_alloc);
	if (r < 0)
		return -1;
	in->raw_pos = 0;
	in->raw_len = (size_t)r;
	if (!r)
		in->raw_eof = 1;
	return 0;
}

static void consumed(struct pt_input *in, size_t n)
{
	in->raw_pos += n;
	in->raw_consumed += n;
}

static int gzip_step(struct pt_input *in, unsigned char *dst, size_t cap, size_t *out)
{
	z_stream *zs = &in->dec->zs;
	uInt avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
	int rc;

	zs->next_in = in->raw + in->raw_pos;
	zs->avail_in = (uInt)(in->raw_len - in->raw_pos);
	zs->next_out = dst;
	zs->avail_out = avail_out;
	rc = in->dec->gzf->inflate(zs, Z_NO_FLUSH);
	consumed(in, in->raw_len - in->raw_pos - zs->avail_in);
	*out += avail_out - zs->avail_out;
	if (rc == Z_STREAM_END) {
		/* another gzip member may follow (concatenated .gz files) */
		if (refill(in) < 0)
			return -1;
		if (in->raw_len - in->raw_pos >= 2 && in->raw[in->raw_pos] == 0x1f &&
		    in->raw[in->raw_pos + 1] == 0x8b) {
			in->dec->gzf->reset(zs);
			return 0;
		}
		return 1; /* trailing bytes ignored, as gzip(1) does */
	}
	if (rc != Z_OK && rc != Z_BUF_ERROR)
		return pt_diag_error_at(in->diag, in->raw_consumed, "gzip: %s",
					zs->msg ? zs->msg : "corrupt data");
	return 0;
}

static int xz_step(struct pt_input *in, unsigned char *dst, size_t cap, size_t *out)
{
	lzma_stream *xz = &in->dec->xz;
	lzma_ret rc;

	xz->next_in = in->raw + in->raw_pos;
	xz->avail_in = in->raw_len - in->raw_pos;
	xz->next_out = dst;
	xz->avail_out = cap;
	/* LZMA_CONCATENATED: the end is known only once told there is no more input */
	rc = in->dec->xzf.code(xz, in->raw_eof && !xz->avail_in ? LZMA_FINISH : LZMA_RUN);
	consumed(in, in->raw_len - in->raw_pos - xz->avail_in);
	*out += cap - xz->avail_out;
	switch (rc) {
	case LZMA_OK:
	case LZMA_BUF_ERROR: /* no progress: the caller sees a cut stream */
		return 0;
	case LZMA_STREAM_END:
		return 1;
	case LZMA_MEMLIMIT_ERROR:
		return pt_diag_error_at(in->diag, in->raw_consumed,
					"xz: decoding needs more than %llu MiB of memory",
					(unsigned long long)(PT_DECODER_MEM >> 20));
	case LZMA_FORMAT_ERROR:
		return pt_diag_error_at(in->diag, in->raw_consumed, "xz: not an xz stream");
	case LZMA_OPTIONS_ERROR:
		return pt_diag_error_at(in->diag, in->raw_consumed,
					"xz: unsupported compression options");
	default:
		return pt_diag_error_at(in->diag, in->raw_consumed, "xz: corrupt data");
	}
}

static int zstd_step(struct pt_input *in, unsigned char *dst, size_t cap, size_t *out)
{
	struct pt_decoder *dec = in->dec;
	ZSTD_inBuffer zin = {in->raw + in->raw_pos, in->raw_len - in->raw_pos, 0};
	ZSTD_outBuffer zout = {dst, cap, 0};
	size_t rc;

	/* frames follow each other until the input ends, which must be at a frame's end */
	if (!zin.size && in->raw_eof && !dec->zd_hint)
		return 1;
	rc = dec->zf.decompress(dec->zd, &zout, &zin);
	consumed(in, zin.pos);
	*out += zout.pos;
	if (!dec->zf.is_error(rc)) {
		dec->zd_hint = rc;
		return 0;
	}
	switch (dec->zf.error_code(rc)) {
	case ZSTD_error_frameParameter_windowTooLarge:
		return pt_diag_error_at(in->diag, in->raw_consumed,
					"zstd: decoding needs more than %llu MiB of memory",
					(unsigned long long)(PT_DECODER_MEM >> 20));
	case ZSTD_error_prefix_unknown:
		return pt_diag_error_at(in->diag, in->raw_consumed, "zstd: not a zstd frame");
	default:
		return pt_diag_error_at(in->diag, in->raw_consumed, "zstd: corrupt data");
	}
}

/* decode into dst; returns bytes produced, 0 at the end, -1 on error */
static ssize_t decode_some(struct pt_input *in, unsigned char *dst, size_t cap)
{
	for (;;) {
		uint64_t before = in->raw_consumed;
		size_t out = 0;
		int rc;

		if (refill(in) < 0)
			return -1;
		if (in->dec->kind == DEC_GZIP)
			rc = gzip_step(in, dst, cap, &out);
		else if (in->dec->kind == DEC_XZ)
			rc = xz_step(in, dst, cap, &out);
		else
			rc = zstd_step(in, dst, cap, &out);
		if (rc < 0)
			return -1;
		if (rc > 0)
			in->dec_done = 1;
		if (out || rc > 0)
			return (ssize_t)out;
		if (in->raw_consumed == before) {
			/* no progress: only the end of the input explains it */
			if (in->raw_pos < in->raw_len || !in->raw_eof)
				return pt_diag_error_at(in->diag, in->raw_consumed,
							"%s: corrupt data", in->dec->name);
			return pt_diag_error_at(in->diag, in->raw_consumed,
						"%s: unexpected end of compressed data",
						in->dec->name);
		}
	}
}

/* the decoder whose magic starts these bytes, or -1 */
static int sniff(const unsigned char *b, size_t n)
{
	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return DEC_GZIP;
	if (n >= 6 && !memcmp(b,
			      "\xfd"
			      "7zXZ\0",
			      6))
		return DEC_XZ;
	/* a zstd frame, or a skippable frame (0x184D2A50..5F, little-endian) */
	if (n >= 4 && ((b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) ||
		       ((b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18)))
		return DEC_ZSTD;
	return -1;
}

#define NCALLS(names) (sizeof(names) / sizeof(names[0]))

/* zlib's calls, filled once for the run: a merge of a thousand gzipped files (a fleet's
 * pprof profiles) would otherwise open it a thousand times, about 5,000 instructions
 * each (dlopen of the open library, then dlsym of each call). Written by load_zlib only. */
static struct gzip_api gzip_table;
static int gzip_loaded;

static int load_zlib(struct pt_input *in, struct pt_decoder *dec)
{
	void *fns[NCALLS(gzip_names)];
	struct gzip_api *api = &gzip_table;
	char err[256];
	size_t i = 0;

	if (!gzip_loaded) {
		if (!pt_dynlib_open(PT_ZLIB_SONAME, "zlib1g", gzip_names, fns, NCALLS(gzip_names),
				    err, sizeof(err)))
			return pt_diag_error(in->diag, "%s", err);
		GZIP_CALLS(PT_DYNLIB_SET)
		gzip_loaded = 1;
	}
	dec->gzf = &gzip_table;
	return 0;
}

/* open zlib, liblzma or libzstd and fill the decoder's table of its calls */
static int load_api(struct pt_input *in, struct pt_decoder *dec)
{
	void *fns[NCALLS(xz_names) > NCALLS(zstd_names) ? NCALLS(xz_names) : NCALLS(zstd_names)];
	char err[256];
	size_t i = 0;

	if (dec->kind == DEC_GZIP)
		return load_zlib(in, dec);
	if (dec->kind == DEC_XZ) {
		struct xz_api *api = &dec->xzf;
		dec->lib = pt_dynlib_open(PT_LZMA_SONAME, "liblzma5", xz_names, fns,
					  NCALLS(xz_names), err, sizeof(err));
		if (!dec->lib)
			return pt_diag_error(in->diag, "%s", err);
		XZ_CALLS(PT_DYNLIB_SET)
	} else {
		struct zstd_api *api = &dec->zf;
		dec->lib = pt_dynlib_open(PT_ZSTD_SONAME, "libzstd1", zstd_names, fns,
					  NCALLS(zstd_names), err, sizeof(err));
		if (!dec->lib)
			return pt_diag_error(in->diag, "%s", err);
		ZSTD_CALLS(PT_DYNLIB_SET)
	}
	return 0;
}

static int decoder_init(struct pt_input *in, int kind)
{
	static const char *const names[] = {"gzip", "xz", "zstd"};
	struct pt_decoder *dec = pt_xcalloc(1, sizeof(*dec));
	lzma_stream xz_init = LZMA_STREAM_INIT;

	in->dec = dec;
	dec->kind = kind;
	dec->name = names[kind];
	dec->xz = xz_init;
	if (load_api(in, dec) < 0)
		return -1;
	switch (kind) {
	case DEC_GZIP:
		if (dec->gzf->init2(&dec->zs, 15 + 16, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK)
			return pt_diag_error(in->diag, "cannot initialize zlib");
		break;
	case DEC_XZ:
		if (dec->xzf.stream_decoder(&dec->xz, PT_DECODER_MEM, LZMA_CONCATENATED) != LZMA_OK)
			return pt_diag_error(in->diag, "cannot initialize liblzma");
		break;
	default:
		dec->zd = dec->zf.create();
		if (!dec->zd || dec->zf.is_error(dec->zf.set_parameter(dec->zd, ZSTD_d_windowLogMax,
								       ZSTD_WINDOW_LOG)))
			return pt_diag_error(in->diag, "cannot initialize libzstd");
		break;
	}
	return 0;
}

static void decoder_free(struct pt_input *in)
{
	struct pt_decoder *dec = in->dec;

	if (!dec)
		return;
	if (dec->kind == DEC_GZIP && dec->gzf)
		dec->gzf->end(&dec->zs);
	else if (dec->kind == DEC_XZ && dec->lib)
		dec->xzf.end(&dec->xz);
	else if (dec->lib)
		dec->zf.free(dec->zd);
	pt_dynlib_close(dec->lib);
	free(dec);
	in->dec = NULL;
}

/* Allocate the buffer and look at the first bytes for a compressor's magic. They are
 * read straight into the decoded buffer, where plain input stays; only compressed input
 * needs a second buffer for the compressed bytes. On failure nothing stays open: callers
 * may close again, or not. */
static int start(struct pt_input *in, struct pt_diag *d)
{
	if (start_buffers(in, d) < 0) {
		pt_input_close(in);
		return -1;
	}
	return 0;
}

static int start_buffers(struct pt_input *in, struct pt_diag *d)
{
	ssize_t r;
	int kind;

	(void)d;
	/* small in-memory inputs get small buffers; both grow as data arrives */
	in->alloc = in->mem && in->mem_len < CHUNK ? in->mem_len + 64 : CHUNK;
	in->buf = pt_xmalloc(in->alloc);
	r = read_fd(in, in->buf, in->alloc);
	if (r < 0)
		return -1;
	kind = sniff(in->buf, (size_t)r);
	if (kind >= 0) {
		in->raw_alloc = in->alloc;
		in->raw = pt_xmalloc(in->raw_alloc);
		memcpy(in->raw, in->buf, (size_t)r);
		in->raw_len = (size_t)r;
		if (decoder_init(in, kind) < 0)
			return -1;
		return skip_bom(in);
	}
	/* not compressed: the bytes are decoded data already */
	in->end = (size_t)r;
	in->total = (uint64_t)r;
	if (r == 0)
		in->eof = 1;
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
	decoder_free(in);
	if (in->fd > 0)
		close(in->fd);
	free(in->buf);
	free(in->raw);
	in->buf = in->raw = NULL;
	in->fd = -1;
}

int pt_input_can_rewind(const struct pt_input *in)
{
	return in->mem || (in->fd >= 0 && lseek(in->fd, 0, SEEK_CUR) >= 0);
}

int pt_input_rewind(struct pt_input *in)
{
	struct pt_input keep = *in;

	if (!pt_input_can_rewind(in))
		return pt_diag_error(in->diag, "cannot read the input a second time");
	if (!in->mem && lseek(in->fd, 0, SEEK_SET) != 0)
		return pt_diag_error(in->diag, "cannot seek: %s", strerror(errno));
	decoder_free(in);
	free(in->buf);
	free(in->raw);
	memset(in, 0, sizeof(*in));
	in->name = keep.name;
	in->fd = keep.fd;
	in->diag = keep.diag;
	in->max_size = keep.max_size;
	in->ratio_bound = keep.ratio_bound;
	in->mem = keep.mem;
	in->mem_len = keep.mem_len;
	in->progress = keep.progress;
	in->progress_ctx = keep.progress_ctx;
	in->size = keep.size;
	if (start_buffers(in, in->diag) < 0) {
		pt_input_close(in);
		return -1;
	}
	return 0;
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
	if (in->dec && !in->dec_done)
		r = decode_some(in, in->buf + in->end, in->alloc - in->end);
	else if (in->dec)
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
	if (in->dec && in->ratio_bound && in->total > PT_INPUT_RATIO_FLOOR &&
	    in->total / PT_INPUT_MAX_RATIO > in->raw_consumed)
		return pt_diag_error_at(in->diag, in->raw_consumed,
					"%s data expands more than %d times past %llu MiB (a "
					"bomb?); an explicit --max-input-size reads it",
					in->dec->name, PT_INPUT_MAX_RATIO,
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
	/* PT_INPUT_AHEAD (input.h), refilled once half the buffer is behind: the move
	 * is of less than PT_INPUT_AHEAD bytes, the read of at least CHUNK minus that */
	if (!in->eof && in->end - in->pos < PT_INPUT_AHEAD && in->pos >= in->alloc / 2 &&
	    fill(in) < 0)
		return -1;
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

int pt_input_skip_to(struct pt_input *in, uint64_t off)
{
	while (pt_input_tell(in) < off) {
		const unsigned char *p;
		uint64_t have;
		if (in->pos == in->end && pt_input_need(in, 1, &p) < 0)
			return -1;
		have = in->end - in->pos;
		if (!have)
			return 0;
		if (have > off - pt_input_tell(in))
			have = off - pt_input_tell(in);
		in->pos += (size_t)have;
	}
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
