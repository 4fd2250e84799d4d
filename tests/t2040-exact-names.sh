#!/bin/sh
test_description='frame names are kept byte for byte: blanks inside and at the end are data'
. "$(dirname "$0")/lib.sh"

test_expect_success 'a perf symbol tidied into a name ending in a blank keeps it (stackcollapse-perf.pl)' '
	printf "prog 123 1.0: 1 cycles:\n" >in.txt &&
	printf "\t401000 std::_Function_handler<double (double), F>::_M_invoke+0x1 (/bin/p)\n" >>in.txt &&
	printf "\t402000 main+0x5 (/bin/p)\n\n" >>in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out &&
	echo "prog;main;std::_Function_handler<double  1" >expect &&
	test_cmp expect out'

test_expect_success 'the same name read back from collapsed text keeps its blank' '
	echo "prog;main;std::_Function_handler<double  1" >in.collapsed &&
	"$PROFTOOL" top --format csv in.collapsed >out &&
	grep "^\"std::_Function_handler<double \"," out'

test_expect_success 'a sorted collapsed file comes back byte for byte (inner, trailing blanks, tabs)' '
	printf "%s\n" "a b;c  d ;e 3" "a b;c  d 2" "main;foo ;bar  baz 5" "t;u 	 4" "x  y;z	q 7" | LC_ALL=C sort >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >out &&
	cmp in.collapsed out'

test_expect_success 'only the one blank before the count separates it (flamegraph.pl s+?)' '
	printf "a;b   3\n" >in.collapsed &&
	"$PROFTOOL" top --format csv in.collapsed >out &&
	grep "^\"b  \"," out'

test_expect_success 'a name ending in blank and digits is still joined so it cannot read as a count' '
	printf "%s\n" "a;f 12 5" >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >first &&
	"$PROFTOOL" convert --to collapsed first >out &&
	test_cmp first out'

test_done
