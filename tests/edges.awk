# edges.awk: an independent count of call edges over collapsed stacks, for checking
# `tree`. Output: "caller callee value" per edge, where an edge counts once per line
# however often it recurs there; sorted.
{
	count = $NF
	stack = $0
	sub(/[ \t]+[0-9.]+[ \t]*$/, "", stack)
	n = split(stack, f, ";")
	delete seen
	for (i = 1; i < n; i++) {
		k = f[i] " " f[i + 1]
		if (!(k in seen)) {
			seen[k] = 1
			edge[k] += count
		}
	}
}
END {
	for (k in edge)
		printf "%s %d\n", k, edge[k] | "LC_ALL=C sort"
}
