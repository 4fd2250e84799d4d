/* diag.h: errors as data. Core code, readers and writers never print: they fill a
 * struct pt_diag and return a negative code; only commands print it, once, as
 *     proftool: PATH:LINE: message        (text formats)
 *     proftool: PATH: byte OFFSET: message (binary formats)
 *     proftool: PATH: message             (no position)
 * Warnings (e.g. lines skipped under --lenient) are counted, not printed. */
#ifndef PT_DIAG_H
#define PT_DIAG_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

enum pt_diag_where { PT_DIAG_NOWHERE, PT_DIAG_LINE, PT_DIAG_OFFSET };

#define PT_DIAG_MAX_WARN 4

struct pt_diag {
	const char *path; /* display name of the input or output; not owned */
	enum pt_diag_where where;
	uint64_t pos; /* line (1-based) or byte offset */
	char msg[512];
	/* lenient-mode bookkeeping */
	uint64_t skipped; /* lines or records skipped */
	uint64_t first_skipped_line;
	/* a text input that ended inside a record: the line where the cut record starts,
	 * and the line cut short (0: none); the record is left out */
	uint64_t cut_record_line, cut_line;
	/* lenient JSON profiles: references to nodes the input lacks (a trace whose
	 * chunks were lost), and the byte offset of the first */
	uint64_t dangling, first_dangling_off;
	/* a reader's own warnings (pt_diag_warn, pt_diag_warn_at): the first
	 * PT_DIAG_MAX_WARN kept with where they are, the rest only counted; printed after
	 * the ones above */
	struct {
		enum pt_diag_where where;
		uint64_t pos;
		char msg[256];
	} warn[PT_DIAG_MAX_WARN];
	uint32_t nwarn;
	/* a text input's references to objects it never defines, left out: the
	 * count and the first line naming one (heap dumps) */
	uint64_t dangling_refs, first_dangling_line;
};

void pt_diag_init(struct pt_diag *d, const char *path);
/* all return -1, so `return pt_diag_error(d, ...)` reads naturally */
int pt_diag_error(struct pt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pt_diag_error_line(struct pt_diag *d, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pt_diag_error_at(struct pt_diag *d, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* pt_diag_error_at with its arguments as a va_list, for a reader's own error function
 * (one that also stops its parser, or says where in the input it is); ap is used up */
int pt_diag_verror_at(struct pt_diag *d, uint64_t offset, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* put the context (a thread, a profile) before the message an error already holds,
 * keeping its position: "CONTEXT" + message, cut at the buffer's length */
int pt_diag_prefix(struct pt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* record one skipped line (lenient mode) */
void pt_diag_skip(struct pt_diag *d, uint64_t line);
/* the input ends inside the record that starts at line `record` (cut short at line
 * `line`, which had no newline after it); a warning, the record is left out */
void pt_diag_cut(struct pt_diag *d, uint64_t record, uint64_t line);
/* one reference to a node the input lacks, at byte offset `off`, read past under
 * --lenient (the node hangs from the root, or the sample is left out) */
void pt_diag_dangling(struct pt_diag *d, uint64_t off);
/* one more warning line, at a line or byte offset (w, pos); past PT_DIAG_MAX_WARN of
 * them the rest are dropped */
void pt_diag_warn(struct pt_diag *d, enum pt_diag_where w, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* a warning about the input at byte offset `off`: the read goes on (printed by
 * pt_diag_print_warnings, one line each) */
void pt_diag_warn_at(struct pt_diag *d, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* one reference, first named at `line`, to an object the input never defines (a
 * warning: the reference is left out) */
void pt_diag_dangling_line(struct pt_diag *d, uint64_t line);
/* print the error line "proftool: ..." to fp */
void pt_diag_print(const struct pt_diag *d, FILE *fp);
/* print the lenient-mode warnings, if anything was skipped or dangled, and the
 * cut-record one */
void pt_diag_print_warnings(const struct pt_diag *d, FILE *fp);

#endif
