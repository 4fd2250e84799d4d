#!/bin/sh
# regen.sh: regenerate tests/ref/node/*.totals.txt from the committed samples
# in samples/node/ with totals.js, an independent count (node's JSON.parse,
# no proftool code).  Needs node (made with v20.20.2); no network.
#   sh tests/ref/node/regen.sh
# The command for each file is:
#   node tests/ref/node/totals.js samples/node/X > tests/ref/node/X.totals.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../../samples/node" && pwd)
NODE=${NODE:-node}
for f in small.cpuprofile small-inlined.cpuprofile lines.cpuprofile \
	large.cpuprofile small.trace.json small-legacy.cpuprofile \
	small-v8pn.cpuprofile; do
	"$NODE" "$here/totals.js" "$samples/$f" > "$here/$f.totals.txt.tmp"
	mv "$here/$f.totals.txt.tmp" "$here/$f.totals.txt"
done
