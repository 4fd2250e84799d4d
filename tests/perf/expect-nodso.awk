# expect-nodso.awk: what `convert --to collapsed` must print for `perf script -F
# comm,tid,time,ip,sym` output (callchain lines "\taddr sym" without a dso; no period,
# so every sample counts 1), computed here independently of proftool. Variable opt: "",
# pid, tid. Output unsorted "stack count" lines.
function flush() {
	if (have)
		out[root (rest == "" ? "" : ";" rest)] += 1
	have = 0
}
/^[ \t]*$/ { flush(); next }
/^\t/ {
	n = split($0, a, " ")
	sym = n >= 2 ? a[2] : "[unknown]"
	for (i = 3; i <= n; i++)
		sym = sym " " a[i]
	sub(/\+0x[0-9a-f]+$/, "", sym)
	gsub(/;/, ":", sym)
	if (sym != "[unknown]" && index(sym, "("))
		sym = substr(sym, 1, index(sym, "(") - 1)
	if (root ~ /^java/ && sym ~ /\//)
		sub(/^L/, "", sym)
	rest = rest == "" ? sym : sym ";" rest
	next
}
{
	flush()
	line = $0
	sub(/ +[0-9.]+: *$/, "", line)	# time
	tid = line
	sub(/.* /, "", tid)
	sub(/ +[0-9]+$/, "", line)	# tid
	sub(/^ +/, "", line)
	root = line
	if (opt == "pid")
		root = root "-?"
	if (opt == "tid")
		root = root "-?/" tid
	gsub(/ /, "_", root)
	rest = ""
	have = 1
}
END {
	flush()
	for (k in out)
		printf "%s %d\n", k, out[k]
}
