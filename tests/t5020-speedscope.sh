#!/bin/sh
test_description='speedscope writer, checked against speedscope'"'"'s schema and in the real app'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
EDGE=$BUILDDIR/tests/writers-edge
CHECK=$SRCDIR/tests/viewers/check.js

plain_build_judges 'speedscope opens our files'
if ! command -v node >/dev/null 2>&1 || ! test -d "$MODS/speedscope" ||
	! test -d "$MODS/ajv" || ! test -d "$MODS/playwright-core"; then
	test_skip 'speedscope opens our files' 'node or the npm packages missing (run tests/viewers/setup.sh)'
	test_done
	exit
fi
have_chromium=
test -x "${CHROMIUM:-/usr/bin/chromium}" && have_chromium=1

# speedscope's schema and our index checks, then (with Chromium) the real app
check () {
	if test -n "$have_chromium"; then
		node "$CHECK" speedscope "$@" >check.out 2>&1 || { cat check.out; return 1; }
		test "$(grep -c ": loaded: " check.out)" = $#
	else
		SPEEDSCOPE_NO_APP=1 node "$CHECK" speedscope "$@"
	fi
}

# the samples as collapsed lines, summed per stack (an independent reading of the JSON)
as_collapsed () {
	node "$CHECK" ssdump "$1" |
		awk -F "	" -v p="$2" 'p == "" || $1 == p { s[$3] += $4 } END { for (k in s) print k, s[k] }' |
		LC_ALL=C sort
}

test_expect_success 'real samples: valid, and speedscope loads them' '
	"$PROFTOOL" convert --to speedscope "$C/perfdemo-g.collapsed" >g.json &&
	"$PROFTOOL" convert --to speedscope "$D/recursion.collapsed" >rec.json &&
	"$PROFTOOL" convert --to speedscope --sample-index all "$C/perfdemo-g-vs-dwarf.diff.collapsed" >diff.json &&
	check g.json rec.json diff.json'

test_expect_success 'aggregated: every stack with its count, as in the input' '
	"$PROFTOOL" convert --to speedscope "$C/perfdemo-g.collapsed" >g.json &&
	as_collapsed g.json >actual &&
	LC_ALL=C sort "$C/perfdemo-g.collapsed" >expect &&
	test_cmp expect actual'

test_expect_success 'one profile per sample type with --sample-index all' '
	"$PROFTOOL" convert --to speedscope --sample-index all "$C/perfdemo-g-vs-dwarf.diff.collapsed" >diff.json &&
	node "$CHECK" ssdump diff.json | cut -f1 | sort -u >actual &&
	printf "base\nnew\n" >expect && test_cmp expect actual &&
	as_collapsed diff.json base | awk "{ s += \$NF } END { print s }" >actual &&
	awk "{ s += \$(NF-1) } END { print s }" "$C/perfdemo-g-vs-dwarf.diff.collapsed" >expect &&
	test_cmp expect actual'

test_expect_success 'the shared frame table has no duplicates' '
	"$PROFTOOL" convert --to speedscope "$C/perfdemo-g.collapsed" >g.json &&
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"g.json\", \"utf8\"));
		const k = d.shared.frames.map((f) => JSON.stringify([f.name, f.file, f.line, f.col]));
		if (new Set(k).size !== k.length) process.exit(1);
		if (k.length !== 78) { console.log(k.length); process.exit(1); }"'

test_expect_success 'threads: one profile per thread, units named, in time order' '
	"$EDGE" threads speedscope all >thr.json &&
	check thr.json &&
	node "$CHECK" ssdump thr.json >dump &&
	cut -f1,2 dump | uniq >actual &&
	cat >expect <<-\EOF &&
	server pid 100 - samples	none
	server pid 100 - cpu	nanoseconds
	server pid 100 tid 101 - samples	none
	server pid 100 tid 101 - cpu	nanoseconds
	worker x pid 200 - samples	none
	worker x pid 200 - cpu	nanoseconds
	EOF
	test_cmp expect actual &&
	awk "BEGIN { for (i = 0; i < 60; i++) {
		t = int(i / 7) % 3; m = i % 4
		s = m == 0 ? \"main;handle;parse\" : m == 1 ? \"main;Interp::run;LFoo;.bar\" : m == 2 ? \"main;write;sys_write\" : \"main;write;sys_write;copy_user\"
		name = t == 0 ? \"server pid 100\" : t == 1 ? \"server pid 100 tid 101\" : \"worker x pid 200\"
		print name \" - cpu\t\" s \"\t\" (1000000 + (i % 3) * 250000) } }" |
		sort -s -t "	" -k1,1 >expect &&
	grep " - cpu	" dump | cut -f1,3,4 >actual &&
	test_cmp expect actual'

test_expect_success 'the default sample type alone without --sample-index all' '
	"$EDGE" threads speedscope >thr.json &&
	node "$CHECK" ssdump thr.json | cut -f1 | uniq >actual &&
	printf "server pid 100\nserver pid 100 tid 101\nworker x pid 200\n" >expect &&
	test_cmp expect actual'

for c in empty single names deep deeprec diff; do
	test_expect_success "awkward profile '$c': valid, speedscope loads it" '
		"$EDGE" $c speedscope >out.json && check out.json'
done

test_expect_success 'stacks deeper than 2000 keep 1000 root and 999 leaf frames around a marker' '
	"$EDGE" deep speedscope >out.json &&
	node "$CHECK" ssdump out.json >dump &&
	awk -F "	" "{ n = split(\$3, f, \";\"); print n, f[1], f[1000], f[1001], f[1002], f[n], \$4 }" dump >actual &&
	cat >expect <<-\EOF &&
	2000 f0 f999 (frames elided: stack deeper than 2000) f9001 f9999 5
	2000 f0 f999 (frames elided: stack deeper than 2000) f4001 f4999 2
	EOF
	test_cmp expect actual'

test_expect_success 'awkward names arrive unchanged where they were valid UTF-8' '
	"$EDGE" names speedscope >out.json &&
	node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"out.json\", \"utf8\"));
		const n = new Set(d.shared.frames.map((f) => f.name));
		for (const w of [\"semi;colon\", \"line one\nline two\r\n\", \"<&> &amp; a<b>c\",
			\"frame 12 34\", \"trailing space \", \"say \\\"hi\\\" '"'"'there'"'"' \`now\`\",
			\"bad utf8 \ufffd\ufffd\ufffd\"])
			if (!n.has(w)) { console.log(\"missing: \" + JSON.stringify(w)); process.exit(1); }"'

test_expect_success 'the checker catches what the schema lets through (bad index)' '
	cat >bad.json <<-\EOF &&
	{"$schema":"https://www.speedscope.app/file-format-schema.json","name":"x","shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","name":"p","unit":"none","startValue":0,"endValue":1,"samples":[[0,5]],"weights":[1]}]}
	EOF
	! node "$CHECK" speedscope bad.json >out &&
	grep -q "frame index 5 of 1" out'

if test -n "$have_chromium"; then
	test_expect_success 'the app half alone catches a file speedscope cannot open' '
		cat >bad.json <<-\EOF &&
		{"$schema":"https://www.speedscope.app/file-format-schema.json","name":"x","shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","name":"p","unit":"none","startValue":0,"endValue":1,"samples":[[0,5]],"weights":[1]}]}
		EOF
		! SPEEDSCOPE_APP_ONLY=1 node "$CHECK" speedscope bad.json >out &&
		grep -q "Something went wrong" out'
else
	test_skip 'speedscope app in headless Chromium' 'chromium not installed'
fi

test_expect_success '-o FILE.speedscope.json picks the speedscope writer' '
	"$PROFTOOL" convert -o out.speedscope.json "$D/recursion.collapsed" &&
	grep -q "^{\"\$schema\":\"https://www.speedscope.app/file-format-schema.json\"" out.speedscope.json'

test_done
