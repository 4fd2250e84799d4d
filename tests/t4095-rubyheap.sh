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

# The reader takes a line as Ruby writes it by a fast path and anything else by the
# full JSON parser. A tab before the closing brace (JSON whitespace the fast path does
# not take) sends every line to the full parser: both must read the same graph.
# same_both_ways FILE: heap in several modes says the same of FILE and of FILE so
# changed (full/FILE, run from there, so both outputs name the same file)
same_both_ways () {
	mkdir -p full && sed "s/}\$/$(printf "\t")}/" "$1" >"full/$1" &&
	! cmp -s "$1" "full/$1" &&
	for o in "" "--by site" "--by generation" "--format json" "--pages"; do
		"$PROFTOOL" heap -n 0 $o "$1" >a 2>ea &&
		(cd full && "$PROFTOOL" heap -n 0 $o "$1" >../b 2>../eb) &&
		test_cmp a b && test_cmp ea eb || return 1
	done
}

test_expect_success 'the fast path reads real dumps as the full parser does' '
	for f in leaky-trace.json.gz series-2.json.gz; do
		gzip -dc "$R/$f" >d.json && same_both_ways d.json || exit 1
	done'

test_expect_success 'the fast path on unusual lines: the same as the full parser and rubyheap-summary.py' '
	cat >odd.json <<-\EOF &&
	{"type":"ROOT", "root":"vm", "references":["0x1000", "0x1028","0x1050" , "0x1078"]}
	{"type":"ROOT", "root":"machine", "references":[]}
	{"address":"0x1000", "type":"CLASS", "name":"Shop", "references":["0x1028"], "memsize":400, "flags":{"wb_protected":true, "pinned":true}}
	{"address":"0x1028", "type":"OBJECT", "class":"0x1000", "ivars":3, "references":["0x1050", "0x10a0","0x10c8"], "file":"a.rb", "line":3, "generation":null, "memsize":40}
	{"address":"0x1050", "type":"STRING", "class":"0x1000", "value":"q\"b\\s\/\u00e9\n\t", "bytesize":-1.5e+3, "x":1E2, "y":0.25, "z":false, "w":null, "file":"a.rb", "line":3, "generation":7, "memsize":41}
	{"address":"0x1078", "type":"ARRAY", "length":2, "references":["0x10a0"], "file":"b\u002erb", "line":9, "memsize":80, "flags":{"pinned":false}}
	{"address":"0x10a0", "type":"STRING", "embedded":true, "fstring":true, "value":"x", "file":"a.rb", "generation":7, "memsize":40, "flags":{"list":[1,2]}}
	{"address":"0x10c8", "type" : "HASH", "size":0, "memsize":160, "flags":{}}
	{"address":"0x10f0", "type":"DATA", "class":"0x1000", "struct":"t\u00fcp", "memsize":1000,"references":[ "0x1000" ]}
	{"address":"0x1118", "typ\u0065":"STRING", "memsize":7}
	EOF
	same_both_ways odd.json &&
	rows odd.json >ours &&
	python3 "$SRCDIR/tests/rubyheap-summary.py" odd.json >theirs &&
	test -s theirs && test_cmp theirs ours'

# The fast path reads an address 16 hex digits at a time where the line has room for
# them and a digit at a time near its end: every length from 1 to 16 digits, in either
# case, as an address, a class and a reference.
test_expect_success 'addresses of 1 to 16 hex digits: the same as the full parser and rubyheap-summary.py' '
	cat >hex.awk <<-\EOF &&
	function q(s) { return "\"" s "\"" }
	BEGIN {
		d = "f1e2d3c4b5a69788"; D = "123456789ABCDE98"
		for (n = 1; n <= 16; n++) { a[n] = "0x" substr(d, 1, n); b[n] = "0X" substr(D, 17 - n, n) }
		print "{" q("type") ":" q("ROOT") ", " q("references") ":[" q(a[16]) "]}"
		for (n = 1; n <= 16; n++) {
			print "{" q("address") ":" q(a[n]) ", " q("type") ":" q("OBJECT") ", " q("class") ":" q("0x5eed") ", " q("references") ":[" q(a[n > 1 ? n - 1 : 16]) ", " q(b[n]) "], " q("memsize") ":" 40 + n "}"
			print "{" q("address") ":" q(b[n]) ", " q("type") ":" q("STRING") ", " q("memsize") ":" 100 + n "}"
		}
		print "{" q("address") ":" q("0x5eed") ", " q("type") ":" q("CLASS") ", " q("name") ":" q("Hex") ", " q("memsize") ":8}"
	}
	EOF
	awk -f hex.awk >hex.json &&
	test $(wc -l <hex.json) = 34 &&
	same_both_ways hex.json &&
	rows hex.json >ours &&
	grep -q "^Hex,16,7" ours &&
	python3 "$SRCDIR/tests/rubyheap-summary.py" hex.json >theirs &&
	test -s theirs && test_cmp theirs ours'

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

# ruby-facts.py DUMP: what info says of a dump, counted from its lines apart from proftool:
# objects + 1 (ROOT), the memsizes' sum, objects with a file, and with a generation
cat >"$TRASH/ruby-facts.py" <<'PY'
import gzip, json, sys
op = gzip.open if sys.argv[1].endswith('.gz') else open
objs = mem = sites = gens = 0
lo = hi = None
for line in op(sys.argv[1], 'rt'):
    o = json.loads(line)
    if o.get('type') == 'ROOT':
        continue
    objs += 1
    mem += o.get('memsize', 0)
    sites += 'file' in o
    if 'generation' in o:
        gens += 1
        g = o['generation']
        lo = g if lo is None or g < lo else lo
        hi = g if hi is None or g > hi else hi
print(objs + 1, mem, sites, gens, lo, hi)
PY

test_expect_success 'info on a Ruby dump: its nodes, shallow size and tracing, counted apart' '
	for f in leaky.json.gz leaky-trace.json.gz series-3.json.gz; do
		set -- $(python3 "$TRASH/ruby-facts.py" "$SAMPLES/ruby/$f") &&
		"$PROFTOOL" info "$SAMPLES/ruby/$f" >out &&
		grep -qx "Format: rubyheap (a heap graph: '"'proftool heap'"' summarizes it)" out &&
		grep -qx "Nodes: $1 (the objects, and ROOT as node 0)" out &&
		grep -qx "Shallow size: $2 bytes" out &&
		if test "$3" = 0; then
			grep -q "^Allocation tracing: none" out
		else
			grep -qx "Allocation tracing: $3 objects with a site, $4 with a GC generation ($5 to $6)" out
		fi &&
		"$PROFTOOL" info --format json "$SAMPLES/ruby/$f" >j &&
		jq -e ".format == \"rubyheap\" and .nodes == $1 and .shallow_bytes == $2 and .traced_objects == $3" j || exit 1
	done'

test_expect_success 'the profile commands name the command that reads a Ruby dump' '
	test_expect_code 1 "$PROFTOOL" top "$SAMPLES/ruby/leaky.json.gz" &&
	test_one_line_err "proftool: $SAMPLES/ruby/leaky.json.gz: byte 0: a rubyheap heap dump, not a profile: '"'proftool heap'"' reads it"'

test_done
