/* test-cpuprofile.c: the V8 profile reader's labels, lines and frame kinds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "formats/format.h"
#include "formats/load.h"
#include "load.h"
#include "tap.h"

static int load_file(const char *path, struct pt_profile *p, struct pt_diag *d)
{
	return unit_load_file(path, NULL, p, d);
}

static int load_text(const char *text, struct pt_profile *p, struct pt_diag *d)
{
	return unit_load_bytes(text, strlen(text), NULL, p, d);
}

/* the numeric (or string) label `key` of a label set; -1 if absent */
static int64_t label_num(const struct pt_profile *p, uint32_t set, const char *key)
{
	uint32_t i;
	for (i = 0; i < p->labelsets[set].n; i++)
		if (!strcmp(pt_s(p, p->labelsets[set].v[i].key), key))
			return p->labelsets[set].v[i].num;
	return -1;
}

static const char *label_str(const struct pt_profile *p, uint32_t set, const char *key)
{
	uint32_t i;
	for (i = 0; i < p->labelsets[set].n; i++)
		if (!strcmp(pt_s(p, p->labelsets[set].v[i].key), key))
			return pt_s(p, p->labelsets[set].v[i].str);
	return NULL;
}

/* self value of type 0 at (function name, line) in the lines view */
static int64_t line_self(const struct pt_profile *p, const struct pt_agg *a, const char *name,
			 int64_t line)
{
	uint32_t i;
	int64_t sum = 0;
	for (i = 0; i < a->nlines; i++) {
		const struct pt_agg_entry *e = &a->entries[a->lines[i].entry];
		if (a->lines[i].line == line && !strcmp(pt_s(p, e->name), name))
			sum += a->line_self[(size_t)i * a->ntypes];
	}
	return sum;
}

/* a trace with two threads: profile 0x1 on tid 11 (named), 0x2 on tid 12 */
static const char two_threads[] =
	"[{\"pid\":7,\"tid\":11,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":{\"name\":\"Main\"}}"
	","
	"{\"pid\":7,\"tid\":11,\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\","
	"\"args\":{\"data\":{\"startTime\":100}}},"
	"{\"pid\":7,\"tid\":12,\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x2\","
	"\"args\":{\"data\":{\"startTime\":100}}},"
	"{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":"
	"\"(root)\"}},{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"f\",\"url\":\"/"
	"f.js\","
	"\"lineNumber\":0}}],\"samples\":[2,2,2]},\"timeDeltas\":[1,1,1],\"lines\":[3,3,0]}},"
	"\"id\":\"0x1\",\"name\":\"ProfileChunk\",\"pid\":7,\"tid\":99},"
	"{\"pid\":7,\"tid\":99,\"name\":\"ProfileChunk\",\"id\":\"0x2\",\"args\":{\"data\":"
	"{\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
	"{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"g\"}}],\"samples\":[2]},"
	"\"timeDeltas\":[5]}}}]";

int main(void)
{
	struct pt_profile p;
	struct pt_diag d;
	struct pt_agg a;
	uint32_t i, set;
	int64_t n11 = 0, n12 = 0;

	ok(load_file(SRCDIR "/samples/node/small.trace.json", &p, &d) == 0, "reads the trace");
	ok(p.nsamples > 0, "has samples");
	set = p.samples[0].labels;
	for (i = 1; i < p.nsamples; i++)
		if (p.samples[i].labels != set)
			set = UINT32_MAX;
	ok(set != UINT32_MAX && set != 0, "one label set for the one profile");
	if (set != UINT32_MAX && set != 0) {
		is_int(label_num(&p, set, PT_LABEL_PID), 17787, "pid label");
		is_int(label_num(&p, set, PT_LABEL_TID), 17787, "tid label: the Profile event's");
		ok(label_str(&p, set, PT_LABEL_THREAD) &&
			   !strcmp(label_str(&p, set, PT_LABEL_THREAD), "JavaScriptMainThread"),
		   "thread name from the thread_name metadata event");
	}
	pt_profile_release(&p);

	ok(load_text(two_threads, &p, &d) == 0, "reads a two-thread trace (array, any key order)");
	for (i = 0; i < p.nsamples; i++) {
		int64_t tid = label_num(&p, p.samples[i].labels, PT_LABEL_TID);
		int64_t v = p.sample_values[(size_t)i * p.ntypes];
		if (tid == 11)
			n11 += v;
		else if (tid == 12)
			n12 += v;
	}
	is_int(n11, 3, "three samples on tid 11 (from the Profile event, not the chunk's 99)");
	is_int(n12, 1, "one sample on tid 12");
	ok(pt_aggregate(&p, PT_GRAN_LINES, &a, &d) == 0, "lines view");
	is_int(line_self(&p, &a, "f", 3), 2, "trace `lines` give per-line self counts");
	pt_agg_release(&a);
	pt_profile_release(&p);

	ok(load_file(SRCDIR "/samples/node/lines.cpuprofile", &p, &d) == 0,
	   "reads lines.cpuprofile");
	ok(pt_aggregate(&p, PT_GRAN_LINES, &a, &d) == 0, "lines view");
	/* hotLines' positionTicks summed over its nodes, by jq:
	 * [.nodes[] | select(.callFrame.functionName == "hotLines") | .positionTicks[]]
	 * | group_by(.line) | map({line: .[0].line, t: (map(.ticks) | add)}) */
	is_int(line_self(&p, &a, "hotLines", 13), 1213, "hotLines line 13");
	is_int(line_self(&p, &a, "hotLines", 14), 576, "hotLines line 14");
	is_int(line_self(&p, &a, "hotLines", 15), 1105, "hotLines line 15");
	pt_agg_release(&a);
	for (i = 1; i < p.nframes; i++) {
		const char *name = pt_s(&p, p.funcs[p.frames[i].func].name);
		if (!strcmp(name, "(idle)") || !strcmp(name, "(program)") ||
		    !strcmp(name, "(garbage collector)"))
			ok(p.frames[i].flags & PT_FRAME_SYNTHETIC, "%s is synthetic", name);
		if (!strcmp(name, "(root)"))
			ok(0, "(root) is not a frame");
	}
	pt_profile_release(&p);
	return tap_done();
}
