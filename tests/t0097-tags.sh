#!/bin/sh
test_description='tags: every label key with its values and shares, as go tool pprof -tags (issue 34)'
. "$(dirname "$0")/lib.sh"

R=$REF/pprof
GOS=$SAMPLES/go

# the references of tests/ref/pprof/regen.sh (each command in its COMMANDS file)
test_expect_success 'pprof samples: byte for byte what go tool pprof -tags printed' '
	"$PROFTOOL" tags "$GOS/cpu.pb.gz" >out && test_cmp "$R/cpu.pprof-tags.txt" out &&
	"$PROFTOOL" tags "$GOS/heap.pb.gz" >out && test_cmp "$R/heap.pprof-tags.txt" out &&
	"$PROFTOOL" tags --sample-index alloc_space "$GOS/heap.pb.gz" >out &&
	test_cmp "$R/heap.pprof-tags.sample_index-alloc_space.txt" out &&
	"$PROFTOOL" tags --focus main "$GOS/heap.pb.gz" >out &&
	test_cmp "$R/heap.pprof-tags.focus-main.txt" out &&
	"$PROFTOOL" tags "$GOS/heap-text.pb.gz" >out && test_cmp "$R/heap-text.pprof-tags.txt" out &&
	"$PROFTOOL" tags "$GOS/goroutine.pb.gz" >out && test_cmp "$R/goroutine.pprof-tags.txt" out'

# perf-count.py: samples per comm and per tid in perf script text, counted from the
# record headers alone ("comm tid time: period event:"; a comm may hold blanks)
cat >"$TRASH/perf-count.py" <<'PY'
import re, sys, collections
head = re.compile(r'^(\S.*?)\s+(\d+)(?:/(\d+))?\s+(?:\[\d+\]\s+)?\d+\.\d+:')
by = {'comm': collections.Counter(), 'tid': collections.Counter()}
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    m = head.match(line)
    if m:
        by['comm'][m.group(1)] += 1
        by['tid'][m.group(3) or m.group(2)] += 1
for key in sorted(by):
    for value, n in sorted(by[key].items()):
        print(key, value.replace(' ', '_'), n)
PY

# tags-count.awk: "KEY VALUE N" from proftool tags' blocks (N the value, as a count)
cat >"$TRASH/tags-count.awk" <<'AWK'
/^ *[^ ].*: Total / { key = $1; sub(/:$/, "", key); next }
NF >= 3 { n = $1; sub(/\.0$/, "", n); v = $0; sub(/^[^:]*: /, "", v); gsub(/ /, "_", v); print key, v, n }
AWK

test_expect_success 'perf script: the samples of each comm and thread equal a count of the headers' '
	for f in perfdemo-g.txt perfdemo-dwarf.txt perfdemo-kernel.txt; do
		python3 "$TRASH/perf-count.py" "$SAMPLES/perf/$f" >want &&
		"$PROFTOOL" tags --sample-index samples "$SAMPLES/perf/$f" >out &&
		awk -f "$TRASH/tags-count.awk" out | sort >got &&
		sort want >want.s && test_cmp want.s got || exit 1
	done'

test_expect_success 'shares: each value over its key'"'"'s total, most first, then by name' '
	"$PROFTOOL" tags --sample-index samples "$SAMPLES/perf/perfdemo-g.txt" >out &&
	awk "/Total/ { if (n) exit; n = 1; next } NF >= 3 { print }" out >block &&
	awk "{ v = \$1; sub(/\\.0\$/, \"\", v); if (prev != \"\" && v + 0 > prev + 0) bad = 1; prev = v } END { exit bad }" block &&
	total=$(awk "/Total/ { print \$3; exit }" out) &&
	awk -v t="$total" "{ v = \$1; p = \$2; gsub(/[()%:]/, \"\", p); if ((v * 100 / t - p) ^ 2 > 0.0001) bad = 1 } END { exit bad }" block'

test_expect_success 'a profile without labels: nothing printed, one line on stderr, exit 0' '
	"$PROFTOOL" tags "$SAMPLES/stackprof/cpu-raw.dump" >out 2>err &&
	test ! -s out &&
	test_one_line_err "proftool: tags: $SAMPLES/stackprof/cpu-raw.dump: no sample carries a label"'

test_expect_success 'info lists the label keys, text and json' '
	"$PROFTOOL" info "$GOS/heap.pb.gz" >out &&
	grep -qx "Label keys: bytes (proftool tags lists their values)" out &&
	"$PROFTOOL" info "$SAMPLES/perf/perfdemo-g.txt" >out &&
	grep -qx "Label keys: comm, tid (proftool tags lists their values)" out &&
	"$PROFTOOL" info --format json "$GOS/cpu.pb.gz" | jq -e ".label_keys == [\"worker\"]" &&
	"$PROFTOOL" info --format json "$SAMPLES/stackprof/cpu-raw.dump" | jq -e "has(\"label_keys\") | not"'

# tests/ref/pprof/regen.sh made these with go tool pprof -top -tagroot/-tagleaf: a frame
# per label value, an empty one (pprof prints <unknown>) for a sample without the label
test_expect_success '--tag-root and --tag-leaf: top --style pprof as go tool pprof -tagroot/-tagleaf' '
	"$PROFTOOL" top --style pprof -n 0 --node-fraction 0 --tag-root worker "$GOS/cpu.pb.gz" >out &&
	test_cmp "$R/cpu.pprof-top.tagroot-worker.txt" out &&
	"$PROFTOOL" top --style pprof -n 0 --node-fraction 0 --tag-leaf worker "$GOS/cpu.pb.gz" >out &&
	test_cmp "$R/cpu.pprof-top.tagleaf-worker.txt" out &&
	"$PROFTOOL" top --style pprof -n 0 --node-fraction 0 --tag-root worker --focus alpha \
		"$GOS/cpu.pb.gz" >out &&
	test_cmp "$R/cpu.pprof-top.tagroot-worker.focus-alpha.txt" out &&
	"$PROFTOOL" top --style pprof -n 0 --tag-root bytes --tag-leaf bytes "$GOS/heap.pb.gz" >out &&
	test_cmp "$R/heap.pprof-top.tagroot-bytes.tagleaf-bytes.txt" out &&
	"$PROFTOOL" top --style pprof -n 0 --node-fraction 0 --tag-leaf worker "$GOS/goroutine.pb.gz" >out &&
	test_cmp "$R/goroutine.pprof-top.tagleaf-worker.txt" out'

# the same frames reach every reading command: the collapsed stacks under each root (or
# above each leaf) add up to what go tool pprof -tags gave each value (cpu.pprof-tags.txt)
test_expect_success '--tag-root and --tag-leaf in convert: each value holds its -tags share' '
	sed -n "s/^ *\([0-9.]*\)ms ([^)]*): \(.*\)/\2 \1/p" "$R/cpu.pprof-tags.txt" |
		awk "{ printf \"%s %d\\n\", \$1, \$2 * 1000000 }" | LC_ALL=C sort >expect &&
	test "$(wc -l <expect)" = 2 &&
	"$PROFTOOL" convert --to collapsed --tag-root worker "$GOS/cpu.pb.gz" |
		awk "{ n = \$NF; split(\$0, f, \";\"); s[f[1]] += n }
		     END { for (k in s) if (k == \"alpha\" || k == \"beta\") print k, s[k] }" |
		LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" convert --to collapsed --tag-leaf worker "$GOS/cpu.pb.gz" |
		awk "{ n = \$NF; sub(/ [0-9]+\$/, \"\"); k = split(\$0, f, \";\"); s[f[k]] += n }
		     END { for (k in s) if (k == \"alpha\" || k == \"beta\") print k, s[k] }" |
		LC_ALL=C sort >actual &&
	test_cmp expect actual'

test_expect_success '--tag-root and --tag-leaf are listed with the filters' '
	"$PROFTOOL" help filters >out &&
	grep -q -- "--tag-root KEY,..." out && grep -q -- "--tag-leaf KEY,..." out &&
	"$PROFTOOL" completion bash >out &&
	grep -q -- "--tag-root" out && grep -q -- "--tag-leaf" out'

# go tool pprof run now: a judge the plain build runs (the committed references above
# hold in every build)
plain_build_judges 'go tool pprof -tags run now'
if command -v go >/dev/null 2>&1; then
	test_expect_success 'and what go tool pprof -tags prints now, on every pprof sample and filter' '
		for f in "$GOS"/*.pb.gz "$GOS"/*.pb; do
			for o in "" -sample_index=0 -sample_index=1 -focus=main -ignore=runtime; do
				ours=$(echo "$o" | sed "s/^-sample_index=/--sample-index=/; s/^-focus=/--focus=/; s/^-ignore=/--ignore=/") &&
				# a sample index the file lacks: both refuse it
				if GOPROXY=off PPROF_BINARY_PATH=/nonexistent go tool pprof -tags $o "$f" >theirs 2>/dev/null; then
					"$PROFTOOL" tags $ours "$f" >ours 2>/dev/null &&
					test_cmp theirs ours || { echo "differs: $f $o"; exit 1; }
				else
					test_expect_code 1 "$PROFTOOL" tags $ours "$f" || exit 1
				fi
			done
		done'
	test_expect_success 'and what go tool pprof -top -tagroot/-tagleaf prints now' '
		for f in "$GOS"/*.pb.gz; do
			for o in "-tagroot=worker,bytes" "-tagleaf=bytes,worker"; do
				ours=$(echo "$o" | sed "s/^-tagroot=/--tag-root=/; s/^-tagleaf=/--tag-leaf=/") &&
				GOPROXY=off PPROF_BINARY_PATH=/nonexistent go tool pprof -top $o "$f" >theirs 2>/dev/null &&
				"$PROFTOOL" top --style pprof -n 0 $ours "$f" >ours &&
				test_cmp theirs ours || { echo "differs: $f $o"; exit 1; }
			done
		done &&
		# a numeric label with a unit (a goroutine wait in minutes), written as pprof
		printf "%s\n" "goroutine 1 [chan receive, 5 minutes]:" "main.a()" "	/x/main.go:10 +0x1" "" \
			"goroutine 2 [chan receive, 90 minutes]:" "main.b()" "	/x/main.go:20 +0x1" "" \
			"goroutine 3 [select]:" "main.b()" "	/x/main.go:20 +0x1" >g.txt &&
		"$PROFTOOL" convert --to pprof -o g.pb.gz g.txt &&
		GOPROXY=off PPROF_BINARY_PATH=/nonexistent go tool pprof -top -tagleaf wait,state g.pb.gz >theirs 2>/dev/null &&
		"$PROFTOOL" top --style pprof -n 0 --tag-leaf wait,state g.pb.gz >ours &&
		test_cmp theirs ours && grep -q " 90\$" ours'
else
	test_skip 'and what go tool pprof -tags prints now, on every pprof sample and filter' 'go is not installed'
fi

test_done
