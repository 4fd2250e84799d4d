#!/bin/sh
test_description='inputs crafted against the cost of a report stay linear'
. "$(dirname "$0")/lib.sh"

MEASURE=${BUILDDIR:-$SRCDIR}/bench/measure
awk -v D=20000 -v L=20000 -f "$SRCDIR/tests/deep-chain.awk" >"$TRASH/deep.cpuprofile"

test_expect_success 'a 20,000-deep chain with 20,000 sampled leaves: pprof layout right' '
	"$PROFTOOL" top --style pprof -n 2 --sample-index samples "$TRASH/deep.cpuprofile" >out &&
	grep -qx "Showing nodes accounting for 0, 0% of 20000 total" out &&
	grep -qx "Showing top 2 nodes out of 19999" out &&
	test "$(sed -n "\$p" out)" = "         0     0%     0%      20000   100%  chain100"'

test_expect_success 'the same graph as the plain table: every chain function has all of it' '
	"$PROFTOOL" top --format csv -n 0 --sample-index samples "$TRASH/deep.cpuprofile" >csv &&
	test "$(grep -c "^\"chain[0-9]*\",\"x.js\",[0-9]*,0,0.0000,20000," csv)" = 19999'

if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	test_expect_success 'top --style pprof of it: within 1 s of CPU (one walk of the tree)' '
		set -- $("$MEASURE" -- "$PROFTOOL" top --style pprof --sample-index samples "$TRASH/deep.cpuprofile" 2>/dev/null) &&
		test "$3" = 0 &&
		awk -v c="$4" "BEGIN { exit !(c < 1) }" || { echo "$4 s of CPU"; exit 1; }'
else
	test_skip 'top --style pprof of it: within 1 s of CPU' 'needs bench/measure and a plain build'
fi

test_done
