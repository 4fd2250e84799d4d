/* test-pprof.c: the pprof writer checked by decoding its bytes with protobuf-c directly
 * (not through our reader), then read back through the format table; and its bytes are
 * the ones protobuf-c packs, awkward values and gzip too. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/format.h"
#include "formats/load.h"
#include "load.h"
#include "formats/profile.pb-c.h"
#include "tap.h"

static uint32_t frame(struct pt_profile *p, const char *name, uint32_t mapping, uint64_t addr,
		      int64_t line, uint32_t flags)
{
	struct pt_frame f;
	memset(&f, 0, sizeof(f));
	f.func = pt_profile_func_text(p, pt_strref_cstr(name), pt_strref_cstr(name),
				      pt_strref_cstr("x.c"), 0, 0);
	f.mapping = mapping;
	f.addr = addr;
	f.line = line;
	f.flags = flags;
	return pt_profile_frame(p, &f);
}

/* a perf-like profile: comm/pid/tid labels, an inlined frame, an unsymbolized frame */
static void build(struct pt_profile *p)
{
	struct pt_mapping m;
	struct pt_label l[3];
	uint32_t map, st[4], node, ls;
	int64_t v[2];

	pt_profile_init(p);
	pt_profile_add_type(p, "samples", "count");
	pt_profile_add_type(p, "cpu", "nanoseconds");
	p->default_type = 1;
	p->period_type.name = pt_str(p, "cpu");
	p->period_type.unit = pt_str(p, "nanoseconds");
	p->period = 1000;
	p->time_nanos = 1700000000000000000;
	p->duration_nanos = 5000;
	pt_profile_add_comment(p, "made by a test");
	memset(&m, 0, sizeof(m));
	m.start = 0x1000;
	m.limit = 0x9000;
	m.file = pt_str(p, "/bin/x");
	map = pt_profile_mapping(p, &m);
	st[0] = frame(p, "leaf", map, 0x1200, 7, 0);		   /* leaf first */
	st[1] = frame(p, "inl", map, 0x1100, 3, PT_FRAME_INLINED); /* inlined into main */
	st[2] = frame(p, "main", map, 0x1100, 20, 0);
	st[3] = frame(p, "0x1050", map, 0x1050, 0, PT_FRAME_NO_SYMBOL);
	node = pt_profile_stack(p, st, 4, 1);
	memset(l, 0, sizeof(l));
	l[0].key = pt_str(p, PT_LABEL_COMM);
	l[0].str = pt_str(p, "x");
	l[1].key = pt_str(p, PT_LABEL_PID);
	l[1].num = 42;
	l[2].key = pt_str(p, PT_LABEL_TID);
	l[2].num = 43;
	l[2].num_unit = pt_str(p, "id");
	ls = pt_profile_labelset(p, l, 3);
	v[0] = 3;
	v[1] = 3000;
	pt_profile_add_sample(p, node, ls, v, 0);
	v[0] = v[1] = 0; /* an all-zero row is not written */
	pt_profile_add_sample(p, pt_profile_stack(p, st, 1, 1), 0, v, 0);
}

/* Values at the ends of int64 (negative ones take ten bytes), 300 functions (location
 * ids past one varint byte), a folded frame, an inlined one, an address-only one, a
 * stack 1000 deep and then a shorter one sharing its root, many labels, every optional
 * Profile field set */
static void build_awkward(struct pt_profile *p)
{
	struct pt_mapping m;
	struct pt_label l[40];
	uint32_t map, st[1000], fr[300], ls, i;
	int64_t v[3];
	char name[32];

	pt_profile_init(p);
	pt_profile_add_type(p, "a", "count");
	pt_profile_add_type(p, "b", "bytes");
	pt_profile_add_type(p, "c", "");
	p->default_type = 0;
	p->period_type.unit = pt_str(p, "nanoseconds"); /* a unit without a type */
	p->period = -7;
	p->time_nanos = INT64_MIN;
	p->duration_nanos = INT64_MAX;
	p->drop_frames = pt_str(p, "drop.*");
	p->keep_frames = pt_str(p, "keep.*");
	pt_profile_add_comment(p, "one");
	pt_profile_add_comment(p, "");
	pt_profile_add_meta(p, "doc_url", "https://example.com/doc");
	memset(&m, 0, sizeof(m));
	m.start = 0x400000;
	m.limit = UINT64_MAX;
	m.offset = 0x1000;
	m.file = pt_str(p, "/bin/y");
	m.build_id = pt_str(p, "abcdef");
	m.flags = PT_MAPPING_HAS_FUNCTIONS | PT_MAPPING_HAS_INLINE_FRAMES;
	map = pt_profile_mapping(p, &m);
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "f%u", (unsigned)i);
		fr[i] = frame(p, name, i % 2 ? map : 0, 0x400000 + 16 * (uint64_t)i,
			      i % 3 ? (int64_t)i : -1, i == 7 ? PT_FRAME_FOLDED : 0);
	}
	fr[10] = frame(p, "inl", map, 0x400000 + 16 * 11, 5, PT_FRAME_INLINED);
	fr[20] = frame(p, "0x400140", map, 0x400140, 0, PT_FRAME_NO_SYMBOL);
	for (i = 0; i < 1000; i++)
		st[i] = fr[(i * 7) % 300];
	memset(l, 0, sizeof(l));
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "k%02u", (unsigned)i);
		l[i].key = pt_str(p, name);
		if (i % 2)
			l[i].str = pt_str(p, "s");
		else
			l[i].num = i % 4 ? INT64_MIN : (int64_t)i * 1000;
		if (i % 4 == 2)
			l[i].num_unit = pt_str(p, "bytes");
	}
	ls = pt_profile_labelset(p, l, 40);
	v[0] = INT64_MIN;
	v[1] = -1;
	v[2] = INT64_MAX;
	pt_profile_add_sample(p, pt_profile_stack(p, st, 1000, 1), ls, v, 0);
	v[0] = 0;
	v[1] = 1;
	v[2] = 0;
	pt_profile_add_sample(p, pt_profile_stack(p, st + 900, 100, 1), 0, v, 0);
	pt_profile_add_sample(p, pt_profile_stack(p, st + 990, 10, 1), ls, v, 0);
	pt_profile_add_sample(p, pt_profile_stack(p, st, 0, 1), 0, v, 0); /* at the root */
}

/* the profile written with wo, in a malloc'd buffer */
static char *write_profile(const struct pt_profile *p, const struct pt_write_opts *wo, size_t *len)
{
	struct pt_diag d;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	pt_diag_init(&d, "out");
	ok(pt_format_find("pprof")->write(p, wo, fp, &d) == 0, "the writer succeeds");
	fclose(fp);
	return buf;
}

/* Our encoder writes what protobuf-c would pack: it decodes our bytes, packs them back
 * to the same bytes, and the gzipped output inflates to them. */
static void check_canonical(const struct pt_profile *p, const char *what)
{
	struct pt_write_opts wo;
	Perftools__Profiles__Profile *pb;
	char *raw, *gz;
	unsigned char *packed = NULL, *inflated;
	size_t len, gzlen, plen = 0;
	uLongf ilen;
	z_stream zs;

	memset(&wo, 0, sizeof(wo));
	wo.type = PT_TYPE_ALL;
	wo.flags = PT_WRITE_NO_GZIP;
	raw = write_profile(p, &wo, &len);
	pb = perftools__profiles__profile__unpack(NULL, len, (const uint8_t *)raw);
	ok(pb != NULL, "%s: protobuf-c decodes it", what);
	if (pb) {
		packed = malloc(perftools__profiles__profile__get_packed_size(pb) + 1);
		plen = perftools__profiles__profile__pack(pb, packed);
		perftools__profiles__profile__free_unpacked(pb, NULL);
	}
	ok(packed && plen == len && !memcmp(packed, raw, len),
	   "%s: protobuf-c packs the decoded message to our bytes", what);

	wo.flags = 0;
	gz = write_profile(p, &wo, &gzlen);
	inflated = malloc(len + 1);
	ilen = (uLongf)len + 1;
	memset(&zs, 0, sizeof(zs));
	zs.next_in = (unsigned char *)gz;
	zs.avail_in = (uInt)gzlen;
	zs.next_out = inflated;
	zs.avail_out = (uInt)ilen;
	ok(inflateInit2(&zs, 15 + 16) == Z_OK && inflate(&zs, Z_FINISH) == Z_STREAM_END &&
		   zs.total_out == len && !memcmp(inflated, raw, len),
	   "%s: the gzipped output inflates to the raw bytes", what);
	inflateEnd(&zs);
	free(inflated);
	free(gz);
	free(packed);
	free(raw);
}

/* string i of the table as a C string (the table holds bytes: a copy, NUL-terminated,
 * in one of a few rotating buffers so that two can be compared) */
static const char *str(const Perftools__Profiles__Profile *pb, int64_t i)
{
	static char bufs[4][256];
	static unsigned next;
	char *b = bufs[next++ % 4];
	size_t n;

	if (i < 0 || (size_t)i >= pb->n_string_table)
		return "<bad>";
	n = pb->string_table[i].len < 255 ? pb->string_table[i].len : 255;
	memcpy(b, pb->string_table[i].data, n);
	b[n] = '\0';
	return b;
}

static const Perftools__Profiles__Location *loc(const Perftools__Profiles__Profile *pb, uint64_t id)
{
	size_t i;
	for (i = 0; i < pb->n_location; i++)
		if (pb->location[i]->id == id)
			return pb->location[i];
	return NULL;
}

static const char *fname(const Perftools__Profiles__Profile *pb, uint64_t id)
{
	size_t i;
	for (i = 0; i < pb->n_function; i++)
		if (pb->function[i]->id == id)
			return str(pb, pb->function[i]->name);
	return "<none>";
}

int main(void)
{
	struct pt_profile p, q;
	struct pt_write_opts wo;
	struct pt_diag d;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&buf, &len);
	Perftools__Profiles__Profile *pb;
	const Perftools__Profiles__Sample *s;
	const Perftools__Profiles__Location *l0, *l1, *l2;
	int rc;

	build(&p);
	memset(&wo, 0, sizeof(wo));
	wo.type = PT_TYPE_ALL;
	wo.flags = PT_WRITE_NO_GZIP;
	pt_diag_init(&d, "out");
	ok(pt_format_find("pprof")->write(&p, &wo, fp, &d) == 0, "the writer succeeds");
	fclose(fp);

	pb = perftools__profiles__profile__unpack(NULL, len, (const uint8_t *)buf);
	ok(pb != NULL, "protobuf-c decodes what we wrote");
	if (!pb)
		return tap_done();
	ok(pb->n_string_table > 0 && !pb->string_table[0].len, "string 0 is empty");
	is_int(pb->n_sample_type, 2, "two sample types");
	ok(!strcmp(str(pb, pb->sample_type[1]->type), "cpu") &&
		   !strcmp(str(pb, pb->sample_type[1]->unit), "nanoseconds"),
	   "type and unit strings");
	is_int(pb->default_sample_type, 0, "no default_sample_type when the default is the last");
	ok(pb->period_type && !strcmp(str(pb, pb->period_type->type), "cpu"), "period type");
	is_int(pb->period, 1000, "period");
	is_int(pb->time_nanos, 1700000000000000000, "time");
	is_int(pb->duration_nanos, 5000, "duration");
	ok(pb->n_comment == 1 && !strcmp(str(pb, pb->comment[0]), "made by a test"), "comment");
	is_int(pb->n_sample, 1, "the all-zero row is left out");
	s = pb->sample[0];
	is_int(s->n_value, 2, "one value per type");
	is_int(s->value[1], 3000, "values");
	is_int(s->n_location_id, 3, "inlined frame and caller share one location");
	l0 = loc(pb, s->location_id[0]);
	l1 = loc(pb, s->location_id[1]);
	l2 = loc(pb, s->location_id[2]);
	ok(l0 && l0->n_line == 1 && !strcmp(fname(pb, l0->line[0]->function_id), "leaf") &&
		   l0->address == 0x1200 && l0->line[0]->line == 7,
	   "leaf location: address, function, line");
	ok(l1 && l1->n_line == 2 && !strcmp(fname(pb, l1->line[0]->function_id), "inl") &&
		   !strcmp(fname(pb, l1->line[1]->function_id), "main"),
	   "inlined location: innermost line first, the caller last");
	ok(l2 && l2->n_line == 0 && l2->address == 0x1050, "unsymbolized location has no line");
	ok(l0 && l0->mapping_id && pb->n_mapping == 1 &&
		   !strcmp(str(pb, pb->mapping[0]->filename), "/bin/x") &&
		   pb->mapping[0]->id == l0->mapping_id,
	   "mapping");
	is_int(s->n_label, 3, "three labels");
	for (i = 0; i < s->n_label; i++) {
		const char *k = str(pb, s->label[i]->key);
		if (!strcmp(k, "comm"))
			ok(!strcmp(str(pb, s->label[i]->str), "x"), "comm is a string label");
		else if (!strcmp(k, "pid"))
			ok(s->label[i]->num == 42 && !s->label[i]->str, "pid is a numeric label");
		else
			ok(!strcmp(k, "tid") && s->label[i]->num == 43 &&
				   !strcmp(str(pb, s->label[i]->num_unit), "id"),
			   "tid is numeric with its unit");
	}
	perftools__profiles__profile__free_unpacked(pb, NULL);

	/* read back through the format table */
	rc = unit_load_bytes(buf, len, NULL, &q, &d);
	ok(rc == 0 && !strcmp(q.format, "pprof"), "detected and read as pprof");
	is_int(q.nsamples, 1, "one row");
	if (q.nsamples == 1) {
		uint32_t n = q.samples[0].node, depth = 0, inl = 0;
		for (; n; n = q.nodes[n].parent, depth++)
			inl += (pt_frame_of(&q, n)->flags & PT_FRAME_INLINED) != 0;
		is_int(depth, 4, "four frames");
		n = q.samples[0].node;
		while (q.nodes[n].parent)
			n = q.nodes[n].parent;
		{
			const struct pt_frame *f = pt_frame_of(&q, n);
			ok(!strcmp(pt_s(&q, q.funcs[f->func].name), "0x1050") &&
				   !strcmp(pt_s(&q, q.funcs[f->func].file), "/bin/x") &&
				   (f->flags & PT_FRAME_NO_SYMBOL),
			   "a location without lines is its address, in the mapping's file");
		}
		is_int(inl, 1, "one inlined");
		is_int(q.labelsets[q.samples[0].labels].n, 3, "labels survive");
	}
	is_int(q.default_type, 1, "the default type is the last one");
	pt_profile_release(&q);
	check_canonical(&p, "perf-like");
	pt_profile_release(&p);
	free(buf);

	build_awkward(&p);
	check_canonical(&p, "awkward");
	pt_profile_release(&p);
	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	check_canonical(&p, "empty");
	pt_profile_release(&p);
	return tap_done();
}
