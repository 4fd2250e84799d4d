/* demangle.c: names through libiberty's cplus_demangle, word by word as c++filt reads a
 * line; pprof's simplification of the result. */
#include "config.h"

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

/* one word demangled onto out; 0 if the demangler does not take it */
static int demangle_word(struct pt_buf *out, const char *w, size_t n, int simple)
{
	char *z, *d;
	size_t k = skip_of(w, n);
	int rust;
	int flags = simple ? DMGL_ANSI | DMGL_VERBOSE : DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE;

	if (!mangled_start(w + k, n - k))
		return 0;
	z = pt_xmemdup(w + k, n - k);
	/* simple Rust names as pprof shows them: no hash, no crate disambiguators, generic
	 * arguments kept (libiberty without DMGL_VERBOSE); C++ ones lose their templates */
	d = simple ? rust_demangle(z, DMGL_PARAMS | DMGL_ANSI) : NULL;
	rust = d != NULL;
	if (!d)
		d = cplus_demangle(z, flags);
	free(z);
	if (!d)
		return 0;
	if (w[0] == '.')
		pt_buf_addch(out, '.');
	if (!simple || rust) {
		pt_buf_addstr(out, d);
	} else {
		struct pt_buf t = PT_BUF_INIT;
		pt_buf_addstr(&t, d);
		drop_templates(&t);
		pt_buf_add(out, t.buf, t.len);
		pt_buf_release(&t);
	}
	free(d);
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
