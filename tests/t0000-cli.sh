#!/bin/sh
test_description='command line: help, version, usage errors, unreadable inputs'
. "$(dirname "$0")/lib.sh"

test_expect_success '--help lists the commands and exit statuses' '
	"$PROFTOOL" --help >out &&
	grep -q "^  top " out && grep -q "^  convert " out && grep -q "^  info " out &&
	grep -q "^  formats " out && grep -q "2 usage error" out'

test_expect_success '--version prints the version' '
	"$PROFTOOL" --version >out && grep -q "^proftool [0-9]" out'

for cmd in top info convert formats; do
	test_expect_success "$cmd --help prints its usage and options" '
		"$PROFTOOL" '$cmd' --help >out &&
		grep -q "^usage: proftool '$cmd'" out && grep -q -- "--help" out'
	test_expect_success "help $cmd equals $cmd --help" '
		"$PROFTOOL" help '$cmd' >a && "$PROFTOOL" '$cmd' --help >b && test_cmp a b'
done

test_expect_success 'every option in top --help is accepted by the parser' '
	help_with_shared top | sed -n "s/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p" >opts &&
	test -s opts &&
	while read o; do
		case $o in help) continue;; esac
		"$PROFTOOL" top --$o 2>err >/dev/null </dev/null
		! grep -q "unknown option" err || { echo "--$o rejected"; exit 1; }
	done <opts'

test_expect_success 'no command lists the same option twice' '
	"$PROFTOOL" --help | sed -n "s/^  \([a-z]*\) .*/\1/p" >cmds &&
	test "$(wc -l <cmds)" -ge 10 &&
	while read c; do
		help_with_shared $c | sed -n "s/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p" | sort | uniq -d >dups &&
		test ! -s dups || { echo "$c: $(cat dups)"; exit 1; }
	done <cmds'

test_expect_success 'every option of every command is in the man page' '
	"$PROFTOOL" --help | sed -n "s/^  \([a-z]*\) .*/\1/p" >cmds &&
	while read c; do
		grep -q "^\.SS \"proftool $c" "$SRCDIR/man/proftool.1" || { echo "no section for $c"; exit 1; }
		help_with_shared $c | sed -n "s/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p" >opts &&
		while read o; do
			m=$(printf "%s" "--$o" | sed "s/-/\\\\-/g") &&
			grep -qF -- "$m" "$SRCDIR/man/proftool.1" || { echo "$c --$o"; exit 1; }
		done <opts
	done <cmds'

test_expect_success 'help input and help filters list the shared options; each command names them in one line' '
	"$PROFTOOL" help input >in && "$PROFTOOL" help filters >fl &&
	grep -q "^      --from FORMAT " in && grep -q "^      --sample-index NAME|N " in &&
	grep -q "^      --focus RE " fl && grep -q "^      --node-fraction F " fl &&
	! grep -q -- "--focus" in && ! grep -q -- "--from" fl &&
	for c in top tree traces info convert flamegraph diff merge method export tags goroutines; do
		"$PROFTOOL" $c --help >h &&
		test "$(grep -c "proftool help input, proftool help filters" h)" = 1 &&
		! grep -q -- "^      --focus " h && ! grep -q -- "^      --from " h ||
			{ echo "$c"; return 1; }
	done'

test_expect_success 'the manual: man -l on the tree'"'"'s copy while the page is not installed' '
	"$PROFTOOL" top --help | tail -1 >line &&
	"$PROFTOOL" --help | tail -1 | cmp - line &&
	case $(cat line) in
	"The manual: man -l "*)
		page=$(sed "s/^The manual: man -l //" line) &&
		test "$(cd "$(dirname "$page")" && pwd -P)" = "$(cd "$SRCDIR/man" && pwd -P)" &&
		if command -v man >/dev/null; then
			man -l -P cat "$page" 2>/dev/null | grep -q "^NAME"
		fi ;;
	*) test "$(cat line)" = "The manual: man proftool" && man -w proftool >/dev/null ;;
	esac'

test_expect_success 'no command is a usage error' '
	test_expect_code 2 "$PROFTOOL" && grep -q "^usage:" err'

test_expect_success 'an unknown command is a usage error with one line' '
	test_expect_code 2 "$PROFTOOL" frobnicate &&
	test_one_line_err "proftool: unknown command '"'"'frobnicate'"'"' (see '"'"'proftool --help'"'"')"'

test_expect_success 'an unknown option is a usage error with one line' '
	test_expect_code 2 "$PROFTOOL" top --bogus x &&
	test_one_line_err "proftool: top: unknown option '"'"'--bogus'"'"' (see '"'"'proftool top --help'"'"')"'

test_expect_success 'a missing option value is a usage error' '
	test_expect_code 2 "$PROFTOOL" top -n &&
	test_one_line_err "proftool: top: option '"'"'-n'"'"' needs a value (see '"'"'proftool top --help'"'"')"'

test_expect_success 'a bad -n value is a usage error' '
	test_expect_code 2 "$PROFTOOL" top -n many "$SAMPLES/collapsed/perfdemo-g.collapsed" &&
	grep -q "bad count" err'

test_expect_success 'a missing file: exit 1, one line naming it' '
	test_expect_code 1 "$PROFTOOL" top no-such-file &&
	test_one_line_err "proftool: no-such-file: cannot open: No such file or directory"'

test_expect_success 'an unreadable input (a directory): exit 1, one line' '
	mkdir d && test_expect_code 1 "$PROFTOOL" top d &&
	test_one_line_err "proftool: d: read error: Is a directory"'

test_expect_success 'empty input: exit 1, one line' '
	: >empty && test_expect_code 1 "$PROFTOOL" top empty &&
	test_one_line_err "proftool: empty: byte 0: empty input"'

test_expect_success 'empty stdin: exit 1, one line' '
	test_expect_code 1 "$PROFTOOL" top - </dev/null &&
	test_one_line_err "proftool: <stdin>: byte 0: empty input"'

test_expect_success 'binary garbage: exit 1, one line' '
	head -c 4096 "$SRCDIR/src/cli/proftool.c" | tr "a-z" "\000-\031" >garbage &&
	test_expect_code 1 "$PROFTOOL" top garbage &&
	test_one_line_err "proftool: garbage: byte 0: unrecognized profile format: binary data starting$(od -An -tx1 -N8 garbage | tr -s " \n" "  " | sed "s/ $//") (see '"'"'proftool formats'"'"'; --from FORMAT forces one)"'

test_expect_success 'an unknown --from format is an input error' '
	test_expect_code 1 "$PROFTOOL" top --from nope "$SAMPLES/collapsed/perfdemo-g.collapsed" &&
	test_one_line_err "proftool: $SAMPLES/collapsed/perfdemo-g.collapsed: cannot read format '"'"'nope'"'"' (see '"'"'proftool formats'"'"')"'

test_expect_success 'an unknown --sample-index names the types there are' '
	test_expect_code 1 "$PROFTOOL" top --sample-index wall "$SAMPLES/collapsed/perfdemo-g.collapsed" &&
	grep -q "no sample type '"'"'wall'"'"' (the profile has: samples)" err'

test_expect_success 'a short option is its long one (record -p is --pid)' '
	test_expect_code 2 "$PROFTOOL" record -p abc -- true &&
	test_one_line_err "proftool: record: bad number '"'"'abc'"'"' for --pid (see '"'"'proftool record --help'"'"')"'

test_expect_success 'convert takes the options of every writer in the registry' '
	"$PROFTOOL" convert --help >help &&
	for o in --no-gzip --nodecount --edge-fraction --title --width --min-fraction --max-frames \
		--source-path --kernel --jit --inline --all; do
		grep -q -e "^ *$o " help || return 1
	done &&
	"$PROFTOOL" convert --to collapsed --kernel --title x --nodecount 3 --no-gzip \
		"$SAMPLES/collapsed/perfdemo-g.collapsed" >out &&
	"$PROFTOOL" convert --to collapsed "$SAMPLES/collapsed/perfdemo-g.collapsed" >plain &&
	test_cmp plain out'

test_expect_success 'formats lists collapsed as readable and writable' '
	"$PROFTOOL" formats >out &&
	grep -q "^collapsed *yes *yes" out'

test_expect_success 'a write error on stdout is reported (/dev/full)' '
	"$PROFTOOL" top "$SAMPLES/collapsed/perfdemo-g.collapsed" >/dev/full 2>err;
	test $? = 1 && grep -q "write error on standard output: No space left on device" err'

test_expect_success 'a closed pipe ends quietly' '
	awk "BEGIN { for (i = 0; i < 200000; i++) printf \"main;f%d 1\\n\", i }" >big.collapsed &&
	"$PROFTOOL" convert --to collapsed big.collapsed 2>err | head -1 >first &&
	test "$(cat first)" = "main;f0 1" && test ! -s err'

test_done
