/* load.h: the unit tests read profiles as the command line does (pt_load: detection and
 * the format table), from a file or from bytes put into a temporary one. */
#ifndef PT_UNIT_LOAD_H
#define PT_UNIT_LOAD_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/load.h"

/* Read the file at path into p, which is initialized here (the caller releases it),
 * with the read options ro (NULL: all off). d is initialized for path, which must
 * outlive d's use. Returns pt_load's result. */
static inline int unit_load_file(const char *path, const struct pt_read_opts *ro,
				 struct pt_profile *p, struct pt_diag *d)
{
	struct pt_load_opts o;

	memset(&o, 0, sizeof(o));
	if (ro)
		o.read = *ro;
	pt_profile_init(p);
	pt_diag_init(d, path);
	return pt_load(path, &o, p, d);
}

/* The same for n bytes of data, written to a temporary file that is removed afterwards
 * (d's path is then NULL). Aborts when the file cannot be written. */
static inline int unit_load_bytes(const void *data, size_t n, const struct pt_read_opts *ro,
				  struct pt_profile *p, struct pt_diag *d)
{
	char path[] = "/tmp/pt-unit-XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd < 0 || write(fd, data, n) != (ssize_t)n)
		abort();
	close(fd);
	rc = unit_load_file(path, ro, p, d);
	unlink(path);
	d->path = NULL;
	return rc;
}

#endif
