#!/bin/sh
# Regenerate the Go pprof samples in samples/go/ from src/ (our own program).
#
# Needs Debian's golang-go (standard library only, no network):
#   go version go1.19.8 linux/amd64
# Usage: samples/go/make.sh            (run from anywhere)
#
# What it does:
#   go build -trimpath -o $WORK/proftool-sample .   (in samples/go/src)
#   $WORK/proftool-sample $WORK                     writes cpu.pb.gz heap.pb.gz goroutine.pb.gz
#   gunzip -c cpu.pb.gz > cpu.pb                    the same CPU profile, raw protobuf
# -trimpath makes the file names in the profiles module-relative
# ("proftool-sample/main.go", "runtime/proc.go") instead of absolute paths.
# The binary is built in a fixed directory (default /tmp/proftool-go-sample) so
# that the main mapping's file name is always /tmp/proftool-go-sample/proftool-sample.
# CPU samples vary from run to run (timing); the set of functions does not.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/proftool-go-sample}

export GOFLAGS=-buildvcs=false GOPROXY=off GO111MODULE=on
export GOCACHE=${GOCACHE:-$WORK/gocache}

rm -rf "$WORK/out"
mkdir -p "$WORK/out"
go version
(cd "$here/src" && go vet . && go build -trimpath -o "$WORK/proftool-sample" .)
"$WORK/proftool-sample" "$WORK/out"

for f in cpu.pb.gz heap.pb.gz goroutine.pb.gz; do
	cp "$WORK/out/$f" "$here/$f"
done
gunzip -c "$here/cpu.pb.gz" > "$here/cpu.pb"
ls -l "$here"/*.pb.gz "$here"/cpu.pb
