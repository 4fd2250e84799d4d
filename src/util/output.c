/* output.c: stdout or an atomically replaced file, removed again if a signal ends the
 * run before it is complete. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/output.h"
#include "util/xalloc.h"

/*
 * The temporary file being written, for on_signal: the one piece of process state in
 * this file, because a signal handler sees nothing else. It is set and cleared with the
 * caught signals blocked, so the handler finds either no file or a whole path.
 */
static char *volatile pending_tmp;
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))
static struct sigaction saved[NCAUGHT];

/* remove the temporary file, then die of the signal as if it had not been caught */
static void on_signal(int sig)
{
	char *tmp = pending_tmp;

	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig); /* blocked until the handler returns, then the default action */
}

static void block_caught(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* from now on SIGINT, SIGTERM and SIGHUP remove tmp (a signal the caller ignores, as
 * nohup ignores SIGHUP, stays ignored) */
static void guard(char *tmp)
{
	struct sigaction sa;
	sigset_t old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	block_caught(&old);
	pending_tmp = tmp;
	for (i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* with the caught signals blocked: forget the file, give the handlers back */
static void unguard_blocked(void)
{
	size_t i;

	pending_tmp = NULL;
	for (i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &saved[i], NULL);
}

/* The file a write to path lands on: symbolic links followed, as open(2) follows them
 * (`sort -o LINK` writes the file LINK names, even one that does not exist yet), so the
 * rename replaces that file and leaves the link. NULL with errno set on a loop. */
static char *resolve(const char *path)
{
	char *cur = pt_xstrdup(path);
	int hops;

	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		struct pt_buf next = PT_BUF_INIT;
		char link[PATH_MAX];
		const char *slash;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return cur;
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] != '/' && slash)
			pt_buf_add(&next, cur, (size_t)(slash - cur) + 1);
		pt_buf_addstr(&next, link);
		free(cur);
		cur = pt_buf_detach(&next, NULL);
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int pt_output_open(struct pt_output *o, const char *path, struct pt_diag *d)
{
	struct pt_buf tmp = PT_BUF_INIT;
	struct stat st;
	char *target;
	int fd, exists;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		return 0;
	}
	d->path = path;
	o->name = path;
	target = resolve(path);
	if (!target)
		return pt_diag_error(d, "cannot open: %s", strerror(errno));
	exists = !stat(target, &st);
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device or a pipe (/dev/null, a FIFO) is written in place: renaming a
		 * temporary file over it would replace the device with a regular file */
		if (S_ISDIR(st.st_mode)) {
			free(target);
			return pt_diag_error(d, "cannot write: Is a directory");
		}
		o->fp = fopen(target, "w");
		if (!o->fp) {
			free(target);
			return pt_diag_error(d, "cannot open: %s", strerror(errno));
		}
		o->path = target;
		return 0;
	}
	pt_buf_addf(&tmp, "%s.tmpXXXXXX", target);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		pt_buf_release(&tmp);
		free(target);
		return pt_diag_error(d, "cannot create: %s", strerror(errno));
	}
	guard(tmp.buf);
	/* mkstemp makes 0600: a file replaced keeps its permission bits (and its group
	 * where we may set it), a new one gets the usual 0666 less the umask */
	if (exists) {
		fchmod(fd, st.st_mode & 07777);
		if (fchown(fd, (uid_t)-1, st.st_gid)) {
			/* not a member of the file's group: the file gets ours */
		}
	} else {
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = errno;
		close(fd);
		o->tmp = pt_buf_detach(&tmp, NULL);
		o->path = target;
		pt_output_abort(o);
		return pt_diag_error(d, "cannot open: %s", strerror(e));
	}
	o->path = target;
	o->tmp = pt_buf_detach(&tmp, NULL);
	return 0;
}

void pt_output_abort(struct pt_output *o)
{
	if (o->tmp) {
		sigset_t old;
		if (o->fp)
			fclose(o->fp);
		block_caught(&old);
		unlink(o->tmp);
		unguard_blocked();
		sigprocmask(SIG_SETMASK, &old, NULL);
	} else if (o->path) {
		fclose(o->fp); /* a device written in place */
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int pt_output_commit(struct pt_output *o, struct pt_diag *d)
{
	sigset_t old;
	int err, e;

	if (!o->tmp && o->path) {
		/* a device written in place */
		d->path = o->name;
		err = fflush(o->fp) || ferror(o->fp);
		if (fclose(o->fp) || err) {
			e = errno ? errno : EIO;
			free(o->path);
			memset(o, 0, sizeof(*o));
			return pt_diag_error(d, "write error: %s", strerror(e));
		}
		free(o->path);
		memset(o, 0, sizeof(*o));
		return 0;
	}
	if (!o->tmp) {
		/* stdout: main() checks and closes it */
		if (fflush(stdout) || ferror(stdout))
			return pt_diag_error(d, "write error on standard output: %s",
					     strerror(errno ? errno : EIO));
		return 0;
	}
	d->path = o->name;
	/* the data reach the disk before the name does: a crash after the rename must not
	 * leave an empty or partial file where the old one was */
	errno = 0;
	err = fflush(o->fp) || ferror(o->fp) || fsync(fileno(o->fp));
	e = errno ? errno : EIO;
	if (fclose(o->fp) && !err) {
		err = 1;
		e = errno ? errno : EIO;
	}
	o->fp = NULL;
	if (err) {
		pt_output_abort(o);
		return pt_diag_error(d, "write error: %s", strerror(e));
	}
	block_caught(&old);
	err = rename(o->tmp, o->path);
	e = errno;
	if (err)
		unlink(o->tmp);
	unguard_blocked();
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	if (err)
		return pt_diag_error(d, "cannot rename into place: %s", strerror(e));
	return 0;
}
