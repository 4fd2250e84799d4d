/* bpftrace.c: stacks counted in bpftrace maps (`@name[kstack, ustack]: N`, frames one per
 * line, leaf first) and profile-bpfcc's blocks (frames, `-` between kernel and user,
 * `-  comm (pid)`, the count); each entry is one stack with its count. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/sink.h"
#include "formats/format.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* one frame of the stack being read, before it is made a model frame */
struct rframe {
	size_t off, len; /* its text in r->text */
	int element;	 /* which stack of the key it belongs to */
	int kernel;
};

struct reader {
	struct pt_profile *p;
	struct pt_sink *sink;
	struct pt_diag *d;
	int started;  /* a line that is not empty was met */
	int bcc;      /* profile-bpfcc's blocks, not bpftrace maps */
	int in_entry; /* between "@name[" and "]: N" (or a bcc block and its count) */
	uint64_t entry_line;
	uint32_t type;	    /* the entry's map */
	int nstacks;	    /* stack elements seen in the entry */
	int stack_open;	    /* the last element is a stack still taking frames */
	int kernel_mark;    /* bcc: the '-' between kernel and user frames was seen */
	struct pt_buf text; /* the entry's frame and root texts */
	struct rframe *fr;
	size_t nfr, fr_alloc;
	struct rframe *roots; /* scalar key elements (comm, pid), in printed order */
	size_t nroots, roots_alloc;
	uint32_t *frames; /* the model frames, leaf first */
	size_t frames_alloc;
	int64_t *vals;
	size_t vals_alloc;
	uint64_t nentries;
};

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* a decimal count, whole; -1 if it is not one or does not fit */
static int parse_count(const char *s, size_t n, int64_t *v)
{
	uint64_t acc = 0;
	size_t i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_digit(s[i]) || acc > ((uint64_t)INT64_MAX - 9) / 10)
			return -1;
		acc = acc * 10 + (uint64_t)(s[i] - '0');
	}
	*v = (int64_t)acc;
	return 0;
}

static void add_frame(struct reader *r, const char *s, size_t n)
{
	struct rframe *f;

	PT_ALLOC_GROW(r->fr, r->nfr + 1, r->fr_alloc);
	f = &r->fr[r->nfr++];
	f->off = r->text.len;
	f->len = n;
	f->element = r->nstacks - 1;
	f->kernel = r->bcc && !r->kernel_mark ? -1 : 0;
	pt_buf_add(&r->text, s, n);
}

static void add_root(struct reader *r, const char *s, size_t n)
{
	struct rframe *f;

	while (n && *s == ' ') {
		s++;
		n--;
	}
	n = pt_trim_end(s, n);
	PT_ALLOC_GROW(r->roots, r->nroots + 1, r->roots_alloc);
	f = &r->roots[r->nroots++];
	f->off = r->text.len;
	f->len = n;
	pt_buf_add(&r->text, s, n);
}

/* Where a kernel stack starts from user space or boots: frames down to the outermost one
 * of these are kernel frames when nothing else says which are (x86-64 and arm64 names). */
static int kernel_entry(const char *s, size_t n)
{
	static const char *const entries[] = {"entry_SYSCALL",
					      "entry_INT80",
					      "ret_from_fork",
					      "secondary_startup",
					      "common_startup",
					      "start_kernel",
					      "x86_64_start",
					      "asm_",
					      "el0t_",
					      "el1h_",
					      "ret_to_user",
					      "do_idle",
					      "cpu_startup_entry",
					      NULL};
	size_t i;

	for (i = 0; entries[i]; i++) {
		size_t m = strlen(entries[i]);
		if (n >= m && !memcmp(s, entries[i], m))
			return 1;
	}
	/* an unsymbolized address in the kernel's half of the address space */
	return n >= 18 && !memcmp(s, "0xffff", 6);
}

/* "sym+off (module)" -> sym, with module in *mod (n 0 if none); an address stays */
static size_t frame_name(const char *s, size_t n, const char **mod, size_t *modn)
{
	size_t j;

	*modn = 0;
	if (n >= 3 && s[n - 1] == ')') {
		for (j = n - 1; j > 0 && s[j] != '('; j--)
			;
		if (j > 0 && s[j - 1] == ' ') {
			*mod = s + j + 1;
			*modn = n - j - 2;
			n = j - 1;
		}
	}
	/* the offset bpftrace prints in decimal ("main+28") or bcc in hex ("+0x1c") */
	for (j = n; j > 0 &&
		    (is_digit(s[j - 1]) || (s[j - 1] >= 'a' && s[j - 1] <= 'f') || s[j - 1] == 'x');
	     j--)
		;
	if (j > 1 && j < n && s[j - 1] == '+')
		n = j - 1;
	return n;
}

static void end_entry(struct reader *r, int64_t count)
{
	size_t i, n = 0, k;
	int e, nel = r->nstacks, any_entry = 0;
	size_t entry[2] = {SIZE_MAX, SIZE_MAX};

	/* Which frames are the kernel's: bcc's '-' marker says; else a stack is the
	 * kernel's down to its outermost kernel entry point, and in a bpftrace key of two
	 * stacks where neither shows one, the first (@[kstack, ustack], the idiom). */
	for (i = 0; i < r->nfr; i++) {
		e = r->fr[i].element > 0;
		if (kernel_entry(r->text.buf + r->fr[i].off, r->fr[i].len)) {
			entry[e] = i;
			any_entry = 1;
		}
	}
	for (i = 0; i < r->nfr; i++) {
		e = r->fr[i].element;
		if (r->bcc && r->kernel_mark)
			r->fr[i].kernel = r->fr[i].kernel < 0;
		else if (!r->bcc && nel >= 2 && !any_entry)
			r->fr[i].kernel = e == 0;
		else
			r->fr[i].kernel = entry[e > 0] != SIZE_MAX && i <= entry[e > 0];
	}
	PT_ALLOC_GROW(r->frames, r->nfr + r->nroots, r->frames_alloc);
	for (i = 0; i < r->nfr; i++) {
		const char *s = r->text.buf + r->fr[i].off, *mod = NULL;
		size_t modn, m = frame_name(s, r->fr[i].len, &mod, &modn);
		struct pt_frame f;

		memset(&f, 0, sizeof(f));
		f.func = pt_profile_func(r->p, pt_strn(r->p, s, m), 0, 0, 0);
		if (r->fr[i].kernel > 0)
			f.flags |= PT_FRAME_KERNEL;
		if (m > 2 && s[0] == '0' && s[1] == 'x')
			f.flags |= PT_FRAME_NO_SYMBOL;
		if (modn) {
			struct pt_mapping map;
			memset(&map, 0, sizeof(map));
			map.file = pt_strn(r->p, mod, modn);
			f.mapping = pt_profile_mapping(r->p, &map);
		}
		r->frames[n++] = pt_profile_frame(r->p, &f);
	}
	/* the key's other elements (comm, pid) as roots, the first outermost */
	for (k = r->nroots; k-- > 0;)
		r->frames[n++] = pt_profile_simple_frame(r->p, r->text.buf + r->roots[k].off,
							 r->roots[k].len, 0, 0, PT_FRAME_PROCESS);
	PT_ALLOC_GROW(r->vals, r->p->ntypes, r->vals_alloc);
	memset(r->vals, 0, r->p->ntypes * sizeof(*r->vals));
	r->vals[r->type] = count;
	if (n)
		pt_sink_sample(r->sink, r->p, r->frames, n, 1, 0, r->vals, 0);
	r->nentries++;
	r->in_entry = 0;
}

static void begin_entry(struct reader *r, uint64_t lineno)
{
	r->in_entry = 1;
	r->entry_line = lineno;
	r->nstacks = 0;
	r->stack_open = 0;
	r->kernel_mark = 0;
	r->nfr = r->nroots = 0;
	pt_buf_reset(&r->text);
}

/* Key text between stacks ("spin, ", ", ", ", 123"): its elements become roots. An
 * element left empty before a ',' is an empty stack (bpftrace prints a kstack taken in
 * user mode so); unless the key ends here, the next lines are a stack. */
static void key_text(struct reader *r, const char *s, size_t n, int ends_key)
{
	size_t start = 0, i;

	r->stack_open = 0;
	for (i = 0; i < n; i++) {
		if (s[i] != ',')
			continue;
		if (pt_trim_end(s + start, i - start) > (s[start] == ' '))
			add_root(r, s + start, i - start);
		else if (!r->nfr && !r->nroots && !r->nstacks)
			r->nstacks++;
		start = i + 1;
	}
	if (start < n && pt_trim_end(s + start, n - start) > (s[start] == ' '))
		add_root(r, s + start, n - start);
	if (!ends_key) {
		r->nstacks++;
		r->stack_open = 1;
	}
}

/* a type per map name; "@" (the anonymous map) is "samples" */
static uint32_t map_type(struct reader *r, const char *s, size_t n)
{
	char *name = pt_xmalloc(n + 8);
	int t;
	uint32_t ret;

	if (n == 1)
		strcpy(name, "samples");
	else {
		memcpy(name, s, n);
		name[n] = '\0';
	}
	t = pt_profile_find_type(r->p, name);
	ret = t >= 0 ? (uint32_t)t : pt_profile_add_type(r->p, name, "count");
	free(name);
	return ret;
}

/* "...]: N" at the end of s: the count, and n cut to before the ']' */
static int key_end(const char *s, size_t *n, int64_t *v, int *bad)
{
	size_t i;

	*bad = 0;
	for (i = *n; i-- > 0;)
		if (s[i] == ']' && i + 2 < *n + 1 && i + 1 < *n && s[i + 1] == ':') {
			const char *c = s + i + 2;
			size_t m = *n - i - 2;
			while (m && *c == ' ') {
				c++;
				m--;
			}
			if (parse_count(c, m, v) < 0)
				*bad = 1;
			*n = i;
			return 1;
		}
	return 0;
}

static int bpftrace_line(struct reader *r, const char *s, size_t n, uint64_t lineno)
{
	const char *br;
	int64_t v;
	int bad;
	size_t m;

	if (!r->in_entry) {
		if (!n || (n > 10 && !memcmp(s, "Attaching ", 10)))
			return 0;
		if (s[0] != '@')
			return pt_diag_error_line(r->d, lineno,
						  "expected a map entry ('@name[key]: count')");
		for (br = s + 1; br < s + n && (is_digit(*br) || *br == '_' ||
						((*br | 0x20) >= 'a' && (*br | 0x20) <= 'z'));
		     br++)
			;
		if (br == s + n || *br != '[') /* a map without a key holds no stack */
			return 0;
		r->type = map_type(r, s, (size_t)(br - s));
		if (r->type == UINT32_MAX)
			return pt_diag_error_line(r->d, lineno, "too many maps");
		begin_entry(r, lineno);
		m = n - (size_t)(br + 1 - s);
		s = br + 1;
		if (key_end(s, &m, &v, &bad)) {
			if (bad)
				goto not_count;
			key_text(r, s, m, 1);
			end_entry(r, v);
			return 0;
		}
		if (m && s[0] == ',')
			r->nstacks++; /* "@[, ": an empty first stack */
		key_text(r, s, m, 0);
		return 0;
	}
	if (n > 4 && !memcmp(s, "    ", 4) && s[4] != ' ') {
		if (!r->stack_open) {
			r->nstacks++;
			r->stack_open = 1;
		}
		add_frame(r, s + 4, n - 4);
		return 0;
	}
	if (n && (s[0] == ',' || s[0] == ']')) {
		m = n;
		if (key_end(s, &m, &v, &bad)) {
			if (bad)
				goto not_count;
			if (s[0] == ',')
				key_text(r, s + 1, m - 1, 1);
			end_entry(r, v);
			return 0;
		}
		if (s[0] == ',') {
			key_text(r, s + 1, n - 1, 0);
			return 0;
		}
	}
	return pt_diag_error_line(r->d, lineno, "expected a frame or ']: count' in a map entry");
not_count:
	return pt_diag_error_line(r->d, lineno,
				  "expected a count after ']:' (only count() maps hold stacks)");
}

/* profile-bpfcc: "    frame" lines, "    -" (or "--") between the kernel and the user
 * frames, "    -                comm (pid)", "        count", a blank line */
static int bcc_line(struct reader *r, const char *s, size_t n, uint64_t lineno)
{
	size_t i;
	int64_t v;

	if (!n)
		return 0;
	if (!r->in_entry && n > 12 && !memcmp(s, "Sampling at ", 12))
		return 0;
	if (n > 8 && !memcmp(s, "        ", 8) && is_digit(s[8])) {
		if (!r->in_entry)
			return pt_diag_error_line(r->d, lineno, "count without a stack before it");
		if (parse_count(s + 8, n - 8, &v) < 0)
			return pt_diag_error_line(r->d, lineno, "expected a count");
		end_entry(r, v);
		return 0;
	}
	if (n < 5 || memcmp(s, "    ", 4) || s[4] == ' ')
		return pt_diag_error_line(r->d, lineno,
					  "expected a frame, '-  comm (pid)' or a count");
	if (!r->in_entry) {
		begin_entry(r, lineno);
		r->nstacks = 1;
	}
	s += 4;
	n -= 4;
	if ((n == 1 && s[0] == '-') || (n == 2 && !memcmp(s, "--", 2))) {
		r->kernel_mark = 1;
		return 0;
	}
	if (n > 2 && s[0] == '-' && s[1] == ' ') {
		/* the process: "comm (pid)", comm padded to 16 columns */
		for (i = 1; i < n && s[i] == ' '; i++)
			;
		s += i;
		n -= i;
		if (n && s[n - 1] == ')')
			for (i = n - 1; i > 0; i--)
				if (s[i] == '(') {
					n = pt_trim_end(s, i);
					break;
				}
		add_root(r, s, n);
		return 0;
	}
	add_frame(r, s, n);
	return 0;
}

static int first_line_is_bcc(const char *s, size_t n)
{
	return (n > 12 && !memcmp(s, "Sampling at ", 12)) ||
	       (n > 4 && !memcmp(s, "    ", 4) && s[4] != ' ');
}

/* one line of either form, which the first line that is not empty tells */
static int any_line(void *ctx, char *line, size_t n, uint64_t lineno)
{
	struct reader *r = ctx;

	n = pt_trim_end(line, n);
	if (!r->started && n) {
		r->started = 1;
		r->bcc = first_line_is_bcc(line, n);
		if (r->bcc) {
			r->p->format = "profile-bpfcc";
			r->type = pt_profile_add_type(r->p, "samples", "count");
		}
	}
	if (memchr(line, '\0', n))
		return pt_diag_error_line(r->d, lineno, "NUL byte in line");
	return r->bcc ? bcc_line(r, line, n, lineno) : bpftrace_line(r, line, n, lineno);
}

static int bpftrace_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			 struct pt_diag *d)
{
	struct reader r;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.sink = o->sink;
	r.d = d;
	p->format = "bpftrace";
	if (pt_read_lines(in, o, d, any_line, &r) < 0) {
		ret = -1;
		goto out;
	}
	/* an entry the input ends in (bpftrace killed while printing): left out */
	if (r.in_entry)
		pt_diag_cut(d, r.entry_line, in->lineno);
	if (!r.nentries) {
		ret = pt_diag_error_line(d, in->lineno ? in->lineno : 1,
					 "no stack with a count in the input");
		goto out;
	}
out:
	pt_buf_release(&r.text);
	free(r.fr);
	free(r.roots);
	free(r.frames);
	free(r.vals);
	return ret;
}

/* bpftrace: "Attaching N probe" lines and blank ones, then "@...[" with a stack frame or
 * "]: N" in the lines that follow; profile-bpfcc: "Sampling at N Hertz" or a block of
 * indented frames ended by "    -   comm (pid)" and an indented count. */
static int bpftrace_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *end = s + len, *nl;
	int in_map = 0, bcc = 0, lines = 0;

	while (s < end && lines < 200) {
		size_t n;
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return 0;
		n = pt_trim_end(s, (size_t)(nl - s));
		lines++;
		if (memchr(s, '\0', n))
			return 0;
		if (!n) {
			/* blank lines: before the maps, between bcc's blocks */
		} else if (!in_map && !bcc && n > 10 && !memcmp(s, "Attaching ", 10)) {
		} else if (!in_map && !bcc && n > 12 && !memcmp(s, "Sampling at ", 12) &&
			   memmem(s, n, " Hertz of ", 10)) {
			return 90;
		} else if (!in_map && !bcc && s[0] == '@' && memchr(s, '[', n)) {
			in_map = 1;
		} else if (in_map && ((n > 4 && !memcmp(s, "    ", 4) && s[4] != ' ') ||
				      (s[0] == ']' && n > 3 && s[1] == ':'))) {
			return 80;
		} else if (!in_map && n > 4 && !memcmp(s, "    ", 4) && s[4] != ' ') {
			bcc = 1;
			if (n > 6 && s[4] == '-' && s[5] == ' ' && s[n - 1] == ')')
				return 70;
		} else {
			return 0;
		}
		s = nl + 1;
	}
	return 0;
}

static const char *const bpftrace_suffixes[] = {NULL};

const struct pt_format pt_format_bpftrace = {
	.name = "bpftrace",
	.description = "bpftrace maps of stacks (@[kstack, ustack]: N) and profile-bpfcc output",
	.suffixes = bpftrace_suffixes,
	.detect = bpftrace_detect,
	.read = bpftrace_read,
	.write = NULL,
};
