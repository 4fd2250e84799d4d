#!/bin/sh
# go-newer.sh: installed as `go` on PATH by t2550, it stands for a go whose tool reads a
# trace version this machine's go does not: `go tool trace -pprof=TYPE FILE` on a trace
# whose header says "go 1.99 trace" runs the real go ($REAL_GO) on a copy of it with the
# header of the format its events are in (1.19); anything else goes to the real go as is.
# It logs each call to $GO_LOG.
set -eu
echo "$*" >>"${GO_LOG:-/dev/null}"
if [ "$#" = 4 ] && [ "$1" = tool ] && [ "$2" = trace ]; then
	f=$4
	if [ "$(head -c 13 "$f")" = "go 1.99 trace" ]; then
		tmp=$(mktemp "${TMPDIR:-/tmp}/go-newer.XXXXXX")
		trap 'rm -f "$tmp"' EXIT
		{ printf 'go 1.19 trace\0\0\0'; tail -c +17 "$f"; } >"$tmp"
		"$REAL_GO" tool trace "$3" "$tmp"
		exit
	fi
fi
exec "$REAL_GO" "$@"
