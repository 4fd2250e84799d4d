#!/bin/sh
# layers.sh [TOP]: check that every #include under src/ and formats/ follows the
# allowed directions between the layers, and print each one that does not:
#   cli -> report, analysis, formats, core, util
#   report -> analysis, core, util
#   formats -> core, util, and analysis only in files that read no format (writers)
#   analysis -> core, util
#   core -> util
# A layer may include its own headers. Each file must also open with its purpose line,
# a comment that names the file itself: "/* load.c: the load front ...". And no file under
# src/ compares a string with a format's name (a name on a row, `.name = "..."`, in
# formats/): what differs by format is data on its row. Exit 1 when any include is
# forbidden, a purpose line is missing or names another file, or src/ names a format.
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
status=0
for f in src/*/*.[ch] formats/*.[ch]; do
	test -f "$f" || continue
	# generated in an in-tree build: pprof's schema and the html report's assets
	case $f in */profile.pb-c.[ch] | */html-assets.c) continue ;; esac
	base=${f##*/}
	case $(head -n 1 "$f") in
	"/* $base: "*) ;;
	*)
		echo "$f: does not open with its purpose line (/* $base: ...)"
		status=1
		;;
	esac
	case $f in
	src/*) layer=${f#src/}; layer=${layer%%/*} ;;
	formats/*) layer=formats ;;
	esac
	case $layer in
	util) allowed="util" ;;
	core) allowed="core util" ;;
	analysis) allowed="analysis core util" ;;
	report) allowed="report analysis core util" ;;
	cli) allowed="cli report analysis formats core util" ;;
	formats)
		allowed="formats core util"
		# a file with a reader row may not reach analysis
		grep -Eq '^[[:space:]]*\.read[[:space:]]*=[[:space:]]*[a-z_]' "$f" ||
			allowed="$allowed analysis"
		;;
	*)
		echo "$f: not in a layer folder (util, core, analysis, report, cli)"
		status=1
		continue
		;;
	esac
	# quoted includes only: "config.h" and the generated pprof schema are not layers
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		{
		bad=0
		while read -r inc; do
			case $inc in
			config.h | profile.pb-c.h) continue ;;
			*/*) to=${inc%%/*} ;;
			*)
				echo "$f: includes \"$inc\" without its layer folder"
				bad=1
				continue
				;;
			esac
			ok=
			for a in $allowed; do
				test "$a" = "$to" && ok=1
			done
			if test -z "$ok"; then
				echo "$f: $layer may not include \"$inc\""
				bad=1
			fi
		done
		exit $bad
		} || status=1
done
# the formats' names, from their rows; then every strcmp or strncmp in src/ against one
names=$(sed -n 's/^[[:space:]]*\.name[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' formats/*.c 2>/dev/null |
	sort -u)
for n in $names; do
	grep -n "str[n]*cmp([^;]*\"$n\"" src/*/*.[ch] 2>/dev/null |
		sed "s/^\([^:]*:[0-9]*\):.*/\1: compares with the format name \"$n\" (make it data on its row)/"
done | sort | grep . && status=1
exit $status
