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
#
# The text dumps come from src/dumps (built with CGO_ENABLED=0: a cgo binary never
# reports a deadlock, so the fatal-error sample needs a pure Go one):
#   dumps $WORK/text                 writes goroutine.debug2.txt, .debug1.txt,
#                                    goroutine-text.pb.gz (debug=0, the same moment),
#                                    threadcreate/block/mutex/heap.debug1.txt, heap-text.pb.gz
#   DUMPS_SIGQUIT=1 DUMPS_WORKERS=5 dumps $WORK/quit   the runtime's SIGQUIT dump (stderr)
#   dumps panic / GOTRACEBACK=all dumps repanic / GOTRACEBACK=crash dumps panic /
#   dumps deadlock                   crash output on stderr (exit status 2, or SIGABRT)
# DUMPS_WAIT=2m waits that long before dumping (go1.19 printed no wait times even so).
# `make.sh text` makes only the text dumps (the .pb.gz samples above stay as they are).
#
# The execution traces come from src/trace (runtime/trace.Start to a file):
#   trace blocking trace-blocking.trace   channels, a mutex, select, loopback TCP, fsync
#   trace many trace-many.trace           2000 short goroutines that send on one channel
#   trace gc trace-gc.trace               4 goroutines allocating with GOGC=10: GC cycles,
#                                         stop-the-world phases, sweeps and mark assists
# (TRACES="gc" makes only the ones it names)
# `make.sh trace` makes only those; tests/ref/gotrace/make.sh then remakes the
# go tool trace -pprof references the tests compare with.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/proftool-go-sample}

export GOFLAGS=-buildvcs=false GOPROXY=off GO111MODULE=on
export GOCACHE=${GOCACHE:-$WORK/gocache}

rm -rf "$WORK/out"
mkdir -p "$WORK/out"
go version
if [ "${1:-}" = trace ]; then
	(cd "$here/src" && go vet ./trace && go build -trimpath -o "$WORK/trace" ./trace)
	for k in ${TRACES:-blocking many gc}; do
		"$WORK/trace" $k "$here/trace-$k.trace"
	done
	ls -l "$here"/*.trace
	exit 0
fi
if [ "${1:-}" != text ]; then
(cd "$here/src" && go vet . && go build -trimpath -o "$WORK/proftool-sample" .)
"$WORK/proftool-sample" "$WORK/out"

for f in cpu.pb.gz heap.pb.gz goroutine.pb.gz; do
	cp "$WORK/out/$f" "$here/$f"
done
gunzip -c "$here/cpu.pb.gz" > "$here/cpu.pb"
ls -l "$here"/*.pb.gz "$here"/cpu.pb
fi

# Go's text dumps
(cd "$here/src" && go vet ./dumps && CGO_ENABLED=0 go build -trimpath -o "$WORK/dumps" ./dumps)
rm -rf "$WORK/text" "$WORK/quit"
mkdir -p "$WORK/text" "$WORK/quit"
"$WORK/dumps" "$WORK/text" "${DUMPS_WAIT:-0s}"
for f in goroutine.debug2.txt goroutine.debug1.txt goroutine-text.pb.gz \
	threadcreate.debug1.txt block.debug1.txt mutex.debug1.txt heap.debug1.txt \
	heap-text.pb.gz; do
	cp "$WORK/text/$f" "$here/$f"
done
ulimit -c 0
crash() { # crash OUTPUT [ENV=VALUE...] ARG: the program's stderr, whatever its status
	out=$1
	shift
	env "$@" >/dev/null 2>"$here/$out" || true
}
crash sigquit.txt DUMPS_SIGQUIT=1 DUMPS_WORKERS=5 "$WORK/dumps" "$WORK/quit"
crash panic.txt "$WORK/dumps" panic
crash repanic.txt GOTRACEBACK=all "$WORK/dumps" repanic
crash crash.txt GOTRACEBACK=crash "$WORK/dumps" panic
crash deadlock.txt "$WORK/dumps" deadlock
ls -l "$here"/*.txt
