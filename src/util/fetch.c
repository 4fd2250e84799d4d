/* fetch.c: an HTTP GET into memory through libcurl's easy interface. */
#include "config.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
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

int pt_fetch(const char *url, uint64_t max_size, long timeout, unsigned char **data, size_t *len,
	     struct pt_diag *d)
{
	struct body body;
	CURL *c;
	CURLcode rc;
	char err[CURL_ERROR_SIZE];
	long status = 0;
	int ret = -1;

	d->path = url;
	*data = NULL;
	*len = 0;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return pt_diag_error(d, "cannot start libcurl");
	c = curl_easy_init();
	if (!c) {
		curl_global_cleanup();
		return pt_diag_error(d, "cannot start libcurl");
	}
	memset(&body, 0, sizeof(body));
	pt_buf_init(&body.b);
	body.max = max_size;
	err[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "proftool/" PACKAGE_VERSION);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (timeout > 0)
		curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (body.too_big)
		pt_diag_error(d, "response larger than %llu bytes (see --max-input-size)",
			      (unsigned long long)max_size);
	else if (rc != CURLE_OK)
		pt_diag_error(d, "cannot fetch: %s", err[0] ? err : curl_easy_strerror(rc));
	else if (status < 200 || status > 299)
		pt_diag_error(d, "cannot fetch: HTTP status %ld", status);
	else
		ret = 0;
	curl_easy_cleanup(c);
	curl_global_cleanup();
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
