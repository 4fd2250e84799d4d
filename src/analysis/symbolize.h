/* symbolize.h: names for addresses. A sink (core/sink.h) put in front of the command's
 * own (or of the tree) replaces each frame that has an address, a mapping and no name
 * (PT_FRAME_NO_SYMBOL) by the frames its mapping's binary gives: the function, file
 * and line, and the functions inlined there (util/symfile.h). The binary is found as
 * go tool pprof finds it: its own path, then each directory of the search path by
 * build id (DIR/ID/NAME, DIR/xx/yyyy.debug, DIR/.build-id/xx/yyyy.debug, DIR/NAME/ID)
 * and by name (DIR/BASENAME, DIR/PATH, DIR/PATH.debug). An address nothing names keeps
 * its frame. Each binary is opened once; each address is looked up once. The command
 * hands it to the readers whose rows make such frames (pt_read_opts.addr_sink), so
 * the others keep their own paths to the tree. */
#ifndef PT_SYMBOLIZE_H
#define PT_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "core/profile.h"
#include "core/sink.h"

struct pt_symfile;

struct pt_symbolizer {
	struct pt_sink sink;   /* first: the reader's o->sink points here */
	struct pt_sink *inner; /* the command's sink, NULL: the tree */
	const char *search;    /* DIR:DIR..., not owned; NULL or "" for none */
	/* one entry per binary (file and build id); per mapping id, its binary + 1 and
	 * base (0: not looked at yet) */
	struct pt_symbin *bins;
	size_t nbins, bins_alloc;
	uint32_t *map_bin;
	uint64_t *map_base;
	size_t map_alloc;
	/* per frame id: its replacement, list[first[f] .. first[f] + count[f]) (outermost
	 * first); count 0 keeps the frame */
	uint32_t *first, *count;
	size_t frames_alloc;
	uint32_t scanned; /* frames looked at so far */
	int any;	  /* a frame was replaced */
	uint32_t *list;
	size_t nlist, list_alloc;
	uint32_t *stack; /* a stack rewritten */
	size_t stack_alloc;
	/* warnings, one line each (newline-terminated), each said once */
	struct pt_buf warnings;
	size_t nwarnings;
};

/* inner: the sink the stacks go on to (NULL: p's tree); search: the directories */
void pt_symbolizer_init(struct pt_symbolizer *s, struct pt_sink *inner, const char *search);
void pt_symbolizer_release(struct pt_symbolizer *s);

#endif
