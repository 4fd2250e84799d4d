#!/bin/sh
test_description='URL inputs: a Go program serving net/http/pprof on 127.0.0.1'
. "$(dirname "$0")/lib.sh"

if ! command -v go >/dev/null 2>&1; then
	test_skip 'URL inputs' 'no go to build the pprof server (Debian package golang-go)'
	test_done
	exit
fi

GOCACHE=$(mktemp -d "${TMPDIR:-/tmp}/proftool-gocache.XXXXXX")
export GOCACHE
server=
trap 'test -n "$server" && kill $server 2>/dev/null; rm -rf "$TRASH" "$GOCACHE"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

# the server listens on 127.0.0.1 only, on a port of the kernel's choosing, and ends by
# itself after 120 seconds whatever happens here
# the file names the Go binary records: the source folder's real path (a distcheck
# build's SRCDIR has ".." in it)
server_src=$(cd "$SRCDIR/tests/record/pprof-server" && pwd -P)
(cd "$server_src" && go build -o "$TRASH/server" .) || {
	test_skip 'URL inputs' 'the pprof server does not build'
	test_done
	exit
}
"$TRASH/server" "$TRASH/addr" 120 &
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

test_expect_success 'the CPU profile of a running program, by URL, with --seconds' '
	"$PROFTOOL" top -n 0 --seconds 2 "$U/profile" >out &&
	grep -q "^Type: cpu" out &&
	awk "NR > 4 && \$6 ~ /^main\\./ { print; exit }" out >first &&
	test "$(sed "s/.*  //" first)" = "main.burnCPU ($server_src/main.go)"'

test_expect_success 'the heap profile: the function that keeps memory alive' '
	"$PROFTOOL" top --format csv -n 0 --sample-index inuse_space "$U/heap" >out &&
	grep -q "^\"main.growHeap\"," out'

test_expect_success 'the goroutine profile counts the parked goroutines' '
	"$PROFTOOL" top --format csv -n 0 --cum "$U/goroutine" >out &&
	grep "^\"main.parked\"," out | cut -d, -f6 | grep -x 10'

test_expect_success 'a URL works with every command that reads a profile' '
	"$PROFTOOL" info "$U/heap" >out && grep -q "^Format: pprof" out &&
	"$PROFTOOL" convert --to collapsed -o heap.collapsed "$U/heap" && test -s heap.collapsed'

test_expect_success '--save keeps the bytes fetched: the same report from the file' '
	"$PROFTOOL" top --format csv -n 0 --save kept.pb.gz "$U/goroutine" >from-url 2>err &&
	grep -qx "Saved profile in kept.pb.gz" err &&
	"$PROFTOOL" top --format csv -n 0 kept.pb.gz >from-file &&
	test_cmp from-url from-file &&
	"$PROFTOOL" info kept.pb.gz | grep -q "^Format: pprof"'

# go tool pprof names a fetched profile pprof.[BINARY.]TYPES.NNN.pb.gz in $PPROF_TMPDIR
test_expect_success 'PROFTOOL_SAVE_DIR keeps every fetch, named as go tool pprof names it' '
	mkdir ours theirs &&
	PROFTOOL_SAVE_DIR=ours "$PROFTOOL" info "$U/heap" >/dev/null 2>err &&
	PROFTOOL_SAVE_DIR=ours "$PROFTOOL" top "$U/heap" >/dev/null 2>>err &&
	PPROF_TMPDIR=theirs go tool pprof -raw "$U/heap" >/dev/null 2>&1 &&
	ls theirs >names && test "$(wc -l <names)" = 1 &&
	second=$(sed "s/001\.pb\.gz\$/002.pb.gz/" names) &&
	ls ours >got && printf "%s\n%s\n" "$(cat names)" "$second" >want &&
	test_cmp want got &&
	grep -qx "Saved profile in ours/$(cat names)" err &&
	"$PROFTOOL" top --format csv -n 0 --sample-index inuse_space "ours/$(cat names)" | grep -q "^\"main.growHeap\"," &&
	"$PROFTOOL" info "$U/heap" >/dev/null 2>err && test ! -s err'

test_expect_success 'on a terminal, stderr says what is fetched and for how long; a pipe gets nothing' '
	python3 "$SRCDIR/tests/on-terminal.py" --stderr-tty "$PROFTOOL" info "$U/profile?seconds=1" >out &&
	grep -qx "rc=0" out &&
	grep -q "^tty: Fetching profile over HTTP from $U/profile?seconds=1 (1 s)" out &&
	python3 "$SRCDIR/tests/on-terminal.py" --stderr-tty "$PROFTOOL" info --seconds 1 "$U/profile" >out &&
	grep -q "^tty: Fetching profile over HTTP from $U/profile?seconds=1 (1 s)" out &&
	python3 "$SRCDIR/tests/on-terminal.py" --stderr-tty "$PROFTOOL" info "$U/heap" >out &&
	grep -q "^tty: Fetching profile over HTTP from $U/heap\r*\$" out &&
	"$PROFTOOL" info "$U/heap" >/dev/null 2>err && test ! -s err'

# PROFTOOL_PROGRESS_DELAY=0 (HACKING): the wait shows at once, as it does past 2 s
test_expect_success 'a capture on a terminal shows the seconds waited of those asked; a pipe and --quiet do not' '
	PROFTOOL_PROGRESS_DELAY=0 python3 "$SRCDIR/tests/on-terminal.py" --stderr-tty \
		"$PROFTOOL" info --seconds 2 "$U/profile" >out &&
	grep -qx "rc=0" out &&
	grep -aq "proftool: fetching $U/profile?seconds=2: [01] s of 2 s" out &&
	PROFTOOL_PROGRESS_DELAY=0 python3 "$SRCDIR/tests/on-terminal.py" --stderr-tty \
		"$PROFTOOL" info --quiet --seconds 1 "$U/profile" >out &&
	grep -qx "rc=0" out && grep -q "^tty: Fetching profile over HTTP" out &&
	! grep -aq "proftool: fetching" out &&
	PROFTOOL_PROGRESS_DELAY=0 "$PROFTOOL" info --seconds 1 "$U/profile" >/dev/null 2>err &&
	test ! -s err'

test_expect_success 'a --save that cannot be written fails in one line; nothing is left behind' '
	test_expect_code 1 "$PROFTOOL" info --save nodir/x.pb.gz "$U/heap" &&
	{ test "$(wc -l <err)" = 1 && grep -q "^proftool: nodir/x.pb.gz: " err || { cat err; exit 1; }; } &&
	test ! -e nodir'

test_expect_success 'an HTTP error is one line with its status' '
	test_expect_code 1 "$PROFTOOL" top "$U/nothing-here" &&
	test_one_line_err "proftool: $U/nothing-here: cannot fetch: HTTP status 404"'

test_expect_success 'the response is bounded by --max-input-size' '
	test_expect_code 1 "$PROFTOOL" top --max-input-size 64 "$U/heap" &&
	test_one_line_err "proftool: $U/heap: response larger than 64 bytes (see --max-input-size)"'

test_expect_success '--timeout bounds the wait for a slow endpoint' '
	test_expect_code 1 "$PROFTOOL" top --seconds 20 --timeout 1 "$U/profile" &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^proftool: $U/profile: cannot fetch: .*timed out" err'

test_expect_success 'a refused connection is one line with curl'\''s message' '
	kill $server && wait $server 2>/dev/null; server= &&
	test_expect_code 1 "$PROFTOOL" top "$U/heap" &&
	test "$(wc -l <err)" = 1 && grep -q "^proftool: $U/heap: cannot fetch: " err'

test_expect_success 'bad --seconds and --timeout values are usage errors' '
	test_expect_code 2 "$PROFTOOL" top --seconds 0 "$U/profile" &&
	test_one_line_err "proftool: top: bad number of seconds '\''0'\'' for --seconds (see '\''proftool top --help'\'')" &&
	test_expect_code 2 "$PROFTOOL" top --timeout x "$U/profile" &&
	test_one_line_err "proftool: top: bad number of seconds '\''x'\'' for --timeout (see '\''proftool top --help'\'')"'

test_done
