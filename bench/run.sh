#!/bin/sh
# run.sh: `make bench`. Builds large inputs from the real samples into a temp dir, then
# times each reader/writer and a baseline on the same file in the same run (wc -l,
# cat; go tool pprof / stackprof / node when present), and prints a table: input size,
# wall time, MB/s, peak RSS, and the ratio to the baseline. Ratios, not absolute
# times, are what we compare across machines (bench/RESULTS.md). A writer row's output
# rate is the writer's own: its CPU time is the convert's minus that of `proftool info`
# (read, no writer) on the same file in the same run.
#   BENCH_PERF_MB=500 BENCH_STACKS=300000 make bench
# BENCH_GROUPS picks the groups of rows (default all five): "realistic" (issue 18's
# inputs made by real producers, each with its anchors), "scaling" (the same jobs at
# growing sizes: time should grow with the input, memory with distinct stacks), "heap"
# (V8 heap snapshots against node's JSON.parse and memlab, issue 20), "rubyheap" (Ruby
# heap dumps against Ruby's JSON.parse and heapy, issue 31) and "classic" (the
# rows of sessions 1-4: writers, collapsed, the repeated stackprof dump, the fleet
# merges). Two more run only when named: "perfmix" (realistic's perf mix rows alone,
# with inferno) and "fleet" (classic's fleet merges alone).
# "issue33" runs only issue 33's Gecko and trace-event rows (also part of "realistic").
# "pprofstyle" runs only scaling's pprof rows (top --cum and --style pprof at 1x to 8x).
#   BENCH_GROUPS=realistic BENCH_REPEAT=5 make bench  (BENCH_MIX_MB= leaves the perf mix out,
#   BENCH_DEEP_MB= the deep stackprof dumps)
#   PROFTOOL_BASE=/path/to/old/proftool pairs the perf mix rows with that build too (and
#   the issue33 rows, which take this build, node and it in turn)
set -eu
groups=" ${BENCH_GROUPS:-realistic scaling heap rubyheap classic} "
want () { case $groups in *" $1 "*) return 0 ;; esac; return 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
PROFTOOL=${PROFTOOL:-$top/src/proftool}
MEASURE=${MEASURE:-$top/bench/measure}
perf_mb=${BENCH_PERF_MB:-200}
stacks=${BENCH_STACKS:-300000}
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

about=

# inferno (issue 39's anchor for perf script -> collapsed and for the flame graph): taken
# from PATH, else from BENCH_INFERNO_DIR/bin, else built there by bench/build-inferno.sh
# (in a temp folder, from Debian's crates, offline; about 13 minutes on 2 cores, once)
# when INFERNO_SRC and STR_STACK_SRC name checkouts of inferno's and str_stack's
# repositories. Without it the rows say why it is absent.
inferno_dir=${BENCH_INFERNO_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/proftool-bench/inferno}
inferno_why=
find_inferno () {
	command -v inferno-collapse-perf >/dev/null 2>&1 && return 0
	if ! test -x "$inferno_dir/bin/inferno-collapse-perf"; then
		if test -z "${INFERNO_SRC:-}" || test -z "${STR_STACK_SRC:-}"; then
			inferno_why="not packaged in Debian 12; set INFERNO_SRC and STR_STACK_SRC to checkouts of inferno and str_stack and bench/build-inferno.sh builds it"
			return 1
		fi
		echo "bench: building inferno into $inferno_dir (bench/build-inferno.sh)" >&2
		if ! sh "$top/bench/build-inferno.sh" "$inferno_dir" 2>"$work/inferno.log"; then
			inferno_why="bench/build-inferno.sh failed: $(tail -1 "$work/inferno.log")"
			return 1
		fi
	fi
	PATH=$inferno_dir/bin:$PATH
}

have_format () {
	"$PROFTOOL" formats | awk -v f="$1" -v col="$2" '$1 == f && $col == "yes" { ok = 1 } END { exit !ok }'
}

# run OUTFILE CMD...: runs CMD BENCH_REPEAT times (default 3) and keeps the least wall
# and CPU time and the largest peak RSS (KiB): a busy machine only ever adds time, so
# the least is the best estimate of the cost. Stops on a non-zero exit.
run () {
	out=$1
	shift
	secs= cpu= rss=
	i=0
	while test $i -lt "${BENCH_REPEAT:-3}"; do
		res=$("$MEASURE" -o "$out" -- "$@" 2>/dev/null | tail -1)
		read -r s1 r1 rc c1 <<EOF
$res
EOF
		test "$rc" = 0 || { echo "bench: '$*' exited with $rc" >&2; exit 1; }
		read -r secs cpu rss <<EOF
$(awk -v s="$secs" -v c="$cpu" -v r="$rss" -v s1="$s1" -v r1="$r1" -v c1="$c1" 'BEGIN {
	if (s == "" || s1 < s) s = s1; if (c == "" || c1 < c) c = c1; if (r == "" || r1 > r) r = r1
	print s, c, r }')
EOF
		i=$((i + 1))
	done
}

# row NAME SIZE OUTSIZE [READCPU]: one table row from the last two runs (baseline, then
# proftool); with READCPU (a writer row) the output rate is per CPU second of the writer
# alone, that is of the run's CPU minus READCPU
row () {
	awk -v n="$1" -v sz="$2" -v ob="$3" -v rc="${4:-}" -v s="$secs" -v c="$cpu" -v r="$rss" -v ab="$about" \
		-v bn="$bname" -v bs="$bsecs" -v bc="$bcpu" -v br="$brss" 'BEGIN {
		mb = sz / 1048576; s = s > 0 ? s : 0.001; c = c > 0 ? c : 0.001
		bs = bs > 0 ? bs : 0.001; bc = bc > 0 ? bc : 0.001
		if (rc == "") {
			orate = sprintf("%.0f MB/s", ob / 1048576 / c)
		} else {
			w = c - rc; w = w > 0.001 ? w : 0.001
			orate = sprintf("%.0f MB/s (writer cpu %.2f s)", ob / 1048576 / w, w)
		}
		# a ratio under 1 reads better as "N x faster"
		cr = c / bc < 1 ? sprintf("%.1fx faster", bc / c) : sprintf("%.1fx", c / bc)
		printf "| %s | %.1f MB%s | %.2f s (cpu %.2f s) | %.0f MB/s | %s | %.1f MiB | %s: %.2f s (cpu %.2f s), %.1f MiB | cpu %s, wall %.2fx, RSS %.2fx |\n",
			n, mb, ab, s, c, mb / c, orate, r / 1024, bn, bs, bc, br / 1024, cr, s / bs, r / (br > 0 ? br : 1) }'
}

# input_is FILE: the input of the rows that follow: sets size (bytes) and about, what
# the rows say of it beside its size so that a ratio can be compared across runs: its
# samples and distinct stacks as `proftool info` counts them (or what info counts
# instead, a heap graph's nodes)
input_is () {
	size=$(stat -c %s "$1")
	about=$(about_of "$1")
}
about_of () {
	"$PROFTOOL" info "$1" 2>/dev/null | awk '
		/^Samples:/ { s = $2 } /^Unique stacks:/ { u = $3 } /^Nodes:/ { n = $2 }
		/^Objects:/ { o = $2 }
		END { if (s != "") printf ", %s samples, %s stacks", s, u
			else if (n != "") printf ", %s nodes", n
			else if (o != "") printf ", %s objects", o }'
}
about=

# readcpu FILE: sets rcpu, the least CPU of `proftool info` runs on FILE (reading and
# building the profile, no writer), for the writer rows
readcpu () {
	run "$work/info" "$PROFTOOL" info "$1"
	rcpu=$cpu
}

# baseline NAME OUTFILE CMD...: run and remember as the baseline
baseline () {
	bname=$1
	shift
	run "$@"
	bsecs=$secs bcpu=$cpu brss=$rss
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -m); $(date -u +%Y-%m-%d)"
echo
echo "Rates are per CPU second (user + system), which a busy machine disturbs least; every"
echo "figure is the least of ${BENCH_REPEAT:-3} runs (the largest, for peak RSS)."
echo "Writer rows (\"(writer)\"): the output rate is the writer's own, output bytes per CPU"
echo "second of the convert minus the least \`proftool info\` run on the same file"
echo "in this run (info reads the profile and sums its values, and writes nothing)."
echo
echo "| job | input | time | input rate | output rate | peak RSS | baseline (same file, same run) | proftool / baseline |"
echo "|---|---|---|---|---|---|---|---|"

if want classic && have_format perf 2; then
	sh "$top/bench/gen-perf.sh" "$work/perf.txt" "$perf_mb"
	input_is "$work/perf.txt"
	baseline "wc -l" "$work/wc" wc -l "$work/perf.txt"
	run "$work/out" "$PROFTOOL" convert --to collapsed "$work/perf.txt"
	row "perf script -> collapsed" "$size" "$(stat -c %s "$work/out")"
	rm -f "$work/perf.txt"
fi

# A goroutine?debug=2 dump of 100,000 goroutines (bench/gen-goroutines.sh, from the
# real samples/go dump), read (`info`) at a rate per byte paired with the perf reader's
# on a perf script text of the same size, in the same run.
if want realistic && have_format goroutine 2 && have_format perf 2; then
	sh "$top/bench/gen-goroutines.sh" "$work/g.txt" "${BENCH_GOROUTINES:-100000}"
	input_is "$work/g.txt"
	sh "$top/bench/gen-perf.sh" "$work/gp.txt" $((size / 1048576 + 1))
	baseline "proftool info (perf reader, $(($(stat -c %s "$work/gp.txt") / 1048576)) MB perf script)" \
		"$work/gpi" "$PROFTOOL" info "$work/gp.txt"
	psize=$(stat -c %s "$work/gp.txt")
	run "$work/gi" "$PROFTOOL" info "$work/g.txt"
	# per byte: scale the baseline's times to the goroutine dump's size
	bsecs=$(awk -v t="$bsecs" -v a="$size" -v b="$psize" 'BEGIN { print t * a / b }')
	bcpu=$(awk -v t="$bcpu" -v a="$size" -v b="$psize" 'BEGIN { print t * a / b }')
	row "goroutine debug=2 dump, ${BENCH_GOROUTINES:-100000} goroutines -> info (baseline per byte)" "$size" 0
	rm -f "$work/g.txt" "$work/gp.txt"
fi

# page_row NAME INPUT PAGE: the size of an HTML page written from INPUT, against the 5 MiB
# the report is bounded to (issue 35), with the last run's time and peak RSS
page_row () {
	awk -v n="$1" -v sz="$(stat -c %s "$2")" -v pg="$(stat -c %s "$3")" -v s="$secs" -v c="$cpu" \
		-v r="$rss" -v ab="$(about_of "$2")" 'BEGIN {
		printf "| html page size: %s, `proftool convert --to html` | %.1f MB%s | %.2f s (cpu %.2f s) | | | %.1f MiB | page %.2f MiB (%s the 5 MiB bound) | |\n",
			n, sz / 1048576, ab, s, c, r / 1024, pg / 1048576, pg <= 5 * 1048576 ? "within" : "OVER" }'
}

# A Go execution trace of BENCH_GOTRACE_MB (50) MB written by Debian's go
# (bench/gen-gotrace.sh), read into the four blocking profiles (`info`) against go tool
# trace -pprof=sync on the same file (issue 32: at most 0.1x its CPU, 0.5x its RSS).
if want realistic && have_format gotrace 2 && command -v go >/dev/null 2>&1; then
	sh "$top/bench/gen-gotrace.sh" "$work/t.trace" "${BENCH_GOTRACE_MB:-50}"
	input_is "$work/t.trace"
	baseline "go tool trace -pprof=sync" "$work/tb" go tool trace -pprof=sync "$work/t.trace"
	run "$work/ti" "$PROFTOOL" info "$work/t.trace"
	row "Go execution trace ($((size / 1048576)) MB) -> info (net, sync, syscall, sched)" "$size" 0
	run "$work/tg" "$PROFTOOL" goroutines "$work/t.trace"
	row "Go execution trace ($((size / 1048576)) MB) -> goroutines" "$size" 0
	rm -f "$work/t.trace"
fi

# Realistic inputs (issue 18), made by real producers here, each row paired with its
# anchors in the same run. proftool runs once per input; each anchor gets its own row.
keep () { ksecs=$secs kcpu=$cpu krss=$rss; }
restore () { secs=$ksecs cpu=$kcpu rss=$krss; }
if { want realistic || want perfmix; } && have_format perf 2 && command -v perf >/dev/null 2>&1; then
	find_inferno || true
	for mb in ${BENCH_MIX_MB-50 500}; do
		sh "$top/bench/gen-perf-mix.sh" "$work/mix.txt" "$mb" || break
		input_is "$work/mix.txt"
		run "$work/out" "$PROFTOOL" convert --to collapsed "$work/mix.txt"
		keep
		osize=$(stat -c %s "$work/out")
		baseline "wc -l" "$work/wc" wc -l "$work/mix.txt"
		restore
		row "perf script mix of real programs, $mb MB -> collapsed" "$size" "$osize"
		# PROFTOOL_BASE: another build (main before a change), paired on the same
		# file; its output must be the same bytes
		if test -n "${PROFTOOL_BASE:-}"; then
			baseline "proftool at PROFTOOL_BASE" "$work/base" \
				"$PROFTOOL_BASE" convert --to collapsed "$work/mix.txt"
			restore
			cmp -s "$work/out" "$work/base" ||
				{ echo "bench: PROFTOOL_BASE's output differs on the $mb MB mix" >&2; exit 1; }
			row "perf script mix, $mb MB -> collapsed (outputs equal)" "$size" "$osize"
		fi
		if test -z "$inferno_why" && command -v inferno-collapse-perf >/dev/null 2>&1; then
			baseline "inferno-collapse-perf --nthreads 1" "$work/inf" \
				inferno-collapse-perf --nthreads 1 "$work/mix.txt"
			restore
			row "perf script mix, $mb MB -> collapsed" "$size" "$osize"
			# the flame graph of the mix's stacks, from our collapsed output
			cp "$work/out" "$work/mix.collapsed"
			input_is "$work/mix.collapsed"
			run "$work/svg" "$PROFTOOL" convert --to svg "$work/mix.collapsed"
			keep
			baseline "inferno-flamegraph" "$work/isvg" inferno-flamegraph "$work/mix.collapsed"
			restore
			row "collapsed stacks of the $mb MB mix -> flame graph SVG" "$size" "$(stat -c %s "$work/svg")"
			rm -f "$work/mix.collapsed" "$work/svg" "$work/isvg"
			input_is "$work/mix.txt"
		else
			echo "| perf script mix, $mb MB -> collapsed | | | | | | inferno: absent ($inferno_why) | |"
		fi
		if test -n "${FLAMEGRAPH_DIR:-}" && test -f "$FLAMEGRAPH_DIR/stackcollapse-perf.pl"; then
			baseline "stackcollapse-perf.pl" "$work/scp" perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" "$work/mix.txt"
			restore
			row "perf script mix, $mb MB -> collapsed" "$size" "$osize"
		fi
		if have_format html 3; then
			repeat=${BENCH_REPEAT:-3}
			BENCH_REPEAT=1
			run "$work/page.html" "$PROFTOOL" convert --to html "$work/mix.txt"
			BENCH_REPEAT=$repeat
			page_row "perf script mix of real programs, $mb MB" "$work/mix.txt" "$work/page.html"
			rm -f "$work/page.html"
		fi
		rm -f "$work/mix.txt"
	done
fi
# the 100,000-stack tree over 20,000 functions (gen-many.sh): its caller/callee pairs
# made 21 MB of the page before they were bounded like the tree
if want realistic && have_format html 3; then
	sh "$top/bench/gen-many.sh" "$work/many.collapsed" "${BENCH_PAGE_STACKS:-100000}"
	run "$work/page.html" "$PROFTOOL" convert --to html "$work/many.collapsed"
	page_row "${BENCH_PAGE_STACKS:-100000} stacks over 20,000 functions (bench/gen-many.sh)" \
		"$work/many.collapsed" "$work/page.html"
	rm -f "$work/page.html" "$work/many.collapsed"
fi
# "stacks": the input's distinct stacks (proftool info)
stacks_of () { "$PROFTOOL" info "$1" | awk '/^Unique stacks:/ { print $3 }'; }
# the deep stackprof dumps: bench/gen-stackprof-deep.rb records until the dump has the
# size asked for (BENCH_DEEP_MB, about 20 and 100 MB by default)
if want realistic && have_format stackprof 2 && command -v ruby >/dev/null 2>&1 &&
	ruby -e 'require "stackprof"' 2>/dev/null; then
	# BENCH_DEEP_DUMPS: dumps the generator made before: FILE... instead of recording
	for s in ${BENCH_DEEP_DUMPS:-${BENCH_DEEP_MB-20 100}}; do
		if test -n "${BENCH_DEEP_DUMPS:-}"; then
			cp "$s" "$work/deep.dump"
			s=$(basename "$s")
		else
			ruby "$top/bench/gen-stackprof-deep.rb" "$work/deep.dump" "${s}MB"
			s="$s MB"
		fi
		input_is "$work/deep.dump"
		run "$work/out" "$PROFTOOL" top -n 30 "$work/deep.dump"
		keep
		baseline "stackprof --text --limit 30" "$work/sp" stackprof --text --limit 30 "$work/deep.dump"
		restore
		row "stackprof wall dump of deep recursive Ruby, $s ($(stacks_of "$work/deep.dump") stacks) -> top -n 30" "$size" 0
		rm -f "$work/deep.dump"
	done
fi
if want realistic && have_format cpuprofile 2 && command -v node >/dev/null 2>&1; then
	node "$top/bench/gen-cpuprofile-deep.js" "$work/deep.cpuprofile" "${BENCH_NODE_SECONDS:-25}"
	input_is "$work/deep.cpuprofile"
	# both sides take tens of milliseconds, where one busy moment doubles a run: the
	# least of at least 10 runs each
	repeat=${BENCH_REPEAT:-3}
	BENCH_REPEAT=$((repeat > 10 ? repeat : 10))
	run "$work/out" "$PROFTOOL" top "$work/deep.cpuprofile"
	keep
	baseline "node JSON.parse" "$work/np" node -e \
		'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$work/deep.cpuprofile"
	restore
	row "node --cpu-prof of a deep workload, ${BENCH_NODE_SECONDS:-25} s -> top (least of $BENCH_REPEAT)" "$size" 0
	BENCH_REPEAT=$repeat
fi
# Issue 37's symbolization: a pprof profile of BENCH_SYM_ADDRS (100,000) distinct
# addresses spread over the text of a large binary (node's, or its libnode), each its
# own location without lines (tests/crafted.py pprof-addrs), named by `convert --to
# collapsed` against binutils' `addr2line -f -i -e BIN` given the same addresses in one
# batch (the goal: at most 0.3x its CPU). BENCH_GROUPS=symbolize runs this row alone.
if { want realistic || want symbolize; } && have_format pprof 2 && command -v node >/dev/null 2>&1 &&
	command -v addr2line >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	bin=$(readlink -f "$(command -v node)")
	lib=$(ldd "$bin" 2>/dev/null | awk '$1 ~ /^libnode/ { print $3 }')
	test -n "$lib" && test "$(stat -c %s "$lib")" -gt "$(stat -c %s "$bin")" && bin=$lib
	n=${BENCH_SYM_ADDRS:-100000}
	# the largest executable segment: its address, size and file offset
	readelf -lW "$bin" | python3 -c 'import sys
n, f = int(sys.argv[1]), sys.argv[2]
segs = [l.split() for l in sys.stdin if l.split()[:1] == ["LOAD"] and "E" in l.split()[6:-1]]
off, va, size = max(((int(s[1], 16), int(s[2], 16), int(s[5], 16)) for s in segs),
		    key=lambda s: s[2])
print("%x %x %x %s" % (va, va + size, off, f))
print("".join("%x\n" % (va + k * size // n + 1) for k in range(n)), end="")' "$n" "$bin" \
		>"$work/sym.in"
	tail -n +2 "$work/sym.in" >"$work/sym.addrs"
	python3 "$top/tests/crafted.py" pprof-addrs "$n" <"$work/sym.in" >"$work/sym.pb"
	size=$(stat -c %s "$work/sym.pb")
	baseline "addr2line -f -i -e $(basename "$bin") (same addresses, one batch)" "$work/a2l" \
		addr2line -f -i -e "$bin" "@$work/sym.addrs"
	run "$work/out" "$PROFTOOL" convert --to collapsed "$work/sym.pb"
	row "symbolize $n addresses of $(basename "$bin") ($(($(stat -c %s "$bin") / 1048576)) MB) -> convert --to collapsed" "$size" "$(stat -c %s "$work/out")"
	rm -f "$work/sym.in" "$work/sym.addrs" "$work/sym.pb"
fi
# Issue 33's inputs against node's bare JSON.parse of the same file (the goal: at most
# 0.2x its CPU): firefox-esr's raw Gecko profile with its samples repeated (the stacks
# fixed, so peak RSS at the two sizes shows what the samples cost), and clang's
# -ftime-trace trace with its spans repeated (BENCH_GECKO_MB, BENCH_TRACE_MB)
# best NAME: the last run folded into NAME_s, NAME_c, NAME_r (least time and CPU,
# largest RSS, as run keeps them)
best () {
	eval "o_s=\${${1}_s:-} o_c=\${${1}_c:-} o_r=\${${1}_r:-}"
	read -r o_s o_c o_r <<EOF
$(awk -v s="$o_s" -v c="$o_c" -v r="$o_r" -v s1="$secs" -v c1="$cpu" -v r1="$rss" 'BEGIN {
	if (s == "" || s1 < s) s = s1; if (c == "" || c1 < c) c = c1; if (r == "" || r1 > r) r = r1
	print s, c, r }')
EOF
	eval "${1}_s=\$o_s ${1}_c=\$o_c ${1}_r=\$o_r"
}
# issue33 FILE TITLE: this build, node's JSON.parse and PROFTOOL_BASE (when set; its
# output must be the same bytes) on FILE, in turn BENCH_REPEAT times, so that the load
# of a shared machine falls on each alike; a row against node, and one against
# PROFTOOL_BASE
issue33 () {
	p_s= p_c= p_r= n_s= n_c= n_r= b_s= b_c= b_r=
	rep=${BENCH_REPEAT:-3} k=0
	BENCH_REPEAT=1
	while test $k -lt "$rep"; do
		run "$work/out" "$PROFTOOL" top -n 30 "$1"
		best p
		run "$work/np" node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$1"
		best n
		if test -n "${PROFTOOL_BASE:-}"; then
			run "$work/base" "$PROFTOOL_BASE" top -n 30 "$1"
			best b
		fi
		k=$((k + 1))
	done
	BENCH_REPEAT=$rep
	secs=$p_s cpu=$p_c rss=$p_r
	bname="node JSON.parse" bsecs=$n_s bcpu=$n_c brss=$n_r
	row "$2" "$size" 0
	if test -n "${PROFTOOL_BASE:-}"; then
		cmp -s "$work/out" "$work/base" ||
			{ echo "bench: PROFTOOL_BASE's output differs on $2" >&2; exit 1; }
		bname="proftool at PROFTOOL_BASE" bsecs=$b_s bcpu=$b_c brss=$b_r
		row "$2 (outputs equal)" "$size" 0
	fi
}
if { want realistic || want issue33; } && have_format gecko 2 && command -v node >/dev/null 2>&1; then
	for mb in ${BENCH_GECKO_MB-25 100}; do
		node "$top/bench/gen-gecko.js" "$work/g.json" "$mb"
		input_is "$work/g.json"
		issue33 "$work/g.json" "raw Gecko (firefox-esr's samples repeated), $mb MB, $("$PROFTOOL" info "$work/g.json" | awk '/^Samples:/ { print $2 }') samples, $(stacks_of "$work/g.json") stacks -> top -n 30"
		rm -f "$work/g.json"
	done
fi
if { want realistic || want issue33; } && have_format traceevents 2 && command -v node >/dev/null 2>&1; then
	for mb in ${BENCH_TRACE_MB-100}; do
		node "$top/bench/gen-traceevents.js" "$work/t.json" "$mb"
		input_is "$work/t.json"
		issue33 "$work/t.json" "trace events (clang -ftime-trace's spans repeated), $mb MB -> top -n 30"
		rm -f "$work/t.json"
	done
fi

# Scaling (issue 18): the same job at growing sizes, each with its anchor in the same
# run; "stacks" is the input's distinct stacks (proftool info). Time should follow the
# input, peak RSS the distinct stacks.
if want scaling && have_format perf 2 && command -v perf >/dev/null 2>&1; then
	for mb in ${BENCH_SCALE_PERF_MB:-50 100 200 400}; do
		sh "$top/bench/gen-perf-mix.sh" "$work/mix.txt" "$mb" || break
		input_is "$work/mix.txt"
		baseline "wc -l" "$work/wc" wc -l "$work/mix.txt"
		run "$work/out" "$PROFTOOL" convert --to collapsed "$work/mix.txt"
		row "scaling: perf script mix $mb MB ($(stacks_of "$work/mix.txt") stacks) -> collapsed" \
			"$size" "$(stat -c %s "$work/out")"
		rm -f "$work/mix.txt"
	done
fi
# the recording lengths are the recorder's CPU seconds (gen-stackprof-deep.rb)
if want scaling && have_format stackprof 2 && command -v stackprof >/dev/null 2>&1; then
	base=${BENCH_SCALE_DEEP_SECONDS:-1}
	for x in 1 2 4; do
		ruby "$top/bench/gen-stackprof-deep.rb" "$work/deep.dump" $((base * x))
		input_is "$work/deep.dump"
		baseline "stackprof --text --limit 30" "$work/sp" stackprof --text --limit 30 "$work/deep.dump"
		run "$work/out" "$PROFTOOL" top -n 30 "$work/deep.dump"
		row "scaling: stackprof deep wall dump, ${x}x ($((base * x)) s CPU, $(stacks_of "$work/deep.dump") stacks) -> top -n 30" "$size" 0
		rm -f "$work/deep.dump"
	done
fi
if { want scaling || want pprofstyle; } && have_format pprof 3; then
	base=${BENCH_SCALE_STACKS:-50000}
	for x in 1 2 4 8; do
		sh "$top/bench/gen-collapsed.sh" "$work/sc.collapsed" $((base * x))
		"$PROFTOOL" convert --to pprof -o "$work/sc.pb.gz" "$work/sc.collapsed"
		input_is "$work/sc.pb.gz"
		if command -v go >/dev/null 2>&1; then
			baseline "go tool pprof -top -cum" "$work/gp" go tool pprof -top -cum "$work/sc.pb.gz"
		else
			baseline "gzip -dc (go missing)" "$work/gz" gzip -dc "$work/sc.pb.gz"
		fi
		run "$work/out" "$PROFTOOL" top --cum -n 0 "$work/sc.pb.gz"
		ns=$(stacks_of "$work/sc.pb.gz")
		row "scaling: pprof, ${x}x ($ns stacks) -> top --cum" "$size" 0
		# pprof's layout (issue 39: linear in the distinct stacks, within 2x of plain
		# top's CPU and memory), the same anchor; then its CPU per distinct stack and
		# its ratios to the plain top above
		tcpu=$cpu trss=$rss
		run "$work/pp" "$PROFTOOL" top --cum --style pprof "$work/sc.pb.gz"
		keep
		row "scaling: pprof, ${x}x ($ns stacks) -> top --cum --style pprof" "$size" 0
		awk -v c="$cpu" -v r="$rss" -v tc="$tcpu" -v tr="$trss" -v n="$ns" -v x="$x" 'BEGIN {
			tc = tc > 0 ? tc : 0.001; tr = tr > 0 ? tr : 1
			printf "| scaling: pprof, %sx: --style pprof per distinct stack | %.2f us CPU | top --cum: %.2f us | --style pprof / top: cpu %.2fx, RSS %.2fx |\n",
				x, c * 1e6 / n, tc * 1e6 / n, c / tc, r / tr }'
		# PROFTOOL_BASE: the same layout by another build (main before a change), in
		# the same run; its output must be the same bytes
		if test -n "${PROFTOOL_BASE:-}"; then
			baseline "proftool at PROFTOOL_BASE" "$work/base" \
				"$PROFTOOL_BASE" top --cum --style pprof "$work/sc.pb.gz"
			restore
			cmp -s "$work/pp" "$work/base" ||
				{ echo "bench: PROFTOOL_BASE's --style pprof differs at ${x}x" >&2; exit 1; }
			row "scaling: pprof, ${x}x ($ns stacks) -> top --cum --style pprof (outputs equal)" "$size" 0
			awk -v c="$bcpu" -v r="$brss" -v tc="$tcpu" -v tr="$trss" -v n="$ns" -v x="$x" 'BEGIN {
				tc = tc > 0 ? tc : 0.001; tr = tr > 0 ? tr : 1
				printf "| scaling: pprof, %sx: PROFTOOL_BASE --style pprof per distinct stack | %.2f us CPU | top --cum: %.2f us | base / top: cpu %.2fx, RSS %.2fx |\n",
					x, c * 1e6 / n, tc * 1e6 / n, c / tc, r / tr }'
		fi
		rm -f "$work/sc.collapsed" "$work/sc.pb.gz"
	done
fi

if want scaling; then
	# the cost of crafted inputs and of each reader at 1x, 2x, 4x, 8x (linear or flagged)
	echo
	PROFTOOL=$PROFTOOL MEASURE=$MEASURE sh "$top/bench/scaling.sh"
fi

# Heap snapshots (issue 20): a node process holding a singly linked list, written by V8
# itself (bench/gen-heap-list.js), at 1x, 2x and 4x its length (BENCH_HEAP_NODES is the
# 4x length, default 1,000,000 objects: about 90 MB). Each `proftool heap` row (read,
# dominator tree, per-constructor summary with retained sizes) is paired in the same run
# with node's bare JSON.parse of the same file and with memlab's heap analysis
# (tests/heap-memlab.js: @memlab/core's parser, dominator tree and retained sizes; when
# tests/viewers/setup.sh installed it). Then the CPU time of each of proftool's phases
# (bench/heap-phases, least of BENCH_REPEAT runs) and the dominator pass per node, which
# stays flat if the pass is linear.
json_parse='JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))'
if want heap && command -v node >/dev/null 2>&1; then
	hn=${BENCH_HEAP_NODES:-1000000}
	mods=${PROFTOOL_VIEWERS_MODULES:-$top/tests/viewers/node_modules}
	: >"$work/phases"
	for x in 1 2 4; do
		n=$((hn * x / 4))
		node "$top/bench/gen-heap-list.js" "$work/l.heapsnapshot" "$n"
		input_is "$work/l.heapsnapshot"
		run "$work/out" "$PROFTOOL" heap "$work/l.heapsnapshot"
		keep
		baseline "node JSON.parse" "$work/np" node -e "$json_parse" "$work/l.heapsnapshot"
		restore
		row "heap snapshot, ${x}x ($n-node list) -> heap" "$size" 0
		if test -f "$mods/@memlab/core/package.json"; then
			baseline "memlab heap analysis (@memlab/core)" "$work/ml" \
				env PROFTOOL_VIEWERS_MODULES="$mods" node "$top/tests/heap-memlab.js" "$work/l.heapsnapshot"
			restore
			row "heap snapshot, ${x}x ($n-node list) -> heap" "$size" 0
		else
			echo "| heap snapshot, ${x}x ($n-node list) -> heap | | | | | | memlab: absent (tests/viewers/setup.sh installs it) | |"
		fi
		if test -x "${HEAP_PHASES:-}"; then
			i=0
			while test $i -lt "${BENCH_REPEAT:-3}"; do
				"$HEAP_PHASES" "$work/l.heapsnapshot" >>"$work/phases.$x"
				i=$((i + 1))
			done
			awk -v x="$x" 'NR == 1 || $1 < r { r = $1 } NR == 1 || $2 < d { d = $2 }
				NR == 1 || $3 < s { s = $3 } { n = $4 }
				END { print x, n, r, d, s }' "$work/phases.$x" >>"$work/phases"
		fi
		rm -f "$work/l.heapsnapshot"
	done
	awk '{ x[NR] = $1; n[NR] = $2; d[NR] = $4
		printf "| heap phases, %sx (%d nodes): cpu of read + check, dominator tree, summary | | %.3f s, %.3f s, %.3f s | | | | | dominator %.0f ns per node |\n",
			$1, $2, $3, $4, $5, $4 * 1e9 / $2 }
		END { if (NR == 3 && d[1] > 0)
			printf "| heap dominator pass, 1x : 2x : 4x: cpu %.2f : %.2f : %.2f for nodes 1 : %.2f : %.2f (per node: 1 : %.2f : %.2f; linear keeps it flat) | | | | | | | |\n",
				1, d[2] / d[1], d[3] / d[1], n[2] / n[1], n[3] / n[1],
				d[2] / n[2] / (d[1] / n[1]), d[3] / n[3] / (d[1] / n[1]) }' "$work/phases"
fi

# Ruby heap dumps (issue 31): three dumps of one ruby process holding a store of
# BENCH_RUBY_OBJECTS objects (default 1,000,000: about 250 MB a dump) that then leaks
# 10% more twice (bench/gen-rubyheap.rb, allocation tracing on). The summary with
# retained sizes and --by site are paired with Ruby's JSON.parse of every line alone
# (what heapy does before it counts anything) and with heapy itself (Debian's
# ruby-heapy: `heapy read`, `heapy read FILE all`); --leaks over the three with `heapy
# diff` of the three. PROFTOOL_BASE pairs the summary with that build too.
if want rubyheap && command -v ruby >/dev/null 2>&1; then
	ro=${BENCH_RUBY_OBJECTS:-1000000}
	ruby --disable-gems "$top/bench/gen-rubyheap.rb" "$work/rh" "$ro"
	input_is "$work/rh-3.json"
	all=$(cat "$work/rh-1.json" "$work/rh-2.json" "$work/rh-3.json" | wc -c)
	run "$work/out" "$PROFTOOL" heap "$work/rh-3.json"
	keep
	baseline "ruby JSON.parse per line" "$work/rp" \
		ruby --disable-gems -rjson -e 'File.foreach(ARGV[0]) { |l| JSON.parse(l) }' "$work/rh-3.json"
	restore
	row "ruby heap dump ($ro objects) -> heap" "$size" 0
	# PROFTOOL_BASE: another build on the same dump; the same bytes out
	if test -n "${PROFTOOL_BASE:-}"; then
		baseline "proftool at PROFTOOL_BASE" "$work/base" "$PROFTOOL_BASE" heap "$work/rh-3.json"
		restore
		cmp -s "$work/out" "$work/base" ||
			{ echo "bench: PROFTOOL_BASE's heap differs on the ruby dump" >&2; exit 1; }
		row "ruby heap dump ($ro objects) -> heap (outputs equal)" "$size" 0
	fi
	# BENCH_HEAPY=no leaves heapy's rows out (minutes at a million objects)
	if test "${BENCH_HEAPY:-yes}" = no; then
		echo "| ruby heap dump -> heap | | | | | | heapy: left out (BENCH_HEAPY=no) | |"
	elif command -v heapy >/dev/null 2>&1; then
		baseline "heapy read" "$work/hp" heapy read "$work/rh-3.json"
		restore
		row "ruby heap dump ($ro objects) -> heap" "$size" 0
		run "$work/out" "$PROFTOOL" heap --by site "$work/rh-3.json"
		keep
		baseline "heapy read FILE all" "$work/hp" heapy read "$work/rh-3.json" all
		restore
		row "ruby heap dump ($ro objects) -> heap --by site" "$size" 0
		run "$work/out" "$PROFTOOL" heap --leaks "$work/rh-1.json" "$work/rh-2.json" "$work/rh-3.json"
		keep
		baseline "heapy diff of the three" "$work/hp" \
			heapy diff "$work/rh-1.json" "$work/rh-2.json" "$work/rh-3.json"
		restore
		row "three ruby heap dumps -> heap --leaks" "$all" 0
	else
		echo "| ruby heap dump -> heap | | | | | | heapy: absent (Debian: ruby-heapy) | |"
	fi
	rm -f "$work"/rh-*.json
fi

# Fleet merges (issue 23): 1,000 and 10,000 small real pprof files (the Go sample,
# varied by bench/gen-fleet.sh), merged by proftool from a list, against go tool pprof
# -proto on the same files in the same run; then export's output rate (its three tables).
fleet_rows () {
	for n in ${BENCH_FLEET_FILES:-1000 10000}; do
		sh "$top/bench/gen-fleet.sh" "$PROFTOOL" "$top/samples/go/cpu.pb.gz" "$work/fleet" "$n"
		size=$(xargs cat <"$work/fleet/list" | wc -c)
		run "$work/merged.pb.gz" "$PROFTOOL" merge --files-from "$work/fleet/list"
		keep
		osize=$(stat -c %s "$work/merged.pb.gz")
		about=", $n files; merged$(about_of "$work/merged.pb.gz")"
		if command -v go >/dev/null 2>&1; then
			# shellcheck disable=SC2046
			baseline "go tool pprof -proto" "$work/gp" go tool pprof -proto $(cat "$work/fleet/list")
		else
			baseline "cat (go missing)" "$work/cat" xargs cat <"$work/fleet/list"
		fi
		restore
		row "merge $n small pprof files (--files-from)" "$size" "$osize"
		if test -n "${PROFTOOL_BASE:-}"; then
			baseline "proftool at PROFTOOL_BASE" "$work/base" \
				"$PROFTOOL_BASE" merge --files-from "$work/fleet/list"
			restore
			cmp -s "$work/merged.pb.gz" "$work/base" ||
				{ echo "bench: PROFTOOL_BASE's merge of $n files differs" >&2; exit 1; }
			row "merge $n small pprof files (outputs equal)" "$size" "$osize"
		fi
		rm -rf "$work/fleet"
	done
}
if want fleet && ! want classic && have_format pprof 3; then
	fleet_rows
fi
want classic || exit 0
sh "$top/bench/gen-collapsed.sh" "$work/big.collapsed" "$stacks"
input_is "$work/big.collapsed"
baseline "wc -l" "$work/wc" wc -l "$work/big.collapsed"
run "$work/out" "$PROFTOOL" top --cum -n 30 "$work/big.collapsed"
row "collapsed ($stacks stacks) -> top --cum" "$size" 0
readcpu "$work/big.collapsed"
baseline "cat" "$work/cat" cat "$work/big.collapsed"
run "$work/out" "$PROFTOOL" convert --to collapsed "$work/big.collapsed"
row "collapsed -> collapsed (writer)" "$size" "$(stat -c %s "$work/out")" "$rcpu"

# pprof -> top: the collapsed stacks written as pprof by our writer
if have_format pprof 3; then
	"$PROFTOOL" convert --to pprof -o "$work/big.pb.gz" "$work/big.collapsed"
	input_is "$work/big.pb.gz"
	if command -v go >/dev/null 2>&1; then
		baseline "go tool pprof -top -cum" "$work/gp" go tool pprof -top -cum "$work/big.pb.gz"
	else
		baseline "gzip -dc (go missing)" "$work/gz" gzip -dc "$work/big.pb.gz"
	fi
	run "$work/out" "$PROFTOOL" top --cum -n 0 "$work/big.pb.gz"
	row "pprof ($stacks stacks) -> top --cum" "$size" 0
	# a filter needs the stacks, so top builds and walks the call tree
	run "$work/out" "$PROFTOOL" top --cum -n 0 --focus . "$work/big.pb.gz"
	row "pprof -> top --cum --focus . (filtered: the call tree's way)" "$size" 0
fi

# stackprof raw dump -> top, against the stackprof CLI
if have_format stackprof 2 && command -v ruby >/dev/null 2>&1; then
	ruby "$top/bench/gen-stackprof.rb" "$work/big.dump" "${BENCH_STACKPROF_COPIES:-1000}"
	input_is "$work/big.dump"
	if command -v stackprof >/dev/null 2>&1; then
		baseline "stackprof --text" "$work/sp" stackprof --text "$work/big.dump"
	else
		baseline "cat (stackprof missing)" "$work/cat" cat "$work/big.dump"
	fi
	run "$work/out" "$PROFTOOL" top "$work/big.dump"
	row "stackprof raw dump -> top" "$size" 0
	run "$work/out" "$PROFTOOL" convert --to collapsed "$work/big.dump"
	row "stackprof raw dump -> collapsed" "$size" "$(stat -c %s "$work/out")"
fi

# .cpuprofile -> top, against node's JSON.parse alone
if have_format cpuprofile 2 && command -v node >/dev/null 2>&1; then
	node "$top/bench/gen-cpuprofile.js" "$work/big.cpuprofile" "${BENCH_CPUPROFILE_COPIES:-4}"
	input_is "$work/big.cpuprofile"
	baseline "node JSON.parse" "$work/np" node -e \
		'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$work/big.cpuprofile"
	run "$work/out" "$PROFTOOL" top "$work/big.cpuprofile"
	row ".cpuprofile -> top" "$size" 0
fi

# writers: the same collapsed input, baseline cat
baseline "cat" "$work/cat" cat "$work/big.collapsed"
input_is "$work/big.collapsed"
for f in cpuprofile speedscope callgrind dot svg; do
	have_format "$f" 3 || continue
	run "$work/out" "$PROFTOOL" convert --to "$f" "$work/big.collapsed"
	row "collapsed -> $f (writer)" "$size" "$(stat -c %s "$work/out")" "$rcpu"
done
# the flame graph against inferno-flamegraph on the same collapsed stacks (issue 39: at
# most 0.5x its CPU)
if have_format svg 3; then
	test -n "$inferno_why" || find_inferno || true
	if test -z "$inferno_why"; then
		run "$work/out" "$PROFTOOL" convert --to svg "$work/big.collapsed"
		keep
		baseline "inferno-flamegraph" "$work/isvg" inferno-flamegraph "$work/big.collapsed"
		restore
		row "collapsed ($stacks stacks) -> flame graph SVG" "$size" "$(stat -c %s "$work/out")"
		rm -f "$work/isvg"
	else
		echo "| collapsed ($stacks stacks) -> flame graph SVG | | | | | | inferno: absent ($inferno_why) | |"
	fi
	baseline "cat" "$work/cat" cat "$work/big.collapsed"
fi
# pprof: its protobuf alone, then gzipped (level 1, as Go writes it)
if have_format pprof 3; then
	run "$work/out" "$PROFTOOL" convert --to pprof --no-gzip "$work/big.collapsed"
	row "collapsed -> pprof --no-gzip (writer)" "$size" "$(stat -c %s "$work/out")" "$rcpu"
	# zlib's deflate bounds the gzipped rate: gzip -1 on the same protobuf is its
	# baseline (output rate: gzipped bytes per CPU second of the writer)
	mv "$work/out" "$work/big.pb"
	baseline "gzip -1 of its protobuf" "$work/gz1" gzip -1 -c "$work/big.pb"
	gzrate=$(awk -v b="$(stat -c %s "$work/gz1")" -v c="$bcpu" 'BEGIN {
		printf "%.0f", b / 1048576 / (c > 0 ? c : 0.001) }')
	run "$work/out" "$PROFTOOL" convert --to pprof "$work/big.collapsed"
	row "collapsed -> pprof, gzipped (writer; gzip -1 alone writes $gzrate MB/s)" "$size" \
		"$(stat -c %s "$work/out")" "$rcpu"
	rm -f "$work/big.pb"
fi

# html: its writer against svg's on the same input (the baseline is convert --to svg,
# whose cost the html writer should stay within twice of), then the page itself in
# headless Chromium: first draw after navigation start and the slowest zoom redraw,
# from the page's own performance marks (tests/viewers/html-check.js bench)
if have_format html 3 && have_format svg 3; then
	baseline "convert --to svg" "$work/svg" "$PROFTOOL" convert --to svg "$work/big.collapsed"
	run "$work/big.html" "$PROFTOOL" convert --to html "$work/big.collapsed"
	row "collapsed -> html (writer)" "$size" "$(stat -c %s "$work/big.html")" "$rcpu"
	mods=${PROFTOOL_VIEWERS_MODULES:-$top/tests/viewers/node_modules}
	if command -v node >/dev/null 2>&1 && test -d "$mods/playwright-core" &&
		test -x "${CHROMIUM:-/usr/bin/chromium}"; then
		marks=$(PROFTOOL_VIEWERS_MODULES=$mods node "$top/tests/viewers/html-check.js" \
			bench "$work/big.html" | awk '$1 == "first-draw-ms" { f = $2 } $1 == "zoom-ms" { z = $2 }
			END { printf "first draw %s ms after navigation start, slowest zoom redraw %s ms", f, z }')
		awk -v m="$marks" -v sz="$(stat -c %s "$work/big.html")" 'BEGIN {
			printf "| html page (%.2f MB) in headless Chromium | | %s | | | | | |\n", sz / 1048576, m }'
	fi
	rm -f "$work/big.html" "$work/svg"
fi

# callgrind and dot write one entry per function and call edge, so on big.collapsed
# (175 functions) their output is too small to rate: a second input with many
# functions (20,000) and call pairs (about a million), rated the same way; dot with
# every node and edge kept (--nodecount 0, no fraction cut), as its default shows 80;
# svg with every frame (--minwidth 0): by default its output is bounded by its pixels
# (about 3 MB from big.collapsed's 2.9M nodes), not by what it is given
sh "$top/bench/gen-many.sh" "$work/many.collapsed" "${BENCH_MANY_STACKS:-60000}"
readcpu "$work/many.collapsed"
baseline "cat" "$work/cat" cat "$work/many.collapsed"
input_is "$work/many.collapsed"
for f in callgrind dot svg; do
	have_format "$f" 3 || continue
	set -- --to "$f"
	test "$f" != dot || set -- "$@" --nodecount 0 --node-fraction 0 --edge-fraction 0
	test "$f" != svg || set -- "$@" --minwidth 0
	run "$work/out" "$PROFTOOL" convert "$@" "$work/many.collapsed"
	row "many functions -> convert $* (writer)" "$size" "$(stat -c %s "$work/out")" "$rcpu"
done

if have_format pprof 3; then
	fleet_rows
	readcpu "$work/big.collapsed"
	baseline "cat" "$work/cat" cat "$work/big.collapsed"
	input_is "$work/big.collapsed"
	for t in tsv csv; do
		run /dev/null "$PROFTOOL" export --to $t -o "$work/tables" "$work/big.collapsed"
		row "collapsed -> export --to $t (writer; output: the three tables)" "$size" \
			"$(cat "$work/tables"/*.$t | wc -c)" "$rcpu"
		rm -rf "$work/tables"
	done
fi
