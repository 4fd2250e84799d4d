#!/bin/sh
# calibrate-gate.sh [RUNS [COMPARISONS]]: issue 36's calibration of `diff`'s regression
# gate on a real workload. bench/gate-work.js is recorded RUNS times (default 40) as
# version A and RUNS times as version B, A's source with one function's work raised by
# 10%, the two alternating so that the machine's drift reaches both. Then COMPARISONS
# (default 200) random comparisons, the runs drawn with a fixed seed:
#   A/A, 5 runs a side (10 distinct runs of A): how often the gate fails a good change;
#   A/B, 5 runs a side: how often it finds the slowdown, named in stepC;
# and the same with one run a side (the gate without a test). Prints a Markdown table.
#   GATE_PCT  the gate's --fail-on-regression (default 1 point)
#   ALPHA     --alpha (default 0.05)
#   PROFTOOL  the binary (default src/proftool of this tree)
#   GATE_PROFILES  a folder that keeps the recorded runs (A/, B/): when it holds RUNS
#             runs a version already, they are compared again without recording
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
P=${PROFTOOL:-$top/src/proftool}
runs=${1:-40}
cmps=${2:-200}
pct=${GATE_PCT:-1}
alpha=${ALPHA:-0.05}
work=$(mktemp -d "${TMPDIR:-/tmp}/calibrate-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT

cp "$top/bench/gate-work.js" "$work/a.js"
sed 's/^const N_C = 6000000;$/const N_C = 6600000;/' "$work/a.js" >"$work/b.js"
if cmp -s "$work/a.js" "$work/b.js"; then
	echo "calibrate-gate.sh: the slower version did not change (gate-work.js's N_C)" >&2
	exit 1
fi
store=${GATE_PROFILES:-$work}
mkdir -p "$store/A" "$store/B" "$work/run"
i=1
test -f "$store/A/$runs.cpuprofile" && test -f "$store/B/$runs.cpuprofile" && i=$((runs + 1))
while test $i -le "$runs"; do
	for v in A B; do
		# each version runs as run/gate-work.js: a function is its name and file
		cp "$work/$(echo $v | tr AB ab).js" "$work/run/gate-work.js"
		node --cpu-prof --cpu-prof-interval 250 --cpu-prof-dir "$store/$v" \
			--cpu-prof-name "$i.cpuprofile" "$work/run/gate-work.js"
	done
	i=$((i + 1))
done

# pick SEED N FROM K: K distinct numbers of 1..FROM (a partial Fisher-Yates shuffle)
pick () {
	awk -v seed="$1" -v n="$2" -v k="$3" 'BEGIN { srand(seed)
		for (i = 1; i <= n; i++) a[i] = i
		for (i = 1; i <= k; i++) { j = i + int(rand() * (n - i + 1)); t = a[i]; a[i] = a[j]; a[j] = t; printf "%d ", a[i] } }'
}

# rate KIND K: the share of COMPARISONS in which the gate fails (exit 3)
rate () {
	kind=$1
	k=$2
	fails=0 named=0 c=1
	while test $c -le "$cmps"; do
		if test "$kind" = AA; then
			set -- $(pick $c "$runs" $((2 * k)))
			base= new= j=0
			for n in "$@"; do
				j=$((j + 1))
				if test $j -le "$k"; then base="$base $store/A/$n.cpuprofile"; else new="$new $store/A/$n.cpuprofile"; fi
			done
		else
			base= new=
			for n in $(pick $c "$runs" "$k"); do base="$base $store/A/$n.cpuprofile"; done
			for n in $(pick $((c + 100000)) "$runs" "$k"); do new="$new $store/B/$n.cpuprofile"; done
		fi
		# in samples, as the committed table was made (a .cpuprofile now defaults to
		# its time; node samples at a steady interval, so the shares hardly differ)
		if test "$k" = 1; then
			"$P" diff --sample-index samples $base $new --fail-on-regression "$pct" >"$work/out" 2>"$work/err" && rc=0 || rc=$?
		else
			"$P" diff --sample-index samples $base --vs $new --fail-on-regression "$pct" --alpha "$alpha" \
				>"$work/out" 2>"$work/err" && rc=0 || rc=$?
		fi
		case $rc in
		0) ;;
		3)
			fails=$((fails + 1))
			! grep -q "stepC" "$work/err" || named=$((named + 1))
			;;
		*) echo "calibrate-gate.sh: diff exit $rc:" >&2; cat "$work/err" >&2; exit 1 ;;
		esac
		c=$((c + 1))
	done
	echo "$fails $named"
}

echo "| comparison | runs a side | gate fails | of which name stepC |"
echo "|---|---|---|---|"
for k in 5 1; do
	set -- $(rate AA $k)
	echo "| A/A (no change) | $k | $1 of $cmps ($(awk -v a="$1" -v b="$cmps" 'BEGIN { printf "%.1f%%", 100 * a / b }')) | $2 |"
	set -- $(rate AB $k)
	echo "| A/B (stepC +10%) | $k | $1 of $cmps ($(awk -v a="$1" -v b="$cmps" 'BEGIN { printf "%.1f%%", 100 * a / b }')) | $2 |"
done
echo
echo "RUNS=$runs a version, --fail-on-regression $pct, --alpha $alpha, node $(node --version), --cpu-prof-interval 250"
