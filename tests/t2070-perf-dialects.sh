#!/bin/sh
test_description='perf script dialects as stackcollapse-perf.pl reads them'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/perf/dialects

# Each expected output below is what stackcollapse-perf.pl --all prints for the crafted
# input (FlameGraph 41fee1f), except where a case says why we differ.

test_expect_success 'older perf: callchain lines not indented, detected and read' '
	"$PROFTOOL" info "$D/unindented.txt" >out &&
	grep -q "^Format: perf$" out &&
	cat >expect <<-\EOT &&
	spin;__libc_start_main;main;hot_leaf 1
	spin;__libc_start_main;main;hot_leaf;native_write_msr_safe_[k] 1
	EOT
	"$PROFTOOL" convert --to collapsed --all "$D/unindented.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'space-indented callchains under a header without a time: detected' '
	"$PROFTOOL" info "$D/spaces-no-time.txt" >out &&
	grep -q "^Format: perf$" out &&
	cat >expect <<-\EOT &&
	node;node::Start 1
	node;node::Start;LazyCompile:~tick_[j] 1
	EOT
	"$PROFTOOL" convert --to collapsed --all "$D/spaces-no-time.txt" >actual &&
	test_cmp expect actual'

# stackcollapse-perf.pl tags only a dso ending in "vmlinux"; a versioned kernel image is
# the kernel too
test_expect_success 'a versioned vmlinux dso is the kernel: _[k]' '
	printf "spin;main;__GI___write;ksys_write_[k];vfs_write_[k] 1001001\n" >expect &&
	"$PROFTOOL" convert --to collapsed --kernel "$D/vmlinux-versioned.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'a frame line whose (dso) is cut is dropped with a warning' '
	cat >expect <<-\EOT &&
	spin;hot_leaf 1001001
	spin;start_thread;hot_leaf 2002002
	EOT
	"$PROFTOOL" convert --to collapsed "$D/dso-cut.txt" >actual 2>err &&
	test_cmp expect actual &&
	test_one_line_err "proftool: $D/dso-cut.txt: warning: skipped 1 invalid line (first at line 7)" &&
	"$PROFTOOL" top -n 0 --format csv "$D/dso-cut.txt" 2>/dev/null >top &&
	! grep -q "start_thread " top'

test_expect_success '--all --inline: inlined parts of JIT and kernel frames are _[i]' '
	printf "java;outer_[k];inner_[i];LBusy:::main_[j];LBusy:::work_[j];LBusy:::step_[i] 1001001\n" >expect &&
	"$PROFTOOL" convert --to collapsed --all --inline "$D/jit-inline.txt" >actual &&
	test_cmp expect actual'

test_done
