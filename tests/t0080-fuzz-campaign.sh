#!/bin/sh
test_description='tests/fuzz/campaign.sh counts each harness CPU time, resumes, reports findings'
. "$(dirname "$0")/lib.sh"

CAMPAIGN=$SRCDIR/tests/fuzz/campaign.sh

# fake HARNESS: a stand-in for a libFuzzer binary named HARNESS in ./bin. Each run spends
# about 0.2 s of CPU, checks the options campaign.sh gives, and says it ran 7 inputs; with
# FAKE_FIND set it leaves an artifact and exits 77, as libFuzzer does on a crash.
fake () {
	mkdir -p bin &&
	cat >"bin/$1" <<-\EOF
	#!/bin/sh
	for a in "$@"; do
		case $a in
		-artifact_prefix=*) prefix=${a#*=} ;;
		-max_total_time=*) echo "$a" >>"$FAKE_LOG" ;;
		-*) ;;
		*) ls "$a" >/dev/null || exit 3 ;;
		esac
	done
	awk 'BEGIN { for (i = 0; i < 1e7; i++) s += i * i }'
	echo "stat::number_of_executed_units: 7"
	if test -n "$FAKE_FIND"; then
		echo boom >"${prefix}crash-1"
		exit 77
	fi
	EOF
	chmod +x "bin/$1"
}

test_expect_success 'a harness runs until its CPU time reaches the target, from its seeds' '
	fake fuzz-collapsed &&
	FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 1 bin/fuzz-collapsed >out &&
	test -f work/fuzz-collapsed/corpus/crafted-names.collapsed &&
	test -f work/fuzz-collapsed/corpus/perfdemo-g.collapsed &&
	awk "{ s += \$2; if (\$2 < 0.05 || \$3 != 0 || \$4 != 7) bad++ }
		END { exit !(s >= 1 && s < 2 && !bad) }" work/ledger &&
	runs=$(wc -l <work/ledger) &&
	test "$runs" -ge 2 &&
	test "$(wc -l <chunks)" = "$runs" &&
	echo "-max_total_time=10" >expect &&
	sort -u chunks >got && test_cmp expect got &&
	grep -q "^fuzz-collapsed: 1 CPU seconds in $runs runs, $((7 * runs)) inputs, 0 findings$" out'

test_expect_success 'a campaign run again goes on from its ledger; a higher target runs more' '
	fake fuzz-collapsed &&
	FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 1 bin/fuzz-collapsed >/dev/null &&
	cp work/ledger before &&
	FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 1 bin/fuzz-collapsed >/dev/null &&
	test_cmp before work/ledger &&
	FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 2 bin/fuzz-collapsed >/dev/null &&
	test "$(wc -l <work/ledger)" -gt "$(wc -l <before)" &&
	awk "{ s += \$2 } END { exit !(s >= 2) }" work/ledger'

test_expect_success 'harnesses share a work folder, each with its own corpus and sum' '
	fake fuzz-collapsed && fake fuzz-perf &&
	FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 1 bin/fuzz-collapsed bin/fuzz-perf >out &&
	test -f work/fuzz-perf/corpus/crafted-events.txt &&
	! test -f work/fuzz-perf/corpus/crafted-names.collapsed &&
	test "$(grep -c "^fuzz-.*: 1 CPU seconds in .* 0 findings$" out)" = 2'

test_expect_success 'a finding stops its harness, is kept in fuzz-findings and fails the run' '
	fake fuzz-pprof &&
	! FAKE_FIND=1 FAKE_LOG=$PWD/chunks sh "$CAMPAIGN" "$SRCDIR" work 5 bin/fuzz-pprof >out &&
	test "$(wc -l <work/ledger)" = 1 &&
	grep -q "^finding: fuzz-pprof, exit 77, log work/fuzz-pprof/log\." out &&
	grep -q "^fuzz-pprof: .* in 1 runs, 7 inputs, 1 findings$" out &&
	echo boom >expect && test_cmp expect fuzz-findings/crash-1'

test_expect_success 'a run that counts no CPU time or no input stops its harness' '
	mkdir bin && printf "#!/bin/sh\necho stat::number_of_executed_units: 3\n" >bin/fuzz-perf &&
	printf "#!/bin/sh\nawk \"BEGIN { for (i = 0; i < 1e7; i++) s += i }\"\n" >bin/fuzz-pprof &&
	chmod +x bin/fuzz-perf bin/fuzz-pprof &&
	! sh "$CAMPAIGN" "$SRCDIR" work 1 bin/fuzz-perf bin/fuzz-pprof >out 2>err &&
	test "$(wc -l <work/ledger)" = 2 &&
	grep -q "^campaign.sh: fuzz-perf: a run of no input or no CPU time, see work/fuzz-perf/log\." err &&
	grep -q "^campaign.sh: fuzz-pprof: a run of no input or no CPU time" err'

test_expect_success 'too few operands is a usage error' '
	test_expect_code 2 sh "$CAMPAIGN" "$SRCDIR" work 1 2>err &&
	grep -q "^usage: campaign.sh SRCDIR WORKDIR SECONDS FUZZER" err'

test_done
