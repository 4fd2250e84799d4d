#!/bin/sh
# Regenerate the Ruby heap dumps in this directory from src/leaky.rb with
# Debian's ruby and its objspace extension. Run from anywhere:
#     sh samples/ruby/make.sh
# Made with: ruby 3.1.2p20 (Debian 12). Addresses change from run to run; the
# counts per class do not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ruby -v
cd "$here"
# allocation tracing on (file, line, method, generation on each object)
# gzipped, as dumps are kept
ruby --disable-gems src/leaky.rb leaky-trace.json 200 trace
gzip -9nf leaky-trace.json
# tracing off, also gzipped (the plain dump is 1.7 MB: the interpreter's own objects)
ruby --disable-gems src/leaky.rb leaky.json 100 notrace
gzip -9nf leaky.json
for f in leaky-trace.json.gz leaky.json.gz; do echo "$f: $(wc -c <"$f") bytes"; done
# a series of three dumps of one process whose request handler leaks (heap --leaks)
ruby --disable-gems src/series.rb series 60
for f in series-1.json series-2.json series-3.json; do gzip -9nf "$f"; echo "$f.gz: $(wc -c <"$f.gz") bytes"; done
