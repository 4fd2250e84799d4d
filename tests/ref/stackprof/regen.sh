#!/bin/sh
# Regenerate the stackprof CLI reference outputs in this directory from the
# committed dumps in samples/stackprof/. Needs Debian's ruby-stackprof
# (made with ruby 3.1.2p20, ruby-stackprof 0.2.21-2+b1); no network.
#     sh tests/ref/stackprof/regen.sh
#
# `stackprof --method` prints the source lines of the method from the file
# name recorded in the dump; the samples were recorded with the sources in
# $SRCDIR (see samples/stackprof/make.sh), so the sources are copied there
# first. Every reference file and the command that made it are listed in
# COMMANDS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../../samples/stackprof" && pwd)
STACKPROF=${STACKPROF:-stackprof}
SRCDIR=${SRCDIR:-/tmp/proftool-stackprof-src}
mkdir -p "$SRCDIR"
cp "$samples"/src/workload.rb "$samples"/src/profile.rb "$SRCDIR"/

cd "$samples"
: > "$here/COMMANDS"
ref() { # OUTFILE ARGS...
	out=$1; shift
	"$STACKPROF" "$@" > "$here/$out"
	echo "$out: stackprof $*" >> "$here/COMMANDS"
}
text() { # SAMPLE-FILE
	s=${1%.dump}
	ref "$s.stackprof-text.txt" --text "$1"
	ref "$s.stackprof-text-all.txt" --text --limit 0 "$1"
	ref "$s.stackprof-text-total.txt" --text --sort-total "$1"
}
method() { # SAMPLE-FILE NAME PATTERN
	ref "${1%.dump}.stackprof-method.$2.txt" --method "$3" "$1"
}

for f in cpu-raw.dump cpu.dump wall-raw.dump object-raw.dump deep-raw.dump \
	meta.dump custom-raw.dump cpu-cli.dump combined-cli.dump cpu-raw.json; do
	text "$f"
done

for f in cpu-raw.dump cpu.dump cpu-raw.json combined-cli.dump; do
	method "$f" fib 'Workload#fib'
	method "$f" ping 'Workload#ping'
	method "$f" hot_leaf 'Workload#hot_leaf'
done
method cpu-raw.dump gc '(garbage collection)'
method cpu-raw.dump times 'Integer#times'
method wall-raw.dump sleep 'Kernel#sleep'
method wall-raw.dump fib 'Workload#fib'
method object-raw.dump make_strings 'Workload#make_strings'
method object-raw.dump ping 'Workload#ping'
method deep-raw.dump descend 'Workload#descend'
method meta.dump fib 'Workload#fib'
method custom-raw.dump countdown 'Workload#countdown'
