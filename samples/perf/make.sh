#!/bin/sh
# samples/perf/make.sh - regenerate the `perf script` samples in this
# directory from src/perfdemo.c with the real perf (Debian's linux-perf).
#
#   sh samples/perf/make.sh            # writes samples/perf/perfdemo-*.txt
#
# Needs gcc and perf; kernel frames need root (CAP_PERFMON) or
# kernel.perf_event_paranoid <= 1 (and kptr_restrict 0 for kernel symbol
# names).  Runs take PERFDEMO_MS milliseconds each (default 100).  The
# binaries and perf.data files go to $PERFDEMO_WORK (default
# /tmp/perfdemo-build), which is where the dso paths in the samples point.
# Every output is exactly what `perf script` printed, except
# perfdemo-g-noeol.txt, which is `head -c -2` of perfdemo-g.txt (the same
# output without its final "\n\n", so the last record has no newline).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=${PERFDEMO_WORK:-/tmp/perfdemo-build}
ms=${PERFDEMO_MS:-100}
cc=${CC:-gcc}
src=$here/src/perfdemo.c

echo "perf:   $(perf --version)"
echo "gcc:    $($cc --version | head -n 1)"
echo "kernel: $(uname -r)"
echo "kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)" \
     "kernel.kptr_restrict=$(cat /proc/sys/kernel/kptr_restrict)"

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# Build 1: -O1, frame pointers, the MAYBE_INLINE helpers kept out of line.
$cc -O1 -g -fno-omit-frame-pointer -pthread -o perfdemo "$src"
# Build 2: -O2 with the MAYBE_INLINE helpers forced inline, for DWARF
# unwinding with inlined frames.
$cc -O2 -g -fno-omit-frame-pointer -DINLINE_BUILD -pthread -o perfdemo-inl "$src"

# perfdemo writes /tmp/perf-PID.map for its run-time generated code (as a
# JIT does); perf script reads it, so remove the maps only at the end.
ls /tmp/perf-*.map 2>/dev/null | sort > maps.before || true

rec() {		# rec DATAFILE PERF-RECORD-OPTIONS... -- COMMAND...
	data=$1
	shift
	perf record -q -F 999 -o "$data" "$@" >/dev/null
}

# Frame-pointer callchains, default fields.
rec g.data -e cpu-clock -g -- ./perfdemo "$ms"
# No callchains.
rec nog.data -e cpu-clock -- ./perfdemo "$ms"
# With the CPU in each sample, for -F ...,cpu,...
rec mt.data -e cpu-clock -g --sample-cpu -- ./perfdemo "$ms"
# DWARF callchains (8 KiB of stack per sample: keep it short).
rec dwarf.data -e cpu-clock --call-graph dwarf -- ./perfdemo-inl 60
# Kernel-mode samples only (the event prints as cpu-clock:k).
rec kernel.data -e cpu-clock:k -g -- ./perfdemo "$ms"
# Two events in one file.
rec 2events.data -e cpu-clock -e task-clock -g -- ./perfdemo "$ms"
# One event with two different modifiers.
rec modifiers.data -e cpu-clock:u -e cpu-clock:k -g -- ./perfdemo "$ms"
# A software event whose period varies from sample to sample.
# (longer: the page-fault rate limits how many samples perf takes)
rec period.data -e page-faults -g --sample-cpu -- ./perfdemo 500

out=$here
perf script -i g.data > "$out/perfdemo-g.txt"
perf script -i g.data --header > "$out/perfdemo-header.txt"
perf script -i g.data --show-task-events > "$out/perfdemo-task-events.txt"
perf script -i g.data --show-mmap-events > "$out/perfdemo-mmap-events.txt"
perf script -i nog.data > "$out/perfdemo-nog.txt"
perf script -i mt.data -F comm,pid,tid,cpu,time,event,ip,sym,dso \
	> "$out/perfdemo-pidtid.txt"
perf script -i mt.data -F comm,tid,time,ip,sym > "$out/perfdemo-nodso.txt"
perf script -i dwarf.data > "$out/perfdemo-dwarf.txt"
perf script -i dwarf.data --inline > dwarf-inline.txt
perf script -i dwarf.data --no-inline > "$out/perfdemo-dwarf-noinline.txt"
perf script -i kernel.data > "$out/perfdemo-kernel.txt"
perf script -i 2events.data > "$out/perfdemo-2events.txt"
perf script -i modifiers.data > "$out/perfdemo-modifiers.txt"
perf script -i period.data -F comm,pid,tid,cpu,time,period,event,ip,sym,dso \
	> "$out/perfdemo-period.txt"
# Derived, not edited: the same output without its final blank line and
# newline, so that the last record ends at end of file.
head -c -2 "$out/perfdemo-g.txt" > "$out/perfdemo-g-noeol.txt"

ls /tmp/perf-*.map 2>/dev/null | sort > maps.after || true
comm -13 maps.before maps.after | while read -r m; do rm -f "$m"; done

# The shape must be there; a run too short or a perf that cannot unwind
# shows up here rather than as a silently thinner sample.
fail=0
need() {	# need FILE PATTERN
	if ! grep -q -e "$2" "$out/$1"; then
		echo "make.sh: $1: no '$2'" >&2
		fail=1
	fi
}
for f in perfdemo-g.txt perfdemo-pidtid.txt perfdemo-2events.txt; do
	for p in ping pong recurse hot_leaf shared_work caller_a caller_b \
	    caller_c 'my worker' 'java pool 2' perfdemo-child kernel.kallsyms; do
		need "$f" "$p"
	done
done
need perfdemo-dwarf.txt '(inlined)'
need perfdemo-kernel.txt 'kernel.kallsyms'
need perfdemo-2events.txt 'task-clock:'
need perfdemo-modifiers.txt 'cpu-clock:u:'
need perfdemo-modifiers.txt 'cpu-clock:k:'
cmp -s dwarf-inline.txt "$out/perfdemo-dwarf.txt" ||
	echo "make.sh: note: perf script --inline differs from the default" >&2
[ "$(tail -c 2 "$out/perfdemo-g.txt" | od -An -c | tr -d ' ')" = '\n\n' ] ||
	{ echo "make.sh: perfdemo-g.txt does not end in a blank line" >&2; fail=1; }
wc -c "$out"/perfdemo-*.txt
exit $fail
