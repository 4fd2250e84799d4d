#!/bin/sh
# make.sh: regenerate the collapsed samples with FlameGraph's scripts.
# FLAMEGRAPH names a FlameGraph checkout; nothing is downloaded.
set -eu
: "${FLAMEGRAPH:?set FLAMEGRAPH to a FlameGraph checkout}"
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perl "$FLAMEGRAPH/stackcollapse-perf.pl" ../perf/perfdemo-g.txt 2>/dev/null | LC_ALL=C sort >perfdemo-g.collapsed
perl "$FLAMEGRAPH/stackcollapse-perf.pl" ../perf/perfdemo-dwarf.txt 2>/dev/null | LC_ALL=C sort >"$tmp/dwarf"
perl "$FLAMEGRAPH/difffolded.pl" perfdemo-g.collapsed "$tmp/dwarf" >perfdemo-g-vs-dwarf.diff.collapsed
