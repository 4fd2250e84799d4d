#!/bin/sh
# gen-seeds.sh: the seed corpus of one fuzz harness, for smoke.sh and campaign.sh: the
# real samples of its format, then structure-aware shapes, the ones that once made a
# reader's cost grow faster than its input (issue 17), each small enough for -max_len:
# names that shared the old string hash, many event names, perf rows then new events,
# many pprof sample types, node ids that shared the old map hash, a deep chain with many
# sampled leaves, many functions, and a well-formed heap snapshot of every kind of node and
# edge. libFuzzer mutates from them, so a mutation of a shape
# that stays costly is a finding of the per-byte CPU check (fuzz-read.c).
# Usage: gen-seeds.sh SRCDIR HARNESS OUTDIR
set -eu
srcdir=$1
name=$2
out=$3
mkdir -p "$out"
samples () {
	case $name in
	fuzz-detect) find "$srcdir/samples" "$srcdir/tests/data" "$srcdir/tests/malformed" \
		-type f ! -name '*.err' -size -1024k ;;
	fuzz-collapsed) ls "$srcdir"/samples/collapsed/*.collapsed "$srcdir"/tests/data/*.collapsed ;;
	fuzz-stackprof) ls "$srcdir"/samples/stackprof/*.dump ;;
	fuzz-stackprof-json) ls "$srcdir"/samples/stackprof/*.json ;;
	fuzz-perf) ls "$srcdir"/samples/perf/*.txt ;;
	fuzz-bpftrace) ls "$srcdir"/samples/bpftrace/*.txt "$srcdir"/tests/bpftrace/*.txt ;;
	fuzz-gperftools-cpu) ls "$srcdir"/samples/gperftools/*.prof "$srcdir"/tests/gperftools/*.prof "$srcdir"/tests/malformed/gperftools-cpu-* ;;
	fuzz-gperftools-heap) ls "$srcdir"/samples/gperftools/spin.heap "$srcdir"/samples/gperftools/spin.growth \
		"$srcdir"/tests/gperftools/*.heap "$srcdir"/tests/malformed/gperftools-heap-* ;;
	fuzz-pprof) ls "$srcdir"/samples/go/*.pb* ;;
	fuzz-heapprofile) ls "$srcdir"/samples/node/*.heapprofile "$srcdir"/tests/malformed/heapprofile-* ;;
	fuzz-gecko) ls "$srcdir"/tests/data/gecko/*.json "$srcdir"/tests/malformed/gecko-* ;;
	fuzz-heapsnapshot) ls "$srcdir"/tests/malformed/heapsnapshot-* ;;
	fuzz-traceevents) ls "$srcdir"/samples/traceevents/*.json "$srcdir"/tests/data/*.trace.json "$srcdir"/tests/malformed/traceevents-* ;;
	fuzz-speedscope) ls "$srcdir"/tests/data/*.speedscope.json "$srcdir"/tests/malformed/speedscope-* ;;
	fuzz-rubyheap) ls "$srcdir"/tests/malformed/rubyheap/*.json "$srcdir"/tests/data/rubyheap-*.json ;;
	fuzz-cpuprofile) find "$srcdir/samples/node" \( -name '*.cpuprofile' -o -name '*.json' \) -size -1024k
		ls "$srcdir"/samples/traceevents/mixed.trace.json "$srcdir"/tests/data/mixed-crafted.trace.json \
			"$srcdir"/tests/malformed/traceevents-mixed-* ;;
	fuzz-goroutine) ls "$srcdir"/samples/go/*.txt | grep -v debug1 ;;
	fuzz-gotext) ls "$srcdir"/samples/go/*.debug1.txt ;;
	fuzz-gotrace) ls "$srcdir"/samples/go/*.trace "$srcdir"/tests/data/gotrace-* \
		"$srcdir"/tests/malformed/gotrace-* ;;
	esac 2>/dev/null | grep -v '\.err$' || :
}
samples | while read -r f; do cp "$f" "$out/"; done
gen () {
	python3 "$srcdir/tests/crafted.py" "$@"
}
case $name in
fuzz-collapsed | fuzz-detect)
	gen names 2000 >"$out/crafted-names.collapsed"
	gen random 2000 >"$out/crafted-random.collapsed"
	gen funcs 3000 >"$out/crafted-funcs.collapsed"
	;;
esac
case $name in
fuzz-perf | fuzz-detect)
	gen perf-events 80 >"$out/crafted-events.txt"
	gen perf-events 62 300 >"$out/crafted-rows-events.txt"
	;;
esac
case $name in
fuzz-cpuprofile | fuzz-detect)
	gen ids 300 >"$out/crafted-ids.cpuprofile"
	awk -v D=200 -v L=200 -f "$srcdir/tests/deep-chain.awk" >"$out/crafted-deep.cpuprofile"
	;;
esac
case $name in
fuzz-pprof | fuzz-detect)
	gen pprof-types 100 >"$out/crafted-types.pb"
	gen pprof-types 60 >"$out/crafted-types-60.pb"
	;;
esac
case $name in
fuzz-heapsnapshot | fuzz-detect)
	gen heapsnapshot 60 >"$out/crafted-small.heapsnapshot"
	gen heapsnapshot 400 >"$out/crafted-400.heapsnapshot"
	;;
esac
# A UTF-8 byte-order mark before the first sample of the format, and a name holding a
# NUL byte, in the format's own syntax (issue 38)
first=$(samples | head -n 1)
if test -n "$first"; then
	{ printf '\357\273\277'; cat "$first"; } >"$out/seed-bom"
fi
# nul_after FILE RE: FILE with "f", a NUL byte (JSON's \u0000) and "a" put after the first
# match of RE (a name's opening quote)
nul_after () {
	zcat -f "$1" | sed "0,/$2/s//&f\\\\u0000a/"
}
case $name in
fuzz-pprof) gen pprof-nul 3 >"$out/seed-nul-name.pb" ;;
fuzz-gecko) nul_after "$first" '"stringArray": *\["' >"$out/seed-nul-name" ;;
fuzz-speedscope | fuzz-traceevents) nul_after "$first" '"name": *"' >"$out/seed-nul-name" ;;
fuzz-heapsnapshot) nul_after "$out/crafted-small.heapsnapshot" '"strings": *\["' >"$out/seed-nul-name" ;;
fuzz-rubyheap) nul_after "$srcdir/tests/data/rubyheap-traced.json" '"name": *"' >"$out/seed-nul-name" ;;
fuzz-bpftrace) printf '@[\n    f\000a+12\n    main+34\n]: 5\n' >"$out/seed-nul-name" ;;
fuzz-gotext) printf 'goroutine profile: total 1\n1 @ 0x1\n#\t0x1\tf\000a+0x1\t/x.go:1\n' >"$out/seed-nul-name" ;;
fuzz-collapsed) printf 'main;f\000a 1\nmain;f\000b 2\n' >"$out/seed-nul-name" ;;
fuzz-perf) printf 'p 1 1.000001: 1 cycles:\n\t1 f\000a (x)\n\n' >"$out/seed-nul-name" ;;
fuzz-goroutine) printf 'goroutine 1 [running]:\nf\000a()\n\t/x.go:1\n\n' >"$out/seed-nul-name" ;;
fuzz-cpuprofile | fuzz-heapprofile | fuzz-stackprof-json)
	printf '{"nodes":[{"id":1,"callFrame":{"functionName":"f\\u0000a","url":""}}]}' \
		>"$out/seed-nul-name" ;;
fuzz-detect)
	gen pprof-nul 3 >"$out/seed-nul-name.pb"
	printf 'main;f\000a 1\n' >"$out/seed-nul-name"
	;;
esac
