#!/bin/sh
# update-golden.sh: regenerate tests/golden/ after an intended output change; review the
# result as a diff in the commit (FlameGraph's record-test.sh). Run from anywhere after
# a build; PROFTOOL overrides the binary.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
PROFTOOL=${PROFTOOL:-$top/src/proftool}
G=$top/tests/golden
cd "$top"
export LC_ALL=C TZ=UTC

"$PROFTOOL" top samples/collapsed/perfdemo-g.collapsed >"$G/perfdemo-g.top.txt"
"$PROFTOOL" top --cum samples/collapsed/perfdemo-g.collapsed >"$G/perfdemo-g.top.cum.txt"
"$PROFTOOL" info --format json samples/collapsed/perfdemo-g-vs-dwarf.diff.collapsed \
	>"$G/perfdemo-g-vs-dwarf.diff.info.json"
# the callgrind writer's odd lines (tests/writers-edge), without the version line
"$top/tests/writers-edge" oddlines callgrind all | grep -v "^creator: " \
	>"$G/writers-edge.oddlines.callgrind"
echo "golden files regenerated; review: git diff -- tests/golden"
