/* chrometrace.c: Chrome trace event files' CPU profiles (Profile and ProfileChunk events,
 * the old single CpuProfile event, thread_name metadata): each event's profile data goes
 * to its profile's unit of the V8 CPU profile reader (formats/cpuprofile.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "formats/cpuprofile.h"
#include "util/xalloc.h"

/* a mate (reading beside traceevents.c, whose spans are most events) interns only the
 * names it acts on: the others are 0, as an event without a name */
static uint32_t name_of(struct reader *r, const char *s, size_t len)
{
	static const char *const names[] = {"Profile", "ProfileChunk", "CpuProfile", "thread_name"};
	const uint32_t ids[] = {r->s_profile, r->s_chunk, r->s_cpuprofile, r->s_thread_name};
	size_t k;

	for (k = 0; k < 4; k++)
		if (strlen(names[k]) == len && !memcmp(names[k], s, len))
			return ids[k];
	return 0;
}

/* a value in a trace event */
static int event_value(struct reader *r, enum key k, enum vkind vk, const char *s, size_t len)
{
	int64_t x;

	switch (k) {
	case K_PID:
	case K_TID:
		if (vk == V_NUMBER && pt_v8json_num(s, len, &x, 0) == 0) {
			if (k == K_PID)
				r->ev_pid = x;
			else
				r->ev_tid = x;
		}
		if (vk == V_STRING) {
			/* some writers quote ids; take a decimal string as a number */
			if (pt_v8json_num(s, len, &x, 0) == 0) {
				if (k == K_PID)
					r->ev_pid = x;
				else
					r->ev_tid = x;
			}
		}
		if (vk == V_MAP || vk == V_ARRAY)
			break;
		return 1;
	case K_ID:
		if (vk == V_STRING || vk == V_NUMBER) {
			r->ev_id = pt_strn(r->p, s, len);
			return 1;
		}
		break;
	case K_NAME:
		if (vk == V_STRING) {
			r->ev_name = r->mate ? name_of(r, s, len) : pt_strn(r->p, s, len);
			return 1;
		}
		break;
	case K_ARGS:
		if (vk == V_MAP)
			return pt_cpuprofile_push(r, C_ARGS, 0, 0);
		break;
	default:
		break;
	}
	return NOT_USED;
}

/* a value in a trace event's args.data */
static int data_value(struct reader *r, enum key k, enum vkind vk, const char *s, size_t len)
{
	struct unit *u = r->cur;
	int64_t x;

	switch (k) {
	case K_CPUPROFILE:
		if (vk != V_MAP)
			return pt_cpuprofile_wrong_type(r, k, "an object");
		return pt_cpuprofile_push(r, C_PROFILE, 0, 0);
	case K_DELTAS:
	case K_LINES:
		if (vk != V_ARRAY)
			return pt_cpuprofile_wrong_type(r, k, "an array");
		if (k == K_DELTAS) {
			pt_cpuprofile_repeat_deltas(u);
			if (!u->deltas_off)
				u->deltas_off = pt_v8json_here(&r->j) - 1;
		}
		return pt_cpuprofile_push_ints(r, k == K_DELTAS ? A_DELTAS : A_LINES);
	case K_START:
	case K_END:
		if (vk != V_NUMBER || pt_v8json_num(s, len, &x, 0) < 0)
			return pt_cpuprofile_wrong_type(r, k, "a number");
		if (x > INT64_MAX / 1000 || x < INT64_MIN / 1000)
			return pt_v8json_fail(&r->j, "'%s' out of range",
					      pt_cpuprofile_key_name(k));
		if (k == K_START)
			u->start = x * 1000;
		else
			u->end = x * 1000;
		return 1;
	default:
		break;
	}
	return NOT_USED;
}

static uint32_t unit_for(struct reader *r, int64_t pid, uint32_t id)
{
	uint64_t key = (uint64_t)pid * 1000003u ^ ((uint64_t)id << 20) ^ id;
	uint32_t *slot, i;

	/* the map is a first guess; confirm pid and id (collisions fall back to a scan) */
	slot = pt_map_put(&r->unit_index, key);
	if (*slot != PT_MAP_NEW && r->units[*slot].pid == pid && r->units[*slot].id == id)
		return *slot;
	for (i = 1; i < r->nunits; i++)
		if (r->units[i].pid == pid && r->units[i].id == id)
			return i;
	PT_ALLOC_GROW(r->units, r->nunits + 1, r->units_alloc);
	i = (uint32_t)r->nunits++;
	pt_cpuprofile_unit_init(&r->units[i]);
	r->units[i].pid = pid;
	r->units[i].id = id;
	slot = pt_map_put(&r->unit_index, key);
	if (*slot == PT_MAP_NEW)
		*slot = i;
	return i;
}

/* append the event just read (r->chunk) to its profile */
static void commit_event1(struct reader *r)
{
	struct unit *c = &r->chunk, *u;
	uint32_t ui, base;
	size_t i;

	if (!r->ev_name)
		return;
	if (r->ev_name == r->s_thread_name) {
		if (r->ev_argname) {
			PT_ALLOC_GROW(r->threads, r->nthreads + 1, r->threads_alloc);
			r->threads[r->nthreads].pid = r->ev_pid;
			r->threads[r->nthreads].tid = r->ev_tid;
			r->threads[r->nthreads].name = r->ev_argname;
			r->nthreads++;
		}
		return;
	}
	if (r->ev_name == r->s_cpuprofile) {
		/* old Chrome: one event holds the whole profile; give it its own identity */
		char idbuf[48];
		snprintf(idbuf, sizeof(idbuf), "CpuProfile#%" PRIu64, ++r->ncpuprofile);
		ui = unit_for(r, r->ev_pid, pt_str(r->p, idbuf));
	} else if (r->ev_name == r->s_profile || r->ev_name == r->s_chunk) {
		ui = unit_for(r, r->ev_pid, r->ev_id);
	} else {
		return;
	}
	u = &r->units[ui];
	if (r->ev_name == r->s_profile) {
		u->has_profile_event = 1;
		u->tid = r->ev_tid;
	} else if (!u->has_profile_event && u->tid == NO_VALUE) {
		u->tid = r->ev_tid; /* no Profile event (yet): the chunk's thread */
	}
	if (c->start != NO_VALUE)
		u->start = c->start;
	if (c->end != NO_VALUE)
		u->end = c->end;
	base = (uint32_t)u->nnodes;
	for (i = 0; i < c->nnodes; i++) {
		PT_ALLOC_GROW(u->nodes, u->nnodes + 1, u->nodes_alloc);
		u->nodes[u->nnodes++] = c->nodes[i];
	}
	for (i = 0; i < c->nchildren; i++) {
		PT_ALLOC_GROW(u->children, u->nchildren + 1, u->children_alloc);
		u->children[u->nchildren] = c->children[i];
		u->children[u->nchildren++].parent += base;
	}
	for (i = 0; i < c->nticks; i++) {
		PT_ALLOC_GROW(u->ticks, u->nticks + 1, u->ticks_alloc);
		u->ticks[u->nticks] = c->ticks[i];
		u->ticks[u->nticks++].node += base;
	}
	/* per-chunk lines are optional (V8 omits them when all are 0): pad to samples */
	if (c->nsamples || c->nlines) {
		PT_ALLOC_GROW(u->lines, u->nsamples + c->nsamples, u->lines_alloc);
		for (i = 0; i < c->nsamples; i++)
			u->lines[u->nsamples + i] = i < c->nlines ? c->lines[i] : 0;
		PT_ALLOC_GROW(u->samples, u->nsamples + c->nsamples, u->samples_alloc);
		if (c->nsamples)
			memcpy(u->samples + u->nsamples, c->samples, c->nsamples * sizeof(int64_t));
		u->nsamples += c->nsamples;
		u->nlines = u->nsamples;
	}
	/* deltas: keep them aligned with samples even if a chunk is inconsistent; the
	 * counts are compared at the end */
	PT_ALLOC_GROW(u->deltas, u->ndeltas + c->ndeltas, u->deltas_alloc);
	if (c->ndeltas)
		memcpy(u->deltas + u->ndeltas, c->deltas, c->ndeltas * sizeof(int64_t));
	u->ndeltas += c->ndeltas;
	u->has_samples |= c->has_samples || c->nsamples;
	u->has_deltas |= c->has_deltas;
	if (!u->samples_off) /* errors point at the first chunk's arrays */
		u->samples_off = c->samples_off;
	if (!u->deltas_off)
		u->deltas_off = c->deltas_off;
	u->legacy |= c->legacy;
	u->one_based |= c->one_based;
}

void pt_chrometrace_event_end(struct reader *r)
{
	commit_event1(r);
	r->cur = &r->units[0]; /* units may have moved */
}

/* a value in the trace's event array, in an event, its args or args.data */
int pt_chrometrace_value(struct reader *r, const struct level *l, enum key k, enum vkind vk,
			 const char *s, size_t len)
{
	switch ((enum ctx)l->ctx) {
	case C_EVENTS:
		if (vk != V_MAP)
			return NOT_USED; /* tolerate junk between events */
		r->ev_pid = r->ev_tid = NO_VALUE;
		r->ev_name = r->ev_id = r->ev_argname = 0;
		pt_cpuprofile_unit_reset(&r->chunk);
		r->cur = &r->chunk;
		return pt_cpuprofile_push(r, C_EVENT, 0, 0);
	case C_EVENT:
		return event_value(r, k, vk, s, len);
	case C_ARGS:
		if (k == K_DATA && vk == V_MAP)
			return pt_cpuprofile_push(r, C_DATA, 0, 0);
		if (k == K_NAME && vk == V_STRING) {
			r->ev_argname = pt_strn(r->p, s, len);
			return 1;
		}
		return NOT_USED;
	case C_DATA:
		return data_value(r, k, vk, s, len);
	default:
		return NOT_USED;
	}
}

/* a trace array may lack its closing ']' (the trace format allows it) */
int pt_chrometrace_cut_ok(void *ctx)
{
	const struct reader *r = ctx;
	return r->is_trace && r->depth == 1 && r->stack[0].ctx == C_EVENTS && !r->j.skip;
}

int pt_chrometrace_lost(struct reader *r, const struct unit *u)
{
	size_t k;

	if (!r->lenient || u->nnodes)
		return 0;
	/* every chunk of this profile was lost: its samples (if any) name nodes the input
	 * lacks */
	for (k = 0; k < u->nsamples; k++)
		pt_diag_dangling(r->j.d, u->samples_off);
	return 1;
}

uint32_t pt_chrometrace_labels(struct reader *r, const struct unit *u)
{
	struct pt_profile *p = r->p;
	struct pt_label lab[3];
	uint32_t nl = 0;
	size_t k;

	memset(lab, 0, sizeof(lab));
	if (u->pid != NO_VALUE) {
		lab[nl].key = pt_str(p, PT_LABEL_PID);
		lab[nl++].num = u->pid;
	}
	if (u->tid != NO_VALUE) {
		lab[nl].key = pt_str(p, PT_LABEL_TID);
		lab[nl++].num = u->tid;
	}
	for (k = 0; k < r->nthreads; k++)
		if (r->threads[k].pid == u->pid && r->threads[k].tid == u->tid) {
			lab[nl].key = pt_str(p, PT_LABEL_THREAD);
			lab[nl++].str = r->threads[k].name;
			break;
		}
	return pt_profile_labelset(p, lab, nl);
}

void pt_chrometrace_which(struct reader *r, const struct unit *u)
{
	pt_diag_prefix(r->j.d, "profile pid %" PRId64 " id '%s': ", u->pid, pt_s(r->p, u->id));
}
