#!/bin/sh
# t4090-rubyheap.sh: Ruby heap dumps (ObjectSpace.dump_all) through 'proftool heap'.
test_description='Ruby heap dumps: summary by class against an independent computation, bad input'
. "$(dirname "$0")/lib.sh"

R=$SAMPLES/ruby

if ! command -v python3 >/dev/null; then
	test_skip 'rubyheap tests' 'python3 is not installed'
	test_done
	exit
fi

# our summary as "name,count,memsize,retained" lines sorted by name
rows () {
	"$PROFTOOL" heap --format csv "$@" >h.csv &&
	tail -n +2 h.csv | python3 -c 'import csv, sys
for r in sorted(csv.reader(sys.stdin)): print(",".join(r))'
}

for s in leaky.json.gz leaky-trace.json.gz; do
	test_expect_success "$s: count, memsize and retained size per class as rubyheap-summary.py" '
		rows "$R/'"$s"'" >ours &&
		python3 "$SRCDIR/tests/rubyheap-summary.py" "$R/'"$s"'" >theirs &&
		test -s theirs && test_cmp theirs ours'
done

test_expect_success 'classes by their name: the leaked Order, LineItem and Point are there' '
	rows "$R/leaky.json.gz" >ours &&
	grep -q "^Order,[1-9]" ours && grep -q "^LineItem,[1-9]" ours &&
	grep -q "^Point,[1-9]" ours && grep -q "^(STRING),[1-9]" ours'

test_expect_success 'plain and gzipped read the same' '
	gzip -dc "$R/leaky.json.gz" >plain.json &&
	rows plain.json >a && rows "$R/leaky.json.gz" >b && test_cmp a b'

test_expect_success 'detected as rubyheap; other profile commands do not claim it' '
	"$PROFTOOL" formats >f && grep -q rubyheap f &&
	! "$PROFTOOL" top "$R/leaky.json.gz" 2>err && test -s err'

test_expect_success 'a reference to an address never defined is a counted warning' '
	printf "%s\n" "{\"type\":\"ROOT\", \"root\":\"vm\", \"references\":[\"0x10\", \"0x99\"]}" \
		"{\"address\":\"0x10\", \"type\":\"STRING\", \"memsize\":40, \"references\":[\"0x98\"]}" >d.json &&
	"$PROFTOOL" heap --format csv d.json >out 2>err &&
	echo "proftool: d.json:1: warning: 2 references to objects the input never defines (the first here), left out" >exp &&
	test_cmp exp err && grep -q "^\"(STRING)\",1,40,40$" out'

test_expect_success 'a 1 GB memsize is counted, not allocated' '
	printf "%s\n" "{\"type\":\"ROOT\", \"root\":\"vm\", \"references\":[\"0x10\"]}" \
		"{\"address\":\"0x10\", \"type\":\"STRING\", \"memsize\":1073741824}" >big.json &&
	# under 300 MB of address space, unless the build (a sanitizer) cannot run so
	if (ulimit -v 300000 && "$PROFTOOL" --version >/dev/null 2>&1); then
		(ulimit -v 300000 && "$PROFTOOL" heap --format csv big.json >out)
	else
		"$PROFTOOL" heap --format csv big.json >out
	fi &&
	grep -q "^\"(STRING)\",1,1073741824,1073741824$" out'

test_expect_success 'unknown types and fields are kept' '
	printf "%s\n" "{\"type\":\"ROOT\", \"root\":\"vm\", \"references\":[\"0x10\"]}" \
		"{\"address\":\"0x10\", \"type\":\"NEWTYPE\", \"shape_id\":7, \"flags\":{\"x\":[1,{}]}, \"memsize\":48}" >u.json &&
	"$PROFTOOL" heap --format csv u.json >out &&
	grep -q "^\"(NEWTYPE)\",1,48,48$" out'

# Every tests/malformed/rubyheap/NAME has NAME.err beside it holding the exact stderr
# line that `proftool heap NAME` prints (run from that directory).
for err in "$MALFORMED"/rubyheap/*.err; do
	input=$(basename "$err" .err)
	test_expect_success "malformed: $input" '
		(cd "$MALFORMED/rubyheap" && "$PROFTOOL" heap "'"$input"'" >"$OLDPWD/out" 2>"$OLDPWD/err");
		test $? = 1 && test ! -s out && test_cmp "$MALFORMED/rubyheap/'"$input"'.err" err &&
		grep -Eq "^proftool: [^:]+:[0-9]+: " err'
done

test_done
