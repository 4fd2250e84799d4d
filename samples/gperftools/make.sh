#!/bin/sh
# make.sh: regenerate the gperftools samples with Debian 12's libgoogle-perftools-dev
# (2.10): src/spin.cc built with g++ -O1 -g and linked with libprofiler and libtcmalloc,
# run once per profile. tests/ref/gperftools/COMMANDS makes go tool pprof's tables of
# them.
set -eu
cd "$(dirname "$0")"
tmp=/tmp/gperftools-spin
rm -rf "$tmp"
mkdir -p "$tmp"
g++ -O1 -g -o "$tmp/spin" src/spin.cc -Wl,--no-as-needed -lprofiler -ltcmalloc
CPUPROFILE_FREQUENCY=500 CPUPROFILE="$tmp/spin.cpu" "$tmp/spin" 300000000 >/dev/null
HEAPPROFILE="$tmp/spin" "$tmp/spin" 1000 >/dev/null
SPIN_DUMP="$tmp/spin" "$tmp/spin" 1000 >/dev/null
cp "$tmp/spin.cpu" spin.cpu.prof
cp "$tmp/spin.0001.heap" spin.heap
cp "$tmp/spin.growth" spin.growth
rm -rf "$tmp"
