#!/bin/sh
# scaling.sh: called by run.sh (`make bench`). Each case of issue 17 crafted against the
# cost of a read or a report (tests/crafted.py, tests/deep-chain.awk), and each reader
# on ordinary inputs, at 1x, 2x, 4x and 8x size: CPU seconds and peak RSS at each size
# and the CPU ratio 8x/1x. Linear cost keeps the ratio near 8; a line "NOT LINEAR" is
# printed for any ratio of 10 or more (from 0.02 s up: less is noise). BENCH_SCALE_BASE
# (default 1) multiplies every 1x size; BENCH_SCALE_CASES (default all) names the cases
# to run. Under a NOT LINEAR line, when valgrind is installed, the instructions run at 1x
# and 8x: a ratio near 8 there means the work is linear and the CPU ratio is the larger
# input's cache misses (or a busy machine), a ratio near the CPU one means it is not.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
PROFTOOL=${PROFTOOL:-$top/src/proftool}
MEASURE=${MEASURE:-$top/bench/measure}
base=${BENCH_SCALE_BASE:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-scaling.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad=0

crafted () {
	python3 "$top/tests/crafted.py" "$@"
}

# make NAME K FILE: the input of case NAME at K times its 1x size
make_input () {
	n=$(awk -v b="$base" -v k="$2" 'BEGIN { printf "%d", b * k }')
	case $1 in
	hash-names) crafted names $((20000 * n)) ;;
	random-names) crafted random $((20000 * n)) ;;
	diff-names) crafted names $((10000 * n)) ;;
	cpuprofile-ids) crafted ids $((10000 * n)) ;;
	perf-events) crafted perf-events 62 $((5000 * n)) ;;
	perf-5000-events) crafted perf-events $((625 * n)) ;;
	pprof-types) crafted pprof-types $((20000 * n)) ;;
	deep-chain) awk -v D=$((5000 * n)) -v L=$((5000 * n)) -f "$top/tests/deep-chain.awk" ;;
	method-funcs) crafted funcs $((10000 * n)) ;;
	read-collapsed) sh "$top/bench/gen-many.sh" /dev/stdout $((10000 * n)) ;;
	read-perf) sh "$top/bench/gen-perf.sh" /dev/stdout $((8 * n)) ;;
	read-pprof | read-cpuprofile)
		sh "$top/bench/gen-many.sh" "$work/src.collapsed" $((20000 * n))
		"$PROFTOOL" convert --to "${1#read-}" -o /dev/stdout "$work/src.collapsed" ;;
	read-stackprof)
		ruby "$top/bench/gen-stackprof.rb" "$work/src.dump" $((80 * n)) >/dev/null &&
			cat "$work/src.dump" ;;
	esac >"$3"
}

# the command each case is measured with (FILE is the input)
command_of () {
	case $1 in
	hash-names | random-names | cpuprofile-ids | perf-events | read-*) echo "top FILE" ;;
	perf-5000-events | pprof-types) echo "info FILE" ;;
	diff-names) echo "diff FILE FILE" ;;
	deep-chain) echo "top --style pprof FILE" ;;
	method-funcs) echo "method --regex . FILE" ;;
	esac
}

# instructions CMD FILE: instructions the command runs on FILE (callgrind's total)
instructions () {
	# shellcheck disable=SC2046
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PROFTOOL" \
		$(echo "$1" | sed "s|FILE|$2|g") 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

printf '%-17s %-22s %20s %20s %20s %20s %6s\n' case command 1x 2x 4x 8x 8x/1x
printf '%-17s %-22s %20s %20s %20s %20s %6s\n' "" "" "MB: CPU s, RSS MB" "" "" "" CPU
for c in ${BENCH_SCALE_CASES:-hash-names random-names diff-names cpuprofile-ids perf-events \
	perf-5000-events pprof-types deep-chain method-funcs read-collapsed read-perf read-pprof \
	read-cpuprofile read-stackprof}; do
	case $c in
	read-stackprof) command -v ruby >/dev/null 2>&1 &&
		ruby -e 'Marshal' 2>/dev/null || continue ;;
	esac
	cmd=$(command_of "$c")
	cells= first= last=
	for k in 1 2 4 8; do
		make_input "$c" "$k" "$work/in" 2>/dev/null || { cells="$cells none"; continue; }
		# shellcheck disable=SC2086
		set -- $(echo "$cmd" | sed "s|FILE|$work/in|g")
		best=
		for r in 1 2 3; do
			res=$("$MEASURE" -- "$PROFTOOL" "$@" 2>/dev/null | tail -1)
			# a run that stops with an error must be a case that expects one
			case "$(echo "$res" | cut -d" " -f3)/$c" in
			0/* | 1/perf-5000-events | 1/pprof-types) ;;
			*) echo "scaling: $c at ${k}x: '$cmd' exited with $(echo "$res" | cut -d" " -f3)"
				bad=1 ;;
			esac
			best=$(echo "$res $best" | awk '{ if ($5 == "" || $4 < $5) print $4, $2; else print $5, $6 }')
		done
		cpu=${best% *}
		rss=${best#* }
		mb=$(awk -v s="$(stat -c %s "$work/in")" 'BEGIN { printf "%.1f", s / 1048576 }')
		cells="$cells $(printf '%s:%.2f,%.0f' "$mb" "$cpu" "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')")"
		test "$k" != 1 || { first=$cpu; cp "$work/in" "$work/in.1"; }
		last=$cpu
	done
	# CPU is counted in 1/100 s or finer: under 0.02 s a time is mostly noise, so
	# the ratio is taken from 0.02 s up
	ratio=$(awk -v a="$first" -v b="$last" 'BEGIN { a = a > 0.02 ? a : 0.02; b = b > 0.02 ? b : 0.02
		printf "%.1f", b / a }')
	# shellcheck disable=SC2086
	printf '%-17s %-22s %20s %20s %20s %20s %6s\n' "$c" "$cmd" $cells "$ratio"
	if awk -v r="$ratio" 'BEGIN { exit !(r >= 10) }'; then
		echo "NOT LINEAR: $c ($cmd): CPU at 8x is $ratio times CPU at 1x"
		# the instructions run (valgrind's count, which no cache miss or busy
		# neighbour changes) tell work that grows faster than the input from a
		# large input's cache misses
		if command -v valgrind >/dev/null 2>&1; then
			i1=$(instructions "$cmd" "$work/in.1") i8=$(instructions "$cmd" "$work/in")
			echo "  instructions: $i1 at 1x, $i8 at 8x, ratio $(awk -v a="$i1" -v b="$i8" 'BEGIN { printf "%.1f", b / a }')"
		fi
		bad=1
	fi
done
test "$bad" = 0 || echo "scaling: some case is not linear (see NOT LINEAR above)"
