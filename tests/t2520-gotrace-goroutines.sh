#!/bin/sh
test_description='proftool goroutines on Go execution traces: the time split per start function and the GC summary, against go tool trace'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go
R=$REF/gotrace
D=$SRCDIR/tests/data
AWK_SPLIT=$SRCDIR/tests/gotrace/gosplit.awk
NEVER='(never ran in the trace)'

# tests/ref/gotrace (make.sh): trace-S.gosplit.txt holds, per goroutine, the split that
# tests/gotrace/gosplit.awk computes from the events `go tool trace -d` prints;
# trace-S.goroutine-pages.txt what go tool trace's own goroutine pages show.

# every goroutine and column of the pages against the exact reference, printed as the
# page prints (cmd/trace's niceDuration: truncated to ns below 10us, us below 10ms, ms
# below 10s, else s); the pages have no assist column
pages_vs_split () {
	LC_ALL=C awk -F '\t' '
		function nice(d) {
			if (d < 10000) return d "ns"
			if (d < 10000000) return int(d / 1000) "\302\265s"
			if (d < 10000000000) return int(d / 1000000) "ms"
			return int(d / 1000000000) "s "
		}
		FNR == NR { split($0, v, " "); want[v[2]] = nice(v[11]) " " nice(v[3]) " " \
			nice(v[4]) " " nice(v[5]) " " nice(v[6]) " " nice(v[7]) " " nice(v[8]) " " \
			nice(v[10]); next }
		{ n++; if (want[$2] != $3) { print "goroutine " $2 ": page " $3 ", split " want[$2]; bad = 1 } }
		END { if (!n) { print "no goroutines"; bad = 1 } exit bad }' "$1" "$2"
}

# "function count execution network sync syscall sched sweep assist gc total", the
# goroutines summed by the group go tool trace's pages put them in (by start PC; the
# goroutines that never ran form one group without a name)
ref_groups () {
	LC_ALL=C awk -F '\t' -v never="$NEVER" '
		FNR == NR { split($0, v, " "); for (i = 3; i <= 11; i++) val[v[2], i] = v[i]; next }
		{ name = $4 == "" ? never : $4; if (!(name in cnt)) order[++n] = name; cnt[name]++
		  for (i = 3; i <= 11; i++) sum[name, i] += val[$2, i] }
		END { for (k = 1; k <= n; k++) { name = order[k]; printf "%s %d", name, cnt[name]
			for (i = 3; i <= 11; i++) printf " %.0f", sum[name, i]; printf "\n" } }' \
		"$1" "$2" | LC_ALL=C sort
}
# the same from our CSV (function, file, line, count, then the nine columns)
our_groups () {
	LC_ALL=C awk 'NR > 1 {
		s = $0; sub(/^"/, "", s); i = index(s, "\","); name = substr(s, 1, i - 1)
		rest = substr(s, i + 2); sub(/^"[^"]*",/, "", rest); n = split(rest, v, ",")
		printf "%s", name; for (k = 2; k <= n; k++) printf " %s", v[k]; printf "\n" }' |
		LC_ALL=C sort
}

for s in blocking many gc; do
	test_expect_success "$s: the exact reference agrees with go tool trace's goroutine pages" '
		pages_vs_split "$R/trace-'$s'.gosplit.txt" "$R/trace-'$s'.goroutine-pages.txt"'

	test_expect_success "$s: every group's count and time split equal go tool trace's, to the nanosecond" '
		ref_groups "$R/trace-'$s'.gosplit.txt" "$R/trace-'$s'.goroutine-pages.txt" >expect &&
		"$PROFTOOL" goroutines --format csv "$G/trace-'$s'.trace" | our_groups >actual &&
		test_cmp expect actual'

	test_expect_success "$s: the GC summary equals the one counted from go tool trace -d" '
		sed -n "s/^GC //p" "$R/trace-'$s'.gosplit.txt" >expect &&
		"$PROFTOOL" goroutines --format json "$G/trace-'$s'.trace" >j &&
		sed "s/.*\"gc\":{\"cycles\":\([0-9]*\),\"nanoseconds\":\([0-9]*\),\"stw_count\":\([0-9]*\),\"stw_nanoseconds\":\([0-9]*\),\"stw_longest_nanoseconds\":\([0-9]*\)}.*/\1 \2 \3 \4 \5/" j >actual &&
		test_cmp expect actual'
done

test_expect_success 'the gc sample has GC cycles, stop-the-world phases, sweeps and assists' '
	awk "/^GC / { exit !(\$2 > 0 && \$4 > 0) }" "$R/trace-gc.gosplit.txt" &&
	awk "/^G / { sw += \$7; as += \$8 } END { exit !(sw > 0 && as > 0) }" "$R/trace-gc.gosplit.txt"'

if test "$PT_BUILD" != plain; then
	test_skip 'go tool trace -d run now' 'judged by another program: the plain build runs it'
elif command -v go >/dev/null 2>&1; then
	for s in blocking many gc; do
		test_expect_success "$s: go tool trace -d run now gives the committed reference" '
			go tool trace -d "$G/trace-'$s'.trace" 2>/dev/null |
				awk -f "$AWK_SPLIT" >now &&
			test_cmp "$R/trace-'$s'.gosplit.txt" now'
	done
	test_expect_success 'crafted traces: go tool trace -d and the reference script agree with us' '
		go tool trace -d "$D/gotrace-gc.trace" 2>/dev/null | awk -f "$AWK_SPLIT" >ref &&
		grep -q "^GC 2 " ref &&
		"$PROFTOOL" goroutines --format json "$D/gotrace-gc.trace" >j &&
		grep -q "\"gc\":{\"cycles\":2,\"nanoseconds\":290," j'
else
	test_skip 'go tool trace -d run now' 'no go on PATH (Debian package golang-go): the committed references stand'
fi

# tests/data/gotrace-counted.trace (tests/gotrace/craft.py): g2 (main.worker) made at
# 10 ns, started at 30, blocked receiving at 130, unblocked at 1130, started at 1135,
# ended at 1185
test_expect_success 'crafted trace: the split counted by hand' '
	cat >expect <<-\EOT &&
	function,file,line,count,execution,network,sync,syscall,sched,sweep,assist,gc,total
	"main.worker","main.go",20,1,150,0,1000,0,25,0,0,0,1175
	EOT
	"$PROFTOOL" goroutines --format csv "$D/gotrace-counted.trace" >actual &&
	test_cmp expect actual'

# tests/data/gotrace-gc.trace (craft.py's gc_events): g2 (main.worker) made at 10,
# started at 50 (sched 40), assists 60-90, sweeps 100-120, ends at 350 (execution 300,
# total 340); g3 made at 30 never runs (sched and total 380 to the last event, 410).
# GC 1 runs 20-200, GC 2 from 300 to the end: g2 lived 180 ns of GC 1 and 50 of GC 2
# before it ended, and Go counts GC 2 to the end of the trace once more for every
# goroutine (340 in all); g3 lived 170 of GC 1 and 110 of GC 2 (280). Stop-the-world
# 20-35 and 400-410.
test_expect_success 'crafted GC trace: the split and the GC summary counted by hand' '
	cat >expect <<-EOT &&
	function,file,line,count,execution,network,sync,syscall,sched,sweep,assist,gc,total
	"main.worker","main.go",20,1,300,0,0,0,40,20,30,340,340
	"$NEVER","",0,1,0,0,0,0,380,0,0,280,380
	EOT
	"$PROFTOOL" goroutines --format csv "$D/gotrace-gc.trace" >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" goroutines "$D/gotrace-gc.trace" >text &&
	sed -n 1,2p text >head &&
	cat >expect <<-\EOT &&
	2 goroutines in 2 groups by start function, 410ns of trace
	GC: 2 cycles, 290ns in all; stop-the-world 2 times, 25ns in all, longest 15ns
	EOT
	test_cmp expect head &&
	grep -q "^     1     300ns         -         -         -      40ns      20ns      30ns     340ns     340ns  main.worker$" text'

test_expect_success 'json: the groups with their first goroutine ids' '
	"$PROFTOOL" goroutines --format json "$G/trace-many.trace" >j &&
	grep -q "^{\"goroutines\":2006," j &&
	grep -o "\"function\":\"main.leaf\"[^}]*" j >leaf &&
	grep -q "\"count\":2000," leaf &&
	grep -q "\"ids\":\[[0-9]*\(,[0-9]*\)\{7\}\]" leaf'

test_expect_success '-n and --sort: the largest group, or the one waiting longest, first' '
	"$PROFTOOL" goroutines --format csv -n 1 "$G/trace-many.trace" >c &&
	test $(wc -l <c) = 2 && grep -q "^\"main.leaf\"," c &&
	"$PROFTOOL" goroutines --format csv --sort wait "$G/trace-blocking.trace" >w &&
	awk -F, "NR > 1 { s = \$(NF - 7) + \$(NF - 6) + \$(NF - 5) + \$(NF - 4)
		if (NR > 2 && s > prev) exit 1; prev = s }" w'

test_expect_success 'a goroutine dump still prints text or json, and csv is a one-line error' '
	test_expect_code 1 "$PROFTOOL" goroutines --format csv "$G/goroutine.debug2.txt" &&
	test_one_line_err "proftool: $G/goroutine.debug2.txt: --format csv is for execution traces; a goroutine dump prints text or json"'

test_expect_success 'the other commands still see the four blocking profiles' '
	"$PROFTOOL" info "$G/trace-gc.trace" >out &&
	grep -q "^  0: net " out && grep -q "^  3: sched " out'

test_done
