/* write-opts.h: the command-line options of the writers (dot's graph limits, the flame
 * graph's looks), one table per option group a format's row names (PT_WOPTS_*). */
#ifndef PT_WRITE_OPTS_H
#define PT_WRITE_OPTS_H

#include "cli/cli.h"
#include "formats/format.h"

extern const struct pt_opt pt_dot_options[];  /* --nodecount, --node-fraction, ... */
extern const struct pt_opt pt_svg_options[];  /* --title, --width, --colors, ... */
extern const struct pt_opt pt_html_options[]; /* --min-fraction, --source-path */
extern const struct pt_opt pt_gzip_options[]; /* --no-gzip */

/* the groups the registry's writers read, all together */
unsigned pt_write_groups(void);
/* The tables of the groups in want, in --help order (gzip, dot, svg, html, tags), into
 * tables; returns how many (at most 5). */
size_t pt_write_tables(unsigned want, const struct pt_opt **tables);

/* 1 if id was a writer option of any group (stored in o), 0 if not, -1 on a bad value
 * (printed) */
int pt_write_option(struct pt_write_opts *o, const struct pt_cmd_spec *spec, int id,
		    const char *arg);

#endif
