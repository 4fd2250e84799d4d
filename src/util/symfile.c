/* symfile.c: an ELF binary's frames for an address, through libdwfl (libdw) and libelf,
 * both opened with dlopen on first use: linked, they would cost every run their
 * mapping, and only an address without a name needs them. The symbol table is sorted
 * once into our own array (dwfl_module_addrsym scans every symbol per call). */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/dynlib.h"
#include "util/sort.h"
#include "util/symfile.h"
#include "util/xalloc.h"

/* The libdw and libelf calls we make, each as a member named for it: X(member,
 * function), the member of the function's own type. libelf's come through libdw's
 * handle, which dlsym searches with its dependencies. */
#define DW_CALLS(X)                                                                                \
	X(begin, dwfl_begin)                                                                       \
	X(end, dwfl_end)                                                                           \
	X(report_begin, dwfl_report_begin)                                                         \
	X(report_elf, dwfl_report_elf)                                                             \
	X(report_end, dwfl_report_end)                                                             \
	X(build_id, dwfl_module_build_id)                                                          \
	X(getelf, dwfl_module_getelf)                                                              \
	X(getdwarf, dwfl_module_getdwarf)                                                          \
	X(addrdie, dwfl_module_addrdie)                                                            \
	X(getsrc, dwfl_module_getsrc)                                                              \
	X(lineinfo, dwfl_lineinfo)                                                                 \
	X(getsymtab, dwfl_module_getsymtab)                                                        \
	X(getsym_info, dwfl_module_getsym_info)                                                    \
	X(getscopes, dwarf_getscopes)                                                              \
	X(getscopes_die, dwarf_getscopes_die)                                                      \
	X(child, dwarf_child)                                                                      \
	X(siblingof, dwarf_siblingof)                                                              \
	X(haspc, dwarf_haspc)                                                                      \
	X(tag, dwarf_tag)                                                                          \
	X(attr_integrate, dwarf_attr_integrate)                                                    \
	X(formstring, dwarf_formstring)                                                            \
	X(formudata, dwarf_formudata)                                                              \
	X(getsrcfiles, dwarf_getsrcfiles)                                                          \
	X(filesrc, dwarf_filesrc)                                                                  \
	X(getehdr, gelf_getehdr)                                                                   \
	X(getphdrnum, elf_getphdrnum)                                                              \
	X(getphdr, gelf_getphdr)                                                                   \
	X(nextscn, elf_nextscn)                                                                    \
	X(getshdr, gelf_getshdr)                                                                   \
	X(shdrstrndx, elf_getshdrstrndx)                                                           \
	X(strptr, elf_strptr)

struct dw_api {
	DW_CALLS(PT_DYNLIB_MEMBER)
};

static const char *const dw_names[] = {DW_CALLS(PT_DYNLIB_NAME)};

struct sym {
	uint64_t addr, size;
	const char *name;
	int index; /* in the symbol table */
};

struct pt_symfile {
	void *lib;
	struct dw_api api;
	Dwfl_Callbacks cb;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	char build_id[129];
	int has_symtab, has_debug, dwarf_ok;
	int dwarf_errors; /* lookups whose unit's DIEs could not be read */
	struct sym *syms; /* sorted by address, made on the first lookup */
	size_t nsyms;
	int syms_ready;
};

/* No separate debug file is looked for (no /usr/lib/debug, no debuginfod and so no
 * network): the binary found is the one read. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

/* open libdw and fill api with its calls: the library's handle, or NULL with err
 * filled (util/dynlib.h) */
static void *load_api(struct dw_api *api, char *err, size_t errlen)
{
	void *fns[sizeof(dw_names) / sizeof(dw_names[0])];
	void *lib = pt_dynlib_open(PT_DW_SONAME, "libdw1", dw_names, fns,
				   sizeof(fns) / sizeof(fns[0]), err, errlen);
	size_t i = 0;

	if (!lib)
		return NULL;
	DW_CALLS(PT_DYNLIB_SET)
	return lib;
}

/* which sections the file has: a full symbol table, debug sections */
static void scan_sections(struct pt_symfile *f)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (f->api.shdrstrndx(f->elf, &shstr) < 0)
		return;
	while ((scn = f->api.nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!f->api.getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			f->has_symtab = 1;
		name = f->api.strptr(f->elf, shstr, sh.sh_name);
		if (name && !strcmp(name, ".debug_info") && sh.sh_type != SHT_NOBITS)
			f->has_debug = 1;
	}
}

static void read_build_id(struct pt_symfile *f)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = f->api.build_id(f->mod, &bits, &vaddr), i;

	if (n <= 0 || n > 64)
		return;
	for (i = 0; i < n; i++) {
		f->build_id[2 * i] = "0123456789abcdef"[bits[i] >> 4];
		f->build_id[2 * i + 1] = "0123456789abcdef"[bits[i] & 15];
	}
	f->build_id[2 * n] = '\0';
}

int pt_symfile_open(const char *path, struct pt_symfile **out, int *missing, struct pt_diag *d)
{
	struct pt_symfile *f;
	GElf_Addr bias;
	char err[256];
	int fd;

	*out = NULL;
	if (missing)
		*missing = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (missing)
			*missing = errno == ENOENT || errno == ENOTDIR;
		return pt_diag_error(d, "cannot open '%s': %s", path, strerror(errno));
	}
	f = pt_xcalloc(1, sizeof(*f));
	f->lib = load_api(&f->api, err, sizeof(err));
	if (!f->lib) {
		close(fd);
		pt_symfile_close(f);
		return pt_diag_error(d, "%s", err);
	}
	f->cb.find_debuginfo = no_debuginfo;
	f->dwfl = f->api.begin(&f->cb);
	if (f->dwfl) {
		f->api.report_begin(f->dwfl);
		/* libdwfl owns fd from here, even on failure */
		f->mod = f->api.report_elf(f->dwfl, "bin", path, fd, 0, true);
		f->api.report_end(f->dwfl, NULL, NULL);
	} else {
		close(fd);
	}
	if (!f->mod || !(f->elf = f->api.getelf(f->mod, &bias))) {
		pt_symfile_close(f);
		return pt_diag_error(d, "'%s' is not an ELF file", path);
	}
	scan_sections(f);
	read_build_id(f);
	if (f->has_debug) {
		Dwarf_Addr b;
		f->dwarf_ok = f->api.getdwarf(f->mod, &b) != NULL;
	}
	*out = f;
	return 0;
}

void pt_symfile_close(struct pt_symfile *f)
{
	if (!f)
		return;
	if (f->dwfl)
		f->api.end(f->dwfl);
	pt_dynlib_close(f->lib);
	free(f->syms);
	free(f);
}

const char *pt_symfile_build_id(const struct pt_symfile *f)
{
	return f->build_id;
}

/* n bytes at off of fd into buf: 1 if all were read */
static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return off <= INT64_MAX && pread(fd, buf, n, (off_t)off) == (ssize_t)n;
}

/* the build id note of section sh into id (hex, at most 20 bytes of it) */
static void peek_build_id(int fd, const Elf64_Shdr *sh, char *id)
{
	unsigned char b[16 + 20];
	uint32_t nsz, dsz, type, i;

	if (sh->sh_size < 16 ||
	    !read_at(fd, b, sh->sh_size < sizeof(b) ? sh->sh_size : sizeof(b), sh->sh_offset))
		return;
	memcpy(&nsz, b, 4);
	memcpy(&dsz, b + 4, 4);
	memcpy(&type, b + 8, 4);
	if (nsz != 4 || type != NT_GNU_BUILD_ID || memcmp(b + 12, "GNU", 4) || !dsz || dsz > 20 ||
	    16 + (uint64_t)dsz > sh->sh_size)
		return;
	for (i = 0; i < dsz; i++)
		sprintf(id + 2 * i, "%02x", b[16 + i]);
}

int pt_symfile_peek_symbols(const char *path, char *id)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, names;
	char name[20];
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 1;

	*id = '\0';
	if (fd < 0)
		return 1;
	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shstrndx >= eh.e_shnum ||
	    !read_at(fd, &names, sizeof(names),
		     eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(Elf64_Shdr)))
		goto out;
	ret = 0;
	/* at most 65535 headers of 64 bytes and the first 19 bytes of each name */
	for (i = 0; i < eh.e_shnum && !ret; i++) {
		if (!read_at(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)) ||
		    sh.sh_name >= names.sh_size) {
			ret = 1;
			break;
		}
		memset(name, 0, sizeof(name));
		if (pread(fd, name, sizeof(name) - 1, (off_t)(names.sh_offset + sh.sh_name)) < 0)
			ret = 1;
		ret = ret || !strcmp(name, ".symtab") || !strcmp(name, ".debug_info");
		if (!ret && sh.sh_type == SHT_NOTE && !strcmp(name, ".note.gnu.build-id"))
			peek_build_id(fd, &sh, id);
	}
out:
	close(fd);
	return ret;
}

int pt_symfile_worth_opening(const char *path)
{
	char id[48], dbg[sizeof(PT_DEBUG_DIR) + 80];

	if (access(path, F_OK) < 0)
		return 0;
	if (pt_symfile_peek_symbols(path, id))
		return 1;
	if (strlen(id) < 3)
		return 0;
	snprintf(dbg, sizeof(dbg), "%s/.build-id/%.2s/%s.debug", PT_DEBUG_DIR, id, id + 2);
	return access(dbg, F_OK) == 0;
}

int pt_symfile_has_symbols(const struct pt_symfile *f)
{
	return f->has_symtab || f->dwarf_ok;
}

int pt_symfile_dwarf_broken(const struct pt_symfile *f)
{
	return (f->has_debug && !f->dwarf_ok) || f->dwarf_errors;
}

uint64_t pt_symfile_base(const struct pt_symfile *f, uint64_t start, uint64_t limit,
			 uint64_t offset)
{
	GElf_Ehdr eh;
	size_t n, i;
	int seg = -1;
	GElf_Phdr ph, load = {0};

	if (!f->api.getehdr(f->elf, &eh) || f->api.getphdrnum(f->elf, &n) < 0)
		return 0;
	/* a mapping of the whole address space (or none): addresses are the binary's */
	if (start == 0 && offset == 0 && (limit == 0 || limit == UINT64_MAX))
		return 0;
	/* the executable segment holding the mapping's file offset */
	for (i = 0; i < n && i < 65536; i++) {
		if (!f->api.getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		if (seg < 0 || (offset >= ph.p_offset && offset < ph.p_offset + ph.p_memsz)) {
			load = ph;
			seg = (int)i;
		}
	}
	/* a separate debug file's segments have no bytes in the file, nor offsets: the
	 * linker's usual layout (text at the offset equal to its address) is assumed */
	if (seg >= 0 && !load.p_filesz && !load.p_offset)
		load.p_offset = load.p_vaddr;
	if (eh.e_type == ET_EXEC) {
		if (seg < 0 || start >= 0x8000000000000000ull)
			return 0;
		return start - offset + load.p_offset - load.p_vaddr;
	}
	if (seg < 0)
		return start - offset;
	return start - offset + load.p_offset - load.p_vaddr;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* aliases at one address: the sized one, then the one first in the table (as
	 * binutils' addr2line picks a constructor's C2 name over its C1 alias) */
	if ((x->size == 0) != (y->size == 0))
		return x->size ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void build_syms(struct pt_symfile *f)
{
	int n = f->api.getsymtab(f->mod), i;
	size_t alloc = 0;

	f->syms_ready = 1;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		GElf_Addr a;
		Dwarf_Addr b;
		const char *name = f->api.getsym_info(f->mod, i, &s, &a, NULL, NULL, &b);
		int t;
		if (!name || !*name || s.st_shndx == SHN_UNDEF)
			continue;
		t = GELF_ST_TYPE(s.st_info);
		if (t != STT_FUNC && t != STT_GNU_IFUNC)
			continue;
		PT_ALLOC_GROW(f->syms, f->nsyms + 1, alloc);
		f->syms[f->nsyms].addr = a;
		f->syms[f->nsyms].size = s.st_size;
		f->syms[f->nsyms].index = i;
		f->syms[f->nsyms++].name = name;
	}
	if (f->nsyms)
		qsort(f->syms, f->nsyms, sizeof(*f->syms), sym_cmp);
}

/* the symbol of addr: the last starting at or below it, whatever its size (the
 * padding after a function is named by it, as binutils' addr2line names it) */
static const char *sym_at(struct pt_symfile *f, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!f->syms_ready)
		build_syms(f);
	hi = f->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		size_t first = lo - 1;
		/* the first (sized) one of the symbols at this address */
		while (first > 0 && f->syms[first - 1].addr == f->syms[lo - 1].addr)
			first--;
		return f->syms[first].name;
	}
	return NULL;
}

static const char *die_name(struct pt_symfile *f, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *s = NULL;

	if (f->api.attr_integrate(die, DW_AT_linkage_name, &a) ||
	    f->api.attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		s = f->api.formstring(&a);
	if (!s && f->api.attr_integrate(die, DW_AT_name, &a))
		s = f->api.formstring(&a);
	return s;
}

/* where an inlined call was made: its DW_AT_call_file and DW_AT_call_line */
static void call_site(struct pt_symfile *f, Dwarf_Die *cu, Dwarf_Die *die, const char **file,
		      int64_t *line)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (f->api.attr_integrate(die, DW_AT_call_line, &a) && f->api.formudata(&a, &w) == 0 &&
	    w <= INT64_MAX)
		*line = (int64_t)w;
	if (f->api.attr_integrate(die, DW_AT_call_file, &a) && f->api.formudata(&a, &w) == 0 &&
	    f->api.getsrcfiles(cu, &files, &nfiles) == 0 && w < nfiles)
		*file = f->api.filesrc(files, w, NULL, NULL);
}

/* the DWARF frames of addr, innermost first; 0 if no compilation unit covers it */
/* the deepest nesting nested_scopes follows */
#define MAX_NEST 64

/* The child of parent that holds pc and can hold more scopes (a function, a block, an
 * inlined call), or that is a type or namespace with such a function among its own
 * children: 1 and *out set. Rust nests a method's DIE in its type's, where libdw 0.188's
 * dwarf_getscopes does not look. */
static int child_at(struct pt_symfile *f, Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out,
		    int depth)
{
	Dwarf_Die c;
	int tag;

	if (depth > MAX_NEST || f->api.child(parent, &c) != 0)
		return 0;
	do {
		tag = f->api.tag(&c);
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		     tag == DW_TAG_inlined_subroutine) &&
		    f->api.haspc(&c, pc) > 0) {
			*out = c;
			return 1;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
		     tag == DW_TAG_class_type || tag == DW_TAG_union_type ||
		     tag == DW_TAG_enumeration_type || tag == DW_TAG_module) &&
		    child_at(f, &c, pc, out, depth + 1))
			return 1;
	} while (f->api.siblingof(&c, &c) == 0);
	return 0;
}

/* 1 if the unit is Rust's, whose methods nest in their types: only there is the walk
 * down (child_at) worth its cost, a look at the unit's top DIEs */
static int is_rust(struct pt_symfile *f, Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	Dwarf_Word lang = 0;

	return f->api.attr_integrate(cu, DW_AT_language, &a) && !f->api.formudata(&a, &lang) &&
	       lang == DW_LANG_Rust;
}

/* What dwarf_getscopes_die of the innermost inlined call at pc gives, found by walking
 * down from the unit ourselves: the scopes holding pc, innermost first, into *scopes
 * (malloc'd); how many (0: none) */
static int nested_scopes(struct pt_symfile *f, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	Dwarf_Die chain[MAX_NEST], d = *cu;
	int n = 0, i;

	while (n < MAX_NEST && child_at(f, &d, pc, &chain[n], 0))
		d = chain[n++];
	*scopes = n ? pt_xreallocarray(NULL, (size_t)n, sizeof(**scopes)) : NULL;
	for (i = 0; i < n; i++)
		(*scopes)[i] = chain[n - 1 - i];
	return n;
}

static size_t dwarf_frames(struct pt_symfile *f, uint64_t addr, struct pt_symframe *out, size_t max)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu, *scopes = NULL;
	Dwfl_Line *ln;
	const char *file = NULL;
	int64_t line = 0;
	int n, i, lineno = 0, nested = 0;
	size_t k = 0;

	if (!f->dwarf_ok || !(cu = f->api.addrdie(f->mod, addr, &bias)))
		return 0;
	if ((ln = f->api.getsrc(f->mod, addr)) &&
	    (file = f->api.lineinfo(ln, NULL, &lineno, NULL, NULL, NULL)))
		line = lineno;
	/* the lexical scopes of addr: past an inlined subroutine they are those of its
	 * definition, so the chain of callers is its own containing DIEs */
	n = f->api.getscopes(cu, addr - bias, &scopes);
	if (n < 0)
		f->dwarf_errors++;
	if (n == 0 && is_rust(f, cu)) {
		/* a method nested in its type (Rust): the scopes found by our own walk */
		free(scopes);
		n = nested_scopes(f, cu, addr - bias, &scopes);
		nested = 1;
	}
	for (i = 0; i < n; i++) {
		int tag = f->api.tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine && !nested) {
			Dwarf_Die inl = scopes[i];
			free(scopes);
			scopes = NULL;
			n = f->api.getscopes_die(&inl, &scopes);
			if (n < 0)
				f->dwarf_errors++;
			i = 0;
			break;
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			break;
	}
	for (; i < n && k < max; i++) {
		int tag = f->api.tag(&scopes[i]);
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		out[k].name = die_name(f, &scopes[i]);
		out[k].file = file;
		out[k++].line = line;
		if (tag == DW_TAG_subprogram)
			break;
		call_site(f, cu, &scopes[i], &file, &line);
	}
	free(scopes);
	/* a unit with lines but no function (assembly): the line, named by the symbol */
	if (!k && max) {
		out[0].name = NULL;
		out[0].file = file;
		out[k++].line = line;
	}
	return k;
}

size_t pt_symfile_lookup(struct pt_symfile *f, uint64_t addr, struct pt_symframe *out, size_t max)
{
	size_t n = dwarf_frames(f, addr, out, max);

	if (!max)
		return 0;
	/* the outermost one unnamed: the symbol table names it */
	if (n && !out[n - 1].name)
		out[n - 1].name = sym_at(f, addr);
	if (n)
		return n;
	out[0].name = sym_at(f, addr);
	out[0].file = NULL;
	out[0].line = 0;
	return out[0].name ? 1 : 0;
}
