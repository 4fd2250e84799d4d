#!/bin/sh
test_description='convert: output format selection and atomic -o'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed

test_expect_success '-o FILE.collapsed picks the collapsed writer' '
	"$PROFTOOL" convert -o out.collapsed "$C/perfdemo-g.collapsed" &&
	test_cmp "$C/perfdemo-g.collapsed" out.collapsed'

test_expect_success '-o FILE.folded picks the collapsed writer' '
	"$PROFTOOL" convert -o out.folded "$C/perfdemo-g.collapsed" &&
	test_cmp "$C/perfdemo-g.collapsed" out.folded'

test_expect_success 'no --to and no -o is a usage error' '
	test_expect_code 2 "$PROFTOOL" convert "$C/perfdemo-g.collapsed" &&
	test_one_line_err "proftool: convert: no output format: use --to FORMAT (see '"'"'proftool convert --help'"'"')"'

test_expect_success 'an unknown suffix is a usage error' '
	test_expect_code 2 "$PROFTOOL" convert -o out.xyz "$C/perfdemo-g.collapsed" &&
	test ! -e out.xyz'

test_expect_success 'an unknown --to is a usage error' '
	test_expect_code 2 "$PROFTOOL" convert --to nope "$C/perfdemo-g.collapsed"'

test_expect_success 'a failed read leaves no output file behind' '
	printf "a 1\nbroken\n" >bad &&
	test_expect_code 1 "$PROFTOOL" convert -o out.collapsed bad &&
	test ! -e out.collapsed && test -z "$(ls | grep tmp)"'

test_expect_success 'a failed read keeps an existing output file as it was' '
	echo previous >out.collapsed &&
	printf "a 1\nbroken\n" >bad &&
	test_expect_code 1 "$PROFTOOL" convert -o out.collapsed bad &&
	test "$(cat out.collapsed)" = previous'

test_expect_success 'an output in a missing directory is an error, one line' '
	test_expect_code 1 "$PROFTOOL" convert -o nodir/out.collapsed "$C/perfdemo-g.collapsed" &&
	test "$(wc -l <err)" = 1 && grep -q "^proftool: nodir/out.collapsed: cannot create" err'

test_expect_success '-o - writes to stdout' '
	"$PROFTOOL" convert --to collapsed -o - "$C/perfdemo-g.collapsed" >actual &&
	test_cmp "$C/perfdemo-g.collapsed" actual'

test_expect_success '-o on a device writes in place and leaves it a device' '
	mkfifo fifo &&
	{ cat fifo >from-fifo & } &&
	"$PROFTOOL" convert --to collapsed -o fifo "$C/perfdemo-g.collapsed" && wait &&
	test -p fifo && test_cmp "$C/perfdemo-g.collapsed" from-fifo &&
	"$PROFTOOL" convert --to collapsed -o /dev/null "$C/perfdemo-g.collapsed" &&
	test -c /dev/null'

test_expect_success '-o /dev/full: a write error, exit 1, one line' '
	test_expect_code 1 "$PROFTOOL" convert --to collapsed -o /dev/full "$C/perfdemo-g.collapsed" &&
	test_one_line_err "proftool: /dev/full: write error: No space left on device" &&
	test -c /dev/full'

test_done
