#!/bin/sh
test_description='zlib, yajl and libcsv are opened on first use: a run that needs none runs without them, one that needs a library that cannot be loaded says so in one line'
. "$(dirname "$0")/lib.sh"

# An empty file named as the library, in a directory on LD_LIBRARY_PATH, is what dlopen
# finds first and cannot load (file too short): the library cannot be loaded, as when
# its package is missing, without touching the real one. The sonames are those of the
# Debian packages the messages name.
broken=$TRASH/broken
mkdir "$broken" && : >"$broken/libz.so.1" && : >"$broken/libyajl.so.2" &&
	: >"$broken/libcsv.so.3"

test_expect_success 'perf script to collapsed needs none of the three' '
	"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/perfdemo-g.txt" >expect &&
	env LD_LIBRARY_PATH="$broken" "$PROFTOOL" convert --to collapsed \
		"$SAMPLES/perf/perfdemo-g.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'uncompressed pprof out needs no zlib' '
	"$PROFTOOL" convert --to pprof --no-gzip "$SAMPLES/perf/perfdemo-g.txt" >expect &&
	env LD_LIBRARY_PATH="$broken" "$PROFTOOL" convert --to pprof --no-gzip \
		"$SAMPLES/perf/perfdemo-g.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'gzip input without zlib: one line naming the file and zlib1g' '
	cp "$SAMPLES/go/cpu.pb.gz" in &&
	test_expect_code 1 env LD_LIBRARY_PATH="$broken" "$PROFTOOL" top in &&
	test_one_line_err "proftool: in: cannot load libz.so.1 (install the Debian package zlib1g)" &&
	test ! -s out'

test_expect_success 'gzipped pprof out without zlib: one line, no output' '
	cp "$SAMPLES/perf/perfdemo-g.txt" in &&
	test_expect_code 1 env LD_LIBRARY_PATH="$broken" "$PROFTOOL" convert --to pprof in &&
	test_one_line_err "proftool: in: cannot load libz.so.1 (install the Debian package zlib1g)" &&
	test ! -s out'

test_expect_success 'a JSON reader without yajl: one line naming the file and libyajl2' '
	cp "$SAMPLES/node/small.cpuprofile" in &&
	test_expect_code 1 env LD_LIBRARY_PATH="$broken" "$PROFTOOL" top in &&
	test_one_line_err "proftool: in: cannot load libyajl.so.2 (install the Debian package libyajl2)" &&
	test ! -s out'

test_expect_success 'a JSON report without yajl: one line, no output' '
	test_expect_code 1 env LD_LIBRARY_PATH="$broken" "$PROFTOOL" top --format json \
		"$SAMPLES/perf/perfdemo-g.txt" &&
	test_one_line_err "proftool: cannot load libyajl.so.2 (install the Debian package libyajl2)" &&
	test ! -s out'

test_expect_success 'a CSV report without libcsv: one line, no output' '
	test_expect_code 1 env LD_LIBRARY_PATH="$broken" "$PROFTOOL" top --format csv \
		"$SAMPLES/perf/perfdemo-g.txt" &&
	test_one_line_err "proftool: cannot load libcsv.so.3 (install the Debian package libcsv3)" &&
	test ! -s out'

test_done
