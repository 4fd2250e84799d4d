#!/bin/sh
test_description='top --style pprof --granularity lines|addresses: rows as go tool pprof -top -lines / -addresses'
. "$(dirname "$0")/lib.sh"

# References: tests/ref/pprof (made by regen.sh; each command is in COMMANDS)
G=$SAMPLES/go
R=$REF/pprof
ALL="--node-fraction 0 --edge-fraction 0"

test_expect_success 'cpu -lines, every row: "func file:line" and inline marks per line' '
	"$PROFTOOL" top --style pprof --granularity lines $ALL "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.lines.txt" actual &&
	grep -q "  main.mix proftool-sample/main.go:43 (inline)$" actual'

test_expect_success 'cpu -lines with the default trimming, and by cum' '
	"$PROFTOOL" top --style pprof --granularity lines "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.lines.trim.txt" actual &&
	"$PROFTOOL" top --style pprof --granularity lines --cum $ALL "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.cum.lines.txt" actual'

test_expect_success 'cpu -lines -nodecount=4: the graph rebuilt from four line nodes' '
	"$PROFTOOL" top --style pprof --granularity lines -n 4 "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.lines.nodecount4.txt" actual'

test_expect_success 'cpu -addresses: "%016x func file:line" rows, trimmed, every row, by cum' '
	"$PROFTOOL" top --style pprof --granularity addresses $ALL "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.addresses.txt" actual &&
	grep -q "  00000000004b9986 main.mix proftool-sample/main.go:43 (inline)$" actual &&
	"$PROFTOOL" top --style pprof --granularity addresses "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.addresses.trim.txt" actual &&
	"$PROFTOOL" top --style pprof --granularity addresses --cum $ALL "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.cum.addresses.txt" actual'

test_expect_success 'heap alloc_space: -lines and -addresses' '
	"$PROFTOOL" top --style pprof --granularity lines --sample-index alloc_space \
		"$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.lines.alloc_space.txt" actual &&
	"$PROFTOOL" top --style pprof --granularity addresses --sample-index alloc_space \
		"$G/heap.pb.gz" >actual &&
	test_cmp "$R/heap.pprof-top.addresses.alloc_space.txt" actual'

test_expect_success 'goroutine -lines' '
	"$PROFTOOL" top --style pprof --granularity lines "$G/goroutine.pb.gz" >actual &&
	test_cmp "$R/goroutine.pprof-top.lines.txt" actual'

test_expect_success 'functions granularity is still one row per function name' '
	"$PROFTOOL" top --style pprof --granularity functions "$G/cpu.pb.gz" >actual &&
	test_cmp "$R/cpu.pprof-top.txt" actual'

# pprof files our writer makes from other formats, against the go tool pprof installed
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
	test_expect_success 'cpuprofile -> pprof: -lines rows with file names cleaned as pprof does' '
		"$PROFTOOL" convert --to pprof -o l.pb.gz "$SAMPLES/node/lines.cpuprofile" &&
		go tool pprof -top -lines l.pb.gz 2>/dev/null | sed 1d >want &&
		"$PROFTOOL" top --style pprof --granularity lines l.pb.gz | sed 1d >got &&
		test_cmp want got &&
		grep -q " hotLines file:/[^/]" got'
	test_expect_success 'perf and stackprof -> pprof: -lines and -addresses rows' '
		for f in "$SAMPLES/perf/perfdemo-dwarf.txt" "$SAMPLES/stackprof/cpu-raw.dump"; do
			"$PROFTOOL" convert --to pprof -o c.pb.gz "$f" &&
			for g in lines addresses; do
				go tool pprof -top -$g c.pb.gz 2>/dev/null | sed 1d >want &&
				"$PROFTOOL" top --style pprof --granularity $g c.pb.gz | sed 1d >got &&
				test_cmp want got || return 1
			done
		done'
else
	test_skip 'cpuprofile -> pprof: -lines rows' 'go is not installed'
	test_skip 'perf and stackprof -> pprof: -lines and -addresses rows' 'go is not installed'
fi

test_done
