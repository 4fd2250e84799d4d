#!/bin/sh
test_description='proftool record runs a program under the profiler that fits it'
. "$(dirname "$0")/lib.sh"

R=$SRCDIR/tests/record
# go keeps its build cache here, not in the home folder
GOCACHE=$(mktemp -d "${TMPDIR:-/tmp}/proftool-gocache.XXXXXX")
export GOCACHE
trap 'rm -rf "$TRASH" "$GOCACHE"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

# the first row of top's table: the function with the largest flat value
first_row () {
	sed -n '5s/^ *[^ ]* *[^ ]* *[^ ]* *[^ ]* *[^ ]*  //p' "$1"
}

test_expect_success 'record --help lists every option' '
	"$PROFTOOL" record --help >out &&
	for o in --output --profiler --mode --rate --duration --pid; do
		grep -q -- "$o" out || { echo "$o missing"; return 1; }
	done'

test_expect_success 'record without a command is a usage error' '
	test_expect_code 2 "$PROFTOOL" record &&
	test_one_line_err "proftool: record: a COMMAND to run, or --pid PID, is needed (see '\''proftool record --help'\'')"'

test_expect_success 'an unknown profiler is a usage error' '
	test_expect_code 2 "$PROFTOOL" record --profiler java -- true &&
	test_one_line_err "proftool: record: unknown profiler '\''java'\'' (ruby, node, go or perf) (see '\''proftool record --help'\'')"'

test_expect_success 'a mode other than cpu needs ruby' '
	test_expect_code 1 "$PROFTOOL" record --mode wall --profiler perf -- true &&
	test_one_line_err "proftool: record: --mode wall needs the ruby profiler (perf samples cpu only)"'

test_expect_success 'a missing profiler names its Debian package' '
	mkdir bin && ln -s "$(command -v sh)" bin/sh &&
	test_expect_code 1 env PATH="$PWD/bin" "$PROFTOOL" record --profiler perf -- true &&
	test_one_line_err "proftool: record: the perf profiler is missing: install the Debian package linux-perf"'

if command -v perf >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 &&
	perf record -q -o "$TRASH/probe.data" -- true >/dev/null 2>&1; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TRASH/hot" "$R/hot.c"
	test_expect_success 'a C program runs under perf: its hot function on top, its exit status kept' '
		test_expect_code 3 "$PROFTOOL" record -- "$TRASH/hot" &&
		grep -x done out &&
		grep -q "^Type: " out &&
		test "$(sed -n "6s/.*  //p" out)" = hot_loop &&
		! ls "${TMPDIR:-/tmp}" | grep -q "^proftool-record\.$$"'
	test_expect_success 'record -o writes the format its suffix names' '
		test_expect_code 3 "$PROFTOOL" record -o hot.pb.gz -- "$TRASH/hot" &&
		"$PROFTOOL" top -n 1 hot.pb.gz >top &&
		test "$(sed -n "5s/.*  //p" top)" = hot_loop'
	test_expect_success 'record -o FILE.html writes the HTML report' '
		test_expect_code 3 "$PROFTOOL" record -o hot.html -- "$TRASH/hot" &&
		head -c 15 hot.html | grep -qi "<!DOCTYPE html" &&
		grep -q hot_loop hot.html'
	test_expect_success 'record --pid attaches to a running process for --duration' '
		"$TRASH/hot" 600 >/dev/null & pid=$! &&
		"$PROFTOOL" record --pid $pid --duration 1 -o pid.collapsed &&
		wait $pid; grep -q "hot_loop" pid.collapsed'
	test_expect_success 'perf --duration profiles the start and lets the command finish' '
		test_expect_code 3 "$PROFTOOL" record --duration 1 -o dur.collapsed -- "$TRASH/hot" 600 &&
		grep -x done out && grep -q hot_loop dur.collapsed'
	test_expect_success 'SIGTERM reaches the command, and what ran is still read' '
		{ "$PROFTOOL" record -o sig.collapsed -- "$TRASH/hot" 100000 >/dev/null 2>&1
			echo $? >rc; } &
		i=0
		while ! pgrep -x hot >/dev/null && test $i -lt 300; do
			sleep 0.1; i=$((i + 1))
		done &&
		sleep 0.5 &&
		pkill -TERM -f "record -o sig.collapsed" &&
		wait &&
		test "$(cat rc)" = 143 &&
		grep -q hot_loop sig.collapsed'
	test_expect_success 'SIGINT sent to proftool (kill, not the terminal) reaches the command too' '
		{ "$PROFTOOL" record -o int.collapsed -- "$TRASH/hot" 100000 >/dev/null 2>&1
			echo $? >rc; } &
		i=0
		while ! pgrep -x hot >/dev/null && test $i -lt 300; do
			sleep 0.1; i=$((i + 1))
		done &&
		sleep 0.5 &&
		pkill -INT -f "record -o int.collapsed" &&
		wait &&
		test "$(cat rc)" = 130 &&
		grep -q hot_loop int.collapsed'
	test_expect_success 'SIGINT: status 130, the command stopped, no temporary file left' '
		tmp=$(mktemp -d /tmp/ptrec.XXXXXX)
		TMPDIR=$tmp "$PROFTOOL" record -o int2.collapsed -- "$TRASH/hot" 100001 \
			>/dev/null 2>&1 &
		pid=$!
		i=0
		while ! pgrep -f "^$TRASH/hot 100001" >/dev/null && test $i -lt 300; do
			sleep 0.1; i=$((i + 1))
		done
		sleep 0.5
		kill -INT $pid
		wait $pid
		test $? = 130 &&
		grep -q hot_loop int2.collapsed &&
		! pgrep -f "^$TRASH/hot 100001" &&
		test -z "$(ls "$tmp")" && rmdir "$tmp"'
	test_expect_success 'a command that does not exist: the reason, not a perf script failure' '
		test_expect_code 1 "$PROFTOOL" record -- no_such_cmd_pt &&
		test_one_line_err "proftool: record: cannot run no_such_cmd_pt: No such file or directory"'
	test_expect_success '--pid of no process: perf'"'"'s own error, not a perf script failure' '
		pid=$(($(cat /proc/sys/kernel/pid_max) - 1)) &&
		! kill -0 $pid 2>/dev/null &&
		test_expect_code 1 "$PROFTOOL" record --pid $pid --duration 1 &&
		grep -q "No such process" err &&
		grep -qx "proftool: record: perf record recorded nothing (exit status [0-9]*)" err &&
		! grep -q "perf script" err'
else
	test_skip 'record under perf' 'perf record cannot run here (Debian package linux-perf)'
fi

if command -v ruby >/dev/null 2>&1 && ruby -e 'require "stackprof"' 2>/dev/null; then
	test_expect_success 'a Ruby program runs under stackprof' '
		test_expect_code 4 "$PROFTOOL" record -- ruby "$R/work.rb" &&
		grep -x "ruby done" out &&
		sed -n "6p" out | grep -q "Object#hot_method"'
	test_expect_success 'record -o FILE.dump keeps stackprof'"'"'s own dump' '
		test_expect_code 4 "$PROFTOOL" record -o w.dump -- ruby "$R/work.rb" &&
		ruby -e "r = Marshal.load(File.binread(ARGV[0]))
			exit(r[:mode] == :cpu && r[:frames].values.any? { |f| f[:name] == %q(Object#hot_method) } ? 0 : 1)" w.dump &&
		"$PROFTOOL" info w.dump >info && grep -qx "Format: stackprof" info'
	test_expect_success 'stackprof modes: wall and object' '
		test_expect_code 4 "$PROFTOOL" record --mode wall -o wall.pb.gz -- ruby "$R/work.rb" &&
		"$PROFTOOL" info wall.pb.gz >info && grep -q "^Format: pprof" info &&
		test_expect_code 4 "$PROFTOOL" record --mode object -- ruby "$R/work.rb" &&
		grep -q "^Type: " out'
	test_expect_success 'a #! script naming ruby is recorded with stackprof' '
		{ echo "#!/usr/bin/env ruby"; cat "$R/work.rb"; } >script && chmod +x script &&
		test_expect_code 4 "$PROFTOOL" record -- ./script &&
		sed -n "6p" out | grep -q "Object#hot_method"'
else
	test_skip 'record under stackprof' 'no ruby with stackprof (Debian package ruby-stackprof)'
fi

if command -v node >/dev/null 2>&1; then
	test_expect_success 'a Node program runs with --cpu-prof' '
		"$PROFTOOL" record -- node "$R/work.js" >out &&
		grep -x "node done" out &&
		sed -n "6p" out | grep -q "hotFn"'
	test_expect_success 'record -o FILE.cpuprofile keeps the profile node wrote' '
		"$PROFTOOL" record -o n.cpuprofile -- node "$R/work.js" >out &&
		node -e "const p = JSON.parse(require(\"fs\").readFileSync(\"n.cpuprofile\"));
			process.exit(p.nodes.some(n => n.callFrame.functionName === \"hotFn\") &&
				p.samples.length === p.timeDeltas.length ? 0 : 1)" &&
		"$PROFTOOL" convert -o ours.cpuprofile n.cpuprofile &&
		! cmp -s n.cpuprofile ours.cpuprofile'
else
	test_skip 'record under node' 'no node (Debian package nodejs)'
fi

if command -v go >/dev/null 2>&1; then
	test_expect_success 'a Go test runs with -cpuprofile' '
		cp -R "$R/gotest" gt && cd gt &&
		"$PROFTOOL" record -- go test . >out &&
		grep -q "^ok" out &&
		awk "NR > 5 && \$6 ~ /hotpkg\\./ { print \$6; exit }" out | grep -q "hotpkg.hotSum"'
	test_expect_success 'record -o FILE.pb.gz keeps go test'"'"'s own profile' '
		cp -R "$R/gotest" gt && cd gt &&
		"$PROFTOOL" record -o ../go.pb.gz -- go test . >out &&
		cd .. &&
		go tool pprof -raw go.pb.gz >raw 2>/dev/null &&
		grep -q "hotpkg.hotSum" raw &&
		"$PROFTOOL" convert -o ours.pb.gz go.pb.gz &&
		! cmp -s go.pb.gz ours.pb.gz'
else
	test_skip 'record under go test' 'no go (Debian package golang-go)'
fi

test_done
