#!/bin/sh
test_description='callgrind writer, checked with the real callgrind_annotate'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
EDGE=$BUILDDIR/tests/writers-edge

# "file:function self incl" from callgrind_annotate (self run and --inclusive run);
# rows that are zero in both are left out, the synthetic (root) too
annotate () {
	callgrind_annotate --auto=no --threshold=100 "$1" >self.out 2>self.err &&
	callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$1" >incl.out 2>incl.err &&
	! grep WARNING self.err incl.err &&
	for k in self incl; do
		awk '!/PROGRAM TOTALS$/ && /^ *[0-9,]+ +\( *[0-9.]+%\)  / {
			v = $1; gsub(",", "", v); sub(/^ *[0-9,]+ +\( *[0-9.]+%\)  /, "")
			print $0 "\t" v }' $k.out | LC_ALL=C sort >$k.rows || return 1
	done &&
	join -t "	" -a1 -a2 -e 0 -o 0,1.2,2.2 self.rows incl.rows |
		awk -F "	" '$1 != "???:(root)" && ($2 != 0 || $3 != 0)' | LC_ALL=C sort
}

# the program total callgrind_annotate prints
annotate_total () {
	awk '/PROGRAM TOTALS/ { v = $1; gsub(",", "", v); print v }' "$1"
}

# the same rows from our `top --format csv` (names here hold no comma, quote or colon)
ours () {
	sed 1d | awk -F, '{ gsub(/"/, ""); f = $2 == "" ? "???" : $2
		if ($4 != 0 || $6 != 0) print f ":" $1 "\t" $4 "\t" $6 }' | LC_ALL=C sort
}

test_expect_success 'lines sharing their low 32 bits share a row, named by its first self node or call met' '
	"$EDGE" oddlines callgrind all | grep -v "^creator: " >actual &&
	test_cmp "$GOLDEN/writers-edge.oddlines.callgrind" actual'

if ! command -v callgrind_annotate >/dev/null 2>&1; then
	test_skip 'callgrind_annotate agrees with top' 'callgrind_annotate (valgrind) not installed'
	test_done
	exit
fi

test_expect_success 'first line, events in the type, summary = sum of self' '
	"$PROFTOOL" convert --to callgrind "$C/perfdemo-g.collapsed" >out.callgrind &&
	test "$(head -1 out.callgrind)" = "# callgrind format" &&
	grep -q "^events: samples$" out.callgrind &&
	grep -q "^event: samples : samples (count)$" out.callgrind &&
	awk "{ s += \$NF } END { print \"summary: \" s }" "$C/perfdemo-g.collapsed" >expect &&
	grep "^summary:" out.callgrind >actual && test_cmp expect actual'

test_expect_success 'every calls= has N >= 1 and is followed by a cost line' '
	"$PROFTOOL" convert --to callgrind "$D/recursion.collapsed" >out.callgrind &&
	grep -q "^calls=" out.callgrind &&
	! grep -q "^calls=0" out.callgrind &&
	awk "prev ~ /^calls=/ && !/^[0-9]+ [0-9]+$/ { bad = 1 } { prev = \$0 }
		END { exit bad }" out.callgrind'

test_expect_success 'names are compressed: each written once in full' '
	"$PROFTOOL" convert --to callgrind "$C/perfdemo-g.collapsed" >out.callgrind &&
	grep -o "^c\{0,1\}fn=([0-9]*) .*" out.callgrind | sed "s/^c//" | sort >full &&
	sort -u full >uniq && test_cmp uniq full &&
	test "$(wc -l <full)" = "$(cut -d" " -f2- full | sort -u | wc -l)"'

for f in "$C/perfdemo-g.collapsed" "$D/recursion.collapsed" "$C/perfdemo-g-vs-dwarf.diff.collapsed"; do
	name=$(basename "$f")
	test_expect_success "callgrind_annotate: total, self and inclusive equal top ($name)" '
		"$PROFTOOL" convert --to callgrind -o out.callgrind "$f" &&
		annotate out.callgrind >actual && test -s actual &&
		"$PROFTOOL" top -n 0 --format csv "$f" | ours >expect &&
		test_cmp expect actual &&
		annotate_total self.out >total &&
		"$PROFTOOL" info --format json "$f" >info &&
		grep -q "\"total\":$(cat total)[,}]" info'
done

test_expect_success 'callgrind.out.* picks the callgrind writer' '
	"$PROFTOOL" convert -o callgrind.out.1234 "$D/recursion.collapsed" &&
	head -1 callgrind.out.1234 | grep -q "^# callgrind format$"'

test_expect_success '--sample-index all writes every type as an event' '
	"$PROFTOOL" convert --to callgrind --sample-index all \
		"$C/perfdemo-g-vs-dwarf.diff.collapsed" >out.callgrind &&
	grep -q "^events: base new$" out.callgrind &&
	annotate_total_all=$(callgrind_annotate out.callgrind 2>err | awk "/PROGRAM TOTALS/ { print \$1, \$3 }" | tr -d ,) &&
	! grep WARNING err &&
	expect=$(awk "{ b += \$(NF-1); n += \$NF } END { print b, n }" "$C/perfdemo-g-vs-dwarf.diff.collapsed") &&
	test "$annotate_total_all" = "$expect"'

test_expect_success 'threads, files, lines and two types: annotate equals top' '
	"$EDGE" threads callgrind >out.callgrind &&
	annotate out.callgrind >actual && test -s actual &&
	"$EDGE" threads top | ours >expect &&
	test_cmp expect actual &&
	grep -q "^c\{0,1\}f[li]=([0-9]*) srv.c$" out.callgrind &&
	grep -q "^20 " out.callgrind && grep -q "^21 " out.callgrind'

for c in empty single deep deeprec; do
	test_expect_success "awkward profile '$c': annotate equals top, no warning" '
		"$EDGE" $c callgrind >out.callgrind &&
		annotate out.callgrind >actual &&
		"$EDGE" $c top | ours >expect &&
		test_cmp expect actual'
done

test_expect_success 'awkward names: one line each, valid UTF-8, annotate values equal top' '
	"$EDGE" names callgrind >out.callgrind &&
	! LC_ALL=C grep -q "[[:cntrl:]]" out.callgrind &&
	iconv -f UTF-8 -t UTF-8 out.callgrind >/dev/null &&
	annotate out.callgrind | cut -f2- | sort >actual &&
	"$EDGE" names topjson | grep -o "\"flat\":[0-9]*,\"flat_pct\":[0-9.]*,\"cum\":[0-9]*" |
		sed "s/\"flat\":\([0-9]*\),.*\"cum\":\([0-9]*\)/\1	\2/" |
		awk -F "	" "\$1 != 0 || \$2 != 0" | sort >expect &&
	test_cmp expect actual &&
	test "$(wc -l <actual)" = 13'

test_done
