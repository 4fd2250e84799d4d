/* test-perf.c: what the perf script reader puts in the model beyond the collapsed
 * names: labels, frame flags, sample types, the timeline. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/load.h"
#include "load.h"
#include "tap.h"

static int load_text(const char *text, struct pt_profile *p, struct pt_diag *d, int keep_timeline)
{
	struct pt_read_opts ro = {.keep_timeline = keep_timeline};
	return unit_load_bytes(text, strlen(text), &ro, p, d);
}

/* the label with key k of sample row r: its string, or its number printed */
static const char *label(const struct pt_profile *p, uint32_t row, const char *key, char *buf)
{
	const struct pt_labelset *ls = &p->labelsets[p->samples[row].labels];
	uint32_t i;
	for (i = 0; i < ls->n; i++)
		if (!strcmp(pt_s(p, ls->v[i].key), key)) {
			if (ls->v[i].str)
				return pt_s(p, ls->v[i].str);
			sprintf(buf, "%lld", (long long)ls->v[i].num);
			return buf;
		}
	return "(none)";
}

/* the frame flags of the function named `name` on any node */
static uint32_t flags_of(const struct pt_profile *p, const char *name)
{
	uint32_t n;
	for (n = 1; n < p->nnodes; n++) {
		const struct pt_frame *f = pt_frame_of(p, n);
		if (!strcmp(pt_s(p, p->funcs[f->func].name), name))
			return f->flags;
	}
	return 0xffffffff;
}

int main(void)
{
	struct pt_profile p;
	struct pt_diag d;
	char b[32];
	const char *text = "my worker  9865/9878  [001]   299.412083:          7 page-faults: \n"
			   "\t  ffff81 k+0x1 ([kernel.kallsyms])\n"
			   "\t  130c in+0x3c (inlined)\n"
			   "\t  130c out+0x3c (/b/p)\n"
			   "\t  7f00 [unknown] (/tmp/perf-9865.map)\n"
			   "\n"
			   "perfdemo  9556   299.512083:          5 page-faults: \n"
			   "\t  130c out+0x3c (/b/p)\n";

	ok(load_text(text, &p, &d, 1) == 0, "reads two records");
	is_int(p.nsamples, 2, "two sample rows");
	ok(!strcmp(label(&p, 0, PT_LABEL_COMM, b), "my worker"), "comm label keeps its space");
	ok(!strcmp(label(&p, 0, PT_LABEL_PID, b), "9865"), "pid label");
	ok(!strcmp(label(&p, 0, PT_LABEL_TID, b), "9878"), "tid label");
	ok(!strcmp(label(&p, 0, "cpu", b), "1"), "cpu label");
	ok(!strcmp(label(&p, 1, PT_LABEL_PID, b), "(none)"),
	   "no pid label where perf printed none");
	ok(!strcmp(label(&p, 1, PT_LABEL_TID, b), "9556"), "tid alone");
	is_int(flags_of(&p, "my_worker"), PT_FRAME_PROCESS, "the comm is a process root frame");
	is_int(flags_of(&p, "k") & PT_FRAME_KERNEL, PT_FRAME_KERNEL, "kernel frame flagged");
	is_int(flags_of(&p, "in"), PT_FRAME_INLINED, "inlined frame flagged");
	is_int(flags_of(&p, "out"), 0, "ordinary frame");
	is_int(flags_of(&p, "[perf-9865.map]"), PT_FRAME_JIT | PT_FRAME_NO_SYMBOL,
	       "unnamed JIT code flagged JIT and no-symbol");
	is_int(p.ntypes, 2, "samples and page-faults");
	ok(!strcmp(pt_s(&p, p.types[1].name), "page-faults") &&
		   !strcmp(pt_s(&p, p.types[1].unit), "events"),
	   "page-faults counts events");
	is_int(p.default_type, 1, "the event's periods are the default");
	is_int(pt_profile_total(&p, 0), 2, "two samples");
	is_int(pt_profile_total(&p, 1), 12, "period sum");
	is_int(p.nevents, 2, "timeline kept when asked");
	is_int(p.events[0].time, 0, "timeline starts at 0");
	is_int(p.events[1].time, 100000000, "timestamps in ns from the first");
	is_int(p.duration_nanos, 100000000, "duration");
	pt_profile_release(&p);

	ok(load_text(text, &p, &d, 0) == 0, "reads it again without a timeline");
	is_int(p.nevents, 0, "no timeline unless asked");
	pt_profile_release(&p);
	return tap_done();
}
