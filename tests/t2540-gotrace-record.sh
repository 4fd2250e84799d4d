#!/bin/sh
test_description='record --mode trace: a Go test'\''s execution trace (go test -trace), kept or read as its blocking profiles'
. "$(dirname "$0")/lib.sh"

R=$SRCDIR/tests/record

test_expect_success '--mode trace is in record --help' '
	"$PROFTOOL" record --help >out &&
	grep -q -- "--mode cpu|wall|object|trace" out'

test_expect_success '--mode trace with another profiler than go: one line, exit 1' '
	test_expect_code 1 "$PROFTOOL" record --mode trace --profiler perf -- true &&
	test_one_line_err "proftool: record: --mode trace needs the go profiler (go test or a Go test binary; a running program'\''s trace is a URL, http://HOST/debug/pprof/trace)"'

test_expect_success '-o with a suffix no writer takes is still a usage error' '
	test_expect_code 2 "$PROFTOOL" record --mode trace -o t.nothing -- go test . &&
	grep -q "no format for the suffix of '\''t.nothing'\''" err'

if ! command -v go >/dev/null 2>&1; then
	test_skip 'record --mode trace under go test' 'no go (Debian package golang-go)'
	test_done
	exit
fi

# go keeps its build cache here, not in the home folder
GOCACHE=$(mktemp -d "${TMPDIR:-/tmp}/proftool-gocache.XXXXXX")
export GOCACHE
trap 'rm -rf "$TRASH" "$GOCACHE"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

# "name flat cum" per function in nanoseconds, from go tool pprof -top -unit=ns and from
# our CSV (as t2510)
pprof_rows () {
	awk 'NF >= 6 && $2 ~ /%$/ {
		name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		f = $1; c = $4; sub(/ns$/, "", f); sub(/ns$/, "", c)
		print name, f, c }' "$1" | LC_ALL=C sort
}
our_rows () {
	awk 'NR > 1 {
		s = $0; sub(/^"/, "", s); i = index(s, "\","); name = substr(s, 1, i - 1)
		n = split(substr(s, i + 2), v, ","); print name, v[3], v[5] }' | LC_ALL=C sort
}

GT=$TRASH/gt
K=$TRASH/kept.trace
# tests/record/gotrace-test: TestBlock receives 20 times from a sender that sleeps 2 ms
# before each send, so waitForToken waits at least about 40 ms on the channel
test_expect_success 'go test -trace: the trace is kept as Go wrote it with -o FILE.trace' '
	cp -R "$R/gotrace-test" "$GT" &&
	(cd "$GT" && "$PROFTOOL" record --mode trace -o "$K" -- go test . >"$OLDPWD/out") &&
	grep -q "^ok" out &&
	test "$(head -c 13 "$K")" = "go 1.19 trace"'

for t in net sync syscall sched; do
	test_expect_success "the kept trace: $t equals go tool trace -pprof=$t on it" '
		go tool trace -pprof='$t' "$K" >p.pb &&
		TZ=UTC go tool pprof -top -unit=ns -nodecount=100000 -nodefraction=0 \
			-edgefraction=0 -sample_index=delay p.pb >top 2>/dev/null &&
		pprof_rows top >expect &&
		"$PROFTOOL" top -n 0 --format csv --sample-index '$t' "$K" | our_rows >actual &&
		test_cmp expect actual'
done

test_expect_success 'the kept trace: waitForToken waited on its channel at least 30 ms' '
	"$PROFTOOL" top -n 0 --format csv --sample-index sync "$K" |
		awk -F, "/^\"example.com\\/blockpkg.waitForToken\"/ { ok = \$6 >= 30000000 }
			END { exit !ok }"'

test_expect_success 'without -o: top of the sync profile after the test output' '
	(cd "$GT" && "$PROFTOOL" record --mode trace -- go test . >"$OLDPWD/out") &&
	grep -q "^ok" out &&
	grep -qx "Type: sync" out &&
	grep -q "example.com/blockpkg.waitForToken" out'

test_expect_success 'a Go test binary takes -test.trace; -o FILE.svg draws the sync profile' '
	(cd "$GT" && go test -c -o blk.test . ) &&
	(cd "$GT" && "$PROFTOOL" record --mode trace -o "$OLDPWD/t.svg" -- ./blk.test >"$OLDPWD/out") &&
	grep -q "^PASS" out &&
	grep -q "waitForToken" t.svg'

test_done
