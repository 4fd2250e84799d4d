/* fuzz-read.c: libFuzzer harness for one reader (FUZZ_FORMAT) or for detection
 * (FUZZ_FORMAT ""): read the bytes, aggregate, and run every writer on the result, so
 * hostile names reach the writers too. A diagnostic must be one line. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "format.h"
#include "load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_load_opts o;
	struct pt_input in;
	struct pt_diag d;
	struct pt_profile p;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.from = FUZZ_FORMAT[0] ? FUZZ_FORMAT : NULL;
	o.max_size = (uint64_t)64 << 20;
	o.read.keep_timeline = 1;
	pt_diag_init(&d, "fuzz");
	pt_profile_init(&p);
	if (pt_input_open_mem(&in, "fuzz", data, size, o.max_size, &d) == 0 &&
	    pt_load_input(&in, &o, &p, &d) == 0) {
		struct pt_agg a;
		if (pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) == 0)
			pt_agg_release(&a);
		for (i = 0; pt_formats[i]; i++) {
			struct pt_write_opts wo;
			FILE *out;
			if (!pt_formats[i]->write)
				continue;
			out = fopen("/dev/null", "w");
			if (!out)
				abort();
			pt_write_opts_init(&wo);
			wo.type = (int)p.default_type;
			pt_formats[i]->write(&p, &wo, out, &d);
			fclose(out);
		}
	}
	if (strchr(d.msg, '\n'))
		abort(); /* an error message must stay on one line */
	pt_input_close(&in);
	pt_profile_release(&p);
	return 0;
}
