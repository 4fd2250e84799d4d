#!/bin/sh
# make.sh: regenerate the go tool trace -pprof references (see COMMANDS); needs go.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in blocking many; do
	for t in net sync syscall sched; do
		go tool trace -pprof=$t "$top/samples/go/trace-$s.trace" >"$tmp/p.pb"
		TZ=UTC go tool pprof -top -unit=ns -nodecount=100000 -nodefraction=0 \
			-edgefraction=0 -sample_index=delay "$tmp/p.pb" \
			>"$here/trace-$s.$t.pprof-top.txt" 2>/dev/null
	done
done
