#!/bin/sh
# gen-fleet.sh PROFTOOL SAMPLE DIR N: N small pprof files DIR/h-*/v-*.pb.gz, and DIR/list
# naming them, made from SAMPLE (a real Go runtime/pprof CPU profile, samples/go/cpu.pb.gz)
# by proftool merge: 50 variants with their own host and version labels, 1 to 3 copies
# of the sample (values) and one function or none left out (stacks), copied round-robin.
set -eu
proftool=$1 sample=$2 dir=$3 n=$4
mkdir -p "$dir"
k=0
while test $k -lt 50; do
	set -- --label "host=web-$k" --label "version=v$((k % 4))"
	case $((k % 5)) in
	1) set -- "$@" --ignore '^main\.mix$' ;;
	2) set -- "$@" --ignore '^main\.fold$' ;;
	3) set -- "$@" --ignore '^main\.step$' ;;
	4) set -- "$@" --ignore '^runtime\.asyncPreempt$' ;;
	esac
	copies=$sample
	test $((k % 3)) -lt 1 || copies="$copies $sample"
	test $((k % 3)) -lt 2 || copies="$copies $sample"
	# shellcheck disable=SC2086
	"$proftool" merge -o "$dir/v-$k.pb.gz" "$@" $copies
	k=$((k + 1))
done
# one cp per 50 files: DIR/h-J/v-K.pb.gz, J < N / 50
mkdir "$dir/v"
mv "$dir"/v-*.pb.gz "$dir/v/"
j=0
while test $((j * 50)) -lt "$n"; do
	mkdir "$dir/h-$j"
	cp "$dir"/v/v-*.pb.gz "$dir/h-$j/"
	j=$((j + 1))
done
rm -r "$dir/v"
find "$dir" -name 'v-*.pb.gz' | sort | head -n "$n" >"$dir/list"
