#!/bin/sh
# make.sh: regenerate the go tool trace -pprof references (see COMMANDS); needs go.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in blocking many gc; do
	for t in net sync syscall sched; do
		go tool trace -pprof=$t "$top/samples/go/trace-$s.trace" >"$tmp/p.pb"
		TZ=UTC go tool pprof -top -unit=ns -nodecount=100000 -nodefraction=0 \
			-edgefraction=0 -sample_index=delay "$tmp/p.pb" \
			>"$here/trace-$s.$t.pprof-top.txt" 2>/dev/null
	done
done

# The goroutine split (proftool goroutines): trace-S.gosplit.txt is what
# tests/gotrace/gosplit.awk computes from `go tool trace -d` (Go's parse, exact
# nanoseconds); trace-S.goroutine-pages.txt is what go tool trace's own goroutine pages
# show (its web server on 127.0.0.1, BROWSER=true so that no browser opens): a line per
# goroutine, "PC<TAB>id<TAB>total exec network sync syscall sched sweep gc-pause<TAB>name",
# the durations as the page prints them (niceDuration: truncated to ns, us or ms).
page_rows () {
	# one goroutine page: the cells of each row of the details table
	awk -v pc="$1" -v name="$2" '
		/<a href="\/trace\?goid=/ { sub(/.*goid=/, ""); sub(/".*/, ""); id = $0; n = 0; next }
		id != "" && /<td>/ && !/stacked-bar/ {
			s = $0; gsub(/<\/?td>/, "", s); sub(/ \(.*\)/, "", s); gsub(/^ +| +$/, "", s)
			if (s != "") v[++n] = s
			if (n == 8) {
				printf "%s\t%s\t", pc, id
				for (i = 1; i <= 8; i++) printf "%s%s", v[i], i < 8 ? " " : ""
				printf "\t%s\n", name; id = ""
			}
		}'
}
for s in blocking many gc; do
	f=$top/samples/go/trace-$s.trace
	go tool trace -d "$f" 2>/dev/null | awk -f "$top/tests/gotrace/gosplit.awk" \
		>"$here/trace-$s.gosplit.txt"
	BROWSER=true go tool trace -http=127.0.0.1:0 "$f" 2>"$tmp/log" &
	pid=$!
	i=0
	while ! grep -q 'listening on' "$tmp/log" && test $i -lt 300; do
		sleep 0.1
		i=$((i + 1))
	done
	url=$(sed -n 's/.*listening on //p' "$tmp/log")
	curl -fsS "$url/goroutines" | sed -n 's/.*href="\/goroutine?id=\([0-9]*\)">\([^<]*\)<.*/\1 \2/p' |
		while read -r pc name; do
			curl -fsS "$url/goroutine?id=$pc" | page_rows "$pc" "$name"
		done | LC_ALL=C sort -t "$(printf '\t')" -k2,2n >"$here/trace-$s.goroutine-pages.txt"
	kill $pid
	wait $pid 2>/dev/null || :
done
