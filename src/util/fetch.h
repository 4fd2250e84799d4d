/* fetch.h: reading an http:// or https:// URL whole into memory (libcurl), as `go tool
 * pprof URL` does, bounded in size and time. Only the input layer and `record` use it. */
#ifndef PT_FETCH_H
#define PT_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/* 1 if s names an http:// or https:// URL */
int pt_is_url(const char *s);

/* GET url into *data (malloc'd, the caller frees; *len bytes). The body may be at most
 * max_size bytes and the whole transfer may take at most timeout seconds (0: no bound).
 * Redirects are followed. -1 with d filled (the HTTP status, or curl's own message) on
 * failure; d's path is the URL. */
int pt_fetch(const char *url, uint64_t max_size, long timeout, unsigned char **data, size_t *len,
	     struct pt_diag *d);
/* the same, with wait(ctx, bytes received so far) called while the transfer runs,
 * about once a second even when nothing arrives (curl's transfer-info callback) */
int pt_fetch_watched(const char *url, uint64_t max_size, long timeout, unsigned char **data,
		     size_t *len, void (*wait)(void *ctx, uint64_t received), void *ctx,
		     struct pt_diag *d);

/* url with "seconds=N" added to its query when it is a net/http/pprof URL
 * (/debug/pprof/) without one; malloc'd. */
char *pt_url_with_seconds(const char *url, long seconds);
/* the N of a "seconds=N" in url's query (N from 1 to 100000), or 0 */
long pt_url_seconds(const char *url);

#endif
