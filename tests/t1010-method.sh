#!/bin/sh
test_description='method: callers, callees and source lines, once per stack'
. "$(dirname "$0")/lib.sh"

S=$SAMPLES/stackprof
R=$REF/stackprof
SRC=$S/src

# every `stackprof --method PATTERN FILE` reference: "REF PATTERN FILE"
grep -- "--method" "$R/COMMANDS" | sed 's/: stackprof --method / /' >"$TRASH/methods"

while read -r ref rest; do
	pattern=${rest% *}
	file=${rest##* }
	test_expect_success "$ref: self and total equal stackprof's" '
		"$PROFTOOL" method --source-path "$SRC" "'"$pattern"'" "$S/'"$file"'" >out &&
		sed -n 2p out >actual && sed -n 2p "$R/'"$ref"'" >expect &&
		test_cmp expect actual &&
		if grep -q "^Workload" "$R/'"$ref"'"; then
			head -1 out >a1 && head -1 "$R/'"$ref"'" >e1 && test_cmp e1 a1
		fi'
done <"$TRASH/methods"

# "count name" rows of one block ("callers" or "callees") of a method output, sorted
block () {
	awk -v b="$1" '/^  [a-z]/ { on = index($0, "  " b) == 1; next }
		on { n = $1; sub(/^ *[0-9]+ +\( *[^)]*\) +/, ""); print n, $0 }' "$2" | LC_ALL=C sort
}
code () {
	sed -n '/^  code/,$p' "$1" | sed 1d
}

for s in cpu-raw cpu-raw.json wall-raw; do
	f=$S/$s; case $s in *.json) ;; *) f=$f.dump ;; esac
	test_expect_success "$s: callers of a leaf equal stackprof's (no recursion through it)" '
		"$PROFTOOL" method Workload#hot_leaf "'"$f"'" >out &&
		ref=$R/'"${s%.dump}"'.stackprof-method.hot_leaf.txt &&
		if test -f "$ref"; then
			block callers "$ref" >expect && block callers out >actual &&
			test_cmp expect actual && test -s actual
		fi'
done

test_expect_success 'aggregate-only dump: the per-occurrence edges, marked as such' '
	"$PROFTOOL" method --source-path "$SRC" Workload#fib "$S/cpu.dump" >out &&
	grep -q "^  callers (counted per occurrence: no stacks):$" out &&
	grep -q "^  callees (counted per occurrence: no stacks):$" out &&
	block callers "$R/cpu.stackprof-method.fib.txt" >expect &&
	block "callers (counted" out >actual && test_cmp expect actual &&
	block callees "$R/cpu.stackprof-method.fib.txt" >expect &&
	block "callees (counted" out >actual && test_cmp expect actual'

for m in fib ping hot_leaf; do
	test_expect_success "aggregate-only dump: $m source lines as stackprof annotates them" '
		"$PROFTOOL" method --context 1 --source-path "$SRC" Workload#'$m' "$S/cpu.dump" >out &&
		code "$R/cpu.stackprof-method.'$m'.txt" >expect && code out >actual &&
		test_cmp expect actual'
done

for m in fib ping hot_leaf; do
	test_expect_success "raw dump from stackprof 0.2.21: $m lines as stackprof annotates them, marked" '
		"$PROFTOOL" method --context 1 --source-path "$SRC" Workload#'$m' "$S/cpu-raw.dump" >out &&
		grep -q "^  code (line totals counted per occurrence):\$" out &&
		code "$R/cpu-raw.stackprof-method.'$m'.txt" >expect && code out >actual &&
		test_cmp expect actual &&
		"$PROFTOOL" method --format json Workload#'$m' "$S/cpu-raw.dump" >j &&
		grep -q "\"lines_per_occurrence\":true" j && grep -q "\"per_occurrence\":false" j'
done

test_expect_success 'combined dump (String frame ids): the same source annotation' '
	"$PROFTOOL" method --context 1 --source-path "$SRC" Workload#fib "$S/combined-cli.dump" >out &&
	code "$R/combined-cli.stackprof-method.fib.txt" >expect && code out >actual &&
	test_cmp expect actual'

# weight of the collapsed lines whose stack contains a frame sequence, counted once
stacks_with () {
	awk -v pat=";$1;" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s);
		if (index(";" s ";", pat)) sum += n } END { print sum + 0 }' "$2"
}

test_expect_success 'recursion: callers and callees count once per stack (raw dump)' '
	"$PROFTOOL" convert --to collapsed "$S/cpu-raw.dump" >c &&
	"$PROFTOOL" method Workload#fib "$S/cpu-raw.dump" >out &&
	echo "$(stacks_with "Workload#fib;Workload#fib" c) Workload#fib" >expect &&
	echo "$(stacks_with "Workload#cpu_round;Workload#fib" c) Workload#cpu_round" >>expect &&
	LC_ALL=C sort expect >e && block callers out >actual && test_cmp e actual &&
	echo "$(stacks_with "Workload#fib;Workload#fib" c) Workload#fib" >expect &&
	echo "$(stacks_with "Workload#fib;Workload#hot_leaf" c) Workload#hot_leaf" >>expect &&
	LC_ALL=C sort expect >e && block callees out >actual && test_cmp e actual'

test_expect_success 'recursion: mutual (ping <-> pong) once per stack' '
	"$PROFTOOL" convert --to collapsed "$S/cpu-raw.dump" >c &&
	"$PROFTOOL" method Workload#pong "$S/cpu-raw.dump" >out &&
	echo "$(stacks_with "Workload#ping;Workload#pong" c) Workload#ping" >e &&
	block callers out >actual && test_cmp e actual'

test_expect_success 'no caller or callee percentage exceeds 100% on any raw dump' '
	for f in cpu-raw wall-raw object-raw deep-raw custom-raw; do
		"$PROFTOOL" method --regex . "$S/$f.dump" >>out || return 1
	done &&
	awk "/^   / && match(\$0, /\\( *[0-9.]+%\\)/) {
		v = substr(\$0, RSTART + 1, RLENGTH - 3) + 0; if (v > 100) { print; bad = 1 } }
		END { exit bad }" out'

test_expect_success 'any format: a collapsed profile, once per stack' '
	printf "a;b;a;b 3\na;b 2\nc;b 1\n" >in &&
	"$PROFTOOL" method b in >out &&
	printf "1 c\n5 a\n" >expect && block callers out >actual && test_cmp expect actual &&
	printf "3 a\n" >expect && block callees out >actual && test_cmp expect actual &&
	grep -q "^  samples:     6 self (100.0%)  /      6 total (100.0%)$" out'

test_expect_success 'the pattern is a literal substring by default' '
	"$PROFTOOL" method "(garbage collection)" "$S/cpu-raw.dump" >out &&
	test "$(grep -c "^[^ ]" out)" = 1 &&
	test_expect_code 1 "$PROFTOOL" method "Workload#(ping" "$S/cpu-raw.dump" &&
	test_one_line_err "proftool: $S/cpu-raw.dump: no function matches '"'"'Workload#(ping'"'"'"'

test_expect_success '--regex takes a POSIX extended regex' '
	"$PROFTOOL" method --regex "^Workload#(ping|pong)\$" "$S/cpu-raw.dump" >out &&
	grep "^[^ ]" out >names &&
	printf "%s\n" "Workload#ping (/tmp/proftool-stackprof-src/workload.rb:38)" \
		"Workload#pong (/tmp/proftool-stackprof-src/workload.rb:44)" >expect &&
	test_cmp expect names'

test_expect_success 'a bad regex is a usage error' '
	test_expect_code 2 "$PROFTOOL" method --regex "(" "$S/cpu-raw.dump" &&
	test "$(wc -l <err)" = 1'

test_expect_success 'no source for GC and C functions: SOURCE UNAVAILABLE' '
	"$PROFTOOL" method "(garbage collection)" "$S/cpu-raw.dump" >out &&
	sed -n "/^  code/,\$p" out | sed -n 2p >actual &&
	echo "        SOURCE UNAVAILABLE" >expect && test_cmp expect actual &&
	"$PROFTOOL" method Integer#times "$S/cpu-raw.dump" >out &&
	tail -1 out >actual && test_cmp expect actual'

test_expect_success '--source-path finds a moved source tree by the tail of its path' '
	sed "s|/tmp/proftool-stackprof-src/|/nonexistent-proftool-dir/src/|g" \
		"$S/cpu-raw.json" >moved.json &&
	"$PROFTOOL" method Workload#fib moved.json >out &&
	sed -n "/^  code/,\$p" out | sed -n 2p >actual &&
	echo "        SOURCE UNAVAILABLE (use --source-path DIR)" >expect && test_cmp expect actual &&
	"$PROFTOOL" method --source-path "$SRC" Workload#fib moved.json >out &&
	grep -q "|    29  |   def fib(n)$" out &&
	"$PROFTOOL" method --source-path "/nonexistent:$S" Workload#fib moved.json >out &&
	grep -q "|    29  |   def fib(n)$" out'

test_expect_success '--format json: the stable interface' '
	"$PROFTOOL" method --format json Workload#hot_leaf "$S/cpu.dump" >out &&
	grep -q "^\[{\"name\":\"Workload#hot_leaf\",\"file\":\"/tmp/proftool-stackprof-src/workload.rb\",\"line\":18,\"self\":289,\"total\":289,\"per_occurrence\":true,\"lines_per_occurrence\":true,\"callers\":\[{" out &&
	grep -q "{\"name\":\"Workload#fib\",\"file\":\"/tmp/proftool-stackprof-src/workload.rb\",\"line\":29,\"value\":142}" out &&
	grep -q "\"callees\":\[\],\"lines\":\[{\"line\":19,\"self\":2,\"total\":2},{\"line\":21,\"self\":67,\"total\":67}," out'

test_expect_success '--format json: values in the chosen sample type' '
	"$PROFTOOL" method --format json --sample-index cpu Workload#fib "$S/cpu-raw.dump" >out &&
	grep -q "^\[{\"name\":\"Workload#fib\",\"file\":\"/tmp/proftool-stackprof-src/workload.rb\",\"line\":29,\"self\":18000,\"total\":161000,\"per_occurrence\":false," out'

test_expect_success 'method --help lists every option, and help method is the same' '
	help_with_shared method >out &&
	grep -q "^usage: proftool method \[OPTIONS\] PATTERN \[FILE...\]" out &&
	for o in --regex --source-path --format --output --sample-index --from; do
		grep -q -- "$o" out || { echo "$o missing"; return 1; }
	done &&
	"$PROFTOOL" method --help >out && "$PROFTOOL" help method >out2 && test_cmp out out2'

test_expect_success 'every option in method --help is accepted by the parser' '
	help_with_shared method | sed -n "s/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p" >opts &&
	test -s opts &&
	while read o; do
		case $o in help) continue;; esac
		"$PROFTOOL" method --$o 2>err >/dev/null </dev/null
		! grep -q "unknown option" err || { echo "--$o rejected"; exit 1; }
	done <opts'

test_expect_success 'top --style: stackprof and default; anything else is a usage error' '
	"$PROFTOOL" top --style default "$S/cpu.dump" >a && "$PROFTOOL" top "$S/cpu.dump" >b &&
	test_cmp a b &&
	test_expect_code 2 "$PROFTOOL" top --style fancy "$S/cpu.dump" &&
	test "$(wc -l <err)" = 1 && grep -q "unknown style" err'

test_expect_success 'top --style stackprof on a non-stackprof input: same layout' '
	printf "a;b 3\na;c 1\n" >in &&
	"$PROFTOOL" top --style stackprof in >actual &&
	printf "%s\n" "==================================" "  Mode: samples()" \
		"  Samples: 4 (0.00% miss rate)" "  GC: 0 (0.00%)" \
		"==================================" \
		"     TOTAL    (pct)     SAMPLES    (pct)     FRAME" \
		"         3  (75.0%)           3  (75.0%)     b" \
		"         1  (25.0%)           1  (25.0%)     c" \
		"         4 (100.0%)           0   (0.0%)     a" >expect &&
	test_cmp expect actual'

test_expect_success 'a missing PATTERN is a usage error' '
	test_expect_code 2 "$PROFTOOL" method'

# "LINE FLAT CUM" of every source line go tool pprof -list prints, read from its layout
list_lines () {
	sed -n 's/^ *\([0-9.]*[a-z]*\|\.\) *\([0-9.]*[a-z]*\|\.\) *\([0-9]*\):.*/\3 \1 \2/p' "$1" |
		sed 's/ \. / 0 /; s/ \.$/ 0/'
}

test_expect_success 'Go: the lines go tool pprof -list shows, context included, with its values' '
	list_lines "$REF/pprof/cpu.pprof-list.hotLeaf.txt" >expect &&
	test "$(wc -l <expect)" -ge 10 &&
	"$PROFTOOL" method --source-path "$SAMPLES/go/src" "main.hotLeaf" "$SAMPLES/go/cpu.pb.gz" >out &&
	sed -n "/^  code/,\$p" out | sed 1d |
		sed -E "s/^ *([0-9.]+[a-z]*) +\([^)]*\) \/ +([0-9.]+[a-z]*) +\([^)]*\) +\| +([0-9]+) +\|.*/\3 \2 \1/;
			s/^ *([0-9.]+[a-z]*) +\([^)]*\) +\| +([0-9]+) +\|.*/\2 0 \1/;
			s/^ +\| +([0-9]+) +\|.*/\1 0 0/" >actual &&
	test_cmp expect actual'

test_expect_success '--context N: lines past the last sampled one; a bad count is a usage error' '
	"$PROFTOOL" method --context 0 --source-path "$SAMPLES/go/src" "main.hotLeaf" "$SAMPLES/go/cpu.pb.gz" >out &&
	last=$(list_lines "$REF/pprof/cpu.pprof-list.hotLeaf.txt" | awk "\$2 != 0 || \$3 != 0 { l = \$1 } END { print l }") &&
	test "$(tail -1 out | sed -E "s/.*\| +([0-9]+) +\|.*/\1/")" = "$last" &&
	"$PROFTOOL" method --context 2 --source-path "$SAMPLES/go/src" "main.hotLeaf" "$SAMPLES/go/cpu.pb.gz" >out &&
	test "$(tail -1 out | sed -E "s/.*\| +([0-9]+) +\|.*/\1/")" = "$((last + 2))" &&
	test_expect_code 2 "$PROFTOOL" method --context x main "$SAMPLES/go/cpu.pb.gz" &&
	test_one_line_err "proftool: method: --context takes a count of lines, not '"'x'"' (see '"'proftool method --help'"')"'

test_expect_success 'a source file not found: SOURCE UNAVAILABLE names --source-path, the sampled lines follow' '
	"$PROFTOOL" method "main.hotLeaf" "$SAMPLES/go/cpu.pb.gz" >out &&
	sed -n "/^  code/,\$p" out | sed -n 2p >actual &&
	echo "        SOURCE UNAVAILABLE (use --source-path DIR)" >expect && test_cmp expect actual &&
	test "$(sed -n "/^  code/,\$p" out | grep -c "|    [0-9]*  | \$")" = \
		"$(list_lines "$REF/pprof/cpu.pprof-list.hotLeaf.txt" | awk "\$2 != 0 || \$3 != 0" | wc -l)"'

test_done
