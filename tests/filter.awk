# filter.awk: an independent implementation of the stack filters over collapsed stacks,
# for checking proftool's. Input: "a;b;c COUNT" lines. -v op=focus|ignore|hide|show|
# show_from|prune_from|fold and -v re=ERE (unanchored, on each frame name).
# Output: "stack COUNT" per resulting stack, counts summed, in LC_ALL=C sort order.
{
	count = $NF
	stack = $0
	sub(/[ \t]+[0-9.]+[ \t]*$/, "", stack)
	n = split(stack, f, ";")
	m = 0
	if (op == "focus" || op == "ignore") {
		hit = 0
		for (i = 1; i <= n; i++)
			if (f[i] ~ re)
				hit = 1
		if (hit != (op == "focus"))
			next
		for (i = 1; i <= n; i++)
			g[++m] = f[i]
	} else if (op == "hide" || op == "show") {
		for (i = 1; i <= n; i++)
			if ((f[i] ~ re) == (op == "show"))
				g[++m] = f[i]
	} else if (op == "show_from" || op == "prune_from") {
		first = 0
		for (i = 1; i <= n && !first; i++)
			if (f[i] ~ re)
				first = i
		if (!first) {
			if (op == "show_from")
				next
			first = n
		}
		lo = op == "show_from" ? first : 1
		hi = op == "show_from" ? n : first
		for (i = lo; i <= hi; i++)
			g[++m] = f[i]
	} else if (op == "fold") {
		for (i = 1; i <= n; i++) {
			k = 0
			for (j = 1; j <= m; j++)
				if (g[j] == f[i])
					k = j
			if (k)
				m = k
			else
				g[++m] = f[i]
		}
	}
	if (!m)
		next
	s = g[1]
	for (i = 2; i <= m; i++)
		s = s ";" g[i]
	if (!(s in sum))
		order[++nk] = s
	sum[s] += count
}
END {
	for (i = 1; i <= nk; i++)
		printf "%s %s\n", order[i], sum[order[i]] | "LC_ALL=C sort"
}
