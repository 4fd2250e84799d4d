#!/bin/sh
# Regenerate the `go tool pprof` reference outputs in tests/ref/pprof/ from the
# committed samples in samples/go/. Needs Go (Debian golang-go; made with
# go version go1.19.8 linux/amd64, whose pprof is the one vendored in
# /usr/lib/go-1.19/src/cmd/vendor/github.com/google/pprof). No network.
#
# Usage: tests/ref/pprof/regen.sh      (GO=/path/to/go to use another go)
#
# Naming: <sample>.pprof-<report>[.cum][.<sample_index>][.all].txt
#   - plain files are what `go tool pprof -top FILE` prints with its default
#     trimming (-nodefraction=0.005 -edgefraction=0.001; may print
#     "Dropped N nodes (cum <= X)"); -nodecount=100000 is given so that no
#     "Showing top N nodes" cut can happen;
#   - ".all" files add -nodefraction=0 -edgefraction=0: every node is listed.
# Every command is listed in the COMMANDS file written next to the outputs.
# TZ=UTC so that the "Time:" header line does not depend on the local zone.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../../samples/go" && pwd)
GO=${GO:-go}
export TZ=UTC GOFLAGS= GOPROXY=off
# Keep pprof from looking for the profiled binary or a symbolization server.
export PPROF_BINARY_PATH=/nonexistent

cd "$samples"
: > "$here/COMMANDS"
run() {
	out=$1
	shift
	echo "cd samples/go && TZ=UTC go tool pprof $* > tests/ref/pprof/$out" >> "$here/COMMANDS"
	"$GO" tool pprof "$@" > "$here/$out"
}

all="-nodefraction=0 -edgefraction=0"
n="-nodecount=100000"

# CPU profile (cpu.pb.gz; cpu.pb is the same bytes gunzipped).
run cpu.pprof-top.txt             -top $n cpu.pb.gz
run cpu.pprof-top.cum.txt         -top -cum $n cpu.pb.gz
run cpu.pprof-top.all.txt         -top $n $all cpu.pb.gz
run cpu.pprof-top.cum.all.txt     -top -cum $n $all cpu.pb.gz
run cpu.pprof-top.samples.txt     -top $n -sample_index=samples cpu.pb.gz
run cpu.pprof-top.lines.txt       -top -lines $n $all cpu.pb.gz
run cpu.pprof-top.noinlines.txt   -top -noinlines $n $all cpu.pb.gz
# -lines and -addresses: a node per "func file:line" / per address, trimmed and full
run cpu.pprof-top.lines.trim.txt      -top -lines $n cpu.pb.gz
run cpu.pprof-top.cum.lines.txt       -top -cum -lines $n $all cpu.pb.gz
run cpu.pprof-top.lines.nodecount4.txt -top -lines -nodecount=4 cpu.pb.gz
run cpu.pprof-top.addresses.txt       -top -addresses $n $all cpu.pb.gz
run cpu.pprof-top.addresses.trim.txt  -top -addresses $n cpu.pb.gz
run cpu.pprof-top.cum.addresses.txt   -top -cum -addresses $n $all cpu.pb.gz
run cpu.pprof-top.tagfocus-alpha.txt -top $n $all -tagfocus=worker=alpha cpu.pb.gz
# label values as frames: -tagroot, -tagleaf (a sample without the label gets <unknown>)
run cpu.pprof-top.tagroot-worker.txt -top $n $all -tagroot=worker cpu.pb.gz
run cpu.pprof-top.tagleaf-worker.txt -top $n $all -tagleaf=worker cpu.pb.gz
run cpu.pprof-top.tagroot-worker.focus-alpha.txt -top $n $all -tagroot=worker -focus=alpha cpu.pb.gz
run heap.pprof-top.tagroot-bytes.tagleaf-bytes.txt -top $n -tagroot=bytes -tagleaf=bytes heap.pb.gz
run goroutine.pprof-top.tagleaf-worker.txt -top $n $all -tagleaf=worker goroutine.pb.gz
run cpu.pprof-traces.txt          -traces cpu.pb.gz
run cpu.pprof-raw.txt             -raw cpu.pb.gz
# -nodecount cuts: fewer rows, the unit and inline marks of the rebuilt graph
run cpu.pprof-top.nodecount3.txt  -top -nodecount=3 cpu.pb.gz
run cpu.pprof-callgrind.txt       -callgrind cpu.pb.gz
run cpu.pprof-peek.hotLeaf.txt    -peek 'main\.hotLeaf$' cpu.pb.gz
run cpu.pprof-peek.ping.txt       -peek 'main\.ping$' cpu.pb.gz
# every function, with the (inline) marks of inlined calls
run cpu.pprof-peek.all.txt        -peek . $all cpu.pb.gz
# the source of one function (samples/go/src/main.go), as -list shows it
run cpu.pprof-list.hotLeaf.txt    -list 'main\.hotLeaf$' -trim_path proftool-sample -source_path src cpu.pb.gz
# the raw (not gzipped) protobuf must give the same report
run cpu-raw.pprof-top.txt         -top $n cpu.pb

# -hide / -show that leave some stacks without a frame: those stay in the total
run cpu.pprof-top.hide-main.txt          -top $n -hide=main cpu.pb.gz
run cpu.pprof-top.show-hotLeaf.txt       -top $n -show=hotLeaf cpu.pb.gz
run cpu.pprof-top.lines.show-hotLeaf.txt -top -lines $n -show=hotLeaf cpu.pb.gz
run cpu.pprof-top.files.show-hotLeaf.txt -top -files $n -show=hotLeaf cpu.pb.gz
run cpu.pprof-top.addresses.show-hotLeaf.txt -top -addresses $n -show=hotLeaf cpu.pb.gz

# Heap profile: every sample index, flat and cum order, trimmed and full.
run heap.pprof-top.txt            -top $n heap.pb.gz
run heap.pprof-top.cum.txt        -top -cum $n heap.pb.gz
for i in alloc_objects alloc_space inuse_objects inuse_space; do
	run heap.pprof-top.$i.txt         -top $n -sample_index=$i heap.pb.gz
	run heap.pprof-top.cum.$i.txt     -top -cum $n -sample_index=$i heap.pb.gz
	run heap.pprof-top.$i.all.txt     -top $n $all -sample_index=$i heap.pb.gz
	run heap.pprof-top.cum.$i.all.txt -top -cum $n $all -sample_index=$i heap.pb.gz
done
run heap.pprof-top.cum.nodecount5.txt -top -cum -nodecount=5 heap.pb.gz
run heap.pprof-top.lines.alloc_space.txt     -top -lines $n -sample_index=alloc_space heap.pb.gz
run heap.pprof-top.addresses.alloc_space.txt -top -addresses $n -sample_index=alloc_space heap.pb.gz
run heap.pprof-traces.txt         -traces heap.pb.gz
run heap.pprof-raw.txt            -raw heap.pb.gz

# Goroutine profile.
run goroutine.pprof-top.txt       -top $n goroutine.pb.gz
run goroutine.pprof-top.cum.txt   -top -cum $n goroutine.pb.gz
run goroutine.pprof-top.lines.txt -top -lines $n goroutine.pb.gz
run goroutine.pprof-traces.txt    -traces goroutine.pb.gz
run goroutine.pprof-raw.txt       -raw goroutine.pb.gz

run cpu.pprof-tags.txt            -tags cpu.pb.gz
run heap.pprof-tags.txt           -tags heap.pb.gz
run heap.pprof-tags.sample_index-alloc_space.txt -tags -sample_index=alloc_space heap.pb.gz
run heap.pprof-tags.focus-main.txt -tags -focus=main heap.pb.gz
run heap-text.pprof-tags.txt      -tags heap-text.pb.gz
run goroutine.pprof-tags.txt      -tags goroutine.pb.gz

# The filter matrix of t3030 (filters.cases: NAME SAMPLE PPROF-OPTIONS...): shares of
# the whole profile, "Active filters:" lines, tagfocus/tagignore ranges
while read -r name sample args; do
	# shellcheck disable=SC2086
	run "$name" -top $n $args "$sample"
done < "$here/filters.cases"

if ! cmp -s "$here/cpu.pprof-top.txt" "$here/cpu-raw.pprof-top.txt"; then
	echo "regen.sh: cpu.pb and cpu.pb.gz give different reports" >&2
	exit 1
fi
"$GO" version >> "$here/COMMANDS"
