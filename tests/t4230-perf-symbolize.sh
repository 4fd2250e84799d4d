#!/bin/sh
test_description='perf script frames [unknown] in a stripped binary: named from its debug copy as addr2line names each address'
. "$(dirname "$0")/lib.sh"

# tests/symbolize/prog.cc built here with g++ -O2 -g and frame pointers (so perf -g
# unwinds it), kept under dbg/ and stripped under bin/ with the same name: perf script
# prints the stripped binary's frames "ADDR [unknown] (W/bin/prog)", and --binary-path
# dbg finds the copy with symbols by that name. perf 6.1 (Debian 12) prints ADDR
# relative to the file (the ip less the map's start plus its file offset), for a PIE
# as for a non-PIE; the expected names come from readelf (the executable segment) and
# addr2line, never from proftool.
W=$TRASH/w
mkdir -p "$W/bin" "$W/dbg" "$W/nopie" "$W/nopie-dbg"
for tool in g++ addr2line readelf strip; do
	command -v $tool >/dev/null || {
		test_skip 'perf symbolization' "needs $tool (g++, binutils)"
		test_done
		exit
	}
done
if ! g++ -O2 -g -fno-omit-frame-pointer -o "$W/dbg/prog" "$SRCDIR/tests/symbolize/prog.cc" ||
	! g++ -O2 -g -fno-omit-frame-pointer -no-pie -o "$W/nopie-dbg/prog" \
		"$SRCDIR/tests/symbolize/prog.cc"; then
	test_skip 'perf symbolization' 'g++ cannot build tests/symbolize/prog.cc'
	test_done
	exit
fi
strip -o "$W/bin/prog" "$W/dbg/prog"
strip -o "$W/nopie/prog" "$W/nopie-dbg/prog"

. "$SRCDIR/tests/symbolize/perf-expect.sh"
# A crafted input that needs no perf: one record per function of the program, its one
# frame the function address as a file offset (nm of the copy with symbols, less the
# segment p_vaddr plus its p_offset), as perf 6.1 prints an unnamed frame.
crafted "$W/dbg/prog" "$W/bin/prog" main _Z5outerj _ZN2ns6Engine4stepEj >"$W/crafted.txt"

test_expect_success 'crafted [unknown] frames at file offsets: each named as addr2line names it' '
	test "$(grep -c "\[unknown\]" "$W/crafted.txt")" = 3 &&
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/crafted.txt" >addrs.folded &&
	expect_from prog "$W/dbg/prog" &&
	grep -q "^prog;outer(unsigned int) 1\$" expect &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/crafted.txt" >out 2>err &&
	sort out >actual && test_cmp expect actual && test ! -s err'

test_expect_success '--symbolize none keeps [unknown] frames as the file name' '
	"$PROFTOOL" convert --to collapsed --symbolize none --binary-path "$W/dbg" "$W/crafted.txt" >out 2>err &&
	test "$(cat out)" = "prog;[prog] 3" && test ! -s err'

test_expect_success 'the stripped binary only: perf looked at its exported symbols, so nothing more, no warning' '
	"$PROFTOOL" convert --to collapsed "$W/crafted.txt" >out 2>err &&
	test "$(cat out)" = "prog;[prog] 3" && test ! -s err'

test_expect_success 'a binary not on this machine: the frames kept, a warning only when --binary-path was searched' '
	sed "s|$W/bin/prog|$W/gone/prog|" "$W/crafted.txt" >gone.txt &&
	"$PROFTOOL" convert --to collapsed gone.txt >out 2>err &&
	test "$(cat out)" = "prog;[prog] 3" && test ! -s err &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/none" gone.txt >out 2>err &&
	test "$(cat out)" = "prog;[prog] 3" &&
	test_one_line_err "proftool: gone.txt: warning: cannot symbolize '"'"'$W/gone/prog'"'"': binary not found (see --binary-path)"'

test_expect_success 'a PERF_RECORD_MMAP2 line whose map holds the address: the address is the process one' '
	a=$(nm "$W/dbg/prog" | awk "\$3 == \"_Z5outerj\" { print \$1 }") &&
	seg=$(exec_segment "$W/dbg/prog") && off=${seg% *} vad=${seg#* } &&
	base=$((0x555500000000)) &&
	{
		printf "prog 1 0.5: PERF_RECORD_MMAP2 1/1: [0x%x(0x%x) @ 0x%x fd:00 1 2]: r-xp %s\n" \
			$((base + off)) 4096 $((off)) "$W/bin/prog" &&
		printf "prog 1 1.0: 1 cpu-clock:\n\t%x [unknown] (%s)\n\n" \
			$((base + 0x$a - vad + off + 4)) "$W/bin/prog"
	} >mmap.txt &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" mmap.txt >out 2>err &&
	test "$(cat out)" = "prog;outer(unsigned int) 1" && test ! -s err'

# the real producer, judged by addr2line (the crafted cases above keep proftool's part
# in the sanitizer build): perf record -g of the stripped programs, a tenth of a second each,
# user space only (perf script then reads no kernel symbols); the PIE run printed with
# its PERF_RECORD_MMAP2 lines, whose maps hold none of the file-relative addresses
plain_build_judges 'perf record of the stripped programs against addr2line'
record_or_skip 'perf record' "$W/perf.data" "$W/bin/prog"
perf script --show-mmap-events -i "$W/perf.data" 2>/dev/null | own_records "$W/bin/prog" >"$W/perf.txt"
perf record -q -e cpu-clock:u -g -o "$W/nopie.data" -- "$W/nopie/prog" 300 >/dev/null 2>&1
perf script -i "$W/nopie.data" 2>/dev/null | own_records "$W/nopie/prog" >"$W/nopie.txt"

test_expect_success 'perf record of the stripped PIE: every sampled address named as addr2line -f -i -C names it' '
	grep -q "\[unknown\] ($W/bin/prog)\$" "$W/perf.txt" &&
	grep -q "PERF_RECORD_MMAP2 .* r-xp $W/bin/prog\$" "$W/perf.txt" &&
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/perf.txt" >addrs.folded &&
	expect_from prog "$W/dbg/prog" &&
	grep -q ";ns::Engine::step(unsigned int);ns::mix(unsigned int) [0-9]*\$" expect &&
	! grep -q "\[prog" expect &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/perf.txt" >out 2>err &&
	sort out >actual && test_cmp expect actual && test ! -s err'

test_expect_success 'perf record of a stripped non-PIE (ET_EXEC): the same' '
	grep -q "\[unknown\] ($W/nopie/prog)\$" "$W/nopie.txt" &&
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/nopie.txt" >addrs.folded &&
	expect_from prog "$W/nopie-dbg/prog" &&
	grep -q ";ns::Engine::step(unsigned int);ns::mix(unsigned int) [0-9]*\$" expect &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/nopie-dbg" "$W/nopie.txt" >out 2>err &&
	sort out >actual && test_cmp expect actual && test ! -s err'

test_expect_success 'top of the stripped run names the functions, the inlined one marked' '
	"$PROFTOOL" top --binary-path "$W/dbg" "$W/perf.txt" >out 2>err &&
	grep -q " ns::mix(unsigned int) (.*prog.cc) (inline)\$" out &&
	grep -q " ns::Engine::step(unsigned int) (.*prog.cc)\$" out &&
	! grep -q "\[prog\]" out && test ! -s err'

test_done
