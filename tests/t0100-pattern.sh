#!/bin/sh
test_description='patterns: RE2 syntax, what POSIX ERE users typed, and a bounded cost'
. "$(dirname "$0")/lib.sh"

# Expected totals come from other regex engines over the same frames: Python's re (its
# syntax holds the RE2 forms used here) and grep -E (POSIX ERE).
cat >"$TRASH/f.folded" <<'EOF'
main;func1;leaf 1
main;funcd;leaf 2
main;Foo_bar 4
main;func22 8
main;other 16
EOF

# the total of the stacks with a frame that python's re.search finds RE in
py_total () {
	python3 -c '
import re, sys
rx = re.compile(sys.argv[1])
t = 0
for line in open(sys.argv[2]):
    stack, n = line.rsplit(" ", 1)
    if any(rx.search(f) for f in stack.split(";")):
        t += int(n)
print(t)' "$1" "$2"
}

# the same with grep -E deciding for each distinct frame
ere_total () {
	tr ';' '\n' <"$2" | sed 's/ [0-9]*$//' | sort -u | grep -E -- "$1" >hits || :
	awk 'NR == FNR { hit[$0] = 1; next }
	     { n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
	       for (i = 1; i <= k; i++) if (f[i] in hit) { t += n; break } }
	     END { print t + 0 }' hits "$2"
}

# the Total line of top after --focus
focus_total () {
	"$PROFTOOL" top --focus "$1" "$2" | sed -n 's/^Total: //p'
}

# Each crafted case runs with at most 5 s of CPU and, where the build allows a bound on
# address space (not under ASan or valgrind), 256 MiB: a case past them is killed and
# fails, whatever the machine's speed.
bounded () {
	if test "$PT_BUILD" = plain; then
		(ulimit -t 5 && ulimit -v 262144 && "$@")
	else
		(ulimit -t 30 && "$@")
	fi
}

test_expect_success 'RE2 classes: func\d keeps func1 and func22, not funcd' '
	test "$(py_total "func\\d" "$TRASH/f.folded")" = 9 &&
	test "$(focus_total "func\\d" "$TRASH/f.folded")" = 9 &&
	test "$(py_total "\\w+_\\w+" "$TRASH/f.folded")" = 4 &&
	test "$(focus_total "\\w+_\\w+" "$TRASH/f.folded")" = 4'

test_expect_success '(?i) is accepted and matches either case' '
	test "$(py_total "(?i)foo" "$TRASH/f.folded")" = 4 &&
	test "$(focus_total "(?i)foo" "$TRASH/f.folded")" = 4 &&
	test "$(focus_total "(?i:FUNC)1" "$TRASH/f.folded")" = 1'

test_expect_success 'lazy repeats and non-capturing groups (RE2), as python reads them' '
	for re in "f.*?1" "(?:func|Foo)_?\\w" "^func[0-9]{2}\$" "le(?:af)\$"; do
		test "$(focus_total "$re" "$TRASH/f.folded")" = "$(py_total "$re" "$TRASH/f.folded")" ||
			{ echo "differs: $re"; return 1; }
	done'

test_expect_success 'POSIX ERE as users typed it: the totals grep -E gives' '
	for re in "^func[[:digit:]]+\$" "(Foo|other)" "func[0-9]{2}" "[[:upper:]]" "^ma.n\$" "d\$|^l"; do
		test "$(focus_total "$re" "$TRASH/f.folded")" = "$(ere_total "$re" "$TRASH/f.folded")" ||
			{ echo "differs: $re"; return 1; }
	done'

test_expect_success '--ignore, --hide and --show take the same syntax' '
	"$PROFTOOL" top --ignore "func\\d" "$TRASH/f.folded" | grep -qx "Total: 22" &&
	"$PROFTOOL" top --format csv -n 0 --hide "^func\\d+\$" "$TRASH/f.folded" >csv &&
	! grep -q "^\"func[0-9]" csv && grep -q "^\"funcd\"" csv &&
	"$PROFTOOL" top --format csv -n 0 --show "(?i)^(main|foo)" "$TRASH/f.folded" >csv &&
	test "$(cut -d, -f1 csv | sed 1d | sort | tr "\n" " ")" = "\"Foo_bar\" \"main\" "'

test_expect_success 'tree and method --regex take the same syntax' '
	"$PROFTOOL" tree --format json "func\\d" "$TRASH/f.folded" >t.json &&
	test "$(jq -r "[.nodes[].name] | sort | join(\",\")" t.json)" = "func1,func22" &&
	"$PROFTOOL" method --regex --format json "func\\d+\$" "$TRASH/f.folded" >m.json &&
	test "$(jq -r "[.[].name] | sort | join(\",\")" m.json)" = "func1,func22"'

test_expect_success 'merge --label-from-path: a group in RE2 syntax' '
	mkdir -p web-12 web-x &&
	cp "$TRASH/f.folded" web-12/cpu.folded && cp "$TRASH/f.folded" web-x/cpu.folded &&
	"$PROFTOOL" merge -o m.pb.gz --label-from-path "host=web-(\\d+)/" \
		web-12/cpu.folded web-x/cpu.folded &&
	"$PROFTOOL" top --tag host=12 m.pb.gz | grep -qx "Total: 31" &&
	"$PROFTOOL" top m.pb.gz | grep -qx "Total: 62"'

test_expect_success 'a bad pattern: one line naming it and what is wrong, status 2' '
	test_expect_code 2 "$PROFTOOL" top --focus "func(" "$TRASH/f.folded" &&
	test_one_line_err "proftool: top: bad regular expression '"'"'func('"'"' for --focus: missing closing parenthesis at offset 5 (see '"'"'proftool top --help'"'"')" &&
	test_expect_code 2 "$PROFTOOL" top --focus "(a)\\1" "$TRASH/f.folded" &&
	test_one_line_err "proftool: top: bad regular expression '"'"'(a)\\1'"'"' for --focus: backreferences are not supported (see '"'"'proftool top --help'"'"')"'

# --- cost (issue #38) ---

test_expect_success 'a{1,1000}{1,100} and a{1,1000}{1,1000}: refused at once, in one line' '
	for re in "a{1,1000}{1,100}" "a{1,1000}{1,1000}"; do
		test_expect_code 2 bounded "$PROFTOOL" top --focus "$re" "$TRASH/f.folded" &&
		test_one_line_err "proftool: top: bad regular expression '"'"'$re'"'"' for --focus: quantifier does not follow a repeatable item at offset $((${#re} - 1)) (see '"'"'proftool top --help'"'"')" ||
			return 1
	done'

test_expect_success 'nested counted repeats past the compiled-size limit: refused in one line' '
	re="((((a{1,100}){1,100}){1,100}){1,100})" &&
	test_expect_code 2 bounded "$PROFTOOL" top --focus "$re" "$TRASH/f.folded" &&
	test_one_line_err "proftool: top: bad regular expression '"'"'$re'"'"' for --focus: regular expression is too large at offset 37 (see '"'"'proftool top --help'"'"')"'

# one name of 160,000 bytes: POSIX regexec took 19 s and more here (quadratic)
python3 -c 'print("main;" + "a" * 160000 + " 1"); print("main;x 2")' >"$TRASH/long.folded"

test_expect_success 'a 160 KB name against a.*b: the right answer, within the bounds' '
	bounded "$PROFTOOL" top --format csv --focus "a.*b" "$TRASH/long.folded" >out &&
	test "$(py_total "a.*b" "$TRASH/long.folded")" = 0 &&
	test "$(wc -l <out)" = 1 &&
	bounded "$PROFTOOL" top --focus "^a+\$" "$TRASH/long.folded" | grep -qx "Total: 1"'

test_expect_success 'a 160 KB name against a.*\d: refused in one line, within the bounds' '
	test_expect_code 1 bounded "$PROFTOOL" top --focus "a.*\\d" "$TRASH/long.folded" &&
	steps=$((1000 + 160001 * (16 + 5))) &&
	test_one_line_err "proftool: $TRASH/long.folded: pattern '"'"'a.*\\d'"'"': too costly to match (over $steps steps on 160000 bytes)"'

test_expect_success 'exponential backtracking on a short name: refused in one line' '
	printf "main;%s 1\n" aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa >exp.folded &&
	test_expect_code 1 bounded "$PROFTOOL" top --hide "(a|a)*\\d" exp.folded &&
	steps=$((1000 + 41 * (16 + 8))) &&
	test_one_line_err "proftool: exp.folded: pattern '"'"'(a|a)*\\d'"'"': too costly to match (over $steps steps on 40 bytes)"'

test_expect_success 'tree, method and merge refuse a costly match the same way' '
	test_expect_code 1 bounded "$PROFTOOL" tree "a.*\\d" "$TRASH/long.folded" &&
	grep -q "pattern '"'"'a.\\*\\\\d'"'"': too costly to match" err &&
	test "$(wc -l <err)" = 1 &&
	test_expect_code 1 bounded "$PROFTOOL" method --regex "a.*\\d" "$TRASH/long.folded" &&
	grep -q "too costly to match" err && test "$(wc -l <err)" = 1 &&
	d=$(printf "%0200d" 0 | tr 0 a) && mkdir -p "$d" && cp "$TRASH/f.folded" "$d/cpu.folded" &&
	test_expect_code 1 bounded "$PROFTOOL" merge -o m.pb.gz --label-from-path "k=(a|a)*\\d" "$d/cpu.folded" &&
	grep -q "^proftool: pattern '"'"'(a|a)\\*\\\\d'"'"': too costly to match (over [0-9]* steps on [0-9]* bytes)\$" err &&
	test "$(wc -l <err)" = 1'

test_expect_success 'heap --retainers takes the same patterns: \w and anchors, and a bad one in one line' '
	H="$SAMPLES/node/shapes-1.heapsnapshot.gz" &&
	"$PROFTOOL" heap --format csv -n 0 "$H" | python3 -c "import csv, re, sys
rows = list(csv.reader(sys.stdin))[1:]
print(sum(1 for r in rows if re.search(r\"^Sha\\w+\$\", r[0])))" >want &&
	test "$(cat want)" -ge 1 &&
	"$PROFTOOL" heap --retainers "^Sha\w+\$" -n 1 "$H" >out &&
	head -1 out | grep -q "^Sha[A-Za-z]* @" &&
	test_expect_code 2 "$PROFTOOL" heap --retainers "x(" "$H" &&
	test_one_line_err "proftool: heap: bad regular expression '"'"'x('"'"' for --retainers: missing closing parenthesis at offset 2 (see '"'"'proftool heap --help'"'"')"'

test_done
