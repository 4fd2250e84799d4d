/* demangle.c: names through libiberty's cplus_demangle, word by word as c++filt reads a
 * line; pprof's simplification of the result. */
#include "config.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "util/demangle.h"
#include "util/xalloc.h"

static int word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '.';
}

/* where the demangler starts in a word: past a '.' or '$' (c++filt) */
static size_t skip_of(const char *w, size_t n)
{
	return n && (w[0] == '.' || w[0] == '$') ? 1 : 0;
}

static int mangled_start(const char *w, size_t n)
{
	return n >= 2 && w[0] == '_' &&
	       (w[1] == 'Z' || w[1] == 'R' || (n >= 8 && !memcmp(w, "_GLOBAL_", 8)));
}

int pt_demangle_candidate(const char *name, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i, k;
		while (j < n && word_char((unsigned char)name[j]))
			j++;
		k = skip_of(name + i, j - i);
		if (mangled_start(name + i + k, j - i - k))
			return 1;
		i = j + 1;
	}
	return 0;
}

/* pprof's removeMatching: each outermost balanced open..close group removed; the name
 * as it was when a close comes before its open */
static void remove_matching(struct pt_buf *b, char open, char close)
{
	size_t i, first = 0, w = 0;
	long nest = 0;
	char *s = b->buf;

	for (i = 0; i < b->len; i++) {
		if (s[i] == open) {
			if (++nest == 1)
				first = w;
		} else if (s[i] == close) {
			if (--nest < 0) {
				/* pprof gives up: the groups removed so far stay removed */
				memmove(s + w, s + i, b->len - i);
				pt_buf_setlen(b, w + b->len - i);
				return;
			}
			if (nest == 0) {
				w = first;
				continue;
			}
		}
		s[w++] = s[i];
	}
	pt_buf_setlen(b, w);
}

/* Templates out of a demangled name whose parameters are already gone, as pprof's
 * NoTemplateParams: every outermost <...> but those of operator names (operator<,
 * operator<<, operator<=, operator<=>, operator->, operator>...), which are no lists. */
static void drop_templates(struct pt_buf *b)
{
	size_t i, w = 0, n = b->len;
	long nest = 0;
	char *s = b->buf;

	for (i = 0; i < n; i++) {
		if (i + 8 <= n && !memcmp(s + i, "operator", 8) && nest == 0) {
			size_t j = i + 8;
			while (j < n && (s[j] == '<' || s[j] == '>' || s[j] == '=' || s[j] == '-'))
				j++;
			memmove(s + w, s + i, j - i);
			w += j - i;
			i = j - 1;
			continue;
		}
		if (s[i] == '<') {
			nest++;
			continue;
		}
		if (s[i] == '>' && nest > 0) {
			nest--;
			continue;
		}
		if (nest == 0)
			s[w++] = s[i];
	}
	pt_buf_setlen(b, w);
}

/* A demangler's output goes through a callback into out, at most `room` bytes: the
 * substitutions of a mangled name can double its output with each few input bytes
 * (200 bytes of input, gigabytes of name), so past the room the demangler is left by
 * longjmp, from its printer, which holds no heap memory (libiberty's callback
 * interface allocates none) */
struct sink {
	struct pt_buf *out;
	size_t room;
	jmp_buf full;
};

static void to_sink(const char *s, size_t n, void *opaque)
{
	struct sink *k = opaque;

	if (n > k->room)
		longjmp(k->full, 1);
	k->room -= n;
	pt_buf_add(k->out, s, n);
}

/* 1 if a demangler took z (rust: libiberty's Rust one, else its C++ one), its output
 * appended to k->out; 0 (out as it was) if it did not or the output outgrew its room */
static int run(struct sink *k, const char *z, int flags, int rust)
{
	size_t len = k->out->len;

	if (setjmp(k->full)) {
		pt_buf_setlen(k->out, len);
		return 0;
	}
	if (rust ? rust_demangle_callback(z, flags, to_sink, k)
		 : cplus_demangle_v3_callback(z, flags, to_sink, k))
		return 1;
	pt_buf_setlen(k->out, len);
	return 0;
}

/* One word demangled onto out; 0 if the demangler does not take it. As libiberty's
 * cplus_demangle in its automatic style: Rust first (legacy names are Itanium ones
 * too), then C++. */
static int demangle_word(struct pt_buf *out, const char *w, size_t n, int simple)
{
	struct sink k;
	char *z;
	size_t skip = skip_of(w, n), start = out->len;
	int full = DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE, ok, rust;

	/* libiberty keeps two components per input byte on the stack while it parses:
	 * longer words stay as they are */
	if (!mangled_start(w + skip, n - skip) || n > PT_DEMANGLE_MAX)
		return 0;
	z = pt_xmemdup(w + skip, n - skip);
	k.out = out;
	k.room = 64 * n + 1024; /* real names grow 5 times at most */
	if (w[0] == '.')
		pt_buf_addch(out, '.');
	/* simple Rust names as pprof shows them: no hash, no crate disambiguators, generic
	 * arguments kept (no DMGL_VERBOSE); simple C++ ones lose parameters and templates */
	rust = ok = run(&k, z, simple ? DMGL_PARAMS | DMGL_ANSI : full, 1);
	if (!ok)
		ok = run(&k, z, simple ? DMGL_ANSI | DMGL_VERBOSE : full, 0);
	free(z);
	if (!ok) {
		pt_buf_setlen(out, start);
		return 0;
	}
	if (simple && !rust) {
		struct pt_buf t = PT_BUF_INIT;
		pt_buf_add(&t, out->buf + start, out->len - start);
		drop_templates(&t);
		pt_buf_setlen(out, start);
		pt_buf_add(out, t.buf, t.len);
		pt_buf_release(&t);
	}
	return 1;
}

int pt_demangle(struct pt_buf *out, const char *name, size_t n, int simple)
{
	size_t i = 0, start = out->len;
	int any = 0;

	while (i < n) {
		size_t j = i;
		while (j < n && word_char((unsigned char)name[j]))
			j++;
		if (j == i) {
			pt_buf_addch(out, name[i]);
			i++;
			continue;
		}
		if (demangle_word(out, name + i, j - i, simple)) {
			any = 1;
			/* pprof's simple names drop a symbol version (@GLIBCXX_3.4) */
			if (simple && j < n && name[j] == '@')
				break;
		} else {
			pt_buf_add(out, name + i, j - i);
		}
		i = j;
	}
	if (!any)
		pt_buf_setlen(out, start);
	return any;
}

int pt_simplify_demangled(struct pt_buf *out, const char *name, size_t n)
{
	struct pt_buf t = PT_BUF_INIT;

	if (memmem(name, n, ".<", 2) || memmem(name, n, "]).", 3))
		return 0;
	if (!memmem(name, n, "::", 2) && !memchr(name, '<', n) && !memchr(name, '>', n) &&
	    !memchr(name, '[', n) && !memchr(name, ']', n))
		return 0;
	pt_buf_add(&t, name, n);
	remove_matching(&t, '(', ')');
	remove_matching(&t, '<', '>');
	pt_buf_add(out, t.buf, t.len);
	pt_buf_release(&t);
	return 1;
}
