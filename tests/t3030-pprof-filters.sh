#!/bin/sh
test_description='top --style pprof under filters: pprof'"'"'s shares of the whole profile, its Active filters lines, -tagfocus ranges and -tagignore (issue 34)'
. "$(dirname "$0")/lib.sh"

R=$REF/pprof
GOS=$SAMPLES/go

# go tool pprof's options of a filters.cases line as proftool's, one a line; pprof
# matches its patterns against file paths too, so --match-file always
cat >"$TRASH/ours-args.sh" <<'SH'
echo --match-file
for a in "$@"; do
	case $a in
	-focus=*) printf '%s\n' --focus "${a#-focus=}" ;;
	-ignore=*) printf '%s\n' --ignore "${a#-ignore=}" ;;
	-hide=*) printf '%s\n' --hide "${a#-hide=}" ;;
	-show=*) printf '%s\n' --show "${a#-show=}" ;;
	-show_from=*) printf '%s\n' --show-from "${a#-show_from=}" ;;
	-tagfocus=*) printf '%s\n' --tag "${a#-tagfocus=}" ;;
	-tagignore=*) printf '%s\n' --tag-ignore "${a#-tagignore=}" ;;
	-sample_index=*) printf '%s\n' --sample-index "${a#-sample_index=}" ;;
	-cum) echo --cum ;;
	*) echo "ours-args: no proftool option for $a" >&2; exit 1 ;;
	esac
done
SH

# ours NAME SAMPLE ARGS...: proftool's report for one case into NAME
cat >"$TRASH/ours.sh" <<'SH'
name=$1 sample=$2
shift 2
set -f
# shellcheck disable=SC2046
IFS='
'
exec "$PROFTOOL" top --style pprof $(sh "$TRASH/ours-args.sh" "$@") "$GOS/$sample" >"$name"
SH

# the references of tests/ref/pprof/regen.sh (each command in its COMMANDS file)
test_expect_success 'every case of the filter matrix: byte for byte what go tool pprof -top printed' '
	test "$(wc -l <"$R/filters.cases")" -ge 30 &&
	while read -r name sample args; do
		# shellcheck disable=SC2086
		PROFTOOL="$PROFTOOL" TRASH="$TRASH" GOS="$GOS" sh "$TRASH/ours.sh" out "$sample" $args &&
		test_cmp "$R/$name" out || { echo "differs: $name"; exit 1; }
	done <"$R/filters.cases"'

test_expect_success 'the matrix holds every filter on every pprof sample, and ranges' '
	for s in cpu heap heap-text goroutine goroutine-text; do
		for f in focus ignore hide show show_from; do
			grep -q "^$s[.]pprof-top[.]$f-" "$R/filters.cases" || { echo "no $f on $s"; exit 1; }
		done
	done &&
	grep -q "tagfocus=bytes=1kb:$" "$R/filters.cases" &&
	grep -q "tagfocus=bytes=:64b" "$R/filters.cases" &&
	grep -q "tagfocus=bytes=1kb:4kb" "$R/filters.cases" &&
	grep -q "tagignore=bytes=" "$R/filters.cases"'

test_expect_success 'shares are of the whole profile: the unfiltered total, the Active filters lines' '
	"$PROFTOOL" top --style pprof --sample-index samples "$GOS/cpu.pb.gz" >whole &&
	"$PROFTOOL" top --style pprof --sample-index samples --focus hotLeaf --tag worker=alpha "$GOS/cpu.pb.gz" >focus &&
	grep "^Showing nodes" whole | sed "s/.* of //" >t1 &&
	grep "^Showing nodes" focus | sed "s/.* of //" >t2 &&
	test_cmp t1 t2 &&
	sed -n "/^Active filters:$/,/^Showing/p" focus >legend &&
	printf "%s\n" "Active filters:" "   focus=hotLeaf" "   tagfocus=worker=alpha" >want &&
	sed "\$d" legend >got && test_cmp want got'

test_expect_success '--tag and --tag-ignore of one condition split the total (default layout, csv)' '
	for c in "bytes=1kb:" "bytes=:64b" "bytes=1kb:4kb" "bytes=4kb"; do
		all=$("$PROFTOOL" info --format json --sample-index alloc_space "$GOS/heap.pb.gz" | jq ".sample_types[] | select(.name == \"alloc_space\") | .total") &&
		a=$("$PROFTOOL" top --format csv -n 0 --sample-index alloc_space --tag "$c" "$GOS/heap.pb.gz" | awk -F, "NR > 1 { s += \$(NF - 3) } END { print s + 0 }") &&
		b=$("$PROFTOOL" top --format csv -n 0 --sample-index alloc_space --tag-ignore "$c" "$GOS/heap.pb.gz" | awk -F, "NR > 1 { s += \$(NF - 3) } END { print s + 0 }") &&
		test "$a" -gt 0 && test "$b" -gt 0 && test $((a + b)) = "$all" || { echo "$c: $a + $b != $all"; exit 1; }
	done'

test_expect_success 'a bare number stays an exact value; a range never matches a string label' '
	"$PROFTOOL" top --format csv -n 0 --tag worker=1kb: "$GOS/cpu.pb.gz" >out 2>err &&
	test "$(wc -l <out)" = 1 &&
	"$PROFTOOL" top --format csv -n 0 --tag-ignore bytes=nosuch "$GOS/heap.pb.gz" >a &&
	"$PROFTOOL" top --format csv -n 0 "$GOS/heap.pb.gz" >b && test_cmp b a'

test_expect_success '--tag-ignore without KEY=: a usage error' '
	test_expect_code 2 "$PROFTOOL" top --tag-ignore bytes "$GOS/heap.pb.gz" 2>err &&
	grep -q "bad label condition '"'"'bytes'"'"' for --tag-ignore (KEY=VALUE)" err'

# go tool pprof run now: a judge the plain build runs (the committed references above
# hold in every build)
plain_build_judges 'go tool pprof -top run now'
if command -v go >/dev/null 2>&1; then
	test_expect_success 'and what go tool pprof -top prints now, on the whole matrix' '
		while read -r name sample args; do
			# shellcheck disable=SC2086
			TZ=UTC GOPROXY=off PPROF_BINARY_PATH=/nonexistent go tool pprof -top -nodecount=100000 $args "$GOS/$sample" >"$TRASH/theirs" 2>/dev/null &&
			PROFTOOL="$PROFTOOL" TRASH="$TRASH" GOS="$GOS" sh "$TRASH/ours.sh" "$TRASH/ours" "$sample" $args &&
			test_cmp "$TRASH/theirs" "$TRASH/ours" || { echo "differs: $name"; exit 1; }
		done <"$R/filters.cases"'
else
	test_skip 'go tool pprof -top run now' 'go is not installed'
fi

test_done
