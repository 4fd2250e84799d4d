#!/bin/sh
test_description='top folds stacks while reading: the same table as through the call tree'
. "$(dirname "$0")/lib.sh"

# `top` folds the stacks of pprof, collapsed and perf inputs into its table as they are read;
# tests/top-tree runs the same top through the library with the table always from the call
# tree (cmd_top_tree). Both ways must print the same bytes for every granularity, layout,
# format, order and sample type.
D=$SRCDIR/tests/data
TOP_TREE=$BUILDDIR/tests/top-tree

# same_both FILE ARGS...: top prints the same (and exits the same) both ways
same_both () {
	f=$1
	shift
	"$PROFTOOL" top -n 0 "$@" "$f" >folded 2>&1
	echo "exit $?" >>folded
	"$TOP_TREE" top -n 0 "$@" "$f" >tree 2>&1
	echo "exit $?" >>tree
	test_cmp tree folded
}

# every way of asking for the table, every sample type of FILE
all_ways () {
	ntypes=$("$PROFTOOL" info --format json "$1" | sed 's/.*"sample_types":\[//; s/\].*//' |
		grep -o '"name"' | wc -l)
	for g in functions files lines addresses; do
		same_both "$1" --granularity $g || return 1
		same_both "$1" --granularity $g --cum --style stackprof || return 1
		same_both "$1" --granularity $g --format csv --cum || return 1
		same_both "$1" --granularity $g --format json || return 1
	done
	t=1
	while test "$t" -lt "$ntypes"; do
		same_both "$1" --sample-index $t || return 1
		same_both "$1" --sample-index $t --format csv --granularity lines || return 1
		t=$((t + 1))
	done
}

for f in "$SAMPLES"/go/cpu.pb.gz "$SAMPLES"/go/heap.pb.gz "$SAMPLES"/go/goroutine.pb.gz \
	"$SAMPLES"/collapsed/perfdemo-g.collapsed \
	"$SAMPLES"/collapsed/perfdemo-g-vs-dwarf.diff.collapsed \
	"$D"/recursion.collapsed "$D"/mutual.collapsed "$D"/decimal.collapsed \
	"$SAMPLES"/perf/perfdemo-g.txt "$SAMPLES"/perf/perfdemo-2events.txt \
	"$SAMPLES"/perf/perfdemo-dwarf.txt; do
	test_expect_success "folded = tree: $(basename "$f")" "all_ways '$f'"
done

# stackprof's raw runs go to the fold coded one after another (a trie only once raw_lines
# comes to refine them): the same table as the tree's, with and without raw_lines
for f in "$SAMPLES"/stackprof/cpu-raw.dump "$SAMPLES"/stackprof/wall-raw.dump \
	"$SAMPLES"/stackprof/object-raw.dump "$SAMPLES"/stackprof/deep-raw.dump \
	"$SAMPLES"/stackprof/custom-raw.dump "$SAMPLES"/stackprof/cpu-raw.json; do
	test_expect_success "folded = tree: $(basename "$f")" "all_ways '$f'"
done
test_expect_success 'folded = tree: a stackprof dump with raw_lines' '
	printf "{\"version\":1.2,\"mode\":\"wall\",\"interval\":1000,\"samples\":4,\"frames\":{\"1\":{\"name\":\"a\",\"file\":\"f.rb\",\"line\":1,\"total_samples\":4,\"samples\":0},\"2\":{\"name\":\"b\",\"file\":\"f.rb\",\"line\":10,\"total_samples\":4,\"samples\":4}},\"raw\":[3,1,2,2,1,2,1,2,2,2,1,2,1],\"raw_lines\":[3,5,12,11,1,2,6,11,2,2,6,12,1],\"raw_timestamp_deltas\":[5,7,9,11]}\n" >rl.json &&
	all_ways rl.json
'

test_expect_success 'the go samples carry inline marks, and folding keeps them' '
	"$PROFTOOL" top -n 0 "$SAMPLES/go/cpu.pb.gz" >out &&
	grep -q " (inline)$" out &&
	same_both "$SAMPLES/go/cpu.pb.gz" &&
	same_both "$SAMPLES/go/heap.pb.gz" --sample-index alloc_space'

test_expect_success 'inline marks of a collapsed input (frames met as read)' '
	"$PROFTOOL" convert --to collapsed --inline "$SAMPLES/go/cpu.pb.gz" >inl.collapsed &&
	grep -q "_\[i\]" inl.collapsed &&
	"$PROFTOOL" top -n 0 inl.collapsed | grep -q "(inline)" &&
	same_both inl.collapsed &&
	same_both inl.collapsed --cum'

test_expect_success 'decimal counts rescaled while folding' '
	printf "a;b 1\na;c 2.5\na;b;b 0.25\n" >dec.collapsed &&
	same_both dec.collapsed --format csv &&
	"$PROFTOOL" top -n 0 --format csv dec.collapsed >out &&
	grep -q "^\"b\",\"\",0,1.25,33.3333,1.25,33.3333$" out'

test_expect_success 'perf options while folding' '
	same_both "$SAMPLES/perf/perfdemo-pidtid.txt" --tid --addrs &&
	same_both "$SAMPLES/perf/perfdemo-kernel.txt" --pid --no-tidy'

test_expect_success 'readers that build the tree themselves (.cpuprofile, stackprof)' '
	same_both "$SAMPLES/node/small.cpuprofile" --granularity lines &&
	same_both "$SAMPLES/stackprof/cpu-raw.dump" --style stackprof &&
	same_both "$SAMPLES/stackprof/cpu.dump" --format csv'

test_expect_success 'aggregate-only stackprof keeps its error for other granularities' '
	same_both "$SAMPLES/stackprof/cpu.dump" --granularity lines &&
	test_expect_code 1 "$PROFTOOL" top --granularity lines "$SAMPLES/stackprof/cpu.dump" &&
	grep -q "only function granularity is available" err'

test_expect_success 'a filter or pprof layout takes the tree (same output either way)' '
	same_both "$SAMPLES/go/cpu.pb.gz" --focus main &&
	same_both "$SAMPLES/go/cpu.pb.gz" --style pprof'

# pprof's layout keeps the distinct stacks as they are read (analysis/stacks.c) and builds
# its graph from them; top-tree builds it from the call tree, the walk the goldens of
# go tool pprof check (t3000, t3020, t3030). Both must print the same bytes, with every
# option the layout reads: the node and edge fractions and -n (which rebuild the graph
# without the dropped nodes), the inline marks, the granularities, each sample type.
same_pprof () {
	f=$1
	shift
	"$PROFTOOL" top --style pprof "$@" "$f" >stacks 2>&1
	echo "exit $?" >>stacks
	"$TOP_TREE" top --style pprof "$@" "$f" >tree 2>&1
	echo "exit $?" >>tree
	test_cmp tree stacks
}

pprof_ways () {
	ntypes=$("$PROFTOOL" info --format json "$1" | sed 's/.*"sample_types":\[//; s/\].*//' |
		grep -o '"name"' | wc -l)
	same_pprof "$1" &&
	same_pprof "$1" --cum -n 3 --node-fraction 0.05 &&
	same_pprof "$1" --granularity lines --node-fraction 0 --edge-fraction 0 &&
	same_pprof "$1" --granularity addresses --edge-fraction 0.2 || return 1
	t=1
	while test "$t" -lt "$ntypes"; do
		same_pprof "$1" --sample-index $t --cum || return 1
		t=$((t + 1))
	done
}

for f in "$SAMPLES"/go/cpu.pb.gz "$SAMPLES"/go/heap.pb.gz "$SAMPLES"/go/goroutine.pb.gz \
	"$SAMPLES"/gperftools/spin.cpu.prof "$SAMPLES"/collapsed/perfdemo-g-vs-dwarf.diff.collapsed \
	"$D"/recursion.collapsed "$D"/decimal.collapsed \
	"$SAMPLES"/perf/perfdemo-2events.txt "$SAMPLES"/perf/perfdemo-dwarf.txt \
	"$SAMPLES"/stackprof/wall-raw.dump; do
	test_expect_success "pprof layout, stacks = tree: $(basename "$f")" "pprof_ways '$f'"
done

test_expect_success 'pprof layout from stacks: inline marks of a collapsed input' '
	"$PROFTOOL" convert --to collapsed --inline "$SAMPLES/go/cpu.pb.gz" >inl.collapsed &&
	"$PROFTOOL" top --style pprof --node-fraction 0 inl.collapsed | grep -q "(inline)$" &&
	pprof_ways inl.collapsed'

# samples of one stack that cancel out, and the same stack under a label: the tree sums
# each (stack, label set) in one row (a row of 0 reaches no vertex), so do the rows of
# distinct stacks, and the total is of the rows: 0, 5, 3 and 2
test_expect_success 'pprof layout from stacks: samples of a stack that cancel out' '
	python3 "$SRCDIR/tests/crafted.py" pprof-cancel 2 >cancel.pb &&
	same_pprof cancel.pb --node-fraction 0 &&
	"$PROFTOOL" top --style pprof cancel.pb >out 2>/dev/null &&
	grep -q "^Showing nodes accounting for 0, 0% of 20 total$" out'

test_expect_success 'pprof layout from stacks: unsymbolized locations, a deep chain' '
	python3 "$SRCDIR/tests/crafted.py" pprof-nosym 3 >nosym.pb &&
	pprof_ways nosym.pb &&
	awk -v D=300 -v L=300 -f "$SRCDIR/tests/deep-chain.awk" >deep.cpuprofile &&
	"$PROFTOOL" convert --to pprof -o deep.pb.gz deep.cpuprofile &&
	pprof_ways deep.pb.gz'

test_expect_success 'a profile whose only sample is at the root (fuzz finding)' '
	same_both "$MALFORMED/fuzz/detect-fold-eb0fbdf6" &&
	"$PROFTOOL" top "$MALFORMED/fuzz/detect-fold-eb0fbdf6" >out &&
	grep -q "^Total: 1$" out'

test_expect_success 'bad input fails the same way' '
	printf "a;b x\n" >bad.collapsed &&
	same_both bad.collapsed &&
	same_both "$MALFORMED/pprof-bad-location.pb" &&
	same_both "$MALFORMED/pprof-bad-varint.pb"'

test_done
