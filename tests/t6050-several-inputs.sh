#!/bin/sh
test_description='reports take several inputs and merge them first (go tool pprof a b)'
. "$(dirname "$0")/lib.sh"

SP=$SAMPLES/stackprof

# a top --format csv table as "name,file,line<TAB>flat<TAB>cum" lines, rows of one key
# (stackprof's twin "<main>" frames) added up, sorted
table () {
	sed 1d "$1" | awk -F, '{ print $1 "," $2 "," $3 "\t" $4 "\t" $6 }' | sum_rows
}
sum_rows () {
	awk -F "\t" '{ f[$1] += $2; c[$1] += $3 }
		END { for (k in f) printf "%s\t%d\t%d\n", k, f[k], c[k] }' | sort
}

test_expect_success 'top of two collapsed files is top of the two concatenated' '
	"$PROFTOOL" top -n 0 "$SAMPLES/collapsed/perfdemo-g.collapsed" \
		"$SRCDIR/tests/data/recursion.collapsed" >actual &&
	cat "$SAMPLES/collapsed/perfdemo-g.collapsed" "$SRCDIR/tests/data/recursion.collapsed" |
		"$PROFTOOL" top -n 0 >expect &&
	test_cmp expect actual'

test_expect_success 'a raw stackprof dump and an aggregate-only one add up per function' '
	"$PROFTOOL" top --format csv "$SP/cpu-raw.dump" >a.csv &&
	"$PROFTOOL" top --format csv "$SP/cpu.dump" >b.csv &&
	"$PROFTOOL" top --format csv "$SP/cpu-raw.dump" "$SP/cpu.dump" >ab.csv &&
	table a.csv >a && table b.csv >b && table ab.csv >ab &&
	cat a b | sum_rows >expect &&
	test_cmp expect ab &&
	test "$(grep -c "^\"Workload#hot_leaf\"," ab.csv)" = 1'

test_expect_success 'the merged total is the sum of the totals' '
	"$PROFTOOL" top -n 1 "$SP/cpu-raw.dump" "$SP/cpu.dump" >out &&
	a=$("$PROFTOOL" info "$SP/cpu-raw.dump" | sed -n "s/^  0: .* total \([0-9]*\) .*/\1/p") &&
	b=$("$PROFTOOL" info "$SP/cpu.dump" | sed -n "s/^  0: .* total \([0-9]*\) .*/\1/p") &&
	test -n "$a" && test -n "$b" &&
	grep -x "Total: $((a + b))" out'

test_expect_success 'traces, tree and method read several inputs too' '
	"$PROFTOOL" traces "$SAMPLES/go/cpu.pb" "$SAMPLES/go/cpu.pb.gz" >two &&
	"$PROFTOOL" traces "$SAMPLES/go/cpu.pb" >one &&
	test "$(grep -c "^-----------" two)" = "$(grep -c "^-----------" one)" &&
	"$PROFTOOL" tree main "$SAMPLES/go/cpu.pb" "$SAMPLES/go/cpu.pb" >/dev/null &&
	"$PROFTOOL" method --format json main "$SAMPLES/go/cpu.pb" "$SAMPLES/go/cpu.pb" >m2 &&
	"$PROFTOOL" method --format json main "$SAMPLES/go/cpu.pb" >m1 &&
	! test_cmp m1 m2 >/dev/null'

test_expect_success 'the same input twice doubles every value' '
	"$PROFTOOL" top --format csv -n 0 "$SAMPLES/go/cpu.pb" >one.csv &&
	"$PROFTOOL" top --format csv -n 0 "$SAMPLES/go/cpu.pb" "$SAMPLES/go/cpu.pb" >two.csv &&
	table one.csv | awk -F "\t" "{ printf \"%s\\t%d\\t%d\\n\", \$1, 2 * \$2, 2 * \$3 }" >expect &&
	table two.csv >actual &&
	test_cmp expect actual'

test_expect_success 'inputs of other sample types: one line naming both, exit 1' '
	test_expect_code 1 "$PROFTOOL" top "$SAMPLES/go/cpu.pb" "$SAMPLES/go/heap.pb.gz" &&
	test_one_line_err "proftool: $SAMPLES/go/heap.pb.gz: sample types differ: alloc_objects [count], alloc_space [bytes], inuse_objects [count], inuse_space [bytes] here, samples [count], cpu [nanoseconds] in '\''$SAMPLES/go/cpu.pb'\'' (merge needs the same names and units)"'

test_expect_success 'a bad second input is reported by its name' '
	printf "garbage\n" >bad.txt &&
	test_expect_code 1 "$PROFTOOL" top "$SAMPLES/go/cpu.pb" bad.txt &&
	test_one_line_err "proftool: bad.txt: byte 0: unrecognized profile format: text starting \"garbage\" (see '\''proftool formats'\''; --from FORMAT forces one)"'

test_done
