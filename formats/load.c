/* load.c: the load front: input -> detection -> format reader -> model check. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "formats/load.h"
#include "util/buf.h"
#include "util/fetch.h"

/* The bytes detection sees: PT_DETECT_BYTES, or more when they are text (not JSON) that
 * holds less than its first two whole lines, so that a long first record (a comm of
 * 8 KB, a collapsed line of one long frame) and the line after it are seen whole. The
 * window doubles up to the longest line a reader takes; the input's --max-input-size
 * bounds it too. NULL on a read error. */
static const unsigned char *detect_head(struct pt_input *in, size_t *len)
{
	size_t want = PT_DETECT_BYTES, i;
	const unsigned char *head;

	for (;;) {
		int lines = 0;

		head = pt_input_peek(in, want, len);
		if (!head || *len < want || want >= PT_INPUT_MAX_LINE)
			return head;
		for (i = 0; i < *len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
					 head[i] == '\n');
		     i++)
			;
		if (i < *len && (head[i] == '{' || head[i] == '['))
			return head;
		if (memchr(head, '\0', *len))
			return head;
		for (; i < *len && lines < 2; i++)
			lines += head[i] == '\n';
		if (lines >= 2)
			return head;
		want *= 2;
	}
}

int pt_load_input(struct pt_input *in, const struct pt_load_opts *o, struct pt_profile *p,
		  struct pt_diag *d)
{
	const struct pt_format *f;
	const unsigned char *head;
	size_t len;
	int ret;

	head = detect_head(in, &len);
	if (!head)
		return -1;
	if (!len && !o->from) /* --from: the reader says what empty is (perf: no samples) */
		return pt_diag_error_at(d, 0, "empty input");
	if (o->from) {
		f = pt_format_find(o->from);
		if (!f || !f->read)
			return pt_diag_error(d, "cannot read format '%s' (see 'proftool formats')",
					     o->from);
	} else {
		f = pt_format_detect(head, len);
		if (!f)
			return pt_diag_error_at(d, 0,
						"unrecognized profile format (see 'proftool "
						"formats'; --from FORMAT forces one)");
	}
	p->keep_timeline = o->read.keep_timeline;
	/* names demangled (or simplified) once each, as the reader makes functions */
	p->name_mode = PT_NAMES_MARK;
	if (!(o->read.flags & PT_READ_NO_DEMANGLE))
		p->name_mode |= PT_NAMES_DEMANGLE;
	if (o->read.flags & PT_READ_SIMPLIFY)
		p->name_mode |= PT_NAMES_SIMPLIFY;
	p->src = in; /* where a record whose values overflow is */
	ret = f->read(in, p, &o->read, d);
	p->src = NULL;
	if (!ret)
		ret = pt_profile_check_sums(p, o->read.lenient, d);
	pt_profile_pack(p);
	if (!ret && !p->format)
		p->format = f->name;
	if (!ret)
		ret = pt_profile_check(p, d);
	return ret;
}

/* what to read an open input as: a profile or a heap graph */
struct target {
	struct pt_profile *p;
	struct pt_heapgraph *g;
};

static int read_input(struct pt_input *in, const struct pt_load_opts *o, struct target *t,
		      struct pt_diag *d)
{
	return t->p ? pt_load_input(in, o, t->p, d) : pt_load_heap_input(in, t->g, d);
}

/* a URL: fetched whole (bounded like a file), then read from memory */
static int load_url(const char *path, const struct pt_load_opts *o, struct target *t,
		    struct pt_diag *d)
{
	uint64_t max = o->max_size ? o->max_size : PT_INPUT_DEFAULT_MAX;
	long timeout = o->timeout ? o->timeout : (o->seconds ? o->seconds : 30) + 60;
	char *url = o->seconds ? pt_url_with_seconds(path, o->seconds) : NULL;
	unsigned char *data;
	size_t len;
	struct pt_input in;
	int ret = -1;

	if (pt_fetch(url ? url : path, max, timeout, &data, &len, d) == 0) {
		if (pt_input_open_mem(&in, path, data, len, o->max_size, d) == 0)
			ret = read_input(&in, o, t, d);
		pt_input_close(&in);
		free(data);
	}
	d->path = path;
	free(url);
	return ret;
}

static int load(const char *path, const struct pt_load_opts *o, struct target *t, struct pt_diag *d)
{
	struct pt_input in;
	int ret = -1;

	if (pt_is_url(path))
		return load_url(path, o, t, d);
	if (pt_input_open(&in, path, o->max_size, d) == 0)
		ret = read_input(&in, o, t, d);
	pt_input_close(&in);
	return ret;
}

int pt_load(const char *path, const struct pt_load_opts *o, struct pt_profile *p, struct pt_diag *d)
{
	struct target t = {p, NULL};
	return load(path, o, &t, d);
}

int pt_load_heap_input(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d)
{
	const struct pt_format *f;
	const unsigned char *head;
	size_t len;

	head = pt_input_peek(in, PT_DETECT_BYTES, &len);
	if (!head)
		return -1;
	/* another model's input is named, with the command that reads it */
	f = pt_format_detect(head, len);
	if (f && !(pt_format_yields(f) & PT_YIELD_HEAP_GRAPH))
		return pt_diag_error(d,
				     "a %s profile, not a heap snapshot: 'proftool top' and the "
				     "other profile commands read it",
				     f->name);
	f = pt_format_detect_yield(head, len, PT_YIELD_HEAP_GRAPH);
	if (!f)
		return pt_diag_error(d, "this build reads no heap snapshots");
	return f->read_heap(in, g, d);
}

int pt_load_heap(const char *path, const struct pt_load_opts *o, struct pt_heapgraph *g,
		 struct pt_diag *d)
{
	struct target t = {NULL, g};
	return load(path, o, &t, d);
}

int pt_select_type(const struct pt_profile *p, const char *spec, int allow_all, struct pt_diag *d)
{
	struct pt_buf names = PT_BUF_INIT;
	uint32_t t;
	int i;

	if (!spec)
		return p->default_type < p->ntypes ? (int)p->default_type : 0;
	if (allow_all && !strcmp(spec, "all"))
		return PT_TYPE_ALL;
	i = pt_profile_find_type(p, spec);
	if (i >= 0)
		return i;
	for (t = 0; t < p->ntypes; t++)
		pt_buf_addf(&names, "%s%s", t ? ", " : "", pt_s(p, p->types[t].name));
	pt_diag_error(d, "no sample type '%s' (the profile has: %s)", spec, names.buf);
	pt_buf_release(&names);
	return -1;
}
