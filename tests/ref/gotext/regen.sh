#!/bin/sh
# Regenerate the `go tool pprof` reference outputs in tests/ref/gotext/ from the Go
# text dump samples in samples/go/ (made with go version go1.19.8 linux/amd64; no
# network). Every command is listed in COMMANDS next to the outputs.
#   goroutine-text.pprof-top.all.txt   -top of the debug=0 goroutine profile written at
#                                      the same moment as goroutine.debug2/debug1.txt
#   <name>.debug1.pprof-raw.txt        -raw of the debug=1 text profiles pprof reads
#                                      (it cannot read threadcreate's empty stack)
# Usage: tests/ref/gotext/regen.sh      (GO=/path/to/go to use another go)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../../samples/go" && pwd)
GO=${GO:-go}
export TZ=UTC GOFLAGS= GOPROXY=off PPROF_BINARY_PATH=/nonexistent

cd "$samples"
: >"$here/COMMANDS"
run() {
	out=$1
	shift
	echo "(cd samples/go && $*) > tests/ref/gotext/$out" >>"$here/COMMANDS"
	"$@" >"$here/$out" 2>/dev/null
}
run goroutine-text.pprof-top.all.txt $GO tool pprof -top -nodefraction=0 -edgefraction=0 \
	-nodecount=100000 goroutine-text.pb.gz
for f in block mutex heap; do
	run $f.debug1.pprof-raw.txt $GO tool pprof -raw $f.debug1.txt
done
