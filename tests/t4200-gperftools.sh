#!/bin/sh
test_description='gperftools: the legacy CPU profile and the heap and growth texts, read as pprof reads them'
. "$(dirname "$0")/lib.sh"

S=$SAMPLES/gperftools
T=$SRCDIR/tests/gperftools
R=$REF/gperftools
ALL="--node-fraction 0 --edge-fraction 0"
# the references are go tool pprof -symbolize=none (tests/ref/gperftools/COMMANDS), and
# the libraries the samples map are on this machine: addresses stay addresses here
# (symbolization is t4220's)
NOSYM="--symbolize none"

test_expect_success 'both formats are detected' '
	"$PROFTOOL" info "$S/spin.cpu.prof" >out && grep -q "^Format: gperftools-cpu$" out &&
	"$PROFTOOL" info "$S/spin.heap" >out && grep -q "^Format: gperftools-heap$" out &&
	"$PROFTOOL" info "$S/spin.growth" >out && grep -q "^Format: gperftools-heap$" out'

# go tool pprof -top without symbols (tests/ref/gperftools/COMMANDS): addresses are
# nodes named by their mapping, each address in the mapping pprof puts it in
for c in spin.cpu.prof:0 spin.cpu.prof:1 spin.heap:0 spin.heap:1 spin.heap:2 spin.heap:3 \
	spin.growth:0 spin.growth:1; do
	f=${c%:*} t=${c#*:}
	test_expect_success "$f, type $t: top --granularity addresses equals go tool pprof -top -addresses" '
		"$PROFTOOL" top $NOSYM --style pprof --granularity addresses --sample-index '"$t"' \
			"$S/'"$f"'" >actual &&
		test_cmp "$R/'"$f"'.pprof-top.addresses.'"$t"'.txt" actual'
	test_expect_success "$f, type $t: every function row equals go tool pprof -top" '
		"$PROFTOOL" top $NOSYM --style pprof $ALL --sample-index '"$t"' "$S/'"$f"'" >actual &&
		test_cmp "$R/'"$f"'.pprof-top.all.'"$t"'.txt" actual'
done

test_expect_success 'cpu: types, period and totals as pprof gives them' '
	"$PROFTOOL" info "$S/spin.cpu.prof" >out &&
	grep -q "^  0: samples \[count\]" out &&
	grep -q "^  1: cpu \[nanoseconds\] .*(default)$" out &&
	grep -q "^Period: 2000000 cpu \[nanoseconds\]$" out &&
	sed -n "s/^Period: \([0-9]*\).*/\1/p" "$R/spin.cpu.prof.pprof-raw.txt" >expect &&
	sed -n "s/^Period: \([0-9]*\) .*/\1/p" out >actual && test_cmp expect actual'

# the heap text summed by awk straight from the file (heapprofile: no unsampling)
test_expect_success 'heap: each type total is the sum of its column in the file' '
	awk "/^MAPPED_LIBRARIES:/ { exit } NR > 1 && /@/ { gsub(/[\[\]:]/, \" \");
		io += \$1; is += \$2; ao += \$3; as += \$4 }
		END { print ao; print as; print io; print is }" "$S/spin.heap" >expect &&
	for t in 0 1 2 3; do
		"$PROFTOOL" top $NOSYM --format json --sample-index $t "$S/spin.heap" |
			sed "s/.*\"total\":\([0-9]*\).*/\1/" || exit 1
	done >actual &&
	test_cmp expect actual'

test_expect_success 'heap: every sample keeps the block size as the bytes label' '
	"$PROFTOOL" traces $NOSYM "$S/spin.heap" >out &&
	grep -c "bytes:\[" "$R/spin.heap.pprof-raw.txt" >expect &&
	grep -c "bytes:" out >actual && test_cmp expect actual'

test_expect_success 'addresses keep their mappings: the csv file column is the mapping' '
	"$PROFTOOL" top $NOSYM --granularity addresses --format csv "$S/spin.cpu.prof" >out &&
	grep -q "^\"0x[0-9a-f]*\",\"/tmp/gperftools-spin/spin\"," out &&
	grep -q "^\"0x[0-9a-f]*\",\"/usr/lib/x86_64-linux-gnu/libc.so.6\"," out'

# tests/gperftools/zero-depth.prof: a sample of no frames (fuzz-gperftools-cpu found
# pointer arithmetic on NULL there, UBSan), one of one frame, one of two
test_expect_success 'a CPU sample of no frames counts in the total, as pprof counts it' '
	"$PROFTOOL" top $NOSYM --style pprof $ALL "$T/zero-depth.prof" >actual &&
	test_cmp "$R/zero-depth.prof.pprof-top.all.txt" actual'

test_expect_success 'heap_v2: values unsampled by the rate, mappings merged and mended as pprof does' '
	"$PROFTOOL" top $NOSYM --style pprof --granularity addresses $ALL --sample-index alloc_space \
		"$T/maps.heap" >actual &&
	test_cmp "$R/maps.heap.pprof-top.all.alloc_space.txt" actual'

test_expect_success 'cpu: every cut before the end of the trailer (byte 1440) fails on one line, never crashes' '
	n=0 &&
	while test $n -lt 1440; do
		head -c $n "$S/spin.cpu.prof" >cut &&
		{ "$PROFTOOL" top $NOSYM --from gperftools-cpu cut >/dev/null 2>err; rc=$?; } &&
		{ test $rc = 1 && test "$(wc -l <err)" = 1 || { echo "cut $n: $rc"; cat err; exit 1; }; } &&
		n=$((n + 16 * VALGRIND_STEP)) || exit 1
	done'

test_expect_success 'a stack of 32-bit words behind a 64-bit header is refused' '
	test_expect_code 1 "$PROFTOOL" top $NOSYM "$MALFORMED/gperftools-cpu-word-size.prof" 2>err &&
	grep -q "byte 40: a stack of [0-9]* addresses does not fit" err'

test_expect_success 'heap: --lenient leaves a bad line out whole, its addresses too' '
	printf "heap profile: 3: 24 [3: 24] @ heapprofile\n1: 8 [1: 8] @ 0x400010 0xzz\n2: 16 [2: 16] @ 0x400020\n" >in.heap &&
	test_expect_code 1 "$PROFTOOL" top $NOSYM in.heap &&
	"$PROFTOOL" info --lenient in.heap >out 2>err &&
	grep -q "^Unique functions: 1$" out && grep -q "total 16 " out &&
	grep -q "skipped 1 invalid line (first at line 2)" err'

test_expect_success 'Go debug=1 heap profiles stay with the gotext reader' '
	printf "heap profile: 1: 8 [1: 8] @ heap/1048576\n1: 8 [1: 8] @ 0x401000\n" >go.txt &&
	"$PROFTOOL" info go.txt >out && grep -q "^Format: gotext$" out'

# go tool pprof reading what convert --to pprof wrote: the same samples, locations and
# mappings as it reads from the gperftools files themselves
plain_build_judges 'go tool pprof -raw of the converted profiles'
command -v go >/dev/null || { test_skip 'go tool pprof' 'go is not installed'; test_done; exit; }

for f in "$S/spin.cpu.prof" "$S/spin.heap" "$S/spin.growth" "$T/maps.heap"; do
	test_expect_success "$(basename "$f"): go tool pprof -raw of convert --to pprof equals its reading of the file" '
		"$PROFTOOL" convert $NOSYM --to pprof -o conv.pb.gz "'"$f"'" &&
		go tool pprof -raw -symbolize=none conv.pb.gz >actual 2>/dev/null &&
		go tool pprof -raw -symbolize=none "'"$f"'" >expect 2>/dev/null &&
		test_cmp expect actual'
done

test_done
