/* format.h: a profile format is a table row: detect, read and write (either may be NULL),
 * what its reader yields and what its writer takes. Adding a format is one file in
 * formats/ plus one line in formats/registry.c, which alone names the rows. */
#ifndef PT_FORMAT_H
#define PT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"
#include "util/input.h"
#include "core/heapgraph.h"
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
	/* for the readers whose row sets .addresses, the sink used instead of sink when
	 * not NULL (the symbolizer, analysis/symbolize.h, in front of sink): the others
	 * keep their own paths to the tree */
	struct pt_sink *addr_sink;
	/* a merge's result to read straight into (core/sink.h); NULL: read into p */
	const struct pt_append *append;
	/* a Go trace the reader does not read itself (a version it does not know, or
	 * PT_READ_VIA_GO): its bytes handed to the command's adapter, which runs go tool
	 * trace and fills p's four types (set by the reader) through o->sink; returns 0,
	 * -1 with d filled, or 1 when no go command is there. NULL: an error naming the
	 * command to run. */
	int (*via_go)(const unsigned char *data, size_t len, int ver, struct pt_profile *p,
		      const struct pt_read_opts *o, struct pt_diag *d);
	/* pt_load_either's callers that take a heap graph where a profile reader finds no
	 * profile (a V8 snapshot without allocation stacks: convert's page): the reader
	 * moves its graph here and returns PT_READ_HEAP instead of failing. NULL: it fails */
	struct pt_heapgraph *heap_out;
};
/* a reader's return with o->heap_out filled (above) */
#define PT_READ_HEAP 1

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

/* A text reader's loop: every line of in to line(ctx, s, n, lineno), which returns 0,
 * or -1 with its error in d: then the line is skipped under --lenient (pt_read_skip),
 * else the read ends. 0 at the end of the input; -1 with d filled otherwise. */
static inline int pt_read_lines(struct pt_input *in, const struct pt_read_opts *o,
				struct pt_diag *d,
				int (*line)(void *ctx, char *s, size_t n, uint64_t lineno),
				void *ctx)
{
	char *s;
	size_t n;
	int rc;

	while ((rc = pt_input_getline(in, &s, &n)) > 0)
		if (line(ctx, s, n, in->lineno) < 0 && pt_read_skip(o, d, in->lineno) < 0)
			return -1;
	return rc < 0 ? -1 : 0;
}

enum pt_read_flag {
	PT_READ_NO_TIDY = 1 << 0,	/* perf: keep names exactly as printed */
	PT_READ_PID = 1 << 1,		/* perf: process root frame "comm-PID" */
	PT_READ_TID = 1 << 2,		/* perf: process root frame "comm-PID/TID" */
	PT_READ_ADDRS = 1 << 3,		/* perf: keep addresses of unknown symbols */
	PT_READ_GOROUTINE_IDS = 1 << 4, /* goroutine: a "goroutine" label with each id */
	PT_READ_GO_ARGS = 1 << 5,	/* goroutine: function names keep their arguments */
	PT_READ_VIA_GO = 1 << 6,	/* gotrace: read through go tool trace (via_go) */
	PT_READ_BINARY_PATH = 1 << 8,	/* the symbolizer searches a --binary-path */
	/* goroutine: no "created by" root frame (the function tables: go tool pprof's
	 * debug=0 profile of the same moment has none) */
	PT_READ_NO_CREATOR = 1 << 7,
	/* every reader (the model does it as functions are made, core/profile.h
	 * PT_NAMES_*): mangled names kept as they are; template and parameter lists
	 * dropped */
	PT_READ_NO_DEMANGLE = 1 << 20,
	PT_READ_SIMPLIFY = 1 << 21,
};

/* html's default --min-fraction */
#define PT_HTML_MIN_FRACTION 0.0001
/* svg's and html's default --max-frames: the frames drawn (svg), the call tree's nodes
 * and the caller/callee pairs kept (html), at most; bounds the output of a deep or wide
 * profile (about 12 MB of SVG, 1 MB of page) */
#define PT_MAX_FRAMES 50000

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
	long max_frames;    /* svg, html: at most this many frames, the widest (0: all) */
	/* html: frames below this fraction of the total are drawn as their parent's */
	double min_fraction;
	/* html: ':'-separated directories to find source files in (embedded), or NULL */
	const char *source_path;
	/* the input's display name (for a page's title), or NULL; pt_cli_write sets it */
	const char *input;
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
	o->max_frames = PT_MAX_FRAMES;
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

/* The writer's own command-line options, as groups: each is one option table of
 * cli/write-opts.c. `convert` takes the groups of every writer in the registry. */
enum pt_write_opt_group {
	PT_WOPTS_DOT = 1 << 0,	/* --nodecount, --edge-fraction (and --node-fraction) */
	PT_WOPTS_SVG = 1 << 1,	/* --title, --width, --minwidth, --colors, --inverted, ... */
	PT_WOPTS_HTML = 1 << 2, /* --min-fraction, --source-path */
	PT_WOPTS_TAGS = 1 << 3, /* --kernel, --jit, --inline, --all: PT_WRITE_TAG_* */
	PT_WOPTS_GZIP = 1 << 4, /* --no-gzip */
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
	/* A reader of another model than the call tree (see enum pt_yield), NULL if none:
	 * the heap graph of a snapshot into g (initialized by the caller, released by it
	 * even on error). */
	int (*read_heap)(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d);
	/* the option groups (PT_WOPTS_*) the writer reads, some options of each or all */
	unsigned write_opts;
	/* `diff --to`: every writer takes the diff's profile (types base and new, new
	 * written); these PT_WRITE_* flags are added to its otherwise zero options */
	uint32_t diff_flags;
	/* the writer's output is binary: never written to a terminal (as gzip refuses) */
	int binary;
	/* the reader makes frames that are bare addresses in a mapping (PT_FRAME_NO_SYMBOL
	 * with an address), which the symbolizer names (pt_read_opts.addr_sink):
	 * PT_ADDRESSES_ALL (1) hands it every stack, PT_ADDRESSES_SOME only the stacks with
	 * such a frame (the reader reads o->addr_sink; the others go to o->sink) */
	int addresses;
	/* the writer makes pages: a heap graph (a V8 snapshot without stacks, a Ruby dump)
	 * given to convert becomes the heap report's page (report/heap.c), not an error */
	int heap_page;
	/* a fetched profile of this format that PROFTOOL_SAVE_DIR keeps is named as go tool
	 * pprof names its own, NAME.[BINARY.]TYPE1.TYPE2.NNN, from the profile's main binary
	 * and sample types (the others are proftool.NAME.NNN) */
	int save_types;
};

enum pt_addresses { PT_ADDRESSES_ALL = 1, PT_ADDRESSES_SOME = 2 };

/* What a row's readers yield, so that a command asks the registry for what it needs:
 * .read gives a call tree profile (struct pt_profile: most formats; a goroutine dump
 * too, its goroutines as labelled samples), .read_heap a heap graph. */
enum pt_yield {
	PT_YIELD_PROFILE = 1 << 0,
	PT_YIELD_HEAP_GRAPH = 1 << 1,
};
/* the PT_YIELD_* a row gives, from its readers */
unsigned pt_format_yields(const struct pt_format *f);

/* how many leading (decompressed) bytes detect() is shown at least (fewer only when
 * the input is shorter); text is shown up to its first two whole lines (formats/load.c) */
#define PT_DETECT_BYTES 4096

/* the registry: NULL-terminated, in `proftool formats` order */
extern const struct pt_format *const pt_formats[];

const struct pt_format *pt_format_find(const char *name);
/* best-scoring reader of a profile for these bytes, or NULL */
const struct pt_format *pt_format_detect(const unsigned char *head, size_t len);
/* The best-scoring row that yields `need` (a PT_YIELD_*) for these bytes. When none
 * claims them, the first row that yields it, whose reader then says what is wrong (a
 * cut or broken snapshot may not look like one); NULL if no row yields it. */
const struct pt_format *pt_format_detect_yield(const unsigned char *head, size_t len,
					       unsigned need);
/* the reader an input's name suggests by its suffixes, or NULL (see registry.c) */
const struct pt_format *pt_format_reader_for_path(const char *path);
/* writer whose suffix matches the output path, or NULL */
const struct pt_format *pt_format_for_path(const char *path);

#endif
