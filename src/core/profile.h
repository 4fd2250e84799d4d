/* profile.h: the one in-memory model every reader fills and every writer reads.
 *
 * A profile holds:
 *  - interned strings (id 0 = ""), functions (name, system name, file, start line) and
 *    frames (function + line/column/address/mapping + kind flags), all deduplicated;
 *  - several sample types (name + unit, as pprof's ValueType), a default type, period;
 *  - the call tree: a prefix tree of frames whose node 0 is the root (no frame); a node's
 *    parent always has a smaller id. Each node has a self value per sample type;
 *  - sample rows: (node, label set) -> values, so per-sample labels (pprof labels, perf's
 *    comm/pid/tid) survive aggregation; the node self values are the sums of the rows;
 *  - an optional timeline: (row, timestamp, values) in input order, kept only when the
 *    caller asked for it (it grows with the input, everything else with unique stacks);
 *  - or, for inputs that carry no stacks at all (stackprof without raw), the
 *    per-function table (struct pt_agg, core/functable.h) filled by the reader instead
 *    of the tree.
 * Readers hand stacks over through core/sink.h, which builds the tree unless a command
 * installed a sink of its own.
 *
 * Ownership: the profile owns everything; pt_profile_release() frees it all. Ids handed
 * out are stable for the profile's lifetime. Values are int64_t in the type's unit;
 * a type with `decimals` > 0 holds fixed-point values (value / 10^decimals). */
#ifndef PT_PROFILE_H
#define PT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/diag.h"
#include "util/index.h"
#include "util/input.h"
#include "util/intern.h"
#include "util/map.h"

struct pt_agg;

/* the most sample types a profile holds (pt_profile_add_type) */
#define PT_MAX_TYPES 64

/* saturating addition: hostile inputs must not make sums overflow (UB) */
static inline int64_t pt_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return a < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

/* dst[i] += src[i] for n values, saturating */
static inline void pt_add_values(int64_t *dst, const int64_t *src, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		dst[i] = pt_add(dst[i], src[i]);
}

/* saturating subtraction, the same way */
static inline int64_t pt_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* v * f rounded to the nearest, saturating (normalizing by a ratio) */
int64_t pt_mul_round(int64_t v, double f);

enum pt_frame_flag {
	PT_FRAME_KERNEL = 1 << 0,    /* kernel code */
	PT_FRAME_JIT = 1 << 1,	     /* JIT-compiled code */
	PT_FRAME_INLINED = 1 << 2,   /* inlined into its caller */
	PT_FRAME_NATIVE = 1 << 3,    /* native code under a managed runtime (cfunc, C++) */
	PT_FRAME_SYNTHETIC = 1 << 4, /* not code: GC, idle, (program), (root) */
	PT_FRAME_PROCESS = 1 << 5,   /* a process/thread root added by a reader (perf comm) */
	PT_FRAME_FOLDED = 1 << 6,    /* pprof's Location.is_folded */
	PT_FRAME_NO_SYMBOL = 1 << 7, /* no symbol: the name is made from the address */
	/* not on the stack: the function that started the goroutine (Go's "created by"),
	 * added as the root-most frame */
	PT_FRAME_CREATOR = 1 << 8,
};

struct pt_func {
	uint32_t name;	      /* string id */
	uint32_t system_name; /* string id (mangled name), 0 if none */
	uint32_t file;	      /* string id, 0 if unknown */
	/* the system name the function's identity holds (string id): system_name, or 0
	 * where names are simplified (PT_NAMES_SIMPLIFY); for the model's own lookup */
	uint32_t key_sys;
	int64_t start_line; /* 0 if unknown */
	/* Part of the dedup key: 0 normally; a reader whose input keeps functions apart by
	 * its own id although they share name, file and line (stackprof's two "<main>"
	 * frames) sets a distinct value per such function. */
	uint64_t ident;
};

struct pt_mapping {
	uint64_t start, limit, offset;
	uint32_t file;	   /* string id: DSO / binary path */
	uint32_t build_id; /* string id */
	uint32_t flags;	   /* PT_MAPPING_* */
};

enum pt_mapping_flag {
	PT_MAPPING_HAS_FUNCTIONS = 1 << 0,
	PT_MAPPING_HAS_FILENAMES = 1 << 1,
	PT_MAPPING_HAS_LINE_NUMBERS = 1 << 2,
	PT_MAPPING_HAS_INLINE_FRAMES = 1 << 3,
	/* its producer looked up the file's exported symbols already (perf): only a
	 * symbol table or DWARF can name more (the symbolizer passes over a binary with
	 * exported symbols only, and says nothing) */
	PT_MAPPING_EXPORTS_SEEN = 1 << 4,
};

struct pt_frame {
	uint32_t func;	  /* function id, never 0 for a real frame */
	uint32_t mapping; /* mapping id, 0 if none */
	int64_t line;	  /* line inside the function's file, 0 if unknown */
	int64_t column;	  /* 0 if unknown */
	uint64_t addr;	  /* instruction address, 0 if unknown */
	uint32_t flags;	  /* enum pt_frame_flag */
	uint32_t pad;
};

struct pt_sample_type {
	uint32_t name;	   /* string id: "samples", "cpu", "alloc_space", ... */
	uint32_t unit;	   /* string id: "count", "nanoseconds", "bytes", ... */
	uint32_t decimals; /* fixed-point digits (collapsed decimal counts), normally 0 */
};

struct pt_node {
	uint32_t parent;       /* 0 for the root's children; the root's own is itself */
	uint32_t frame;	       /* 0 only for the root */
	uint32_t first_child;  /* 0 = none (node 0 is never a child) */
	uint32_t next_sibling; /* 0 = none */
	uint32_t depth;	       /* root = 0 */
};

struct pt_label {
	uint32_t key; /* string id */
	uint32_t str; /* string id, 0 for numeric labels */
	int64_t num;
	uint32_t num_unit; /* string id */
};

/* Label keys with a shared meaning across readers, so writers can split a profile per
 * process or thread: "pid" and "tid" (numeric), "comm" (the process/thread name,
 * string), "thread" (a thread's display name, string). Readers add others freely
 * (pprof labels keep their own keys). */
#define PT_LABEL_PID	"pid"
#define PT_LABEL_TID	"tid"
#define PT_LABEL_COMM	"comm"
#define PT_LABEL_THREAD "thread"

struct pt_labelset {
	const struct pt_label *v; /* in the arena, sorted by key */
	uint32_t n;
};

struct pt_sample {
	uint32_t node;
	uint32_t labels; /* label set id, 0 = no labels */
};

struct pt_event {
	uint32_t sample; /* row */
	uint32_t pad;
	int64_t time; /* nanoseconds since the profile's time_nanos (or since start) */
};

struct pt_kv {
	uint32_t key, value; /* string ids */
};

struct pt_profile {
	struct pt_arena arena;
	struct pt_intern strings;
	const char *format; /* name of the reader that filled it (static string) */
	/* its metadata holds its producer's own totals (a stackprof dump's mode, interval,
	 * samples, gc_samples and missed_samples), which stackprof's report prints; kept
	 * wherever format is */
	int totals_in_meta;
	/* the key the tables' keys derive from (pt_hash_key_derive numbers 0 to 7); a
	 * reader derives its own tables' keys from it too, from number 8 up */
	struct pt_hash_key key;

	/* functions, mappings and frames; id 0 of each is a placeholder. Functions and
	 * frames are found by their records in funcs and frames (util/index.h: no second
	 * copy of each key), mappings and label sets by keys of their own. */
	struct pt_index func_index, frame_index;
	struct pt_intern mapping_keys, labelset_keys;
	struct pt_func *funcs;
	uint32_t nfuncs;
	size_t funcs_alloc;
	struct pt_mapping *mappings;
	uint32_t nmappings;
	size_t mappings_alloc;
	struct pt_frame *frames;
	uint32_t nframes;
	size_t frames_alloc;
	struct pt_labelset *labelsets;
	uint32_t nlabelsets;
	size_t labelsets_alloc;

	/* sample types */
	struct pt_sample_type *types;
	uint32_t ntypes;
	size_t types_alloc;
	/* the row width of node_self, sample_values and event_values: ntypes, except
	 * while a reader adds types among its samples (perf meets its events as it goes;
	 * pt_profile_add_type then widens by doubling). pt_profile_pack, which the loader
	 * calls after every read, makes it ntypes again: every user of the rows indexes
	 * them by ntypes. */
	uint32_t stride;
	uint32_t default_type;
	struct pt_sample_type period_type; /* name 0 if none */
	int64_t period;

	/* call tree; node_self holds ntypes values per node */
	struct pt_node *nodes;
	uint32_t nnodes;
	size_t nodes_alloc;
	int64_t *node_self;
	/* (parent << 32 | frame) -> node, only for parents with PT_CHILD_SCAN or more
	 * children; a parent with fewer is searched along its sibling list, so the many
	 * nodes of a tree with mostly unique stacks cost no hashing at all */
	struct pt_map children;
	uint8_t *indexed; /* a bit per node: its children are in the map */
	size_t indexed_alloc;
	/* the last stack added (root first) and its nodes: consecutive samples share long
	 * prefixes, which then cost no hash lookups */
	uint32_t *last_frames, *last_nodes;
	size_t last_n, last_alloc;

	/* sample rows; sample_values holds ntypes values per row */
	struct pt_sample *samples;
	uint32_t nsamples;
	size_t samples_alloc;
	int64_t *sample_values;
	struct pt_map sample_index; /* (node << 32 | labels) -> row */
	uint32_t last_row;	    /* the row found last: runs of one stack skip the map */
	uint64_t nrecords;	    /* input samples read (before aggregation) */
	/* Every sum the model and its reports make must fit in int64 (no total saturated,
	 * no share past 100%): sum_abs[t] is the sum of |v| over every value of type t
	 * handed in (pt_profile_account), which bounds them all. A record that would take
	 * it past INT64_MAX is left out, counted in overflows, and the position in src
	 * (the input being read, set by the loader; NULL: none) of the first kept. */
	uint64_t sum_abs[PT_MAX_TYPES];
	const struct pt_input *src;
	uint64_t overflows, overflow_pos;
	enum pt_diag_where overflow_where;
	uint32_t overflow_type;
	/* per type, the values of stacks a --hide or --show left without frames: out of
	 * the tree and rows, but in pprof's totals (top --style pprof) */
	int64_t emptied[PT_MAX_TYPES];

	/* timeline, only with keep_timeline; event_values holds ntypes values per event */
	int keep_timeline;
	struct pt_event *events;
	size_t nevents, events_alloc;
	int64_t *event_values;

	/* aggregate-only inputs: no tree, the reader fills this instead (or a sink that
	 * folded the stacks hands its table over after the read) */
	struct pt_agg *agg;
	/* stacks without source lines (stackprof raw before 0.2.26): the producer's own
	 * per-line counts, function granularity, line totals per occurrence; else NULL */
	struct pt_agg *line_agg;
	const char *no_stacks_reason; /* static or arena string: why there are no stacks */

	/* metadata */
	int64_t time_nanos;		   /* wall-clock start, ns since the epoch; 0 unknown */
	int64_t duration_nanos;		   /* 0 unknown */
	uint32_t drop_frames, keep_frames; /* pprof regexes, string ids */
	uint32_t *comments;
	size_t ncomments, comments_alloc;
	struct pt_kv *meta; /* producer metadata, in input order */
	size_t nmeta, meta_alloc;

	/* What becomes of function names as functions are made (PT_NAMES_*, set by the
	 * loader before the read; 0 leaves them as given): renamed[name's string id] is
	 * its new name's id << 1 | mangled, plus 1 (0: not looked at yet), so each
	 * distinct name is demangled once. */
	uint32_t name_mode;
	uint32_t *renamed;
	size_t renamed_alloc;
};

enum pt_names {
	/* a mangled name is its own system_name when the reader gives none (pprof's
	 * mark of a name not demangled yet) */
	PT_NAMES_MARK = 1 << 0,
	/* a mangled C++ or Rust name becomes its demangled form, as c++filt prints it */
	PT_NAMES_DEMANGLE = 1 << 1,
	/* parameter and template lists dropped from what DEMANGLE makes (pprof's default
	 * demangling) and from names that already are demangled C++; the functions of one
	 * such name are one function */
	PT_NAMES_SIMPLIFY = 1 << 2,
};

void pt_profile_init(struct pt_profile *p);
/* the same under a key given (derived from one the caller drew, pt_hash_key_derive):
 * no system call, for a command that reads a profile per file */
void pt_profile_init_key(struct pt_profile *p, const struct pt_hash_key *key);
void pt_profile_release(struct pt_profile *p);
/* p after a struct copy of a built profile (*p = np, np then forgotten): its tables
 * allocate from p's arena again, not from np's, whose place may be gone */
void pt_profile_moved(struct pt_profile *p);

static inline uint32_t pt_str(struct pt_profile *p, const char *s)
{
	return pt_intern_cstr(&p->strings, s);
}
static inline uint32_t pt_strn(struct pt_profile *p, const char *s, size_t n)
{
	return pt_intern(&p->strings, s, n);
}
static inline const char *pt_s(const struct pt_profile *p, uint32_t id)
{
	return pt_intern_str(&p->strings, id);
}

/* Add a sample type; returns its index, or UINT32_MAX if the profile has PT_MAX_TYPES
 * already (the reader reports where). May be called after samples exist (perf
 * discovers events as it goes): earlier rows get 0 for the new type.
 *
 * Every row holds one value per type. A type added when rows exist widens them to
 * twice the width (pt_row_width), so a file naming a new event after each of its
 * samples re-strides its rows a few times (log2 PT_MAX_TYPES), not once per type;
 * the cap bounds each row at PT_MAX_TYPES values. Real profiles have a handful of types (Go's heap
 * profile 4, perf script one per -e event). The man page documents the limit. */
uint32_t pt_profile_add_type(struct pt_profile *p, const char *name, const char *unit);
/* rows ntypes wide again (and the tables hung on the profile): after a read */
void pt_profile_pack(struct pt_profile *p);
/* index of the type named `spec`, or of number `spec` (0-based); -1 if none */
int pt_profile_find_type(const struct pt_profile *p, const char *spec);
/* multiply every value of type t by factor (fixed-point rescaling) */
void pt_profile_scale_type(struct pt_profile *p, uint32_t t, int64_t factor);
/* multiply every value of type t in the tree and the rows by f, rounding to the
 * nearest and saturating (a normalization; the timeline is left as it is) */
void pt_profile_mul_type(struct pt_profile *p, uint32_t t, double f);

/* A function from string ids already interned: a reader with more than one of its
 * strings still to intern calls pt_profile_func_text instead (C leaves the order in
 * which a call's arguments are evaluated open: interning them inside the call would
 * give the strings ids, and so the output bytes, that depend on the compiler). */
uint32_t pt_profile_func(struct pt_profile *p, uint32_t name, uint32_t system_name, uint32_t file,
			 int64_t start_line);
/* the same, with an identity that keeps otherwise equal functions apart (ident != 0) */
uint32_t pt_profile_func_ident(struct pt_profile *p, uint32_t name, uint32_t system_name,
			       uint32_t file, int64_t start_line, uint64_t ident);

/* A string given by its bytes: n bytes at s; s may be NULL when n is 0 (the empty
 * string, id 0, which interning never adds) */
struct pt_strref {
	const char *s;
	size_t n;
};
static inline struct pt_strref pt_strref_of(const char *s, size_t n)
{
	struct pt_strref r = {s, n};
	return r;
}
/* a NUL-terminated string (NULL for none) */
static inline struct pt_strref pt_strref_cstr(const char *s)
{
	return pt_strref_of(s, s ? strlen(s) : 0);
}
/* A function from the bytes of its strings, as pt_profile_func_ident. The strings are
 * interned in one fixed order, the order of string ids every reader's functions get:
 * the file first, then the system name, then the name (the order gcc's builds gave
 * when the readers interned them among the arguments of pt_profile_func, so the
 * bytes written stayed the same). A string already in the table keeps its id. */
uint32_t pt_profile_func_text(struct pt_profile *p, struct pt_strref name,
			      struct pt_strref system_name, struct pt_strref file,
			      int64_t start_line, uint64_t ident);

uint32_t pt_profile_mapping(struct pt_profile *p, const struct pt_mapping *m);
/* the main binary's mapping, as pprof's massageMappings guesses it: the first mapping
 * the tree's frames use that is neither a shared library nor a "[...]" pseudo file, else
 * the first one used; 0 if none. pprof names it in "File:" and profile.proto wants it
 * first. */
uint32_t pt_profile_main_mapping(const struct pt_profile *p);
/* the same over the n frames given (the frames of stacks kept without a tree) */
uint32_t pt_profile_main_mapping_of(const struct pt_profile *p, const uint32_t *frames, size_t n);
uint32_t pt_profile_frame(struct pt_profile *p, const struct pt_frame *f);
/* convenience: frame for a function name (and file/line), no address */
uint32_t pt_profile_simple_frame(struct pt_profile *p, const char *name, size_t len, uint32_t file,
				 int64_t line, uint32_t flags);
/* the same for a name already interned (string id) */
uint32_t pt_profile_name_frame(struct pt_profile *p, uint32_t name, uint32_t file, int64_t line,
			       uint32_t flags);
/* label set from n labels (any order); 0 for n == 0 */
uint32_t pt_profile_labelset(struct pt_profile *p, const struct pt_label *v, uint32_t n);

/* Room for at least `nodes` call-tree nodes and `rows` sample rows in all, for a reader
 * that knows its counts before it builds: the arrays are then sized once, not doubled
 * and copied on the way (growing past it still works) */
void pt_profile_reserve(struct pt_profile *p, size_t nodes, size_t rows);
/* child of `parent` for `frame`, created if absent */
uint32_t pt_profile_child(struct pt_profile *p, uint32_t parent, uint32_t frame);
/* node for a whole stack of frame ids; root first unless leaf_first */
uint32_t pt_profile_stack(struct pt_profile *p, const uint32_t *frames, size_t n, int leaf_first);
/* The row the next sample is likely to go to (a row pt_profile_add_sample returned): it
 * is taken if its node and labels are the sample's, else the rows' map is asked. A
 * reader that recognises a repeated stack skips the map's lookup so. */
static inline void pt_profile_hint_row(struct pt_profile *p, uint32_t row)
{
	p->last_row = row;
}
/* Add values (ntypes of them) to the row (node, labels); returns the row. Counts one
 * input record. With keep_timeline, also appends an event at `time`. */
uint32_t pt_profile_add_sample(struct pt_profile *p, uint32_t node, uint32_t labels,
			       const int64_t *values, int64_t time);
/* The same for a record its caller accounted (pt_profile_account) and counts itself:
 * a sink that builds the tree after changing the stack (analysis/symbolize.h) */
uint32_t pt_profile_add_sample_counted(struct pt_profile *p, uint32_t node, uint32_t labels,
				       const int64_t *values, int64_t time);
/* Add a single value of type t to the row, nothing else (no record counted, no event). */
void pt_profile_add_value(struct pt_profile *p, uint32_t node, uint32_t labels, uint32_t t,
			  int64_t v);

/* 0 if one more record with these values (ntypes of them) keeps every sum in int64,
 * and counts them; else -1 and the record must be left out (counted in overflows).
 * pt_profile_add_sample, pt_profile_add_value and pt_sink_sample call it. */
int pt_profile_account(struct pt_profile *p, const int64_t *values);
/* The same for a record the reader places itself (a table of counts read whole, where
 * the input's position has moved on): where and pos locate it. */
int pt_profile_account_at(struct pt_profile *p, const int64_t *values, enum pt_diag_where where,
			  uint64_t pos);
/* Count a record left out because a value of type t computed from it (a product, a sum
 * the reader makes) would not fit in int64, placed at where and pos; returns -1. */
int pt_profile_overflow_at(struct pt_profile *p, uint32_t t, enum pt_diag_where where,
			   uint64_t pos);
/* After a read: 0 if no record was left out for overflowing; else under lenient a
 * warning in d and 0, otherwise an error at the first such record and -1. */
int pt_profile_check_sums(const struct pt_profile *p, int lenient, struct pt_diag *d);

/* Append src's sample types after dst's and add src's samples to dst under them (0
 * for dst's own types): the same stacks (frames, functions and mappings made again in
 * dst), label sets, and the timeline in its order when both keep one. For a reader that
 * builds two kinds of data of one input apart. Returns the index of the first type
 * added, or UINT32_MAX (nothing done) when dst has no room for src's types. */
uint32_t pt_profile_graft(struct pt_profile *dst, const struct pt_profile *src);

/* forget the timeline (a merge where not every input had one) */
void pt_profile_drop_timeline(struct pt_profile *p);

void pt_profile_add_meta(struct pt_profile *p, const char *key, const char *value);
/* the value of the first metadata entry named key, or NULL if there is none */
const char *pt_profile_meta(const struct pt_profile *p, const char *key);
/* the metadata a Go crash dump sets: its reason ("panic", "fatal error") and the id of
 * the goroutine it printed first, the one that crashed */
#define PT_GO_META_PANIC   "panic"
#define PT_GO_META_FATAL   "fatal error"
#define PT_GO_META_CRASHED "crashing goroutine"
void pt_profile_add_comment(struct pt_profile *p, const char *comment);

/* Whether p has stacks (a call tree). Without (p->agg, the per-function table its
 * reader filled or a fold made), analysis gives the same table, graph and marks from
 * the table (pt_aggregate_views, pt_graph_of_table, pt_graph_name_marks), and
 * pt_profile_count the same counts; what needs the tree itself asks
 * pt_profile_need_stacks or pt_profile_need_stacks_say once, which word its error. */
static inline int pt_profile_has_stacks(const struct pt_profile *p)
{
	return p->agg == NULL;
}
/* why p has no stacks, for a message: its reader's reason, or "aggregates only" */
static inline const char *pt_profile_no_stacks_why(const struct pt_profile *p)
{
	return p->no_stacks_reason ? p->no_stacks_reason : "aggregates only";
}
/* 0 if p has stacks; else -1 with d filled: "cannot DOING: the profile has no stacks
 * (why)", or without doing (NULL) the reason alone ("the profile has no stacks" when
 * there is none) */
int pt_profile_need_stacks(const struct pt_profile *p, const char *doing, struct pt_diag *d);
/* the same with the caller's words: 0 if p has stacks; else -1 with d filled with what
 * fmt makes, then " (why)", then tail ("" for nothing) */
int pt_profile_need_stacks_say(const struct pt_profile *p, struct pt_diag *d, const char *tail,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* the distinct stacks with a nonzero self value (0 without stacks) and the distinct
 * functions on them, or the entries of the table of a profile without stacks: from the
 * model alone, at the cost of reading it */
void pt_profile_count(const struct pt_profile *p, uint64_t *stacks, uint64_t *functions);
static inline const struct pt_frame *pt_frame_of(const struct pt_profile *p, uint32_t node)
{
	return &p->frames[p->nodes[node].frame];
}
/* the node after n in the call tree's depth-first pre-order (children in their sibling
 * order), 0 after the last: from the root, node 0, every node once */
static inline uint32_t pt_profile_next_node(const struct pt_profile *p, uint32_t n)
{
	if (p->nodes[n].first_child)
		return p->nodes[n].first_child;
	while (n && !p->nodes[n].next_sibling)
		n = p->nodes[n].parent;
	return n ? p->nodes[n].next_sibling : 0;
}
/* total of type t over all samples (or the aggregate's total) */
int64_t pt_profile_total(const struct pt_profile *p, uint32_t t);

#endif
