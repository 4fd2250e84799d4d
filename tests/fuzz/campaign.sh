#!/bin/sh
# campaign.sh: fuzz each harness until it has had SECONDS of CPU time in all. The corpus
# of each harness stays in WORKDIR (seeded once by gen-seeds.sh), and every run adds a
# line "harness cpu-seconds exit runs" to WORKDIR/ledger, so a campaign can be stopped
# and run again to go on where it was, and split across cores: start one campaign.sh per
# core with the same WORKDIR, each with harnesses of its own or the same ones. A run is at
# most FUZZ_CHUNK seconds (default 300) and ends early when its harness nears its target.
# The limits are smoke.sh's, except that -timeout (FUZZ_TIMEOUT, default 30) is only the
# hard stop: fuzz-read.c's per-byte CPU check is what makes a costly input a finding.
# Findings are copied to fuzz-findings/ and listed; the exit status is 1 if there was one.
# Usage: campaign.sh SRCDIR WORKDIR SECONDS FUZZER...
set -u
if [ $# -lt 4 ]; then
	echo "usage: campaign.sh SRCDIR WORKDIR SECONDS FUZZER..." >&2
	exit 2
fi
srcdir=$1
work=$2
target=$3
shift 3
chunk_max=${FUZZ_CHUNK:-300}
timeout=${FUZZ_TIMEOUT:-30}
mkdir -p "$work" || exit 2
ledger=$work/ledger
found=0

# children_cpu FILE: the user plus system seconds of the children this shell had waited
# for when `times` wrote FILE (its second line). `times` runs in this shell, written to
# a file: a command substitution's subshell, like a pipeline's, would count only its
# own children. Both readings are taken before either is parsed, so the awk that parses
# them is not in the difference.
children_cpu () {
	awk 'NR == 2 {
		split($0, f, /[ms ]+/)
		printf "%.3f", f[1] * 60 + f[2] + f[3] * 60 + f[4]
	}' "$1"
}

# spent HARNESS: its CPU seconds in the ledger, whole
spent () {
	awk -v h="$1" '$1 == h { s += $2 } END { printf "%d", s }' "$ledger" 2>/dev/null || echo 0
}

for f in "$@"; do
	name=$(basename "$f")
	dir=$work/$name
	if [ ! -f "$dir/seeded" ]; then
		sh "$srcdir/tests/fuzz/gen-seeds.sh" "$srcdir" "$name" "$dir/corpus" || exit 2
		touch "$dir/seeded"
	fi
	mkdir -p "$dir/artifacts"
	while :; do
		used=$(spent "$name")
		[ "$used" -ge "$target" ] && break
		chunk=$((target - used))
		[ "$chunk" -gt "$chunk_max" ] && chunk=$chunk_max
		# libFuzzer's -max_total_time is wall time; a few seconds are the corpus's loading
		[ "$chunk" -lt 10 ] && chunk=10
		log=$dir/log.$(date +%Y%m%dT%H%M%S).$$
		seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
		times >"$work/.times0.$$"
		"$f" -seed="$seed" -max_total_time="$chunk" \
			-timeout="$timeout" -rss_limit_mb=1024 -malloc_limit_mb=512 -max_len=65536 \
			-print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" \
			>"$log" 2>&1
		rc=$?
		times >"$work/.times1.$$"
		cpu=$(awk -v a="$(children_cpu "$work/.times1.$$")" \
			-v b="$(children_cpu "$work/.times0.$$")" 'BEGIN { printf "%.2f", a - b }')
		rm -f "$work/.times0.$$" "$work/.times1.$$"
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "$name $cpu $rc ${runs:-0}" >>"$ledger"
		# a run of no input, or of next to no CPU time (a real one has seconds), would
		# never bring its harness to the target
		if [ "$rc" = 0 ] && { [ "${runs:-0}" = 0 ] ||
			awk -v c="$cpu" 'BEGIN { exit !(c < 0.05) }'; }; then
			echo "campaign.sh: $name: a run of no input or no CPU time, see $log" >&2
			found=$((found + 1))
			break
		fi
		if [ "$rc" != 0 ]; then
			found=$((found + 1))
			echo "finding: $name, exit $rc, log $log"
			mkdir -p fuzz-findings && cp "$dir/artifacts"/* fuzz-findings/ 2>/dev/null
			break
		fi
	done
done
awk '{ cpu[$1] += $2; runs[$1] += $4; n[$1]++; if ($3 != 0) bad[$1]++ }
	END {
		for (h in cpu)
			printf "%s: %d CPU seconds in %d runs, %d inputs, %d findings\n",
				h, cpu[h], n[h], runs[h], bad[h]
	}' "$ledger" | sort
test "$found" = 0
