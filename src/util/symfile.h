/* symfile.h: one ELF binary opened for symbolization: its build id, pprof's base for a
 * memory mapping, and address -> function, file, line and inlined frames from its DWARF
 * (else its symbol table), through elfutils' libdw and libelf. The libraries are opened
 * with dlopen when the first binary is (fetch.c does the same for libcurl): a run that
 * symbolizes nothing maps nothing. Never a network request (no debuginfod). */
#ifndef PT_SYMFILE_H
#define PT_SYMFILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct pt_symfile;

/* One frame of an address: the function's name (its mangled linkage name when DWARF or
 * the symbol table has one, else its plain name; NULL when nothing covers the address),
 * the source file (NULL if unknown) and line (0 if unknown). Strings belong to the
 * symfile and live until it is closed. */
struct pt_symframe {
	const char *name;
	const char *file;
	int64_t line;
};

/* Open path. 0 and *out set; else -1 with d filled ("not an ELF file", libdw missing,
 * the file missing: then *missing, when missing is not NULL, is set to 1). */
int pt_symfile_open(const char *path, struct pt_symfile **out, int *missing, struct pt_diag *d);
void pt_symfile_close(struct pt_symfile *f);

/* Without libdw, from a few reads of the file's section headers: 0 if path is a 64-bit
 * ELF file with neither a symbol table (.symtab) nor DWARF (.debug_info), 1 otherwise
 * (it has them, or it is another kind of file, or unreadable: pt_symfile_open says).
 * With 0, id (room for 41 bytes) holds its GNU build id in hex, "" if none. */
int pt_symfile_peek_symbols(const char *path, char *id);

/* where Debian's -dbg and -dbgsym packages put debug files, by build id */
#define PT_DEBUG_DIR "/usr/lib/debug"

/* For a binary a producer looked at already (perf): 0 when only a search path could
 * name more, with a few reads and no libdw: the file missing, or without symbols
 * (pt_symfile_peek_symbols) and no PT_DEBUG_DIR/.build-id/xx/yyyy.debug for its id */
int pt_symfile_worth_opening(const char *path);

/* the GNU build id in lower-case hex, "" if the file has none */
const char *pt_symfile_build_id(const struct pt_symfile *f);
/* 1 if the file has DWARF or a full symbol table (.symtab), not only .dynsym */
int pt_symfile_has_symbols(const struct pt_symfile *f);
/* 1 if the file's DWARF could not be read although it has debug sections, or a lookup
 * met a unit it could not read (damaged, truncated): such addresses are named by the
 * symbol table */
int pt_symfile_dwarf_broken(const struct pt_symfile *f);

/* pprof's GetBase: what to subtract from an address in the mapping (start, limit,
 * file offset) to get the binary's own address */
uint64_t pt_symfile_base(const struct pt_symfile *f, uint64_t start, uint64_t limit,
			 uint64_t offset);

/* The frames at the binary's address addr, innermost first (addr2line -i's order: the
 * inlined callee with the address's line, then each caller with its call's line), at
 * most max of them; returns how many (0: nothing covers addr). Cost: logarithmic in
 * the symbol table, and libdw's scope walk of the address's compilation unit. */
size_t pt_symfile_lookup(struct pt_symfile *f, uint64_t addr, struct pt_symframe *out, size_t max);

#endif
