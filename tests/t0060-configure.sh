#!/bin/sh
test_description='configure names the Debian package of a missing dependency'
. "$(dirname "$0")/lib.sh"

# A private copy of what configure needs, so these runs touch no real build tree. Each
# run starts from the cache of the first, complete run: the compiler's probes are what
# costs, and none of them is what a point checks. The cache loses every pkg-config
# answer (pkg_cv_*) and the record of the precious variables (ac_cv_env_*, since a run
# may set PKG_CONFIG), so the probes under test run afresh.
CACHE=$TRASH/config.cache
setup_copy () {
	mkdir -p c/src/cli c/build-aux &&
	cp "$SRCDIR/configure" "$SRCDIR/Makefile.in" "$SRCDIR/config.h.in" c/ &&
	cp "$SRCDIR"/build-aux/* c/build-aux/ &&
	cp "$SRCDIR/src/cli/proftool.c" c/src/cli/ &&
	if test -s "$CACHE"; then
		grep -Ev "^(pkg_cv_|ac_cv_env_)" "$CACHE" >c/config.cache
	else
		: >c/config.cache
	fi
}

# a pkg-config that knows every module but $1
hide_module () {
	printf '#!/bin/sh\ncase "$*" in *%s*) exit 1;; esac\nexec pkg-config "$@"\n' "$1" >hide-pc &&
	chmod +x hide-pc
}

if ! test -x "$SRCDIR/configure"; then
	test_skip 'configure checks' 'no generated configure script'
	test_done
	exit
fi

# the complete run, whose cache the others start from
test_expect_success 'with everything present configure succeeds' '
	setup_copy && (cd c && ./configure -q -C >../out 2>&1) &&
	cp c/config.cache "$CACHE"'

for dep in "zlib zlib1g-dev" "liblzma liblzma-dev" "libzstd libzstd-dev" \
	"yajl libyajl-dev" "libprotobuf-c libprotobuf-c-dev" \
	"libcurl libcurl4-openssl-dev"; do
	set -- $dep
	test_expect_success "missing $1 names $2" '
		setup_copy && hide_module '"$1"' &&
		(cd c && ! ./configure -q -C PKG_CONFIG="$PWD/../hide-pc" >../out 2>&1) &&
		grep -q "install the Debian package '"$2"'" out'
done

test_expect_success 'missing protoc-c names protobuf-c-compiler' '
	setup_copy &&
	(cd c && ! ac_cv_path_PROTOC_C= ./configure -q -C >../out 2>&1) &&
	grep -q "install the Debian package protobuf-c-compiler" out'

test_expect_success 'missing libcsv names libcsv-dev' '
	setup_copy &&
	(cd c && ! ac_cv_search_csv_fwrite=no ./configure -q -C >../out 2>&1) &&
	grep -q "install the Debian package libcsv-dev" out'

test_done
