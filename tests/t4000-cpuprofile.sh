#!/bin/sh
test_description='V8 CPU profiles: .cpuprofile, legacy head format, Chrome traces (read)'
. "$(dirname "$0")/lib.sh"

N=$SAMPLES/node
ALL="small.cpuprofile small-inlined.cpuprofile lines.cpuprofile large.cpuprofile
small.trace.json small-legacy.cpuprofile small-v8pn.cpuprofile"

# Our `top` rows in the layout of tests/ref/node/*.totals.txt (made by totals.js, an
# independent count with node's JSON.parse): "# samples N", then NAME LOCATION SELF
# TOTAL. We name code without a url (new Function, eval) "VM<scriptId>" as DevTools
# does, where totals.js merges all of them into ":LINE"; they are leaves in large.js
# (never on each other's stacks), so summing their rows gives the merged row.
totals () {
	"$PROFTOOL" top --sample-index samples --format json -n 0 "$@" >top.json &&
	jq -r '"# samples \(.total)"' top.json &&
	jq -r '.rows[] | [.name, (if .line > 0 then .file + ":" + (.line | tostring) else "-" end),
		.flat, .cum] | @tsv' top.json |
	awk -F'\t' -v OFS='\t' '{ sub(/^VM[0-9]+:/, ":", $2); k = $1 OFS $2
		if (!(k in s)) o[++n] = k; s[k] += $3; c[k] += $4 }
		END { for (i = 1; i <= n; i++) print o[i], s[o[i]], c[o[i]] }' | LC_ALL=C sort
}

if ! command -v jq >/dev/null; then
	test_skip 'cpuprofile tests' 'jq is not installed'
	test_done
	exit
fi

for f in $ALL; do
	test_expect_success "$f: per-function self and total match the independent count" '
		totals "$N/'"$f"'" >actual &&
		grep -v "^# profile" "$REF/node/'"$f"'.totals.txt" >expect &&
		test_cmp expect actual'
	test_expect_success "$f: detected as cpuprofile" '
		"$PROFTOOL" info "$N/'"$f"'" >out && grep -qx "Format: cpuprofile" out'
done

# devtools-time.py: what DevTools shows a .cpuprofile as, from its JSON alone: each
# sample weighs the time to the next one in time order (the last one: to endTime), the
# times being startTime plus the running sum of timeDeltas; prints the total in
# microseconds, the same as pprof prints a time (ms below a second, two decimals without
# ".00"), and the sample count
cat >"$TRASH/devtools-time.py" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
t, times = p["startTime"], []
for d in p["timeDeltas"]:
    t += d
    times.append(t)
times.sort()
total = sum((times[i + 1] if i + 1 < len(times) else max(p["endTime"], times[i])) - times[i]
            for i in range(len(times)))
v, unit = (total / 1e6, "s") if total >= 1e6 else (total / 1e3, "ms")
s = "%.2f" % v
print(total, (s[:-3] if s.endswith(".00") else s) + unit, len(p["samples"]))
PY

test_expect_success 'time is the default type, in ms as DevTools shows it; --sample-index samples counts' '
	for f in small small-inlined lines large small-v8pn; do
		python3 "$TRASH/devtools-time.py" "$N/$f.cpuprofile" >want &&
		read us text count <want &&
		"$PROFTOOL" info "$N/$f.cpuprofile" >info &&
		grep -q "^  1: wall \[microseconds\] total $us (.*) (default)\$" info &&
		"$PROFTOOL" top -n 1 "$N/$f.cpuprofile" >top &&
		sed -n 1,2p top >actual && printf "Type: wall\nTotal: %s\n" "$text" >expect &&
		test_cmp expect actual &&
		test "$("$PROFTOOL" top --format json -n 1 "$N/$f.cpuprofile" | jq .total)" = "$us" &&
		test "$("$PROFTOOL" top --sample-index samples --format json -n 1 "$N/$f.cpuprofile" | jq .total)" = "$count" ||
		{ echo "$f: $(cat want)"; return 1; }
	done'

test_expect_success 'synthetic frames are flagged, (root) is dropped' '
	"$PROFTOOL" top -n 0 --format json "$N/small.cpuprofile" >top.json &&
	test "$(jq "[.rows[] | select(.name == \"(root)\")] | length" top.json)" = 0 &&
	jq -e "[.rows[].name] | index(\"(program)\") and index(\"(idle)\") and index(\"(garbage collector)\")" top.json'

test_expect_success 'wall time: total is endTime minus the first sample time' '
	jq ".endTime - .startTime - .timeDeltas[0]" "$N/small.cpuprofile" >expect &&
	"$PROFTOOL" top --sample-index wall --format json "$N/small.cpuprofile" |
		jq .total >actual &&
	test_cmp expect actual'

# DevTools weighs sample i by the time to the next sample in time order (the last one:
# to endTime here), the samples sorted by time; computed here with jq, per function.
test_expect_success 'wall time per function follows the time-to-next-sample rule' '
	jq -r "
	  (.nodes | map({key: (.id | tostring), value: .callFrame}) | from_entries) as \$cf
	  | .timeDeltas as \$d | .samples as \$s | .endTime as \$e
	  | [foreach range(0; \$s | length) as \$i (.startTime; . + \$d[\$i]; {s: \$s[\$i], t: .})]
	  | sort_by(.t) as \$o
	  | [range(0; \$o | length) | {cf: \$cf[\$o[.].s | tostring],
	      w: ((if . + 1 < (\$o | length) then \$o[. + 1].t
	           else ([\$e, \$o[.].t] | max) end) - \$o[.].t)}]
	  | map(select(.cf.functionName != \"(root)\"))
	  | group_by([.cf.functionName, .cf.url, .cf.lineNumber])
	  | map([(.[0].cf.functionName | if . == \"\" then \"(anonymous)\" else . end),
	         (if .[0].cf.lineNumber >= 0 then .[0].cf.url + \":\" + (.[0].cf.lineNumber + 1 | tostring) else \"-\" end),
	         (map(.w) | add)] | @tsv) | .[]" "$N/small.cpuprofile" | LC_ALL=C sort >expect &&
	"$PROFTOOL" top --sample-index wall --format json -n 0 "$N/small.cpuprofile" |
	jq -r ".rows[] | select(.flat > 0) | [.name, (if .line > 0 then .file + \":\" + (.line | tostring) else \"-\" end), .flat] | @tsv" |
		LC_ALL=C sort >actual &&
	awk -F"\t" "\$3 > 0" expect >expect.nz &&
	test_cmp expect.nz actual'

test_expect_success 'wall time of the trace: sum of the deltas after the first' '
	jq "[.traceEvents[] | select(.name == \"ProfileChunk\") | .args.data.timeDeltas[]?]
		| add - .[0]" "$N/small.trace.json" >expect &&
	"$PROFTOOL" top --sample-index wall --format json "$N/small.trace.json" | jq .total >actual &&
	test_cmp expect actual'

test_expect_success 'wall time of the legacy format: from the absolute timestamps' '
	tr "," "\n" <"$N/small-legacy.cpuprofile" |
		awk "/timestamps/ { on = 1; sub(/.*\\[/, \"\") } on { v = \$0 + 0; if (!f) f = v; l = v }
			END { print l - f }" >expect &&
	"$PROFTOOL" top --sample-index wall --format json "$N/small-legacy.cpuprofile" |
		jq .total >actual &&
	test_cmp expect actual'

# By hand: raw times 1100 1200 1150 1250 -> clamped 1100 1200 1200 1250; weights
# a: 100 (to 1200), b: 0, a: 50, b: 250 (to endTime 1500) -> a 150, b 250.
# a at 1100, b at 1200, a at 1150, b at 1250: in time order a, a, b, b; the timeline
# keeps the input's order, each sample at its own time
test_expect_success 'samples out of time order (a negative delta) are weighed in time order' '
	cat >neg.cpuprofile <<-\EOF &&
	{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},
	{"id":2,"callFrame":{"functionName":"a","scriptId":"1","url":"file:///x.js","lineNumber":0,"columnNumber":0}},
	{"id":3,"callFrame":{"functionName":"b","scriptId":"1","url":"file:///x.js","lineNumber":4,"columnNumber":2}}],
	"startTime":1000,"endTime":1500,"samples":[2,3,2,3],"timeDeltas":[100,100,-50,100]}
	EOF
	"$PROFTOOL" top --sample-index wall --format csv neg.cpuprofile >out &&
	grep -qx "\"a\",\"file:///x.js\",1,100,.*" out &&
	grep -qx "\"b\",\"file:///x.js\",5,300,.*" out &&
	"$PROFTOOL" export --timeline --sample-index wall -o ex neg.cpuprofile &&
	awk -F"\t" "\$3 == \"samples\" { printf \"%s \", \$6 }" ex/samples.tsv >times &&
	test "$(cat times)" = "100000 200000 150000 250000 "'

test_expect_success 'nodes in any order, children after parents or before' '
	"$PROFTOOL" top -n 0 --format json "$N/small.cpuprofile" >expect &&
	jq -c ".nodes |= reverse" "$N/small.cpuprofile" >rev.cpuprofile &&
	"$PROFTOOL" top -n 0 --format json rev.cpuprofile >actual &&
	test_cmp expect actual'

test_expect_success 'samples and timeDeltas before nodes (and a long samples array first)' '
	"$PROFTOOL" top -n 0 --format json "$N/large.cpuprofile" >expect &&
	jq -c "{samples, timeDeltas, startTime, endTime, nodes}" "$N/large.cpuprofile" >first.cpuprofile &&
	"$PROFTOOL" info first.cpuprofile | grep -qx "Format: cpuprofile" &&
	"$PROFTOOL" top -n 0 --format json first.cpuprofile >actual &&
	test_cmp expect actual'

test_expect_success '"parent" links instead of "children"' '
	"$PROFTOOL" top -n 0 --format json "$N/small.cpuprofile" >expect &&
	jq -c "(.nodes | map(select(.children) | .id as \$p | .children[] | {key: tostring, value: \$p}) | from_entries) as \$par
		| .nodes |= (map(del(.children) | if \$par[.id | tostring] then .parent = \$par[.id | tostring] else . end) | reverse)" \
		"$N/small.cpuprofile" >parent.cpuprofile &&
	"$PROFTOOL" top -n 0 --format json parent.cpuprofile >actual &&
	test_cmp expect actual'

test_expect_success 'without "samples", self counts come from hitCount' '
	jq -c "del(.samples, .timeDeltas)" "$N/small.cpuprofile" >hits.cpuprofile &&
	jq -r "[.nodes[] | select(.callFrame.functionName != \"(root)\" and .hitCount > 0)]
		| group_by([.callFrame.functionName, .callFrame.url, .callFrame.lineNumber])
		| .[] | [(.[0].callFrame.functionName | if . == \"\" then \"(anonymous)\" else . end),
			(map(.hitCount) | add)] | @tsv" hits.cpuprofile | LC_ALL=C sort >expect &&
	"$PROFTOOL" top -n 0 --format json hits.cpuprofile |
		jq -r ".rows[] | select(.flat > 0) | [.name, .flat] | @tsv" | LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" info hits.cpuprofile >info && ! grep -q wall info'

test_expect_success 'trace as a bare JSON array, keys in any order, no closing bracket' '
	"$PROFTOOL" top -n 0 --format json "$N/small.trace.json" >expect &&
	jq -c .traceEvents "$N/small.trace.json" >arr.json &&
	"$PROFTOOL" top -n 0 --format json arr.json >actual && test_cmp expect actual &&
	jq -S -c .traceEvents "$N/small.trace.json" >sorted.json &&
	"$PROFTOOL" top -n 0 --format json sorted.json >actual && test_cmp expect actual &&
	sed "s/]\$//" arr.json >open.json &&
	"$PROFTOOL" top -n 0 --format json open.json >actual && test_cmp expect actual &&
	sed "s/]\$/,/" arr.json >comma.json &&
	"$PROFTOOL" top -n 0 --format json comma.json >actual && test_cmp expect actual'

test_expect_success 'old Chrome traces: one CpuProfile event with the whole profile' '
	"$PROFTOOL" top -n 0 --format json "$N/small.cpuprofile" >expect &&
	{ printf "{\"traceEvents\":[{\"pid\":1,\"tid\":2,\"ph\":\"I\",\"name\":\"CpuProfile\",\"args\":{\"data\":{\"cpuProfile\":" &&
	  cat "$N/small.cpuprofile" && printf "}}}]}"; } >old.json &&
	"$PROFTOOL" top -n 0 --format json old.json >actual && test_cmp expect actual'

test_expect_success 'a 10000-frame legacy profile (20000 JSON levels) reads without recursion' '
	awk "BEGIN { printf \"{\\\"head\\\":{\\\"functionName\\\":\\\"(root)\\\",\\\"url\\\":\\\"\\\",\\\"lineNumber\\\":0,\\\"id\\\":1,\\\"children\\\":[\";
		for (i = 2; i <= 10001; i++) printf \"{\\\"functionName\\\":\\\"f%d\\\",\\\"url\\\":\\\"/d.js\\\",\\\"lineNumber\\\":%d,\\\"id\\\":%d,\\\"children\\\":[\", i % 3, i % 3 + 1, i;
		for (i = 2; i <= 10001; i++) printf \"]}\"; printf \"]},\\\"samples\\\":[10001,10001,5001],\\\"timestamps\\\":[1,2,3]}\" }" >deep.cpuprofile &&
	"$PROFTOOL" top --sample-index samples -n 0 --format csv deep.cpuprofile >out &&
	grep -qx "\"f2\",\"/d.js\",3,2,66.6667,3,100.0000" out &&
	grep -qx "\"f0\",\"/d.js\",1,1,33.3333,3,100.0000" out'

test_expect_success 'a 100000-deep stack of parent links reads without recursion' '
	awk "BEGIN { printf \"{\\\"nodes\\\":[{\\\"id\\\":1,\\\"callFrame\\\":{\\\"functionName\\\":\\\"(root)\\\"}}\";
		for (i = 2; i <= 100001; i++) printf \",{\\\"id\\\":%d,\\\"parent\\\":%d,\\\"callFrame\\\":{\\\"functionName\\\":\\\"r\\\",\\\"url\\\":\\\"/r.js\\\",\\\"lineNumber\\\":0}}\", i, i - 1;
		printf \"],\\\"samples\\\":[100001,50000],\\\"timeDeltas\\\":[1,1]}\" }" >chain.cpuprofile &&
	"$PROFTOOL" top --sample-index samples --format csv chain.cpuprofile >out &&
	grep -qx "\"r\",\"/r.js\",1,2,100.0000,2,100.0000" out'

test_expect_success 'a root node that is not (root) may carry positionTicks (it crashed once)' '
	"$PROFTOOL" top --sample-index samples -n 0 --format csv \
		"$SRCDIR/tests/data/root-ticks.cpuprofile" >out &&
	grep -qx "\"main\",\"file:///a.js\",1,2,66.6667,3,100.0000" out &&
	grep -qx "\"f\",\"file:///a.js\",6,1,33.3333,1,33.3333" out &&
	"$PROFTOOL" top --sample-index samples -n 0 --format csv --granularity lines \
		"$SRCDIR/tests/data/root-ticks.cpuprofile" >out &&
	grep -qx "\"main\",\"file:///a.js\",3,2,66.6667,2,66.6667" out'

test_done
