/* gotrace-go.c: the go tool trace adapter: a Go execution trace proftool does not read
 * itself (the 1.22 format, a version it does not know, or --via-go) goes to
 * `go tool trace -pprof=TYPE` for each of the four blocking profiles, and the four
 * pprof files it writes come back as the four sample types of one profile. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/gotrace-go.h"
#include "formats/gotrace.h"
#include "formats/load.h"
#include "util/buf.h"
#include "util/xalloc.h"

static const char *const types[PT_GOTRACE_NTYPES] = {"net", "sync", "syscall", "sched"};

/* whether an executable `go` is on PATH */
static int have_go(void)
{
	const char *path = getenv("PATH");
	struct pt_buf b = PT_BUF_INIT;
	int found = 0;

	while (path && !found) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		pt_buf_reset(&b);
		if (n)
			pt_buf_add(&b, path, n);
		else
			pt_buf_addch(&b, '.');
		pt_buf_addstr(&b, "/go");
		found = access(b.buf, X_OK) == 0;
		path = end ? end + 1 : NULL;
	}
	pt_buf_release(&b);
	return found;
}

static int write_file(const char *path, const unsigned char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return close(fd);
}

/* the first line of a file, for a message */
static void first_line(const char *path, struct pt_buf *out)
{
	FILE *fp = fopen(path, "r");
	int c;

	while (fp && (c = getc(fp)) != EOF && c != '\n' && out->len < 200)
		pt_buf_addch(out, (char)c);
	if (fp)
		fclose(fp);
}

/* go tool trace -pprof=TYPE TRACE > OUT, its stderr into ERR; 0 or -1 with d filled */
static int run_go(const char *type, const char *trace, const char *out, const char *err,
		  struct pt_diag *d)
{
	struct pt_buf arg = PT_BUF_INIT, msg = PT_BUF_INIT;
	int status = 0, ret = 0;
	pid_t pid;

	pt_buf_addf(&arg, "-pprof=%s", type);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execlp("go", "go", "tool", "trace", arg.buf, trace, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		first_line(err, &msg);
		ret = pt_diag_error(d, "go tool trace -pprof=%s failed%s%s", type,
				    msg.len ? ": " : "", msg.len ? msg.buf : "");
	}
	pt_buf_release(&arg);
	pt_buf_release(&msg);
	return ret;
}

/* frame f of q, made in p (its function by name, file and start line) */
static uint32_t copy_frame(struct pt_profile *p, const struct pt_profile *q, uint32_t f)
{
	const struct pt_frame *qf = &q->frames[f];
	const struct pt_func *fn = &q->funcs[qf->func];
	struct pt_frame fr = *qf;

	fr.func = pt_profile_func_text(p, pt_strref_cstr(pt_s(q, fn->name)),
				       pt_strref_cstr(pt_s(q, fn->system_name)),
				       pt_strref_cstr(pt_s(q, fn->file)), fn->start_line, 0);
	fr.mapping = 0;
	return pt_profile_frame(p, &fr);
}

/* the delays of q (a go tool trace -pprof profile) as type k of p */
static int copy_type(struct pt_profile *p, const struct pt_profile *q, int k, const uint32_t *fmap,
		     const struct pt_read_opts *o, struct pt_diag *d)
{
	int t = pt_profile_find_type(q, "delay");
	uint32_t *stack = NULL, i, n, node;
	size_t alloc = 0;

	if (t < 0)
		return pt_diag_error(d, "go tool trace -pprof=%s gave no delay sample type",
				     types[k]);
	for (i = 0; i < q->nsamples; i++) {
		int64_t v[PT_GOTRACE_NTYPES] = {0};
		v[k] = q->sample_values[(size_t)i * q->ntypes + (uint32_t)t];
		for (n = 0, node = q->samples[i].node; node; node = q->nodes[node].parent) {
			PT_ALLOC_GROW(stack, (size_t)n + 1, alloc);
			stack[n++] = fmap[q->nodes[node].frame];
		}
		if (v[k])
			pt_sink_sample(o->sink, p, stack, n, 1, 0, v, 0);
	}
	free(stack);
	return 0;
}

/* the four pprof files in dir into p */
static int read_back(const char *dir, struct pt_profile *p, const struct pt_read_opts *o,
		     struct pt_diag *d)
{
	struct pt_profile q[PT_GOTRACE_NTYPES];
	uint32_t *fmap[PT_GOTRACE_NTYPES] = {NULL};
	struct pt_load_opts lo;
	struct pt_buf path = PT_BUF_INIT;
	uint32_t f;
	int k, ret = 0;

	memset(&lo, 0, sizeof(lo));
	lo.from = "pprof";
	for (k = 0; k < PT_GOTRACE_NTYPES; k++)
		pt_profile_init(&q[k]);
	for (k = 0; k < PT_GOTRACE_NTYPES && !ret; k++) {
		struct pt_diag qd;
		pt_buf_reset(&path);
		pt_buf_addf(&path, "%s/%s.pb", dir, types[k]);
		pt_diag_init(&qd, path.buf);
		if (pt_load(path.buf, &lo, &q[k], &qd) < 0) {
			ret = pt_diag_error(d, "go tool trace -pprof=%s gave no profile: %s",
					    types[k], qd.msg);
			break;
		}
		fmap[k] = pt_xcalloc((size_t)q[k].nframes + 1, sizeof(uint32_t));
		for (f = 1; f < q[k].nframes; f++)
			fmap[k][f] = copy_frame(p, &q[k], f);
	}
	if (!ret)
		pt_sink_frames_complete(o->sink, p);
	for (k = 0; k < PT_GOTRACE_NTYPES && !ret; k++)
		ret = copy_type(p, &q[k], k, fmap[k], o, d);
	for (k = 0; k < PT_GOTRACE_NTYPES; k++) {
		free(fmap[k]);
		pt_profile_release(&q[k]);
	}
	pt_buf_release(&path);
	return ret;
}

int pt_gotrace_via_go(const unsigned char *data, size_t len, int ver, struct pt_profile *p,
		      const struct pt_read_opts *o, struct pt_diag *d)
{
	const char *tmp = getenv("TMPDIR");
	struct pt_buf trace = PT_BUF_INIT, out = PT_BUF_INIT, err = PT_BUF_INIT;
	char dir[64];
	int k, ret = 0;

	if (!have_go())
		return 1;
	snprintf(dir, sizeof(dir), "%s/proftool-gotrace.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return pt_diag_error(d, "cannot make a temporary folder: %s", strerror(errno));
	pt_buf_addf(&trace, "%s/trace", dir);
	pt_buf_addf(&err, "%s/stderr", dir);
	if (write_file(trace.buf, data, len) < 0)
		ret = pt_diag_error(d, "cannot write %s: %s", trace.buf, strerror(errno));
	for (k = 0; k < PT_GOTRACE_NTYPES && !ret; k++) {
		pt_buf_reset(&out);
		pt_buf_addf(&out, "%s/%s.pb", dir, types[k]);
		ret = run_go(types[k], trace.buf, out.buf, err.buf, d);
	}
	if (!ret)
		ret = read_back(dir, p, o, d);
	if (!ret)
		pt_diag_warn_at(d, 0, "Go %d.%d trace read through go tool trace -pprof",
				ver / 1000, ver % 1000);
	for (k = 0; k < PT_GOTRACE_NTYPES; k++) {
		pt_buf_reset(&out);
		pt_buf_addf(&out, "%s/%s.pb", dir, types[k]);
		unlink(out.buf);
	}
	unlink(trace.buf);
	unlink(err.buf);
	rmdir(dir);
	pt_buf_release(&trace);
	pt_buf_release(&out);
	pt_buf_release(&err);
	return ret;
}
