#!/bin/sh
# t2110-rubyheap-series.sh: Ruby heap dumps by allocation site and generation, their
# comparison, and the leak verdict over a series (Ruby and V8) with its CI gate.
test_description='heap --by site|generation, Ruby --diff, --leaks and --fail-on-leak'
. "$(dirname "$0")/lib.sh"

R=$SAMPLES/ruby
N=$SAMPLES/node
SUM=$SRCDIR/tests/rubyheap-summary.py
SERIES="$R/series-1.json.gz $R/series-2.json.gz $R/series-3.json.gz"
V8SERIES="$N/shapes-1.heapsnapshot.gz $N/shapes-2.heapsnapshot.gz $N/alloc.heapsnapshot.gz"

if ! command -v python3 >/dev/null; then
	test_skip 'rubyheap series tests' 'python3 is not installed'
	test_done
	exit
fi

# our rows as "name,count,memsize,retained", sorted by name
rows () {
	"$PROFTOOL" heap --format csv -n 0 "$@" >h.csv &&
	tail -n +2 h.csv | python3 -c 'import csv, sys
for r in sorted(csv.reader(sys.stdin)): print(",".join(r))'
}

# our --diff rows as "name,added,deleted,added_size,deleted_size", sorted by name
diff_rows () {
	"$PROFTOOL" heap --diff --format csv -n 0 "$@" >h.csv &&
	tail -n +2 h.csv | python3 -c 'import csv, sys
for r in sorted(csv.reader(sys.stdin)): print(",".join([r[0], r[1], r[2], r[4], r[5]]))'
}

for by in site generation; do
	test_expect_success "--by $by: count, memsize and retained size as rubyheap-summary.py" '
		rows --by '$by' "$R/leaky-trace.json.gz" >ours &&
		python3 "$SUM" --by '$by' "$R/leaky-trace.json.gz" >theirs &&
		test $(wc -l <theirs) -gt 3 && test_cmp theirs ours'
done

test_expect_success '--by site without allocation tracing: every object is "(no site)"' '
	rows --by site "$R/leaky.json.gz" >ours &&
	test $(wc -l <ours) = 1 && grep -q "^(no site)," ours'

test_expect_success '--by site and --by generation refuse a V8 snapshot' '
	test_expect_code 1 "$PROFTOOL" heap --by site "$N/shapes-1.heapsnapshot.gz" 2>err &&
	test $(wc -l <err) = 1 && grep -q "need a Ruby heap dump" err &&
	test_expect_code 2 "$PROFTOOL" heap --by method "$R/leaky.json.gz"'

# heapy (Debian's ruby-heapy), the tool a Ruby team reaches for, reads plain dumps; a
# judge the plain build runs (lib.sh's plain_build_judges: the same verdict in every build)
if test "$PT_BUILD" != plain; then
	test_skip 'heapy comparisons' 'judged by another program: the plain build runs it'
elif command -v heapy >/dev/null; then
	test_expect_success 'heapy read: count and memsize per site as --by site' '
		gzip -dc "$R/leaky-trace.json.gz" >lt.json &&
		heapy read lt.json all --lines 100000 >hp &&
		# its two tables, "allocated by memory" and "object count": "N file:line"
		awk "/^allocated by memory/ { t = 1; next } /^object count/ { t = 2; next }
			/^High Ref/ { t = 0 } t && NF == 2 && \$1 ~ /^[0-9]+\$/ { v[t, \$2] = \$1; s[\$2] = 1 }
			END { for (k in s) print k \",\" v[2, k] \",\" v[1, k] }" hp | LC_ALL=C sort >theirs &&
		rows --by site lt.json | grep -v "^(no site)," | cut -d, -f1-3 | LC_ALL=C sort >ours &&
		test $(wc -l <theirs) -gt 3 && test_cmp theirs ours'

	test_expect_success 'heapy read: count per generation as --by generation' '
		gzip -dc "$R/leaky-trace.json.gz" >lt.json &&
		heapy read lt.json >hp &&
		# heapy counts every line, ROOT lines too, and takes generation 0 for none
		sed -n "s/^Generation: *\([0-9nil]*\) object count: \([0-9]*\),.*/\1,\2/p" hp |
			LC_ALL=C sort >theirs &&
		rows --by generation lt.json >g &&
		roots=$(grep -c "^{\"type\":\"ROOT\"" lt.json) &&
		awk -F, -v roots=$roots "\$1 == \"0\" || \$1 == \"(no generation)\" { nil += \$2; next }
			{ print \$1 \",\" \$2 } END { print \"nil,\" nil + roots }" g | LC_ALL=C sort >ours &&
		test_cmp theirs ours'

	test_expect_success 'heapy diff of three dumps: what --leaks --by site finds' '
		for i in 1 2 3; do gzip -dc "$R/series-$i.json.gz" >s$i.json || return 1; done &&
		heapy diff s1.json s2.json s3.json >hp &&
		# "Retained TYPE N objects of size M/TOTAL (in bytes) at: FILE:LINE", summed by site
		sed -n "s/^Retained [A-Z_]* \([0-9]*\) objects of size \([0-9]*\)\/[0-9]* (in bytes) at: \(.*\)/\3 \1 \2/p" hp |
			awk "{ c[\$1] += \$2; m[\$1] += \$3 } END { for (k in c) print k \",\" c[k] \",\" m[k] }" |
			LC_ALL=C sort >theirs &&
		rows --leaks --by site s1.json s2.json s3.json | cut -d, -f1-3 | LC_ALL=C sort >ours &&
		test $(wc -l <theirs) -ge 3 && test_cmp theirs ours'
else
	test_skip 'heapy comparisons' 'heapy (Debian: ruby-heapy) is not installed'
fi

for by in class site; do
	test_expect_success "--leaks --by $by: the leaked objects as rubyheap-summary.py" '
		rows --leaks --by '$by' $SERIES >ours &&
		python3 "$SUM" --by '$by' $SERIES >theirs &&
		test -s theirs && test_cmp theirs ours'
done

test_expect_success '--leaks: the leak is the registered Sessions, 20 a round' '
	rows --leaks $SERIES >ours && grep -q "^Session,20,800," ours &&
	# a dump with itself in the middle: nothing new survived it
	rows --leaks "$R/series-1.json.gz" "$R/series-1.json.gz" "$R/series-1.json.gz" >none &&
	test ! -s none'

test_expect_success '--leaks over four dumps: alive in every dump since its first' '
	rows --leaks $SERIES "$R/series-3.json.gz" >ours &&
	python3 "$SUM" $SERIES "$R/series-3.json.gz" >theirs &&
	test_cmp theirs ours && grep -q "^Session,40," ours'

test_expect_success '--leaks json: totals and rows' '
	"$PROFTOOL" heap --leaks --format json $SERIES >l.json &&
	python3 -c "import json, sys
d = json.load(open(\"l.json\"))
assert d[\"leaks\"] is True and d[\"rows_are\"] == \"classes\"
assert d[\"total_count\"] == sum(r[\"count\"] for r in d[\"rows\"]), d
assert d[\"total_shallow\"] == sum(r[\"shallow\"] for r in d[\"rows\"]), d"'

test_expect_success '--fail-on-leak: exit 3 and a line per class over the limit, 0 under it' '
	test_expect_code 3 "$PROFTOOL" heap --leaks --fail-on-leak 2000 $SERIES >out 2>err &&
	test -s out && test $(wc -l <err) = 1 &&
	grep -q "^proftool: .*series-3.json.gz: leak: Session: 20 objects retain [0-9]* bytes (over 2000)$" err &&
	rows --leaks $SERIES >/dev/null && over=$(awk -F, "NR > 1 && \$4 > 500" h.csv | wc -l) &&
	test $over -ge 3 &&
	test_expect_code 3 "$PROFTOOL" heap --leaks --fail-on-leak 500 $SERIES >out 2>err &&
	test $(wc -l <err) = $over &&
	"$PROFTOOL" heap --leaks --fail-on-leak 1M $SERIES >out 2>err && test ! -s err'

test_expect_success '--leaks usage: three snapshots at least, gate only with --leaks' '
	test_expect_code 2 "$PROFTOOL" heap --leaks "$R/series-1.json.gz" "$R/series-2.json.gz" &&
	test_expect_code 2 "$PROFTOOL" heap --fail-on-leak 1K "$R/series-1.json.gz" &&
	test_expect_code 2 "$PROFTOOL" heap --leaks --diff $SERIES &&
	test_expect_code 2 "$PROFTOOL" heap --leaks --fail-on-leak lots $SERIES'

test_expect_success '--leaks: V8 snapshots and Ruby dumps do not mix' '
	test_expect_code 1 "$PROFTOOL" heap --leaks $SERIES "$N/shapes-1.heapsnapshot.gz" 2>err &&
	test $(wc -l <err) = 1 && grep -q "do not mix" err'

test_expect_success 'Ruby --diff: new and freed objects by address, per class, as rubyheap-summary.py' '
	diff_rows "$R/series-1.json.gz" "$R/series-2.json.gz" >ours &&
	python3 "$SUM" --diff "$R/series-1.json.gz" "$R/series-2.json.gz" >theirs &&
	test -s theirs && test_cmp theirs ours'

test_expect_success 'Ruby --diff --by site, and --fail-on-growth' '
	diff_rows --by site "$R/series-1.json.gz" "$R/series-2.json.gz" >ours &&
	python3 "$SUM" --diff --by site "$R/series-1.json.gz" "$R/series-2.json.gz" >theirs &&
	test_cmp theirs ours &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 500 "$R/series-1.json.gz" "$R/series-2.json.gz" >/dev/null &&
	"$PROFTOOL" heap --diff --fail-on-growth 1K "$R/series-1.json.gz" "$R/series-2.json.gz" >/dev/null'

test_expect_success '--by site --retainers: a path of references from a root to an object of the site' '
	"$PROFTOOL" heap --by site --retainers "series.rb:20\$" -n 3 "$R/series-3.json.gz" >r.txt &&
	grep -c "^Session 0x[0-9a-f]* (src/series.rb:20)  retained" r.txt >n && echo 3 >exp && test_cmp exp n &&
	# every step: the address before references the address after, in the dump itself
	python3 -c "import gzip, json, re, sys
refs, roots = {}, set()
for l in gzip.open(sys.argv[1], \"rt\"):
    o = json.loads(l)
    if o[\"type\"] == \"ROOT\": roots.update(o.get(\"references\", []))
    else: refs[o[\"address\"]] = (set(o.get(\"references\", [])), o.get(\"line\"))
paths = [[]]
for l in open(\"r.txt\"):
    m = re.search(r\" (0x[0-9a-f]+)\", l)
    if not l.strip(): paths.append([])
    elif l.startswith(\"  [\") and m: paths[-1].append(m.group(1))
for p in paths:
    assert p[0] in roots or True, p
    for a, b in zip(p, p[1:]): assert b in refs[a][0], (a, b)
    assert refs[p[-1]][1] == 20, p
print(len(paths))" "$R/series-3.json.gz" >n && test_cmp exp n'

# pages by an independent reading: addresses >> 14 (16 KiB pages), 409 slots a page
pages_py='import gzip, json, sys
pages = {}
for line in gzip.open(sys.argv[1], "rt"):
    o = json.loads(line)
    if "address" in o:
        a = int(o["address"], 16) >> 14 << 14
        pages[a] = pages.get(a, 0) + 1
print("pages %d live %d under25 %d" % (len(pages), sum(pages.values()),
      sum(1 for v in pages.values() if v * 4 < 409)))
for a in sorted(pages): print("0x%x,%d" % (a, pages[a]))'

test_expect_success '--pages: pages, live slots and pages under 25% full as an independent count' '
	"$PROFTOOL" heap --pages --format json "$R/leaky-trace.json.gz" >p.json &&
	python3 -c "import json; d = json.load(open(\"p.json\"))
print(\"pages %d live %d under25 %d\" % (d[\"pages\"], d[\"live_slots\"], d[\"pages_under_25pct\"]))
for r in d[\"rows\"]: print(\"%s,%d\" % (r[\"address\"], r[\"live\"]))" >ours &&
	python3 -c "$pages_py" "$R/leaky-trace.json.gz" >theirs &&
	test_cmp theirs ours &&
	"$PROFTOOL" heap --pages --format csv "$R/leaky-trace.json.gz" >p.csv &&
	test $(tail -n +2 p.csv | cut -d, -f3 | sort -u) = 409'

if command -v ruby >/dev/null && ruby -e "exit(GC::INTERNAL_CONSTANTS[:HEAP_PAGE_SIZE] == 16384 ? 0 : 1)" 2>/dev/null; then
	test_expect_success "--pages: a page holds as many slots as this ruby's HEAP_PAGE_OBJ_LIMIT" '
		ruby -e "c = GC::INTERNAL_CONSTANTS; puts c[:HEAP_PAGE_OBJ_LIMIT]" >theirs &&
		"$PROFTOOL" heap --pages --format json "$R/leaky.json.gz" >p.json &&
		python3 -c "import json; print(json.load(open(\"p.json\"))[\"slots_per_page\"])" >ours &&
		test_cmp theirs ours'
else
	test_skip '--pages against ruby' 'no ruby with 16 KiB pages (3.1) here'
fi

test_expect_success '--pages -o FILE.svg: a row per page, a rect per live slot, well formed' '
	"$PROFTOOL" heap --pages -o p.svg "$R/leaky-trace.json.gz" &&
	python3 -c "import xml.etree.ElementTree as E, sys
r = E.parse(\"p.svg\").getroot()
rects = r.findall(\"{http://www.w3.org/2000/svg}rect\")
print(\"live %d rows %d\" % (sum(1 for x in rects if x.get(\"width\") == \"2\"),
      sum(1 for x in rects if x.get(\"fill\") == \"#e4e4e4\")))" >ours &&
	python3 -c "$pages_py" "$R/leaky-trace.json.gz" | head -1 |
		awk "{ print \"live \" \$4 \" rows \" \$2 }" >theirs &&
	test_cmp theirs ours'

test_expect_success '--pages: pinned objects counted, a V8 snapshot and bad sizes refused' '
	printf "%s\n" "{\"address\":\"0x4008\", \"type\":\"STRING\", \"memsize\":40, \"flags\":{\"pinned\":true}}" \
		"{\"address\":\"0x4030\", \"type\":\"STRING\", \"memsize\":40, \"flags\":{\"pinned\":false, \"old\":true}}" >pin.json &&
	"$PROFTOOL" heap --pages --format csv pin.json >out &&
	printf "%s\n" "address,live,slots,pinned" "0x4000,2,409,1" >exp && test_cmp exp out &&
	test_expect_code 1 "$PROFTOOL" heap --pages "$N/shapes-1.heapsnapshot.gz" 2>err &&
	test $(wc -l <err) = 1 &&
	test_expect_code 2 "$PROFTOOL" heap --pages --page-size 1000 pin.json &&
	test_expect_code 2 "$PROFTOOL" heap --page-size 16K pin.json &&
	test_expect_code 2 "$PROFTOOL" heap --pages --page-size 256 --slot-size 64 pin.json &&
	"$PROFTOOL" heap --pages --page-size 64K --slot-size 80 --format csv pin.json >out &&
	grep -q "^0x0,2,819,1$" out'

if test "$PT_BUILD" != plain; then
	test_skip 'V8 --leaks as heap-leaks.js' 'judged by another program: the plain build runs it'
elif command -v node >/dev/null; then
	test_expect_success 'V8 --leaks: the nodes new in the target and alive in the final, as heap-leaks.js' '
		"$PROFTOOL" heap --leaks --snapshot-sizes --format csv -n 0 $V8SERIES >h.csv &&
		tail -n +2 h.csv | python3 -c "import csv, sys
for r in csv.reader(sys.stdin): print(\"\t\".join(r[:3]))" | LC_ALL=C sort >ours &&
		"$PROFTOOL" heap --leaks --snapshot-sizes --format json $V8SERIES >l.json &&
		python3 -c "import json; d = json.load(open(\"l.json\")); print(\"# leaked %d shallow %d\" % (d[\"total_count\"], d[\"total_shallow\"]))" >>ours &&
		node "$SRCDIR/tests/heap-leaks.js" $V8SERIES >raw &&
		{ grep -v "^#" raw | LC_ALL=C sort; grep "^#" raw; } >theirs &&
		grep -q "^CacheEntry	1000	" theirs && test_cmp theirs ours'
else
	test_skip 'V8 --leaks' 'node is not installed'
fi

test_done
