/* tracetee.c: one yajl parse of a Chrome trace handed to two readers (tracetee.h): the
 * host sees every token, the mate those of the event array. */
#include "config.h"

#include <string.h>

#include "formats/tracetee.h"
#include "util/json.h"

/* the mate reads its offsets off the host's parse */
static int mate_ok(struct pt_tracetee *t, int rc)
{
	if (!rc)
		t->host.j->failed = 1;
	return rc;
}

#define MATE(t, name, ...)                                                                         \
	((t)->events && !(t)->drop && (t)->mate.cb->name                                           \
		 ? ((t)->mate.j->h = (t)->host.j->h,                                               \
		    (t)->mate.j->chunk_off = (t)->host.j->chunk_off,                               \
		    mate_ok((t), (t)->mate.cb->name((t)->mate.ctx, ##__VA_ARGS__)))                \
		 : 1)

static int tee_null(void *ctx)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->key_events = 0;
	rc = t->host.cb->yajl_null(t->host.ctx) && MATE(t, yajl_null);
	t->drop = 0;
	return rc;
}
static int tee_boolean(void *ctx, int b)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->key_events = 0;
	rc = t->host.cb->yajl_boolean(t->host.ctx, b) && MATE(t, yajl_boolean, b);
	t->drop = 0;
	return rc;
}
static int tee_number(void *ctx, const char *s, size_t len)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->key_events = 0;
	rc = t->host.cb->yajl_number(t->host.ctx, s, len) && MATE(t, yajl_number, s, len);
	t->drop = 0;
	return rc;
}
static int tee_string(void *ctx, const unsigned char *s, size_t len)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->key_events = 0;
	rc = t->host.cb->yajl_string(t->host.ctx, s, len) && MATE(t, yajl_string, s, len);
	t->drop = 0;
	return rc;
}
static int tee_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct pt_tracetee *t = ctx;
	t->key_events = t->depth == 1 && len == 11 && !memcmp(s, "traceEvents", 11);
	t->drop = t->in_event && t->events == 2 && t->mate.reads_key && !t->mate.reads_key(s, len);
	return t->host.cb->yajl_map_key(t->host.ctx, s, len) && MATE(t, yajl_map_key, s, len);
}
static int tee_start_map(void *ctx)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->drop = 0; /* a container is handed over whole */
	rc = t->host.cb->yajl_start_map(t->host.ctx) && MATE(t, yajl_start_map);
	t->key_events = 0;
	t->depth++;
	if (t->events && ++t->events == 2)
		t->in_event = 1;
	return rc;
}
static int tee_start_array(void *ctx)
{
	struct pt_tracetee *t = ctx;
	int rc;

	t->drop = 0;
	rc = t->host.cb->yajl_start_array(t->host.ctx) && MATE(t, yajl_start_array);
	if (t->events) {
		if (++t->events == 2)
			t->in_event = 0;
	} else if (rc && !t->done && (t->depth == 0 || (t->depth == 1 && t->key_events))) {
		/* the event array opens: the mate starts there */
		t->mate.j->h = t->host.j->h;
		t->mate.j->chunk_off = t->host.j->chunk_off;
		t->mate.enter(t->mate.ctx);
		t->events = 1;
	}
	t->key_events = 0;
	t->depth++;
	return rc;
}
static int tee_end(void *ctx, int is_map)
{
	struct pt_tracetee *t = ctx;
	int rc = (is_map ? t->host.cb->yajl_end_map(t->host.ctx)
			 : t->host.cb->yajl_end_array(t->host.ctx)) &&
		 (is_map ? MATE(t, yajl_end_map) : MATE(t, yajl_end_array));

	t->key_events = 0;
	if (t->depth)
		t->depth--;
	if (t->events && !--t->events)
		t->done = 1;
	return rc;
}
static int tee_end_map(void *ctx)
{
	return tee_end(ctx, 1);
}
static int tee_end_array(void *ctx)
{
	return tee_end(ctx, 0);
}

const yajl_callbacks pt_tracetee_callbacks = {
	tee_null,    tee_boolean,     NULL,	     NULL,
	tee_number,  tee_string,      tee_start_map, tee_map_key,
	tee_end_map, tee_start_array, tee_end_array,
};

int pt_tracetee_may_be_trace(const unsigned char *head, size_t len)
{
	size_t i = pt_json_skip_ws(head, 0, len);

	return i < len &&
	       (head[i] == '[' || (head[i] == '{' && memmem(head, len, "\"traceEvents\"", 13)));
}
