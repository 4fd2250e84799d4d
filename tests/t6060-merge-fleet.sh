#!/bin/sh
test_description='merge at fleet scale: input lists, labels, canonical bytes, bounded memory'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go/cpu.pb.gz
N=$SAMPLES/node
MEASURE=${BUILDDIR:-$SRCDIR}/bench/measure

# hosts/web-1/cpu.pb.gz and hosts/web-2/cpu.pb.gz: one real Go profile on two hosts
hosts () {
	mkdir -p hosts/web-1 hosts/web-2 &&
	cp "$G" hosts/web-1/cpu.pb.gz && cp "$G" hosts/web-2/cpu.pb.gz
}

test_expect_success '--files-from names the same inputs as operands, same bytes' '
	printf "%s\n" "$N/small.cpuprofile" "$N/lines.cpuprofile" >list &&
	"$PROFTOOL" merge -o ops.pb.gz "$N/small.cpuprofile" "$N/lines.cpuprofile" &&
	"$PROFTOOL" merge -o list.pb.gz --files-from list && cmp ops.pb.gz list.pb.gz'

test_expect_success '--files-from - reads the list from standard input; blank lines name nothing' '
	printf "\n%s\n\n%s\n" "$N/small.cpuprofile" "$N/lines.cpuprofile" >list &&
	"$PROFTOOL" merge -o ops.pb.gz "$N/small.cpuprofile" "$N/lines.cpuprofile" &&
	"$PROFTOOL" merge -o list.pb.gz --files-from - <list && cmp ops.pb.gz list.pb.gz'

test_expect_success 'operands and several lists add up' '
	printf "%s\n" "$G" >l1 && printf "%s\n" "$G" "$G" >l2 &&
	"$PROFTOOL" merge --files-from l1 --files-from l2 "$G" -o four.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 four.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" |
		awk -F, -v OFS=, "NR == 1 { print; next }
			{ \$4 = sprintf(\"%.0f\", \$4 * 4); \$6 = sprintf(\"%.0f\", \$6 * 4); print }" >expect &&
	test_cmp expect actual'

test_expect_success 'a list that cannot be opened: one line, exit 1' '
	test_expect_code 1 "$PROFTOOL" merge --files-from nosuch &&
	test_one_line_err "proftool: nosuch: cannot open: No such file or directory"'

test_expect_success 'an empty list and no operands is a usage error' '
	: >empty && test_expect_code 2 "$PROFTOOL" merge --files-from empty &&
	test_one_line_err "proftool: merge: no input profiles (see '\''proftool merge --help'\'')"'

test_expect_success 'standard input cannot be both the list and an input' '
	test_expect_code 2 "$PROFTOOL" merge --files-from - - </dev/null'

test_expect_success 'a bad input named by a list is reported by its name' '
	printf "garbage\n" >bad && printf "%s\nbad\n" "$G" >list &&
	test_expect_code 1 "$PROFTOOL" merge -o out.pb.gz --files-from list &&
	test ! -e out.pb.gz && grep -q "^proftool: bad: " err'

test_expect_success '--label puts KEY=VALUE on every sample: --tag selects all of it' '
	"$PROFTOOL" merge -o l.pb.gz --label version=1.2 "$G" "$G" &&
	"$PROFTOOL" merge -o u.pb.gz "$G" "$G" &&
	"$PROFTOOL" top --format csv -n 0 --tag version=1.2 l.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 u.pb.gz >expect && test_cmp expect actual &&
	"$PROFTOOL" top --format csv -n 0 --tag version=1.3 l.pb.gz >none &&
	test "$(wc -l <none)" = 1'

test_expect_success '--label keeps the inputs'\'' own labels (Go pprof labels)' '
	"$PROFTOOL" merge -o l.pb.gz --label version=1.2 "$G" &&
	"$PROFTOOL" top --format csv -n 0 --tag worker=alpha "$G" >expect &&
	"$PROFTOOL" top --format csv -n 0 --tag worker=alpha --tag version=1.2 l.pb.gz >actual &&
	test_cmp expect actual'

test_expect_success '--label replaces an input label of the same key; rows that meet add up' '
	"$PROFTOOL" merge -o l.pb.gz --label worker=all "$G" &&
	"$PROFTOOL" top --format csv -n 0 --tag worker=alpha l.pb.gz >none &&
	test "$(wc -l <none)" = 1 &&
	"$PROFTOOL" top --format csv -n 0 --tag worker=all l.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" >expect && test_cmp expect actual &&
	"$PROFTOOL" traces "$G" | grep -c "^-" >rows.in &&
	"$PROFTOOL" traces l.pb.gz | grep -c "^-" >rows.out &&
	test "$(cat rows.out)" -lt "$(cat rows.in)"'

test_expect_success '--label-from-path takes the first group of the regex from each path' '
	hosts &&
	"$PROFTOOL" merge -o m.pb.gz --label-from-path "host=/(web-[0-9]+)/" hosts/*/cpu.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 --tag host=web-2 m.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" >expect && test_cmp expect actual'

test_expect_success '--label-from-path without a group takes the whole match' '
	hosts &&
	"$PROFTOOL" merge -o m.pb.gz --label-from-path "host=web-[0-9]+" hosts/*/cpu.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 --tag host=web-1 m.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" >expect && test_cmp expect actual'

test_expect_success '--label-from-path that does not match leaves that input without the label' '
	hosts && cp "$G" other.pb.gz &&
	"$PROFTOOL" merge -o m.pb.gz --label-from-path "host=/(web-[0-9]+)/" \
		hosts/web-1/cpu.pb.gz other.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 --tag host=web-1 m.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" >expect && test_cmp expect actual'

test_expect_success 'a label from the path wins over --label of the same key' '
	hosts &&
	"$PROFTOOL" merge -o m.pb.gz --label host=unknown \
		--label-from-path "host=/(web-[0-9]+)/" hosts/web-1/cpu.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 --tag host=web-1 m.pb.gz >actual &&
	"$PROFTOOL" top --format csv -n 0 "$G" >expect && test_cmp expect actual'

test_expect_success 'a --label without KEY= is a usage error' '
	test_expect_code 2 "$PROFTOOL" merge --label version "$G" &&
	test_one_line_err "proftool: merge: --label needs KEY=VALUE, not '\''version'\'' (see '\''proftool merge --help'\'')"'

test_expect_success 'a --label-from-path regex that does not compile is a usage error' '
	test_expect_code 2 "$PROFTOOL" merge --label-from-path "host=(" "$G" &&
	grep -q "^proftool: merge: bad --label-from-path regex '\''('\'': " err'

# every sample of one format, merged flat and in two groups (pprof in between)
for set in "node $N/large.cpuprofile $N/lines.cpuprofile $N/small.cpuprofile $N/small-legacy.cpuprofile" \
	"perf $SAMPLES/perf/perfdemo-g.txt $SAMPLES/perf/perfdemo-dwarf.txt $SAMPLES/perf/perfdemo-nog.txt $SAMPLES/perf/perfdemo-task-events.txt" \
	"stackprof $SAMPLES/stackprof/cpu-raw.dump $SAMPLES/stackprof/deep-raw.dump $SAMPLES/stackprof/cpu-raw.dump $SAMPLES/stackprof/deep-raw.dump"; do
	set -- $set
	name=$1
	shift
	test_expect_success "$name: groups (a b) (c d) and (a) (b c d) write the bytes of a b c d" "
		\"\$PROFTOOL\" merge -o flat.pb.gz $* &&
		\"\$PROFTOOL\" merge -o g1.pb.gz $1 $2 && \"\$PROFTOOL\" merge -o g2.pb.gz $3 $4 &&
		\"\$PROFTOOL\" merge -o grouped.pb.gz g1.pb.gz g2.pb.gz && cmp flat.pb.gz grouped.pb.gz &&
		\"\$PROFTOOL\" merge -o bcd.pb.gz $2 $3 $4 &&
		\"\$PROFTOOL\" merge -o a.pb.gz $1 &&
		\"\$PROFTOOL\" merge -o right.pb.gz a.pb.gz bcd.pb.gz && cmp flat.pb.gz right.pb.gz"
done

test_expect_success 'inputs that agree on their period merge to the same bytes in any order' '
	"$PROFTOOL" merge -o fwd.pb.gz "$N/large.cpuprofile" "$N/lines.cpuprofile" "$N/small.cpuprofile" &&
	"$PROFTOOL" merge -o back.pb.gz "$N/small.cpuprofile" "$N/lines.cpuprofile" "$N/large.cpuprofile" &&
	cmp fwd.pb.gz back.pb.gz'

test_expect_success 'merging a merge again changes nothing' '
	"$PROFTOOL" merge -o once.pb.gz "$N/large.cpuprofile" "$G" 2>/dev/null ||
	"$PROFTOOL" merge -o once.pb.gz "$N/large.cpuprofile" &&
	"$PROFTOOL" merge -o twice.pb.gz once.pb.gz && cmp once.pb.gz twice.pb.gz'

if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	# The same input again and again: the merged profile keeps its size, so peak RSS
	# must too. The bound is far above the allocator'"'"'s noise (about 2 MiB here) and far
	# below what keeping anything per input would cost (each input is ~100 KiB read).
	test_expect_success 'memory follows the merged profile: 4000 inputs cost what 20 do' '
		awk -v f="$G" "BEGIN { for (i = 0; i < 20; i++) print f }" >l20 &&
		awk -v f="$G" "BEGIN { for (i = 0; i < 4000; i++) print f }" >l4000 &&
		set -- $("$MEASURE" -- "$PROFTOOL" merge -o m20.pb.gz --files-from l20) &&
		test "$3" = 0 && small=$2 &&
		set -- $("$MEASURE" -- "$PROFTOOL" merge -o m4000.pb.gz --files-from l4000) &&
		test "$3" = 0 && echo "peak RSS: $small KiB for 20 inputs, $2 KiB for 4000" &&
		test "$2" -le $((small + 4096))'
else
	test_skip 'memory follows the merged profile: 4000 inputs cost what 20 do' 'needs bench/measure and a plain build'
fi

test_done
