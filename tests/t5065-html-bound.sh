#!/bin/sh
test_description='html: the page is bounded like the tree (callers/callees, the tree, the time order), with what was left out counted'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
DATA="python3 $SRCDIR/tests/html-data.py"

if ! command -v python3 >/dev/null 2>&1; then
	test_skip 'the page read by html-data.py' 'python3 missing'
	test_done
	exit
fi

test_expect_success 'callers/callees under --min-fraction: one (other) entry per function and side (edges.awk)' '
	"$PROFTOOL" convert --to html --min-fraction 0.02 -o p.html "$C/perfdemo-g.collapsed" &&
	$DATA p.html >data &&
	awk -f "$SRCDIR/tests/edges.awk" "$C/perfdemo-g.collapsed" >pairs &&
	total=$(awk "{ s += \$NF } END { print s }" "$C/perfdemo-g.collapsed") &&
	thr=$(awk -v t="$total" "BEGIN { printf \"%d\", t * 0.02 }") &&
	awk -v thr="$thr" "\$3 >= thr && \$3 > 0 { print \$1, \$2, \$3 }" pairs | LC_ALL=C sort >expect &&
	sed -n "s/^edge //p" data | LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	test "$(wc -l <expect)" -ge 5 &&
	awk -v thr="$thr" "\$3 < thr && \$3 > 0 { n[\$2]++; v[\$2] += \$3 } END { for (k in n) print k, n[k], v[k] }" pairs |
		LC_ALL=C sort >expect &&
	sed -n "s/^other-callers //p" data | LC_ALL=C sort >actual &&
	test_cmp expect actual && test -s expect &&
	awk -v thr="$thr" "\$3 < thr && \$3 > 0 { n[\$1]++; v[\$1] += \$3 } END { for (k in n) print k, n[k], v[k] }" pairs |
		LC_ALL=C sort >expect &&
	sed -n "s/^other-callees //p" data | LC_ALL=C sort >actual &&
	test_cmp expect actual'

test_expect_success '--min-fraction 0 keeps every pair and no (other) entry' '
	"$PROFTOOL" convert --to html --min-fraction 0 -o p.html "$C/perfdemo-g.collapsed" &&
	$DATA p.html >data &&
	awk -f "$SRCDIR/tests/edges.awk" "$C/perfdemo-g.collapsed" | awk "\$3 > 0" | LC_ALL=C sort >expect &&
	sed -n "s/^edge //p" data | LC_ALL=C sort >actual &&
	test_cmp expect actual && ! grep -q "^other-" data'

# every merged frame of a collapsed file, from its lines alone: "depth name value"
awk_frames () {
	awk '{ count = $NF; stack = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", stack)
		n = split(stack, f, ";"); key = ""
		for (i = 1; i <= n; i++) { key = key ";" f[i]; v[key] += count; d[key] = i - 1; name[key] = f[i] } }
		END { for (k in v) if (v[k] > 0) print d[k], name[k], v[k] }' "$1"
}

test_expect_success '--max-frames N draws the N widest nodes of the tree (an independent ranking)' '
	awk_frames "$C/perfdemo-g.collapsed" | sort -k3,3nr -k1,1n >ranked &&
	n=$(awk "NR > 30 && (\$3 != w || \$1 != d) { print NR - 1; exit } { w = \$3; d = \$1 }" ranked) &&
	"$PROFTOOL" convert --to html --min-fraction 0 --max-frames "$n" -o n.html "$C/perfdemo-g.collapsed" &&
	$DATA n.html >data &&
	head -n "$n" ranked | LC_ALL=C sort >expect &&
	sed -n "s/^node //p" data | LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	grep -qx "tree-nodes $((n + 1))" data'

test_expect_success 'a stack 60,000 frames deep: 50,000 nodes drawn, the roots, the page under 1 MB' '
	awk -v D=60000 -f "$SRCDIR/tests/deep-stack.awk" >deep.collapsed &&
	"$PROFTOOL" convert --to html -o deep.html deep.collapsed 2>err &&
	$DATA deep.html >data &&
	grep -qx "tree-nodes 50001" data && grep -qx "tree-cut 1" data &&
	test "$(sed -n "s/^size //p" data)" -le 1048576 &&
	sed -n "s/^node //p" data | sort -n | head -3 >actual &&
	printf "0 main 10\n1 f1 10\n2 f2 10\n" >expect && test_cmp expect actual &&
	"$PROFTOOL" convert --to html --max-frames 0 -o all.html deep.collapsed &&
	$DATA all.html | grep -qx "tree-nodes 60001"'

# N samples of one thread, each on a stack other than the one before
perf_samples () {
	awk -v N="$1" 'BEGIN { for (i = 0; i < N; i++) {
		printf "prog 100 %d.%06d: 1 cpu-clock: \n", 1 + int(i / 1000000), i % 1000000
		printf "\t%x leaf%d+0x1 (/bin/prog)\n\t%x mid%d+0x1 (/bin/prog)\n\t3000 main+0x1 (/bin/prog)\n\n", 4096 + i % 997, i % 997, 8192 + i % 50, i % 50 } }'
}

test_expect_success 'time order: runs under --min-fraction merge on their common caller; exact sum, bounded count' '
	perf_samples 20000 >t.perf &&
	"$PROFTOOL" convert --to html --min-fraction 0 -o all.html t.perf &&
	$DATA all.html 1 >all &&
	# without a bound: one run per change of stack (the input, read by awk)
	awk "/cpu-clock:/ { getline a; getline b; k = a b; if (k != last) n++; last = k; s++ } END { print \"runs\", n; print \"runs-sum\", s }" t.perf >expect &&
	grep "^runs" all >actual && test_cmp expect actual &&
	"$PROFTOOL" convert --to html --min-fraction 0.01 -o few.html t.perf &&
	$DATA few.html 1 >few &&
	grep -qx "runs-sum 20000" few &&
	# each run reaches 1% of a type'"'"'s total, or comes before one that does: two types
	test "$(sed -n "s/^runs //p" few)" -le $((2 * 2 * 100 + 1)) &&
	test "$(sed -n "s/^runs //p" few)" -ge 50'

test_done
