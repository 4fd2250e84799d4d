#!/bin/sh
test_description='filters on the call tree, checked against an independent awk version'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data
AWK_FILTER=$SRCDIR/tests/filter.awk

# Every filter runs on every input listed here: NAME PATH [REGEX]. REGEX is one that
# matches some frames of that input (default: one used for every input). Add a line per
# format as readers land; the check converts the unfiltered input to collapsed, filters
# that with tests/filter.awk and compares with proftool's filtered conversion.
filter_inputs () {
	cat <<-LIST
	recursion $D/recursion.collapsed ^b\$
	mutual $D/mutual.collapsed ^a\$
	perfdemo-g $SAMPLES/collapsed/perfdemo-g.collapsed fault|page
	perfdemo-diff $SAMPLES/collapsed/perfdemo-g-vs-dwarf.diff.collapsed _main|hot
	perf-dwarf $SAMPLES/perf/perfdemo-dwarf.txt shared_work|mix
	pprof-cpu $SAMPLES/go/cpu.pb.gz main\.(ping|spin)
	pprof-heap $SAMPLES/go/heap.pb.gz main\.alloc
	cpuprofile $SAMPLES/node/small.cpuprofile ^(fib|isOdd)\$ names-repeat
	chrome-trace $SAMPLES/node/small.trace.json ^mix\$ names-repeat
	stackprof-raw $SAMPLES/stackprof/cpu-raw.dump fib|ping names-repeat
	LIST
}

# OPTION AWK-OP
filter_cases () {
	cat <<-LIST
	focus focus
	ignore ignore
	hide hide
	show show
	show-from show_from
	prune-from prune_from
	LIST
}

filter_inputs >"$TRASH/inputs"
filter_cases >"$TRASH/cases"
# A fourth word "names-repeat" marks inputs where distinct functions share a name
# ("(anonymous)", stackprof's two "<main>"): recursion is a function met again, so a
# fold by name is not an oracle there; the name-matching filters still are.
while read -r name path re repeat; do
	while read -r opt op; do
		test_expect_success "--$opt on $name matches an independent filter" '
			"$PROFTOOL" convert --to collapsed "$path" >plain &&
			awk -v op="$op" -v re="$re" -f "$AWK_FILTER" plain >expect &&
			"$PROFTOOL" convert --to collapsed --$opt "$re" "$path" >actual &&
			test_cmp expect actual'
	done <"$TRASH/cases"
	test -n "$repeat" ||
	test_expect_success "--collapse-recursion on $name matches an independent fold" '
		"$PROFTOOL" convert --to collapsed "$path" >plain &&
		awk -v op=fold -f "$AWK_FILTER" plain >expect &&
		"$PROFTOOL" convert --to collapsed --collapse-recursion "$path" >actual &&
		test_cmp expect actual'
	test_expect_success "filters compose on $name: --ignore then --hide" '
		"$PROFTOOL" convert --to collapsed "$path" >plain &&
		awk -v op=ignore -v re=zzz_none -f "$AWK_FILTER" plain |
			awk -v op=hide -v re="$re" -f "$AWK_FILTER" >expect &&
		"$PROFTOOL" convert --to collapsed --ignore zzz_none --hide "$re" "$path" >actual &&
		test_cmp expect actual'
done <"$TRASH/inputs"

# pprof -top values ("0.51s", "510ms", "0") in nanoseconds, with the name: an
# independent reading of go tool pprof's table
pprof_rows_ns () {
	sed -n '/flat%/,$p' | sed 1d | awk '
		function ns(v,   n) {
			n = v + 0
			if (v ~ /ms$/) return n * 1e6
			if (v ~ /us$/) return n * 1e3
			if (v ~ /ns$/) return n
			if (v ~ /s$/) return n * 1e9
			return n
		}
		{ name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		  sub(/ \((partial-)?inline\)$/, "", name)
		  printf "%s %.0f %.0f\n", name, ns($1), ns($4) }' | LC_ALL=C sort
}

test_expect_success '--tag on pprof labels keeps what go tool pprof -tagfocus keeps' '
	pprof_rows_ns <"$REF/pprof/cpu.pprof-top.tagfocus-alpha.txt" >expect &&
	"$PROFTOOL" top --format csv -n 0 --tag worker=alpha "$SAMPLES/go/cpu.pb.gz" |
		sed 1d | awk -F, "{ gsub(/\"/, \"\", \$1); print \$1, \$4, \$6 }" | LC_ALL=C sort >actual &&
	test_cmp expect actual'

test_expect_success '--collapse-recursion by function: no function recurs after it' '
	for i in node/small.cpuprofile stackprof/cpu-raw.dump perf/perfdemo-dwarf.txt; do
		"$PROFTOOL" convert --to collapsed --collapse-recursion "$SAMPLES/$i" >folded &&
		"$PROFTOOL" convert --to collapsed "$SAMPLES/$i" >plain || exit 1
		re="(^|;)((Workload#)?(fib|isEven|isOdd|ping|pong|recurse));(.*;)?\\2( |;)" &&
		grep -qE "$re" plain || { echo "$i: no recursion to fold"; exit 1; }
		! grep -E "$re" folded || { echo "$i: recursion left"; exit 1; }
		test "$(awk "{ s += \$NF } END { print s }" plain)" = \
			"$(awk "{ s += \$NF } END { print s }" folded)" || { echo "$i: total changed"; exit 1; }
	done'

test_expect_success 'the regex is unanchored and extended' '
	"$PROFTOOL" convert --to collapsed --focus "ha?ndle_(mm|pte)" \
		"$SAMPLES/collapsed/perfdemo-g.collapsed" >actual &&
	grep -q handle_mm_fault actual &&
	! grep -v -E "ha?ndle_(mm|pte)" actual'

test_expect_success 'focus keeps the total of stacks through a match (awk)' '
	awk "/;b;|;b / { s += \$NF } END { print s }" "$D/recursion.collapsed" >expect &&
	"$PROFTOOL" top --format json --focus "^b\$" "$D/recursion.collapsed" |
		sed "s/.*\"total\":\\([0-9]*\\).*/\\1/" >actual &&
	test_cmp expect actual'

test_expect_success 'a filter that matches nothing leaves an empty profile' '
	"$PROFTOOL" convert --to collapsed --focus zzz_none "$D/recursion.collapsed" >actual &&
	test_must_be_empty () { test ! -s "$1"; } && test_must_be_empty actual'

test_expect_success 'collapse-recursion: A;B;A;B folds into A;B' '
	echo "A;B;A;B 3" >in &&
	"$PROFTOOL" convert --to collapsed --collapse-recursion in >actual &&
	echo "A;B 3" >expect && test_cmp expect actual'

test_expect_success 'collapse-recursion keeps the total; no stack repeats a function' '
	"$PROFTOOL" convert --to collapsed --collapse-recursion "$D/mutual.collapsed" >actual &&
	awk "{ s += \$NF } END { print s }" "$D/mutual.collapsed" >expect &&
	awk "{ s += \$NF } END { print s }" actual >got && test_cmp expect got &&
	awk "{ sub(/ [0-9]+\$/, \"\"); n = split(\$0, f, \";\"); delete seen;
		for (i = 1; i <= n; i++) { if (f[i] in seen) bad = 1; seen[f[i]] = 1 } }
		END { exit bad }" actual'

test_expect_success '--match-file still matches names (files: unit test)' '
	printf "main;a 1\nmain;b 2\n" >in &&
	"$PROFTOOL" convert --to collapsed --focus "^m" in >actual &&
	test "$(wc -l <actual)" = 2 &&
	"$PROFTOOL" convert --to collapsed --match-file --focus "^b$" in >actual &&
	echo "main;b 2" >expect && test_cmp expect actual'

test_expect_success 'a bad regex is a usage error naming the option' '
	test_expect_code 2 "$PROFTOOL" top --focus "(" "$D/recursion.collapsed" &&
	grep -q "^proftool: top: bad regular expression .(. for --focus: " err'

test_expect_success 'a bad --tag is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --tag novalue "$D/recursion.collapsed" &&
	test_one_line_err "proftool: top: bad label condition '\''novalue'\'' for --tag (KEY=VALUE) (see '\''proftool top --help'\'')"'

test_expect_success 'a time window on a profile without timestamps is an error' '
	test_expect_code 1 "$PROFTOOL" top --time-from 1 "$D/recursion.collapsed" &&
	test_one_line_err "proftool: $D/recursion.collapsed: cannot apply --time-from/--time-to: the profile has no timeline (no timestamped samples)"'

test_expect_success 'a bad time is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --time-to -1 "$D/recursion.collapsed" &&
	grep -q "bad time" err'

test_expect_success 'top lists the active filters and what they removed' '
	"$PROFTOOL" top --focus "^b\$" --hide "^main\$" "$D/recursion.collapsed" >out &&
	sed -n "3,4p" out >actual &&
	cat >expect <<-OUT &&
	Filter: --focus '\''^b\$'\'' removed 12 of 27 (44.44%)
	Filter: --hide '\''^main\$'\'' removed 0 of 15 (0.00%)
	OUT
	test_cmp expect actual'

test_expect_success 'info lists the filters (text and json)' '
	"$PROFTOOL" info --ignore "^c\$" "$D/recursion.collapsed" >out &&
	grep -q "^Filter: --ignore '\''^c\\$'\'' removed 3 of 27 (11.11%)\$" out &&
	"$PROFTOOL" info --format json --ignore "^c\$" "$D/recursion.collapsed" >out.json &&
	grep -q "\"filters\":\\[{\"filter\":\"--ignore '\''^c\\$'\''\",\"before\":\\[27\\],\"removed\":\\[3\\]}\\]" out.json'

test_expect_success 'info json without filters has no filters key' '
	"$PROFTOOL" info --format json "$D/recursion.collapsed" >out.json &&
	! grep -q filters out.json'

test_expect_success '--node-fraction drops entries with small cum from top' '
	"$PROFTOOL" top -n 0 --node-fraction 0.1 "$SAMPLES/collapsed/perfdemo-g.collapsed" >out &&
	grep -q "^Dropped [0-9]* functions (cum < 10810810)\$" out &&
	"$PROFTOOL" top -n 0 --format csv "$SAMPLES/collapsed/perfdemo-g.collapsed" | sed 1d |
		awk -F, "\$6 >= 10810810.8" | wc -l >want &&
	"$PROFTOOL" top -n 0 --format csv --node-fraction 0.1 \
		"$SAMPLES/collapsed/perfdemo-g.collapsed" | sed 1d | wc -l >got &&
	test_cmp want got'

test_expect_success 'filters apply to every input of a two-count file' '
	"$PROFTOOL" top --format csv -n 0 --sample-index base --focus hot_leaf \
		"$SAMPLES/collapsed/perfdemo-g-vs-dwarf.diff.collapsed" >out &&
	awk "/hot_leaf/ { s += \$(NF-1) } END { print s }" \
		"$SAMPLES/collapsed/perfdemo-g-vs-dwarf.diff.collapsed" >expect &&
	grep "^\"\\?hot_leaf\"\\?," out | cut -d, -f6 >actual && test_cmp expect actual'

# --- a filter that keeps nothing: one line naming what there is, exit 0 ---

test_expect_success '--tag that keeps nothing: one line with the values of that key (pprof -tags)' '
	sed -n "s/^ *[0-9.]*[a-z]* ([0-9.]*%): //p" "$REF/pprof/cpu.pprof-tags.txt" | LC_ALL=C sort |
		paste -sd, - | sed "s/,/, /g" >values &&
	test "$(cat values)" = "alpha, beta" &&
	"$PROFTOOL" top --tag worker=zzz "$SAMPLES/go/cpu.pb.gz" >out 2>err &&
	grep -q "^Total: 0$" out &&
	test_one_line_err "proftool: $SAMPLES/go/cpu.pb.gz: labels worker=zzz keeps no samples; worker: $(cat values)" &&
	"$PROFTOOL" top --tag nokey=1 "$SAMPLES/go/cpu.pb.gz" >out 2>err &&
	test_one_line_err "proftool: $SAMPLES/go/cpu.pb.gz: labels nokey=1 keeps no samples; no label nokey"'

test_expect_success '--thread that keeps nothing names the threads (perf script comm fields)' '
	P=$SAMPLES/perf/perfdemo-2events.txt &&
	grep -v "^[[:space:]]" "$P" | grep -v "^#" | sed -n "s/ *[0-9][0-9]* *[0-9.]*: .*//p" |
		LC_ALL=C sort -u | paste -sd, - | sed "s/,/, /g" >comms &&
	test "$(wc -w <comms)" -ge 4 &&
	"$PROFTOOL" traces --thread nosuch "$P" >out 2>err &&
	test_one_line_err "proftool: $P: labels thread=nosuch|comm=nosuch keeps no samples; no label thread; comm: $(cat comms)"'

test_expect_success 'a time window past the end names the span of the samples (jq over timeDeltas)' '
	P=$SAMPLES/node/small.cpuprofile &&
	span=$(printf "%g" "$(jq "[.timeDeltas[1:][]] | add / 1000000" "$P")") &&
	"$PROFTOOL" top --time-from 1000 "$P" >out 2>err &&
	test_one_line_err "proftool: $P: --time-from 1000 keeps no samples; its samples span 0 to $span s" &&
	"$PROFTOOL" top --time-from 0.5 "$P" >out 2>err && test ! -s err'

test_expect_success '--focus that keeps nothing says so; a filter that keeps some says nothing' '
	"$PROFTOOL" tree --focus "^zzz" "$SAMPLES/go/cpu.pb.gz" >out 2>err &&
	test_one_line_err "proftool: $SAMPLES/go/cpu.pb.gz: --focus '"'^zzz'"' keeps no samples" &&
	"$PROFTOOL" top --tag worker=zzz --focus main "$SAMPLES/go/cpu.pb.gz" >out 2>err &&
	test_one_line_err "proftool: $SAMPLES/go/cpu.pb.gz: labels worker=zzz keeps no samples; worker: alpha, beta" &&
	"$PROFTOOL" top --tag worker=alpha --focus main "$SAMPLES/go/cpu.pb.gz" >out 2>err &&
	test ! -s err'

test_expect_success 'an empty profile says so, exit 0; filters on it add nothing' '
	"$PROFTOOL" top "$SAMPLES/stackprof/empty-cpu.dump" >out 2>err &&
	test_one_line_err "proftool: $SAMPLES/stackprof/empty-cpu.dump: the profile has no samples" &&
	: >empty.txt &&
	"$PROFTOOL" tree --from perf --focus x empty.txt >out 2>err &&
	test_one_line_err "proftool: empty.txt: the profile has no samples" &&
	"$PROFTOOL" convert --from perf --to collapsed empty.txt >out 2>err && test ! -s err'

test_done
