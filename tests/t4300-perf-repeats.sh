#!/bin/sh
test_description='perf script: a callchain met again is recognised by its bytes, and a changed one is read anew'
. "$(dirname "$0")/lib.sh"

# The reader keeps a block of callchain lines it has read and takes its frames again when
# the same bytes follow a header. These inputs repeat blocks many times with one thing
# changed, and the answers come from tests/perf/expect-repeats.awk, which reads the text
# itself.
A=$SRCDIR/tests/perf/expect-repeats.awk

# block NAME: the lines of a callchain, leaf first. b1 and b2 differ in one middle frame
# only, of the same length at the same address; b3 is b1 with its leaf's offset changed
# (the same function); b4 is b1 without its outermost frame; b5 has a java frame.
block () {
	case $1 in
	b1 | b3 | b4) mid=parse_cfg ;;
	b2) mid=parse_arg ;;
	esac
	case $1 in
	b1 | b2 | b3 | b4)
		leaf=0x1a; test "$1" = b3 && leaf=0x2b
		printf '\t    7f0000001000 read_byte+%s (/usr/bin/prog)\n' "$leaf"
		printf '\t    7f0000002000 %s+0x10 (/usr/bin/prog)\n' "$mid"
		printf '\t    7f0000003000 run;loop+0x4 (/usr/bin/prog)\n'
		test "$1" = b4 || printf '\t    7f0000004000 main+0x8 (/usr/bin/prog)\n' ;;
	b5)
		printf '\t    7f0000005000 Lcom/ex/Task;.run+0x3 (/tmp/perf-7.map)\n'
		printf '\t    7f0000004000 main+0x8 (/usr/bin/prog)\n' ;;
	esac
}

# rec COMM PID TIME PERIOD EVENT BLOCK: one record and its blank line
rec () {
	printf '%s %s/%s %s: %s %s:\n' "$1" "$2" "$2" "$3" "$4" "$5"
	block "$6"
	echo
}

test_expect_success 'a callchain repeated, then with one frame changed, is read as written each time' '
	i=0 &&
	while test $i -lt 40; do
		rec prog 10 "1.$((100000 + i))" 1 cycles b1
		i=$((i + 1))
	done >in.txt &&
	{ rec prog 10 2.000001 1 cycles b2; rec prog 10 2.000002 1 cycles b1
	  rec prog 10 2.000003 1 cycles b3; rec prog 10 2.000004 1 cycles b4
	  rec prog 10 2.000005 1 cycles b2; rec prog 10 2.000006 1 cycles b4
	  rec prog 10 2.000007 1 cycles b1; } >>in.txt &&
	awk -f "$A" in.txt | sort >expect &&
	test $(wc -l <expect) = 3 &&
	"$PROFTOOL" convert --to collapsed in.txt >actual &&
	test_cmp expect actual'

test_expect_success 'one callchain under changed comm, pid, time and period follows each header' '
	: >in.txt &&
	for c in prog:10 prog:11 java:12 prog:10 java:13 prog:11; do
		for t in 1 2 3; do
			rec "${c%:*}" "${c#*:}" "$t.00000$t" "$t" cycles b5
			rec "${c%:*}" "${c#*:}" "$t.50000$t" "$((t * 7))" cycles b1
		done
	done >in.txt &&
	awk -v pid=1 -f "$A" in.txt | sort >expect &&
	grep "^java-12;main;com/ex/Task:.run 6\$" expect &&
	grep "^prog-10;main;Lcom/ex/Task:.run 12\$" expect &&
	"$PROFTOOL" convert --to collapsed --pid in.txt >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" info in.txt >info &&
	grep "^Duration: 2.500s\$" info'

test_expect_success 'the same callchain under two events of one thread is counted per event' '
	i=0 &&
	while test $i -lt 30; do
		rec prog 10 "1.$((100000 + i))" 5 cycles b1
		rec prog 10 "1.$((100000 + i))" 3 instructions b1
		rec prog 10 "1.$((100000 + i))" 2 instructions b2
		i=$((i + 1))
	done >in.txt &&
	for e in cycles instructions; do
		awk -v event=$e -f "$A" in.txt | sort >expect.$e &&
		"$PROFTOOL" convert --to collapsed --event $e in.txt >actual.$e &&
		test_cmp expect.$e actual.$e || return 1
	done &&
	grep " 150\$" expect.cycles && grep " 90\$" expect.instructions'

# long NAME: a callchain of 120 frames (5.5 KB, more than one 4 KiB chunk of the block
# hash); l2 is l1 with frame 100 renamed (past the first 4 KiB), l3 with its outermost
# frame renamed (its last line), each of the same length
long () {
	k=0
	while test $k -lt 120; do
		f=f$((1000 + k))
		test "$1" = l2 && test $k = 100 && f=g$((1000 + k))
		test "$1" = l3 && test $k = 119 && f=h$((1000 + k))
		printf '\t    7f00000%05x %s+0x10 (/usr/bin/prog)\n' $k "$f"
		k=$((k + 1))
	done
}

test_expect_success 'a callchain longer than 4 KiB repeated, then changed past its first 4 KiB or in its last line, is read as written' '
	: >in.txt &&
	for b in l1 l1 l2 l1 l3 l3 l1 l2; do
		printf "prog 10/10 1.%06d: 1 cycles:\n" $(wc -l <in.txt) &&
		long $b &&
		echo || return 1
	done >>in.txt &&
	awk -f "$A" in.txt | sort >expect &&
	test $(wc -l <expect) = 3 &&
	grep " 4\$" expect &&
	"$PROFTOOL" convert --to collapsed in.txt >actual &&
	test_cmp expect actual'

test_done
