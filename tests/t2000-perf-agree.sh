#!/bin/sh
test_description='perf script -> collapsed agrees with stackcollapse-perf.pl (tests/ref/perf)'
. "$(dirname "$0")/lib.sh"

P=$SAMPLES/perf
R=$REF/perf

# The one fault of stackcollapse-perf.pl these samples hit everywhere: its lazy header
# regex reads the comm "java pool 2" as comm "java pool", pid "?", tid "2". proftool
# parses the ids from the right (documented in the man page), so the reference is
# corrected for that thread with its real ids, taken from the perf text by awk.
fixed_ref () {	# fixed_ref SAMPLE REFFILE
	jp=$(awk '/^java pool 2 /{print $4; exit}' "$P/$1.txt")
	case $jp in
	*/*) pid=${jp%/*} tid=${jp#*/} ;;
	*) pid='?' tid=$jp ;;
	esac
	sed -e "s|^java_pool;|java_pool_2;|" \
	    -e "s|^java_pool-?;|java_pool_2-$pid;|" \
	    -e "s|^java_pool-?/2;|java_pool_2-$pid/$tid;|" "$2" | sort
}

# every sample stackcollapse-perf.pl reads as we do, every option
for s in perfdemo-g perfdemo-header perfdemo-task-events perfdemo-mmap-events \
	perfdemo-pidtid perfdemo-period perfdemo-dwarf perfdemo-dwarf-noinline \
	perfdemo-kernel perfdemo-2events perfdemo-modifiers; do
	for o in default pid tid kernel jit all addrs; do
		test_expect_success "$s --$o equals stackcollapse-perf.pl --$o" '
			opt= && test '$o' = default || opt=--'$o'
			fixed_ref '$s' "$R/'$s'.stackcollapse.'$o'.txt" >expect &&
			"$PROFTOOL" convert --to collapsed $opt "$P/'$s'.txt" | sort >actual &&
			test -s actual && test_cmp expect actual'
	done
done

# --event (alias --event-filter) keeps one event, as --event-filter does
for e in 2events:cpu-clock 2events:task-clock modifiers:cpu-clock:u modifiers:cpu-clock:k; do
	s=perfdemo-${e%%:*} ev=${e#*:}
	f=$(echo "$ev" | tr : -)
	test_expect_success "$s --event $ev equals --event-filter=$ev" '
		fixed_ref '$s' "$R/'$s'.stackcollapse.event-filter-'$f'.txt" >expect &&
		"$PROFTOOL" convert --to collapsed --event '$ev' "$P/'$s'.txt" | sort >actual &&
		test_cmp expect actual'
done

test_expect_success '--event-filter is an alias of --event' '
	fixed_ref perfdemo-2events "$R/perfdemo-2events.stackcollapse.event-filter-task-clock.txt" >expect &&
	"$PROFTOOL" convert --to collapsed --event-filter task-clock "$P/perfdemo-2events.txt" | sort >actual &&
	test_cmp expect actual'

# differences on purpose

# perfdemo-g-noeol.txt is perfdemo-g.txt without its final "\n\n": we keep the last
# record, so the answer is stackcollapse-perf.pl's on the complete file.
for o in default pid tid kernel jit all addrs; do
	test_expect_success "a file without a trailing newline keeps its last record (--$o)" '
		opt= && test '$o' = default || opt=--'$o'
		fixed_ref perfdemo-g "$R/perfdemo-g.stackcollapse.'$o'.txt" >expect &&
		"$PROFTOOL" convert --to collapsed $opt "$P/perfdemo-g-noeol.txt" | sort >actual &&
		test_cmp expect actual'
done

test_expect_success 'stackcollapse-perf.pl drops that last record (the reference shows it)' '
	! cmp -s "$R/perfdemo-g.stackcollapse.default.txt" "$R/perfdemo-g-noeol.stackcollapse.default.txt"'

# without -g (frame on the header line; stackcollapse-perf.pl prints nothing)
for o in "" pid tid kernel jit; do
	test_expect_success "no callchains: one frame per sample from the header line (${o:-default})" '
		awk -v opt="'$o'" -f "$SRCDIR/tests/perf/expect-nog.awk" "$P/perfdemo-nog.txt" | sort >expect &&
		test "$(wc -l <expect)" -gt 10 &&
		"$PROFTOOL" convert --to collapsed ${o:+--'$o'} "$P/perfdemo-nog.txt" >actual &&
		test_cmp expect actual'
done

# frames without a dso (stackcollapse-perf.pl drops them: only the comm is left)
for o in "" pid tid; do
	test_expect_success "callchain lines without a dso are kept (${o:-default})" '
		awk -v opt="'$o'" -f "$SRCDIR/tests/perf/expect-nodso.awk" "$P/perfdemo-nodso.txt" | sort >expect &&
		test "$(wc -l <expect)" -gt 10 &&
		"$PROFTOOL" convert --to collapsed ${o:+--'$o'} "$P/perfdemo-nodso.txt" >actual &&
		test_cmp expect actual'
done

test_expect_success 'kernel frames without a dso are not tagged (nothing says they are kernel)' '
	"$PROFTOOL" convert --to collapsed "$P/perfdemo-nodso.txt" >expect &&
	"$PROFTOOL" convert --to collapsed --all "$P/perfdemo-nodso.txt" >actual &&
	test_cmp expect actual'

# options stackcollapse-perf.pl has no equivalent for, checked against its output
test_expect_success '--inline tags exactly the (inlined) frames of perfdemo-dwarf _[i]' '
	fixed_ref perfdemo-dwarf "$R/perfdemo-dwarf.stackcollapse.default.txt" >expect &&
	"$PROFTOOL" convert --to collapsed --inline "$P/perfdemo-dwarf.txt" >tagged &&
	sed "s/_\[i\]//g" tagged | sort >actual &&
	test_cmp expect actual &&
	awk "/ \(inlined\)\$/ { s = \$2; sub(/\+0x[0-9a-f]+\$/, \"\", s); print s \"_[i]\" }" \
		"$P/perfdemo-dwarf.txt" | sort -u >want &&
	tr ";" "\n" <tagged | sed "s/ [0-9]*\$//" | grep "_\[i\]\$" | sort -u >got &&
	test -s want && test_cmp want got'

test_expect_success '--no-tidy keeps the JIT symbol as perf printed it (perfdemo-g)' '
	fixed_ref perfdemo-g "$R/perfdemo-g.stackcollapse.default.txt" >expect &&
	"$PROFTOOL" convert --to collapsed --no-tidy "$P/perfdemo-g.txt" >raw &&
	grep -q ";LDemo/Jit:.spin(IJ)J " raw &&
	sed "s|;LDemo/Jit:.spin(IJ)J |;Demo/Jit:.spin |" raw | sort >actual &&
	test_cmp expect actual'

# all events kept as sample types
test_expect_success 'two events: each is a sample type, the first is the default' '
	"$PROFTOOL" info "$P/perfdemo-2events.txt" >info &&
	grep -q "^  1: cpu-clock \[nanoseconds\] .*(default)$" info &&
	grep -q "^  2: task-clock \[nanoseconds\] " info &&
	fixed_ref perfdemo-2events "$R/perfdemo-2events.stackcollapse.event-filter-task-clock.txt" >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index task-clock "$P/perfdemo-2events.txt" >all &&
	grep -v " 0$" all >actual &&
	test_cmp expect actual'

test_expect_success '--sample-index samples counts samples (the period sum / 1001001 here)' '
	fixed_ref perfdemo-g "$R/perfdemo-g.stackcollapse.default.txt" |
		awk "{ \$NF = \$NF / 1001001; print }" >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index samples "$P/perfdemo-g.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'page-faults periods are events; cpu-clock periods nanoseconds' '
	"$PROFTOOL" info "$P/perfdemo-period.txt" >info &&
	grep -q "^  1: page-faults \[events\] .*(default)$" info &&
	"$PROFTOOL" info "$P/perfdemo-g.txt" >info &&
	grep -q "^  1: cpu-clock \[nanoseconds\] .*(default)$" info'

test_expect_success 'without a period field every sample counts 1 (a samples type only)' '
	n=$(awk "/^[^\t]/ { n++ } END { print n }" "$P/perfdemo-nodso.txt") &&
	"$PROFTOOL" info "$P/perfdemo-nodso.txt" >info &&
	grep "^  0: samples \[count\] total $n " info &&
	! grep -q "^  1:" info'

test_expect_success 'duration from the timestamps (last - first)' '
	d=$(awk "/^[^\t#]/ && \$3 ~ /^[0-9]+\.[0-9]+:\$/ { t = \$3 + 0; if (!n++ || t < a) a = t; if (t > b) b = t }
		END { printf \"%.3f\", b - a }" "$P/perfdemo-g.txt") &&
	"$PROFTOOL" info "$P/perfdemo-g.txt" >info &&
	grep "^Duration: ${d}s$" info'

test_done
