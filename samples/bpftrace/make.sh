#!/bin/sh
# make.sh: regenerate the bpftrace samples (as root, Debian 12's bpftrace): profile
# src/spin.c for a few seconds at 99 Hz with each key form.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/spin" src/spin.c
"$tmp/spin" >/dev/null &
pid=$!
sleep 1
run() {
	timeout -k 10 -s INT "$1" bpftrace -e "$2" >"$3" 2>/dev/null || true
}
run 6 "profile:hz:99 /pid == $pid/ { @[ustack] = count(); }" ustack.txt
run 6 "profile:hz:99 /pid == $pid/ { @[kstack, ustack] = count(); }" kstack-ustack.txt
run 6 "profile:hz:99 /pid == $pid/ { @[comm, ustack] = count(); }" comm-ustack.txt
run 6 "profile:hz:99 /pid == $pid/ { @[kstack] = count(); }" kstack.txt
run 6 "profile:hz:99 /pid == $pid/ { @cpu[ustack] = count(); @kernel[kstack] = count(); }" two-maps.txt
