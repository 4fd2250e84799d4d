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

test_expect_success 'every bundled sample: drawn, top'"'"'s first row, time order exactly with a timeline, no errors, no requests' '
	for f in "$SAMPLES"/*/*; do
		case $f in */make.sh|*/src|*/README) continue ;; esac
		# every profile; a heap graph (a Ruby dump) is for heap, not for the report
		"$PROFTOOL" info --format json "$f" >inf 2>/dev/null || continue
		! grep -q "\"heap_graph\":true" inf || continue
		n=$(echo "$f" | sed "s|^$SAMPLES/||; s|/|-|g")
		"$PROFTOOL" convert --to html -o "$n.html" "$f" || return 1
		echo "$n.html" >>list
	done &&
	test "$(wc -l <list)" -ge 30 &&
	node "$CHECK" probe $(cat list) >probe.out 2>&1 || { cat probe.out; return 1; }
	while read -r h; do
		f=$SAMPLES/$(echo "$h" | sed "s/\.html$//; s|-|/|") &&
		awk -v h="== $h" "\$0 == h { on = 1; next } /^== / { on = 0 } on" probe.out >one &&
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
	done <list'

test_expect_success 'hover, click zooms (breadcrumbs), Esc resets, / searches, arrows walk' '
	"$PROFTOOL" convert --to html -o g.html "$SAMPLES/perf/perfdemo-g.txt" &&
	mkdir -p "$SHOTS" &&
	node "$CHECK" probe g.html --search fault --shot "$SHOTS/perf" >out 2>&1 || { cat out; false; } &&
	grep -qx "hover ok" out &&
	grep -qx "zoom full crumbs [2-9]" out &&
	grep -qx "reset crumbs 1" out &&
	grep -qx "slash pt-search" out &&
	grep -q "^walk [1-9]" out &&
	grep -qx "errors 0" out && test -s "$SHOTS/perf-flame.png" && test -s "$SHOTS/perf-table.png"'

test_expect_success 'the search share is what top --focus keeps; the graph has dot'"'"'s nodes' '
	# one browser for the five pages, each with its own search
	i=0 && : >searches && : >pages &&
	for case in "perf/perfdemo-g.txt fault" "perf/perfdemo-g.txt ^(ping|pong)$" \
		"go/cpu.pb.gz main\.mix" "stackprof/cpu-raw.dump hot_leaf|Array" \
		"node/small.cpuprofile ^mix$"; do
		set -- $case && i=$((i + 1)) &&
		"$PROFTOOL" convert --to html -o s$i.html --min-fraction 0 "$SAMPLES/$1" &&
		printf "s%s.html\t%s\n" $i "$2" >>searches && echo "s$i.html $1 $2" >>pages || return 1
	done &&
	node "$CHECK" probe s1.html s2.html s3.html s4.html s5.html --search-for searches --graph \
		>out.all 2>&1 || { cat out.all; false; } &&
	while read -r page f re; do
		awk -v h="== $page" "\$0 == h { on = 1; next } /^== / { on = 0 } on" out.all >out &&
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
	done <pages'

# bench's 100,000-stack tree over 20,000 functions: each function's stacks are spread
# over so many paths that --min-fraction folds them all into their callers, so a search
# share read from the drawn tree said "Matched 0%" for functions with 0.08% in top
test_expect_success 'a 100,000-stack tree: a page of at most 5 MiB, search shares equal top'"'"'s cum for 20 functions' '
	sh "$SRCDIR/bench/gen-many.sh" many.collapsed 100000 &&
	"$PROFTOOL" convert --to html -o many.html many.collapsed &&
	test "$(wc -c <many.html)" -le $((5 * 1048576)) &&
	"$PROFTOOL" top --cum -n 0 --format json many.collapsed >top.json &&
	# the 10 heaviest by cum and 10 spread over the rest: "name cum total"
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"top.json\", \"utf8\"));
		const pick = d.rows.filter((r, i) => i < 10 || (i % 1000 === 999 && i < 10000));
		for (const r of pick) console.log(r.name, r.cum, d.total);" >picked &&
	test "$(wc -l <picked)" = 20 &&
	# top against an independent count (flatcum.awk: once per stack)
	awk -f "$SRCDIR/tests/flatcum.awk" many.collapsed >fc &&
	awk "NR == FNR { c[\$1] = \$3; next } c[\$1] != \$2 { print \"top\", \$0, \"awk\", c[\$1]; bad = 1 } END { exit bad }" fc picked &&
	awk "{ print \"^\" \$1 \"\$\" }" picked >res &&
	node "$CHECK" probe many.html --searches res >out 2>&1 || { cat out; false; } &&
	grep -qx "errors 0" out &&
	awk "{ print \"searched ^\" \$1 \"\$\", \$2, \$2, \$3 }" picked >expect &&
	grep "^searched " out >actual && test_cmp expect actual'

test_expect_success 'the sample type selector changes the totals and the table' '
	"$PROFTOOL" convert --to html -o g.html "$SAMPLES/perf/perfdemo-g.txt" &&
	node "$CHECK" probe g.html --type 0 >out 2>&1 || { cat out; false; } &&
	echo "total 108108108" >expect && echo "type-total 108" >>expect &&
	grep "total " out >actual && test_cmp expect actual &&
	top_row --sample-index samples "$SAMPLES/perf/perfdemo-g.txt" | sed "s/^row/type-row/" >expect &&
	grep "^type-row" out >actual && test_cmp expect actual'

test_expect_success 'table: filter, sort by cum, callers and callees as method prints them' '
	"$PROFTOOL" convert --to html -o g.html "$SAMPLES/perf/perfdemo-g.txt" &&
	node "$CHECK" probe g.html --table-click --filter "^hot_" --sandwich hot_leaf \
		--focus-click hot_leaf --axis --keys >out 2>&1 || { cat out; false; } &&
	cp out ../views.out &&
	grep -qx "filtered 1" out &&
	grep -qx "rows 78" out &&
	"$PROFTOOL" top --cum -n 1 "$SAMPLES/perf/perfdemo-g.txt" | tail -1 | sed "s/.*  /cum-row /" >expect &&
	grep "^cum-row" out >actual && test_cmp expect actual &&
	"$PROFTOOL" method hot_leaf "$SAMPLES/perf/perfdemo-g.txt" >m &&
	awk "/^  callers:/ { on = 1; next } /^  [a-z]+:/ { on = 0 } on { print \$1 \"=\" \$NF }" m | sort >expect &&
	sed -n "s/^detail callers://p" out | tr "|" "\n" | sort >actual &&
	test_cmp expect actual'

# the same page load as above (its probe kept in the trash folder, which every case
# shares): the sandwich, the refine, the time axis and the keys
test_expect_success 'sandwich of a function: the callers and callees tree prints' '
	"$PROFTOOL" tree --format json "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" >tree.json &&
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"tree.json\", \"utf8\"));
		for (const s of [\"callers\", \"callees\"])
			for (const r of d.nodes[0][s]) console.log(\"sandwich-\" + s, r.name + \"=\" + r.value);" |
		sort >expect &&
	test "$(wc -l <expect)" -ge 4 &&
	grep "^sandwich-call" ../views.out | sort >actual && test_cmp expect actual &&
	"$PROFTOOL" top -n 1 --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" | tail -1 |
		sed -E "s/^ *([^ ]+) +[^ ]+ +[^ ]+ +([^ ]+) .*/hot_leaf: total \2 .*, self \1 .*/" >pat &&
	grep "^sandwich-title " ../views.out | grep -q -f pat'

test_expect_success 'focus by a click equals top --focus: every row, its shares and order, and the hash' '
	"$PROFTOOL" top -n 0 --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" >top.out &&
	sed -n "/ flat  flat%/,\$p" top.out | sed 1d |
		sed -E "s/^ *([^ ]+) +([^ ]+) +[^ ]+ +([^ ]+) +([^ ]+)  (.*)$/focused	\1	\2	\3	\4	\5/" >expect &&
	test "$(wc -l <expect)" -ge 10 &&
	grep "^focused	" ../views.out >actual && test_cmp expect actual &&
	"$PROFTOOL" top --format json --focus "^hot_leaf\$" "$SAMPLES/perf/perfdemo-g.txt" |
		sed -n "s/.*\"total\":\([0-9]*\).*/focused-total \1/p" >expect &&
	grep "^focused-total " ../views.out >actual && test_cmp expect actual &&
	grep -qx "hash #view=table&focus=%5Ehot_leaf%24" ../views.out &&
	grep -qx "unrefined-total 108108108" ../views.out'

test_expect_success 'time order: the axis reads the profile'"'"'s span, wheel zooms, drag pans, threads stacked' '
	# the span of perf script'"'"'s own time stamps (seconds, to the microsecond), and its
	# threads (the field before the time)
	awk "/^[^ \t].* [0-9]+\.[0-9]+: / { for (i = 2; i <= NF; i++) if (\$i ~ /^[0-9]+\.[0-9]+:\$/) {
		t = \$i; sub(\":\", \"\", t); t += 0; if (!n++ || t < lo) lo = t; if (t > hi) hi = t
		if (!(\$(i - 1) in tid)) { tid[\$(i - 1)] = 1; nt++ } } }
		END { printf \"axis-span %.0f\\naxis-lanes %d\\n\", (hi - lo) * 1e9, nt }" \
		"$SAMPLES/perf/perfdemo-g.txt" >expect &&
	grep "^axis-span \|^axis-lanes " ../views.out >actual && test_cmp expect actual &&
	grep -qx "axis-last-tick 100000000 10000000" ../views.out &&
	grep -qx "axis-wheel in" ../views.out && grep -qx "axis-drag earlier" ../views.out'

test_expect_success '? shows the keys in the page, Esc closes them' '
	grep -qx "keys shown 13" ../views.out && grep -qx "keys-closed true" ../views.out &&
	grep -qx "errors 0" ../views.out'

test_expect_success 'source lines of a function, as method counts them; --source-path embeds the code' '
	# counts, as the page and method both show them with --sample-index samples (a
	# .cpuprofile with times defaults to its wall type)
	"$PROFTOOL" convert --to html --sample-index samples -o n.html "$SAMPLES/node/lines.cpuprofile" &&
	! grep -q "\"src\":" n.html &&
	"$PROFTOOL" convert --to html --sample-index samples --source-path "$SAMPLES/node/src" \
		-o s.html "$SAMPLES/node/lines.cpuprofile" &&
	node "$CHECK" probe n.html s.html --table-click >out 2>&1 || { cat out; false; } &&
	# --context 1: the page shows the range stackprof --method shows (the default of
	# method is the range of pprof -list, five lines past the last sampled one)
	"$PROFTOOL" method --sample-index samples --context 1 --source-path "$SAMPLES/node/src" \
		hotLines "$SAMPLES/node/lines.cpuprofile" >m &&
	sed -nE "s/^ *[0-9]+ +\([^)]*\) \/ +([0-9]+) +\([^)]*\) +\| +([0-9]+) +\|.*/\2=\1/p" m >expect &&
	test "$(wc -l <expect)" = 3 &&
	awk "/^== n.html/ { on = 1 } /^== s.html/ { on = 0 } on" out | sed -n "s/^detail lines://p" |
		tr "|" "\n" | sed -E "s/^([^=]*)=.*:([0-9]+)\$/\2=\1/" >actual &&
	test_cmp expect actual &&
	awk "/^== s.html/ { on = 1 } on" out | sed -n "s/^source //p" >src.out &&
	awk -F: "\$2 != \"\" { print \$1 \"=\" \$2 }" src.out >actual &&
	test_cmp expect actual &&
	cut -d: -f1 src.out >actual &&
	sed -nE "s/^ +[^|]*\| +([0-9]+) +\|.*/\1/p" m >expect &&
	test_cmp expect actual &&
	grep -q "^13:1213:1213:  for (let i = 0; i < n; i++)" src.out'

test_expect_success 'diff --to html: a grown frame is red, a shrunk one blue' '
	B=$SAMPLES/perf/perfdemo-g.txt N=$SAMPLES/perf/perfdemo-dwarf.txt &&
	"$PROFTOOL" diff --to html -o d.html "$B" "$N" &&
	"$PROFTOOL" diff --to collapsed "$B" "$N" >d.collapsed &&
	awk "{ n = \$NF; b = \$(NF-1); s = \$0; sub(/ [^ ]+ [^ ]+\$/, \"\", s); split(s, f, \";\");
		d[f[1]] += n - b; v[f[1]] += n } END { for (k in d) if (v[k] > 0) print d[k], k }" d.collapsed |
		sort -n >deltas &&
	grown=$(tail -1 deltas | cut -d" " -f2-) && test "$(tail -1 deltas | cut -d" " -f1)" -gt 0 &&
	shrunk=$(head -1 deltas | cut -d" " -f2-) && test "$(head -1 deltas | cut -d" " -f1)" -lt 0 &&
	mkdir -p "$SHOTS" &&
	node "$CHECK" probe d.html --pixel "$grown" --pixel "$shrunk" --shot "$SHOTS/diff" >out 2>&1 ||
		{ cat out; false; } &&
	grep -qx "errors 0" out &&
	read -r r g b name <<-EOF &&
	$(grep "^pixel " out | sed -n 1s/^pixel.//p)
	EOF
	test "$name" = "$grown" && test "$r" = 255 && test "$g" -lt 255 && test "$g" = "$b" &&
	read -r r g b name <<-EOF &&
	$(grep "^pixel " out | sed -n 2s/^pixel.//p)
	EOF
	test "$name" = "$shrunk" && test "$b" = 255 && test "$r" -lt 255 && test "$r" = "$g"'

test_done
