#!/bin/sh
test_description='the program is linked with the first hour runs code together (src/cli/text-order.txt)'
. "$(dirname "$0")/lib.sh"

BIN=${real_proftool:-$PROFTOOL}
LIST=$SRCDIR/src/cli/text-order.txt

# the function names the list gives (main is .text.startup.main), one a line
listed () {
	sed -n -e 's/^\.text\.startup\.//p' -e '/^\.text\.startup\./!s/^\.text\.//p' "$LIST" | sort -u
}

# The list is made from a gcc build (its clones: .isra.0, .constprop.0) and is used
# where configure chose gold (the binary then has gold's version note); elsewhere (the
# clang sanitizer builds) it names what that compiler does not make, and is not used.
if readelf -n "$BIN" 2>/dev/null | grep -q 'NT_GNU_GOLD_VERSION'; then
	test_expect_success 'every function the list names is one the program defines' '
		listed >names &&
		test -s names &&
		nm --defined-only "$BIN" | awk "\$2 ~ /^[tT]\$/ { print \$3 }" | sort -u >defined &&
		comm -23 names defined >gone &&
		{ test ! -s gone || { echo "not in the program (run bench/text-order.sh):"; cat gone; false; }; }
	'

	# in address order the listed functions make one run, bar a few that share a
	# name with an unlisted static function elsewhere
	test_expect_success 'linked by gold, the listed functions lie together' '
		listed >names &&
		nm -n --defined-only "$BIN" | awk "\$2 ~ /^[tT]\$/ { print \$3 }" >byaddr &&
		awk "NR == FNR { l[\$1] = 1; next }
			{ in_l = (\$1 in l); if (in_l) { n++; if (prev) run++; else run = 1;
				if (run > best) best = run } prev = in_l }
			END { printf \"%d %d\\n\", best, n; exit !(n > 100 && best * 10 >= n * 9) }" \
			names byaddr
	'
else
	test_skip 'every function the list names is one the program defines' 'not linked by gold (configure did not find it, or a sanitized build)'
	test_skip 'linked by gold, the listed functions lie together' 'not linked by gold'
fi

test_done
