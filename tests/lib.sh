# lib.sh: git-style shell test helpers producing TAP.
# A test script sets test_description, sources this file, then calls
# test_expect_success 'what' 'commands' for each behaviour and test_done at the end.
# Each test runs in a subshell inside a fresh trash directory; $PROFTOOL, $SAMPLES,
# $GOLDEN, $MALFORMED and $REF point into the source tree, $MODS to the npm packages
# of the checks in real viewers.

: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PROFTOOL:=$SRCDIR/src/proftool}"
SAMPLES=$SRCDIR/samples
GOLDEN=$SRCDIR/tests/golden
MALFORMED=$SRCDIR/tests/malformed
REF=$SRCDIR/tests/ref
export SRCDIR SAMPLES GOLDEN MALFORMED REF LC_ALL=C TZ=UTC
# tests/viewers/setup.sh installs them into tests/viewers/node_modules, or where
# PROFTOOL_VIEWERS_MODULES says; the checks' scripts find them through that variable
MODS=${PROFTOOL_VIEWERS_MODULES:-$SRCDIR/tests/viewers/node_modules}
PROFTOOL_VIEWERS_MODULES=$MODS
export PROFTOOL_VIEWERS_MODULES

# Under --enable-valgrind, run the binary through a wrapper script so that tests can
# keep saying "$PROFTOOL".
if test -n "$PROFTOOL_WRAPPER"; then
	real_proftool=$PROFTOOL
	PROFTOOL=$(mktemp "${TMPDIR:-/tmp}/proftool-wrap.XXXXXX")
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$PROFTOOL_WRAPPER" "$real_proftool" >"$PROFTOOL"
	chmod +x "$PROFTOOL"
	trap 'rm -f "$PROFTOOL"' EXIT
fi
export PROFTOOL

# PT_BUILD: the build under test, plain, sanitizer (ASan+UBSan) or valgrind
if test -n "$PROFTOOL_WRAPPER"; then
	PT_BUILD=valgrind
elif nm "${real_proftool:-$PROFTOOL}" 2>/dev/null | grep -q __asan_init; then
	PT_BUILD=sanitizer
else
	PT_BUILD=plain
fi

# LeakSanitizer's exit check scans every writable segment for pointers into the heap,
# and the sanitizer runtime linked into each program brings 9.7 MB of mostly untouched
# globals (its stack depot): reading them costs about 70 ms of CPU a process, half of
# what a sanitized proftool costs on a small input, over 10,000 times a phase. Without
# globals as roots a block held only by a global counts as leaked: the check can only
# report more, never less. The C library keeps a few blocks so for the whole process
# (stdio buffers, time zone rules): tests/lsan.supp names the functions that make them,
# and print_suppressions=0 keeps LeakSanitizer from listing them on stderr.
if test "$PT_BUILD" = sanitizer; then
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}use_globals=0:print_suppressions=0
	LSAN_OPTIONS=$LSAN_OPTIONS:suppressions=$SRCDIR/tests/lsan.supp
	export LSAN_OPTIONS
fi

# plain_build_judges WHAT: the rest of the script is WHAT, checks whose verdict comes from
# another program reading proftool's output (Chromium, a viewer's own code, ClickHouse).
# They run in the plain build. The sanitizer and valgrind builds skip them with one SKIP
# line: the judge costs there what it costs in the plain build, and proftool's part (the
# same writers on the same samples) is what t0085's replay checks in those builds.
plain_build_judges () {
	test "$PT_BUILD" = plain && return 0
	test_skip "$1" "judged by another program: the plain build runs it"
	test_done
	exit
}

# Loops over many offsets of a file (truncation tests) step $VALGRIND_STEP times wider
# under valgrind, which runs 30x slower: the plain and sanitizer runs keep every offset.
VALGRIND_STEP=1
test -z "$PROFTOOL_WRAPPER" || VALGRIND_STEP=16

test_count=0
test_failed=0
test_name=$(basename "$0" .sh)
test_started=$(date +%s)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/proftool-$test_name.XXXXXX")
trap 'rm -rf "$TRASH"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

test_expect_success () {
	test_count=$((test_count + 1))
	rm -rf "$TRASH/t" && mkdir "$TRASH/t"
	if (cd "$TRASH/t" && eval "$2") >"$TRASH/out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/out" | head -40
	fi
}

test_skip () {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# test_done: the plan, and the script's cost as a TAP comment (wall seconds, then the
# CPU of the shell and of its children from `times`), which tests/run-suite sums into
# the slowest scripts of each phase
test_done () {
	echo "1..$test_count"
	times >"$TRASH/times" # not in $(...): a subshell's children have spent nothing yet
	echo "# cost: $(($(date +%s) - test_started)) s wall; cpu:" $(cat "$TRASH/times")
	test "$test_failed" = 0
}

# pprof bytes written by hand (t3010, t3035): hexbytes "0a 02" prints those bytes,
# strhex S the hex of S's bytes, strfield S S's string-table entry (field 6, wire type 2)
hexbytes () {
	for h in $1; do
		printf "\\$(printf %o 0x$h)"
	done
}
strhex () {
	printf %s "$1" | od -An -tx1
}
strfield () {
	printf "32 %02x %s" ${#1} "$(strhex "$1")"
}

# diff with a readable failure
test_cmp () {
	diff -u "$1" "$2"
}

# run a command that must fail with exit status $1; its stderr goes to ./err
test_expect_code () {
	want=$1
	shift
	"$@" >out 2>err
	got=$?
	if test "$got" != "$want"; then
		echo "exit status $got, wanted $want"
		cat err
		return 1
	fi
}

# stderr holds exactly one line, and it equals $1
test_one_line_err () {
	test "$(wc -l <err)" = 1 || { echo "stderr has $(wc -l <err) lines:"; cat err; return 1; }
	test "$(cat err)" = "$1" || { echo "stderr: $(cat err)"; echo "wanted: $1"; return 1; }
}

# help_with_shared CMD: CMD's --help with the shared options its one line names
# ('proftool help input', 'proftool help filters') listed in its place, in the parser's
# order: every option CMD takes
help_with_shared () {
	# the shared lists are the same for every command: asked once per script (under
	# valgrind each run of proftool costs a second)
	if ! test -s "$TRASH/help-shared"; then
		{ "$PROFTOOL" help input | sed 1d; "$PROFTOOL" help filters | sed 1d; } \
			>"$TRASH/help-shared"
	fi
	"$PROFTOOL" "$1" --help | while IFS= read -r line; do
		case $line in
		*"proftool help input, proftool help filters"*) cat "$TRASH/help-shared" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}
