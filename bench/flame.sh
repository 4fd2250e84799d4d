#!/bin/sh
# flame.sh OUT.svg PROFTOOL-ARGS...: profile one proftool run with `perf record` (DWARF
# call graphs, so any -g build works) and draw the flame graph with proftool itself.
# Also prints the run's hottest functions by cum. Needs perf; nothing here is a test.
#   sh bench/flame.sh /tmp/pprof-top.svg top --cum -n 0 big.pb.gz
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
PROFTOOL=${PROFTOOL:-$top/src/proftool}
out=$1
shift
command -v perf >/dev/null 2>&1 || { echo "flame.sh: needs perf" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-flame.XXXXXX")
trap 'rm -rf "$work"' EXIT

perf record -q -F 2999 --call-graph dwarf,16384 -o "$work/perf.data" -- \
	"$PROFTOOL" "$@" >/dev/null
perf script -i "$work/perf.data" >"$work/perf.txt" 2>/dev/null
"$PROFTOOL" flamegraph --title "proftool $*" -o "$out" "$work/perf.txt"
"$PROFTOOL" top --cum -n 25 "$work/perf.txt"
