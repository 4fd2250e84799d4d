/* write-opts.h: the command-line options of the writers (dot's graph limits, the flame
 * graph's looks), shared by `convert` and `flamegraph`. */
#ifndef PT_WRITE_OPTS_H
#define PT_WRITE_OPTS_H

#include "cli/cli.h"
#include "formats/format.h"

extern const struct pt_opt pt_dot_options[];  /* --nodecount, --node-fraction, ... */
extern const struct pt_opt pt_svg_options[];  /* --title, --width, --colors, ... */
extern const struct pt_opt pt_html_options[]; /* --min-fraction */

/* 1 if id was a writer option (stored in o), 0 if not, -1 on a bad value (printed) */
int pt_write_option(struct pt_write_opts *o, const struct pt_cmd_spec *spec, int id,
		    const char *arg);

#endif
