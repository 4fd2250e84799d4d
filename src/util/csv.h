/* csv.h: libcsv's quoting, opened on first use (util/dynlib.h): only a run that
 * writes CSV maps the library. */
#ifndef PT_CSV_H
#define PT_CSV_H

#include <csv.h>

#include "util/dynlib.h"

/* the calls, as X(member, function): a field quoted into a FILE (csv_fwrite) or into a
 * buffer (csv_write), embedded double quotes doubled */
#define PT_CSV_CALLS(X)                                                                            \
	X(fwrite_field, csv_fwrite)                                                                \
	X(write_field, csv_write)
struct pt_csv {
	PT_CSV_CALLS(PT_DYNLIB_MEMBER)
};
/* The table, libcsv opened the first time. When it cannot be opened the run ends with
 * "cannot load SONAME (install the Debian package libcsv3)" (pt_die), so a writer
 * calls this before its first byte of output. */
const struct pt_csv *pt_csv(void);

#endif
