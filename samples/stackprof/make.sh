#!/bin/sh
# Regenerate the stackprof samples in this directory from src/*.rb with
# Debian's ruby-stackprof (ruby -rstackprof). Run from anywhere:
#     sh samples/stackprof/make.sh
# Made with: ruby 3.1.2p20 (Debian 12), ruby-stackprof 0.2.21-2+b1.
#
# The programs are run from a fixed directory, $SRCDIR (default
# /tmp/proftool-stackprof-src), so the absolute file names recorded in the
# dumps do not depend on where the repository is checked out; the
# reference outputs (tests/ref/stackprof/regen.sh) copy the sources there
# again so `stackprof --method` can show the source lines.
#
# The sample counts vary from run to run (timing); the shape does not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-/tmp/proftool-stackprof-src}
mkdir -p "$SRCDIR"
cp "$here"/src/workload.rb "$here"/src/profile.rb "$SRCDIR"/

ruby -v
dpkg-query -W -f='${Package} ${Version}\n' ruby-stackprof 2>/dev/null || true

cd "$here"
prof() { # KIND MODE RAW INTERVAL OUT ROUNDS
	ruby -rstackprof "$SRCDIR"/profile.rb "$1" "$2" "$3" "$4" "$here/$5" "$6"
	echo "$5: $(wc -c < "$5") bytes"
}

# 1. cpu mode, raw: recursion, mutual recursion, hot leaf, GC frames
prof cpu    cpu    raw   1000 cpu-raw.dump    40
# 2. cpu mode, not raw (stackprof's default): aggregates only
prof cpu    cpu    noraw 1000 cpu.dump        40
# 3. wall mode, raw: sleeping, raw_timestamp_deltas
prof wall   wall   raw   1000 wall-raw.dump   20
# 4. object mode, raw: every 5th allocation
prof object object raw   5    object-raw.dump 10
# 5. deep recursion (250 levels), cpu mode, raw
prof deep   cpu    raw   2000 deep-raw.dump   1500
# 6. cpu mode, not raw, with metadata of many Marshal types
prof meta   cpu    noraw 1000 meta.dump       20
# 8. custom mode (StackProf.sample by hand), raw: interval is nil
prof custom custom raw   1    custom-raw.dump 30

# 7. the JSON form of cpu-raw.dump, as `stackprof --json` writes it
stackprof --json cpu-raw.dump > cpu-raw.json
echo "cpu-raw.json: $(wc -c < cpu-raw.json) bytes"
# 9. a dump re-written by `stackprof --dump` (Marshal + a trailing "\n")
stackprof --dump cpu.dump > cpu-cli.dump
echo "cpu-cli.dump: $(wc -c < cpu-cli.dump) bytes"
# 10. two profiles combined by `stackprof --dump A B`: frame keys become
#     SHA-256 hex strings, raw and metadata are dropped
stackprof --dump cpu.dump meta.dump > combined-cli.dump
echo "combined-cli.dump: $(wc -c < combined-cli.dump) bytes"
# 11. a cpu-mode recording that took no samples: frames {}, and no raw (stackprof
#     leaves raw out when it has none)
ruby -rstackprof -e 'StackProf.run(mode: :cpu, raw: true, interval: 1000, out: ARGV[0]) {}' \
	empty-cpu.dump
echo "empty-cpu.dump: $(wc -c < empty-cpu.dump) bytes"
# 12. the shape of stackprof's own test fixtures: {mode: "cpu"} and nothing else, as
#     stackprof's Report writes data without frames (JSON, then the CLI's Marshal form)
ruby -rstackprof -e 'StackProf::Report.new({mode: "cpu"}).print_json' > mode-only.json
stackprof --dump mode-only.json > mode-only.dump
echo "mode-only.json: $(wc -c < mode-only.json) bytes, mode-only.dump: $(wc -c < mode-only.dump) bytes"
