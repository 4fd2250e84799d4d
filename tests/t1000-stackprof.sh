#!/bin/sh
test_description='stackprof dumps (Marshal and JSON): the numbers stackprof --text prints'
. "$(dirname "$0")/lib.sh"

S=$SAMPLES/stackprof
R=$REF/stackprof

# every sample the real CLI was run on (tests/ref/stackprof/COMMANDS)
dumps="cpu-raw cpu wall-raw object-raw deep-raw meta custom-raw cpu-cli combined-cli cpu-raw.json"
file_of () {
	case $1 in *.json) echo "$S/$1" ;; *) echo "$S/$1.dump" ;; esac
}

for s in $dumps; do
	test_expect_success "$s: top --style stackprof is stackprof --text" '
		"$PROFTOOL" top --style stackprof "$(file_of '$s')" >actual &&
		test_cmp "$R/'$s'.stackprof-text.txt" actual'
	test_expect_success "$s: -n 0 is --limit 0, --cum is --sort-total" '
		"$PROFTOOL" top --style stackprof -n 0 "$(file_of '$s')" >all &&
		test_cmp "$R/'$s'.stackprof-text-all.txt" all &&
		"$PROFTOOL" top --style stackprof --cum "$(file_of '$s')" >total &&
		test_cmp "$R/'$s'.stackprof-text-total.txt" total'
done

# "name self total" per frame from stackprof --text --limit 0 (sorted)
ref_rows () {
	awk 'f { name = $0; sub(/^ *[0-9]+ +\([^)]*\) +[0-9]+ +\([^)]*\) +/, "", name);
		 print name, $3, $1 } /^ +TOTAL/ { f = 1 }' "$1" | LC_ALL=C sort
}
# the same from our csv (names here hold no comma or quote)
csv_rows () {
	sed 1d | awk -F, '{ gsub(/"/, "", $1); print $1, $4, $6 }' | LC_ALL=C sort
}

for s in $dumps; do
	test_expect_success "$s: default top --format csv has the same self and total per frame" '
		ref_rows "$R/'$s'.stackprof-text-all.txt" >expect &&
		"$PROFTOOL" top -n 0 --format csv "$(file_of '$s')" | csv_rows >actual &&
		test_cmp expect actual'
done

test_expect_success 'detection: Marshal and JSON forms' '
	"$PROFTOOL" info "$S/cpu-raw.dump" | grep "^Format: stackprof$" &&
	"$PROFTOOL" info "$S/cpu-raw.json" | grep "^Format: stackprof-json$"'

test_expect_success 'JSON and Marshal forms of one dump give the same profile' '
	"$PROFTOOL" top -n 0 --format csv "$S/cpu-raw.dump" >m &&
	"$PROFTOOL" top -n 0 --format csv "$S/cpu-raw.json" >j && test_cmp m j &&
	"$PROFTOOL" convert --to collapsed "$S/cpu-raw.dump" >mc &&
	"$PROFTOOL" convert --to collapsed "$S/cpu-raw.json" >jc && test_cmp mc jc'

test_expect_success 'stackprof --dump output (trailing newline) reads like the original' '
	"$PROFTOOL" top -n 0 --format csv "$S/cpu.dump" >a &&
	"$PROFTOOL" top -n 0 --format csv "$S/cpu-cli.dump" >b && test_cmp a b'

test_expect_success 'sample types: samples and cpu time (count x interval)' '
	"$PROFTOOL" top --format json -n 1 --sample-index cpu "$S/cpu-raw.dump" >out &&
	grep -q "^{\"sample_type\":\"cpu\",\"unit\":\"microseconds\",\"total\":436000," out &&
	"$PROFTOOL" top --format json -n 1 "$S/cpu-raw.dump" >out &&
	grep -q "^{\"sample_type\":\"samples\",\"unit\":\"count\",\"total\":436," out'

test_expect_success 'wall mode: time is the sum of raw_timestamp_deltas' '
	"$PROFTOOL" top --format json -n 1 --sample-index wall "$S/wall-raw.dump" >out &&
	grep -q "^{\"sample_type\":\"wall\",\"unit\":\"microseconds\",\"total\":1056813," out'

test_expect_success 'object mode: objects = samples x interval' '
	"$PROFTOOL" top --format csv -n 0 --sample-index objects "$S/object-raw.dump" |
		csv_rows >objects &&
	"$PROFTOOL" top --format csv -n 0 "$S/object-raw.dump" | sed 1d |
		awk -F, "{ gsub(/\"/, \"\", \$1); print \$1, \$4 * 5, \$6 * 5 }" |
		LC_ALL=C sort >expect &&
	test_cmp expect objects'

test_expect_success 'custom mode has only the samples type' '
	"$PROFTOOL" info "$S/custom-raw.dump" >out &&
	grep -q "samples" out && ! grep -q "microseconds" out'

test_expect_success 'header and user metadata become profile metadata' '
	"$PROFTOOL" info "$S/meta.dump" >out &&
	grep -q "^Meta mode: cpu$" out && grep -q "^Meta interval: 1000$" out &&
	grep -q "^Meta version: 1.2$" out && grep -q "^Meta missed_samples: 0$" out &&
	grep "^Meta metadata\\." out >meta && test -s meta'

test_expect_success 'raw dumps: duration from raw_sample_timestamps' '
	"$PROFTOOL" info "$S/wall-raw.dump" >out &&
	grep -q "^Duration: [0-9.]*s$" out && grep -q "^Samples: 1063$" out'

test_expect_success 'a dump without raw has no stacks and says how to get them' '
	test_expect_code 1 "$PROFTOOL" convert --to collapsed "$S/cpu.dump" &&
	test_one_line_err "proftool: $S/cpu.dump: the stackprof dump was recorded without raw: true, so it holds no stacks; record it with StackProf.run(raw: true, ...) or StackProf.start(raw: true)"'

# self and total by name from collapsed lines, counting a frame once per line
collapsed_selftotal () {
	awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";");
	       self[f[k]] += n; delete seen;
	       for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; total[f[i]] += n } }
	     END { for (x in total) print x, self[x] + 0, total[x] }' "$1" | LC_ALL=C sort
}

for s in cpu-raw wall-raw object-raw deep-raw custom-raw; do
	test_expect_success "$s: collapsed stacks rebuilt from raw add up to the dump's own per-frame numbers" '
		"$PROFTOOL" convert --to collapsed "$S/'$s'.dump" >c &&
		collapsed_selftotal c >actual &&
		ref_rows "$R/'$s'.stackprof-text-all.txt" | grep -v "^<main> " >expect &&
		grep -v "^<main> " actual >actual2 && test_cmp expect actual2'
done

# stackprof >= 0.2.26 writes raw_lines: raw's runs with a line per frame
rawlines_dump () {
	printf '{"version":1.2,"mode":"cpu","interval":1000,"samples":3,"gc_samples":0,"missed_samples":0,"metadata":{},"frames":{"1":{"name":"a","file":"f.rb","line":1,"total_samples":3,"samples":0,"edges":{"2":3}},"2":{"name":"b","file":"f.rb","line":10,"total_samples":3,"samples":3,"edges":{"2":1}}},"raw":[3,1,2,2,1,2,1,2,2],"raw_lines":[%s],"raw_sample_timestamps":[1,2,3],"raw_timestamp_deltas":[1,1,1]}\n' "$1"
}

test_expect_success 'raw_lines: per-line self and once-per-stack totals' '
	rawlines_dump "3,5,12,11,1,2,6,11,2" >rl.json &&
	"$PROFTOOL" method --format json b rl.json >out &&
	grep -q "\"lines\":\[{\"line\":11,\"self\":3,\"total\":3},{\"line\":12,\"self\":0,\"total\":1}\]" out &&
	"$PROFTOOL" method --format json a rl.json >out &&
	grep -q "\"lines\":\[{\"line\":5,\"self\":0,\"total\":1},{\"line\":6,\"self\":0,\"total\":2}\]" out &&
	"$PROFTOOL" convert --to collapsed rl.json >actual &&
	printf "a;b 2\na;b;b 1\n" >expect && test_cmp expect actual'

test_expect_success 'raw_lines that do not match raw: an error' '
	rawlines_dump "2,5,12,1,2,6,11,2" >rl.json &&
	test_expect_code 1 "$PROFTOOL" top rl.json &&
	test_one_line_err "proftool: rl.json: byte 328: '"'"'raw_lines'"'"' has a stack of 2 lines where '"'"'raw'"'"' has 3 frames" &&
	rawlines_dump "3,5,12,11,1,2,6,11,3" >rl.json &&
	test_expect_code 1 "$PROFTOOL" top rl.json && grep -q "counts 3 samples where" err &&
	rawlines_dump "3,5,12,11,1" >rl.json &&
	test_expect_code 1 "$PROFTOOL" top rl.json && grep -q "ends before" err'

test_expect_success 'version 1.0 dumps: a line maps to its self count alone' '
	printf "{\"version\":1.0,\"mode\":\"cpu\",\"interval\":1000,\"samples\":5,\"frames\":{\"7\":{\"name\":\"a\",\"file\":\"a.rb\",\"line\":2,\"total_samples\":5,\"samples\":5,\"lines\":{\"3\":5}}}}\n" >v10.json &&
	"$PROFTOOL" method --format json a v10.json >out &&
	grep -q "\"lines\":\[{\"line\":3,\"self\":5,\"total\":0}\]" out'

test_expect_success 'proftool formats lists both readers' '
	"$PROFTOOL" formats >out &&
	grep -q "^stackprof  *yes  no " out && grep -q "^stackprof-json  *yes  no " out'

test_expect_success 'deep recursion: 259-frame stacks read back whole' '
	"$PROFTOOL" convert --to collapsed "$S/deep-raw.dump" |
		awk -F";" "NF > m { m = NF } END { print m }" >depth &&
	test "$(cat depth)" = 259'

# tests/data/stackprof-bignum-links.dump is cpu-raw.dump with every frame id moved past
# 2^62, where Ruby's Integers are Bignum objects: in the raw stacks, even samples hold
# new objects (equal in value to earlier ones) and odd samples the objects the sample
# before made, which Marshal writes as '@' links:
#   ruby -e 'd = Marshal.load(File.binread("samples/stackprof/cpu-raw.dump"))
#     d[:frames] = d[:frames].map { |k, v| [k + 2**62, v] }.to_h
#     last = {}; raw = d[:raw]; out = []; i = 0; s = 0
#     while i < raw.size; n = raw[i]; out << n
#       out.concat(raw[i + 1, n].map { |x| s.odd? && last[x] ? last[x] : (last[x] = x + 2**62) })
#       out << raw[i + 1 + n]; i += n + 2; s += 1; end
#     d[:raw] = out; File.binwrite("stackprof-bignum-links.dump", Marshal.dump(d))'
# The reader keeps a number met a moment ago once; a link must still find its value.
test_expect_success 'Bignum frame ids, repeated through links, read as the small ones' '
	"$PROFTOOL" top -n 0 "$S/cpu-raw.dump" >expect &&
	"$PROFTOOL" top -n 0 "$SRCDIR/tests/data/stackprof-bignum-links.dump" >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" convert --to collapsed "$S/cpu-raw.dump" >expect &&
	"$PROFTOOL" convert --to collapsed "$SRCDIR/tests/data/stackprof-bignum-links.dump" >actual &&
	test_cmp expect actual'

# Raw's Bignum frame ids are kept 1 byte each while the dump has under 256 frames, and
# widened to 2 and then 4 bytes when a frame beyond comes: links made before and after
# each widening still find their frames (70,000 frames; Integers past 2^62 are Bignum
# objects in Ruby, so repeating one in raw writes a link to raw's own object; the same
# dump with small ids has no links).
if command -v ruby >/dev/null 2>&1; then
	test_expect_success 'links to raw frame ids read the same before and after the table widens' '
		cat >wide.rb <<-\EOF &&
		big = ARGV[0] == "big"
		frames = {}
		70_000.times { |k| frames[big ? k + 2**62 : k] = {name: "f#{k}", file: "a.rb", line: k} }
		ids = (0...70_000).map { |k| big ? k + 2**62 : k } # new objects, not the keys
		s1 = [0, 5, 7].map { |k| ids[k] }
		s2 = [0, 300, 5].map { |k| ids[k] }
		s4 = [1, 69_999].map { |k| ids[k] }
		raw = []
		[s1, s2, s1, s4, s2, s4, s1].each_with_index do |s, i|
		  raw << s.size; raw.concat(s); raw << i + 1
		end
		$stdout.binmode
		$stdout.write Marshal.dump({version: 1.2, mode: :cpu, interval: 1000, samples: 28,
		                            frames: frames, raw: raw})
		EOF
		ruby wide.rb big >big.dump && ruby wide.rb small >small.dump &&
		"$PROFTOOL" convert --to collapsed big.dump >actual &&
		printf "%s\n" "f0;f300;f5 7" "f0;f5;f7 11" "f1;f69999 10" >expect &&
		test_cmp expect actual &&
		"$PROFTOOL" top -n 5 small.dump >expect &&
		"$PROFTOOL" top -n 5 big.dump >actual &&
		test_cmp expect actual'
else
	test_skip 'links to raw frame ids across the widening' 'needs ruby'
fi

# stackprof's own test fixtures (test/fixtures/profile.dump and profile.json) hold
# {mode: "cpu"} and nothing else: no frames, no samples. The stackprof CLI loads them
# (its --text prints the "Mode: cpu()" header, then fails dividing by the absent
# sample count); we read them as an empty profile, whose stacks (none) are whole.
# mode-only.* are the same shape made by ruby-stackprof's Report
# (samples/stackprof/make.sh); empty-cpu.dump is a real raw: true recording that took
# no samples (frames {}, and stackprof leaves raw out).
empty_top () { # the top of an empty profile, to empty-top.expect
	printf "%s\n" "Type: samples" "Total: 0" "Showing 0 of 0 functions, sorted by flat" \
		"      flat  flat%   sum%        cum   cum%  name" >empty-top.expect
}
mode_only_check () { # FILE FORMAT
	empty_top &&
	printf "%s\n" "Sample types:" "  0: samples [count] total 0 (0) (default)" "Samples: 0" \
		"Unique stacks: 0" "Unique functions: 0" "Meta mode: cpu" "Meta samples: 0" \
		>empty-info.expect &&
	"$PROFTOOL" top "$1" >out && test_cmp empty-top.expect out &&
	"$PROFTOOL" info "$1" >info &&
	grep -x "Format: $2" info &&
	grep -e "^Sample types:" -e "^  0:" -e "^Samples:" -e "^Unique stacks:" -e "^Unique functions:" \
		-e "^Meta mode:" -e "^Meta samples:" info >out &&
	test_cmp empty-info.expect out &&
	"$PROFTOOL" convert --to collapsed "$1" >out 2>err &&
	test ! -s out && test ! -s err
}
test_expect_success 'a dump of {mode: "cpu"} alone (the shape of stackprof'\''s fixtures) reads as empty' '
	mode_only_check "$S/mode-only.dump" stackprof &&
	mode_only_check "$S/mode-only.json" stackprof-json'

test_expect_success 'a cpu recording with no samples reads as empty, its interval kept' '
	empty_top && "$PROFTOOL" top "$S/empty-cpu.dump" >out && test_cmp empty-top.expect out &&
	"$PROFTOOL" convert --to collapsed "$S/empty-cpu.dump" >out && test ! -s out &&
	"$PROFTOOL" info "$S/empty-cpu.dump" >info &&
	grep -x "  1: cpu \[microseconds\] total 0 (0)" info &&
	grep -x "Period: 1000 cpu \[microseconds\]" info'

test_expect_success 'a Marshal hash with neither frames nor mode is still not a dump' '
	printf "\004\010{\006:\010fooi\006" >nomode.dump &&
	test_expect_code 1 "$PROFTOOL" top --from stackprof nomode.dump &&
	grep -q "not a stackprof dump: no '\''frames'\''" err'

# STACKPROF_DIR: a checkout of stackprof itself; its test fixtures read as above
if test -n "$STACKPROF_DIR" && test -d "$STACKPROF_DIR/test/fixtures"; then
	test_expect_success 'stackprof test/fixtures (profile.dump, profile.json) read as empty cpu profiles' '
		mode_only_check "$STACKPROF_DIR/test/fixtures/profile.dump" stackprof &&
		mode_only_check "$STACKPROF_DIR/test/fixtures/profile.json" stackprof-json'
else
	test_skip 'stackprof test/fixtures' 'set STACKPROF_DIR to a stackprof checkout'
fi

test_done
