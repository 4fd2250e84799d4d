#!/bin/sh
# make.sh: regenerate the raw Gecko profile here with Debian's firefox-esr: headless,
# a fresh profile directory and HOME, the profiler started with the browser
# (MOZ_PROFILER_STARTUP) and written at shutdown (MOZ_PROFILER_SHUTDOWN), while it
# takes a screenshot of src/fib.html. No network is used. See ../README.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/proftool-gecko.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$here/src/fib.html" "$work/fib.html"
mkdir "$work/profile"
env HOME="$work" MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_STARTUP_FEATURES=js \
	MOZ_PROFILER_STARTUP_INTERVAL=10 MOZ_PROFILER_STARTUP_FILTERS=GeckoMain \
	MOZ_PROFILER_SHUTDOWN="$work/firefox-esr-fib.json" \
	timeout 300 firefox-esr --headless --no-remote --profile "$work/profile" \
	--screenshot "$work/fib.png" "file://$work/fib.html" >"$work/firefox.log" 2>&1
gzip -9 -n -c "$work/firefox-esr-fib.json" >"$here/firefox-esr-fib.json.gz"
