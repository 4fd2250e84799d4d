/* csv.c: libcsv opened once, on the first CSV field a run writes (csv.h). */
#include "config.h"

#include "util/csv.h"
#include "util/xalloc.h"

static const char *const csv_names[] = {PT_CSV_CALLS(PT_DYNLIB_NAME)};
/* the run's one table of libcsv's calls: written once, by pt_csv */
static struct pt_csv csv_table;
static int csv_loaded;

const struct pt_csv *pt_csv(void)
{
	void *fns[sizeof(csv_names) / sizeof(csv_names[0])];
	struct pt_csv *api = &csv_table;
	char err[256];
	size_t i = 0;

	if (csv_loaded)
		return &csv_table;
	if (!pt_dynlib_open(PT_CSV_SONAME, "libcsv3", csv_names, fns,
			    sizeof(csv_names) / sizeof(csv_names[0]), err, sizeof(err)))
		pt_die("%s", err);
	PT_CSV_CALLS(PT_DYNLIB_SET)
	csv_loaded = 1;
	return &csv_table;
}
