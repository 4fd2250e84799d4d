/* test-dynlib.c: a library opened on first use gives its functions, and one that is
 * missing, or lacks a function, gives one line that names it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "util/dynlib.h"

static void test_functions_work(void)
{
	static const char *const names[] = {"ZSTD_versionNumber", "ZSTD_isError"};
	void *fns[2] = {NULL, NULL};
	char err[256] = "";
	void *lib = pt_dynlib_open(PT_ZSTD_SONAME, "libzstd1", names, fns, 2, err, sizeof(err));
	unsigned (*version)(void);
	unsigned (*is_error)(size_t);

	ok(lib != NULL, "%s opens (%s)", PT_ZSTD_SONAME, err);
	if (!lib)
		return;
	version = (unsigned (*)(void))fns[0];
	is_error = (unsigned (*)(size_t))fns[1];
	/* 1.4.0 is the least configure accepts; (size_t)-1 is zstd's ERROR(GENERIC) */
	ok(version() >= 10400, "ZSTD_versionNumber() = %u", version());
	ok(is_error((size_t)-1) && !is_error(0), "ZSTD_isError tells an error code");
	pt_dynlib_close(lib);
}

static void test_missing_library(void)
{
	static const char *const names[] = {"f"};
	void *fns[1];
	char err[256];

	ok(!pt_dynlib_open("libproftool-nothing.so.7", "libnothing7", names, fns, 1, err,
			   sizeof(err)),
	   "a missing library: NULL");
	is_int(strcmp(err, "cannot load libproftool-nothing.so.7 (install the Debian package "
			   "libnothing7)"),
	       0, "the line names it: %s", err);
}

static void test_missing_function(void)
{
	static const char *const names[] = {"ZSTD_isError", "ZSTD_no_such_function"};
	void *fns[2];
	char err[256], want[256];

	ok(!pt_dynlib_open(PT_ZSTD_SONAME, "libzstd1", names, fns, 2, err, sizeof(err)),
	   "a function missing: NULL");
	snprintf(want, sizeof(want), "cannot load %s: no function ZSTD_no_such_function",
		 PT_ZSTD_SONAME);
	is_int(strcmp(err, want), 0, "the line names it: %s", err);
}

int main(void)
{
	test_functions_work();
	test_missing_library();
	test_missing_function();
	return tap_done();
}
