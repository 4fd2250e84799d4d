#!/bin/sh
test_description='the viewers on every real input: time order, threads, real programs'
. "$(dirname "$0")/lib.sh"

plain_build_judges 'the viewers on every real input'
# The t50xx writer tests use collapsed inputs; here every reader's real samples go
# through the writers, so timelines, threads, inlined frames and units are exercised.
CHECK=$SRCDIR/tests/viewers/check.js
inputs="perf/perfdemo-pidtid.txt perf/perfdemo-dwarf.txt node/small.cpuprofile
	node/small.trace.json go/cpu.pb.gz go/heap.pb.gz"

if command -v node >/dev/null 2>&1 && test -d "$MODS/speedscope" && test -d "$MODS/ajv" &&
	test -d "$MODS/playwright-core" && test -x "${CHROMIUM:-/usr/bin/chromium}"; then
	test_expect_success 'speedscope: every real input is valid and opens in the app' '
		for i in $inputs; do
			"$PROFTOOL" convert --to speedscope "$SAMPLES/$i" >"$(basename $i).json" || exit 1
		done &&
		node "$CHECK" speedscope *.json >check.out 2>&1 || { cat check.out; exit 1; }
		test "$(grep -c ": loaded: " check.out)" = 6'

	test_expect_success 'speedscope: a .cpuprofile stays in time order' '
		"$PROFTOOL" convert --to speedscope "$SAMPLES/node/small.cpuprofile" >s.json &&
		node "$CHECK" ssdump s.json | cut -f3 >actual &&
		node -e "
			const p = JSON.parse(require(\"fs\").readFileSync(process.argv[1]));
			const byId = new Map(p.nodes.map(n => [n.id, n]));
			const parent = new Map();
			for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
			let prev = [], prevGC = false;
			for (const id of p.samples) {
				let names = [];
				for (let x = id; x !== undefined; x = parent.get(x)) {
					const f = byId.get(x).callFrame;
					if (f.functionName !== \"(root)\") names.unshift(f.functionName || \"(anonymous)\");
				}
				/* DevTools: (garbage collector) on the stack before it */
				const gc = names.length === 1 && names[0] === \"(garbage collector)\";
				if (gc) names = prevGC ? prev : prev.concat(names);
				prev = names;
				prevGC = gc;
				console.log(names.join(\";\"));
			}" "$SAMPLES/node/small.cpuprofile" >expect &&
		test_cmp expect actual'

	test_expect_success 'speedscope: one profile per perf thread' '
		"$PROFTOOL" convert --to speedscope "$SAMPLES/perf/perfdemo-pidtid.txt" >p.json &&
		node "$CHECK" ssdump p.json | cut -f1 | sort -u | wc -l >actual &&
		awk "/^[^ \t#]/ || /^ +[^ ]/ { if (match(\$0, /[0-9]+\/[0-9]+/)) print substr(\$0, RSTART, RLENGTH) }" \
			"$SAMPLES/perf/perfdemo-pidtid.txt" | sort -u | wc -l >expect &&
		test_cmp expect actual'
else
	test_skip 'speedscope on real inputs' 'node, the npm packages or chromium missing'
fi

if command -v callgrind_annotate >/dev/null 2>&1; then
	test_expect_success 'callgrind_annotate: program totals equal top on every real input' '
		for i in $inputs; do
			"$PROFTOOL" convert --to callgrind -o out.callgrind "$SAMPLES/$i" &&
			callgrind_annotate --inclusive=yes out.callgrind >ann 2>ann.err || exit 1
			! grep -q WARNING ann.err || { cat ann.err; exit 1; }
			total=$("$PROFTOOL" top --format json "$SAMPLES/$i" | sed "s/.*\"total\":\([0-9]*\).*/\1/") &&
			grep -q "^$(printf "%s" "$total" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") .*PROGRAM TOTALS" ann ||
				{ echo "$i: total $total"; grep "PROGRAM TOTALS" ann; exit 1; }
		done'
else
	test_skip 'callgrind_annotate on real inputs' 'valgrind missing'
fi

if command -v dot >/dev/null 2>&1; then
	test_expect_success 'dot: graphviz draws every real input without a word on stderr' '
		for i in $inputs; do
			"$PROFTOOL" convert --to dot "$SAMPLES/$i" | dot -Tsvg >g.svg 2>dot.err || exit 1
			test ! -s dot.err || { echo "$i:"; cat dot.err; exit 1; }
		done'
else
	test_skip 'dot on real inputs' 'graphviz missing'
fi

if command -v xmllint >/dev/null 2>&1; then
	test_expect_success 'svg: every real input gives well-formed XML, flame charts too' '
		for i in $inputs; do
			"$PROFTOOL" flamegraph "$SAMPLES/$i" >f.svg && xmllint --noout f.svg || exit 1
			"$PROFTOOL" flamegraph --flamechart "$SAMPLES/$i" >c.svg && xmllint --noout c.svg || exit 1
		done'
else
	test_skip 'svg on real inputs' 'xmllint missing'
fi

test_expect_success 'pprof written from every real input reads back to the same top' '
	for i in $inputs; do
		"$PROFTOOL" convert --to pprof -o x.pb.gz "$SAMPLES/$i" &&
		"$PROFTOOL" top --format csv -n 0 "$SAMPLES/$i" >top.orig &&
		"$PROFTOOL" top --format csv -n 0 x.pb.gz >top.pprof || exit 1
		test_cmp top.orig top.pprof || { echo "$i via pprof"; exit 1; }
	done'

# a .cpuprofile holds samples in time order; inputs with a timeline keep every sample
test_expect_success 'cpuprofile written from timeline inputs keeps every sample and stack' '
	for i in perf/perfdemo-pidtid.txt perf/perfdemo-dwarf.txt node/small.cpuprofile node/small.trace.json; do
		"$PROFTOOL" convert --to cpuprofile -o x.cpuprofile "$SAMPLES/$i" &&
		"$PROFTOOL" convert --to collapsed --sample-index samples "$SAMPLES/$i" >a &&
		"$PROFTOOL" convert --to collapsed --sample-index samples x.cpuprofile >b || exit 1
		test_cmp a b || { echo "$i via cpuprofile"; exit 1; }
	done'

test_done
