#!/bin/sh
# tests/ref/perf/regen.sh - regenerate the stackcollapse-perf.pl reference
# outputs in this directory from the committed samples in samples/perf/.
#
#   STACKCOLLAPSE_PERF=/path/to/FlameGraph/stackcollapse-perf.pl \
#       sh tests/ref/perf/regen.sh
#
# stackcollapse-perf.pl is Brendan Gregg's FlameGraph script (made with
# commit 41fee1f99f9276008b7cd112fca19dc3ea84ac32 of
# https://github.com/brendangregg/FlameGraph).  It is not part of this
# repository and this script never downloads it: point STACKCOLLAPSE_PERF
# at a copy you have.  Needs perl.  Writes, for every samples/perf/*.txt:
#
#   SAMPLE.stackcollapse.default.txt   stackcollapse-perf.pl SAMPLE
#   SAMPLE.stackcollapse.OPT.txt       stackcollapse-perf.pl --OPT SAMPLE
#                                      for OPT in pid tid kernel jit all addrs
#
# and for the two files with two events, --event-filter=EVENT for each
# event (':' in an event name is written as '-' in the file name):
#
#   perfdemo-2events.stackcollapse.event-filter-cpu-clock.txt
#   perfdemo-2events.stackcollapse.event-filter-task-clock.txt
#   perfdemo-modifiers.stackcollapse.event-filter-cpu-clock-u.txt
#   perfdemo-modifiers.stackcollapse.event-filter-cpu-clock-k.txt
#
# Each output is stackcollapse-perf.pl's stdout piped through
# `LC_ALL=C sort`; its stderr (warnings such as "Unrecognized line" and
# "Filtering for events of type") is discarded.
set -eu

sc=${STACKCOLLAPSE_PERF:?set STACKCOLLAPSE_PERF to the path of FlameGraph\'s stackcollapse-perf.pl}
[ -r "$sc" ] || { echo "regen.sh: $sc: cannot read" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../../samples/perf" && pwd)

collapse() {	# collapse SAMPLE OUTNAME [OPTION]
	in=$1 outname=$2
	shift 2
	perl "$sc" "$@" "$in" 2>/dev/null | LC_ALL=C sort > "$here/$outname.tmp"
	mv "$here/$outname.tmp" "$here/$outname"
}

for s in "$samples"/*.txt; do
	b=$(basename "$s" .txt)
	collapse "$s" "$b.stackcollapse.default.txt"
	for opt in pid tid kernel jit all addrs; do
		collapse "$s" "$b.stackcollapse.$opt.txt" "--$opt"
	done
done

for ev in cpu-clock task-clock; do
	collapse "$samples/perfdemo-2events.txt" \
	    "perfdemo-2events.stackcollapse.event-filter-$ev.txt" \
	    "--event-filter=$ev"
done
for ev in cpu-clock:u cpu-clock:k; do
	collapse "$samples/perfdemo-modifiers.txt" \
	    "perfdemo-modifiers.stackcollapse.event-filter-$(echo "$ev" | tr : -).txt" \
	    "--event-filter=$ev"
done
