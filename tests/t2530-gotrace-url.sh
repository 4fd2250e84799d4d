#!/bin/sh
test_description='Go execution traces by URL: /debug/pprof/trace of a Go program serving net/http/pprof on 127.0.0.1'
. "$(dirname "$0")/lib.sh"

if ! command -v go >/dev/null 2>&1; then
	test_skip 'trace URL inputs' 'no go to build the pprof server (Debian package golang-go)'
	test_done
	exit
fi

GOCACHE=$(mktemp -d "${TMPDIR:-/tmp}/proftool-gocache.XXXXXX")
export GOCACHE
server=
trap 'test -n "$server" && kill $server 2>/dev/null; rm -rf "$TRASH" "$GOCACHE"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

# tests/record/pprof-server (t8010's): listens on 127.0.0.1 only, on a port of the
# kernel's choosing, ends by itself after 60 seconds; 10 goroutines main.parked wait
# on a channel from the start, main.main.func1 burns CPU without end
server_src=$(cd "$SRCDIR/tests/record/pprof-server" && pwd -P)
(cd "$server_src" && go build -o "$TRASH/server" .) || {
	test_skip 'trace URL inputs' 'the pprof server does not build'
	test_done
	exit
}
"$TRASH/server" "$TRASH/addr" 60 &
server=$!
i=0
while ! test -s "$TRASH/addr" && test $i -lt 100; do
	sleep 0.1
	i=$((i + 1))
done
A=$(cat "$TRASH/addr")
case $A in
127.0.0.1:*) ;;
*) echo "Bail out! the pprof server did not start"; exit 1 ;;
esac
U=http://$A/debug/pprof

test_expect_success 'a trace by URL is detected, its version named, one second by default' '
	"$PROFTOOL" info "$U/trace" >out &&
	grep -qx "Format: gotrace" out &&
	grep -qx "Meta go_trace_version: 1.19" out &&
	grep -q "^Duration: [01]\." out'

test_expect_success '--seconds asks the server for that long a trace' '
	"$PROFTOOL" info --seconds 2 "$U/trace" >out &&
	grep -q "^Duration: [23]\." out'

test_expect_success 'goroutines on a trace URL: the parked goroutines never ran, the burner ran' '
	"$PROFTOOL" goroutines --format csv "$U/trace" >c &&
	awk -F, "\$1 == \"\\\"(never ran in the trace)\\\"\" && \$4 >= 10 { ok = 1 } END { exit !ok }" c &&
	awk -F, "\$1 == \"\\\"main.main.func1\\\"\" && \$4 == 1 && \$5 > 0 { ok = 1 } END { exit !ok }" c'

test_done
