#!/bin/sh
test_description='symbolization: addresses named from their binaries as addr2line and go tool pprof name them'
. "$(dirname "$0")/lib.sh"

# tests/symbolize/prog.cc built with g++ -O2 -g here and profiled by libprofiler
# (gperftools' CPU profile: addresses and the process's memory map only). The
# program's path is 8 bytes long under $W, so the profile's copies below can name
# other 8-byte paths (a stripped copy, a missing file, ...) without moving a byte.
W=$TRASH/w
mkdir -p "$W/bin" "$W/str" "$W/dbg" "$W/bid" "$W/trc" "$W/not"
ALL="--node-fraction 0 --edge-fraction 0"
if ! command -v g++ >/dev/null || ! command -v addr2line >/dev/null ||
	! command -v objcopy >/dev/null || ! command -v python3 >/dev/null ||
	! g++ -O2 -g -o "$W/bin/prog" "$SRCDIR/tests/symbolize/prog.cc" \
		-Wl,--no-as-needed -lprofiler 2>/dev/null; then
	test_skip 'symbolization' 'needs g++, binutils and libgoogle-perftools-dev'
	test_done
	exit
fi
# a tenth of a second of CPU, sampled at 1 kHz: about a hundred samples in mix and step
CPUPROFILE_FREQUENCY=1000 CPUPROFILE="$W/prog.prof" "$W/bin/prog" 1500 >/dev/null
# the copies: stripped, its debug file by name and by build id, a truncated DWARF
strip -o "$W/str/prog" "$W/bin/prog"
objcopy --only-keep-debug "$W/bin/prog" "$W/dbg/prog"
id=$(readelf -n "$W/bin/prog" | sed -n 's/.*Build ID: *//p')
mkdir -p "$W/bid/.build-id/${id%"${id#??}"}"
cp "$W/dbg/prog" "$W/bid/.build-id/${id%"${id#??}"}/${id#??}.debug"
objcopy --dump-section .debug_info="$W/info" "$W/bin/prog"
head -c 200 "$W/info" >"$W/info.cut"
objcopy --update-section .debug_info="$W/info.cut" "$W/bin/prog" "$W/trc/prog"
echo 'not a binary' >"$W/not/prog"
# the profile naming another directory for the program
renamed () {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[3], "wb").write(d.replace(sys.argv[4].encode() + b"/bin/prog",
					sys.argv[4].encode() + sys.argv[2].encode()))' \
		"$W/prog.prof" "$1" "$2" "$W"
}
renamed /str/prog "$W/str.prof"
renamed /zzz/prog "$W/gone.prof"
renamed /trc/prog "$W/trc.prof"
renamed /dmg/prog "$W/dmg.prof"

test_expect_success 'the profile has samples in the program, named by address without symbolization' '
	"$PROFTOOL" top --symbolize none $ALL "$W/prog.prof" >out 2>err &&
	grep -q "0x[0-9a-f]* ($W/bin/prog)" out && ! grep -q "ns::" out && test ! -s err'

test_expect_success 'a missing binary: its addresses kept, said once for its five mappings' '
	"$PROFTOOL" top $ALL "$W/gone.prof" >out 2>err &&
	grep -q "0x[0-9a-f]* ($W/zzz/prog)" out &&
	test_one_line_err "proftool: $W/gone.prof: warning: cannot symbolize '"'"'$W/zzz/prog'"'"': binary not found (see --binary-path)"'

test_expect_success 'a file that is not ELF where the binary is looked for: one warning, addresses kept' '
	"$PROFTOOL" top $ALL --binary-path "$W/not" "$W/gone.prof" >out 2>err &&
	grep -q "0x[0-9a-f]* ($W/zzz/prog)" out &&
	test_one_line_err "proftool: $W/gone.prof: warning: cannot symbolize '"'"'$W/zzz/prog'"'"': '"'"'$W/not/prog'"'"' is not an ELF file"'

test_expect_success 'a truncated .debug_info: one warning, names from the symbol table, no crash' '
	"$PROFTOOL" top $ALL "$W/trc.prof" >out 2>err &&
	grep -q "ns::Engine::step(unsigned int)" out && ! grep -q "ns::mix" out &&
	test_one_line_err "proftool: $W/trc.prof: warning: cannot read the DWARF of '"'"'$W/trc/prog'"'"': names from its symbol table"'

test_expect_success 'a build id that matches nothing: one warning, addresses kept' '
	a=$(readelf -sW "$W/bin/prog" | awk "\$8 == \"_Z5outerj\" { print \$2 }") &&
	printf "1000 2000 1000 %s 0123456789abcdef\n%s\n" "$W/bin/prog" "$a" |
		python3 "$SRCDIR/tests/crafted.py" pprof-addrs 1 >bad-id.pb &&
	"$PROFTOOL" top bad-id.pb >out 2>err && grep -q "0x" out &&
	test_one_line_err "proftool: bad-id.pb: warning: cannot symbolize '"'"'$W/bin/prog'"'"': '"'"'$W/bin/prog'"'"' has another build id" &&
	printf "1000 2000 1000 %s %s\n%s\n" "$W/bin/prog" "$id" "$a" |
		python3 "$SRCDIR/tests/crafted.py" pprof-addrs 1 >good-id.pb &&
	"$PROFTOOL" top good-id.pb >out 2>err && grep -q " outer(unsigned int) " out && test ! -s err'

test_expect_success 'a stripped binary: one warning; its debug copy, by --binary-path or by build id, names the inlined frames' '
	"$PROFTOOL" top $ALL "$W/str.prof" >out 2>err && ! grep -q "ns::mix" out &&
	test "$(wc -l <err)" = 1 && grep -q "it has no symbols" err &&
	"$PROFTOOL" top $ALL --binary-path "$W/dbg" "$W/str.prof" >out 2>err &&
	grep -q "ns::mix(unsigned int) .*(inline)$" out && test ! -s err &&
	PROFTOOL_BINARY_PATH="$W/bid" "$PROFTOOL" top $ALL "$W/str.prof" >out 2>err &&
	grep -q "ns::mix(unsigned int) .*(inline)$" out && test ! -s err'

# The binary damaged where the profile names it (dmg/prog), at four places: the
# ELF header (byte 40 is where e_shoff, the section headers offset, starts), the
# program headers (64), the middle (text or DWARF) and 700 bytes before the end
# (the section headers): cut short there, or twenty bytes set to 0xff there. Each run
# reads the profile, exits 0 and prints its table; its only other words are warnings
# (no crash, no sanitizer report). One run a damage costs about 0.3 s of CPU.
damaged_runs () {
	size=$(wc -c <"$W/bin/prog") bad=0
	for at in 40 64 $((size / 2)) $((size - 700)); do
		if test "$1" = cut; then
			head -c "$at" "$W/bin/prog" >"$W/dmg/prog"
		else
			cp "$W/bin/prog" "$W/dmg/prog" &&
				printf "%020d" 0 | tr 0 "\377" |
				dd of="$W/dmg/prog" bs=1 seek="$at" conv=notrunc 2>/dev/null
		fi
		"$PROFTOOL" top $ALL "$W/dmg.prof" >out 2>err || { echo "$1 at $at: exit $?"; bad=1; }
		grep -q "^ *flat " out || { echo "$1 at $at: no table"; bad=1; }
		sed "s/^/# $1 at $at: /" err
		if grep -v "^proftool: $W/dmg.prof: warning: " err; then
			echo "$1 at $at: more than warnings"
			bad=1
		fi
	done
	return $bad
}

test_expect_success 'a binary cut short at four places: warnings at most, no crash' '
	mkdir -p "$W/dmg" && damaged_runs cut'

test_expect_success 'a binary with twenty bytes overwritten at four places: warnings at most, no crash' '
	mkdir -p "$W/dmg" && damaged_runs flip'

test_expect_success '--symbolize takes none or local only' '
	test_expect_code 2 "$PROFTOOL" top --symbolize remote "$W/prog.prof" &&
	grep -q "bad value '"'"'remote'"'"' for --symbolize" err'

if test -z "$PROFTOOL_WRAPPER"; then
	test_expect_success 'libdw is loaded only when an address needs a name' '
		LD_DEBUG=files "$PROFTOOL" top "$SAMPLES/collapsed/perfdemo-g.collapsed" 2>err >/dev/null &&
		! grep -q "libdw" err &&
		LD_DEBUG=files "$PROFTOOL" top "$W/prog.prof" 2>err >/dev/null &&
		grep -q "file=libdw.so.1 .*dynamically loaded" err'
fi

# the anchor: go parses the file (-raw -symbolize=none), addr2line -f -i -C names each
# address (tests/symbolize/expect.py); our collapsed stacks must be the same, inlined
# frames included, with the same sample counts
plain_build_judges 'the names against addr2line and go tool pprof'
command -v go >/dev/null || { test_skip 'go tool pprof' 'go is not installed'; test_done; exit; }
go tool pprof -raw -symbolize=none "$W/prog.prof" 2>/dev/null |
	python3 "$SRCDIR/tests/symbolize/expect.py" | LC_ALL=C sort >"$W/expect"
go tool pprof -proto -symbolize=none "$W/prog.prof" >"$W/addrs.pb.gz" 2>/dev/null

test_expect_success 'every sampled address: the frames addr2line -f -i -C gives, inlined ones included' '
	grep -q "ns::Engine::step(unsigned int);ns::mix(unsigned int) " "$W/expect" &&
	"$PROFTOOL" convert --to collapsed --sample-index samples "$W/prog.prof" >out 2>err &&
	LC_ALL=C sort out >actual && test_cmp "$W/expect" actual && test ! -s err'

test_expect_success 'a pprof profile of addresses only (go tool pprof -proto -symbolize=none): the same stacks' '
	"$PROFTOOL" convert --to collapsed --sample-index samples "$W/addrs.pb.gz" >out &&
	LC_ALL=C sort out >actual && test_cmp "$W/expect" actual'

test_expect_success 'stripped binary at its path: one warning, then --binary-path to its debug copy names all' '
	"$PROFTOOL" convert --to collapsed --sample-index samples "$W/str.prof" >out 2>err &&
	! grep -q "ns::mix" out &&
	test_one_line_err "proftool: $W/str.prof: warning: cannot symbolize '"'"'$W/str/prog'"'"' well: it has no symbols but its exported ones (a stripped binary? see --binary-path)" &&
	"$PROFTOOL" convert --to collapsed --sample-index samples --binary-path /nonexistent:"$W/dbg" \
		"$W/str.prof" >out 2>err &&
	LC_ALL=C sort out >actual && test_cmp "$W/expect" actual && test ! -s err'

test_expect_success 'PROFTOOL_BINARY_PATH: the debug file in the .build-id/xx/yyyy.debug layout, by the build id of the stripped binary' '
	PROFTOOL_BINARY_PATH="$W/bid" "$PROFTOOL" convert --to collapsed --sample-index samples \
		"$W/str.prof" >out 2>err &&
	LC_ALL=C sort out >actual && test_cmp "$W/expect" actual && test ! -s err'

test_expect_success 'convert --to pprof: go tool pprof -top shows the names proftool top shows, mix as inlined' '
	"$PROFTOOL" convert --to pprof -o sym.pb.gz "$W/prog.prof" &&
	go tool pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 sym.pb.gz >expect 2>/dev/null &&
	grep -q " ns::mix(unsigned int) (inline)$" expect &&
	"$PROFTOOL" top --style pprof $ALL "$W/prog.prof" >actual && test_cmp expect actual'

test_expect_success 'convert --to pprof: an address and its inlined frames are one location of several lines' '
	"$PROFTOOL" convert --to pprof -o sym.pb.gz "$W/prog.prof" &&
	go tool pprof -raw sym.pb.gz 2>/dev/null >raw &&
	awk "/^Locations/ { on = 1; next } /^Mappings/ { on = 0 }
		on && / ns::mix\(unsigned int\) / { getline; if (\$1 == \"ns::Engine::step(unsigned\") n++ }
		END { exit !n }" raw'

test_done
