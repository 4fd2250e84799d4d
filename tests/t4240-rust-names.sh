#!/bin/sh
test_description='a Rust program: names demangled (legacy and v0 mangling) as binutils names each address, --no-demangle keeps them raw'
. "$(dirname "$0")/lib.sh"

# tests/symbolize/prog.rs built here by rustc with -g and frame pointers, once per
# mangling (legacy _ZN...17h<hash>E; v0 _R... where rustc takes
# -C symbol-mangling-version=v0, as Debian 12's 1.63 does), kept under dbg/ and
# stripped under bin/: perf script prints the stripped frames [unknown], which
# --binary-path dbg names (tests/symbolize/perf-expect.sh has the binutils anchor).
# proftool demangles as c++filt does (t4210), which keeps a legacy name's hash and a v0
# crate's disambiguator; addr2line -C drops both, so against it they are dropped from
# our names first.
W=$TRASH/w
mkdir -p "$W/bin" "$W/dbg"
for tool in rustc addr2line c++filt readelf strip nm; do
	command -v $tool >/dev/null || {
		test_skip 'Rust names' "needs $tool (Debian rustc, binutils)"
		test_done
		exit
	}
done
RUSTFLAGS_T="-C opt-level=2 -g -C force-frame-pointers=yes"
if ! rustc $RUSTFLAGS_T -o "$W/dbg/legacy" "$SRCDIR/tests/symbolize/prog.rs" 2>"$W/rustc.err"; then
	test_skip 'Rust names' "rustc cannot build tests/symbolize/prog.rs: $(head -1 "$W/rustc.err")"
	test_done
	exit
fi
manglings=legacy
if rustc $RUSTFLAGS_T -C symbol-mangling-version=v0 -o "$W/dbg/v0" \
	"$SRCDIR/tests/symbolize/prog.rs" 2>/dev/null; then
	manglings="legacy v0"
fi
for m in $manglings; do
	strip -o "$W/bin/$m" "$W/dbg/$m"
done
. "$SRCDIR/tests/symbolize/perf-expect.sh"

# the symbols of outer and Engine::step as each mangling spells them (nm)
sym () {
	nm "$W/dbg/$1" | awk -v w="$2" "\$3 ~ w { print \$3; exit }"
}
crafted "$W/dbg/legacy" "$W/bin/legacy" "$(sym legacy "^_ZN4prog5outer17h")" \
	"$(sym legacy "^_ZN4prog6engine6Engine4step17h")" >"$W/legacy.txt"

# drop_hashes: our names as addr2line -C spells them
drop_hashes () {
	sed -E "s/::h[0-9a-f]{16}([; ])/\1/g; s/\[[0-9a-f]{16}\]//g"
}

test_expect_success 'legacy mangling: the names c++filt gives addr2line -f -i, hashes kept' '
	test "$(grep -c "\\[unknown\\]" "$W/legacy.txt")" = 2 &&
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/legacy.txt" >addrs.folded &&
	expect_from legacy "$W/dbg/legacy" filt &&
	grep -q "^prog;prog::outer::h[0-9a-f]* 1\$" expect &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/legacy.txt" >out 2>err &&
	sort out >actual && test_cmp expect actual && test ! -s err'

test_expect_success 'legacy mangling: addr2line -f -i -C names, less the hashes' '
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/legacy.txt" >addrs.folded &&
	expect_from legacy "$W/dbg/legacy" c &&
	grep -q "^prog;prog::engine::Engine::step 1\$" expect &&
	"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/legacy.txt" >out &&
	drop_hashes <out | sort >actual && test_cmp expect actual'

test_expect_success '--no-demangle: the names as the binary spells them' '
	"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/legacy.txt" >addrs.folded &&
	expect_from legacy "$W/dbg/legacy" raw &&
	grep -q "^prog;_ZN4prog5outer17h[0-9a-f]*E 1\$" expect &&
	"$PROFTOOL" convert --to collapsed --no-demangle --binary-path "$W/dbg" "$W/legacy.txt" >out &&
	sort out >actual && test_cmp expect actual'

# perf record -g of each stripped build, a tenth of a second, user space only; judged
# by addr2line (the crafted cases above keep proftool's part in the sanitizer build)
plain_build_judges 'perf record of the Rust program against addr2line'
record_or_skip 'perf record of the Rust program' "$W/legacy.data" "$W/bin/legacy"
for m in $manglings; do
	test $m = legacy ||
		perf record -q -e cpu-clock:u -g -o "$W/$m.data" -- "$W/bin/$m" 300 >/dev/null 2>&1
	perf script -i "$W/$m.data" 2>/dev/null | own_records "$W/bin/$m" >"$W/$m.perf"
done

for m in $manglings; do
	test_expect_success "perf of the $m build: every sampled address named as c++filt names addr2line -f -i, inline frames included" '
		grep -q "\[unknown\] ($W/bin/'$m')\$" "$W/'$m'.perf" &&
		"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/'$m'.perf" >addrs.folded &&
		expect_from '$m' "$W/dbg/'$m'" filt &&
		grep -q "Engine>*::step[^;]*;prog\(\[[0-9a-f]*\]\)*::engine::mix" expect &&
		"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/'$m'.perf" >out 2>err &&
		sort out >actual && test_cmp expect actual && test ! -s err'

	test_expect_success "perf of the $m build: addr2line -f -i -C names, less hashes; --no-demangle the raw names" '
		"$PROFTOOL" convert --to collapsed --symbolize none --addrs "$W/'$m'.perf" >addrs.folded &&
		expect_from '$m' "$W/dbg/'$m'" c &&
		"$PROFTOOL" convert --to collapsed --binary-path "$W/dbg" "$W/'$m'.perf" >out &&
		drop_hashes <out | sort >actual && test_cmp expect actual &&
		expect_from '$m' "$W/dbg/'$m'" raw &&
		"$PROFTOOL" convert --to collapsed --no-demangle --binary-path "$W/dbg" "$W/'$m'.perf" >out &&
		sort out >actual && test_cmp expect actual'
done

test_done
