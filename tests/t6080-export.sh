#!/bin/sh
test_description='export: stacks, samples and profiles tables for a column store'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go/cpu.pb.gz
N=$SAMPLES/node/small.cpuprofile

test_expect_success 'three tables without headers: 6, 8 and 6 tab-separated columns' '
	"$PROFTOOL" export -o tables "$G" "$N" &&
	awk -F "\t" "NF != 6 { exit 1 }" tables/stacks.tsv &&
	awk -F "\t" "NF != 8 { exit 1 }" tables/samples.tsv &&
	awk -F "\t" "NF != 6 { exit 1 }" tables/profiles.tsv &&
	test "$(wc -l <tables/profiles.tsv)" = 2 && ls tables >actual &&
	printf "profiles.tsv\nsamples.tsv\nstacks.tsv\n" >expect && test_cmp expect actual'

# The stack id is FNV-1a 64 (offset basis 14695981039346656037, prime 1099511628211) of
# "a\t\t0\t0\n" for the stack a, and of "a\t\t0\t0\nb\t\t0\t0\n" for a;b: the values
# below are that hash, computed apart from proftool.
test_expect_success '--files-from names the same inputs as operands: the same tables' '
	printf "%s\n\n%s\n" "$G" "$N" >list &&
	"$PROFTOOL" export -o bylist --files-from list &&
	"$PROFTOOL" export -o byops "$G" "$N" &&
	for t in stacks samples; do test_cmp byops/$t.tsv bylist/$t.tsv || exit 1; done &&
	cut -f2- byops/profiles.tsv >want && cut -f2- bylist/profiles.tsv >got && test_cmp want got &&
	printf "%s\n" "$N" | "$PROFTOOL" export -o mixed "$G" --files-from - &&
	test_cmp byops/stacks.tsv mixed/stacks.tsv'

test_expect_success '--files-from: a list naming nothing, or stdin twice, is a usage error' '
	: >empty &&
	test_expect_code 2 "$PROFTOOL" export -o none --files-from empty &&
	test_one_line_err "proftool: export: no input profiles (see '"'proftool export --help'"')" &&
	test ! -e none/stacks.tsv &&
	test_expect_code 2 "$PROFTOOL" export -o none --files-from - - </dev/null &&
	test_expect_code 1 "$PROFTOOL" export -o none --files-from nosuch &&
	test_one_line_err "proftool: nosuch: cannot open: No such file or directory"'

test_expect_success 'stack ids are FNV-1a 64 of the frames'\'' text, outermost first' '
	printf "a;b 1\na 2\n" >ab.collapsed && "$PROFTOOL" export -o tables ab.collapsed &&
	printf "10938936530409099360\t0\ta\t\t0\t0\n10938936530409099360\t1\tb\t\t0\t0\n3449212515354721079\t0\ta\t\t0\t0\n" >expect &&
	test_cmp expect tables/stacks.tsv &&
	cut -f2-8 tables/samples.tsv >actual &&
	printf "10938936530409099360\tsamples\tcount\t1\t0\t[]\t[]\n3449212515354721079\tsamples\tcount\t2\t0\t[]\t[]\n" >expect &&
	test_cmp expect actual'

test_expect_success 'equal stacks share ids across files and runs; each stack is written once a run' '
	cp "$G" copy.pb.gz &&
	"$PROFTOOL" export -o one "$G" && "$PROFTOOL" export -o two copy.pb.gz "$G" &&
	test_cmp one/stacks.tsv two/stacks.tsv &&
	cut -f2- one/samples.tsv | sort >a && cut -f2- one/samples.tsv >b &&
	cut -f2- one/samples.tsv >>b && sort b >bb &&
	cut -f2- two/samples.tsv | sort >c && test_cmp bb c && cat a a | sort | test_cmp - c &&
	test "$(cut -f1 two/profiles.tsv | sort -u | wc -l)" = 2'

test_expect_success 'the samples of each type add up to the profile'\''s totals' '
	"$PROFTOOL" export -o tables "$G" &&
	awk -F "\t" "{ s[\$3] += \$5 } END { print s[\"samples\"], s[\"cpu\"] }" tables/samples.tsv >actual &&
	echo "191 1910000000" >expect && test_cmp expect actual'

test_expect_success 'profiles: source, start, duration, sample types, default type' '
	"$PROFTOOL" export -o tables "$G" && cut -f2- tables/profiles.tsv >actual &&
	printf "%s\t1795338113835344468\t2349100936\t[%s]\tcpu\n" "$G" "'\''samples/count'\'','\''cpu/nanoseconds'\''" >expect &&
	test_cmp expect actual'

test_expect_success 'labels are two arrays: keys and values (pprof labels, merge --label)' '
	"$PROFTOOL" merge -o l.pb.gz --label host=web-1 "$G" && "$PROFTOOL" export -o tables l.pb.gz &&
	cut -f7,8 tables/samples.tsv | sort -u >actual &&
	printf "%s\n" "['\''host'\'','\''worker'\'']	['\''web-1'\'','\''alpha'\'']" \
		"['\''host'\'','\''worker'\'']	['\''web-1'\'','\''beta'\'']" "['\''host'\'']	['\''web-1'\'']" >expect &&
	test_cmp expect actual'

test_expect_success 'names with tabs, quotes and backslashes are escaped as ClickHouse reads them' '
	printf "main;it'\''s\\\\x 3\n" >q.collapsed && "$PROFTOOL" export -o tables q.collapsed &&
	cut -f3 tables/stacks.tsv >actual && printf "main\nit'\''s\\\\\\\\x\n" >expect && test_cmp expect actual'

test_expect_success '--to csv: the same rows, quoted by libcsv' '
	"$PROFTOOL" export -o t "$G" && "$PROFTOOL" export --to csv -o c "$G" &&
	ls c >actual && printf "profiles.csv\nsamples.csv\nstacks.csv\n" >expect && test_cmp expect actual &&
	sed -n 1p c/stacks.csv >actual &&
	sed -n 1p t/stacks.tsv | awk -F "\t" -v OFS=, "{ \$3 = \"\\\"\" \$3 \"\\\"\"; \$4 = \"\\\"\" \$4 \"\\\"\"; print }" >expect &&
	test_cmp expect actual && test "$(wc -l <c/samples.csv)" = "$(wc -l <t/samples.tsv)"'

test_expect_success '--timeline: a row per event, at its time' '
	"$PROFTOOL" export -o agg "$N" && "$PROFTOOL" export --timeline -o tl "$N" &&
	test "$(wc -l <tl/samples.tsv)" -gt "$(wc -l <agg/samples.tsv)" &&
	awk -F "\t" "{ s[\$3] += \$5 } END { print s[\"samples\"], s[\"wall\"] }" agg/samples.tsv >expect &&
	awk -F "\t" "{ s[\$3] += \$5 } END { print s[\"samples\"], s[\"wall\"] }" tl/samples.tsv >actual &&
	test_cmp expect actual && test "$(cut -f6 tl/samples.tsv | sort -u | wc -l)" -gt 100'

test_expect_success 'no -o: usage error' '
	test_expect_code 2 "$PROFTOOL" export "$G" &&
	test_one_line_err "proftool: export: -o DIR is needed: the tables are three files (see '\''proftool export --help'\'')"'

test_expect_success 'an unknown --to: usage error' '
	test_expect_code 2 "$PROFTOOL" export --to parquet -o tables "$G" &&
	test_one_line_err "proftool: export: cannot export to '\''parquet'\'' (tsv or csv) (see '\''proftool export --help'\'')"'

test_expect_success 'a bad input: one line, exit 1, no table left behind' '
	printf "garbage\n" >bad &&
	test_expect_code 1 "$PROFTOOL" export -o tables "$G" bad &&
	grep -q "^proftool: bad" err && test "$(wc -l <err)" = 1 && test -z "$(ls tables)"'

test_expect_success 'a profile without stacks cannot be exported' '
	test_expect_code 1 "$PROFTOOL" export -o tables "$SAMPLES/stackprof/cpu.dump" &&
	grep -q "^proftool: .*cpu.dump: cannot export: the profile has no stacks" err'

test_done
