/* cmd-record.c: `proftool record -- COMMAND`: run a program under the profiler that fits
 * it (stackprof for Ruby, node --cpu-prof, go test -cpuprofile, perf record for the
 * rest), then read what it wrote like any other input and print top or write -o. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "formats/format.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/xalloc.h"

enum { OPT_PROFILER = PT_OPT_CMD_BASE, OPT_MODE, OPT_RATE, OPT_DURATION, OPT_ATTACH };

enum profiler { PROF_AUTO, PROF_RUBY, PROF_NODE, PROF_GO, PROF_PERF };
static const char *const profiler_names[] = {"auto", "ruby", "node", "go", "perf"};
/* the Debian package that brings each profiler */
static const char *const profiler_package[] = {"", "ruby-stackprof", "nodejs", "golang-go",
					       "linux-perf"};

enum mode { MODE_CPU, MODE_WALL, MODE_OBJECT, MODE_TRACE };
static const char *const mode_names[] = {"cpu", "wall", "object", "trace"};

struct record_args {
	enum profiler profiler;
	enum mode mode;
	long rate;	/* samples per second; 0: the profiler's default */
	long duration;	/* seconds of profiling; 0: the whole run */
	long pid;	/* --pid: attach to it */
	const char *to; /* -o */
};

static int record_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt record_options[] = {
	PT_OPT_OUTPUT_ROW("write the profile to FILE, in the format its suffix names "
			  "(.pb.gz, .html, .svg, .collapsed, ...); without it, print top"),
	{"profiler", 0, required_argument, OPT_PROFILER, "ruby|node|go|perf",
	 "the profiler to use (default: chosen from COMMAND)"},
	{"mode", 0, required_argument, OPT_MODE, "cpu|wall|object|trace",
	 "what to sample (stackprof's modes; node, go and perf sample cpu only), or trace: "
	 "a Go test's execution trace (go test -trace; -o FILE.trace keeps it)"},
	{"rate", 0, required_argument, OPT_RATE, "HZ", "samples per second"},
	{"duration", 0, required_argument, OPT_DURATION, "S",
	 "stop profiling after S seconds and let the program go on (ruby, perf)"},
	{"pid", 'p', required_argument, OPT_ATTACH, "PID",
	 "profile the running process PID with perf record -p instead of a COMMAND"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {record_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"record", "record [OPTIONS] [--] COMMAND [ARGS...] | record --pid PID [OPTIONS]",
	"Run COMMAND under the profiler that fits it and read what it recorded: Ruby\n"
	"(ruby, bundle, rspec, rails, rake, ... or a #! line naming ruby) under stackprof,\n"
	"node with --cpu-prof, go test or a Go test binary with -cpuprofile (-trace\n"
	"under --mode trace), anything else under perf record -g. COMMAND's input and\n"
	"output pass through; its exit status is proftool's unless profiling failed.",
	tables, record_option};

static int pick(const char *const *names, size_t n, const char *arg)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], arg))
			return (int)i;
	return -1;
}

static int record_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct record_args *a = ctx;
	int k;

	switch (id) {
	case PT_OPT_OUTPUT:
		a->to = arg;
		return 1;
	case OPT_PROFILER:
		k = pick(profiler_names + 1, 4, arg);
		if (k < 0) {
			pt_usage_error(sp, "unknown profiler '%s' (ruby, node, go or perf)", arg);
			return -1;
		}
		a->profiler = (enum profiler)(k + 1);
		return 1;
	case OPT_MODE:
		k = pick(mode_names, 4, arg);
		if (k < 0) {
			pt_usage_error(sp, "unknown mode '%s' (cpu, wall, object or trace)", arg);
			return -1;
		}
		a->mode = (enum mode)k;
		return 1;
	case OPT_RATE:
	case OPT_DURATION:
	case OPT_ATTACH: {
		long v;
		if (pt_parse_count(arg, &v) < 0 || v < 1 || (id == OPT_RATE && v > 1000000)) {
			pt_usage_error(sp, "bad number '%s' for --%s", arg,
				       id == OPT_RATE	    ? "rate"
				       : id == OPT_DURATION ? "duration"
							    : "pid");
			return -1;
		}
		if (id == OPT_RATE)
			a->rate = v;
		else if (id == OPT_DURATION)
			a->duration = v;
		else
			a->pid = v;
		return 1;
	}
	}
	return 0;
}

static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');
	return slash ? slash + 1 : s;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* a program found along PATH (or named with a slash), as execvp would run it */
static int find_program(const char *name, struct pt_buf *path)
{
	const char *dirs = getenv("PATH"), *p, *colon;

	pt_buf_reset(path);
	if (strchr(name, '/')) {
		pt_buf_addstr(path, name);
		return access(name, X_OK) == 0;
	}
	for (p = dirs ? dirs : "/usr/bin:/bin"; p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		pt_buf_reset(path);
		pt_buf_add(path, p, colon ? (size_t)(colon - p) : strlen(p));
		if (!path->len)
			pt_buf_addch(path, '.');
		pt_buf_addf(path, "/%s", name);
		if (access(path->buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/* does the script at path start with a #! line naming ruby? */
static int ruby_script(const char *path)
{
	char head[256];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return 0;
	head[n] = '\0';
	*strchrnul(head, '\n') = '\0';
	return strstr(head, "ruby") != NULL;
}

static enum profiler choose(char **cmd)
{
	static const char *const ruby_tools[] = {"ruby", "bundle", "bundler", "rspec", "rails",
						 "rake", "irb",	   "rackup",  "puma",  "sidekiq"};
	const char *b = base_name(cmd[0]);
	struct pt_buf path = PT_BUF_INIT;
	enum profiler p = PROF_PERF;
	size_t i;

	for (i = 0; i < sizeof(ruby_tools) / sizeof(ruby_tools[0]); i++)
		if (!strcmp(b, ruby_tools[i]) || !strncmp(b, "ruby", 4))
			p = PROF_RUBY;
	if (!strcmp(b, "node") || !strcmp(b, "nodejs"))
		p = PROF_NODE;
	else if ((!strcmp(b, "go") && cmd[1] && !strcmp(cmd[1], "test")) || ends_with(b, ".test"))
		p = PROF_GO;
	else if (p == PROF_PERF && find_program(cmd[0], &path) && ruby_script(path.buf))
		p = PROF_RUBY;
	pt_buf_release(&path);
	return p;
}

/* The Ruby side: loaded through RUBYOPT, it starts stackprof with the settings our
 * environment variables give and writes the dump when the program ends (or when the
 * duration is over). It removes those variables, so Ruby programs that this one starts
 * are not profiled into the same file. */
static const char ruby_prelude[] =
	"# proftool record: stackprof for this Ruby process (see 'man proftool')\n"
	"out = ENV.delete('PROFTOOL_STACKPROF_OUT')\n"
	"if out\n"
	"  require 'stackprof'\n"
	"  mode = ENV.delete('PROFTOOL_STACKPROF_MODE').to_sym\n"
	"  interval = ENV.delete('PROFTOOL_STACKPROF_INTERVAL').to_i\n"
	"  duration = ENV.delete('PROFTOOL_STACKPROF_DURATION').to_f\n"
	"  opts = ENV.delete('PROFTOOL_STACKPROF_RUBYOPT')\n"
	"  if opts then ENV['RUBYOPT'] = opts else ENV.delete('RUBYOPT') end\n"
	"  done = false\n"
	"  save = lambda do\n"
	"    next if done\n"
	"    done = true\n"
	"    StackProf.stop\n"
	"    r = StackProf.results\n"
	"    File.binwrite(out, Marshal.dump(r)) if r\n"
	"  end\n"
	"  args = { mode: mode, raw: true }\n"
	"  args[:interval] = interval if interval > 0\n"
	"  StackProf.start(**args)\n"
	"  at_exit { save.call }\n"
	"  Thread.new { sleep duration; save.call } if duration > 0\n"
	"end\n";

struct job {
	const struct record_args *a;
	enum profiler prof;
	char dir[64];		/* the private temporary folder */
	struct pt_buf result;	/* the profile it leaves, or the folder of node's */
	struct pt_buf perfdata; /* perf's own file, read back through perf script */
	struct pt_buf perferr;	/* perf's standard error when it has no workload, or "" */
	char **argv;		/* what runs */
	size_t argc, alloc;
	struct pt_buf env[6]; /* "NAME=value" for the child */
	size_t nenv;
	char **spawn;	/* perf --duration: the command, started first */
	size_t pid_arg; /* argv[pid_arg] is perf's -p value */
};

static void push(struct job *j, const char *s)
{
	PT_ALLOC_GROW(j->argv, j->argc + 2, j->alloc);
	j->argv[j->argc++] = pt_xstrdup(s);
	j->argv[j->argc] = NULL;
}

static void setenv_child(struct job *j, const char *name, const char *value)
{
	pt_buf_init(&j->env[j->nenv]);
	pt_buf_addf(&j->env[j->nenv], "%s=%s", name, value);
	j->nenv++;
}

/* go test (-cpuprofile, or -trace under --mode trace) or a Go test binary (-test.*) */
static int plan_go(struct job *j, char **cmd)
{
	const struct record_args *a = j->a;
	const char *flag = a->mode == MODE_TRACE ? "trace" : "cpuprofile";
	struct pt_buf b = PT_BUF_INIT;
	size_t i = 1;

	if (a->rate) {
		fprintf(stderr, "proftool: record: --rate: go test profiles at Go's own rate\n");
		return -1;
	}
	if (a->mode != MODE_CPU && a->mode != MODE_TRACE) {
		fprintf(stderr,
			"proftool: record: --mode %s needs the ruby profiler (go samples cpu, or "
			"traces with --mode trace)\n",
			mode_names[a->mode]);
		return -1;
	}
	pt_buf_addf(&j->result, "%s/%s", j->dir, a->mode == MODE_TRACE ? "trace.out" : "cpu.pb");
	push(j, cmd[0]);
	if (!strcmp(base_name(cmd[0]), "go")) {
		push(j, cmd[1]); /* test */
		pt_buf_addf(&b, "-%s=%s", flag, j->result.buf);
		i = 2;
	} else {
		pt_buf_addf(&b, "-test.%s=%s", flag, j->result.buf);
	}
	push(j, b.buf);
	for (; cmd[i]; i++)
		push(j, cmd[i]);
	pt_buf_release(&b);
	return 0;
}

/* what to run, for each profiler; -1 with a message printed when it cannot */
static int plan(struct job *j, char **cmd)
{
	const struct record_args *a = j->a;
	struct pt_buf b = PT_BUF_INIT;
	size_t i;
	int ret = 0;

	if (a->mode == MODE_TRACE && j->prof != PROF_GO) {
		fprintf(stderr, "proftool: record: --mode trace needs the go profiler (go test "
				"or a Go test binary; a running program's trace is a URL, "
				"http://HOST/debug/pprof/trace)\n");
		return -1;
	}
	if (j->prof != PROF_RUBY && j->prof != PROF_GO && a->mode != MODE_CPU) {
		fprintf(stderr,
			"proftool: record: --mode %s needs the ruby profiler (%s samples cpu "
			"only)\n",
			mode_names[a->mode], profiler_names[j->prof]);
		return -1;
	}
	if (a->duration && j->prof == PROF_PERF && !a->pid) {
		/* the command runs on; perf attaches to it for the duration */
		j->spawn = cmd;
	} else if (a->duration && (j->prof == PROF_NODE || j->prof == PROF_GO)) {
		fprintf(stderr, "proftool: record: --duration needs the ruby or perf profiler\n");
		return -1;
	}
	switch (j->prof) {
	case PROF_RUBY: {
		const char *old = getenv("RUBYOPT");
		FILE *fp;
		pt_buf_addf(&b, "%s/prelude.rb", j->dir);
		fp = fopen(b.buf, "w");
		if (!fp || fputs(ruby_prelude, fp) < 0 || fclose(fp)) {
			fprintf(stderr, "proftool: record: cannot write %s: %s\n", b.buf,
				strerror(errno));
			ret = -1;
			break;
		}
		pt_buf_addf(&j->result, "%s/stackprof.dump", j->dir);
		setenv_child(j, "PROFTOOL_STACKPROF_OUT", j->result.buf);
		setenv_child(j, "PROFTOOL_STACKPROF_MODE", mode_names[a->mode]);
		pt_buf_reset(&b);
		/* stackprof's interval: microseconds, or every Nth allocation */
		pt_buf_addf(&b, "%ld",
			    !a->rate		     ? 0
			    : a->mode == MODE_OBJECT ? a->rate
						     : 1000000 / a->rate);
		setenv_child(j, "PROFTOOL_STACKPROF_INTERVAL", b.buf);
		pt_buf_reset(&b);
		pt_buf_addf(&b, "%ld", a->duration);
		setenv_child(j, "PROFTOOL_STACKPROF_DURATION", b.buf);
		if (old)
			setenv_child(j, "PROFTOOL_STACKPROF_RUBYOPT", old);
		pt_buf_reset(&b);
		pt_buf_addf(&b, "-r%s/prelude.rb%s%s", j->dir, old ? " " : "", old ? old : "");
		setenv_child(j, "RUBYOPT", b.buf);
		for (i = 0; cmd[i]; i++)
			push(j, cmd[i]);
		break;
	}
	case PROF_NODE:
		pt_buf_addf(&j->result, "%s/node", j->dir);
		push(j, cmd[0]);
		push(j, "--cpu-prof");
		pt_buf_addf(&b, "--cpu-prof-dir=%s", j->result.buf);
		push(j, b.buf);
		if (a->rate) {
			pt_buf_reset(&b);
			pt_buf_addf(&b, "--cpu-prof-interval=%ld", 1000000 / a->rate);
			push(j, b.buf);
		}
		for (i = 1; cmd[i]; i++)
			push(j, cmd[i]);
		break;
	case PROF_GO:
		ret = plan_go(j, cmd);
		break;
	default:
		pt_buf_addf(&j->perfdata, "%s/perf.data", j->dir);
		pt_buf_addf(&j->result, "%s/perf.txt", j->dir);
		push(j, "perf");
		push(j, "record");
		/* -q silences perf's errors too: with no workload of ours on its standard
		 * error, perf speaks into a file we show if it fails */
		if (a->pid || j->spawn)
			pt_buf_addf(&j->perferr, "%s/perf.err", j->dir);
		else
			push(j, "-q");
		push(j, "-g");
		push(j, "-o");
		push(j, j->perfdata.buf);
		if (a->rate) {
			pt_buf_addf(&b, "%ld", a->rate);
			push(j, "-F");
			push(j, b.buf);
		}
		if (a->pid || j->spawn) {
			pt_buf_reset(&b);
			/* the spawned command's pid is filled in when it runs */
			pt_buf_addf(&b, "%ld", a->pid);
			push(j, "-p");
			j->pid_arg = j->argc;
			push(j, b.buf);
		}
		if ((a->pid || j->spawn) && a->duration) {
			pt_buf_reset(&b);
			pt_buf_addf(&b, "%ld", a->duration);
			push(j, "--");
			push(j, "sleep");
			push(j, b.buf);
		} else if (!a->pid && !j->spawn) {
			push(j, "--");
			for (i = 0; cmd[i]; i++)
				push(j, cmd[i]);
		}
		break;
	}
	pt_buf_release(&b);
	return ret;
}

/* the child being waited for, for the signal forwarder; the SIGINTs proftool got */
static volatile sig_atomic_t child_pid, interrupted;

/* SIGINT and SIGQUIT typed at the terminal reach the child by themselves (one process
 * group; the kernel sends them, si_code SI_KERNEL), so only those sent by a process
 * (kill, timeout) are passed on: the child never sees one keystroke twice. SIGTERM and
 * SIGHUP are always passed on. A second SIGINT stops a child that outlived the first
 * (SIGKILL); record then ends with status 130, as a shell's interrupted command. */
static void forward(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (sig == SIGINT && ++interrupted > 1 && child_pid > 0) {
		kill((pid_t)child_pid, SIGKILL);
		return;
	}
	if ((sig == SIGINT || sig == SIGQUIT) && info && info->si_code == SI_KERNEL)
		return;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/* Run argv with the extra environment; its wait status, or -1 if it could not start
 * (printed). Signals meant for the command reach it as forward() says. errpath (or
 * NULL): the child's standard error goes there. */
static int run(char **argv, struct pt_buf *env, size_t nenv, int quiet_stdout, const char *errpath)
{
	struct sigaction fwd, old_int, old_quit, old_term, old_hup;
	int status = -1, fds[2];
	pid_t pid;
	size_t i;

	/* the child says through a close-on-exec pipe whether exec failed */
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(stderr, "proftool: record: cannot start %s: %s\n", argv[0],
			strerror(errno));
		return -1;
	}
	memset(&fwd, 0, sizeof(fwd));
	fwd.sa_sigaction = forward;
	fwd.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &fwd, &old_int);
	sigaction(SIGQUIT, &fwd, &old_quit);
	sigaction(SIGTERM, &fwd, &old_term);
	sigaction(SIGHUP, &fwd, &old_hup);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int e;
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		close(fds[0]);
		for (i = 0; i < nenv; i++)
			putenv(env[i].buf);
		if (errpath) {
			int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd >= 0 && fd != 2) {
				dup2(fd, 2);
				close(fd);
			}
		}
		if (quiet_stdout)
			dup2(2, 1);
		execvp(argv[0], argv);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		fprintf(stderr, "proftool: record: cannot start %s: %s\n", argv[0],
			strerror(errno));
	} else {
		int e = 0;
		child_pid = pid;
		if (read(fds[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
			fprintf(stderr, "proftool: record: cannot run %s: %s\n", argv[0],
				strerror(e));
			waitpid(pid, NULL, 0);
		} else {
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
		}
		child_pid = 0;
	}
	close(fds[0]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return status;
}

/* the shell's way of turning a wait status into an exit status */
static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/* Did perf record write no events? Its file's header (perf_file_header: magic, size,
 * attr_size, the attrs section, then the data section's offset and size) says a data
 * size of 0 when perf failed before the workload ran or could not attach. Then perf's
 * own words are shown (from perf.err, or perf's standard error directly), not a
 * failure of perf script later. */
static int perf_recorded_nothing(const struct job *j, int status)
{
	unsigned char h[56];
	uint64_t size = 0;
	FILE *fp = fopen(j->perfdata.buf, "rb");
	int i;

	if (fp) {
		if (fread(h, 1, sizeof(h), fp) == sizeof(h) && !memcmp(h, "PERFILE2", 8))
			for (i = 7; i >= 0; i--)
				size = size << 8 | h[48 + i];
		fclose(fp);
	}
	if (size)
		return 0;
	fp = j->perferr.len ? fopen(j->perferr.buf, "r") : NULL;
	if (fp) {
		char line[1024];
		while (fgets(line, sizeof(line), fp))
			if (strncmp(line, "[ perf record:", 14))
				fputs(line, stderr);
		fclose(fp);
	}
	fprintf(stderr, "proftool: record: perf record recorded nothing (exit status %d)\n",
		exit_status(status));
	return 1;
}

/* perf.data -> perf script text, which the perf reader reads */
static int perf_script(struct job *j)
{
	char perf[] = "perf", script[] = "script", in[] = "-i";
	char *argv[] = {perf, script, in, j->perfdata.buf, NULL};
	int fd = open(j->result.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), saved, st;

	if (fd < 0) {
		fprintf(stderr, "proftool: record: cannot write %s: %s\n", j->result.buf,
			strerror(errno));
		return -1;
	}
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	st = run(argv, NULL, 0, 0, NULL);
	dup2(saved, 1);
	close(saved);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "proftool: record: perf script failed on %s\n", j->perfdata.buf);
		return -1;
	}
	return 0;
}

/* the profiles the run left: one file, or every .cpuprofile node wrote (one per
 * process) */
static int results(struct job *j, char ***paths, size_t *n)
{
	size_t alloc = 0;
	struct stat st;

	*paths = NULL;
	*n = 0;
	if (j->prof == PROF_NODE) {
		DIR *d = opendir(j->result.buf);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			struct pt_buf b = PT_BUF_INIT;
			if (!ends_with(e->d_name, ".cpuprofile"))
				continue;
			pt_buf_addf(&b, "%s/%s", j->result.buf, e->d_name);
			PT_ALLOC_GROW(*paths, *n + 1, alloc);
			(*paths)[(*n)++] = pt_buf_detach(&b, NULL);
		}
		if (d)
			closedir(d);
	} else if (stat(j->result.buf, &st) == 0 && st.st_size > 0) {
		PT_ALLOC_GROW(*paths, 1, alloc);
		(*paths)[(*n)++] = pt_xstrdup(j->result.buf);
	}
	if (!*n) {
		fprintf(stderr, "proftool: record: %s wrote no profile (did the program run?)\n",
			profiler_names[j->prof]);
		return -1;
	}
	return 0;
}

static int emit_top(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	return pt_report_top(&r->p, &r->agg, o, out, d);
}

/* Is -o the producer's own format? Then its file is kept as it wrote it: a Go trace
 * (-o FILE.trace under --mode trace), go test's CPU profile (.pb.gz, .pb, .pprof),
 * stackprof's dump (.dump), node's profile (.cpuprofile, when one process wrote one) */
static int keeps_own(const struct record_args *a, enum profiler prof, size_t nprofiles)
{
	const char *to = a->to;

	if (!to)
		return 0;
	if (a->mode == MODE_TRACE)
		return ends_with(to, ".trace");
	switch (prof) {
	case PROF_GO:
		return ends_with(to, ".pb.gz") || ends_with(to, ".pb") || ends_with(to, ".pprof");
	case PROF_RUBY:
		return ends_with(to, ".dump");
	case PROF_NODE:
		return ends_with(to, ".cpuprofile") && nprofiles == 1;
	default:
		return 0;
	}
}

/* the recorded file (ctx) copied to out */
static int copy_file(void *ctx, FILE *out, struct pt_diag *d)
{
	FILE *in = fopen(ctx, "rb");
	char buf[65536];
	size_t n;
	int ret = 0;

	if (!in)
		return pt_diag_error(d, "cannot open: %s", strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			ret = pt_diag_error(d, "cannot write: %s", strerror(errno));
			break;
		}
	if (!ret && ferror(in))
		ret = pt_diag_error(d, "cannot read: %s", strerror(errno));
	fclose(in);
	return ret;
}

/* read what was recorded and print top, or write -o */
static int report(const struct record_args *a, enum profiler prof, char **paths, size_t n)
{
	struct pt_common common;
	struct pt_run r;
	const struct pt_format *f = NULL;
	int ret;

	pt_common_init(&common);
	if (keeps_own(a, prof, n)) {
		/* read first: a trace proftool cannot read is an error here too */
		pt_run_init(&r, &common, paths[0]);
		pt_run_inputs(&r, (const char *const *)paths, n);
		ret = pt_run_load(&r);
		pt_run_release(&r);
		return ret ? ret : pt_cli_emit(a->to, paths[0], copy_file, paths[0]);
	}
	if (a->to) {
		f = pt_format_for_path(a->to);
		common.load.read.keep_timeline = f->wants_timeline;
	}
	pt_run_init(&r, &common, paths[0]);
	pt_run_inputs(&r, (const char *const *)paths, n);
	if (f) {
		struct pt_write_opts wo;
		pt_write_opts_init(&wo);
		if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r))) {
			wo.type = (int)r.type;
			ret = pt_run_write(&r, a->to, NULL, f, &wo);
		}
	} else {
		struct pt_top_opts o;
		memset(&o, 0, sizeof(o));
		o.limit = 30;
		o.edge_fraction = 0.001;
		if (!(ret = pt_run_prepare(&r))) {
			o.type = r.type;
			o.filters = &r.log;
			ret = pt_run_emit(&r, NULL, emit_top, &o);
		}
	}
	pt_run_release(&r);
	return ret;
}

/* remove the private folder and what we or the profilers put there */
static void clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct pt_buf b = PT_BUF_INIT;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		pt_buf_reset(&b);
		pt_buf_addf(&b, "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR)
			clean(b.buf);
		else
			unlink(b.buf);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	pt_buf_release(&b);
}

static void job_release(struct job *j)
{
	size_t i;

	for (i = 0; i < j->argc; i++)
		free(j->argv[i]);
	free(j->argv);
	for (i = 0; i < j->nenv; i++)
		pt_buf_release(&j->env[i]);
	pt_buf_release(&j->result);
	pt_buf_release(&j->perfdata);
	pt_buf_release(&j->perferr);
	if (j->dir[0])
		clean(j->dir);
}

int cmd_record(int argc, char **argv)
{
	struct record_args a;
	struct job j;
	struct pt_buf prog = PT_BUF_INIT;
	char **cmd, **paths = NULL;
	const char *tmp = getenv("TMPDIR");
	size_t npaths = 0, i;
	int ret, status, child_ret;

	memset(&a, 0, sizeof(a));
	if ((ret = pt_cli_parse_in_order(&spec, argc, argv, NULL, NULL, &a)) >= 0)
		return ret;
	cmd = argv + optind;
	if (!a.pid && !*cmd)
		return pt_usage_error(&spec, "a COMMAND to run, or --pid PID, is needed");
	if (a.pid && *cmd)
		return pt_usage_error(&spec, "--pid attaches to a running process: no COMMAND");

	memset(&j, 0, sizeof(j));
	j.a = &a;
	j.prof = a.pid ? PROF_PERF : a.profiler ? a.profiler : choose(cmd);
	if (a.to && !pt_format_for_path(a.to) && !keeps_own(&a, j.prof, 1))
		return pt_usage_error(&spec, "no format for the suffix of '%s'", a.to);
	if (a.pid && a.profiler && a.profiler != PROF_PERF)
		return pt_usage_error(&spec, "--pid works with the perf profiler only");
	pt_buf_init(&j.result);
	pt_buf_init(&j.perfdata);
	pt_buf_init(&j.perferr);
	interrupted = 0;
	/* the profiler's own program: there, or the package that brings it */
	if (!find_program(j.prof == PROF_PERF	? "perf"
			  : j.prof == PROF_GO	? cmd[0]
			  : j.prof == PROF_NODE ? cmd[0]
						: "ruby",
			  &prog) ||
	    (j.prof == PROF_RUBY &&
	     system("ruby -e 'require \"stackprof\"' >/dev/null 2>&1") != 0)) {
		fprintf(stderr,
			"proftool: record: the %s profiler is missing: install the Debian package "
			"%s\n",
			profiler_names[j.prof], profiler_package[j.prof]);
		pt_buf_release(&prog);
		job_release(&j);
		return PT_EXIT_INPUT;
	}
	pt_buf_release(&prog);
	snprintf(j.dir, sizeof(j.dir), "%s/proftool-record.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(j.dir)) {
		fprintf(stderr, "proftool: record: cannot make a temporary folder: %s\n",
			strerror(errno));
		j.dir[0] = '\0';
		job_release(&j);
		return PT_EXIT_INPUT;
	}
	if (j.prof == PROF_PERF && !a.pid && !find_program(cmd[0], &prog)) {
		/* perf record -q would fail without a word */
		fprintf(stderr, "proftool: record: cannot run %s: %s\n", cmd[0], strerror(errno));
		pt_buf_release(&prog);
		job_release(&j);
		return PT_EXIT_INPUT;
	}
	pt_buf_release(&prog);
	if (plan(&j, cmd) < 0) {
		job_release(&j);
		return PT_EXIT_INPUT;
	}
	if (j.spawn) {
		pid_t pid;
		char num[32];
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			execvp(j.spawn[0], j.spawn);
			fprintf(stderr, "proftool: record: cannot run %s: %s\n", j.spawn[0],
				strerror(errno));
			_exit(127);
		}
		if (pid < 0) {
			fprintf(stderr, "proftool: record: cannot start %s: %s\n", j.spawn[0],
				strerror(errno));
			job_release(&j);
			return PT_EXIT_INPUT;
		}
		snprintf(num, sizeof(num), "%ld", (long)pid);
		free(j.argv[j.pid_arg]);
		j.argv[j.pid_arg] = pt_xstrdup(num);
		/* perf for the duration (quiet on stdout: the command owns it), then the
		 * command to its end */
		status = run(j.argv, NULL, 0, 1, j.perferr.buf);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		status = run(j.argv, j.env, j.nenv, 0, j.perferr.len ? j.perferr.buf : NULL);
	}
	if (status < 0) {
		job_release(&j);
		return PT_EXIT_INPUT;
	}
	child_ret = exit_status(status);
	if (j.prof == PROF_PERF && perf_recorded_nothing(&j, status))
		ret = PT_EXIT_INPUT;
	else if (j.prof == PROF_PERF && perf_script(&j) < 0)
		ret = PT_EXIT_INPUT;
	else if (results(&j, &paths, &npaths) < 0)
		ret = PT_EXIT_INPUT;
	else
		ret = report(&a, j.prof, paths, npaths);
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	job_release(&j);
	/* interrupted: what ran is read, and the status says SIGINT, as a shell's;
	 * else the command's status, unless profiling failed */
	if (interrupted)
		return 128 + SIGINT;
	return ret ? ret : child_ret;
}
