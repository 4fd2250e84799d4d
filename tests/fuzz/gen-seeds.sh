#!/bin/sh
# gen-seeds.sh: structure-aware seeds for the fuzz harnesses, the shapes that once made a
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
