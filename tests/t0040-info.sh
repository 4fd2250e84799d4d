#!/bin/sh
test_description='info: what a profile holds'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed

test_expect_success 'info text names format, types, totals and counts' '
	"$PROFTOOL" info "$C/perfdemo-g.collapsed" >out &&
	grep -q "^Format: collapsed$" out &&
	total=$(awk "{ s += \$NF } END { print s }" "$C/perfdemo-g.collapsed") &&
	grep -q "^  0: samples \[count\] total $total ($total) (default)$" out &&
	grep -q "^Samples: $(wc -l <"$C/perfdemo-g.collapsed")$" out &&
	grep -q "^Unique stacks: $(wc -l <"$C/perfdemo-g.collapsed")$" out &&
	grep -q "^Unique functions: $(awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | wc -l)$" out'

test_expect_success 'info --format json (golden)' '
	cd "$SRCDIR" && "$PROFTOOL" info --format json samples/collapsed/perfdemo-g-vs-dwarf.diff.collapsed >"$OLDPWD/actual" &&
	cd "$OLDPWD" && test_cmp "$GOLDEN/perfdemo-g-vs-dwarf.diff.info.json" actual'

test_expect_success 'info counts repeated stacks once as unique stacks' '
	printf "a;b 1\na;b 2\na 1\n" >in &&
	"$PROFTOOL" info in >out &&
	grep -q "^Samples: 3$" out && grep -q "^Unique stacks: 2$" out'

test_done
