#!/bin/sh
# gen-perf-mix.sh OUT MB: `perf script` text of real programs of several runtimes,
# recorded here with `perf record -g` for about a second each (a Go program, node,
# perl, ruby, python3 and gcc compiling a C file), then repeated up to MB megabytes.
# Each program's own frames are what real profiles hold: JIT and interpreter frames,
# [unknown] addresses, kernel frames, C++ templates. Programs that are not installed
# are left out (the file says which in its first lines).
set -eu
out=$1
mb=$2
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/proftool-perfmix.XXXXXX")
trap 'rm -rf "$work"' EXIT

rec () {
	name=$1
	shift
	command -v "$1" >/dev/null 2>&1 || { echo "# gen-perf-mix: no $1" >>"$work/head"; return 0; }
	perf record -q -g -F 2000 -o "$work/$name.data" -- "$@" >/dev/null 2>&1 || return 0
	perf script -i "$work/$name.data" >"$work/$name.txt" 2>/dev/null || return 0
	echo "# gen-perf-mix: $name" >>"$work/head"
}

: >"$work/head"
cat >"$work/loop.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static double leaf(int i) { return i * 0.5; }
static double mid(int n) { double s = 0; for (int i = 0; i < n; i++) s += leaf(i); return s; }
int main(void) { double s = 0; for (int k = 0; k < 3000; k++) s += mid(100000); printf("%f\n", s); return 0; }
C
if command -v go >/dev/null 2>&1; then
	mkdir -p "$work/gosrc"
	cp "$top/tests/record/pprof-server/main.go" "$top/tests/record/pprof-server/go.mod" "$work/gosrc/"
	(cd "$work/gosrc" && GOCACHE="$work/gocache" go build -o "$work/goprog" .) &&
		rec go sh -c "'$work/goprog' '$work/addr' 1"
fi
rec node node -e 'let s = 0; const t = Date.now(); function f(n) { return n < 2 ? n : f(n - 1) + f(n - 2) } while (Date.now() - t < 1000) s += f(20); console.log(s)'
rec perl perl -e 'my $s = 0; my $t = time + 1; sub f { my $n = shift; $n < 2 ? $n : f($n - 1) + f($n - 2) } while (time < $t) { $s += f(15) } print "$s\n"'
rec ruby ruby -e 's = 0; t = Time.now + 1; def f(n) n < 2 ? n : f(n - 1) + f(n - 2) end; s += f(18) while Time.now < t; puts s'
rec python python3 -c 'import time
def f(n): return n if n < 2 else f(n - 1) + f(n - 2)
t = time.time() + 1
s = 0
while time.time() < t: s += f(15)
print(s)'
rec gcc gcc -O2 -c -o "$work/loop.o" "$work/loop.c"
rec c sh -c "gcc -O1 -fno-omit-frame-pointer -o '$work/loop' '$work/loop.c' && '$work/loop'"
ls "$work"/*.txt >/dev/null 2>&1 || { echo "gen-perf-mix: perf recorded nothing" >&2; exit 1; }
{
	cat "$work/head"
	size=0
	target=$((mb * 1024 * 1024))
	while test "$size" -lt "$target"; do
		for f in "$work"/*.txt; do
			cat "$f"
		done
		size=$((size + $(cat "$work"/*.txt | wc -c)))
	done
} | head -c $((mb * 1024 * 1024)) >"$out.tmp"
# end on a whole record: cut after the last blank line
awk '/^$/ { print buf $0; buf = ""; next } { buf = buf $0 "\n" }' "$out.tmp" >"$out"
rm -f "$out.tmp"
