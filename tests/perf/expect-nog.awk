# expect-nog.awk: what `convert --to collapsed` must print for `perf script` output
# recorded without -g (one line per sample: comm tid time: period event: addr sym+off
# (dso)), computed here independently of proftool. Variable opt: "", pid, tid, kernel,
# jit. Output unsorted "stack count" lines.
{
	comm = $1
	for (i = 2; i <= NF - 7; i++)
		comm = comm " " $i
	tid = $(NF - 6)
	period = $(NF - 4)
	sym = $(NF - 1)
	dso = $NF
	sub(/^\(/, "", dso)
	sub(/\)$/, "", dso)
	sub(/\+0x[0-9a-f]+$/, "", sym)
	if (sym == "[unknown]") {
		base = dso
		sub(/.*\//, "", base)
		sym = "[" base "]"
	}
	gsub(/;/, ":", sym)
	if (index(sym, "("))
		sym = substr(sym, 1, index(sym, "(") - 1)
	root = comm
	if (opt == "pid")
		root = root "-?"
	if (opt == "tid")
		root = root "-?/" tid
	gsub(/ /, "_", root)
	if (root ~ /^java/ && sym ~ /\//)
		sub(/^L/, "", sym)
	if (opt == "kernel" && dso ~ /^\[/ && dso !~ /unknown/)
		sym = sym "_[k]"
	if (opt == "jit" && dso ~ /\/tmp\/perf-[0-9]+\.map/)
		sym = sym "_[j]"
	out[root ";" sym] += period
}
END {
	for (k in out)
		printf "%s %d\n", k, out[k]
}
