#!/bin/sh
# gen-gotrace.sh OUT MB: a Go execution trace of about MB megabytes, written by Debian's
# go running the program that made samples/go/trace-*.trace in its "load" mode (rounds
# of a 64-goroutine channel ring, a contended mutex and short goroutines until the file
# is that large).
set -eu
out=$1
mb=$2
src=$(cd "$(dirname "$0")/.." && pwd)/samples/go/src
bin=$(mktemp -d "${TMPDIR:-/tmp}/proftool-gotrace-gen.XXXXXX")
trap 'rm -rf "$bin"' EXIT
export GOFLAGS=-buildvcs=false GOPROXY=off GO111MODULE=on GOCACHE="$bin/cache"
(cd "$src" && go build -trimpath -o "$bin/trace" ./trace)
TRACE_MB=$mb "$bin/trace" load "$out"
