#!/bin/sh
# smoke.sh: run every libFuzzer harness from its seed corpus (gen-seeds.sh: the matching
# real samples and crafted shapes) within one fixed budget for the whole smoke, so a new
# harness takes a share of it rather than another minute of the suite. A crash, leak,
# timeout, over-limit allocation or an input that costs more CPU than its size allows
# (fuzz-read.c's per-byte check; -timeout is the hard stop) fails. Prints one TAP line
# per harness, in the order given.
#   FUZZ_SMOKE_SECONDS  wall seconds for the whole smoke (default 240)
#   FUZZ_JOBS           harnesses run at once (default: the number of processors)
#   FUZZ_SECONDS        seconds per harness instead of a share of the budget
# Usage: smoke.sh SRCDIR FUZZER...
set -u
srcdir=$1
shift
n=$#
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
test "$jobs" -ge 1 2>/dev/null || jobs=1
budget=${FUZZ_SMOKE_SECONDS:-240}
# each harness's share: the budget times the processors, over the harnesses, at least
# 10 seconds (libFuzzer needs a few to load its corpus before it mutates)
if test -n "${FUZZ_SECONDS:-}"; then
	secs=$FUZZ_SECONDS
else
	secs=$((budget * jobs / (n > 0 ? n : 1)))
	test "$secs" -ge 10 || secs=10
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run_one FUZZER: the harness's result into $work/NAME.result (ok or the failure's
# report, TAP comments), its log into $work/NAME.log
run_one () {
	f=$1
	name=$(basename "$f")
	mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
	sh "$srcdir/tests/fuzz/gen-seeds.sh" "$srcdir" "$name" "$work/$name/corpus"
	# a fixed seed: the same mutations every run, so CI does not turn red by chance
	if "$f" -seed=1 -max_total_time="$secs" -timeout=2 -rss_limit_mb=1024 -malloc_limit_mb=512 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" \
		>"$work/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
		echo "ok - $name: ${runs:-?} runs in ${secs}s, no finding" >"$work/$name.result"
	else
		{
			echo "not ok - $name"
			tail -30 "$work/$name.log" | sed 's/^/#   /'
			for a in "$work/$name/artifacts"/*; do
				test -f "$a" && echo "#   input (base64): $(base64 -w0 "$a" | head -c 2000)"
			done
		} >"$work/$name.result"
		mkdir -p fuzz-findings && cp "$work/$name/artifacts"/* fuzz-findings/ 2>/dev/null
	fi
}

# in batches of $jobs: every harness runs for the same time, so a batch ends together
running=0
for f in "$@"; do
	run_one "$f" &
	running=$((running + 1))
	if test "$running" -ge "$jobs"; then
		wait
		running=0
	fi
done
wait

i=0
failed=0
for f in "$@"; do
	i=$((i + 1))
	name=$(basename "$f")
	if test -f "$work/$name.result"; then
		# number the TAP line: "ok - x" becomes "ok I - x"
		sed "1s/^\(not ok\|ok\) -/\1 $i -/" "$work/$name.result"
		head -1 "$work/$name.result" | grep -q '^ok' || failed=$((failed + 1))
	else
		echo "not ok $i - $name: no result"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
test "$failed" = 0
