#!/bin/sh
test_description='inputs that once gave a wrong answer with exit 0 (issue 38)'
. "$(dirname "$0")/lib.sh"

bom () {
	printf '\357\273\277'
}

test_expect_success 'a UTF-8 BOM before a goroutine dump: both goroutines are read' '
	{ bom; printf "goroutine 1 [running]:\nmain.main()\n\t/x/main.go:10 +0x1d\n\n"
	  printf "goroutine 2 [chan receive]:\nmain.worker()\n\t/x/main.go:20 +0x2e\n\n"; } >g.txt &&
	"$PROFTOOL" goroutines g.txt >out &&
	grep -qx "2 goroutines in 2 groups" out'

test_expect_success 'a UTF-8 BOM before collapsed stacks is not part of the first name' '
	{ bom; printf "main;a 1\nmain;b 2\n"; } >bom.collapsed &&
	printf "main;a 1\nmain;b 2\n" >plain.collapsed &&
	"$PROFTOOL" convert --to collapsed bom.collapsed >got &&
	"$PROFTOOL" convert --to collapsed plain.collapsed >want &&
	test_cmp want got &&
	"$PROFTOOL" top -n 1 --cum --format csv bom.collapsed >csv &&
	grep -qx "\"main\",\"\",0,0,0.0000,3,100.0000" csv'

test_expect_success 'a UTF-8 BOM before perf script text, plain and gzipped' '
	{ bom; cat "$SAMPLES/perf/perfdemo-g.txt"; } >bom.txt &&
	gzip -c bom.txt >bom.txt.gz &&
	"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/perfdemo-g.txt" >want &&
	"$PROFTOOL" convert --to collapsed bom.txt >got &&
	test_cmp want got &&
	"$PROFTOOL" convert --to collapsed bom.txt.gz >gotgz &&
	test_cmp want gotgz'

test_expect_success 'a BOM only at the start is skipped: one later stays in its name' '
	{ printf "main;a 1\n"; bom; printf "main;a 2\n"; } >mid.collapsed &&
	"$PROFTOOL" top -n 0 --format csv mid.collapsed >csv &&
	test "$(grep -c "^\"main\"" csv)" = 1 &&
	test "$(grep -c "main\"" csv)" = 2'

test_expect_success 'binary inputs are read as they were (pprof, gzipped and not)' '
	"$PROFTOOL" info "$SAMPLES/go/cpu.pb" >a &&
	"$PROFTOOL" info "$SAMPLES/go/cpu.pb.gz" >b &&
	grep -q "samples" a && sed 1d a >a1 && sed 1d b >b1 && test_cmp a1 b1'

test_expect_success 'UTF-16 text is refused in one line that says so, whatever its order' '
	printf "\377\376m\000a\000i\000n\000 \0001\000\n\000" >le.txt &&
	test_expect_code 1 "$PROFTOOL" top le.txt &&
	test_one_line_err "proftool: le.txt: byte 0: UTF-16 text (byte-order mark FF FE): convert it to UTF-8" &&
	printf "\376\377\000m\000a\000i\000n\000 \0001\000\n" | gzip -c >be.txt.gz &&
	test_expect_code 1 "$PROFTOOL" top be.txt.gz &&
	test_one_line_err "proftool: be.txt.gz: byte 0: UTF-16 text (byte-order mark FE FF): convert it to UTF-8"'

max=9223372036854775807

test_expect_success 'counts that sum past int64 are refused at their line, read or folded' '
	printf "a;b $max\na;b $max\n" >two.collapsed &&
	for c in top "top --style pprof" "convert --to collapsed" info; do
		test_expect_code 1 "$PROFTOOL" $c two.collapsed &&
		test_one_line_err "proftool: two.collapsed:2: the values of type '"'samples'"' sum past $max" || exit 1
	done'

test_expect_success 'perf periods that sum past int64: refused at the record that overflows' '
	printf "p 1 1.000001: $max cycles:\n\t1 a (x)\n\np 1 1.000002: 1 cycles:\n\t1 b (x)\n\n" >p.txt &&
	test_expect_code 1 "$PROFTOOL" top p.txt &&
	test_one_line_err "proftool: p.txt:6: the values of type '"'cycles'"' sum past $max"'

test_expect_success 'under --lenient what fits is kept, with one warning' '
	printf "a;b $max\na;c 1\nx;b 2\n" >three.collapsed &&
	"$PROFTOOL" top --lenient --format csv three.collapsed >out 2>err &&
	test_one_line_err "proftool: three.collapsed:2: warning: 2 records left out: the values of type '"'samples'"' would sum past $max (the first here)" &&
	printf "name,file,line,flat,flat_pct,cum,cum_pct\n\"b\",\"\",0,$max,100.0000,$max,100.0000\n\"a\",\"\",0,0,0.0000,$max,100.0000\n" >want &&
	test_cmp want out'

# a stackprof dump recorded without raw: true is a table of counts, not stacks: its
# frames' samples, and the dump's samples times the interval, are checked as they are
# scaled and summed (half of 2^63 twice passes int64)
half=4611686018427387904
spframe () {
	printf '"%s":{"name":"%s","file":"x.rb","line":%s,"total_samples":%s,"samples":%s}' "$1" "$2" "$1" "$3" "$3"
}
test_expect_success 'a stackprof table whose frames sum past int64: refused at the frame, kept in part under --lenient' '
	{ printf "{\"version\":1.2,\"mode\":\"cpu\",\"interval\":1,\"frames\":{"
	  spframe 1 a $half; printf ,; spframe 2 b $half; printf ,; spframe 3 c 5; printf "}}"; } >sp.json &&
	off=$(($(grep -bo "\"2\":" sp.json | cut -d: -f1) + 3)) && # the end of the key "2"
	for c in top "top --style stackprof" info "convert --to pprof"; do
		test_expect_code 1 "$PROFTOOL" $c sp.json &&
		test_one_line_err "proftool: sp.json: byte $off: the values of type '"'samples'"' sum past $max" || exit 1
	done &&
	"$PROFTOOL" top --lenient --format csv sp.json >out 2>err &&
	test_one_line_err "proftool: sp.json: byte $off: warning: 1 record left out: the values of type '"'samples'"' would sum past $max (the first here)" &&
	awk -F, -v h=$half "NR > 1 { n++; s += \$4 } \$1 == \"\\\"a\\\"\" && \$4 == h { a = 1 } \$1 == \"\\\"c\\\"\" && \$4 == 5 { c = 1 }
		END { exit !(n == 2 && a && c) }" out'

test_expect_success 'a stackprof table whose samples times the interval pass int64 is refused' '
	{ printf "{\"version\":1.2,\"mode\":\"wall\",\"interval\":1000,\"samples\":$max,\"frames\":{"
	  spframe 1 a 3; printf "}}"; } >wall.json &&
	test_expect_code 1 "$PROFTOOL" top wall.json &&
	test_one_line_err "proftool: wall.json: the values of type '"'wall'"' sum past $max"'

test_expect_success 'merging inputs whose sums together pass int64 is refused' '
	printf "a;b $max\n" >one.collapsed &&
	test_expect_code 1 "$PROFTOOL" top one.collapsed one.collapsed &&
	test_one_line_err "proftool: one.collapsed: the values of type '"'samples'"' sum past $max"'

test_expect_success 'pprof names that differ after a NUL byte stay two functions' '
	python3 "$SRCDIR/tests/crafted.py" pprof-nul 2 >nul.pb &&
	"$PROFTOOL" top nul.pb >out &&
	grep -qx "Showing 2 of 2 functions, sorted by flat" out &&
	tail -n 2 out | sed "s/.*  //" >names &&
	printf "f?2\nf?1\n" >want && test_cmp want names &&
	"$PROFTOOL" top --style pprof nul.pb >pp &&
	tail -n 2 pp | sed "s/.*  //" >names && test_cmp want names &&
	"$PROFTOOL" convert --to collapsed nul.pb >got &&
	printf "f?1 1\nf?2 2\n" >want && test_cmp want got'

test_expect_success 'a NUL byte in a name survives the pprof writer and the JSON reports' '
	python3 "$SRCDIR/tests/crafted.py" pprof-nul 2 >nul.pb &&
	"$PROFTOOL" convert --to pprof --no-gzip -o back.pb nul.pb &&
	"$PROFTOOL" top --format csv back.pb | tr "\000" "@" >csv &&
	grep -qx "\"f@2\",\"\",0,2,66.6667,2,66.6667" csv &&
	grep -qx "\"f@1\",\"\",0,1,33.3333,1,33.3333" csv &&
	"$PROFTOOL" top --format json nul.pb >json &&
	grep -q "\"name\":\"f\\\\u00002\"" json'

test_expect_success 'a goroutine function line without its file:line line: one warning' '
	printf "goroutine 1 [running]:\nmain.main()\n\t/x/main.go:10 +0x1d\nmain.a()\nmain.b()\n\t/x/b.go:3\n\ngoroutine 2 [running]:\nmain.c()\n\n" >g.txt &&
	"$PROFTOOL" goroutines g.txt >out 2>err &&
	test_one_line_err "proftool: g.txt:4: warning: 2 function lines without the '"'file:line'"' line after them (the first here): kept without a file" &&
	grep -qx "2 goroutines in 2 groups" out &&
	"$PROFTOOL" goroutines "$SAMPLES/go/goroutine.debug2.txt" >out 2>err && test ! -s err'

# what go tool pprof -top (go1.19.8) prints for the same file, "Main binary filename
# not available." on its stderr aside
test_expect_success 'unsymbolized pprof locations: one <unknown> row under --style pprof' '
	python3 "$SRCDIR/tests/crafted.py" pprof-nosym 3 >nosym.pb &&
	"$PROFTOOL" top --style pprof nosym.pb >out &&
	cat >want <<-\EOT &&
	Type: samples
	Showing nodes accounting for 6, 100% of 6 total
	      flat  flat%   sum%        cum   cum%
	         6   100%   100%          6   100%  <unknown>
	         0     0%   100%          6   100%  main
	EOT
	test_cmp want out &&
	"$PROFTOOL" top --style pprof --granularity addresses nosym.pb >out &&
	tail -n 4 out >got &&
	cat >want <<-\EOT &&
	         3 50.00% 50.00%          3 50.00%  0000000000403000 <unknown>
	         2 33.33% 83.33%          2 33.33%  0000000000402000 <unknown>
	         1 16.67%   100%          1 16.67%  0000000000401000 <unknown>
	         0     0%   100%          6   100%  main
	EOT
	test_cmp want got'

test_expect_success 'a gzip bomb stops early by default, in one line; an explicit size reads it' '
	yes "a;b 1" | head -c 100000000 | gzip -9 -c >bomb.gz &&
	test_expect_code 1 "$PROFTOOL" top bomb.gz &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^proftool: bomb.gz: byte [0-9]*: gzip data expands more than 250 times past 64 MiB (a bomb?); an explicit --max-input-size reads it$" err &&
	"$PROFTOOL" top --max-input-size 200M bomb.gz >out 2>/dev/null &&
	grep -qx "Total: 16666666" out'

# go tool pprof's reports byte for byte, its "Active filters:" lines too
test_expect_success 'top --style pprof --hide: stacks left without a frame stay in the total' '
	"$PROFTOOL" top --style pprof --hide main "$SAMPLES/go/cpu.pb.gz" >actual &&
	test_cmp "$REF/pprof/cpu.pprof-top.hide-main.txt" actual &&
	grep -qx "Showing nodes accounting for 1.53s, 80.10% of 1.91s total" actual'

for g in functions lines files addresses; do
	case $g in functions) ref=cpu.pprof-top.show-hotLeaf.txt ;; *) ref=cpu.pprof-top.$g.show-hotLeaf.txt ;; esac
	test_expect_success "top --style pprof --show at $g granularity: the total of every sample" '
		"$PROFTOOL" top --style pprof --granularity '$g' --show hotLeaf "$SAMPLES/go/cpu.pb.gz" >actual &&
		test_cmp "$REF/pprof/'$ref'" actual'
done

test_done
