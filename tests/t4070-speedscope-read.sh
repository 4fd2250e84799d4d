#!/bin/sh
test_description='speedscope reader: sampled and evented profiles, units, threads, round trip'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data
E=$D/evented.speedscope.json

# What speedscope cannot carry is taken out of both sides (man proftool, "speedscope"):
# the type's name, inline marks, a function's start line, and so the count of functions
# that then print alike (stackprof's two <main>: the same row twice).
norm_top () {
	grep -v -e '^Type:' -e '^Showing' |
		sed -e 's/ (\(partial-\)\{0,1\}inline)$//' -e 's/ (\([^()]*\):[0-9]*)$/ (\1)/' |
		awk '!seen[$0]++'
}

test_expect_success 'detected as speedscope, one type per unit kind' '
	"$PROFTOOL" info "$E" >out &&
	grep -qx "Format: speedscope" out &&
	grep -q "0: time \[nanoseconds\] total 13750000 (13.75ms) (default)" out &&
	grep -q "1: space \[bytes\] total 96 (96B)" out'

test_expect_success 'evented: the time between events goes to the open stack' '
	"$PROFTOOL" convert --to collapsed --thread ui --sample-index time "$E" >actual &&
	cat >expect <<-\EOF &&
	main 2000000
	main;parse 3500000
	main;parse;read 1500000
	main;read 2000000
	main;read;read 1000000
	EOF
	test_cmp expect actual'

test_expect_success 'sampled: weights in microseconds read as nanoseconds, per thread' '
	"$PROFTOOL" convert --to collapsed --thread worker --sample-index time "$E" >actual &&
	printf "main;parse 2000000\nmain;parse;read 1500000\n" >expect &&
	test_cmp expect actual &&
	"$PROFTOOL" convert --to collapsed --thread heap --sample-index space "$E" >actual &&
	printf "main;parse;read 32\nmain;read 64\n" >expect &&
	test_cmp expect actual'

test_expect_success 'an empty sample counts on the root: in the total, under no function' '
	"$PROFTOOL" top --thread worker "$E" >out &&
	grep -qx "Total: 3.75ms" out &&
	grep -q "  3.50ms 93.33%  main (app.c)$" out'

test_expect_success 'frames keep their file and line' '
	"$PROFTOOL" convert --to speedscope "$E" >out.json &&
	grep -q "{\"name\":\"parse\",\"file\":\"app.c\",\"line\":20,\"col\":5}" out.json'

test_expect_success 'decimal weights without a unit keep their decimals' '
	printf "{\"\$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\",\"startValue\":0,\"endValue\":2,\"samples\":[[0],[0,1]],\"weights\":[0.25,1.5e0]}]}" >dec.json &&
	"$PROFTOOL" convert --to collapsed dec.json >actual &&
	printf "a 0.25\na;b 1.50\n" >expect &&
	test_cmp expect actual'

test_expect_success 'frames after the profiles are fine' '
	printf "{\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"seconds\",\"samples\":[[1,0]],\"weights\":[2]}],\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}" >late.json &&
	"$PROFTOOL" convert --from speedscope --to collapsed late.json >actual &&
	echo "b;a 2000000000" >expect &&
	test_cmp expect actual'

# every sample that converts: the same top (less what the format cannot carry) and the
# same collapsed stacks. speedscope has no function start line: two functions of one
# name, file and column that differ only by it come back as one. Firefox's JS has such
# pairs (asyncLoadModule at lines 1721 and 1963 of one module, both column 18), so the
# Gecko sample's table is held to its stacks only.
test_expect_success 'round trip: every sample reads back with the same top and stacks' '
	n=0 &&
	for f in $(find "$SAMPLES" -type f ! -name "*.sh" ! -name README ! -path "$SAMPLES/*/src/*" | sort); do
		"$PROFTOOL" convert --to speedscope -o rt.speedscope.json "$f" 2>/dev/null || continue
		n=$((n + 1))
		case $f in
		*/gecko/*) ;;
		*)
			"$PROFTOOL" top -n 0 "$f" | norm_top >expect &&
			"$PROFTOOL" top -n 0 rt.speedscope.json | norm_top >actual &&
			# top of a goroutine dump leaves out the `created by` frames, as pprof
			# debug=0 profile of the same moment has none; convert keeps them as
			# frames, so read back they are rows of flat 0 (the stacks below still
			# compare whole)
			if "$PROFTOOL" info "$f" 2>/dev/null | grep -q "^Format: *goroutine"; then
				grep -v "  created by " actual >kept && mv kept actual
			fi &&
			test_cmp expect actual || { echo "top of $f differs"; exit 1; } ;;
		esac &&
		# speedscope keeps time in nanoseconds when read: a profile whose default
		# type is in microseconds (a .cpuprofile with times) reads back 1000 times
		# larger in that base unit, the same time
		if "$PROFTOOL" info "$f" 2>/dev/null | grep -q "\[microseconds\] .*(default)\$"; then
			"$PROFTOOL" convert --to collapsed "$f" |
				awk "{ n = \$NF * 1000; sub(/[0-9]+\$/, n); print }" | sort >expect
		else
			"$PROFTOOL" convert --to collapsed "$f" | sort >expect
		fi &&
		"$PROFTOOL" convert --to collapsed rt.speedscope.json | sort >actual &&
		test_cmp expect actual || { echo "round trip of $f differs"; exit 1; }
	done &&
	test $n -ge 50 || { echo "only $n samples converted"; exit 1; }'

test_expect_success 'round trip keeps threads: a perf sample per thread' '
	"$PROFTOOL" convert --to speedscope -o t.speedscope.json "$SAMPLES/perf/perfdemo-pidtid.txt" &&
	"$PROFTOOL" convert --to speedscope t.speedscope.json >again.json &&
	node -e "
		const a = JSON.parse(require(\"fs\").readFileSync(\"t.speedscope.json\", \"utf8\"));
		const b = JSON.parse(require(\"fs\").readFileSync(\"again.json\", \"utf8\"));
		const names = (d) => d.profiles.map((p) => p.name).join(\"|\");
		if (names(a) !== names(b) || a.profiles.length < 2) { console.log(names(a), names(b)); process.exit(1); }" 2>/dev/null ||
	! command -v node >/dev/null'

test_expect_success 'no other format claims a speedscope file, nor speedscope theirs' '
	for f in "$SAMPLES"/*/*.json "$SAMPLES"/*/*.cpuprofile "$SAMPLES"/*/*.heapprofile; do
		"$PROFTOOL" info "$f" >out 2>&1 || continue
		! grep -qx "Format: speedscope" out || { echo "$f"; exit 1; }
	done'

test_done
