#!/bin/sh
# smoke.sh: run each libFuzzer harness for FUZZ_SECONDS (default 60) from a seed corpus
# made of the matching real samples and of crafted shapes (gen-seeds.sh); a crash, leak,
# timeout, over-limit allocation or an input that costs more CPU than its size allows
# (fuzz-read.c's per-byte check; -timeout is the hard stop) fails. Prints one TAP line
# per harness. Usage: smoke.sh SRCDIR FUZZER...
set -u
srcdir=$1
shift
secs=${FUZZ_SECONDS:-60}
n=0
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

seeds () {
	case $1 in
	fuzz-detect) find "$srcdir/samples" "$srcdir/tests/data" "$srcdir/tests/malformed" \
		-type f ! -name '*.err' -size -1024k ;;
	fuzz-collapsed) ls "$srcdir"/samples/collapsed/*.collapsed "$srcdir"/tests/data/*.collapsed ;;
	fuzz-stackprof) ls "$srcdir"/samples/stackprof/*.dump ;;
	fuzz-stackprof-json) ls "$srcdir"/samples/stackprof/*.json ;;
	fuzz-perf) ls "$srcdir"/samples/perf/*.txt ;;
	fuzz-pprof) ls "$srcdir"/samples/go/*.pb* ;;
	fuzz-heapprofile) ls "$srcdir"/samples/node/*.heapprofile "$srcdir"/tests/malformed/heapprofile-* | grep -v "\.err$" ;;
	fuzz-heapsnapshot) ls "$srcdir"/tests/malformed/heapsnapshot-* | grep -v "\.err$" ;;
	fuzz-cpuprofile) find "$srcdir/samples/node" \( -name '*.cpuprofile' -o -name '*.json' \) -size -1024k ;;
	fuzz-chrometrace) ls "$srcdir"/samples/node/*.trace.json ;;
	fuzz-goroutine) ls "$srcdir"/samples/go/*.txt | grep -v debug1 ;;
	fuzz-gotext) ls "$srcdir"/samples/go/*.debug1.txt ;;
	esac 2>/dev/null
}

for f in "$@"; do
	name=$(basename "$f")
	n=$((n + 1))
	mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
	seeds "$name" | while read -r s; do cp "$s" "$work/$name/corpus/"; done
	sh "$srcdir/tests/fuzz/gen-seeds.sh" "$srcdir" "$name" "$work/$name/corpus"
	# a fixed seed: the same mutations every run, so CI does not turn red by chance
	if "$f" -seed=1 -max_total_time="$secs" -timeout=2 -rss_limit_mb=1024 -malloc_limit_mb=512 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" \
		>"$work/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
		echo "ok $n - $name: ${runs:-?} runs in ${secs}s, no finding"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		tail -30 "$work/$name.log" | sed 's/^/#   /'
		for a in "$work/$name/artifacts"/*; do
			test -f "$a" && echo "#   input (base64): $(base64 -w0 "$a" | head -c 2000)"
		done
		mkdir -p fuzz-findings && cp "$work/$name/artifacts"/* fuzz-findings/ 2>/dev/null
	fi
done
echo "1..$n"
test "$failed" = 0
