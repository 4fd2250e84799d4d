#!/bin/sh
test_description='demangling: C++ and Rust names as c++filt prints them, --no-demangle, --simplify as pprof'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data/demangle
R=$REF/demangle

# each name of a real g++ and rustc build (tests/data/demangle/make.sh) a one-frame
# stack whose count is its line number, so a row names its input line
awk '{ print $0, NR }' "$D/names.txt" >"$TRASH/names.collapsed"
N=$TRASH/names.collapsed

# the csv rows' names in input line order (the flat value is the line number)
names_in_order () {
	python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
for r in sorted(rows, key=lambda r: int(r["flat"])):
    print(r["name"])'
}

test_expect_success 'every name equals c++filt (the committed reading, made by make.sh)' '
	"$PROFTOOL" top -n 0 --format csv "$N" | names_in_order >actual &&
	test_cmp "$D/names.c++filt.txt" actual'

test_expect_success 'every name equals the c++filt on this machine' '
	if ! command -v c++filt >/dev/null; then echo "no c++filt: skipped"; exit 0; fi &&
	c++filt <"$D/names.txt" >expect &&
	"$PROFTOOL" top -n 0 --format csv "$N" | names_in_order >actual &&
	test_cmp expect actual'

test_expect_success '--no-demangle keeps the names as they were' '
	"$PROFTOOL" top -n 0 --no-demangle --format csv "$N" | names_in_order >actual &&
	test_cmp "$D/names.txt" actual'

test_expect_success 'csv and json keep the full names under --simplify' '
	"$PROFTOOL" top -n 0 --simplify --format csv "$N" | names_in_order >actual &&
	test_cmp "$D/names.c++filt.txt" actual &&
	"$PROFTOOL" top -n 0 --simplify --format json "$N" >out.json &&
	grep -q "ns::Engine::step(std::__cxx11::basic_string<char" out.json'

# pprof demangles with github.com/ianlancetaylor/demangle, libiberty here: they differ
# on one name of the list, where pprof drops an underscore of __rust_begin_short_backtrace
# (c++filt and rustc-demangle keep both; it is in names.c++filt.txt)
test_expect_success '--simplify: names and merged rows as go tool pprof shows them by default' '
	"$PROFTOOL" top --simplify --style pprof --node-fraction 0 --edge-fraction 0 "$N" >actual &&
	sed "s/ std::sys::backtrace::_rust_begin_short_backtrace$/ std::sys::backtrace::__rust_begin_short_backtrace/" \
		"$R/names.pprof-top.simple.txt" >expect &&
	grep -q "std::sys::backtrace::__rust_begin_short_backtrace::h" "$D/names.c++filt.txt" &&
	test_cmp expect actual'

test_expect_success '--simplify merges overloads and instances into one row of their summed values' '
	printf "main;_Z3fooi 2\nmain;_Z3food 3\nmain;_Z3barIiEvv 4\nmain;_Z3barIdEvv 5\n" >in.collapsed &&
	"$PROFTOOL" top --simplify --format text in.collapsed >out &&
	grep -q " 9 .* bar$" out && grep -q " 5 .* foo$" out &&
	"$PROFTOOL" top --format csv in.collapsed >full &&
	grep -q "^\"foo(int)\"" full && grep -q "^\"void bar<double>()\"" full'

test_expect_success 'perf script frames are demangled too; the pprof writer keeps the mangled name as system name' '
	printf "spin 4242 [001] 100.000001: 1001001 cpu-clock:u:\n\t401136 _ZN2ns6Engine4stepEv+0x16 (/usr/local/bin/spin)\n\t401300 main+0x10 (/usr/local/bin/spin)\n\n" >perf.txt &&
	"$PROFTOOL" top --format csv perf.txt >out &&
	grep -q "^\"ns::Engine::step()\"" out &&
	"$PROFTOOL" convert --to pprof --no-gzip -o out.pb perf.txt &&
	grep -q "_ZN2ns6Engine4stepEv" out.pb && grep -q "ns::Engine::step()" out.pb'

test_expect_success 'a pprof profile whose names are mangled (name = system name) is demangled on reading' '
	"$PROFTOOL" convert --no-demangle --to pprof -o m.pb.gz "$N" &&
	"$PROFTOOL" top -n 0 --format csv m.pb.gz | names_in_order >actual &&
	test_cmp "$D/names.c++filt.txt" actual'

test_expect_success 'names that are not mangled are left alone, Go and Java ones by --simplify too' '
	printf "main;main.(*T).run;java.util.HashMap.<init> 3\n" >in.collapsed &&
	"$PROFTOOL" top --simplify --format csv -n 0 in.collapsed >out &&
	grep -q "^\"main.(\*T).run\"" out && grep -q "^\"java.util.HashMap.<init>\"" out'

# a substitution's number as the Itanium ABI writes it (base 36, two digits at most here)
b36 () {
	d=0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ
	if test "$1" -ge 36; then
		printf "%s" "$(echo "$d" | cut -c$(($1 / 36 + 1)))"
	fi
	printf "%s" "$(echo "$d" | cut -c$(($1 % 36 + 1)))"
}

# 200 bytes whose substitutions double the demangled name 20 times (6.8 MB from
# c++filt): left as it is, at once; so is a word past PT_DEMANGLE_MAX (16 KiB)
test_expect_success 'a name that would demangle into megabytes, or a very long one, stays mangled' '
	b=_Z1f1A && i=0 && prev=S_ &&
	while test $i -lt 20; do
		b="${b}PFv${prev}${prev}E" && i=$((i + 1)) &&
		prev=S$(b36 $((2 * i - 1)))_
	done &&
	printf "main;%s 1\n" "$b" >bomb.collapsed &&
	{ ! command -v c++filt >/dev/null ||
		{ c++filt "$b" | wc -c >size && test "$(cat size)" -gt 6000000; }; } &&
	"$PROFTOOL" top --format csv bomb.collapsed >out &&
	grep -q "^\"$b\"," out &&
	awk "BEGIN { s = \"main;_Z1f\"; for (i = 0; i < 6000; i++) s = s \"PFv\"; s = s \"v\";
		for (i = 0; i < 6000; i++) s = s \"E\"; print s, 1 }" >long.collapsed &&
	"$PROFTOOL" top --format csv long.collapsed >out &&
	grep -q "^\"_Z1fPFvPFv" out'

test_done
