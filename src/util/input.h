/* input.h: one input stream (file or stdin), transparently decompressed (gzip, xz,
 * zstd), read through one growing buffer. Readers either pull lines (pt_input_getline) or pull byte
 * ranges (pt_input_need / pt_input_consume). Memory grows with the longest line or the largest
 * range asked for, never with a length declared by the input: the buffer only grows as
 * data actually arrives, so a lying length field fails with "truncated" at EOF.
 * The decoded size is bounded by max_size (a decompression bomb stops there). */
#ifndef PT_INPUT_H
#define PT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/diag.h"

#define PT_INPUT_DEFAULT_MAX ((uint64_t)8 << 30) /* 8 GiB */
/* Without an explicit max_size, compressed input may also expand at most
 * PT_INPUT_MAX_RATIO times its compressed bytes once past PT_INPUT_RATIO_FLOOR decoded
 * bytes: a gzip bomb stops there, in well under a second, not at 8 GiB */
#define PT_INPUT_RATIO_FLOOR ((uint64_t)64 << 20) /* 64 MiB */
#define PT_INPUT_MAX_RATIO   250
/* the longest line we accept (a 100k-frame stack fits) */
#define PT_INPUT_MAX_LINE ((size_t)16 << 20)

struct pt_decoder; /* input.c: the decompressor's state */

struct pt_input {
	const char *name; /* display name: the path, or "<stdin>" */
	int fd;
	struct pt_decoder *dec; /* NULL for plain input */
	int dec_done;		/* the compressed stream has ended */
	unsigned char *raw;	/* compressed bytes read ahead */
	size_t raw_alloc;
	size_t raw_pos, raw_len; /* compressed bytes not yet decoded: raw[raw_pos, raw_len) */
	uint64_t raw_consumed;	 /* compressed bytes decoded so far */
	int raw_eof;
	unsigned char *buf; /* decoded bytes: valid in [pos, end) */
	size_t pos, end, alloc, scan;
	uint64_t offset; /* decoded stream offset of buf[0] */
	uint64_t total;	 /* decoded bytes produced */
	uint64_t max_size;
	int ratio_bound; /* max_size is the default: PT_INPUT_MAX_RATIO applies too */
	uint64_t lineno; /* number of the line last returned by getline */
	int eof;	 /* the decoded stream has ended */
	int cut;	 /* the line last returned by getline had no '\n' after it */
	struct pt_diag *diag;
	const unsigned char *mem; /* in-memory source (fd < 0), not owned */
	size_t mem_len, mem_pos;
	/* progress (pt_input_watch): told after each read of the file */
	void (*progress)(void *ctx, const char *name, uint64_t done, uint64_t size);
	void *progress_ctx;
	uint64_t read_bytes; /* bytes read from the file (compressed ones, if it is) */
	uint64_t size; /* the file's size when it is a regular file, else 0: read no further */
};

/* Open path ("-" = stdin). Errors (cannot open) go to d, whose path is set to the
 * display name. max_size 0 means PT_INPUT_DEFAULT_MAX. */
int pt_input_open(struct pt_input *in, const char *path, uint64_t max_size, struct pt_diag *d);
/* The same over bytes in memory (fuzzing, tests); data must outlive the input. */
int pt_input_open_mem(struct pt_input *in, const char *name, const void *data, size_t len,
		      uint64_t max_size, struct pt_diag *d);
void pt_input_close(struct pt_input *in);
/* Call fn(ctx, name, bytes read so far, the file's size or 0 if unknown) after each read
 * from the file from now on: a command's progress display. Nothing for memory inputs. */
void pt_input_watch(struct pt_input *in,
		    void (*fn)(void *ctx, const char *name, uint64_t done, uint64_t size),
		    void *ctx);

/* Up to `want` bytes from the current position without consuming them; *len is how many
 * are there (less only at end of input). NULL on a read error (diag filled). */
const unsigned char *pt_input_peek(struct pt_input *in, size_t want, size_t *len);

/* Next line, without its '\n' (and without a '\r' before it); the line may be modified
 * in place and stays valid until the next call. Returns 1, 0 at end of input, -1 on error.
 * A last line without '\n' is returned too. */
int pt_input_getline(struct pt_input *in, char **line, size_t *len);
/* Whether the line getline returned last (s, n: it, or a start of it) shows the input cut
 * short: it ends the input without a newline and is text. A NUL byte makes it binary
 * garbage instead, which the reader reports as an error like any line it cannot read. */
static inline int pt_input_cut_short(const struct pt_input *in, const char *s, size_t n)
{
	return in->cut && !memchr(s, '\0', n);
}

/* Make n bytes available at *p. Returns 1, 0 if the input ends first (the bytes that are
 * there remain available), -1 on a read error. */
int pt_input_need(struct pt_input *in, size_t n, const unsigned char **p);
static inline void pt_input_consume(struct pt_input *in, size_t n)
{
	in->pos += n;
}
/* decoded byte offset of the current position */
static inline uint64_t pt_input_tell(const struct pt_input *in)
{
	return in->offset + in->pos;
}
/* The bytes already read ahead of the current position (*len of them), reading no
 * more: a line reader may look at the lines to come without taking them. The line
 * pt_input_getline gave last and the bytes after it hold at least PT_INPUT_AHEAD
 * together unless the input ends first, so what follows a short line (perf's
 * callchain block after its header) is seen whole, not cut at the buffer's end. */
#define PT_INPUT_AHEAD ((size_t)16 << 10)
static inline const unsigned char *pt_input_ahead(const struct pt_input *in, size_t *len)
{
	*len = in->end - in->pos;
	return in->buf + in->pos;
}
/* Take n bytes of the read-ahead that hold nlines whole lines, each with its '\n', as
 * nlines calls of getline would (lineno follows). */
static inline void pt_input_skip_lines(struct pt_input *in, size_t n, uint64_t nlines)
{
	in->pos += n;
	in->lineno += nlines;
	in->cut = 0;
}
/* Whether pt_input_rewind can start the input over: bytes in memory, or a file that
 * seeks (a regular file, also as stdin), compressed or not; a pipe cannot. */
int pt_input_can_rewind(const struct pt_input *in);
/* Start the input over from its first byte (decoding it again if compressed), for a
 * reader that reads it twice: 0, or -1 with the error in the input's diag. */
int pt_input_rewind(struct pt_input *in);
/* Go on to decoded offset `off`, at or after the current position, reading past what
 * lies between: 1, 0 if the input ends first, -1 on a read error. */
int pt_input_skip_to(struct pt_input *in, uint64_t off);
/* Read the rest of the input into one malloc'd buffer (binary formats that need it
 * whole). Returns 0 or -1. The caller frees *data. */
int pt_input_slurp(struct pt_input *in, unsigned char **data, size_t *len);

#endif
