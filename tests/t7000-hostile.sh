#!/bin/sh
test_description='hostile inputs made from every real sample: truncations, bit flips, garbage'
# (bit 5 of one byte is flipped: a letter changes case, a digit or tab becomes text)
. "$(dirname "$0")/lib.sh"

# Every damaged input must end in exit 0 (still a valid profile) or exit 1 with exactly
# one line on stderr naming the file and the line or byte offset, and -o must leave no
# file behind on failure.
# A 20 s guard catches hangs; memory is measured with bench/measure where it is built
# and the binary is not under a sanitizer or valgrind (they inflate RSS).
MEASURE=${BUILDDIR:-$SRCDIR}/bench/measure
# damaged copies per sample: fewer under valgrind, which is 30x slower, and under
# ASan+UBSan, where the fuzz smoke already mutates these samples (its seeds) in the same
# sanitizers: the plain build keeps every offset
n=24
test "$PT_BUILD" != sanitizer || n=8
test -z "$PROFTOOL_WRAPPER" || n=3
limit_kib=$((100 * 1024))

# located LINE FILE: LINE is "proftool: FILE:N: ..." or "proftool: FILE: byte N: ..."
located () {
	rest=${1#"proftool: $2:"}
	test "$rest" != "$1" || return 1
	case $rest in " byte "*) rest=${rest#" byte "} ;; esac
	num=${rest%%": "*}
	test "$num" != "$rest" || return 1
	case $num in "" | *[!0-9]*) return 1 ;; esac
}

# check_one FILE: run convert on FILE and judge the outcome. It runs hundreds of times
# per sample, so it uses the shell's builtins where it can: every file it is given has
# a name of its own, and so has the output (FILE.out).
check_one () {
	timeout 20 "$PROFTOOL" convert --to collapsed -o "$1.out" "$1" >/dev/null 2>err
	rc=$?
	case $rc in
	0) test -f "$1.out" || { echo "$1: exit 0 without output"; return 1; } ;;
	1)
		test ! -e "$1.out" || { echo "$1: failed but left $1.out"; return 1; }
		lines=0 first=
		while IFS= read -r l; do
			lines=$((lines + 1))
			test $lines != 1 || first=$l
		done <err
		test $lines = 1 || { echo "$1: $lines stderr lines:"; cat err; return 1; }
		# a damaged input that still reads as a valid profile may hold no stacks (a
		# stackprof dump whose raw key lost a bit): the collapsed writer then says so
		# without a position, and top must read the same file
		located "$first" "$1" ||
			{ case $first in "proftool: $1: "*"holds no stacks"*) ;; *) false ;; esac &&
				"$PROFTOOL" top "$1" >/dev/null 2>&1; } ||
			{ echo "$1: error does not name the file and the line or byte:"; cat err; return 1; }
		;;
	*) echo "$1: exit $rc"; cat err; return 1 ;;
	esac
	for t in "$1".out.tmp* ."$1".out.tmp*; do
		test ! -e "$t" || { echo "$1: temporary file $t left behind"; return 1; }
	done
}

samples=$(find "$SAMPLES" -type f \( -name '*.txt' -o -name '*.collapsed' -o -name '*.pb*' \
	-o -name '*.dump' -o -name '*.json' -o -name '*.cpuprofile' \) -size -300k | LC_ALL=C sort)

for s in $samples; do
	name=${s#"$SAMPLES"/}
	test_expect_success "truncated at $n offsets: $name" '
		size=$(wc -c <"'"$s"'") && i=1 &&
		while test $i -le $n; do
			head -c $((size * i / (n + 1))) "'"$s"'" >cut.$i && check_one cut.$i || exit 1
			i=$((i + 1))
		done'
	test_expect_success "bit flips at $n offsets: $name" '
		python3 "$SRCDIR/tests/bitflip.py" "'"$s"'" $n flip &&
		i=1 &&
		while test $i -le $n; do
			check_one flip.$i || exit 1
			i=$((i + 1))
		done'
done

test_expect_success 'random bytes, NUL bytes and invalid UTF-8 never crash' '
	for seed in 1 2 3 4 5 6 7 8; do
		awk -v s=$seed "BEGIN { srand(s); for (i = 0; i < 4000; i++) printf \"%c\", int(rand() * 256) }" >rnd.$seed &&
		check_one rnd.$seed || exit 1
		{ printf "\037\213\010\000\000\000\000\000\000\003"; cat rnd.$seed; } >rnd.$seed.gz &&
		check_one rnd.$seed.gz || exit 1
	done'

test_expect_success 'a gzip bomb is stopped by --max-input-size, fast and small' '
	yes "main;x 1" | head -c 200000000 | gzip -1 -c >bomb.gz &&
	test_expect_code 1 "$PROFTOOL" top --max-input-size 64M bomb.gz &&
	test_one_line_err "proftool: bomb.gz: input is larger than --max-input-size (67108864 bytes)"'

# One stack of 100000 distinct frames whose leaf has a 1 MB name: every writer takes it
# and every reader of their output gives the same stack back (no recursion anywhere)
test_expect_success 'a 100000-frame stack with a 1 MB name through every writer and back' '
	{ printf main; seq -f ";f%.0f" 1 99999 | tr -d "\n"
	  printf ";"; head -c 1048576 /dev/zero | tr "\0" x; echo " 7"; } >deep.collapsed &&
	"$PROFTOOL" convert --to collapsed deep.collapsed >back.collapsed &&
	cmp deep.collapsed back.collapsed &&
	for f in pprof cpuprofile; do
		"$PROFTOOL" convert --to $f -o deep.$f deep.collapsed &&
		# counts: a .cpuprofile with times defaults to its wall type
		"$PROFTOOL" convert --from $f --sample-index samples --to collapsed deep.$f >back.collapsed &&
		cmp deep.collapsed back.collapsed || { echo "$f round trip differs"; exit 1; }
	done &&
	for f in callgrind dot speedscope svg; do
		"$PROFTOOL" convert --to $f -o deep.$f deep.collapsed &&
		test -s deep.$f || { echo "$f: no output"; exit 1; }
	done &&
	"$PROFTOOL" top --cum -n 3 deep.collapsed >top.txt &&
	grep -q "^Showing 3 of 100001 functions" top.txt && grep -q "^Total: 7\$" top.txt'

# 1 GB of zeros, gzipped (1 MB, made once for the tests below): every reader, forced
# with --from, gives up on it at once, however large the default --max-input-size
head -c 1000000000 /dev/zero | gzip -1 -c >"$TRASH/zeros.gz"
zeros_err () {
	case $1 in
	collapsed | perf) echo "proftool: zeros.gz:1: line longer than 16777216 bytes" ;;
	stackprof) echo "proftool: zeros.gz: byte 0: not a Ruby Marshal 4.8 dump (bad magic)" ;;
	stackprof-json) echo "proftool: zeros.gz: byte 1: invalid JSON: lexical error: invalid char in json text." ;;
	pprof) echo "proftool: zeros.gz: byte 0: bad field number 0 in 'Profile'" ;;
	cpuprofile) echo "proftool: zeros.gz: byte 1: invalid JSON: lexical error: invalid char in json text" ;;
	esac
}
for f in collapsed perf stackprof stackprof-json pprof cpuprofile; do
	test_expect_success "1 GB of gzipped zeros as $f: exit 1, one line" '
		cp "$TRASH/zeros.gz" . &&
		test_expect_code 1 "$PROFTOOL" top --from '"$f"' zeros.gz &&
		test_one_line_err "$(zeros_err '"$f"')"'
done
if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	test_expect_success '1 GB of gzipped zeros: every reader within 1 s of CPU and 100 MiB' '
		for f in collapsed perf stackprof stackprof-json pprof cpuprofile; do
			set -- $("$MEASURE" -- "$PROFTOOL" top --from $f "$TRASH/zeros.gz" 2>/dev/null)
			test "$3" = 1 || { echo "$f: exit $3"; exit 1; }
			test "$2" -lt '"$limit_kib"' || { echo "$f: $2 KiB"; exit 1; }
			awk -v c="$4" "BEGIN { exit !(c < 1) }" || { echo "$f: $4 s of CPU"; exit 1; }
		done'
else
	test_skip '1 GB of gzipped zeros: every reader within 1 s of CPU and 100 MiB' 'needs bench/measure and a plain build'
fi

if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	test_expect_success 'malformed inputs stay under 100 MiB and 1 s of CPU' '
		for f in "$MALFORMED"/*; do
			case $f in *.err) continue ;; esac
			set -- $("$MEASURE" -- "$PROFTOOL" top "$f" 2>/dev/null)
			test "$2" -lt '"$limit_kib"' || { echo "$f: $2 KiB"; exit 1; }
			awk -v c="$4" "BEGIN { exit !(c < 1) }" || { echo "$f: $4 s of CPU"; exit 1; }
		done'
else
	test_skip 'malformed inputs stay under 100 MiB and 1 s of CPU' 'needs bench/measure and a plain build'
fi

test_done
