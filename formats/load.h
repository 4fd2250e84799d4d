/* load.h: the one load front: open an input (file, stdin, URL), undo its compression,
 * detect or force its format, read it, check the model (core/check.h); and resolve a
 * --sample-index spec against the profile. Every command, unit test and fuzzer reads
 * through here. */
#ifndef PT_LOAD_H
#define PT_LOAD_H

#include <stdint.h>

#include "util/diag.h"
#include "formats/format.h"
#include "core/heapgraph.h"
#include "core/profile.h"

/* What the command is told of a URL input: start() before the fetch (the URL asked
 * for and the seconds the endpoint profiles, 0 if not said), done() after the input was
 * read from the fetched bytes (format: the reader's row name; p: the profile, NULL for
 * a heap graph). done() returns 0, or -1 with d filled (a failure to keep the bytes). */
struct pt_fetch_hooks {
	void (*start)(void *ctx, const char *url, long seconds);
	/* while the fetch waits, about once a second: the bytes received so far; NULL:
	 * not told */
	void (*waiting)(void *ctx, const char *url, long seconds, uint64_t received);
	int (*done)(void *ctx, const char *url, const unsigned char *data, size_t len,
		    const char *format, const struct pt_profile *p, struct pt_diag *d);
	void *ctx;
};

struct pt_load_opts {
	const char *from;  /* forced format name, or NULL to detect */
	uint64_t max_size; /* 0 = default */
	long seconds;	   /* URL inputs: seconds=N for /debug/pprof/ (0: not asked) */
	/* URL inputs: seconds to wait at most (0: as pprof, the seconds profiled, asked or
	 * in the URL, and half again, at least 5 more; else 60) */
	long timeout;
	const struct pt_fetch_hooks *hooks; /* URL inputs; NULL: none */
	/* told of the bytes read as a file is read (pt_input_watch), or NULL */
	void (*progress)(void *ctx, const char *name, uint64_t done, uint64_t size);
	void *progress_ctx;
	struct pt_read_opts read;
};

/* Read path ("-" = stdin, or an http:// or https:// URL, fetched whole) into p
 * (initialized by the caller), then check it (pt_profile_check). On error d is filled
 * (its path set to the input's display name) and -1 returned; p must still be
 * released. */
int pt_load(const char *path, const struct pt_load_opts *o, struct pt_profile *p,
	    struct pt_diag *d);

/* The same from an open input (detection peeks at its first bytes). */
int pt_load_input(struct pt_input *in, const struct pt_load_opts *o, struct pt_profile *p,
		  struct pt_diag *d);

/* What a command that needs a heap graph reads (`proftool heap`): path, opened as
 * above, into g (initialized by the caller, who releases it even on error) by the row
 * that yields a heap graph (pt_format_detect_yield). An input another row claims is
 * refused with its format's name. 0, or -1 with d filled. */
int pt_load_heap(const char *path, const struct pt_load_opts *o, struct pt_heapgraph *g,
		 struct pt_diag *d);
/* the same from an open input */
int pt_load_heap_input(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d);

/* Either (`proftool info`): path into p as pt_load does, or, when only a reader of heap
 * graphs claims it, into g as pt_load_heap does (*is_heap set). Both initialized and
 * released by the caller. 0, or -1 with d filled. */
int pt_load_either(const char *path, const struct pt_load_opts *o, struct pt_profile *p,
		   struct pt_heapgraph *g, int *is_heap, struct pt_diag *d);

/* Index of the sample type that spec names (NULL = the profile's default), or -1 with d
 * filled. "all" is accepted only when allow_all, giving PT_TYPE_ALL. */
int pt_select_type(const struct pt_profile *p, const char *spec, int allow_all, struct pt_diag *d);

#endif
