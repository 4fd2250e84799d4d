# expect-repeats.awk: what `convert --to collapsed` must print for the records of
# t4300 (a header "comm pid/tid time: period event:", then "\taddr sym+off (dso)" lines,
# leaf first, then a blank line), computed here without proftool. Variables: pid (1:
# the root is comm-pid), event (keep only that event's records; else every record).
# Output unsorted "stack period" lines.
/^[^\t]/ {
	comm = $1
	split($2, ids, "/")
	ev = $NF
	sub(/:$/, "", ev)
	period = $(NF - 1)
	root = pid ? comm "-" ids[1] : comm
	stack = ""
	keep = event == "" || ev == event
	next
}
/^\t/ {
	sym = $2
	sub(/\+0x[0-9a-f]+$/, "", sym)
	gsub(/;/, ":", sym)
	if (comm ~ /^java/ && sym ~ /^L/ && sym ~ /\//)
		sym = substr(sym, 2)
	stack = stack == "" ? sym : sym ";" stack
	next
}
/^$/ {
	if (keep && root != "")
		sum[root ";" stack] += period
	root = ""
}
END {
	for (s in sum)
		print s, sum[s]
}
