#!/bin/sh
test_description='configure names the Debian package of a missing dependency'
. "$(dirname "$0")/lib.sh"

# A private copy of what configure needs, so these runs touch no real build tree.
setup_copy () {
	mkdir -p c/src/cli c/build-aux &&
	cp "$SRCDIR/configure" "$SRCDIR/Makefile.in" "$SRCDIR/config.h.in" c/ &&
	cp "$SRCDIR"/build-aux/* c/build-aux/ &&
	cp "$SRCDIR/src/cli/proftool.c" c/src/cli/
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

for dep in "zlib zlib1g-dev" "liblzma liblzma-dev" "libzstd libzstd-dev" \
	"yajl libyajl-dev" "libprotobuf-c libprotobuf-c-dev" \
	"libcurl libcurl4-openssl-dev"; do
	set -- $dep
	test_expect_success "missing $1 names $2" '
		setup_copy && hide_module '"$1"' &&
		(cd c && ! ./configure -q PKG_CONFIG="$PWD/../hide-pc" >../out 2>&1) &&
		grep -q "install the Debian package '"$2"'" out'
done

test_expect_success 'missing protoc-c names protobuf-c-compiler' '
	setup_copy &&
	(cd c && ! ac_cv_path_PROTOC_C= ./configure -q >../out 2>&1) &&
	grep -q "install the Debian package protobuf-c-compiler" out'

test_expect_success 'missing libcsv names libcsv-dev' '
	setup_copy &&
	(cd c && ! ac_cv_search_csv_fwrite=no ./configure -q >../out 2>&1) &&
	grep -q "install the Debian package libcsv-dev" out'

test_expect_success 'with everything present configure succeeds' '
	setup_copy && (cd c && ./configure -q >../out 2>&1)'

test_done
