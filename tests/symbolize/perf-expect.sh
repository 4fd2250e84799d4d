# perf-expect.sh: sourced by t4230 and t4240. What perf script's [unknown] frames of a
# binary should be named, from binutils alone (readelf, addr2line, c++filt), never from
# proftool: perf 6.1 prints an unnamed frame's address relative to the file (the ip
# less the map's start plus its file offset).

# exec_segment BIN: "p_offset p_vaddr" of its first executable LOAD segment
exec_segment () {
	readelf -lW "$1" |
		awk "\$1 == \"LOAD\" && (\$7 ~ /E/ || \$8 == \"E\") { print \$2, \$3; exit }"
}

# vaddr BIN ADDR...: each file-relative address as the binary own address (ADDR -
# p_offset + p_vaddr), 0x and hex, one a line
vaddr () {
	seg=$(exec_segment "$1")
	off=${seg% *} vad=${seg#* }
	shift
	for a in "$@"; do printf "0x%x\n" $((0x$a - off + vad)); done
}

# names BIN MODE: addr2line -a -f -i of the addresses on stdin, its names demangled as
# MODE says: c (addr2line -C), filt (c++filt, which keeps Rust hashes as proftool does)
# or raw (as the binary spells them)
names () {
	case $2 in
	c) addr2line -a -f -i -C -e "$1" ;;
	filt) addr2line -a -f -i -e "$1" | c++filt ;;
	raw) addr2line -a -f -i -e "$1" ;;
	esac
}

# expect_from NAME BIN [MODE]: the collapsed stacks of addrs.folded (convert
# --symbolize none --addrs: frames "[NAME <ADDR>]") with each such frame replaced by the
# frames addr2line names at its address, outermost first (MODE as names, default c),
# other frames with an address shown without it, summed again and sorted, into expect
expect_from () {
	grep -o "\[$1 <[0-9a-f]*>\]" addrs.folded | sed "s/.*<\(.*\)>.*/\1/" | sort -u >alist &&
	vaddr "$2" $(cat alist) | names "$2" "${3:-c}" >a2l &&
	awk "/^0x/ { if (k++) print c; c = \"\"; d = 0; next }
		{ if (d++ % 2 == 0) c = (c == \"\" ? \$0 : \$0 \";\" c) }
		END { print c }" a2l >chains &&
	test "$(wc -l <chains)" = "$(wc -l <alist)" &&
	paste -d"\t" alist chains >map &&
	awk -F"\t" -v name="$1" "
		FILENAME == \"map\" { c[\"[\" name \" <\" \$1 \">]\"] = \$2; next }
		{
			n = \$0; sub(/ [0-9]+\$/, \"\", n); cnt = substr(\$0, length(n) + 2)
			m = split(n, f, \";\"); out = \"\"
			for (i = 1; i <= m; i++) {
				g = f[i]
				if (g in c) g = c[g]
				else sub(/ <[0-9a-f]*>\]\$/, \"]\", g)
				out = out (i > 1 ? \";\" : \"\") g
			}
			sum[out] += cnt
		}
		END { for (s in sum) print s \" \" sum[s] }" map addrs.folded | sort >expect
}

# crafted BIN STRIPPED SYMBOL...: a perf script text with one record per symbol (nm's
# spelling), its one frame the symbol address plus 4 as a file offset in STRIPPED, as
# perf 6.1 prints an unnamed frame
crafted () {
	seg=$(exec_segment "$1")
	off=${seg% *} vad=${seg#* }
	bin=$1 str=$2
	shift 2
	for s in "$@"; do
		a=$(nm "$bin" | awk -v s="$s" "\$3 == s { print \$1; exit }")
		test -n "$a" || return 1
		printf "prog 1 1.0: 1 cpu-clock:\n\t%x [unknown] (%s)\n\n" \
			$((0x$a - vad + off + 4)) "$str"
	done
}

# own_records DSO: the records of the perf script text on stdin whose unnamed frames
# of a file are all in DSO (another stripped library, libgcc_s say, would be named from
# its exported symbols only, with a warning)
own_records () {
	awk -v dso="($1)" "BEGIN { RS = \"\"; ORS = \"\n\n\" }
	{
		n = split(\$0, l, \"\n\")
		for (i = 1; i <= n; i++)
			if (l[i] ~ /\[unknown\] \(\// && index(l[i], dso) == 0)
				next
		print
	}"
}

# record_or_skip TITLE DATA PROG: perf record -g of PROG (user space, a tenth of a
# second) into DATA; where perf cannot record here, skip TITLE with perf's reason and
# end the script
record_or_skip () {
	if ! command -v perf >/dev/null ||
		! perf record -q -e cpu-clock:u -g -o "$2" -- "$3" 300 >/dev/null 2>"$2.err"; then
		test_skip "$1" "perf cannot record here (linux-perf, perf_event_paranoid): $(head -1 "$2.err")"
		test_done
		exit
	fi
}
