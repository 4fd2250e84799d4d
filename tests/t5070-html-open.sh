#!/bin/sh
test_description='html: the page opens where the work is (headless Chromium)'
. "$(dirname "$0")/lib.sh"

CHECK=$SRCDIR/tests/viewers/html-check.js
# screenshots of the first screen stay in the build folder, to be looked at
SHOTS=${BUILDDIR:-$SRCDIR}/tests/html-shots

plain_build_judges 'the report in Chromium'
if ! command -v node >/dev/null 2>&1 || ! test -d "$MODS/playwright-core" ||
	! test -x "${CHROMIUM:-/usr/bin/chromium}"; then
	test_skip 'the report in Chromium' 'node, playwright-core or Chromium missing (run tests/viewers/setup.sh)'
	test_done
	exit
fi

# a deep profile opened on an almost blank page, its roots thousands of pixels down
test_expect_success 'a deep profile opens where the work is: the root and a frame of half the width on the first screen; the tab says the input and type' '
	mkdir -p "$SHOTS" &&
	for f in stackprof/deep-raw.dump node/small.cpuprofile; do
		b=$(basename "$f") &&
		"$PROFTOOL" convert --to html -o "$b.html" "$SAMPLES/$f" &&
		node "$CHECK" probe "$b.html" --shot "$SHOTS/first-$b" >out 2>&1 || { cat out; return 1; }
		grep -qx "errors 0" out &&
		# the widest root and its share, from the collapsed stacks (awk)
		"$PROFTOOL" convert --to collapsed "$SAMPLES/$f" |
			awk "{ n = \$NF; s = \$0; sub(/ [^ ]+\$/, \"\", s); split(s, a, \";\"); v[a[1]] += n; t += n }
				END { for (k in v) if (v[k] > best) { best = v[k]; name = k }; printf \"%s %.6f\n\", name, best / t }" >root &&
		read -r name frac <root &&
		cw=$(sed -n "s/^first-width //p" out) &&
		awk -v n="$name" -v f="$frac" -v cw="$cw" "
			\$1 == \"first-root\" { w = \$NF; s = \$0; sub(/^first-root /, \"\", s); sub(/ [0-9]+\$/, \"\", s);
				if (s == n && w >= cw / 2 - 1 && w >= cw * f - 2) ok = 1 }
			END { exit !ok }" out || { echo "$f: no root $name of $frac of $cw on the first screen"; cat out; return 1; }
		type=$("$PROFTOOL" info "$SAMPLES/$f" | sed -n "s/^ *[0-9]*: \([^ ]*\) .*(default)\$/\1/p") &&
		grep -qx "title $b ($type)" out || { echo "$f: title, wanted $b ($type)"; grep "^title" out; return 1; }
		test -s "$SHOTS/first-$b-flame.png" || return 1
	done'

test_done
