/* symbolize.c: the sink that names addresses from their binaries (symbolize.h), and
 * the search for those binaries as go tool pprof's locateBinaries makes it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/symbolize.h"
#include "util/symfile.h"
#include "util/xalloc.h"

#define DEBUG_DIR PT_DEBUG_DIR

/* the most frames one address becomes (inlining depth) */
#define MAX_INLINE 64

struct pt_symbin {
	uint32_t file, build_id; /* string ids of the profile */
	struct pt_symfile *f;	 /* NULL: none found */
	/* the binary itself when f is its separate debug file (whose segments have no
	 * file offsets): the layout that places a mapping; NULL: f's own */
	struct pt_symfile *layout;
	char *path;	  /* f's path (malloc'd), for the warnings */
	int told_dwarf;	  /* its damaged DWARF was said */
	int exports_seen; /* PT_MAPPING_EXPORTS_SEEN: one without symbols is none */
};

static void warn(struct pt_symbolizer *s, const char *fmt, const char *a, const char *b)
{
	if (s->nwarnings >= 16)
		return;
	pt_buf_addf(&s->warnings, fmt, a, b);
	pt_buf_addch(&s->warnings, '\n');
	s->nwarnings++;
}

/* Try one candidate: 1 and *best replaced when it is the binary (its build id matches
 * when one is asked for, and it has symbols); a file without symbols is kept in *best
 * only while nothing better is found. Other failures are noted in *why once. */
static int try_file(const char *path, const char *id, struct pt_symbin *best, struct pt_buf *why)
{
	struct pt_symfile *f;
	struct pt_diag d;
	int missing;

	pt_diag_init(&d, path);
	if (pt_symfile_open(path, &f, &missing, &d) < 0) {
		if (!missing && !why->len)
			pt_buf_addstr(why, d.msg);
		return 0;
	}
	if (*id && strcmp(id, pt_symfile_build_id(f))) {
		if (!why->len)
			pt_buf_addf(why, "'%s' has another build id", path);
		pt_symfile_close(f);
		return 0;
	}
	if (!pt_symfile_has_symbols(f) && best->f) {
		pt_symfile_close(f);
		return 0;
	}
	if (best->f && !pt_symfile_has_symbols(best->f) && !best->layout)
		best->layout = best->f;
	else
		pt_symfile_close(best->f);
	best->f = f;
	free(best->path);
	best->path = pt_xstrdup(path);
	return pt_symfile_has_symbols(f);
}

/* dir + "/" + a + b into out */
static void join(struct pt_buf *out, const char *dir, size_t dn, const char *a, const char *b)
{
	pt_buf_reset(out);
	pt_buf_add(out, dir, dn);
	if (*a != '/')
		pt_buf_addch(out, '/');
	pt_buf_addstr(out, a);
	pt_buf_addstr(out, b);
}

/* the candidates of one search directory, in pprof's order */
static int try_dir(const char *dir, size_t dn, const char *file, const char *id,
		   struct pt_symbin *best, struct pt_buf *why)
{
	struct pt_buf path = PT_BUF_INIT, tail = PT_BUF_INIT;
	const char *base = strrchr(file, '/');
	int found = 0;

	base = base ? base + 1 : file;
	if (*id && strlen(id) > 2) {
		pt_buf_addf(&tail, "%s/%s", id, base);
		join(&path, dir, dn, tail.buf, "");
		found = *base && try_file(path.buf, id, best, why);
		pt_buf_reset(&tail);
		pt_buf_addf(&tail, "%.2s/%s.debug", id, id + 2);
		join(&path, dir, dn, tail.buf, "");
		found = found || try_file(path.buf, id, best, why);
		join(&path, dir, dn, ".build-id/", tail.buf);
		found = found || try_file(path.buf, id, best, why);
		if (*file) {
			pt_buf_reset(&tail);
			pt_buf_addf(&tail, "%s/%s", file, id);
			join(&path, dir, dn, tail.buf, "");
			found = found || try_file(path.buf, id, best, why);
		}
	}
	if (*base && !found) {
		join(&path, dir, dn, base, "");
		found = try_file(path.buf, id, best, why);
		join(&path, dir, dn, file, "");
		found = found || try_file(path.buf, id, best, why);
		join(&path, dir, dn, file, ".debug");
		found = found || try_file(path.buf, id, best, why);
	}
	pt_buf_release(&path);
	pt_buf_release(&tail);
	return found;
}

/* every directory of the search path, then DEBUG_DIR, by file name (when file is not
 * "") and build id, until one has the binary with symbols */
static int search(struct pt_symbolizer *s, const char *file, const char *id, struct pt_symbin *best,
		  struct pt_buf *why)
{
	const char *dir = s->search;
	int found = 0;

	while (!found && dir && *dir) {
		const char *end = strchr(dir, ':');
		size_t dn = end ? (size_t)(end - dir) : strlen(dir);
		if (dn)
			found = try_dir(dir, dn, file, id, best, why);
		dir = end ? end + 1 : NULL;
	}
	/* where gdb and addr2line find the debug files of Debian's -dbg packages */
	if (!found && *id)
		found = try_dir(DEBUG_DIR, strlen(DEBUG_DIR), "", id, best, why);
	return found;
}

/* the binary of a file name and build id into best (best->f NULL: none, said once why;
 * with exports_seen, a binary without symbols is none, and unsaid) */
static void locate(struct pt_symbolizer *s, const char *file, const char *id,
		   struct pt_symbin *best, int exports_seen)
{
	struct pt_buf why = PT_BUF_INIT;
	int found = 0;

	if (*file == '/')
		found = try_file(file, id, best, &why);
	if (!found)
		found = search(s, file, id, best, &why);
	/* a binary without symbols (stripped): its debug file, by the build id it has */
	if (!found && best->f && !*id && *pt_symfile_build_id(best->f)) {
		struct pt_buf bid = PT_BUF_INIT;
		pt_buf_addstr(&bid, pt_symfile_build_id(best->f));
		search(s, "", bid.buf, best, &why);
		pt_buf_release(&bid);
	}
	if (best->f && !pt_symfile_has_symbols(best->f) && exports_seen) {
		pt_symfile_close(best->f);
		pt_symfile_close(best->layout);
		best->f = best->layout = NULL;
		pt_buf_release(&why);
		return;
	}
	if (best->f && !pt_symfile_has_symbols(best->f))
		warn(s,
		     "cannot symbolize '%s' well: it has no symbols but its exported ones (a "
		     "stripped binary? see --binary-path)%s",
		     best->path, "");
	if (!best->f) {
		const char *name = *file ? file : id;
		if (why.len)
			warn(s, "cannot symbolize '%s': %s", name, why.buf);
		else if (*id)
			warn(s,
			     "cannot symbolize '%s': no binary with build id %s found (see "
			     "--binary-path)",
			     name, id);
		else
			warn(s, "cannot symbolize '%s': binary not found (see --binary-path)%s",
			     name, "");
	}
	pt_buf_release(&why);
}

/* A perf frame, whose binary perf looked at already: 0 when nothing else can name it
 * (no search path, and util/symfile.h's few reads say so), before libdw is loaded or
 * maps it (a perf profile meets a dozen stripped libraries, and one from another
 * machine names files not here) */
static int worth_opening(const struct pt_symbolizer *s, const char *file)
{
	return *file != '/' || (s->search && *s->search) || pt_symfile_worth_opening(file);
}

/* the binary of mapping m (its index in s->bins + 1; 0: none) */
static uint32_t mapping_bin(struct pt_symbolizer *s, struct pt_profile *p, uint32_t m)
{
	const struct pt_mapping *mp = &p->mappings[m];
	const char *file = pt_s(p, mp->file), *id = pt_s(p, mp->build_id);
	size_t i;

	if (m >= s->map_alloc) {
		size_t old = s->map_alloc;
		PT_ALLOC_GROW(s->map_bin, (size_t)m + 1, s->map_alloc);
		s->map_base = pt_xreallocarray(s->map_base, s->map_alloc, sizeof(*s->map_base));
		memset(s->map_bin + old, 0xff, (s->map_alloc - old) * sizeof(*s->map_bin));
	}
	if (s->map_bin[m] != UINT32_MAX)
		return s->map_bin[m];
	s->map_bin[m] = 0;
	/* pseudo files ([vdso], [heap], [kernel.kallsyms]) and nameless mappings */
	if ((!*file && !*id) || *file == '[')
		return 0;
	if ((mp->flags & PT_MAPPING_EXPORTS_SEEN) && !worth_opening(s, file))
		return 0;
	for (i = 0; i < s->nbins; i++)
		if (s->bins[i].file == mp->file && s->bins[i].build_id == mp->build_id &&
		    s->bins[i].exports_seen == !!(mp->flags & PT_MAPPING_EXPORTS_SEEN))
			break;
	if (i == s->nbins) {
		PT_ALLOC_GROW(s->bins, s->nbins + 1, s->bins_alloc);
		memset(&s->bins[i], 0, sizeof(s->bins[i]));
		s->bins[i].file = mp->file;
		s->bins[i].build_id = mp->build_id;
		s->bins[i].exports_seen = !!(mp->flags & PT_MAPPING_EXPORTS_SEEN);
		locate(s, file, id, &s->bins[i], s->bins[i].exports_seen);
		s->nbins++;
	}
	if (!s->bins[i].f)
		return 0;
	s->map_base[m] = pt_symfile_base(s->bins[i].layout ? s->bins[i].layout : s->bins[i].f,
					 mp->start, mp->limit, mp->offset);
	s->map_bin[m] = (uint32_t)i + 1;
	return s->map_bin[m];
}

/* frame id's replacement into s->list (s->first, s->count set) */
static void resolve(struct pt_symbolizer *s, struct pt_profile *p, uint32_t id)
{
	struct pt_symframe fr[MAX_INLINE];
	struct pt_symbin *bin;
	struct pt_frame f = p->frames[id];
	struct pt_mapping *mp;
	uint32_t b;
	size_t n, i;

	if (!(f.flags & PT_FRAME_NO_SYMBOL) || !f.mapping || !f.addr)
		return;
	if (!(b = mapping_bin(s, p, f.mapping)))
		return;
	bin = &s->bins[b - 1];
	n = pt_symfile_lookup(bin->f, f.addr - s->map_base[f.mapping], fr, MAX_INLINE);
	if (!bin->told_dwarf && pt_symfile_dwarf_broken(bin->f)) {
		warn(s, "cannot read the DWARF of '%s': names from its symbol table%s", bin->path,
		     "");
		bin->told_dwarf = 1;
	}
	if (!n || !fr[n - 1].name)
		return;
	f.flags &= ~(uint32_t)PT_FRAME_NO_SYMBOL;
	f.column = 0;
	s->first[id] = (uint32_t)s->nlist;
	/* outermost first; every frame but the outermost was inlined into its caller */
	for (i = n; i-- > 0;) {
		struct pt_frame g = f;
		uint32_t file = fr[i].file ? pt_str(p, fr[i].file) : 0;
		const char *name = fr[i].name ? fr[i].name : "??";
		g.func = pt_profile_func(p, pt_str(p, name), 0, file, 0);
		g.line = fr[i].line;
		if (i + 1 < n)
			g.flags |= PT_FRAME_INLINED;
		PT_ALLOC_GROW(s->list, s->nlist + 1, s->list_alloc);
		s->list[s->nlist++] = pt_profile_frame(p, &g);
	}
	s->count[id] = (uint32_t)n;
	s->any = 1;
	mp = &p->mappings[f.mapping];
	mp->flags |= PT_MAPPING_HAS_FUNCTIONS | PT_MAPPING_HAS_FILENAMES |
		     PT_MAPPING_HAS_LINE_NUMBERS | PT_MAPPING_HAS_INLINE_FRAMES;
}

/* resolve the frames made since the last look (each frame once) */
static void catch_up(struct pt_symbolizer *s, struct pt_profile *p)
{
	while (s->scanned < p->nframes) {
		uint32_t id = s->scanned++;
		if (p->nframes > s->frames_alloc) {
			size_t old = s->frames_alloc;
			PT_ALLOC_GROW(s->first, p->nframes, s->frames_alloc);
			s->count = pt_xreallocarray(s->count, s->frames_alloc, sizeof(*s->count));
			memset(s->count + old, 0, (s->frames_alloc - old) * sizeof(*s->count));
		}
		resolve(s, p, id);
	}
}

static void forward(struct pt_symbolizer *s, struct pt_profile *p, const uint32_t *frames, size_t n,
		    int leaf_first, uint32_t labels, const int64_t *values, int64_t time)
{
	if (s->inner)
		s->inner->sample(s->inner, p, frames, n, leaf_first, labels, values, time);
	else
		pt_profile_add_sample_counted(p, pt_profile_stack(p, frames, n, leaf_first), labels,
					      values, time);
}

static void sym_sample(struct pt_sink *sink, struct pt_profile *p, const uint32_t *frames, size_t n,
		       int leaf_first, uint32_t labels, const int64_t *values, int64_t time)
{
	struct pt_symbolizer *s = (struct pt_symbolizer *)sink;
	size_t i, k = 0;

	catch_up(s, p);
	if (!s->any)
		return forward(s, p, frames, n, leaf_first, labels, values, time);
	for (i = 0; i < n; i++) {
		uint32_t id = frames[i], c = s->count[id], j;
		PT_ALLOC_GROW(s->stack, k + (c ? c : 1), s->stack_alloc);
		if (!c)
			s->stack[k++] = id;
		else if (leaf_first)
			for (j = c; j-- > 0;)
				s->stack[k++] = s->list[s->first[id] + j];
		else
			for (j = 0; j < c; j++)
				s->stack[k++] = s->list[s->first[id] + j];
	}
	forward(s, p, s->stack, k, leaf_first, labels, values, time);
}

static void sym_scale(struct pt_sink *sink, struct pt_profile *p, uint32_t t, int64_t factor)
{
	struct pt_symbolizer *s = (struct pt_symbolizer *)sink;
	if (s->inner && s->inner->scale_type)
		s->inner->scale_type(s->inner, p, t, factor);
}

static void sym_frames_complete(struct pt_sink *sink, struct pt_profile *p)
{
	struct pt_symbolizer *s = (struct pt_symbolizer *)sink;
	/* the frames the replacements make are made now, before the command's sink hears
	 * that every frame is */
	catch_up(s, p);
	if (s->inner && s->inner->frames_complete)
		s->inner->frames_complete(s->inner, p);
}

void pt_symbolizer_init(struct pt_symbolizer *s, struct pt_sink *inner, const char *search)
{
	memset(s, 0, sizeof(*s));
	s->sink.sample = sym_sample;
	s->sink.scale_type = sym_scale;
	s->sink.frames_complete = sym_frames_complete;
	s->inner = inner;
	s->search = search;
	pt_buf_init(&s->warnings);
}

void pt_symbolizer_release(struct pt_symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->nbins; i++) {
		pt_symfile_close(s->bins[i].f);
		pt_symfile_close(s->bins[i].layout);
		free(s->bins[i].path);
	}
	free(s->bins);
	free(s->map_bin);
	free(s->map_base);
	free(s->first);
	free(s->count);
	free(s->list);
	free(s->stack);
	pt_buf_release(&s->warnings);
}
