#!/bin/sh
test_description='merge: many profiles into one, associative and commutative'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
A=$C/perfdemo-g.collapsed
B=$REF/perf/perfdemo-dwarf.stackcollapse.default.txt
R=$D/recursion.collapsed

# The outputs associativity is checked in: NAME COMMAND (reading one profile, stdin).
# Add a line per writer as they land (a pprof writer: "pprof convert --to pprof").
merge_outputs () {
	cat <<-LIST
	collapsed convert --to collapsed
	top-csv top --format csv -n 0
	top-csv-cum top --format csv -n 0 --cum
	LIST
}

# merge(x, y) written as collapsed (the intermediate form every reader can take)
m () {
	"$PROFTOOL" merge --to collapsed "$@"
}

merge_outputs >"$TRASH/outputs"
while read -r name cmd; do
	test_expect_success "associative in $name: (a b) c = a (b c)" '
		m "$A" "$B" >ab && m ab "$R" | "$PROFTOOL" $cmd >left &&
		m "$B" "$R" >bc && m "$A" bc | "$PROFTOOL" $cmd >right &&
		test_cmp left right'
	test_expect_success "commutative in $name: a b = b a" '
		m "$A" "$B" "$R" | "$PROFTOOL" $cmd >abc &&
		m "$R" "$B" "$A" | "$PROFTOOL" $cmd >rba &&
		test_cmp abc rba'
	test_expect_success "three at once equal two steps in $name" '
		m "$A" "$B" "$R" | "$PROFTOOL" $cmd >once &&
		m "$A" "$B" >ab && m ab "$R" | "$PROFTOOL" $cmd >twice &&
		test_cmp once twice'
done <"$TRASH/outputs"

test_expect_success 'merged stacks equal an independent sum of the inputs (awk)' '
	cat "$A" "$B" "$R" | awk "{ c = \$NF; sub(/ [0-9]+\$/, \"\"); s[\$0] += c }
		END { for (k in s) print k, s[k] }" | LC_ALL=C sort >expect &&
	m "$A" "$B" "$R" >actual && test_cmp expect actual'

test_expect_success 'a profile merged with itself doubles every value' '
	m "$R" "$R" >actual &&
	awk "{ \$NF = \$NF * 2; print }" "$R" | LC_ALL=C sort >expect && test_cmp expect actual'

test_expect_success 'two-count files merge type by type' '
	"$PROFTOOL" merge --to collapsed --sample-index base \
		"$C/perfdemo-g-vs-dwarf.diff.collapsed" "$C/perfdemo-g-vs-dwarf.diff.collapsed" |
		"$PROFTOOL" top --format csv -n 0 | cut -d, -f1,4,6 >actual &&
	"$PROFTOOL" top --format csv -n 0 --sample-index base \
		"$C/perfdemo-g-vs-dwarf.diff.collapsed" |
		awk -F, "NR == 1 { print \$1 \",\" \$4 \",\" \$6; next } { print \$1 \",\" \$4 * 2 \",\" \$6 * 2 }" >expect &&
	test_cmp expect actual'

test_expect_success 'decimal counts are aligned to the finer fixed point' '
	printf "a;b 1.5\n" >x && printf "a;b 2\na;c 0.25\n" >y &&
	m x y >actual && printf "a;b 3.50\na;c 0.25\n" >expect && test_cmp expect actual'

test_expect_success 'different sample types are refused, naming both' '
	test_expect_code 1 "$PROFTOOL" merge --to collapsed "$R" "$C/perfdemo-g-vs-dwarf.diff.collapsed" &&
	test_one_line_err "proftool: $C/perfdemo-g-vs-dwarf.diff.collapsed: sample types differ: base [count], new [count] here, samples [count] in '\''$R'\'' (merge needs the same names and units)"'

test_expect_success 'filters apply to every input' '
	m --focus "^b\$" "$R" "$R" >actual &&
	"$PROFTOOL" convert --to collapsed --focus "^b\$" "$R" |
		awk "{ \$NF = \$NF * 2; print }" >expect && test_cmp expect actual'

# The first input is filtered before the others are added to it: the label strings the
# second brings are stored in the filtered profile (its arena was once left behind on
# the stack, and they came out as garbage).
test_expect_success 'a filtered first input takes the labels of the others whole' '
	"$PROFTOOL" merge -o a.pb.gz --label host=alpha-host "$SAMPLES/go/cpu.pb.gz" &&
	"$PROFTOOL" merge -o b.pb.gz --label host=beta-host "$SAMPLES/go/cpu.pb.gz" &&
	"$PROFTOOL" merge -o ab.pb.gz --hide "^runtime\\." a.pb.gz b.pb.gz &&
	"$PROFTOOL" tags ab.pb.gz >actual &&
	"$PROFTOOL" tags --hide "^runtime\\." a.pb.gz b.pb.gz >expect &&
	test_cmp expect actual &&
	grep -q ": alpha-host\$" actual && grep -q ": beta-host\$" actual'

test_expect_success 'the output format follows the suffix of -o' '
	"$PROFTOOL" merge -o out.collapsed "$R" "$R" && m "$R" "$R" >expect &&
	test_cmp expect out.collapsed'

test_expect_success 'without --to or a known suffix the output is pprof, or an error saying so' '
	if "$PROFTOOL" formats | grep -q "^pprof  *[a-z]*  *yes"; then
		"$PROFTOOL" merge -o out.pb.gz "$R" "$R" &&
		"$PROFTOOL" convert --to collapsed out.pb.gz >actual &&
		m "$R" "$R" >expect && test_cmp expect actual
	else
		test_expect_code 2 "$PROFTOOL" merge -o merged "$R" "$R" &&
		test_one_line_err "proftool: merge: this build has no pprof writer, the default output: name a format with --to (see '\''proftool merge --help'\'')" &&
		test ! -e merged
	fi'

test_expect_success 'no input is a usage error' '
	test_expect_code 2 "$PROFTOOL" merge --to collapsed'

test_expect_success 'a bad input fails the merge and writes nothing' '
	printf "garbage\n" >bad &&
	test_expect_code 1 "$PROFTOOL" merge -o out.collapsed "$R" bad &&
	test ! -e out.collapsed && grep -q "^proftool: bad" err'

test_done
