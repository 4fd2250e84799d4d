#!/bin/sh
test_description='every fuzz harness'"'"'s seed corpus through its checks, in one process each'
. "$(dirname "$0")/lib.sh"

# tests/fuzz/replay runs what a libFuzzer harness runs on an input (fuzz-read.c: read,
# aggregate, fold as top does, every writer, the heap path) on files, one process for a
# harness's whole seed corpus (gen-seeds.sh: the real samples, crafted shapes, the
# malformed inputs and the kept findings). In every build: plain, under ASan+UBSan, and
# under valgrind, where one process per harness is what makes the corpus affordable.
REPLAY=${BUILDDIR:-$SRCDIR}/tests/fuzz/replay
if ! test -x "$REPLAY"; then
	test_skip 'replay of the seed corpora' 'tests/fuzz/replay is not built (make check builds it)'
	test_done
	exit
fi

test_expect_success 'an unknown format is a usage error' '
	test_expect_code 2 "$REPLAY" no-such-format /dev/null &&
	grep -q "^replay: no format no-such-format" err'

# the harnesses, as gen-seeds.sh names them (one row each there)
harnesses=$(sed -n 's/^	fuzz-\([a-z-]*\)) .*/\1/p' "$SRCDIR/tests/fuzz/gen-seeds.sh")
test_expect_success 'gen-seeds.sh names a corpus for every harness' '
	test "$(echo $harnesses | wc -w)" -ge 17'

for h in $harnesses; do
	test_expect_success "fuzz-$h: the seed corpus passes every check" '
		sh "$SRCDIR/tests/fuzz/gen-seeds.sh" "$SRCDIR" fuzz-'"$h"' corpus &&
		test -n "$(ls corpus)" &&
		$PROFTOOL_WRAPPER "$REPLAY" '"$h"' corpus/*'
done

test_done
