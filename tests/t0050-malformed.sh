#!/bin/sh
test_description='malformed inputs: exit 1 and exactly the expected one-line error'
. "$(dirname "$0")/lib.sh"

# Every tests/malformed/NAME has NAME.err beside it holding the exact stderr line that
# `proftool top NAME` must print (run from that directory, so paths are relative).
for err in "$MALFORMED"/*.err; do
	input=$(basename "$err" .err)
	test_expect_success "malformed: $input" '
		(cd "$MALFORMED" && "$PROFTOOL" top "'"$input"'" >"$OLDPWD/out" 2>"$OLDPWD/err");
		test $? = 1 && test ! -s out && test_cmp "$MALFORMED/'"$input"'.err" err'
done

test_expect_success 'every expected error names the line or the byte offset' '
	for err in "$MALFORMED"/*.err; do
		grep -Eq "^proftool: [^:]+(:[0-9]+|: byte [0-9]+): " "$err" ||
			{ echo "no position: $(cat "$err")"; exit 1; }
	done'

test_expect_success 'malformed inputs fail the same when a writer asks for the timeline' '
	for f in pprof-fuzz-no-types.pb collapsed-no-count.txt truncated-gzip.gz; do
		(cd "$MALFORMED" && "$PROFTOOL" convert --to speedscope "$f" >"$OLDPWD/out" 2>"$OLDPWD/err");
		test $? = 1 && test ! -s out && test_cmp "$MALFORMED/$f.err" err || exit 1
	done'

# The inputs libFuzzer found crashes and hangs with (tests/malformed/fuzz/README): each
# through top and every writer, read as the format of the harness that found it; a format
# that only `heap` reads (proftool formats: READ no) through heap
for f in "$MALFORMED"/fuzz/*-*; do
	name=$(basename "$f")
	from=${name%%-*}
	cmds="top collapsed pprof cpuprofile speedscope callgrind dot svg"
	what="top and every writer"
	if test "$("$PROFTOOL" formats | awk -v f="$from" '$1 == f { print $2 }')" = no; then
		cmds=heap what=heap
	fi
	test "$from" = detect && from= || from="--from $from"
	test_expect_success "fuzz finding: $name through $what" '
		cp "'"$f"'" in &&
		for w in '"$cmds"'; do
			if test $w = heap; then
				"$PROFTOOL" heap in >out 2>err
			elif test $w = top; then
				"$PROFTOOL" top '"$from"' in >out 2>err
			else
				"$PROFTOOL" convert '"$from"' --to $w -o out.$w in 2>err
			fi
			rc=$?
			case $rc in
			0) ;;
			1) test "$(wc -l <err)" = 1 &&
				grep -Eq "^proftool: in(:[0-9]+|: byte [0-9]+): " err ||
				{ echo "$w:"; cat err; exit 1; } ;;
			*) echo "$w: exit $rc"; cat err; exit 1 ;;
			esac
		done'
done

test_expect_success 'a gzip bomb stops at --max-input-size' '
	{ printf "a;b 1\n"; head -c 20000000 /dev/zero; } | gzip -c >bomb.gz &&
	test_expect_code 1 "$PROFTOOL" top --max-input-size 1M bomb.gz &&
	test_one_line_err "proftool: bomb.gz: input is larger than --max-input-size (1048576 bytes)"'

test_expect_success 'a bad --max-input-size is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --max-input-size lots x'

test_done
