#!/bin/sh
# compare-binaries.sh OLD NEW [OUTDIR]: run two proftool binaries over the same matrix of
# commands and inputs (every sample, test input and malformed file under each command
# and option the tests use, every --help) and report each case whose stdout, stderr or
# exit status differ. For refactors that must not change behaviour: the last line says
# how many cases were compared and how many differ; exit 1 if any differ.
set -u
abs () { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
old=$(abs "$1")
new=$(abs "$2")
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/proftool-compare.XXXXXX")}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export LC_ALL=C TZ=UTC
mkdir -p "$out"
n=0
bad=0
case_env=

# run_case ARGS...: one command line under both binaries, outputs to files
run_case () {
	n=$((n + 1))
	for side in old new; do
		eval "bin=\$$side"
		(cd "$out" && rm -f o.out && env $case_env "$bin" "$@" >"$side.stdout" 2>"$side.stderr" </dev/null
		echo $? >"$side.rc"
		test -f o.out && cat o.out >>"$side.stdout"
		# a path of the binary in usage lines is not behaviour
		sed -i "s|$bin|proftool|g" "$side.stderr")
	done
	for kind in stdout stderr rc; do
		if ! cmp -s "$out/old.$kind" "$out/new.$kind"; then
			bad=$((bad + 1))
			echo "differs ($kind): $*"
			break
		fi
	done
}

inputs=$(find samples tests/data tests/malformed tests/ref -type f \
	! -name '*.sh' ! -name '*.err' ! -name README ! -name '*.md' ! -path '*/src/*' \
	! -name '*.go' ! -name '*.rb' ! -name '*.js' ! -name '*.c' ! -name '*.awk' | sort)
cmds=$("$new" --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
for c in $cmds; do
	run_case "$c" --help
done
run_case --help
run_case --version
run_case formats
for f in $inputs; do
	f=$top/$f
	run_case info "$f"
	run_case info --format json "$f"
	run_case top "$f"
	run_case top --cum -n 0 "$f"
	run_case top --format csv "$f"
	run_case top --format json "$f"
	run_case top --style pprof "$f"
	run_case top --style pprof --granularity lines "$f"
	run_case top --style pprof --granularity addresses --cum "$f"
	run_case top --style stackprof "$f"
	run_case top --granularity lines "$f"
	run_case top --granularity files --cum "$f"
	run_case top --granularity addresses "$f"
	run_case top --focus main --hide 'a' "$f"
	run_case top --collapse-recursion "$f"
	run_case tree "$f"
	run_case tree --format json "$f"
	run_case tree --granularity lines -n 0 "$f"
	run_case traces "$f"
	run_case method --regex . "$f"
	run_case method --format json --regex . "$f"
	run_case diff "$f" "$f"
	run_case diff --format json --normalize "$f" "$f"
	run_case diff --to collapsed "$f" "$f"
	run_case merge "$f" "$f"
	for to in collapsed callgrind dot speedscope svg cpuprofile html; do
		run_case convert --to "$to" "$f"
	done
	run_case convert --to pprof --no-gzip "$f"
	run_case convert --to dot --nodecount 0 --node-fraction 0 --edge-fraction 0 "$f"
	run_case convert --to collapsed --granularity lines "$f"
	run_case flamegraph --flamechart "$f"
	run_case flamegraph --inverted "$f"
	case_env=PROFTOOL_TEST_TREE=1
	run_case top "$f"
	run_case top --format json "$f"
	case_env=
done
echo "$n cases compared, $bad differ"
test "$bad" = 0
