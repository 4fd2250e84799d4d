#!/bin/sh
test_description='the first hour (issue 34): a terminal that helps, pprof habits in options, dates'
. "$(dirname "$0")/lib.sh"

# on-terminal.py runs a command with stdin and/or stdout on a pseudo-terminal and prints
# "rc=N" (and what the terminal got, as "tty: ..."); standard error stays a pipe
TTY="python3 $SRCDIR/tests/on-terminal.py"
GO=$SAMPLES/go/cpu.pb.gz

test_expect_success 'a profile is not read from a terminal: the usage line, exit 2, no wait' '
	for c in top tree info "convert --to collapsed" flamegraph traces; do
		$TTY --stdin-tty "$PROFTOOL" $c >out 2>err &&
		grep -qx "rc=2" out &&
		test "$(wc -l <err)" = 2 &&
		grep -q "^usage: proftool ${c%% *} " err &&
		grep -q "^proftool: ${c%% *}: no profile is read from a terminal: give a FILE, or pipe one in" err || exit 1
	done &&
	$TTY --stdin-tty "$PROFTOOL" heap - >out 2>err &&
	grep -qx "rc=2" out &&
	grep -qx "proftool: heap: no profile is read from a terminal: give a FILE, or pipe one in (see '"'proftool heap --help'"')" err'

test_expect_success 'from a pipe or a file, stdin is read as before' '
	"$PROFTOOL" top --format csv "$GO" >want &&
	"$PROFTOOL" top --format csv <"$GO" >got &&
	test_cmp want got &&
	cat "$GO" | "$PROFTOOL" top --format csv - >got &&
	test_cmp want got'

test_expect_success 'binary output is not written to a terminal; text is, and -o takes binary' '
	$TTY --stdout-tty "$PROFTOOL" convert --to pprof "$GO" >out 2>err &&
	grep -qx "rc=2" out && ! grep -q "^tty:" out &&
	test_one_line_err "proftool: pprof output is binary: not written to a terminal (use -o FILE, or a pipe)" &&
	$TTY --stdout-tty "$PROFTOOL" merge "$GO" "$GO" >out 2>err &&
	grep -qx "rc=2" out && grep -q "pprof output is binary" err &&
	$TTY --stdout-tty "$PROFTOOL" diff --to pprof "$GO" "$GO" >out 2>err &&
	grep -qx "rc=2" out && grep -q "pprof output is binary" err &&
	$TTY --stdout-tty "$PROFTOOL" convert --to collapsed "$GO" >out 2>err &&
	grep -qx "rc=0" out && grep -q "^tty: .*runtime" out &&
	$TTY --stdout-tty "$PROFTOOL" convert --to pprof -o p.pb.gz "$GO" >out 2>err &&
	grep -qx "rc=0" out && "$PROFTOOL" info p.pb.gz >/dev/null &&
	"$PROFTOOL" convert --to pprof "$GO" | "$PROFTOOL" info - >/dev/null'

test_expect_success 'options written as pprof writes them: one line naming ours' '
	test_expect_code 2 "$PROFTOOL" top -sample_index=0 "$GO" &&
	test_one_line_err "proftool: top: unknown option '"'-sample_index=0'"': did you mean '"'--sample-index=0'"'? (see '"'proftool top --help'"')" &&
	test_expect_code 2 "$PROFTOOL" top -focus=main "$GO" &&
	test_one_line_err "proftool: top: unknown option '"'-focus=main'"': did you mean '"'--focus=main'"'? (see '"'proftool top --help'"')" &&
	test_expect_code 2 "$PROFTOOL" top -nodecount=5 "$GO" &&
	grep -q "did you mean '"'--nodes=5'"'?" err &&
	test_expect_code 2 "$PROFTOOL" tree -tagfocus=k=v "$GO" &&
	grep -q "did you mean '"'--tag=k=v'"'?" err &&
	test_expect_code 2 "$PROFTOOL" top --sample_index=1 "$GO" &&
	grep -q "unknown option '"'--sample_index=1'"': did you mean '"'--sample-index=1'"'?" err'

test_expect_success 'an option before the command is named whole, not as the program name' '
	test_expect_code 2 "$PROFTOOL" -sample_index=0 top "$GO" &&
	test_one_line_err "proftool: unknown option '"'-sample_index=0'"' (see '"'proftool --help'"')" &&
	test_expect_code 2 "$PROFTOOL" -x top "$GO" &&
	test_one_line_err "proftool: unknown option '"'-x'"' (see '"'proftool --help'"')" &&
	test_expect_code 2 "$PROFTOOL" --junk top "$GO" &&
	test_one_line_err "proftool: unknown option '"'--junk'"' (see '"'proftool --help'"')"'

test_expect_success 'a value that looks like a pprof option stays a value' '
	"$PROFTOOL" top --focus -focus --format csv "$GO" >out 2>err &&
	grep -q "^name,file" out &&
	"$PROFTOOL" top -n 3 -o top.txt "$GO" && test -s top.txt'

test_expect_success 'an ambiguous prefix lists what it could be; a plain unknown option says only that' '
	help_with_shared top | sed -n "s/^  -., \(--s[a-z-]*\).*/\1/p; s/^      \(--s[a-z-]*\).*/\1/p" >s-options &&
	test "$(wc -l <s-options)" -ge 4 &&
	test_expect_code 2 "$PROFTOOL" top --s "$GO" &&
	test_one_line_err "proftool: top: option '"'--s'"' is ambiguous: $(paste -sd, s-options | sed "s/,/, /g") (see '"'proftool top --help'"')" &&
	test_expect_code 2 "$PROFTOOL" top --sho=x "$GO" &&
	grep -q "option '"'--sho'"' is ambiguous: --show, --show-from" err &&
	test_expect_code 2 "$PROFTOOL" top --nosuch "$GO" &&
	test_one_line_err "proftool: top: unknown option '"'--nosuch'"' (see '"'proftool top --help'"')"'

test_expect_success 'a unique prefix is taken as getopt_long takes it' '
	"$PROFTOOL" top --sample-i 0 --format csv "$GO" >got &&
	"$PROFTOOL" top --sample-index 0 --format csv "$GO" >want &&
	test_cmp want got'

test_expect_success 'info gives the start as a date and time in the local zone, beside the count' '
	"$PROFTOOL" info "$GO" >out &&
	ns=$(sed -n "s/^Start: .* (\([0-9]*\) ns since the epoch)$/\1/p" out) &&
	test -n "$ns" &&
	want=$(date -u -d "@$(echo "$ns" | sed "s/\(.........\)$/.\1/")" "+%Y-%m-%d %H:%M:%S.%N UTC") &&
	grep -qx "Start: $want ($ns ns since the epoch)" out &&
	TZ=Asia/Tokyo "$PROFTOOL" info "$GO" >out &&
	want=$(TZ=Asia/Tokyo date -d "@$(echo "$ns" | sed "s/\(.........\)$/.\1/")" "+%Y-%m-%d %H:%M:%S.%N %Z") &&
	grep -qx "Start: $want ($ns ns since the epoch)" out'

test_expect_success 'README: a quick start per producer, ten lines at most, above the reference' '
	R=$SRCDIR/README &&
	grep -qx "    ./bootstrap && src/proftool top -n 30 --cum samples/stackprof/cpu-raw.dump" "$R" &&
	grep -qx "    tests/run-suite" "$R" &&
	qs=$(grep -nx "Quick start by producer" "$R" | cut -d: -f1) &&
	ref=$(grep -nx "Commands" "$R" | cut -d: -f1) &&
	test -n "$qs" && test -n "$ref" && test "$qs" -lt "$ref" &&
	awk -v from="$qs" -v to="$ref" "NR > from && NR < to && /^(Go|Ruby|Node|perf) \\(/ { p = \$1 }
		NR > from && NR < to && /^    / && p { n[p]++ } /^Building by hand/ { p = \"\" }
		END { for (k in n) print k, n[k] }" "$R" | sort >counts &&
	test "$(cut -d" " -f1 counts | tr "\n" " ")" = "Go Node Ruby perf " &&
	awk "\$2 > 10 { print; bad = 1 } END { exit bad }" counts'

test_expect_success 'README: the quick starts'"'"' proftool lines run on the bundled samples' '
	awk "/^Quick start by producer/ { on = 1 } /^Building by hand/ { on = 0 }
		on && /^    proftool / { sub(/^    /, \"\"); sub(/ +#.*/, \"\"); print }" \
		"$SRCDIR/README" | grep -v -e " record " -e "http://" >lines &&
	test "$(wc -l <lines)" -ge 12 &&
	sed -e "s|cpu\.pb\.gz|$SAMPLES/go/cpu.pb.gz|g" -e "s|mypkg|main|g" \
		-e "s|wall\.dump|$SAMPLES/stackprof/cpu-raw.dump|g" -e "s|Foo#bar|Workload#churn|g" \
		-e "s|heap\.json|$SAMPLES/ruby/leaky.json.gz|g" \
		-e "s|prof/\*\.cpuprofile|$SAMPLES/node/small.cpuprofile $SAMPLES/node/lines.cpuprofile|g" \
		-e "s|before\.heapsnapshot|$SAMPLES/node/shapes-1.heapsnapshot.gz|g" \
		-e "s|after\.heapsnapshot|$SAMPLES/node/shapes-2.heapsnapshot.gz|g" \
		-e "s|app\.heapsnapshot|$SAMPLES/node/shapes-1.heapsnapshot.gz|g" \
		-e "s|perf\.txt|$SAMPLES/perf/perfdemo-g.txt|g" \
		-e "s|before\.txt|$SAMPLES/perf/perfdemo-g.txt|g" \
		-e "s|after\.txt|$SAMPLES/perf/perfdemo-dwarf.txt|g" \
		-e "s|^proftool |\"\$PROFTOOL\" |" lines >run &&
	while IFS= read -r line; do
		eval "$line" >/dev/null 2>err; rc=$?
		test $rc = 0 || test $rc = 3 || { echo "$line: exit $rc"; cat err; return 1; }
	done <run'

# PROFTOOL_PROGRESS_DELAY (HACKING): seconds before progress shows, 2 unless set
test_expect_success 'progress on a terminal: bytes read of the file size; never on a pipe or with --quiet' '
	P=$SAMPLES/perf/perfdemo-g.txt &&
	want=$(wc -c <"$P" | awk "{ printf \"%.1f MB\", \$1 / 1e6 }") &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" top -n 1 "$P" >out &&
	grep -qx "rc=0" out &&
	grep -a "proftool: reading $P: " out >lines &&
	test -s lines && grep -q " of $want (100%)" lines &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" top --quiet -n 1 "$P" >out &&
	grep -qx "rc=0" out && ! grep -aq "proftool: reading" out &&
	$TTY --stderr-tty "$PROFTOOL" top -n 1 "$P" >out &&
	! grep -aq "proftool: reading" out &&
	PROFTOOL_PROGRESS_DELAY=0 "$PROFTOOL" top -n 1 "$P" >/dev/null 2>err &&
	test ! -s err'

test_expect_success 'heap --quiet: no progress on a terminal, which shows it otherwise' '
	H=$SAMPLES/node/alloc.heapsnapshot.gz &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" heap -n 1 "$H" >out &&
	grep -qx "rc=0" out && grep -aq "proftool: reading $H: " out &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" heap --quiet -n 1 "$H" >out &&
	grep -qx "rc=0" out && grep -qx "File: $H" out && ! grep -aq "proftool: reading" out &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" heap --quiet --diff -n 1 "$H" "$H" >out &&
	grep -qx "rc=0" out && ! grep -aq "proftool: reading" out'

test_expect_success 'progress: a fifo fed slowly shows the bytes read, a merge the files merged' '
	P=$SAMPLES/perf/perfdemo-g.txt
	mkfifo slow || return 1
	{ head -c 30000 "$P"; sleep 1; tail -c +30001 "$P"; } >slow &
	PROFTOOL_PROGRESS_DELAY=0.5 $TTY --stderr-tty "$PROFTOOL" top -n 1 slow >out &&
	wait &&
	grep -qx "rc=0" out &&
	grep -aq "proftool: reading slow: [0-9.]* MB" out &&
	PROFTOOL_PROGRESS_DELAY=0 $TTY --stderr-tty "$PROFTOOL" merge -o m.pb.gz "$P" \
		$SAMPLES/perf/perfdemo-dwarf.txt $SAMPLES/perf/perfdemo-nog.txt >out &&
	grep -qx "rc=0" out && grep -aq "proftool: merged 2 files" out'

test_done
