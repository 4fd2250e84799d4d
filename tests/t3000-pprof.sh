#!/bin/sh
test_description='pprof: reading Go profiles, top and traces as go tool pprof prints them, writing pprof'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go
R=$REF/pprof
ALL="--node-fraction 0 --edge-fraction 0"

# --- top --style pprof against go tool pprof -top (tests/ref/pprof, see COMMANDS) ---

test_expect_success 'cpu: top --style pprof equals go tool pprof -top' '
	"$PROFTOOL" top --style pprof "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.txt" actual'

test_expect_success 'cpu: top --style pprof --cum equals go tool pprof -top -cum' '
	"$PROFTOOL" top --style pprof --cum "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.cum.txt" actual'

test_expect_success 'cpu: every row (-nodefraction=0 -edgefraction=0), flat and cum order' '
	"$PROFTOOL" top --style pprof $ALL "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.all.txt" actual &&
	"$PROFTOOL" top --style pprof $ALL --cum "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.cum.all.txt" actual'

test_expect_success 'cpu: the raw (not gzipped) protobuf gives the same report' '
	"$PROFTOOL" top --style pprof "$G/cpu.pb" >actual &&
	test_cmp "$R/cpu-raw.pprof-top.txt" actual'

test_expect_success 'cpu: --sample-index samples (counts, no unit)' '
	"$PROFTOOL" top --style pprof --sample-index samples "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.samples.txt" actual'

test_expect_success 'heap: default index is the last type (inuse_space), with dropped nodes' '
	"$PROFTOOL" top --style pprof "$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.txt" actual &&
	"$PROFTOOL" top --style pprof --cum "$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.cum.txt" actual'

for idx in alloc_objects alloc_space inuse_objects inuse_space; do
	test_expect_success "heap: -sample_index=$idx, trimmed and every row, flat and cum" '
		for o in "" "--cum"; do
			c=${o:+.cum} &&
			"$PROFTOOL" top --style pprof $o --sample-index '$idx' "$G/heap.pb.gz" >actual &&
			test_cmp "$R/heap.pprof-top$c.'$idx'.txt" actual &&
			"$PROFTOOL" top --style pprof $ALL $o --sample-index '$idx' "$G/heap.pb.gz" >actual &&
			test_cmp "$R/heap.pprof-top$c.'$idx'.all.txt" actual || return 1
		done'
done

test_expect_success 'heap: --sample-index by number picks the same type as by name' '
	"$PROFTOOL" top --style pprof --sample-index 1 "$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.alloc_space.txt" actual'

test_expect_success 'goroutine: top and top --cum' '
	"$PROFTOOL" top --style pprof "$G/goroutine.pb.gz" >actual &&
	test_cmp "$R/goroutine.pprof-top.txt" actual &&
	"$PROFTOOL" top --style pprof --cum "$G/goroutine.pb.gz" >actual &&
	test_cmp "$R/goroutine.pprof-top.cum.txt" actual'

test_expect_success '-n cuts the rows as -nodecount does (unit and marks of the rebuilt graph)' '
	"$PROFTOOL" top --style pprof -n 3 "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.nodecount3.txt" actual &&
	"$PROFTOOL" top --style pprof --cum -n 5 "$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.cum.nodecount5.txt" actual'

# --- the default layout: same numbers, same inline marks ---

# "name flat cum" with pprof's units stripped to numbers is not comparable across
# layouts; compare which functions carry which inline mark instead, and that the rows
# are the same set of functions.
marks () {
	sed -n "/^ *flat/,\$p" "$1" | sed 1d | awk "{ print \$NF }" | grep inline | sort | uniq -c
}

test_expect_success 'default layout: one row per function, inline marks as pprof' '
	"$PROFTOOL" top -n 0 "$G/cpu.pb.gz" >actual &&
	marks "$R/cpu.pprof-top.all.txt" >want &&
	marks actual >got && test_cmp want got &&
	grep -q "main.mix (proftool-sample/main.go) (inline)$" actual &&
	grep -q "main.fold (proftool-sample/main.go) (partial-inline)$" actual &&
	test "$(sed -n "/^ *flat/,\$p" actual | sed 1d | wc -l)" = \
		"$(sed -n "/^ *flat/,\$p" "$R/cpu.pprof-top.all.txt" | sed 1d | wc -l)"'

test_expect_success 'default layout: csv flat/cum in nanoseconds match pprof rows' '
	"$PROFTOOL" top -n 0 --format csv "$G/cpu.pb.gz" | sed 1d |
		awk -F, "{ gsub(/\"/, \"\", \$1); printf \"%s %.2f %.2f\n\", \$1, \$4 / 1e9, \$6 / 1e9 }" |
		sort >got &&
	sed -n "/^ *flat/,\$p" "$R/cpu.pprof-top.all.txt" | sed 1d |
		awk "{ f = \$1; c = \$4; sub(/s\$/, \"\", f); sub(/s\$/, \"\", c);
			printf \"%s %.2f %.2f\n\", \$6, f, c }" | sort >want &&
	test_cmp want got'

# --- traces ---

for s in cpu heap goroutine; do
	test_expect_success "$s: traces equals go tool pprof -traces" '
		"$PROFTOOL" traces "$G/'$s'.pb.gz" >actual &&
		test_cmp "$R/'$s'.pprof-traces.txt" actual'
done

# --- writing pprof ---

test_expect_success 'convert --to pprof: gzipped by default, raw with --no-gzip' '
	"$PROFTOOL" convert --to pprof -o out.pb.gz "$G/cpu.pb.gz" &&
	test "$(od -An -tx1 -N2 out.pb.gz | tr -d " ")" = 1f8b &&
	"$PROFTOOL" convert --to pprof --no-gzip -o out.pb "$G/cpu.pb.gz" &&
	test "$(od -An -tx1 -N2 out.pb | tr -d " ")" != 1f8b &&
	gzip -dc out.pb.gz | cmp - out.pb'

test_expect_success 'the suffix of -o picks pprof' '
	"$PROFTOOL" convert -o x.pprof "$G/heap.pb.gz" &&
	"$PROFTOOL" convert -o y.pb.gz "$G/heap.pb.gz" &&
	"$PROFTOOL" convert -o z.pb --no-gzip "$G/heap.pb.gz" &&
	gzip -dc x.pprof | cmp - z.pb && gzip -dc y.pb.gz | cmp - z.pb'

for s in cpu heap goroutine; do
	test_expect_success "$s: what we write reads back to the same top and traces (labels too)" '
		"$PROFTOOL" convert --to pprof -o out.pb.gz "$G/'$s'.pb.gz" &&
		"$PROFTOOL" top --style pprof out.pb.gz >actual &&
		test_cmp "$R/'$s'.pprof-top.txt" actual &&
		"$PROFTOOL" traces out.pb.gz >actual &&
		test_cmp "$R/'$s'.pprof-traces.txt" actual'
done

test_expect_success 'convert --sample-index makes that type the default of the output' '
	"$PROFTOOL" convert --to pprof --sample-index alloc_space -o out.pb.gz "$G/heap.pb.gz" &&
	"$PROFTOOL" top --style pprof out.pb.gz >actual &&
	test_cmp "$R/heap.pprof-top.alloc_space.txt" actual &&
	"$PROFTOOL" convert --to pprof --sample-index inuse_space -o last.pb.gz "$G/heap.pb.gz" &&
	"$PROFTOOL" convert --to pprof -o plain.pb.gz "$G/heap.pb.gz" &&
	gzip -dc last.pb.gz >a && gzip -dc plain.pb.gz >b && cmp a b'

if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
	for s in cpu heap goroutine; do
		test_expect_success "$s: go tool pprof -raw on our output equals it on the original" '
			cp "$G/'$s'.pb.gz" orig.pb.gz &&
			"$PROFTOOL" convert --to pprof -o ours.pb.gz orig.pb.gz &&
			go tool pprof -raw orig.pb.gz >want 2>/dev/null &&
			go tool pprof -raw ours.pb.gz >got 2>/dev/null &&
			test_cmp want got'
	done
	test_expect_success 'go tool pprof takes the default type we write' '
		"$PROFTOOL" convert --to pprof --sample-index alloc_space -o out.pb.gz \
			"$G/heap.pb.gz" &&
		go tool pprof -top out.pb.gz 2>/dev/null | grep "^Type: " >got &&
		echo "Type: alloc_space" >want && test_cmp want got'
	test_expect_success 'random recursive stacks: every top layout equals go tool pprof' '
		awk "BEGIN { srand(7); for (i = 0; i < 3000; i++) { s = \"main\";
			d = 2 + int(rand() * 12); for (j = 0; j < d; j++) s = s \";f\" int(rand() * 60);
			print s, 1 + int(rand() * 100) } }" >r.collapsed &&
		"$PROFTOOL" convert --to pprof -o r.pb.gz r.collapsed &&
		for o in "" "-cum" "-nodefraction=0 -edgefraction=0" "-nodecount=7"; do
			go tool pprof -top $o r.pb.gz 2>/dev/null >want &&
			ours=$(echo "$o" | sed "s/^-cum/--cum/; s/-nodefraction=/--node-fraction /;
				s/-edgefraction=/--edge-fraction /; s/-nodecount=/-n /") &&
			"$PROFTOOL" top --style pprof $ours r.pb.gz >got &&
			test_cmp want got || return 1
		done'
	for c in perfdemo-g perfdemo-g-vs-dwarf.diff; do
		test_expect_success "collapsed $c -> pprof: go tool pprof -top totals equal ours" '
			"$PROFTOOL" convert --to pprof -o out.pb.gz "$SAMPLES/collapsed/'$c'.collapsed" &&
			for i in 0 1; do
				"$PROFTOOL" info out.pb.gz | grep -q "^  $i:" || continue
				go tool pprof -top -sample_index=$i out.pb.gz 2>/dev/null |
					sed -n "s/^Showing nodes accounting for .* of \(.*\) total\$/\1/p" >want &&
				"$PROFTOOL" top --style pprof --sample-index $i \
					"$SAMPLES/collapsed/'$c'.collapsed" |
					sed -n "s/^Showing nodes accounting for .* of \(.*\) total\$/\1/p" >got &&
				test -s want && test_cmp want got || return 1
			done &&
			go tool pprof -top -nodefraction=0 -edgefraction=0 out.pb.gz 2>/dev/null |
				sed -n "/^ *flat/,\$p" >want &&
			"$PROFTOOL" top --style pprof $ALL "$SAMPLES/collapsed/'$c'.collapsed" |
				sed -n "/^ *flat/,\$p" >got &&
			test_cmp want got'
	done
	# profile.proto: "mapping[0] will be the main binary"; go tool pprof names it in
	# File:, and so does top --style pprof from the perf text, past [kernel.kallsyms]
	test_expect_success 'perf -> pprof: the main binary is mapping[0], go tool pprof names ours' '
		n=0 &&
		for f in "$SAMPLES"/perf/*.txt; do
			"$PROFTOOL" convert --to pprof -o out.pb.gz "$f" &&
			go tool pprof -top out.pb.gz 2>/dev/null | sed -n "/^File: /p" >want &&
			"$PROFTOOL" top --style pprof "$f" 2>/dev/null | sed -n "/^File: /p" >got &&
			test_cmp want got || { echo "$f"; return 1; }
			grep -qx "File: perfdemo" got && n=$((n + 1))
		done &&
		test $n -ge 5'
else
	test_skip 'go tool pprof -raw round trip' 'go is not installed'
	test_skip 'collapsed -> pprof totals in go tool pprof' 'go is not installed'
	test_skip 'perf -> pprof: mapping[0] in go tool pprof' 'go is not installed'
fi

test_expect_success 'collapsed -> pprof -> our top: the same rows' '
	"$PROFTOOL" convert --to pprof -o out.pb.gz "$SAMPLES/collapsed/perfdemo-g.collapsed" &&
	"$PROFTOOL" top -n 0 --format csv "$SAMPLES/collapsed/perfdemo-g.collapsed" >want &&
	"$PROFTOOL" top -n 0 --format csv out.pb.gz >got && test_cmp want got'

# --- bad input ---

test_expect_success 'truncated at many offsets: exit 1 and one line each' '
	size=$(wc -c <"$G/cpu.pb") && n=1 &&
	while test $n -lt $size; do
		head -c $n "$G/cpu.pb" >t.pb &&
		test_expect_code 1 "$PROFTOOL" top t.pb &&
		test "$(wc -l <err)" = 1 && grep -q "^proftool: t.pb: " err &&
		test ! -s out || { echo "at $n bytes:"; cat err; return 1; }
		n=$((n + 89 * VALGRIND_STEP))
	done'

test_expect_success 'truncated gzip at many offsets: exit 1 and one line each' '
	size=$(wc -c <"$G/cpu.pb.gz") && n=1 &&
	while test $n -lt $size; do
		head -c $n "$G/cpu.pb.gz" >t.pb.gz &&
		test_expect_code 1 "$PROFTOOL" top t.pb.gz &&
		test "$(wc -l <err)" = 1 && grep -q "^proftool: t.pb.gz: " err ||
			{ echo "at $n bytes:"; cat err; return 1; }
		n=$((n + 53 * VALGRIND_STEP))
	done'

test_expect_success 'an unknown --style is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --style fancy "$G/cpu.pb.gz" &&
	grep -q "unknown style" err'

test_expect_success 'a bad --node-fraction is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --style pprof --node-fraction 2 "$G/cpu.pb.gz" &&
	test_expect_code 2 "$PROFTOOL" top --style pprof --edge-fraction x "$G/cpu.pb.gz"'

test_expect_success 'a sample at the root (an empty stack) is written and read back' '
	in="$SRCDIR/tests/data/fuzz-cpuprofile-root-sample.cpuprofile" &&
	"$PROFTOOL" convert --to pprof -o root.pb.gz "$in" &&
	"$PROFTOOL" top --format csv -n 0 "$in" >want &&
	"$PROFTOOL" top --format csv -n 0 root.pb.gz >got && test_cmp want got &&
	test "$("$PROFTOOL" info --format json "$in" | sed "s/.*\"total\":\([0-9]*\).*/\1/")" = \
		"$("$PROFTOOL" info --format json root.pb.gz | sed "s/.*\"total\":\([0-9]*\).*/\1/")"'

test_done
