# flatcum.awk: an independent flat/cum count over collapsed stacks, for checking `top`.
# Input: "a;b;c COUNT" lines. Output: "name flat cum" per function, sorted by name;
# cum counts a function once per line however often it recurs there.
{
	count = $NF
	stack = $0
	sub(/[ \t]+[0-9.]+[ \t]*$/, "", stack)
	n = split(stack, f, ";")
	flat[f[n]] += count
	delete seen
	for (i = 1; i <= n; i++)
		if (!(f[i] in seen)) {
			seen[f[i]] = 1
			cum[f[i]] += count
		}
}
END {
	for (k in cum)
		printf "%s %d %d\n", k, flat[k], cum[k] | "LC_ALL=C sort"
}
