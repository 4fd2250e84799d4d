#!/bin/sh
# gen-perf.sh OUT MB: a large `perf script` text from the real samples/perf files,
# records replicated with varied pids, tids, timestamps and addresses so that the
# number of unique stacks grows (about 100k), not just the size.
set -eu
out=$1
mb=$2
src=$(cd "$(dirname "$0")/.." && pwd)/samples/perf
awk -v target=$((mb * 1024 * 1024)) '
	FNR == 1 { file++ }
	/^[^ \t#]/ && !/PERF_RECORD/ { rec = rec_n++ }
	{ lines[n++] = $0 }
	END {
		size = 0
		for (rep = 0; size < target; rep++) {
			pidoff = rep % 97
			for (i = 0; i < n && size < target; i++) {
				l = lines[i]
				if (l ~ /^[^ \t#]/ && l !~ /PERF_RECORD/) {
					# vary pid/tid so process roots and labels differ
					if (match(l, /[0-9]+\/[0-9]+/)) {
						split(substr(l, RSTART, RLENGTH), pt, "/")
						l = substr(l, 1, RSTART - 1) (pt[1] + pidoff) "/" (pt[2] + pidoff) substr(l, RSTART + RLENGTH)
					}
				} else if (l ~ /^\t/ && rep % 7) {
					# vary one leaf symbol per replica family: more unique stacks
					sub(/hot_leaf/, "hot_leaf_" (rep % 1021), l)
				}
				print l
				size += length(l) + 1
			}
		}
	}' "$src"/perfdemo-g.txt "$src"/perfdemo-pidtid.txt "$src"/perfdemo-dwarf.txt >"$out"
