#!/bin/sh
test_description='html report, opened in headless Chromium and compared with top, diff and the filters'
. "$(dirname "$0")/lib.sh"

CHECK=$SRCDIR/tests/viewers/html-check.js
# screenshots of the views stay in the build folder, to be looked at
SHOTS=${BUILDDIR:-$SRCDIR}/tests/html-shots

test_expect_success 'convert --to html and -o *.html write one self-contained page' '
	"$PROFTOOL" convert --to html "$SAMPLES/perf/perfdemo-g.txt" >a.html &&
	"$PROFTOOL" convert -o b.html "$SAMPLES/perf/perfdemo-g.txt" &&
	cmp a.html b.html &&
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src .none.;" a.html &&
	! grep -Eiq "<(link|img|iframe)|src=|href=|https?://" a.html'

test_expect_success '--min-fraction: bad values are usage errors, named' '
	test_expect_code 2 "$PROFTOOL" convert --to html --min-fraction 2 "$SAMPLES/perf/perfdemo-g.txt" &&
	grep -q "bad value .2. for --min-fraction" err &&
	"$PROFTOOL" convert --help | grep -q -- "--min-fraction F"'

test_expect_success 'names with invalid UTF-8 or </script> cannot break the page' '
	printf "main;a\\377b;</script><b>x 5\\nmain;ok 2\\n" >bad.collapsed &&
	"$PROFTOOL" convert --to html bad.collapsed >bad.html &&
	test "$(grep -c "</script>" bad.html)" = 2 &&
	grep -q "a\\\\ufffdb" bad.html'

test_expect_success '--min-fraction merges narrow frames into their parent, totals stay exact' '
	"$PROFTOOL" convert --to html --min-fraction 0 "$SAMPLES/perf/perfdemo-g.txt" >all.html &&
	"$PROFTOOL" convert --to html --min-fraction 0.05 "$SAMPLES/perf/perfdemo-g.txt" >few.html &&
	nodes () { sed -n "s/.*\"tree\":{\"parent\":\[\([0-9,]*\)\].*/\1/p" "$1" | tr , "\n" | wc -l; } &&
	total () { sed -n "s/.*\"totals\":\[\([0-9,-]*\)\].*/\1/p" "$1"; } &&
	test "$(nodes few.html)" -lt "$(nodes all.html)" &&
	test "$(total few.html)" = "$(total all.html)" &&
	fns () { sed -n "s/.*\"fn\":{\"name\":\[\([0-9,]*\)\].*/\1/p" "$1"; } &&
	test "$(fns few.html)" = "$(fns all.html)"'

test_expect_success 'heap -o *.html: a V8 snapshot'"'"'s and a Ruby dump'"'"'s summary and retainers as a page' '
	for f in node/shapes-1.heapsnapshot.gz ruby/leaky.json.gz; do
		"$PROFTOOL" heap -o h.html "$SAMPLES/$f" &&
		grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src .none.;" h.html &&
		! grep -Eiq "<(link|img|iframe|script)|src=|href=|https?://" h.html &&
		"$PROFTOOL" heap --raw-sizes -n 0 "$SAMPLES/$f" >text &&
		sed -n "/^ *retained /,\$p" text | sed 1d | sed -E "s/^ +//; s/  +/ /g" >expect &&
		test "$(wc -l <expect)" -ge 10 &&
		sed -n "s|^<tr><td>||p" h.html | sed -E "s|</td></tr>$||; s|</td><td>| |g" |
			sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&amp;/\&/g" >actual &&
		test_cmp expect actual &&
		# the retainers of the ten largest classes, as heap --retainers prints them
		head -10 expect | cut -d" " -f6- | sed "s/[][\\^$.*+?(){}|]/\\\\&/g" | paste -sd"|" >classes &&
		"$PROFTOOL" heap --raw-sizes -n 10 --retainers "^($(cat classes))\$" "$SAMPLES/$f" >expect &&
		sed -n "/<pre id=\"pt-retainers\">/,/<\/pre>/p" h.html | sed "s/^<pre id=\"pt-retainers\">//; /^<\/pre>/d" |
			sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&amp;/\&/g" >actual &&
		test -s expect && test_cmp expect actual || return 1
	done'

test_expect_success '--granularity files: the table has the entries top has' '
	for g in functions files; do
		"$PROFTOOL" convert --to html --granularity $g "$SAMPLES/go/cpu.pb.gz" |
			sed -n "s/.*\"fn\":{\"name\":\[\([0-9,]*\)\].*/\1/p" | tr , "\n" | wc -l >actual &&
		"$PROFTOOL" top -n 0 --granularity $g "$SAMPLES/go/cpu.pb.gz" |
			sed -n "s/^Showing \([0-9]*\) of.*/\1/p" >expect &&
		test_cmp expect actual || return 1
	done &&
	test "$(cat actual)" -lt 20'

test_expect_success 'convert -o *.html of a heap graph: the heap page, its rows those of heap --format csv' '
	for f in node/shapes-1.heapsnapshot.gz ruby/leaky.json.gz; do
		"$PROFTOOL" convert -o c.html "$SAMPLES/$f" &&
		"$PROFTOOL" heap -o h.html "$SAMPLES/$f" && cmp c.html h.html &&
		"$PROFTOOL" convert --to html "$SAMPLES/$f" >c2.html && cmp c.html c2.html &&
		"$PROFTOOL" heap --format csv "$SAMPLES/$f" >rows.csv &&
		# the table read back by a parser of ours: retained, shallow, count and name of
		# each row, against the csv read by python csv module
		python3 -c "import csv, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
for name, count, shallow, retained in rows: print(retained, shallow, count, name)" rows.csv >expect &&
		test "$(wc -l <expect)" -ge 10 &&
		python3 -c "import html, re, sys
for m in re.finditer(r\"^<tr><td>(.*)</td></tr>$\", open(sys.argv[1]).read(), re.M):
    c = [html.unescape(x) for x in m.group(1).split(\"</td><td>\")]
    print(c[0], c[2], c[4], c[5])" c.html >actual &&
		test_cmp expect actual || return 1
	done'

plain_build_judges 'the report in Chromium'
if ! command -v node >/dev/null 2>&1 || ! test -d "$MODS/playwright-core" ||
	! test -x "${CHROMIUM:-/usr/bin/chromium}"; then
	test_skip 'the report in Chromium' 'node, playwright-core or Chromium missing (run tests/viewers/setup.sh)'
	test_done
	exit
fi

# top's first row as the table shows it: flat, flat%, cum, cum%, name (no sum%)
top_row () {
	"$PROFTOOL" top -n 1 "$@" >top.out || return 1
	# a profile without samples shows no row, and the page says none
	if grep -q "^Showing 0 of" top.out; then
		printf "row\tnone\n"
	else
		tail -1 top.out |
			sed -E "s/^ *([^ ]+) +([^ ]+) +[^ ]+ +([^ ]+) +([^ ]+)  (.*)$/row	\1	\2	\3	\4	\5/"
	fi
}

# The cases below make their pages into $P and each adds its probe to $P/jobs ("job OUT
# ARGS...": what html-check.js probe ARGS prints goes to $P/OUT); one browser then opens
# them all (the case "every page in one browser run"), and the cases after it read what
# each probe saw. One browser launch, and one page load for all the views of perfdemo-g.
P=$TRASH/p
mkdir -p "$P"
job () {
	{ printf "%s" "$P/$1" && shift && printf "\t%s" "$@" && echo; } >>"$P/jobs"
}
# the lines of one page in a probe of several, under its "== PAGE" line
page_of () {
	awk -v h="== $1" "\$0 == h { on = 1; next } /^== / { on = 0 } on" "$2"
}

test_expect_success 'every bundled sample as a page (a heap graph is the heap page, above)' '
	for f in "$SAMPLES"/*/*; do
		case $f in */make.sh|*/src|*/README) continue ;; esac
		# every profile; a heap graph (a Ruby dump) is for heap, not for the report
		"$PROFTOOL" info --format json "$f" >inf 2>/dev/null || continue
		! grep -q "\"heap_graph\":true" inf || continue
		n=$(echo "$f" | sed "s|^$SAMPLES/||; s|/|-|g")
		"$PROFTOOL" convert --to html -o "$P/$n.html" "$f" || return 1
		echo "$n.html" >>"$P/list"
	done &&
	test "$(wc -l <"$P/list")" -ge 30 &&
	job probe.out probe $(sed "s|^|$P/|" "$P/list")'

test_expect_success 'perfdemo-g: one page for the flame graph, the table and every view' '
	"$PROFTOOL" convert --to html -o "$P/g.html" "$SAMPLES/perf/perfdemo-g.txt" &&
	"$PROFTOOL" convert --to html -o "$P/g2.html" "$SAMPLES/perf/perfdemo-g.txt" &&
	cmp "$P/g.html" "$P/g2.html" && mkdir -p "$SHOTS" &&
	job views.out probe "$P/g.html" --search fault --shot "$SHOTS/perf" --table-click \
		--filter "^hot_" --sandwich hot_leaf --focus-click hot_leaf --focus-graph --axis --keys \
		--type 0'

test_expect_success 'five pages to search, with the graph' '
	i=0 && : >"$P/searches" && : >"$P/pages" &&
	for case in "perf/perfdemo-g.txt fault" "perf/perfdemo-g.txt ^(ping|pong)$" \
		"go/cpu.pb.gz main\.mix" "stackprof/cpu-raw.dump hot_leaf|Array" \
		"node/small.cpuprofile ^mix$"; do
		set -- $case && i=$((i + 1)) &&
		"$PROFTOOL" convert --to html -o "$P/s$i.html" --min-fraction 0 "$SAMPLES/$1" &&
		printf "%s\t%s\n" "$P/s$i.html" "$2" >>"$P/searches" && echo "s$i.html $1 $2" >>"$P/pages" || return 1
	done &&
	job search.out probe "$P"/s[1-5].html --search-for "$P/searches" --graph'

# bench's 100,000-stack tree over 20,000 functions: each function's stacks are spread
# over so many paths that --min-fraction folds them all into their callers, so a search
# share read from the drawn tree said "Matched 0%" for functions with 0.08% in top. The
# size bound needs the whole tree; the searches in Chromium take a tenth of it, whose
# functions are folded all the same (each in about seven stacks of ten thousand).
test_expect_success 'a 100,000-stack tree: a page of at most 5 MiB' '
	sh "$SRCDIR/bench/gen-many.sh" many.collapsed 100000 &&
	"$PROFTOOL" convert --to html -o many.html many.collapsed &&
	test "$(wc -c <many.html)" -le $((5 * 1048576)) &&
	test "$(wc -c <many.html)" -ge 1048576'

test_expect_success 'a 10,000-stack tree: 20 functions to search, top'"'"'s cum checked by awk' '
	sh "$SRCDIR/bench/gen-many.sh" "$P/many.collapsed" 10000 &&
	"$PROFTOOL" convert --to html -o "$P/many.html" "$P/many.collapsed" &&
	"$PROFTOOL" top --cum -n 0 --format json "$P/many.collapsed" >top.json &&
	# the 10 heaviest by cum and 10 spread over the rest: "name cum total"
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"top.json\", \"utf8\"));
		const pick = d.rows.filter((r, i) => i < 10 || (i % 1000 === 999 && i < 10000));
		for (const r of pick) console.log(r.name, r.cum, d.total);" >"$P/picked" &&
	test "$(wc -l <"$P/picked")" = 20 &&
	# top against an independent count (flatcum.awk: once per stack)
	awk -f "$SRCDIR/tests/flatcum.awk" "$P/many.collapsed" >fc &&
	awk "NR == FNR { c[\$1] = \$3; next } c[\$1] != \$2 { print \"top\", \$0, \"awk\", c[\$1]; bad = 1 } END { exit bad }" fc "$P/picked" &&
	# the tree drawn folds every function into its callers: no node of a picked one
	awk "{ print \"^\" \$1 \"\$\" }" "$P/picked" >"$P/res" &&
	job many.out probe "$P/many.html" --searches "$P/res"'

test_expect_success 'source lines: a page without the code and one with it' '
	"$PROFTOOL" convert --to html --sample-index samples -o "$P/n.html" "$SAMPLES/node/lines.cpuprofile" &&
	! grep -q "\"src\":" "$P/n.html" &&
	"$PROFTOOL" convert --to html --sample-index samples --source-path "$SAMPLES/node/src" \
		-o "$P/s.html" "$SAMPLES/node/lines.cpuprofile" &&
	grep -q "\"src\":" "$P/s.html" &&
	job lines.out probe "$P/n.html" "$P/s.html" --table-click --focus-click pong --focus-lines hotLines'

test_expect_success 'diff --to html: the frame that grew most and the one that shrank most' '
	B=$SAMPLES/perf/perfdemo-g.txt N=$SAMPLES/perf/perfdemo-dwarf.txt &&
	"$PROFTOOL" diff --to html -o "$P/d.html" "$B" "$N" &&
	"$PROFTOOL" diff --to collapsed "$B" "$N" >d.collapsed &&
	awk "{ n = \$NF; b = \$(NF-1); s = \$0; sub(/ [^ ]+ [^ ]+\$/, \"\", s); split(s, f, \";\");
		d[f[1]] += n - b; v[f[1]] += n } END { for (k in d) if (v[k] > 0) print d[k], k }" d.collapsed |
		sort -n >deltas &&
	tail -1 deltas | cut -d" " -f2- >"$P/grown" && test "$(tail -1 deltas | cut -d" " -f1)" -gt 0 &&
	head -1 deltas | cut -d" " -f2- >"$P/shrunk" && test "$(head -1 deltas | cut -d" " -f1)" -lt 0 &&
	mkdir -p "$SHOTS" &&
	job diff.out probe "$P/d.html" --pixel "$(cat "$P/grown")" --pixel "$(cat "$P/shrunk")" --shot "$SHOTS/diff"'

test_expect_success 'every page in one browser run' '
	node "$CHECK" batch "$P/jobs" >batch.out 2>&1 || { cat batch.out; false; } &&
	test "$(wc -l <"$P/jobs")" = 6 &&
	for f in probe views search many lines diff; do
		test -s "$P/$f.out" && ! grep "^failed " "$P/$f.out" || return 1
	done'

test_expect_success 'every bundled sample: drawn, top'"'"'s first row, time order exactly with a timeline, no errors, no requests' '
	while read -r h; do
		f=$SAMPLES/$(echo "$h" | sed "s/\.html$//; s|-|/|") &&
		page_of "$P/$h" "$P/probe.out" >one &&
		grep -qx "errors 0" one && grep -qx "requests 0" one &&
		if "$PROFTOOL" top --time-from 0 -n 1 "$f" >/dev/null 2>&1; then
			grep -qx "time yes" one && grep -qx "time-painted yes" one
		else
			grep -qx "time no" one
		fi &&
		if ! "$PROFTOOL" convert --to collapsed "$f" >coll 2>/dev/null; then
			grep -qx "flame no" one
		elif test -s coll; then
			grep -qx "painted yes" one && grep -q "^frames [1-9]" one
		else
			# a recording that took no samples (stackprof/empty-cpu.dump): a flame
			# graph with nothing in it
			grep -qx "flame yes" one && grep -qx "frames 0" one && grep -qx "total 0" one
		fi &&
		top_row "$f" | cut -f1-2,4,6 | sed "s/^row/flat-row/" >expect &&
		grep "^flat-row	" one >actual && test_cmp expect actual &&
		if grep -q "^diff yes" one; then
			: # sorted by the change by default: t6010 and the diff case below
		else
			top_row "$f" >expect && grep "^row	" one >actual && test_cmp expect actual
		fi || { echo "in $h:"; cat one; return 1; }
	done <"$P/list"'

test_expect_success 'hover, click zooms (breadcrumbs), Esc resets, / searches, arrows walk' '
	out=$P/views.out &&
	grep -qx "hover ok" "$out" &&
	grep -qx "zoom full crumbs [2-9]" "$out" &&
	grep -qx "reset crumbs 1" "$out" &&
	grep -qx "slash pt-search" "$out" &&
	grep -q "^walk [1-9]" "$out" &&
	grep -qx "errors 0" "$out" && test -s "$SHOTS/perf-flame.png" && test -s "$SHOTS/perf-table.png"'

test_expect_success 'the search share is what top --focus keeps; the graph has dot'"'"'s nodes' '
	while read -r page f re; do
		page_of "$P/$page" "$P/search.out" >out &&
		# the graph view has the nodes the dot writer draws with the same options
		"$PROFTOOL" convert --to dot --nodecount 80 "$SAMPLES/$f" |
			sed -n "s/^N[0-9]* \[label=\"\([^\\\\]*\)\\\\n.*/graph-node \1/p" | sort >expect &&
		test -s expect && grep "^graph-node " out | sort >actual &&
		test_cmp expect actual &&
		total=$("$PROFTOOL" top --format json --focus "$re" "$SAMPLES/$f" |
			sed -n "s/.*\"total\":\([0-9]*\).*/\1/p") &&
		all=$("$PROFTOOL" top --format json "$SAMPLES/$f" | sed -n "s/.*\"total\":\([0-9]*\).*/\1/p") &&
		echo "search $total $all" >expect && grep "^search " out >actual &&
		test_cmp expect actual && grep -qx "errors 0" out || { echo "in $page:"; cat out; return 1; }
	done <"$P/pages"'

test_expect_success 'the graph: no edge drawn across a node box (each long edge in a slot per layer)' '
	# edges crossing a node other than their own ends, before the slots: perfdemo-g 12 of
	# 93, go/cpu 5 of 38, stackprof 10 of 30, node/small 6 of 27
	for page in s1.html s3.html s4.html s5.html; do
		page_of "$P/$page" "$P/search.out" | grep "^graph-crossings " >actual &&
		read -r _ n all <actual && test "$n" = 0 && test "$all" -ge 20 || { cat actual; return 1; }
	done'

test_expect_success 'search shares equal top'"'"'s cum for 20 functions of a tree drawn without them' '
	grep -qx "errors 0" "$P/many.out" &&
	awk "{ print \"searched ^\" \$1 \"\$\", \$2, \$2, \$3 }" "$P/picked" >expect &&
	grep "^searched " "$P/many.out" >actual && test_cmp expect actual'

test_expect_success 'the sample type selector changes the totals and the table' '
	echo "total 108108108" >expect && echo "type-total 108" >>expect &&
	grep "^total \|^type-total " "$P/views.out" >actual && test_cmp expect actual &&
	top_row --sample-index samples "$SAMPLES/perf/perfdemo-g.txt" | sed "s/^row/type-row/" >expect &&
	grep "^type-row" "$P/views.out" >actual && test_cmp expect actual'

test_expect_success 'table: filter, sort by cum, callers and callees as method prints them' '
	out=$P/views.out &&
	grep -qx "filtered 1" "$out" &&
	grep -qx "rows 78" "$out" &&
	"$PROFTOOL" top --cum -n 1 "$SAMPLES/perf/perfdemo-g.txt" | tail -1 | sed "s/.*  /cum-row /" >expect &&
	grep "^cum-row" "$out" >actual && test_cmp expect actual &&
	"$PROFTOOL" method hot_leaf "$SAMPLES/perf/perfdemo-g.txt" >m &&
	awk "/^  callers:/ { on = 1; next } /^  [a-z]+:/ { on = 0 } on { print \$1 \"=\" \$NF }" m | sort >expect &&
	sed -n "s/^detail callers://p" "$out" | tr "|" "\n" | sort >actual &&
	test_cmp expect actual'

# the same page load as above: the sandwich, the refine, the time axis and the keys
test_expect_success 'sandwich of a function: the callers and callees tree prints' '
	"$PROFTOOL" tree --format json "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" >tree.json &&
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"tree.json\", \"utf8\"));
		for (const s of [\"callers\", \"callees\"])
			for (const r of d.nodes[0][s]) console.log(\"sandwich-\" + s, r.name + \"=\" + r.value);" |
		sort >expect &&
	test "$(wc -l <expect)" -ge 4 &&
	grep "^sandwich-call" "$P/views.out" | sort >actual && test_cmp expect actual &&
	"$PROFTOOL" top -n 1 --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" | tail -1 |
		sed -E "s/^ *([^ ]+) +[^ ]+ +[^ ]+ +([^ ]+) .*/hot_leaf: total \2 .*, self \1 .*/" >pat &&
	grep "^sandwich-title " "$P/views.out" | grep -q -f pat'

test_expect_success 'focus by a click equals top --focus: every row, its shares and order, and the hash' '
	"$PROFTOOL" top -n 0 --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" >top.out &&
	sed -n "/ flat  flat%/,\$p" top.out | sed 1d |
		sed -E "s/^ *([^ ]+) +([^ ]+) +[^ ]+ +([^ ]+) +([^ ]+)  (.*)$/focused	\1	\2	\3	\4	\5/" >expect &&
	test "$(wc -l <expect)" -ge 10 &&
	grep "^focused	" "$P/views.out" >actual && test_cmp expect actual &&
	"$PROFTOOL" top --format json --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" |
		sed -n "s/.*\"total\":\([0-9]*\).*/focused-total \1/p" >expect &&
	grep "^focused-total " "$P/views.out" >actual && test_cmp expect actual &&
	grep -qx "hash #view=table&focus=%5Ehot_leaf%24" "$P/views.out" &&
	grep -qx "unrefined-total 108108108" "$P/views.out"'

test_expect_success 'a refine by click recomputes the graph: the nodes and edges --to dot --focus draws' '
	"$PROFTOOL" convert --to dot --nodecount 80 --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" >f.dot &&
	sed -n "s/^N[0-9]* \[label=\"\([^\\\\]*\)\\\\n.*/graph-node \1/p" f.dot | sort >expect &&
	test "$(wc -l <expect)" -ge 5 &&
	sed -n "s/^focused-graph-node /graph-node /p" "$P/views.out" | sort >actual &&
	test_cmp expect actual &&
	# each edge by its ends, dotted (..>) where it skips dropped frames
	awk "/^N[0-9]+ \\[label=/ { s = \$0; sub(/^[^\"]*\"/, \"\", s); sub(/\\\\n.*/, \"\", s); nm[\$1] = s }
		/ -> / { print nm[\$1], (\$0 ~ /dotted/ ? \"..>\" : \"->\"), nm[\$3] }" f.dot | sort >expect &&
	test "$(wc -l <expect)" -ge 5 &&
	sed -n "s/^focused-graph-edge //p" "$P/views.out" | sort >actual &&
	test_cmp expect actual'

test_expect_success 'time order: the axis reads the profile'"'"'s span, wheel zooms, drag pans, threads stacked' '
	# the span of perf script'"'"'s own time stamps (seconds, to the microsecond), and its
	# threads (the field before the time)
	awk "/^[^ \t].* [0-9]+\.[0-9]+: / { for (i = 2; i <= NF; i++) if (\$i ~ /^[0-9]+\.[0-9]+:\$/) {
		t = \$i; sub(\":\", \"\", t); t += 0; if (!n++ || t < lo) lo = t; if (t > hi) hi = t
		if (!(\$(i - 1) in tid)) { tid[\$(i - 1)] = 1; nt++ } } }
		END { printf \"axis-span %.0f\\naxis-lanes %d\\n\", (hi - lo) * 1e9, nt }" \
		"$SAMPLES/perf/perfdemo-g.txt" >expect &&
	grep "^axis-span \|^axis-lanes " "$P/views.out" >actual && test_cmp expect actual &&
	grep -qx "axis-last-tick 100000000 10000000" "$P/views.out" &&
	grep -qx "axis-wheel in" "$P/views.out" && grep -qx "axis-drag earlier" "$P/views.out"'

test_expect_success '? shows the keys in the page, Esc closes them' '
	grep -qx "keys shown 13" "$P/views.out" && grep -qx "keys-closed true" "$P/views.out" &&
	grep -qx "errors 0" "$P/views.out"'

test_expect_success 'source lines of a function, as method counts them; --source-path embeds the code' '
	# --context 1: the page shows the range stackprof --method shows (the default of
	# method is the range of pprof -list, five lines past the last sampled one); counts,
	# as the page and method both show them with --sample-index samples (a .cpuprofile
	# defaults to its time)
	"$PROFTOOL" method --sample-index samples --context 1 --source-path "$SAMPLES/node/src" hotLines "$SAMPLES/node/lines.cpuprofile" >m &&
	sed -nE "s/^ *[0-9]+ +\([^)]*\) \/ +([0-9]+) +\([^)]*\) +\| +([0-9]+) +\|.*/\2=\1/p" m >expect &&
	test "$(wc -l <expect)" = 3 &&
	page_of "$P/n.html" "$P/lines.out" >n.out && page_of "$P/s.html" "$P/lines.out" >s.out &&
	grep -qx "errors 0" n.out && grep -qx "errors 0" s.out &&
	sed -n "s/^detail lines://p" n.out | tr "|" "\n" | sed -E "s/^([^=]*)=.*:([0-9]+)\$/\2=\1/" >actual &&
	test_cmp expect actual &&
	sed -n "s/^source //p" s.out >src.out &&
	awk -F: "\$2 != \"\" { print \$1 \"=\" \$2 }" src.out >actual &&
	test_cmp expect actual &&
	cut -d: -f1 src.out >actual &&
	sed -nE "s/^ +[^|]*\| +([0-9]+) +\|.*/\1/p" m >expect &&
	test_cmp expect actual &&
	grep -q "^13:1213:1213:  for (let i = 0; i < n; i++)" src.out'

test_expect_success 'a refine by click recomputes the source lines: those of method --focus' '
	"$PROFTOOL" method --sample-index samples --context 1 --focus "^pong\$" hotLines "$SAMPLES/node/lines.cpuprofile" >m &&
	sed -nE "s/^ *[0-9]+ +\([^)]*\) \/ +([0-9]+) +\([^)]*\) +\| +([0-9]+) +\|.*/\2=\1/p" m >expect &&
	test "$(wc -l <expect)" -ge 2 &&
	# not the whole profile'"'"'s: 1213 samples on line 13 in all
	! grep -qx "13=1213" expect &&
	page_of "$P/n.html" "$P/lines.out" | sed -n "s/^focused-detail lines://p" |
		tr "|" "\n" | sed -E "s/^([^=]*)=.*:([0-9]+)\$/\2=\1/" >actual &&
	test_cmp expect actual &&
	# and the total of each line (method prints total / self)
	sed -nE "s/^ *([0-9]+) +\([^)]*\) \/ +([0-9]+) +\([^)]*\) +\| +([0-9]+) +\|.*/\3=\2\/\1/p" m >expect &&
	page_of "$P/n.html" "$P/lines.out" | sed -n "s/^focused-line //p" >actual &&
	test_cmp expect actual'

test_expect_success 'diff --to html: a grown frame is red, a shrunk one blue' '
	out=$P/diff.out &&
	grep -qx "errors 0" "$out" &&
	read -r r g b name <<-EOF &&
	$(grep "^pixel " "$out" | sed -n 1s/^pixel.//p)
	EOF
	test "$name" = "$(cat "$P/grown")" && test "$r" = 255 && test "$g" -lt 255 && test "$g" = "$b" &&
	read -r r g b name <<-EOF &&
	$(grep "^pixel " "$out" | sed -n 2s/^pixel.//p)
	EOF
	test "$name" = "$(cat "$P/shrunk")" && test "$b" = 255 && test "$r" -lt 255 && test "$r" = "$g"'

test_done
