/* test-stackprof.c: the stackprof reader on a hand-made Marshal dump (Bignum and Fixnum
 * frame ids, Bignum timestamps, symbol and object links, a Hash with a default) and on
 * the real samples: timeline, synthetic frames, frame identity, aggregate-only dumps. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "formats/load.h"
#include "load.h"
#include "tap.h"

#define SYM(s) (unsigned char)(sizeof(s) - 1 + 5), s
/* {:version=>1.2, :mode=>:wall, :interval=>1000, :samples=>2,
 *  :frames=>{0x7f5040302010=>{:name=>"a", :total_samples=>1, :samples=>1},
 *            1=>{:name=>"(garbage collection)", :file=>"", :total_samples=>1, :samples=>1}},
 *  :raw=>[1, 0x7f5040302010, 1, 1, 1, 1],
 *  :raw_sample_timestamps=>[2**31, 2**31 + 500], :raw_timestamp_deltas=>[5, 7],
 *  :metadata=>Hash.new(nil).merge(k: <link to "a">)} */
static const unsigned char dump[] = {
	4,    8,    '{',  0x0e, ':',  0x0c, 'v',  'e',	'r',  's',  'i',  'o',	'n',  'f',  0x08,
	'1',  '.',  '2',  ':',	0x09, 'm',  'o',  'd',	'e',  ':',  0x09, 'w',	'a',  'l',  'l',
	':',  0x0d, 'i',  'n',	't',  'e',  'r',  'v',	'a',  'l',  'i',  0x02, 0xe8, 0x03, ':',
	0x0c, 's',  'a',  'm',	'p',  'l',  'e',  's',	'i',  0x07, ':',  0x0b, 'f',  'r',  'a',
	'm',  'e',  's',  '{',	0x07, 'l',  '+',  0x08, 0x10, 0x20, 0x30, 0x40, 0x50, 0x7f, '{',
	0x08, ':',  0x09, 'n',	'a',  'm',  'e',  '"',	0x06, 'a',  ':',  0x12, 't',  'o',  't',
	'a',  'l',  '_',  's',	'a',  'm',  'p',  'l',	'e',  's',  'i',  0x06, ';',  0x09, 'i',
	0x06, 'i',  0x06, '{',	0x09, ';',  0x0b, '"',	0x19, '(',  'g',  'a',	'r',  'b',  'a',
	'g',  'e',  ' ',  'c',	'o',  'l',  'l',  'e',	'c',  't',  'i',  'o',	'n',  ')',  ':',
	0x09, 'f',  'i',  'l',	'e',  '"',  0x00, ';',	0x0c, 'i',  0x06, ';',	0x09, 'i',  0x06,
	':',  0x08, 'r',  'a',	'w',  '[',  0x0b, 'i',	0x06, 'l',  '+',  0x08, 0x10, 0x20, 0x30,
	0x40, 0x50, 0x7f, 'i',	0x06, 'i',  0x06, 'i',	0x06, 'i',  0x06, ':',	0x1a, 'r',  'a',
	'w',  '_',  's',  'a',	'm',  'p',  'l',  'e',	'_',  't',  'i',  'm',	'e',  's',  't',
	'a',  'm',  'p',  's',	'[',  0x07, 'l',  '+',	0x07, 0x00, 0x00, 0x00, 0x80, 'l',  '+',
	0x07, 0xf4, 0x01, 0x00, 0x80, ':',  0x19, 'r',	'a',  'w',  '_',  't',	'i',  'm',  'e',
	's',  't',  'a',  'm',	'p',  '_',  'd',  'e',	'l',  't',  'a',  's',	'[',  0x07, 'i',
	0x0a, 'i',  0x0c, ':',	0x0d, 'm',  'e',  't',	'a',  'd',  'a',  't',	'a',  '}',  0x06,
	':',  0x06, 'k',  '@',	0x0a, '0',
};

static int load_bytes(const unsigned char *data, size_t n, int timeline, struct pt_profile *p,
		      struct pt_diag *d)
{
	struct pt_read_opts ro = {.keep_timeline = timeline};
	return unit_load_bytes(data, n, &ro, p, d);
}

static int load_sample(const char *name, int timeline, struct pt_profile *p, struct pt_diag *d)
{
	char path[4096];
	struct pt_read_opts ro = {.keep_timeline = timeline};
	const char *src = getenv("SRCDIR");
	snprintf(path, sizeof(path), "%s/samples/stackprof/%s", src ? src : ".", name);
	return unit_load_file(path, &ro, p, d);
}

static uint32_t func_named(const struct pt_profile *p, const char *name, uint32_t after)
{
	uint32_t i;
	for (i = after + 1; i < p->nfuncs; i++)
		if (!strcmp(pt_s(p, p->funcs[i].name), name))
			return i;
	return 0;
}

static uint32_t flags_of(const struct pt_profile *p, uint32_t func)
{
	uint32_t i;
	for (i = 1; i < p->nframes; i++)
		if (p->frames[i].func == func)
			return p->frames[i].flags;
	return 0;
}

static const char *meta(const struct pt_profile *p, const char *key)
{
	const char *v = pt_profile_meta(p, key);
	return v ? v : "";
}

static void test_handmade(void)
{
	struct pt_profile p;
	struct pt_diag d;
	unsigned char buf[sizeof(dump) + 2];
	size_t n, bad = 0;
	int wall;

	ok(load_bytes(dump, sizeof(dump), 1, &p, &d) == 0, "hand-made dump reads: %s", d.msg);
	wall = pt_profile_find_type(&p, "wall");
	ok(wall == 1, "wall type");
	is_int(pt_profile_total(&p, 0), 2, "two samples");
	is_int(wall == 1 ? pt_profile_total(&p, 1) : -1, 12, "wall time = sum of the deltas");
	is_int(p.nevents, 2, "one timeline event per sample");
	is_int(p.nevents == 2 ? p.events[1].time - p.events[0].time : -1, 500000,
	       "Bignum timestamps: 500 us apart");
	ok(func_named(&p, "a", 0) != 0, "a frame with a Bignum id");
	ok(flags_of(&p, func_named(&p, "(garbage collection)", 0)) & PT_FRAME_SYNTHETIC,
	   "GC frame (Fixnum id) is synthetic");
	ok(!strcmp(meta(&p, "metadata.k"), "a"), "object link in a Hash with a default");
	ok(!strcmp(meta(&p, "version"), "1.2") && !strcmp(meta(&p, "mode"), "wall"),
	   "header metadata");
	pt_profile_release(&p);

	/* every truncation is an error at a byte offset; one trailing newline is fine */
	for (n = 2; n < sizeof(dump); n++) { /* shorter is not recognized as Marshal */
		if (load_bytes(dump, n, 0, &p, &d) == 0 || d.where != PT_DIAG_OFFSET) {
			printf("# truncated at %zu: %s\n", n, d.msg);
			bad++;
		}
		pt_profile_release(&p);
	}
	is_int(bad, 0, "all %zu truncations fail with a byte offset", sizeof(dump) - 2);
	memcpy(buf, dump, sizeof(dump));
	buf[sizeof(dump)] = '\n';
	buf[sizeof(dump) + 1] = '\n';
	ok(load_bytes(buf, sizeof(dump) + 1, 0, &p, &d) == 0, "one trailing newline is accepted");
	pt_profile_release(&p);
	ok(load_bytes(buf, sizeof(dump) + 2, 0, &p, &d) < 0, "two are not");
	pt_profile_release(&p);
}

/* w_long: a lone byte 5 is 0 to Ruby (not a length byte) */
static void test_wlong_five(void)
{
	static const unsigned char d5[] = {4,	8,   '{', 0x07, ':',  0x0b, 'f',  'r', 'a',
					   'm', 'e', 's', '{',	0x00, ':',  0x0c, 's', 'a',
					   'm', 'p', 'l', 'e',	's',  'i',  0x05};
	struct pt_profile p;
	struct pt_diag d;

	ok(load_bytes(d5, sizeof(d5), 0, &p, &d) == 0, "w_long 0x05 reads: %s", d.msg);
	ok(!strcmp(meta(&p, "samples"), "0"), "as 0");
	pt_profile_release(&p);
}

static void test_samples(void)
{
	struct pt_profile p;
	struct pt_diag d;
	uint32_t m1, m2, times;
	int64_t sum = 0;
	size_t i;

	ok(load_sample("wall-raw.dump", 1, &p, &d) == 0, "wall-raw.dump reads: %s", d.msg);
	is_int(p.nevents, 1063, "timeline: one event per sample");
	for (i = 0; i < p.nevents; i++)
		sum += p.event_values[i * p.ntypes + 1];
	is_int(sum, 1056813, "timeline weights are raw_timestamp_deltas");
	for (i = 1; i < p.nevents && p.events[i].time >= p.events[i - 1].time; i++)
		;
	is_int(i, p.nevents, "timeline is in time order");
	pt_profile_release(&p);

	ok(load_sample("cpu-raw.dump", 0, &p, &d) == 0, "cpu-raw.dump reads");
	ok(flags_of(&p, func_named(&p, "(marking)", 0)) & PT_FRAME_SYNTHETIC, "(marking)");
	ok(flags_of(&p, func_named(&p, "(sweeping)", 0)) & PT_FRAME_SYNTHETIC, "(sweeping)");
	times = func_named(&p, "Integer#times", 0);
	ok(times && (flags_of(&p, times) & PT_FRAME_NATIVE) && !p.funcs[times].file,
	   "cfunc: native, no file");
	m1 = func_named(&p, "<main>", 0);
	m2 = m1 ? func_named(&p, "<main>", m1) : 0;
	ok(m1 && m2 && p.funcs[m1].file == p.funcs[m2].file, "two <main> frames stay apart");
	ok(pt_profile_has_stacks(&p) && !p.agg, "raw dump has stacks");
	pt_profile_release(&p);

	ok(load_sample("cpu.dump", 0, &p, &d) == 0, "cpu.dump reads");
	ok(!pt_profile_has_stacks(&p) && p.agg && p.agg->edges_per_occurrence &&
		   p.no_stacks_reason && p.nnodes == 1,
	   "no raw: an aggregate-only profile with per-occurrence edges, no invented stacks");
	pt_profile_release(&p);
}

int main(void)
{
	test_handmade();
	test_wlong_five();
	test_samples();
	return tap_done();
}
