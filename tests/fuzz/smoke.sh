#!/bin/sh
# smoke.sh: run each libFuzzer harness for FUZZ_SECONDS (default 60) from its seed corpus
# (gen-seeds.sh: the matching real samples and crafted shapes); a crash, leak,
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

for f in "$@"; do
	name=$(basename "$f")
	n=$((n + 1))
	mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
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
