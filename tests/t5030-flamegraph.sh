#!/bin/sh
test_description='flame graph SVG: valid XML, right widths, and drawn by headless Chromium'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
EDGE=$BUILDDIR/tests/writers-edge
CHECK=$SRCDIR/tests/viewers/check.js

# "depth name value" of every frame (names here hold no quote, '<' or '&')
frames () {
	sed -n 's/^<g class="frame" data-name="\([^"]*\)" data-x="[^"]*" data-w="[^"]*" data-depth="\([0-9]*\)"><title>[^<]* (\([0-9]*\), .*/\2 \1 \3/p' "$1" |
		LC_ALL=C sort
}

# the same from the collapsed lines: every prefix of every stack, summed
awk_frames () {
	awk '{ count = $NF; stack = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", stack)
		n = split(stack, f, ";"); key = ""
		for (i = 1; i <= n; i++) { key = key ";" f[i]; v[key] += count; d[key] = i - 1; name[key] = f[i] } }
		END { for (k in v) print d[k], name[k], v[k] }' "$1" | LC_ALL=C sort
}

if ! command -v xmllint >/dev/null 2>&1; then
	test_skip 'flame graphs are valid XML' 'xmllint (libxml2-utils) not installed'
	test_done
	exit
fi
browser=
if command -v node >/dev/null 2>&1 && test -d "$MODS/playwright-core" &&
	test -x "${CHROMIUM:-/usr/bin/chromium}"; then
	browser=1
fi

test_expect_success 'valid XML; every frame as wide as its stacks (independent count)' '
	"$PROFTOOL" flamegraph --minwidth 0 "$C/perfdemo-g.collapsed" >g.svg &&
	xmllint --noout --nonet g.svg &&
	awk_frames "$C/perfdemo-g.collapsed" >expect &&
	frames g.svg >actual && test_cmp expect actual'

test_expect_success 'recursion: each level its own frame' '
	"$PROFTOOL" flamegraph --minwidth 0 "$D/recursion.collapsed" >r.svg &&
	awk_frames "$D/recursion.collapsed" >expect &&
	frames r.svg >actual && test_cmp expect actual'

test_expect_success 'convert --to svg and -o FILE.svg give the same graph' '
	"$PROFTOOL" flamegraph "$D/recursion.collapsed" >a.svg &&
	"$PROFTOOL" convert --to svg "$D/recursion.collapsed" >b.svg &&
	"$PROFTOOL" convert -o c.svg "$D/recursion.collapsed" &&
	"$PROFTOOL" flamegraph -o d.svg "$D/recursion.collapsed" &&
	test_cmp a.svg b.svg && test_cmp a.svg c.svg && test_cmp a.svg d.svg'

test_expect_success '--title (escaped), --width, --inverted' '
	"$PROFTOOL" flamegraph --title "a <b> & \"c\"" --width 600 --inverted "$D/recursion.collapsed" >t.svg &&
	xmllint --noout t.svg &&
	test "$(xmllint --xpath "string(//*[@id=\"title\"])" t.svg)" = "a <b> & \"c\"" &&
	grep -q "^<svg [^>]* width=\"600\"" t.svg &&
	sed -n "s/.*data-depth=\"0\".*<rect x=\"[^\"]*\" y=\"\([0-9.]*\)\".*/\1/p" t.svg >root_y &&
	test "$(cat root_y)" = 36.0'

test_expect_success 'the default title names the kind of graph' '
	"$PROFTOOL" flamegraph --inverted "$D/recursion.collapsed" | grep -q ">Icicle Graph</text>" &&
	"$PROFTOOL" flamegraph --flamechart "$D/recursion.collapsed" | grep -q ">Flame Chart</text>" &&
	"$PROFTOOL" flamegraph "$D/recursion.collapsed" | grep -q ">Flame Graph</text>"'

test_expect_success '--minwidth leaves out narrow frames' '
	"$PROFTOOL" flamegraph --minwidth 0 "$C/perfdemo-g.collapsed" | grep -c "<g class=\"frame\"" >all &&
	"$PROFTOOL" flamegraph --minwidth 50 "$C/perfdemo-g.collapsed" >narrow.svg &&
	grep -c "<g class=\"frame\"" narrow.svg >some &&
	test "$(cat some)" -lt "$(cat all)" &&
	sed -n "s/.* data-w=\"\([0-9.]*\)\".*/\1/p" narrow.svg | awk "\$1 < 50 { bad = 1 } END { exit bad }"'

test_expect_success '--colors: every palette gives valid XML; a bad one is a usage error' '
	for c in hot mem io wakeup chain red green blue aqua yellow purple orange java js perl; do
		"$PROFTOOL" flamegraph --colors $c "$D/recursion.collapsed" >p.svg &&
		xmllint --noout p.svg || return 1
	done &&
	test_expect_code 2 "$PROFTOOL" flamegraph --colors nope "$D/recursion.collapsed" &&
	test_one_line_err "proftool: flamegraph: unknown palette '"'"'nope'"'"' for --colors (see '"'"'proftool flamegraph --help'"'"')"'

test_expect_success 'kernel, JIT and inlined frames get flamegraph.pl'"'"'s colours' '
	printf "main;sys_write_[k] 3\nmain;Foo.bar_[j] 2\nmain;inl_[i] 1\n" >k.collapsed &&
	"$PROFTOOL" flamegraph k.collapsed >k.svg &&
	for n in "sys_write_\[k\]" "Foo.bar_\[j\]" "inl_\[i\]"; do
		grep "data-name=\"$n\"" k.svg | sed "s/.*fill=\"rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))\".*/\1 \2 \3/" || return 1
	done >rgb &&
	test "$(wc -l <rgb)" = 3 &&
	awk "NR == 1 && !(\$1 >= 190 && \$3 == 0) { exit 1 }
	     NR == 2 && !(\$2 >= 200 && \$1 < 120) { exit 1 }
	     NR == 3 && !(\$2 >= 165 && \$2 == \$3) { exit 1 }" rgb'

test_expect_success 'differential (base/new): widths from new, red grew, blue shrank' '
	"$EDGE" diff svg >diff.svg && xmllint --noout diff.svg &&
	grep -q ">Differential Flame Graph</text>" diff.svg &&
	grep "data-name=\"grow\"" diff.svg | grep -q "fill=\"rgb(255,[0-9]*,[0-9]*)\"" &&
	grep "data-name=\"born\"" diff.svg | grep -q "fill=\"rgb(255,[0-9]*,[0-9]*)\"" &&
	grep "data-name=\"shrink\"" diff.svg | grep -q "fill=\"rgb([0-9]*,[0-9]*,255)\"" &&
	grep "data-name=\"same\"" diff.svg | grep -q "fill=\"rgb(250,250,250)\"" &&
	! grep -q "data-name=\"gone\"" diff.svg &&
	grep "data-name=\"grow\"" diff.svg | grep -q "<title>grow (30, 46.15%; +20 from base)</title>"'

test_expect_success 'differential from the two-count collapsed form' '
	"$PROFTOOL" flamegraph --minwidth 0 "$C/perfdemo-g-vs-dwarf.diff.collapsed" >d.svg &&
	xmllint --noout d.svg && grep -q ">Differential Flame Graph</text>" d.svg &&
	awk "{ \$(NF-1) = \"\"; print }" "$C/perfdemo-g-vs-dwarf.diff.collapsed" | sed "s/  / /" >new.collapsed &&
	awk_frames new.collapsed | awk "\$3 != 0" >expect &&
	frames d.svg >actual && test_cmp expect actual'

test_expect_success 'flame chart: time order, equal neighbours merged (timeline)' '
	"$EDGE" threads svg-chart >x.svg && xmllint --noout x.svg &&
	grep -q ">Flame Chart</text>" x.svg &&
	awk "BEGIN { for (i = 0; i < 60; i++) { m = i % 4
		s = m == 0 ? \"handle\" : m == 1 ? \"Interp::run\" : \"write\"
		v = 1000000 + (i % 3) * 250000
		if (s == prev) sum += v; else { if (prev != \"\") print prev, sum; prev = s; sum = v } }
		print prev, sum }" >expect &&
	sed -n "s/^<g class=\"frame\" data-name=\"\([^\"]*\)\" data-x=\"\([0-9.]*\)\" data-w=\"[^\"]*\" data-depth=\"1\"><title>[^<]* (\([0-9.]*\)\(ms\)\{0,1\}, .*/\2 \1 \3/p" x.svg |
		sort -n | cut -d" " -f2- >actual.ms &&
	awk "{ printf \"%s %d\\n\", \$1, \$2 * 1000000 }" actual.ms >actual &&
	test_cmp expect actual &&
	test "$(grep -c "data-depth=\"0\"" x.svg)" = 1'

for c in empty single names deep deeprec threads diff; do
	test_expect_success "awkward profile '$c': valid XML, valid UTF-8, no control bytes" '
		"$EDGE" $c svg >out.svg && xmllint --noout --nonet out.svg &&
		iconv -f UTF-8 -t UTF-8 out.svg >/dev/null &&
		! tr -d "\n" <out.svg | LC_ALL=C grep -q "[[:cntrl:]]"'
done

test_expect_success '10k-deep stack: every level drawn' '
	"$EDGE" deep svg >deep.svg &&
	test "$(grep -c "<g class=\"frame\"" deep.svg)" = 10000'

test_expect_success 'awkward names: escaped, and read back intact by an XML parser' '
	"$EDGE" names svg >n.svg &&
	xmllint --xpath "//*[local-name()=\"g\"][@class=\"frame\"]/@data-name" n.svg >names &&
	grep -q "data-name=\"&lt;&amp;&gt; &amp;amp; a&lt;b&gt;c\"" names &&
	grep -q "data-name=\"line one?line two??\"" names &&
	grep -q "data-name=\"semi;colon\"" names &&
	grep -q "data-name=\"frame 12 34\"" names &&
	grep -q "data-name=\"trailing space \"" names'

plain_build_judges 'headless Chromium draws them'
if test -n "$browser"; then
	test_expect_success 'headless Chromium draws them (not blank), search and zoom work' '
		"$PROFTOOL" flamegraph "$C/perfdemo-g.collapsed" >g.svg &&
		"$PROFTOOL" flamegraph --inverted --colors java "$C/perfdemo-g.collapsed" >i.svg &&
		"$PROFTOOL" flamegraph "$C/perfdemo-g-vs-dwarf.diff.collapsed" >d.svg &&
		"$EDGE" names svg >n.svg && "$EDGE" threads svg-chart >x.svg &&
		"$EDGE" single svg >s.svg && "$EDGE" empty svg >e.svg &&
		for f in g i d n x s; do
			node "$CHECK" svg $f.png $f.svg >$f.out 2>&1 || { cat $f.out; return 1; }
			test -s $f.png || return 1
		done &&
		grep -q "\"highlighted\":[1-9]" g.out && grep -q "\"unzoom\":true" g.out &&
		grep -q "Matched: " g.out && grep -q "\"details\":\"" g.out &&
		node "$CHECK" svg e.png e.svg'
else
	test_skip 'headless Chromium draws them' 'node, playwright-core (tests/viewers/setup.sh) or chromium missing'
fi

test_done
