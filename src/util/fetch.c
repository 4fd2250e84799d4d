/* fetch.c: an HTTP GET into memory through libcurl's easy interface. libcurl and the
 * thirty libraries it pulls in (TLS, HTTP/2, LDAP, Kerberos...) cost every proftool
 * run 4 ms and 4 MiB to map when linked, and only a URL needs them: so the library is
 * opened with dlopen when a URL is first fetched. */
#include "config.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/dynlib.h"
#include "util/fetch.h"
#include "util/xalloc.h"

int pt_is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

struct body {
	struct pt_buf b;
	uint64_t max;
	int too_big;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct body *body = ctx;
	size_t n = size * nmemb;

	if (body->b.len + (uint64_t)n > body->max) {
		body->too_big = 1;
		return 0; /* curl stops with CURLE_WRITE_ERROR */
	}
	pt_buf_add(&body->b, ptr, n);
	return n;
}

/* The libcurl calls we make, each as a member named for it: X(member, function), the
 * member of the function's own type. */
#define CURL_CALLS(X)                                                                              \
	X(global_init, curl_global_init)                                                           \
	X(global_cleanup, curl_global_cleanup)                                                     \
	X(easy_init, curl_easy_init)                                                               \
	X(easy_setopt, curl_easy_setopt)                                                           \
	X(easy_perform, curl_easy_perform)                                                         \
	X(easy_getinfo, curl_easy_getinfo)                                                         \
	X(easy_cleanup, curl_easy_cleanup)                                                         \
	X(easy_strerror, curl_easy_strerror)

struct curl_api {
	CURL_CALLS(PT_DYNLIB_MEMBER)
};

static const char *const curl_names[] = {CURL_CALLS(PT_DYNLIB_NAME)};

/* open libcurl and fill api with its calls (util/dynlib.h) */
static int load_curl(struct curl_api *api, void **lib, struct pt_diag *d)
{
	void *fns[sizeof(curl_names) / sizeof(curl_names[0])];
	char err[256];
	size_t i = 0;

	memset(api, 0, sizeof(*api));
	*lib = pt_dynlib_open(PT_CURL_SONAME, "libcurl4", curl_names, fns,
			      sizeof(fns) / sizeof(fns[0]), err, sizeof(err));
	if (!*lib)
		return pt_diag_error(d, "%s", err);
	CURL_CALLS(PT_DYNLIB_SET)
	return 0;
}

struct watch {
	void (*wait)(void *ctx, uint64_t received);
	void *ctx;
};

static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	struct watch *w = ctx;
	(void)dltotal;
	(void)ultotal;
	(void)ulnow;
	w->wait(w->ctx, dlnow > 0 ? (uint64_t)dlnow : 0);
	return 0;
}

int pt_fetch(const char *url, uint64_t max_size, long timeout, unsigned char **data, size_t *len,
	     struct pt_diag *d)
{
	return pt_fetch_watched(url, max_size, timeout, data, len, NULL, NULL, d);
}

int pt_fetch_watched(const char *url, uint64_t max_size, long timeout, unsigned char **data,
		     size_t *len, void (*wait)(void *ctx, uint64_t received), void *ctx,
		     struct pt_diag *d)
{
	struct watch w = {wait, ctx};
	struct body body;
	struct curl_api api;
	void *lib;
	CURL *c;
	CURLcode rc;
	char err[CURL_ERROR_SIZE];
	long status = 0;
	int ret = -1;

	d->path = url;
	*data = NULL;
	*len = 0;
	if (load_curl(&api, &lib, d) < 0)
		return -1;
	if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		pt_dynlib_close(lib);
		return pt_diag_error(d, "cannot start libcurl");
	}
	c = api.easy_init();
	if (!c) {
		api.global_cleanup();
		pt_dynlib_close(lib);
		return pt_diag_error(d, "cannot start libcurl");
	}
	memset(&body, 0, sizeof(body));
	pt_buf_init(&body.b);
	body.max = max_size;
	err[0] = '\0';
	api.easy_setopt(c, CURLOPT_URL, url);
	api.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	api.easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	api.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	api.easy_setopt(c, CURLOPT_WRITEDATA, &body);
	api.easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	api.easy_setopt(c, CURLOPT_USERAGENT, "proftool/" PACKAGE_VERSION);
	api.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (timeout > 0)
		api.easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	if (wait) {
		api.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
		api.easy_setopt(c, CURLOPT_XFERINFODATA, &w);
		api.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	}
	rc = api.easy_perform(c);
	api.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (body.too_big)
		pt_diag_error(d, "response larger than %llu bytes (see --max-input-size)",
			      (unsigned long long)max_size);
	else if (rc != CURLE_OK)
		pt_diag_error(d, "cannot fetch: %s", err[0] ? err : api.easy_strerror(rc));
	else if (status < 200 || status > 299)
		pt_diag_error(d, "cannot fetch: HTTP status %ld", status);
	else
		ret = 0;
	api.easy_cleanup(c);
	api.global_cleanup();
	pt_dynlib_close(lib);
	if (ret < 0) {
		pt_buf_release(&body.b);
		return -1;
	}
	*len = body.b.len;
	*data = (unsigned char *)pt_buf_detach(&body.b, NULL);
	return 0;
}

char *pt_url_with_seconds(const char *url, long seconds)
{
	struct pt_buf b = PT_BUF_INIT;
	const char *q = strchr(url, '?');

	pt_buf_addstr(&b, url);
	if (strstr(url, "/debug/pprof/") &&
	    !(q && (strstr(q, "?seconds=") || strstr(q, "&seconds="))))
		pt_buf_addf(&b, "%cseconds=%ld", q ? '&' : '?', seconds);
	return pt_buf_detach(&b, NULL);
}

long pt_url_seconds(const char *url)
{
	const char *q = strchr(url, '?'), *v;
	long n = 0;

	if (!q)
		return 0;
	v = strstr(q, "?seconds=");
	if (!v)
		v = strstr(q, "&seconds=");
	if (!v)
		return 0;
	for (v += 9; *v >= '0' && *v <= '9' && n <= 100000; v++)
		n = n * 10 + (*v - '0');
	return (*v && *v != '&' && *v != '#') || n > 100000 ? 0 : n;
}
