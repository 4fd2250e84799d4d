#!/bin/sh
test_description='xz and zstd inputs read as gzip does: every format, the same limits'
. "$(dirname "$0")/lib.sh"

# The compressed copies are made here by the real xz and zstd commands (Debian xz-utils
# and zstd), from samples of every reader.
if ! command -v xz >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	test_skip 'xz and zstd inputs' 'needs the xz and zstd commands (xz-utils, zstd)'
	test_done
	exit
fi

for f in collapsed/perfdemo-g.collapsed perf/perfdemo-g.txt go/cpu.pb \
	go/goroutine.debug2.txt stackprof/cpu-raw.dump stackprof/cpu-raw.json \
	node/small.cpuprofile node/small.heapprofile node/small.trace.json; do
	for z in xz zstd; do
		test_expect_success "$z: $f reads as the plain file" '
			cp "$SAMPLES/'"$f"'" in &&
			"$PROFTOOL" top -n 0 in >expect &&
			"$PROFTOOL" info --format json in >info.expect &&
			'"$z"' -c <"$SAMPLES/'"$f"'" >in &&
			"$PROFTOOL" top -n 0 in >actual &&
			test_cmp expect actual &&
			"$PROFTOOL" info --format json in >info.actual &&
			test_cmp info.expect info.actual'
	done
done

test_expect_success 'a heap snapshot compressed with xz is read by heap' '
	cp "$SAMPLES/node/shapes-1.heapsnapshot.gz" snap &&
	"$PROFTOOL" heap -n 5 snap >expect &&
	gzip -dc "$SAMPLES/node/shapes-1.heapsnapshot.gz" | xz -c >snap &&
	"$PROFTOOL" heap -n 5 snap >actual &&
	test_cmp expect actual'

test_expect_success 'stdin is decompressed too' '
	"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/perfdemo-g.txt" >expect &&
	zstd -c <"$SAMPLES/perf/perfdemo-g.txt" | "$PROFTOOL" convert --to collapsed - >actual &&
	test_cmp expect actual &&
	xz -c <"$SAMPLES/perf/perfdemo-g.txt" | "$PROFTOOL" convert --to collapsed >actual &&
	test_cmp expect actual'

for z in xz zstd; do
	test_expect_success "$z: concatenated streams read as one input" '
		printf "main;a 1\n" | '"$z"' -c >in &&
		printf "main;b 2\n" | '"$z"' -c >>in &&
		printf "main;a 1\nmain;b 2\n" >expect &&
		"$PROFTOOL" convert --to collapsed in >actual &&
		test_cmp expect actual'

	test_expect_success "$z: a bomb stops at --max-input-size with one line" '
		{ printf "a;b 1\n"; head -c 20000000 /dev/zero; } | '"$z"' -c >bomb &&
		test_expect_code 1 "$PROFTOOL" top --max-input-size 1M bomb &&
		test_one_line_err "proftool: bomb: input is larger than --max-input-size (1048576 bytes)" &&
		test ! -s out'

	test_expect_success "$z: every cut of a stream is one line naming the cut" '
		"$PROFTOOL" convert --to collapsed "$SAMPLES/collapsed/perfdemo-g.collapsed" >expect &&
		'"$z"' -c <"$SAMPLES/collapsed/perfdemo-g.collapsed" >in &&
		size=$(wc -c <in) && n=8 &&
		while test $n -lt $size; do
			head -c $n in >cut &&
			test_expect_code 1 "$PROFTOOL" convert --to collapsed cut &&
			test_one_line_err "proftool: cut: byte $n: '"$z"': unexpected end of compressed data" &&
			test ! -s out || exit 1
			n=$((n + 97 * VALGRIND_STEP))
		done'

	test_expect_success "$z: an empty stream is an empty input" '
		'"$z"' -c </dev/null >in &&
		test_expect_code 1 "$PROFTOOL" top in &&
		test_one_line_err "proftool: in: byte 0: empty input"'
done

test_expect_success 'xz: a damaged stream is one line' '
	xz -c <"$SAMPLES/perf/perfdemo-g.txt" >in &&
	size=$(wc -c <in) &&
	{ head -c $((size / 2)) in; printf "\377\377\377\377"; tail -c +$((size / 2 + 5)) in; } >bad &&
	test_expect_code 1 "$PROFTOOL" top bad &&
	grep -Eq "^proftool: bad: byte [0-9]+: xz: corrupt data$" err &&
	test "$(wc -l <err)" = 1 && test ! -s out'

test_expect_success 'zstd: bytes after the last frame that are no frame are one line' '
	printf "main;a 1\n" | zstd -c >in &&
	printf "trailing text\n" >>in &&
	test_expect_code 1 "$PROFTOOL" top in &&
	test_one_line_err "proftool: in: byte $(($(wc -c <in) - 14)): zstd: not a zstd frame"'

# tests/malformed/xz-dict-4g.xz (an xz stream whose block header was patched to a 4 GiB
# dictionary) and zstd-window-1g.zst (a frame header asking for a 1 GiB window) are
# refused before the decoder allocates anything (their exact lines are in t0050)
test_expect_success 'a stream asking its decoder for more than 128 MiB is refused' '
	test_expect_code 1 "$PROFTOOL" top "$MALFORMED/xz-dict-4g.xz" &&
	grep -q "xz: decoding needs more than 128 MiB of memory" err &&
	test_expect_code 1 "$PROFTOOL" top "$MALFORMED/zstd-window-1g.zst" &&
	grep -q "zstd: decoding needs more than 128 MiB of memory" err'

test_done
	exit
fi

for f in collapsed/perfdemo-g.collapsed perf/perfdemo-g.txt go/cpu.pb \
	go/goroutine.debug2.txt stackprof/cpu-raw.dump stackprof/cpu-raw.json \
	node/small.cpuprofile node/small.heapprofile node/small.trace.json; do
	for z in xz zstd; do
		test_expect_success "$z: $f reads as the plain file" '
			cp "$SAMPLES/'"$f"'" in &&
			"$PROFTOOL" top -n 0 in >expect &&
			"$PROFTOOL" info --format json in >info.expect &&
			'"$z"' -c <"$SAMPLES/'"$f"'" >in &&
			"$PROFTOOL" top -n 0 in >actual &&
			test_cmp expect actual &&
			"$PROFTOOL" info --format json in >info.actual &&
			test_cmp info.expect info.actual'
	done
done

test_expect_success 'a heap snapshot compressed with xz is read by heap' '
	cp "$SAMPLES/node/shapes-1.heapsnapshot.gz" snap &&
	"$PROFTOOL" heap -n 5 snap >expect &&
	gzip -dc "$SAMPLES/node/shapes-1.heapsnapshot.gz" | xz -c >snap &&
	"$PROFTOOL" heap -n 5 snap >actual &&
	test_cmp expect actual'

test_expect_success 'stdin is decompressed too' '
	"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/perfdemo-g.txt" >expect &&
	zstd -c <"$SAMPLES/perf/perfdemo-g.txt" | "$PROFTOOL" convert --to collapsed - >actual &&
	test_cmp expect actual &&
	xz -c <"$SAMPLES/perf/perfdemo-g.txt" | "$PROFTOOL" convert --to collapsed >actual &&
	test_cmp expect actual'

for z in xz zstd; do
	test_expect_success "$z: concatenated streams read as one input" '
		printf "main;a 1\n" | '"$z"' -c >in &&
		printf "main;b 2\n" | '"$z"' -c >>in &&
		printf "main;a 1\nmain;b 2\n" >expect &&
		"$PROFTOOL" convert --to collapsed in >actual &&
		test_cmp expect actual'

	test_expect_success "$z: a bomb stops at --max-input-size with one line" '
		{ printf "a;b 1\n"; head -c 20000000 /dev/zero; } | '"$z"' -c >bomb &&
		test_expect_code 1 "$PROFTOOL" top --max-input-size 1M bomb &&
		test_one_line_err "proftool: bomb: input is larger than --max-input-size (1048576 bytes)" &&
		test ! -s out'

	test_expect_success "$z: every cut of a stream is one line naming the cut" '
		"$PROFTOOL" convert --to collapsed "$SAMPLES/collapsed/perfdemo-g.collapsed" >expect &&
		'"$z"' -c <"$SAMPLES/collapsed/perfdemo-g.collapsed" >in &&
		size=$(wc -c <in) && n=8 &&
		while test $n -lt $size; do
			head -c $n in >cut &&
			test_expect_code 1 "$PROFTOOL" convert --to collapsed cut &&
			test_one_line_err "proftool: cut: byte $n: '"$z"': unexpected end of compressed data" &&
			test ! -s out || exit 1
			n=$((n + 97 * VALGRIND_STEP))
		done'

	test_expect_success "$z: an empty stream is an empty input" '
		'"$z"' -c </dev/null >in &&
		test_expect_code 1 "$PROFTOOL" top in &&
		test_one_line_err "proftool: in: byte 0: empty input"'
done

test_expect_success 'xz: a damaged stream is one line' '
	xz -c <"$SAMPLES/perf/perfdemo-g.txt" >in &&
	size=$(wc -c <in) &&
	{ head -c $((size / 2)) in; printf "\377\377\377\377"; tail -c +$((size / 2 + 5)) in; } >bad &&
	test_expect_code 1 "$PROFTOOL" top bad &&
	grep -Eq "^proftool: bad: byte [0-9]+: xz: corrupt data$" err &&
	test "$(wc -l <err)" = 1 && test ! -s out'

test_expect_success 'zstd: bytes after the last frame that are no frame are one line' '
	printf "main;a 1\n" | zstd -c >in &&
	printf "trailing text\n" >>in &&
	test_expect_code 1 "$PROFTOOL" top in &&
	test_one_line_err "proftool: in: byte $(($(wc -c <in) - 14)): zstd: not a zstd frame"'

test_expect_success 'zstd: a frame needing a window over 128 MiB is refused, not allocated' '
	head -c 300000000 /dev/zero | zstd -q -c --long=31 -1 >big 2>/dev/null ||
		head -c 300000000 /dev/zero | zstd -q -c --long=31 >big &&
	test_expect_code 1 "$PROFTOOL" top big &&
	test_one_line_err "proftool: big: byte 0: zstd: decoding needs more than 128 MiB of memory"'

test_done
