#!/bin/sh
# text-order.sh [PROFTOOL]: rewrite src/cli/text-order.txt, the functions that the first
# hour's runs execute (a perf script, pprof, .cpuprofile and stackprof report, a flame
# graph, a pprof file written), as section names for gold's --section-ordering-file.
#
# Why: the kernel maps a program's code in blocks (64 KiB around each page a run
# touches, a whole large folio where the page cache holds one), so the code a run
# executes costs it every block that code is spread over. Linked in the order the
# archive's members happened to be pulled, a perf script -> collapsed run executed 85
# KiB of the 664 KiB of text and had nearly all of it resident: the program's mapping
# took 812 KiB of its peak. With these functions first, 596 KiB when the program was
# read from disk, 736 straight after linking, when the page cache holds the file in
# larger blocks (configure.ac links the program so when gold is there).
#
# Needs valgrind (callgrind names each function a run executes) and a built program
# (default: src/proftool of this tree). A function renamed or removed drops out of the
# ordering silently; t0065 fails when the list names one the program no longer has.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=${1:-$top/src/proftool}
s=$top/samples
out=$top/src/cli/text-order.txt
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-order.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# run ARGS...: the names of the functions `proftool ARGS` executes, one a line
n=0
run () {
	n=$((n + 1))
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$prog" "$@" \
		>/dev/null 2>"$work/err.$n" </dev/null ||
		{ cat "$work/err.$n" >&2; echo "text-order.sh: proftool $* failed" >&2; exit 1; }
	sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)/\1/p' "$work/cg.$n" | sort -u |
		sed "s/^/$n /" >>"$work/names"
}

: >"$work/names"
run convert --to collapsed "$s/perf/perfdemo-g.txt"
run top "$s/perf/perfdemo-dwarf.txt"
run top "$s/go/cpu.pb.gz"
run top --cum --style pprof "$s/go/cpu.pb.gz"
run tree "$s/node/lines.cpuprofile"
run top "$s/stackprof/cpu-cli.dump"
run convert --to svg "$s/collapsed/perfdemo-g.collapsed"
run convert --to pprof -o "$work/out.pb.gz" "$s/perf/perfdemo-g.txt"

# The program's own functions among them (not libc's), those more runs execute first,
# then by the first run that executes them: the code every run needs lies together,
# and after it what each run needs alone, so a run's code spans few blocks. gcc names
# main's section .text.startup.main, every other function's .text.NAME (clones too:
# .text.NAME.isra.0).
nm --defined-only "$prog" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$work/defined"
awk 'NR == FNR { def[$1] = 1; next }
	($2 in def) { if (!($2 in first)) first[$2] = $1; runs[$2]++ }
	END { for (f in runs) printf "%d %d %s\n", 1000 - runs[f], first[f], f }' \
	"$work/defined" "$work/names" | sort -k1,1n -k2,2n -k3,3 | cut -d' ' -f3 >"$work/used"
{
	echo "# src/cli/text-order.txt: made by bench/text-order.sh (read it for why); the"
	echo "# functions the first hour's runs execute, in the order gold lays them out. Do"
	echo "# not edit by hand."
	sed -e 's/^main$/.text.startup.main/' -e '/^\.text\./!s/^/.text./' "$work/used"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "text-order.sh: $(grep -c '^\.text' "$out") functions in $out"
