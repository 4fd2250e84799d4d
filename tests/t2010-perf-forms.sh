#!/bin/sh
test_description='perf script: every header form, callchain form and naming rule'
. "$(dirname "$0")/lib.sh"

# perf_case INPUT EXPECTED [OPTIONS...]: INPUT and EXPECTED are printf formats
perf_case () {
	printf "$1" >in.txt &&
	printf "$2" >expect &&
	shift 2 &&
	"$PROFTOOL" convert --from perf --to collapsed "$@" in.txt >actual &&
	test_cmp expect actual
}

F='\t            1303 hot_leaf+0x24 (/tmp/b/perfdemo)\n\t            1819 main+0x24 (/tmp/b/perfdemo)\n\n'

test_expect_success 'header: comm tid time: period event: (perf script default)' '
	perf_case "perfdemo  9556   297.184037:    1001001 cpu-clock: \n$F" \
		"perfdemo;main;hot_leaf 1001001\n"'

test_expect_success 'header: comm pid/tid [cpu] time: event: (-F without period)' '
	perf_case "my worker  9865/9878  [000]   299.412083: cpu-clock: \n$F" \
		"my_worker-9865/9878;main;hot_leaf 1\n" --tid'

test_expect_success 'header: comm pid/tid [cpu] time: period event:' '
	perf_case "perfdemo 10595/10595 [000]   305.132629:          7 page-faults: \n$F" \
		"perfdemo-10595;main;hot_leaf 7\n" --pid'

test_expect_success 'header: comm tid time: (no period, no event)' '
	perf_case "perfdemo-child  9877   299.410440: \n${F}perfdemo-child  9877   299.410441: \n$F" \
		"perfdemo-child;main;hot_leaf 2\n"'

test_expect_success 'header: no time (comm tid event:)' '
	perf_case "perfdemo  9556 cpu-clock: \n$F" "perfdemo-?/9556;main;hot_leaf 1\n" --tid'

test_expect_success 'header: cpu but no time' '
	perf_case "perfdemo  9556 [001]    1001001 cpu-clock: \n$F" "perfdemo;main;hot_leaf 1001001\n"'

test_expect_success 'header: comm and tid only' '
	perf_case "perfdemo  9556\n$F" "perfdemo-?/9556;main;hot_leaf 1\n" --tid'

test_expect_success 'header: no comm (-F tid,time,...) gives the root [unknown]' '
	perf_case "  9556   297.184037:    1001001 cpu-clock: \n$F" "[unknown];main;hot_leaf 1001001\n"'

test_expect_success 'header: comm with spaces and a number, 5-digit tid' '
	perf_case "java pool 2 10469   301.729836:    1001001 cpu-clock:k: \n$F" \
		"java_pool_2-?/10469;main;hot_leaf 1001001\n" --tid'

test_expect_success 'header: comm starting with spaces, frame on the header line (no -g)' '
	perf_case "        perfdemo  9826   298.304518:    1001001 cpu-clock:  ffffffff8171ea0d find_get_block_common+0x21d ([kernel.kallsyms])\n     java pool 2  9830   298.310794:    1001001 cpu-clock:      7fd04d9af00f [unknown] (/tmp/perf-9826.map)\n" \
		"java_pool_2;[perf-9826.map]_[j] 1001001\nperfdemo;find_get_block_common_[k] 1001001\n" --all'

test_expect_success 'header: frame on the header line without period or event' '
	perf_case "perfdemo  9826   298.304518:          1303 hot_leaf+0x24 (/tmp/b/perfdemo)\n" \
		"perfdemo;hot_leaf 1\n"'

test_expect_success 'header: event modifiers (cpu-clock:ppp:, cycles:u:) are part of the name' '
	perf_case "a  1   1.000000:          5 cpu-clock:ppp: \n$F\nb  2   1.000001:          3 cycles:u: \n$F" \
		"b;main;hot_leaf 3\n" --event cycles:u &&
	"$PROFTOOL" info in.txt >info &&
	grep -q "^  1: cpu-clock:ppp \[nanoseconds\] total 5 " info &&
	grep -q "^  2: cycles:u \[events\] total 3 " info'

test_expect_success '# header lines and PERF_RECORD_* side-band lines are skipped' '
	perf_case "# ========\n# cmdline : /usr/bin/perf record -g\n#\nperf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:9556/9556\nperfdemo  9556   297.183429: PERF_RECORD_FORK(9558:9558):(9556:9556)\nperfdemo  9556   297.184037:    1001001 cpu-clock: \n$F" \
		"perfdemo;main;hot_leaf 1001001\n"'

test_expect_success 'side-band lines without comm or time are skipped too' '
	perf_case "PERF_RECORD_FINISHED_ROUND\n0x1f8 [0x8]: PERF_RECORD_FINISHED_ROUND\nperfdemo  9556   297.184037:    1001001 cpu-clock: \n$F" \
		"perfdemo;main;hot_leaf 1001001\n"'

test_expect_success 'side-band lines between records of a filtered-out event count nothing' '
	perf_case "a  1   1.0:          5 e1: \n$F\nb  1   1.1: PERF_RECORD_EXIT(1:1):(0:0)\nb  1   1.2:          5 e2: \n$F" \
		"a;main;hot_leaf 5\n"'

test_expect_success 'records end at a blank line, at the next header, or at end of input' '
	perf_case "a  1   1.000000:          5 e: \n\t  1303 x+0x1 (/b)\na  1   1.000001:          5 e: \n\t  1303 y+0x1 (/b)" \
		"a;x 5\na;y 5\n"'

test_expect_success 'a line of blanks ends a record too' '
	perf_case "a  1   1.0:          5 e: \n\t  1303 x+0x1 (/b)\n   \na  1   1.1:          5 e: \n\t  1303 x+0x1 (/b)\n" \
		"a;x 10\n"'

test_expect_success 'a sample with an empty callchain is the process alone' '
	perf_case "a  1   1.0:          5 e: \n\n" "a 5\n"'

test_expect_success 'callchain: no dso, no offset, no symbol' '
	perf_case "a  1   1.0:          5 e: \n\t  1303 x\n\t  1304\n\t  1305 [unknown]\n\n" \
		"a;[unknown];[unknown];x 5\n"'

test_expect_success 'callchain: [unknown] takes the dso base name; --addrs keeps the address' '
	perf_case "a  1   1.0:          5 e: \n\t  7f0f [unknown] (/tmp/perf-1.map)\n\t  55cb [unknown] ([unknown])\n\n" \
		"a;[unknown <55cb>];[perf-1.map <7f0f>] 5\n" --addrs &&
	perf_case "a  1   1.0:          5 e: \n\t  7f0f [unknown] (/tmp/perf-1.map)\n\t  55cb [unknown] ([unknown])\n\n" \
		"a;[unknown];[perf-1.map] 5\n"'

test_expect_success 'callchain: perf inline lines are frames, tagged _[i] with --inline' '
	perf_case "a  1   1.0:          5 e: \n\t  130c mix_in+0x3c (inlined)\n\t  130c shared_work+0x3c (/b/p)\n\n" \
		"a;shared_work;mix_in 5\n" --all &&
	perf_case "a  1   1.0:          5 e: \n\t  130c mix_in+0x3c (inlined)\n\t  130c shared_work+0x3c (/b/p)\n\n" \
		"a;shared_work;mix_in_[i] 5\n" --inline'

test_expect_success 'callchain: an a->b inline chain is split, b tagged with --inline' '
	perf_case "a  1   1.0:          5 e: \n\t  130c outer->inner+0x3c (/b/p)\n\t  1400 main+0x1 (/b/p)\n\n" \
		"a;main;outer;inner_[i] 5\n" --inline &&
	perf_case "a  1   1.0:          5 e: \n\t  130c outer->inner+0x3c (/b/p)\n\n" "a;outer;inner 5\n"'

test_expect_success 'callchain: kernel dsos: [...] other than [unknown], and *vmlinux' '
	perf_case "a  1   1.0:          5 e: \n\t  f1 k1+0x1 ([kernel.kallsyms])\n\t  f2 k2+0x1 ([vdso])\n\t  f3 k3+0x1 (/boot/vmlinux)\n\t  f4 u1+0x1 ([unknown])\n\t  f5 u2+0x1 (/b/p)\n\n" \
		"a;u2;u1;k3_[k];k2_[k];k1_[k] 5\n" --kernel'

test_expect_success 'callchain: JIT dsos: /tmp/perf-PID.map and jitted-*.so' '
	perf_case "a  1   1.0:          5 e: \n\t  f1 j1+0x1 (/tmp/perf-12.map)\n\t  f2 j2+0x1 (/home/u/.debug/jit/java-jit-1/jitted-12-3.so)\n\t  f3 n+0x1 (/b/p)\n\n" \
		"a;n;j2_[j];j1_[j] 5\n" --jit'

test_expect_success 'names tidied as stackcollapse-perf.pl does' '
	perf_case "java pool 2  1   1.0:          5 e: \n\t  f1 LDemo/Jit;.spin(IJ)J+0xf (/tmp/perf-1.map)\n\t  f2 ns::f(int) const+0x1 (/b/p)\n\t  f3 ns::(anonymous namespace)::g(int)+0x1 (/b/p)\n\t  f4 main.(*T).M+0x1 (/b/p)\n\t  f5 say\"hi\"+0x1 (/b/p)\n\t  f6 Lcom/X;.y()V+0x1 (/b/p)\n\t  f7 (skipped)+0x1 (/b/p)\n\n" \
		"java_pool_2;com/X:.y;sayhi;main.(*T).M;ns::(anonymous namespace)::g;ns::f;Demo/Jit:.spin 5\n" &&
	perf_case "a  1   1.0:          5 e: \n\t  f1 LDemo/Jit;.spin(IJ)J+0xf (/tmp/perf-1.map)\n\n" "a;LDemo/Jit:.spin 5\n"'

test_expect_success '--no-tidy keeps names as perf printed them (offsets still go)' '
	perf_case "java 1   1.0:          5 e: \n\t  f1 LDemo/Jit.spin(IJ)J+0xf (/tmp/perf-1.map)\n\t  f5 say\"hi\"+0x1 (/b/p)\n\t  f7 (skipped)+0x1 (/b/p)\n\n" \
		"java;(skipped);say\"hi\";LDemo/Jit.spin(IJ)J 5\n" --no-tidy'

test_expect_success 'a ; in a --no-tidy name is made safe by the collapsed writer' '
	perf_case "a 1   1.0:          5 e: \n\t  f1 x;y+0xf (/b)\n\n" "a;x:y 5\n" --no-tidy'

test_expect_success 'the dso is the balanced " (...)" at the end: "(/b (deleted))"' '
	perf_case "a 1   1.0:          5 e: \n\t  f1 op() (x)+0x1 (/b (deleted))\n\n" "a;op() (x) 5\n" --no-tidy'

test_expect_success '--event with no matching sample is an error naming the events' '
	printf "a 1   1.0:          5 e1: \n$F" >in.txt &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed --event e2 in.txt &&
	test_one_line_err "proftool: in.txt:4: no samples of event '"'"'e2'"'"' (the input has: e1)"'

test_expect_success 'perf script text is detected without --from' '
	for f in "$SAMPLES"/perf/*.txt; do
		"$PROFTOOL" info "$f" | grep -q "^Format: perf$" || { echo "$f"; return 1; }
	done'

test_expect_success 'gzipped perf script text is read too' '
	gzip -c "$SAMPLES/perf/perfdemo-g.txt" >g.txt.gz &&
	"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/perfdemo-g.txt" >expect &&
	"$PROFTOOL" convert --to collapsed g.txt.gz >actual &&
	test_cmp expect actual'

test_done
