#!/bin/sh
test_description='-o FILE is replaced whole or not at all; write errors are one line'
. "$(dirname "$0")/lib.sh"

# 120,000 stacks 17 frames deep: the collapsed output is about 14 MB, written for long
# enough that a signal can be sent while the temporary file is there
awk 'BEGIN { for (i = 0; i < 120000; i++) { s = "main"
	for (j = 0; j < 15; j++) s = s ";fn" (i * 7 + j) % 5000
	print s ";leaf" i, 1 } }' >"$TRASH/big.collapsed"

# Run convert -o with the signal at its default action (a background job of sh ignores
# SIGINT), wait for its temporary file, send the signal; the run must die of it, the
# temporary file must be gone and the old target untouched.
kill_while_writing () {
	sig=$1
	echo "old contents" >target && chmod 640 target &&
	perl -e '$SIG{INT} = $SIG{TERM} = $SIG{HUP} = "DEFAULT"; exec @ARGV' \
		"$PROFTOOL" convert --to collapsed -o target "$TRASH/big.collapsed" &
	pid=$!
	seen=
	for i in $(seq 1 6000); do
		if ls target.tmp* >/dev/null 2>&1; then
			seen=1
			break
		fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.01
	done
	test -n "$seen" || { echo "no temporary file seen"; wait $pid; return 1; }
	kill -$sig $pid
	wait $pid
	rc=$?
	test $rc -gt 128 || { echo "exit $rc: not killed by SIG$sig"; return 1; }
	test -z "$(ls target.tmp* 2>/dev/null)" || { echo "left:"; ls -la target.tmp*; return 1; }
	test "$(cat target)" = "old contents" &&
	test "$(stat -c %a target)" = 640
}

for sig in INT TERM HUP; do
	test_expect_success "SIG$sig while -o FILE is written: temporary file removed, target as it was" "
		kill_while_writing $sig"
done

test_expect_success 'the same run to its end replaces the target, keeping its mode 640' '
	echo "old contents" >target && chmod 640 target &&
	"$PROFTOOL" convert --to collapsed -o target "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" &&
	"$PROFTOOL" convert --to collapsed "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" >want &&
	test_cmp want target &&
	test "$(stat -c %a target)" = 640 &&
	test -z "$(ls target.tmp* 2>/dev/null)"'

test_expect_success 'a new -o file gets 0666 less the umask' '
	(umask 027 && "$PROFTOOL" convert --to collapsed -o new1 "$SRCDIR/samples/collapsed/perfdemo-g.collapsed") &&
	test "$(stat -c %a new1)" = 640 &&
	(umask 022 && "$PROFTOOL" convert --to collapsed -o new2 "$SRCDIR/samples/collapsed/perfdemo-g.collapsed") &&
	test "$(stat -c %a new2)" = 644'

test_expect_success '-o onto a symlink writes the file it points to, as sort -o does' '
	mkdir -p dir && echo old >dir/real && chmod 600 dir/real && ln -s dir/real link &&
	"$PROFTOOL" convert --to collapsed -o link "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" &&
	test -h link && test "$(readlink link)" = dir/real &&
	"$PROFTOOL" convert --to collapsed "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" >want &&
	test_cmp want dir/real && test "$(stat -c %a dir/real)" = 600 &&
	test -z "$(ls dir/real.tmp* link.tmp* 2>/dev/null)"'

test_expect_success '-o onto a link to a link, and onto a dangling link, creates the end file' '
	mkdir dir && ln -s real2 dir/inner && ln -s dir/inner link2 &&
	"$PROFTOOL" convert --to collapsed -o link2 "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" &&
	test -h link2 && test -h dir/inner && test -f dir/real2 &&
	"$PROFTOOL" convert --to collapsed "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" >want &&
	test_cmp want dir/real2'

test_expect_success '-o onto a symlink loop is one error line, exit 1' '
	ln -s loop1 loop2 && ln -s loop2 loop1 &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed -o loop1 \
		"$SRCDIR/samples/collapsed/perfdemo-g.collapsed" 2>err &&
	test "$(wc -l <err)" = 1 && grep -q "loop1: cannot open: Too many levels of symbolic links" err &&
	test -h loop1 && test -h loop2'

# LeakSanitizer cannot run under ptrace: the sanitizer build checks leaks everywhere else
if command -v strace >/dev/null 2>&1 && strace -f -e trace=none true 2>/dev/null; then
	test_expect_success 'the data are fsync'"'"'ed before the rename' '
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -e trace=fsync,fdatasync,rename,renameat,renameat2 -o trace \
			"$PROFTOOL" convert --to collapsed -o synced "$SRCDIR/samples/collapsed/perfdemo-g.collapsed" &&
		grep -n "fsync\|rename" trace >calls &&
		test "$(grep -c "rename" calls)" = 1 &&
		sync_line=$(grep -m1 "fsync" calls | cut -d: -f1) &&
		rename_line=$(grep -m1 "rename" calls | cut -d: -f1) &&
		test -n "$sync_line" && test "$sync_line" -lt "$rename_line"'
else
	test_skip 'the data are fsync'"'"'ed before the rename' 'needs strace'
fi

if test -w /dev/full; then
	for cmd in "top" "top --format json" "top --style pprof" "traces" "tree" "info" \
		"method main" "flamegraph" "convert --to collapsed" "convert --to pprof" \
		"convert --to speedscope" "diff $SRCDIR/samples/collapsed/perfdemo-g.collapsed"; do
		test_expect_success "$cmd > /dev/full: exactly one line on stderr, exit 1" "
			\"\$PROFTOOL\" $cmd \"\$SRCDIR/samples/collapsed/perfdemo-g.collapsed\" >/dev/full 2>err
			rc=\$? && cat err && test \$rc = 1 &&
			test \"\$(wc -l <err)\" = 1 && grep -q 'No space left on device' err"
	done
else
	test_skip '> /dev/full: exactly one line on stderr, exit 1' 'no /dev/full'
fi

test_done
