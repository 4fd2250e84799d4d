#!/bin/sh
test_description='bpftrace maps of stacks and profile-bpfcc output'
. "$(dirname "$0")/lib.sh"

B=$SAMPLES/bpftrace
T=$SRCDIR/tests/bpftrace

# The expected stacks are written from the sample by awk, independently of the reader:
# each entry's frames (offsets cut) in reverse, the key's scalar elements first.
fold_bpftrace () {
	awk '
	/^@/ { inmap = 1; n = 0; key = $0; sub(/^@[^[]*\[/, "", key); sub(/, *$/, "", key)
		split(key, parts, /, */); root = "";
		for (i = 1; i in parts; i++) if (parts[i] != "") root = root parts[i] ";"; next }
	inmap && /^    / { f = $1; sub(/\+[0-9]+$/, "", f); fr[++n] = f; next }
	inmap && /^\]: / { s = root; for (i = n; i >= 1; i--) s = s fr[i] (i > 1 ? ";" : "");
		sum[s] += $2; inmap = 0; next }
	END { for (s in sum) print s, sum[s] }' "$1" | sort
}

for f in ustack comm-ustack; do
	test_expect_success "bpftrace @[$f]: each entry is its stack with its count" '
		fold_bpftrace "$B/'"$f"'.txt" >expect &&
		"$PROFTOOL" convert --to collapsed "$B/'"$f"'.txt" | sort >actual &&
		test_cmp expect actual'
done

test_expect_success 'bpftrace is detected, not taken for pprof' '
	"$PROFTOOL" info "$B/ustack.txt" >out &&
	grep -q "^Format: bpftrace$" out'

test_expect_success '@[kstack, ustack]: the kernel frames are tagged _[k], the user ones not' '
	"$PROFTOOL" convert --to collapsed --kernel "$B/kstack-ustack.txt" >out &&
	grep -q "main;__GI___write;entry_SYSCALL_64_after_hwframe_\[k\];do_syscall_64_\[k\]" out &&
	! grep -q "main_\[k\]\|hot_leaf_\[k\]\|__libc_start_call_main_\[k\]" out &&
	"$PROFTOOL" convert --to collapsed --kernel "$B/kstack.txt" >k &&
	! grep -v "_\[k\] [0-9]*$" k'

test_expect_success 'the counts add up to the sum of every entry' '
	awk "/^\]: / { s += \$2 } END { print s }" "$B/kstack-ustack.txt" >expect &&
	"$PROFTOOL" info --format json "$B/kstack-ustack.txt" |
		sed "s/.*\"total\":\([0-9]*\).*/\1/" >actual &&
	test_cmp expect actual'

test_expect_success 'several maps are sample types named after them' '
	"$PROFTOOL" info "$B/two-maps.txt" >out &&
	grep -q "0: @cpu \[count\]" out && grep -q "1: @kernel \[count\]" out &&
	awk "/^@kernel/ { k = 1 } /^@cpu/ { k = 0 } k && /^\]: / { s += \$2 } END { print s }" \
		"$B/two-maps.txt" >expect &&
	"$PROFTOOL" top --sample-index @kernel --format json "$B/two-maps.txt" |
		sed "s/.*\"total\":\([0-9]*\).*/\1/" >actual &&
	test_cmp expect actual'

test_expect_success 'addresses stay, modules become mappings, scalar keys are roots' '
	printf "spin;4242;main;0x7f3a5c02d24a;hot_leaf 12\n" >expect &&
	"$PROFTOOL" convert --to collapsed "$T/addrs-modules.txt" >actual &&
	test_cmp expect actual'

test_expect_success 'profile-bpfcc: kernel frames before the - line are _[k], the process is the root' '
	cat >expect <<-\EOT &&
	spin;__libc_start_call_main;main;syscalls;__GI___write;entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k];ksys_write_[k];vfs_write_[k];write_null_[k] 3
	spin;__libc_start_call_main;main;work;hot_leaf 40
	EOT
	"$PROFTOOL" convert --to collapsed --kernel "$T/profile-bpfcc.txt" >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" info "$T/profile-bpfcc.txt" | grep -q "^Format: profile-bpfcc$"'

test_expect_success 'profile-bpfcc without the - line: the kernel ends at its entry point' '
	"$PROFTOOL" convert --to collapsed --kernel "$T/profile-bpfcc-nodelim.txt" >out &&
	grep -q "^spin;main;syscalls;__GI___write;entry_SYSCALL_64_after_hwframe_\[k\];" out &&
	grep -q "^spin;main;hot_leaf 40$" out'

test_expect_success 'a histogram map is one located line' '
	test_expect_code 1 "$PROFTOOL" top "$T/hist.txt" &&
	test_one_line_err "proftool: $T/hist.txt:6: expected a count after '"']:'"' (only count() maps hold stacks)"'

test_expect_success 'output cut inside an entry: a warning, the entry left out' '
	"$PROFTOOL" convert --to collapsed "$T/cut.txt" >actual 2>err &&
	printf "main;hot_leaf 5\n" >expect && test_cmp expect actual &&
	grep -q "cut.txt:10: warning: the input ends inside this line; its last record (from line 8)" err'

test_expect_success 'every cut of a sample reads or fails in one line' '
	size=$(wc -c <"$B/kstack-ustack.txt") && n=1 &&
	while test $n -lt $size; do
		head -c $n "$B/kstack-ustack.txt" >cut &&
		"$PROFTOOL" top --from bpftrace cut >out 2>err
		rc=$?
		test $rc = 0 || { test $rc = 1 && test "$(wc -l <err)" = 1; } || { cat err; exit 1; }
		n=$((n + 37 * VALGRIND_STEP))
	done'

test_done
