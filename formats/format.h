/* format.h: a profile format is a table row: detect, read and write (either may be NULL).
 * Adding a format is one file in formats/ plus one line in formats/registry.c. */
#ifndef PT_FORMAT_H
#define PT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"
#include "util/input.h"
#include "core/profile.h"
#include "core/sink.h"

/* Options every reader may look at; a reader ignores what does not apply to it. */
struct pt_read_opts {
	int lenient;	   /* skip lines that fit no form, count them in the diag */
	int keep_timeline; /* fill the profile's timeline when the input has one */
	uint32_t flags;	   /* PT_READ_* */
	const char *event; /* perf: keep only this event */
	/* where readers that make stacks hand them (core/sink.h); NULL builds the tree */
	struct pt_sink *sink;
};

/* The one --lenient rule of the text readers, for line `line` that failed to read (its
 * error already in d): under lenient it is counted as skipped in d and 0 is returned,
 * the reader goes on; else -1, the read fails with that error. */
static inline int pt_read_skip(const struct pt_read_opts *o, struct pt_diag *d, uint64_t line)
{
	if (!o->lenient)
		return -1;
	pt_diag_skip(d, line);
	return 0;
}

enum pt_read_flag {
	PT_READ_NO_TIDY = 1 << 0,	/* perf: keep names exactly as printed */
	PT_READ_PID = 1 << 1,		/* perf: process root frame "comm-PID" */
	PT_READ_TID = 1 << 2,		/* perf: process root frame "comm-PID/TID" */
	PT_READ_ADDRS = 1 << 3,		/* perf: keep addresses of unknown symbols */
	PT_READ_GOROUTINE_IDS = 1 << 4, /* goroutine: a "goroutine" label with each id */
	PT_READ_GO_ARGS = 1 << 5,	/* goroutine: function names keep their arguments */
};

/* html's default --min-fraction */
#define PT_HTML_MIN_FRACTION 0.0001

/* Options every writer may look at; pt_write_opts_init() sets the defaults. */
struct pt_write_opts {
	int type;	/* sample type index to write; PT_TYPE_ALL for every type */
	uint32_t flags; /* PT_WRITE_* */
	/* dot (pprof's defaults): at most nodecount nodes (0 = all); nodes below
	 * node_fraction and edges below edge_fraction of the total are dropped */
	long nodecount;
	double node_fraction, edge_fraction;
	/* svg flame graph */
	const char *title;  /* NULL = "Flame Graph" (or "Icicle Graph", "Flame Chart") */
	const char *colors; /* palette name: hot, mem, io, java, js, perl, ... */
	long width;	    /* image width in pixels */
	double minwidth;    /* frames narrower than this many pixels are left out */
	/* html: frames below this fraction of the total are drawn as their parent's */
	double min_fraction;
	/* html: ':'-separated directories to find source files in (embedded), or NULL */
	const char *source_path;
};

static inline void pt_write_opts_init(struct pt_write_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nodecount = 80;
	o->node_fraction = 0.005;
	o->edge_fraction = 0.001;
	o->colors = "hot";
	o->width = 1200;
	o->minwidth = 0.1;
	o->min_fraction = PT_HTML_MIN_FRACTION;
}

#define PT_TYPE_ALL (-2)

enum pt_write_flag {
	PT_WRITE_NO_GZIP = 1 << 0,    /* pprof: raw protobuf */
	PT_WRITE_TAG_KERNEL = 1 << 1, /* collapsed/svg: append _[k] to kernel frames */
	PT_WRITE_TAG_JIT = 1 << 2,    /* collapsed/svg: append _[j] to JIT frames */
	PT_WRITE_TAG_INLINE = 1 << 3, /* collapsed/svg: append _[i] to inlined frames */
	PT_WRITE_INVERTED = 1 << 4,   /* svg: icicle graph, roots at the top */
	PT_WRITE_FLAMECHART = 1 << 5, /* svg: time order instead of sorted by name */
	/* collapsed: every type's count on each line, a stack's missing count as 0
	 * (difffolded.pl's two counts, for `diff --to collapsed`) */
	PT_WRITE_ALL_TYPES = 1 << 6,
};

struct pt_format {
	const char *name;
	const char *description;
	/* output file suffixes for `convert -o`; an entry ending in '*' matches the start of
	 * the file's base name instead ("callgrind.out.*"); NULL-terminated */
	const char *const *suffixes;
	/* 0 = not mine, 1..100 = confidence, from the first bytes (decompressed) */
	int (*detect)(const unsigned char *head, size_t len);
	int (*read)(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
		    struct pt_diag *d);
	int (*write)(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
		     struct pt_diag *d);
	/* the writer uses the timeline (time-ordered output): readers are asked to keep it */
	int wants_timeline;
};

/* how many leading (decompressed) bytes detect() is shown at least (fewer only when
 * the input is shorter); text is shown up to its first two whole lines (src/cli/load.c) */
#define PT_DETECT_BYTES 4096

/* the registry: NULL-terminated, in `proftool formats` order */
extern const struct pt_format *const pt_formats[];

const struct pt_format *pt_format_find(const char *name);
/* best-scoring reader for these bytes, or NULL */
const struct pt_format *pt_format_detect(const unsigned char *head, size_t len);
/* writer whose suffix matches the output path, or NULL */
const struct pt_format *pt_format_for_path(const char *path);

/* one row per format, defined in formats/<name>.c */
extern const struct pt_format pt_format_collapsed;
extern const struct pt_format pt_format_perf;
extern const struct pt_format pt_format_pprof;
extern const struct pt_format pt_format_cpuprofile;
extern const struct pt_format pt_format_heapprofile;
extern const struct pt_format pt_format_heapsnapshot;
extern const struct pt_format pt_format_stackprof;
extern const struct pt_format pt_format_stackprof_json;
extern const struct pt_format pt_format_callgrind;
extern const struct pt_format pt_format_dot;
extern const struct pt_format pt_format_speedscope;
extern const struct pt_format pt_format_svg;
extern const struct pt_format pt_format_html;
extern const struct pt_format pt_format_goroutine;
extern const struct pt_format pt_format_gotext;
extern const struct pt_format pt_format_bpftrace;

#endif
