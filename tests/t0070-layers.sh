#!/bin/sh
test_description='includes follow the allowed directions between the layers'
. "$(dirname "$0")/lib.sh"

test_expect_success 'the tree includes only along the allowed directions' '
	sh "$SRCDIR/tests/layers.sh" "$SRCDIR" >out &&
	test_cmp /dev/null out'

# a copy of the tree's layout with one forbidden include planted in each rule (each file
# opens with its purpose line, which the next case checks)
plant () {
	mkdir -p src/util src/core src/analysis src/report src/cli formats "$(dirname "$1")" &&
	printf "/* %s: planted */\n#include \"%s\"\n" "${1##*/}" "$2" >"$1"
}

test_expect_success 'a file without its purpose line, or naming another file, is reported' '
	mkdir -p src/core formats &&
	printf "/* good.c: fine */\n" >src/core/good.c &&
	printf "#include \"core/profile.h\"\n" >src/core/none.c &&
	printf "/* report-top.c: an old name */\n" >src/core/stale.c &&
	printf "/* registry.c: a copy */\n" >formats/load.h &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	printf "%s\n" "src/core/none.c: does not open with its purpose line (/* none.c: ...)" \
		"src/core/stale.c: does not open with its purpose line (/* stale.c: ...)" \
		"formats/load.h: does not open with its purpose line (/* load.h: ...)" >expect &&
	test_cmp expect out &&
	rm -r src formats'


test_expect_success 'core including analysis is reported' '
	plant src/core/x.c analysis/aggregate.h &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	echo "src/core/x.c: core may not include \"analysis/aggregate.h\"" >expect &&
	test_cmp expect out'

test_expect_success 'a reader including analysis is reported, a writer is not' '
	plant formats/r.c analysis/fold.h &&
	echo "	.read = r_read," >>formats/r.c &&
	plant formats/w.c analysis/aggregate.h &&
	echo "	.read = NULL," >>formats/w.c &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	echo "formats/r.c: formats may not include \"analysis/fold.h\"" >expect &&
	test_cmp expect out'

test_expect_success 'formats including report or cli is reported' '
	plant formats/w.c report/report.h &&
	echo "#include \"cli/cli.h\"" >>formats/w.c &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	printf "%s\n" "formats/w.c: formats may not include \"report/report.h\"" \
		"formats/w.c: formats may not include \"cli/cli.h\"" >expect &&
	test_cmp expect out'

test_expect_success 'util, analysis and report reaching up are reported' '
	plant src/util/u.c core/profile.h &&
	plant src/analysis/a.c report/report.h &&
	plant src/report/r.c cli/cli.h &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	printf "%s\n" "src/analysis/a.c: analysis may not include \"report/report.h\"" \
		"src/report/r.c: report may not include \"cli/cli.h\"" \
		"src/util/u.c: util may not include \"core/profile.h\"" >expect &&
	test_cmp expect out'

test_expect_success 'an include without its layer folder and a file outside the layers are reported' '
	plant src/core/x.c profile.h &&
	plant src/misc/y.c util/buf.h &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	printf "%s\n" "src/core/x.c: includes \"profile.h\" without its layer folder" \
		"src/misc/y.c: not in a layer folder (util, core, analysis, report, cli)" >expect &&
	test_cmp expect out'

test_expect_success 'src comparing a string with a format name is reported' '
	plant formats/toy.c core/profile.h &&
	printf "\t.name = \"toy\",\n\t.read = toy_read,\n" >>formats/toy.c &&
	plant src/cli/x.c cli/cli.h &&
	printf "\tif (!strcmp(format, \"toy\"))\n\tif (!strncmp(name, \"toy\", 3))\n" >>src/cli/x.c &&
	plant src/report/y.c core/profile.h &&
	printf "\tif (!strcmp(style, \"toys\"))\n" >>src/report/y.c &&
	! sh "$SRCDIR/tests/layers.sh" . >out &&
	printf "%s\n" "src/cli/x.c:3: compares with the format name \"toy\" (make it data on its row)" \
		"src/cli/x.c:4: compares with the format name \"toy\" (make it data on its row)" >expect &&
	test_cmp expect out &&
	rm -r src formats'

test_done
