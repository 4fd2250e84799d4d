/* output.c: stdout or an atomically replaced file. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/output.h"
#include "util/xalloc.h"

int pt_output_open(struct pt_output *o, const char *path, struct pt_diag *d)
{
	struct pt_buf tmp = PT_BUF_INIT;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		return 0;
	}
	d->path = path;
	o->name = path;
	{
		/* a device or a pipe (/dev/null, a FIFO) is written in place: renaming a
		 * temporary file over it would replace the device with a regular file */
		struct stat st;
		if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
			if (S_ISDIR(st.st_mode))
				return pt_diag_error(d, "cannot write: Is a directory");
			o->fp = fopen(path, "w");
			if (!o->fp)
				return pt_diag_error(d, "cannot open: %s", strerror(errno));
			o->path = pt_xstrdup(path);
			return 0;
		}
	}
	pt_buf_addf(&tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		pt_buf_release(&tmp);
		return pt_diag_error(d, "cannot create: %s", strerror(errno));
	}
	/* mkstemp makes 0600; give the file the usual permissions */
	{
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		close(fd);
		unlink(tmp.buf);
		pt_buf_release(&tmp);
		return pt_diag_error(d, "cannot open: %s", strerror(errno));
	}
	o->path = pt_xstrdup(path);
	o->tmp = pt_buf_detach(&tmp, NULL);
	return 0;
}

void pt_output_abort(struct pt_output *o)
{
	if (o->tmp) {
		fclose(o->fp);
		unlink(o->tmp);
	} else if (o->path) {
		fclose(o->fp); /* a device written in place */
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int pt_output_commit(struct pt_output *o, struct pt_diag *d)
{
	int err;

	if (!o->tmp && o->path) {
		/* a device written in place */
		d->path = o->name;
		err = fflush(o->fp) || ferror(o->fp);
		if (fclose(o->fp) || err) {
			int e = errno ? errno : EIO;
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
	err = fflush(o->fp) || ferror(o->fp);
	if (err || fclose(o->fp)) {
		int e = errno ? errno : EIO;
		if (err)
			fclose(o->fp);
		unlink(o->tmp);
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return pt_diag_error(d, "write error: %s", strerror(e));
	}
	if (rename(o->tmp, o->path)) {
		int e = errno;
		unlink(o->tmp);
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return pt_diag_error(d, "cannot rename into place: %s", strerror(e));
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return 0;
}
