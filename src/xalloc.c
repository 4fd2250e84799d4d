/* xalloc.c: allocation wrappers that exit on out-of-memory. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void die_oom(size_t n)
{
	fprintf(stderr, "proftool: out of memory allocating %zu bytes\n", n);
	exit(1);
}

void *pt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *pt_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *pt_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

void *pt_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	return pt_xrealloc(p, nmemb * size);
}

char *pt_xstrdup(const char *s)
{
	return pt_xmemdup(s, strlen(s));
}

char *pt_xmemdup(const void *p, size_t n)
{
	char *s = pt_xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}
