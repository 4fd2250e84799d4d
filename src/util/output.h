/* output.h: where a command writes. "-" or NULL is stdout; a path is written through a
 * temporary file beside it and renamed into place only on success, so a failed run
 * never leaves a half-written file. A path that exists and is not a regular file
 * (/dev/null, /dev/full, a FIFO) is written in place instead. */
#ifndef PT_OUTPUT_H
#define PT_OUTPUT_H

#include <stdio.h>

#include "util/diag.h"

struct pt_output {
	FILE *fp;
	const char *name; /* the path as the caller gave it (not owned), for messages */
	char *path;	  /* final path, NULL for stdout */
	char *tmp;	  /* temporary path while open */
};

/* path must outlive the output (messages name it) */
int pt_output_open(struct pt_output *o, const char *path, struct pt_diag *d);
/* flush, check for write errors, close and rename; -1 with d filled on failure (the
 * temporary file is removed) */
int pt_output_commit(struct pt_output *o, struct pt_diag *d);
/* discard: remove the temporary file */
void pt_output_abort(struct pt_output *o);

#endif
